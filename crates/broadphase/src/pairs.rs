//! Pair lists: the one packing of a pair into a sortable key, and sorted diffs.
//!
//! A pair `{a, b}` is packed as the `u64` key `min(a, b) << 32 | max(a, b)`, so
//! sorting keys sorts pairs lexicographically by `(a, b)` with `a < b`; sorting is
//! done by [`crate::radix`]. Each frame's sorted pairs are diffed against the last
//! frame's in one linear pass ([`PairFrame::publish`]): the added and removed pairs
//! are what a caller keeping per-pair state walks in step with the new pairs.

use crate::ProxyId;

/// Packs the pair of two ids in key order (the smaller id in the high half), whatever
/// the order of the arguments.
#[inline]
pub(crate) fn pack(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((lo as u64) << 32) | hi as u64
}

/// The pair of a packed key, smaller id first.
#[inline]
pub(crate) fn unpack(key: u64) -> (ProxyId, ProxyId) {
    (ProxyId((key >> 32) as u32), ProxyId(key as u32))
}

/// Hands each element of `new − old` to `added` and each of `old − new` to `removed`,
/// in order, for two sorted, duplicate-free lists. Most elements are in both (a
/// coherent frame keeps most pairs), so the equal case comes first.
#[inline]
pub(crate) fn sorted_diff<T: Ord + Copy>(
    old: &[T],
    new: &[T],
    mut added: impl FnMut(T),
    mut removed: impl FnMut(T),
) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        let (o, n) = (old[i], new[j]);
        if o == n {
            i += 1;
            j += 1;
        } else if o < n {
            removed(o);
            i += 1;
        } else {
            added(n);
            j += 1;
        }
    }
    old[i..].iter().for_each(|&o| removed(o));
    new[j..].iter().for_each(|&n| added(n));
}

/// The current pairs and the diffs against the previous frame, shared by the
/// broad phases of this crate.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairFrame {
    pub pairs: Vec<(ProxyId, ProxyId)>,
    pub added: Vec<(ProxyId, ProxyId)>,
    pub removed: Vec<(ProxyId, ProxyId)>,
    /// This frame's and the last frame's packed keys: the diff compares one `u64`
    /// per step instead of a pair of ids.
    keys: Vec<u64>,
    previous_keys: Vec<u64>,
}

impl PairFrame {
    /// A frame with the same pairs as the last: empty diffs.
    pub fn keep(&mut self) {
        self.added.clear();
        self.removed.clear();
    }

    /// Replaces the pairs by the sorted `keys` and computes the diffs. The keys are
    /// taken, not copied: `keys` gets an older buffer back (its contents unspecified).
    pub fn publish(&mut self, keys: &mut Vec<u64>) {
        std::mem::swap(&mut self.keys, &mut self.previous_keys);
        std::mem::swap(&mut self.keys, keys);
        let keys = &self.keys;
        self.pairs.clear();
        self.pairs.extend(keys.iter().map(|&k| unpack(k)));
        self.added.clear();
        self.removed.clear();
        let (added, removed) = (&mut self.added, &mut self.removed);
        sorted_diff(
            &self.previous_keys,
            &self.keys,
            |k| added.push(unpack(k)),
            |k| removed.push(unpack(k)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_of_sorted_lists() {
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        sorted_diff(
            &[1, 3, 5, 7],
            &[2, 3, 7, 8, 9],
            |k| added.push(k),
            |k| removed.push(k),
        );
        assert_eq!(added, vec![2, 8, 9]);
        assert_eq!(removed, vec![1, 5]);
    }

    #[test]
    fn keys_sort_like_ordered_pairs() {
        let mut keys = vec![pack(3, 2), pack(0, 9), pack(1, 2), pack(1, 0)];
        keys.sort_unstable();
        let pairs: Vec<_> = keys
            .into_iter()
            .map(unpack)
            .map(|(a, b)| (a.0, b.0))
            .collect();
        assert_eq!(pairs, vec![(0, 1), (0, 9), (1, 2), (2, 3)]);
    }
}
