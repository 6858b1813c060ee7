//! Persistent pair state: what a candidate pair carries from one step to the next.
//!
//! A pair is named by its two slot indices `a < b`, which are the broad phase's proxy
//! ids, so the broad phase's sorted pairs are sorted by `(a, b)`. The world keeps one
//! state per pair of the broad phase's last frame, in its order; each step carries
//! them over in one linear walk beside the broad phase's added and removed pairs (no
//! hashing, no search), which keeps the narrow phase's [`PairCache`] (last separating
//! axis or contact feature) and the feature ids of last step's manifold points.

use crate::BodyHandle;
use glam::Vec3;
use sepax_broadphase::ProxyId;
use sepax_narrowphase::{Manifold, ManifoldPoint, PairCache};

/// One candidate pair across steps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairState {
    pub a: BodyHandle,
    pub b: BodyHandle,
    /// The narrow phase's memory of this pair.
    pub cache: PairCache,
    /// Feature ids and anchors on a of the points of the last manifold (`prev_len` of
    /// them).
    pub prev_ids: [u64; 4],
    pub prev_anchors: [Vec3; 4],
    /// This step's matches of the points to last step's (set by the narrow pass).
    pub matches: [Option<u8>; 4],
    pub prev_len: u8,
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
            prev_ids: [0; 4],
            prev_anchors: [Vec3::ZERO; 4],
            matches: [None; 4],
            prev_len: 0,
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

    /// For each point of `manifold`, the index of the point of last step's manifold it
    /// continues, then remembers this manifold for the next step.
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
    /// nothing for the second pass. `matches_twin` below is the two passes alone; a
    /// test compares the two.
    pub(crate) fn match_points(&mut self, manifold: &Manifold, tolerance: f32) -> [Option<u8>; 4] {
        let points = &manifold.points[..manifold.points.len().min(4)];
        let same_ids = points.len() <= self.prev_len as usize
            && points.iter().zip(&self.prev_ids).all(|(p, &id)| p.id == id);
        let matches = if same_ids {
            std::array::from_fn(|i| (i < points.len()).then_some(i as u8))
        } else {
            self.matches_twin(points, tolerance)
        };
        for (i, p) in points.iter().enumerate() {
            self.prev_ids[i] = p.id;
            self.prev_anchors[i] = p.anchor_a;
        }
        self.prev_len = points.len() as u8;
        matches
    }

    /// The two passes of [`match_points`](Self::match_points) over `points` (at most
    /// 4), against the remembered ones; remembers nothing.
    fn matches_twin(&self, points: &[ManifoldPoint], tolerance: f32) -> [Option<u8>; 4] {
        let prev_len = self.prev_len as usize;
        let mut matches = [None; 4];
        let mut used = [false; 4];
        for (i, p) in points.iter().enumerate() {
            if let Some(j) = (0..prev_len).find(|&j| !used[j] && self.prev_ids[j] == p.id) {
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
            for j in (0..prev_len).filter(|&j| !used[j]) {
                let d = p.anchor_a.distance_squared(self.prev_anchors[j]);
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

    pub(crate) fn forget_points(&mut self) {
        self.prev_len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_narrowphase::Feature;

    /// `match_points` (with its same-ids shortcut) against the two passes alone, on
    /// manifolds of 0–4 points whose ids repeat last step's in place, in another order,
    /// in part, or with duplicates, and anchors near and far from last step's.
    #[test]
    fn match_points_equals_its_two_passes() {
        let mut seed = 0x2545_f491_u32;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        let mut state = PairState::new(BodyHandle::new(0, 0, 0), BodyHandle::new(1, 0, 0));
        let (mut shortcut, mut general) = (0, 0);
        for round in 0..100_000 {
            let len = next(5) as usize;
            let keep_ids = next(3) == 0;
            let points = (0..len)
                .map(|i| ManifoldPoint {
                    position: Vec3::ZERO,
                    depth: 0.0,
                    id: if keep_ids && i < state.prev_len as usize {
                        state.prev_ids[i]
                    } else {
                        next(6) as u64
                    },
                    anchor_a: Vec3::new(next(4) as f32 * 0.01, next(3) as f32 * 0.01, 0.0),
                    anchor_b: Vec3::ZERO,
                })
                .collect();
            let manifold = Manifold {
                normal: Vec3::Z,
                points,
                feature: Feature::FaceA(0),
            };
            let want = state.matches_twin(&manifold.points, 0.015);
            let same = manifold.points.len() <= state.prev_len as usize
                && manifold
                    .points
                    .iter()
                    .zip(&state.prev_ids)
                    .all(|(p, &id)| p.id == id);
            if same {
                shortcut += 1;
            } else {
                general += 1;
            }
            let got = state.match_points(&manifold, 0.015);
            assert_eq!(got, want, "round {round}");
            let remembered: Vec<u64> = state.prev_ids[..state.prev_len as usize].to_vec();
            let ids: Vec<u64> = manifold.points.iter().map(|p| p.id).collect();
            assert_eq!(remembered, ids, "round {round}");
        }
        assert!(
            shortcut > 20_000 && general > 20_000,
            "{shortcut} / {general}"
        );
    }
}
