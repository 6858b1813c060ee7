//! Pair carry-over: last step's pair states moved to this step's pairs, chunk by chunk
//! inside the narrow pass.
//!
//! The broad phase gives this frame's pairs sorted, and the pairs added and removed
//! since the last frame (both sorted, usually few). Last step's states are in last
//! frame's pair order. So the new list is the old one with the removed states taken
//! out and fresh states put in at the added pairs' places, order kept:
//!
//! ```text
//! old:  s0  s1  s2  s3  s4          removed: s1        (removed_at = [1])
//! new:  s0  f   s2  s3  s4  f       added at new index 1 and 5 (added_at = [1, 5])
//! ```
//!
//! Each new slot `j` is found without a walk from the start: `A(j)` added pairs lie
//! before it, so it is fresh if `j` is in `added_at`, else the carried state number
//! `c = j - A(j)`; that is old index `i = c + #{k : removed_at[k] - k <= c}`
//! (`removed_at[k] - k` counts the kept states before removed state `k`; they are
//! before kept state `c` exactly when that count is at most `c`). So any chunk of the
//! new list finds its first old index with two binary searches and then walks in step
//! with the two lists. The narrow pass cuts the new list into its fixed chunks and
//! each chunk carries its states in right before it tests them (`step::narrow_phase`):
//! the states are then in cache for the test, and no pass of its own reads and
//! writes every state. The result is the same list for any chunking, so on any thread
//! count. `PairState` is `Copy`: the states between two entries of the diff are copied as
//! one block. When the diff is empty (a settled pile: the same pairs as last step), the
//! narrow pass skips the carry and updates last step's list in place
//! ([`CarryPlan::keeps_every_state`]).

use crate::pairs::PairState;
use sepax_broadphase::ProxyId;

type Key = (ProxyId, ProxyId);

/// Where the added pairs go and where the removed states were: reused buffers.
#[derive(Debug, Default)]
pub(crate) struct CarryPlan {
    /// Index in the new list of each added pair.
    added_at: Vec<usize>,
    /// Index in the old list of each removed pair.
    removed_at: Vec<usize>,
    /// `removed_at[k] - k`: kept states before removed state `k` (non-decreasing).
    kept_before: Vec<usize>,
}

impl CarryPlan {
    /// Takes the broad phase's diff indices: `added_at`, the index in the new pair list
    /// of each added pair, and `removed_at`, the index in the old list (so in `old`)
    /// of each removed pair, both in key order
    /// ([`SweepAndPrune::pairs_added_at`](sepax_broadphase::SweepAndPrune::pairs_added_at)
    /// and `pairs_removed_at`: the diff finds them, no search here).
    pub fn locate(&mut self, added_at: &[u32], removed_at: &[u32]) {
        self.added_at.clear();
        self.added_at.extend(added_at.iter().map(|&j| j as usize));
        self.removed_at.clear();
        self.removed_at
            .extend(removed_at.iter().map(|&i| i as usize));
        self.kept_before.clear();
        let kept = self.removed_at.iter().enumerate().map(|(k, &i)| i - k);
        self.kept_before.extend(kept);
    }

    /// The old index of each removed pair, in key order.
    pub fn removed_at(&self) -> &[usize] {
        &self.removed_at
    }

    /// True when the new list is the old one (`old` states, `new` pairs): nothing added
    /// or removed, so every state stays in its slot and the narrow pass can update last
    /// step's list in place instead of carrying it over (a settled pile's common case).
    pub fn keeps_every_state(&self, old: usize, new: usize) -> bool {
        self.added_at.is_empty() && self.removed_at.is_empty() && old == new
    }

    /// Fills `chunk`, the slots of the new list from index `start` on, with one state
    /// per pair of `pairs`: a carried state from `old`, or `fresh(a, b)` for an added
    /// pair (see the module docs). Any chunking gives the same list.
    pub fn carry_chunk(
        &self,
        old: &[PairState],
        pairs: &[Key],
        start: usize,
        chunk: &mut [PairState],
        fresh: &impl Fn(Key) -> PairState,
    ) {
        let (added_at, removed_at) = (&self.added_at, &self.removed_at);
        let mut a = added_at.partition_point(|&j| j < start);
        let carried = start - a;
        let mut r = self.kept_before.partition_point(|&k| k <= carried);
        let mut i = carried + r;
        let end = start + chunk.len();
        let mut j = start;
        while j < end {
            if added_at.get(a) == Some(&j) {
                chunk[j - start] = fresh(pairs[j]);
                a += 1;
                j += 1;
                continue;
            }
            while removed_at.get(r) == Some(&i) {
                i += 1;
                r += 1;
            }
            // Up to the next added slot, the next removed state or the chunk's end, new
            // slots and old states go in step: one block copy (a state is 80 bytes; a
            // copy call per state cost more than the copying).
            let next_added = added_at.get(a).copied().unwrap_or(end);
            let next_removed = removed_at.get(r).copied().unwrap_or(usize::MAX);
            let run = next_added
                .saturating_sub(j)
                .min(next_removed.saturating_sub(i))
                .clamp(1, end - j);
            let (to, from) = (j - start, i);
            // All `run` states are there unless the diff contradicts the lists (the
            // broad-phase tests check it against both): then the pairs past the end
            // of last step's list start fresh, with no panic.
            let carried = old
                .get(from..)
                .map_or(&[][..], |rest| &rest[..run.min(rest.len())]);
            let (copied, missing) = chunk[to..to + run].split_at_mut(carried.len());
            copied.copy_from_slice(carried);
            for (k, slot) in missing.iter_mut().enumerate() {
                *slot = fresh(pairs[j + carried.len() + k]);
            }
            debug_assert!((0..run).all(|k| chunk[to + k].key() == pairs[j + k]));
            i += run;
            j += run;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyHandle;

    fn state((a, b): Key, tag: u32) -> PairState {
        let mut st = PairState::new(BodyHandle::new(a.0, 0, 0), BodyHandle::new(b.0, 0, 0));
        st.contact = tag;
        st
    }

    /// The chunked carry against the plain merge, on lists with additions and removals
    /// at the ends, in runs and next to each other, for chunk sizes from 1 up.
    #[test]
    fn chunked_carry_matches_the_merge() {
        let key = |i: u32| (ProxyId(i / 7), ProxyId(i));
        let mut seed = 0x9e37_79b9_u32;
        let mut bit = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % 3
        };
        for _ in 0..20 {
            // Each key of 0..300 is old only, new only, both, or neither.
            let (mut old, mut pairs, mut added, mut removed) = (vec![], vec![], vec![], vec![]);
            for i in 0..300 {
                let (in_old, in_new) = (bit() != 0, bit() != 0);
                if in_old {
                    old.push(state(key(i), i));
                }
                if in_new {
                    pairs.push(key(i));
                }
                match (in_old, in_new) {
                    (true, false) => removed.push(key(i)),
                    (false, true) => added.push(key(i)),
                    _ => {}
                }
            }
            // The indices as the broad phase's diff gives them.
            let added_at: Vec<u32> = added
                .iter()
                .map(|k| pairs.iter().position(|p| p == k).unwrap() as u32)
                .collect();
            let removed_at: Vec<u32> = removed
                .iter()
                .map(|k| old.iter().position(|s| s.key() == *k).unwrap() as u32)
                .collect();
            let mut plan = CarryPlan::default();
            plan.locate(&added_at, &removed_at);
            let fresh = |k: Key| state(k, u32::MAX);
            let expected: Vec<u32> = pairs
                .iter()
                .map(|k| {
                    old.iter()
                        .find(|s| s.key() == *k)
                        .map_or(u32::MAX, |s| s.contact)
                })
                .collect();
            for chunk in [1, 2, 3, 7, 64, 1000] {
                let mut next = vec![state(key(0), 7); pairs.len()];
                for (c, slots) in next.chunks_mut(chunk).enumerate() {
                    plan.carry_chunk(&old, &pairs, c * chunk, slots, &fresh);
                }
                let got: Vec<u32> = next.iter().map(|s| s.contact).collect();
                assert_eq!(got, expected, "chunk {chunk}");
                assert!(next.iter().zip(&pairs).all(|(s, k)| s.key() == *k));
            }
        }
    }

    /// A diff that leaves more carried pairs than last step's list holds (it cannot
    /// come from the broad phase, whose diffs are checked against its lists) starts
    /// the pairs beyond the list fresh instead of panicking.
    #[test]
    fn a_diff_short_of_states_starts_the_rest_fresh() {
        let key = |i: u32| (ProxyId(i), ProxyId(i + 1));
        let old: Vec<PairState> = (0..3).map(|i| state(key(i), i)).collect();
        let pairs: Vec<Key> = (0..5).map(key).collect();
        let mut plan = CarryPlan::default();
        plan.locate(&[], &[]);
        let fresh = |k: Key| state(k, u32::MAX);
        for chunk in [1, 2, 5] {
            let mut next = vec![state(key(9), 7); pairs.len()];
            for (c, slots) in next.chunks_mut(chunk).enumerate() {
                plan.carry_chunk(&old, &pairs, c * chunk, slots, &fresh);
            }
            let got: Vec<u32> = next.iter().map(|s| s.contact).collect();
            assert_eq!(got, [0, 1, 2, u32::MAX, u32::MAX], "chunk {chunk}");
        }
    }
}
