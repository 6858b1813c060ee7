//! Persistent pair state: what a candidate pair carries from one step to the next.
//!
//! A pair is keyed by `a << 32 | b` with `a < b` the two slot indices, so sorting keys
//! sorts pairs by `(a, b)`. The world keeps the states of last step's candidate pairs
//! sorted by key; each step merges them with the new sorted candidate keys in one
//! linear pass (no hashing), which carries over the narrow phase's [`PairCache`]
//! (last separating axis or contact feature) and the feature ids of last step's
//! manifold points.

use crate::BodyHandle;
use glam::Vec3;
use sepax_narrowphase::{Manifold, PairCache};

/// The key of the pair of slots `a < b`.
#[inline]
pub(crate) fn pack(a: u32, b: u32) -> u64 {
    ((a as u64) << 32) | b as u64
}

/// The slots of a key.
#[inline]
pub(crate) fn unpack(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

/// One candidate pair across steps.
#[derive(Clone, Debug)]
pub(crate) struct PairState {
    pub key: u64,
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
    pub(crate) fn new(key: u64, a: BodyHandle, b: BodyHandle) -> PairState {
        PairState {
            key,
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

    /// For each point of `manifold`, the index of the point of last step's manifold it
    /// continues, then remembers this manifold for the next step.
    ///
    /// Two passes, each previous point used once: first equal feature ids; then, for the
    /// points still unmatched, the nearest unused previous point whose anchor on a is
    /// within `tolerance` (points keep their place on the body while their id changes,
    /// e.g. when the reference face switches). Deterministic: points in manifold order,
    /// ties to the lower index.
    pub(crate) fn match_points(&mut self, manifold: &Manifold, tolerance: f32) -> [Option<u8>; 4] {
        let prev_len = self.prev_len as usize;
        let mut matches = [None; 4];
        let mut used = [false; 4];
        let points = &manifold.points[..manifold.points.len().min(4)];
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
        for (i, p) in points.iter().enumerate() {
            self.prev_ids[i] = p.id;
            self.prev_anchors[i] = p.anchor_a;
        }
        self.prev_len = points.len() as u8;
        matches
    }

    pub(crate) fn forget_points(&mut self) {
        self.prev_len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_like_index_pairs() {
        let mut keys = vec![pack(2, 3), pack(0, 9), pack(1, 2), pack(0, 1)];
        keys.sort_unstable();
        let pairs: Vec<_> = keys.into_iter().map(unpack).collect();
        assert_eq!(pairs, vec![(0, 1), (0, 9), (1, 2), (2, 3)]);
    }
}
