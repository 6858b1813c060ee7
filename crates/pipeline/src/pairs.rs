//! Persistent pair state: what a candidate pair carries from one step to the next.
//!
//! A pair is keyed by `a << 32 | b` with `a < b` the two slot indices, so sorting keys
//! sorts pairs by `(a, b)`. The world keeps the states of last step's candidate pairs
//! sorted by key; each step merges them with the new sorted candidate keys in one
//! linear pass (no hashing), which carries over the narrow phase's [`PairCache`]
//! (last separating axis or contact feature) and the feature ids of last step's
//! manifold points.

use crate::BodyHandle;
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
    /// Feature ids of the points of the last manifold (`prev_len` of them).
    pub prev_ids: [u64; 4],
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
            prev_len: 0,
            was_touching: false,
            filtered: false,
            contact: u32::MAX,
            has_result: false,
        }
    }

    /// Flags each point of `manifold` whose feature id was in last step's manifold,
    /// then remembers this manifold's ids for the next step.
    pub(crate) fn match_points(&mut self, manifold: &Manifold) -> [bool; 4] {
        let prev = &self.prev_ids[..self.prev_len as usize];
        let mut persisted = [false; 4];
        let mut ids = [0u64; 4];
        let mut len = 0;
        for (i, p) in manifold.points.iter().take(4).enumerate() {
            persisted[i] = prev.contains(&p.id);
            ids[i] = p.id;
            len += 1;
        }
        self.prev_ids = ids;
        self.prev_len = len;
        persisted
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
