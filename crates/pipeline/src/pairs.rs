//! Persistent pair state: what a candidate pair carries from one step to the next.
//!
//! A pair is named by its two slot indices `a < b`, which are the broad phase's proxy
//! ids, so the broad phase's sorted pairs are sorted by `(a, b)`. The world keeps one
//! state per pair of the broad phase's last frame, in its order; each step carries
//! them over in one linear walk beside the broad phase's added and removed pairs (no
//! hashing, no search), which keeps the narrow phase's [`PairCache`] (last separating
//! axis or contact feature) and where the pair's contact is in last step's contacts.
//! Last step's manifold points (their feature ids and anchors, which
//! [`match_points`] matches this step's points against) are read from that contact,
//! not copied into the state: the state is half the size (80 bytes, was 160) for the
//! step's carry, which copies every state every step.

use crate::BodyHandle;
use sepax_broadphase::ProxyId;
use sepax_narrowphase::{ManifoldPoint, PairCache};

/// One candidate pair across steps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairState {
    pub a: BodyHandle,
    pub b: BodyHandle,
    /// The narrow phase's memory of this pair.
    pub cache: PairCache,
    /// This step's matches of the points to last step's (set by the narrow pass).
    pub matches: [Option<u8>; 4],
    /// The pair touched at the last step.
    pub was_touching: bool,
    /// The groups forbid the pair this step (set by the narrow phase).
    pub filtered: bool,
    /// Index of this pair in last step's contacts, `u32::MAX` when it was not touching.
    pub contact: u32,
    /// The pair has a result from the previous step (computed or reused), so it may be
    /// reused when neither body changed.
    pub has_result: bool,
}

impl PairState {
    pub(crate) fn new(a: BodyHandle, b: BodyHandle) -> PairState {
        PairState {
            a,
            b,
            cache: PairCache::default(),
            matches: [None; 4],
            was_touching: false,
            filtered: false,
            contact: u32::MAX,
            has_result: false,
        }
    }

    /// The pair's slots as broad-phase ids, `a < b`: its key in the broad phase's order.
    #[inline]
    pub(crate) fn key(&self) -> (ProxyId, ProxyId) {
        (ProxyId(self.a.index()), ProxyId(self.b.index()))
    }
}

/// For each of `points` (this step's manifold, at most 4 used), the index of the point
/// of `prev` (last step's manifold of the pair, at most 4 used) it continues.
///
/// Two passes, each previous point used once: first equal feature ids; then, for the
/// points still unmatched, the nearest unused previous point whose anchor on a is
/// within `tolerance` (points keep their place on the body while their id changes,
/// e.g. when the reference face switches). Deterministic: points in manifold order,
/// ties to the lower index.
///
/// The common case, a contact that goes on with point `i` carrying last step's id
/// `i` for every point, is answered without the passes: they would match each point
/// to its own place (the points before `i` took the places before `i`), and leave
/// nothing for the second pass. [`matches_twin`] is the two passes alone; a test
/// compares the two.
pub(crate) fn match_points(
    prev: &[ManifoldPoint],
    points: &[ManifoldPoint],
    tolerance: f32,
) -> [Option<u8>; 4] {
    let (prev, points) = (&prev[..prev.len().min(4)], &points[..points.len().min(4)]);
    let same_ids = points.len() <= prev.len() && points.iter().zip(prev).all(|(p, q)| p.id == q.id);
    if same_ids {
        std::array::from_fn(|i| (i < points.len()).then_some(i as u8))
    } else {
        matches_twin(prev, points, tolerance)
    }
}

/// The two passes of [`match_points`] over `points` against `prev` (at most 4 each).
fn matches_twin(
    prev: &[ManifoldPoint],
    points: &[ManifoldPoint],
    tolerance: f32,
) -> [Option<u8>; 4] {
    let (prev, points) = (&prev[..prev.len().min(4)], &points[..points.len().min(4)]);
    let mut matches = [None; 4];
    let mut used = [false; 4];
    for (i, p) in points.iter().enumerate() {
        if let Some(j) = (0..prev.len()).find(|&j| !used[j] && prev[j].id == p.id) {
            used[j] = true;
            matches[i] = Some(j as u8);
        }
    }
    let limit = tolerance * tolerance;
    for (i, p) in points.iter().enumerate() {
        if matches[i].is_some() {
            continue;
        }
        let mut best: Option<(usize, f32)> = None;
        for j in (0..prev.len()).filter(|&j| !used[j]) {
            let d = p.anchor_a.distance_squared(prev[j].anchor_a);
            if d <= limit && best.is_none_or(|(_, b)| d < b) {
                best = Some((j, d));
            }
        }
        if let Some((j, _)) = best {
            used[j] = true;
            matches[i] = Some(j as u8);
        }
    }
    matches
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// The state stays small: the step's carry copies every one of them every step. It
    /// was 80 bytes until the pair cache took the record of a kept face's clip
    /// (`PairCache`: 24 bytes more, 64 in all; the record shares its room with GJK's
    /// simplex).
    #[test]
    fn a_pair_state_is_104_bytes() {
        assert_eq!(size_of::<PairState>(), 104);
    }

    /// `match_points` (with its same-ids shortcut) against the two passes alone, on
    /// manifolds of 0–4 points whose ids repeat last step's in place, in another order,
    /// in part, or with duplicates, and anchors near and far from last step's; each
    /// round's points are the next round's previous ones.
    #[test]
    fn match_points_equals_its_two_passes() {
        let mut seed = 0x2545_f491_u32;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        let mut prev: Vec<ManifoldPoint> = Vec::new();
        let (mut shortcut, mut general) = (0, 0);
        for round in 0..100_000 {
            let len = next(5) as usize;
            let keep_ids = next(3) == 0;
            let points: Vec<ManifoldPoint> = (0..len)
                .map(|i| ManifoldPoint {
                    position: Vec3::ZERO,
                    depth: 0.0,
                    id: if keep_ids && i < prev.len() {
                        prev[i].id
                    } else {
                        next(6) as u64
                    },
                    anchor_a: Vec3::new(next(4) as f32 * 0.01, next(3) as f32 * 0.01, 0.0),
                    anchor_b: Vec3::ZERO,
                })
                .collect();
            let want = matches_twin(&prev, &points, 0.015);
            let same =
                points.len() <= prev.len() && points.iter().zip(&prev).all(|(p, q)| p.id == q.id);
            if same {
                shortcut += 1;
            } else {
                general += 1;
            }
            let got = match_points(&prev, &points, 0.015);
            assert_eq!(got, want, "round {round}");
            prev = points;
        }
        assert!(
            shortcut > 20_000 && general > 20_000,
            "{shortcut} / {general}"
        );
    }
}
