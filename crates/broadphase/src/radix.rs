//! Stable LSD radix sort of `u64` keys, for sort keys and packed pair keys.
//!
//! One counting pass per digit, least significant first, each stable, so after the
//! last (most significant) digit the keys are in order. Only the digits that can be
//! non-zero are visited (ids below `2^bits` need `bits` bits in each half of a pair
//! key), which makes sorting `P` pair keys O(P) with 2–4 passes; a digit on which all
//! keys agree skips its scatter.

/// Stable LSD radix sort of `keys` on the bit ranges `digits` = `(shift, width)`,
/// least significant first. `scratch` is resized as needed and left holding garbage.
pub(crate) fn radix_sort(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, digits: &[(u32, u32)]) {
    // Below ~1,000 keys a comparison sort beats the counting passes.
    if keys.len() < 1024 {
        keys.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.resize(keys.len(), 0);
    let widest = digits.iter().map(|d| d.1).max().unwrap_or(0);
    let mut counts = vec![0usize; 1 << widest];
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

/// Sorts packed pair keys (see [`crate::pairs::pack`]) whose ids are all below
/// `id_bound`.
pub(crate) fn sort_pair_keys(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, id_bound: u32) {
    let bits = 32 - id_bound.leading_zeros();
    let mut digits = Vec::with_capacity(6);
    digits_for(0, bits, &mut digits);
    digits_for(32, bits, &mut digits);
    radix_sort(keys, scratch, &digits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::pack;
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
}
