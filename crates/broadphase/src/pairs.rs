//! Pair lists: packing, the radix sort that orders them, and sorted diffs.
//!
//! A pair `(a, b)` with `a < b` is packed as the `u64` key `a << 32 | b`, so sorting
//! keys sorts pairs lexicographically. The sort is an LSD radix sort: one counting
//! pass per digit, each stable, so after the last (most significant) digit the keys
//! are in order. Only the digits that can be non-zero are visited (ids below
//! `2^bits` need `bits` bits in each half), which makes it O(P) with 2–4 passes.

use crate::ProxyId;

/// Packs a pair in key order (the smaller id in the high half).
#[inline]
pub(crate) fn pack(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((lo as u64) << 32) | hi as u64
}

/// The pair of a packed key.
#[inline]
pub(crate) fn unpack(key: u64) -> (ProxyId, ProxyId) {
    (ProxyId((key >> 32) as u32), ProxyId(key as u32))
}

/// Stable LSD radix sort of `keys` on the bit ranges `digits` = `(shift, width)`,
/// least significant first. `scratch` is resized as needed and left holding garbage.
pub(crate) fn radix_sort(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, digits: &[(u32, u32)]) {
    if keys.len() < 64 {
        keys.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.resize(keys.len(), 0);
    let mut counts = vec![0usize; 1 << 12];
    for &(shift, width) in digits {
        debug_assert!(width <= 12);
        let mask = (1u64 << width) - 1;
        let counts = &mut counts[..1 << width];
        counts.fill(0);
        for &k in keys.iter() {
            counts[((k >> shift) & mask) as usize] += 1;
        }
        // A digit where every key agrees changes nothing: skip its scatter.
        if counts.contains(&keys.len()) {
            continue;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &k in keys.iter() {
            let d = ((k >> shift) & mask) as usize;
            scratch[counts[d]] = k;
            counts[d] += 1;
        }
        std::mem::swap(keys, scratch);
    }
}

/// Digits covering the bits `[lo, lo + bits)` of a key, at most 12 bits each.
pub(crate) fn digits_for(lo: u32, bits: u32, out: &mut Vec<(u32, u32)>) {
    let passes = bits.div_ceil(12).max(1);
    let width = bits.div_ceil(passes);
    let mut shift = lo;
    while shift < lo + bits {
        let w = width.min(lo + bits - shift);
        out.push((shift, w));
        shift += w;
    }
}

/// Sorts packed pair keys whose ids are all below `id_bound`.
pub(crate) fn sort_pair_keys(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, id_bound: u32) {
    let bits = 32 - id_bound.leading_zeros();
    let mut digits = Vec::with_capacity(6);
    digits_for(0, bits, &mut digits);
    digits_for(32, bits, &mut digits);
    radix_sort(keys, scratch, &digits);
}

/// `added = new − old` and `removed = old − new`, for two sorted, duplicate-free lists.
pub(crate) fn sorted_diff<T: Ord + Copy>(
    old: &[T],
    new: &[T],
    added: &mut Vec<T>,
    removed: &mut Vec<T>,
) {
    added.clear();
    removed.clear();
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                removed.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(new[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    removed.extend_from_slice(&old[i..]);
    added.extend_from_slice(&new[j..]);
}

/// The current pairs and the diffs against the previous frame, shared by the
/// broad phases of this crate.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairFrame {
    pub pairs: Vec<(ProxyId, ProxyId)>,
    pub previous: Vec<(ProxyId, ProxyId)>,
    pub added: Vec<(ProxyId, ProxyId)>,
    pub removed: Vec<(ProxyId, ProxyId)>,
}

impl PairFrame {
    /// Replaces the pairs by the sorted `keys` and computes the diffs.
    pub fn publish(&mut self, keys: &[u64]) {
        std::mem::swap(&mut self.pairs, &mut self.previous);
        self.pairs.clear();
        self.pairs.extend(keys.iter().map(|&k| unpack(k)));
        sorted_diff(
            &self.previous,
            &self.pairs,
            &mut self.added,
            &mut self.removed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_geometry::rng::Rng;

    #[test]
    fn radix_sort_matches_std_sort() {
        let mut rng = Rng::new(3);
        for &(n, bound) in &[(10usize, 5u32), (1000, 70), (5000, 4096), (20000, 200_000)] {
            let mut keys: Vec<u64> = (0..n)
                .map(|_| {
                    let a = rng.below(bound as usize) as u32;
                    let b = rng.below(bound as usize) as u32;
                    pack(a, b)
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            let mut scratch = Vec::new();
            sort_pair_keys(&mut keys, &mut scratch, bound);
            assert_eq!(keys, expected);
        }
    }

    #[test]
    fn diff_of_sorted_lists() {
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        sorted_diff(&[1, 3, 5, 7], &[2, 3, 7, 8, 9], &mut added, &mut removed);
        assert_eq!(added, vec![2, 8, 9]);
        assert_eq!(removed, vec![1, 5]);
    }
}
