//! Keeping the boxes sorted on the sweep axis from one frame to the next.
//!
//! Sort keys are `u64`: the high half is the box's `min` on the sweep axis mapped to
//! a `u32` whose unsigned order is the float order (flip all bits of negatives, set
//! the sign bit of the rest), the low half its position in last frame's order. Boxes
//! move little between frames, so last frame's order is almost sorted: insertion
//! sort repairs it in O(n + inversions). It gives up after [`REPAIR_BUDGET`]·n element moves
//! (teleports, a new axis, a first frame) and a stable LSD radix sort on the high half
//! (3 passes) sorts from scratch in O(n). From [`RADIX_FROM`] boxes on the radix sort
//! runs straight away: a full sweep comes only once boxes have left their fat boxes,
//! about 10% of their size since the last one, and in a dense scene that passes many
//! neighbours on the sweep axis (in the soup, tens per box), so the repair costs more
//! than the sort it was to save. Both are stable, so the order is the same either way.
//!
//! Sweep axis: the one with the largest variance of box centres, because spreading
//! the boxes along the sweep axis makes the intervals there overlap least. To avoid
//! re-sorting everything when two axes are about equal, the axis changes only when
//! another one's variance is more than [`AXIS_HYSTERESIS`] times the current one's.

use crate::radix::radix_sort;

/// Insertion sort stops after this many element moves per box.
pub(crate) const REPAIR_BUDGET: usize = 8;
/// From this many boxes on the order is radix-sorted without a repair first. Timed
/// alone in the full sweeps of `stress --scene soup --threads 2` (3 December 2026, 8
/// sweeps each): at 10,000 boxes the repairs succeeded in 132–135 µs, the radix sort
/// alone takes 54–80; at 50,000 every repair gave up after 368–372 µs, the radix sort
/// then took 353–467, and alone it takes 371–433.
pub(crate) const RADIX_FROM: usize = 4096;
/// Another axis must have this many times the current axis' centre variance.
pub(crate) const AXIS_HYSTERESIS: f64 = 1.5;

/// Float-order-preserving `u32` image of an `f32` (no NaN: inputs are validated).
#[inline]
pub(crate) fn order_bits(x: f32) -> u32 {
    let b = x.to_bits();
    if b & 0x8000_0000 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// Sorts `keys` by their high 32 bits, stably. Returns true when a full sort ran
/// (always from [`RADIX_FROM`] keys on).
pub(crate) fn repair_or_sort(
    keys: &mut Vec<u64>,
    scratch: &mut Vec<u64>,
    force_full: bool,
) -> bool {
    let budget = REPAIR_BUDGET * keys.len() + 64;
    if !force_full && keys.len() < RADIX_FROM && insertion_sort(keys, budget) {
        return false;
    }
    radix_sort(keys, scratch, 32, |k| k >> 32);
    true
}

/// Insertion sort on the high halves; false (keys partly sorted, still a permutation)
/// when more than `budget` moves would be needed.
fn insertion_sort(keys: &mut [u64], budget: usize) -> bool {
    let mut moves = 0usize;
    for i in 1..keys.len() {
        let k = keys[i];
        let hi = k >> 32;
        if keys[i - 1] >> 32 <= hi {
            continue;
        }
        let mut j = i;
        while j > 0 && keys[j - 1] >> 32 > hi {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
        moves += i - j;
        if moves > budget {
            return false;
        }
    }
    true
}

/// The axis to sweep next frame given the centre variances.
pub(crate) fn choose_axis(current: usize, variance: [f64; 3]) -> usize {
    let best = (0..3)
        .max_by(|&x, &y| variance[x].total_cmp(&variance[y]).then(y.cmp(&x)))
        .unwrap_or(0);
    if variance[best] > AXIS_HYSTERESIS * variance[current] {
        best
    } else {
        current
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_geometry::rng::Rng;

    #[test]
    fn order_bits_preserve_float_order() {
        let xs = [-1e30f32, -2.0, -1.0, -1e-30, 0.0, 1e-30, 1.0, 2.0, 1e30];
        for w in xs.windows(2) {
            assert!(order_bits(w[0]) < order_bits(w[1]));
        }
    }

    #[test]
    fn repair_and_full_sort_agree_with_std() {
        let mut rng = Rng::new(11);
        // Below and above `RADIX_FROM`, nearly sorted and shuffled; rounded, so that
        // many boxes share their key's high half (the order must keep them as they
        // came).
        for (n, noise) in [
            (500usize, 0.01f32),
            (500, 100.0),
            (3000, 0.5),
            (20_000, 2.0),
        ] {
            let mut keys: Vec<u64> = (0..n)
                .map(|i| {
                    let v = (i as f32 + rng.range(-noise, noise)).round();
                    ((order_bits(v) as u64) << 32) | i as u64
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_by_key(|k| k >> 32);
            let mut scratch = Vec::new();
            repair_or_sort(&mut keys, &mut scratch, false);
            let hi = |v: &[u64]| v.iter().map(|k| k >> 32).collect::<Vec<_>>();
            assert_eq!(hi(&keys), hi(&expected));
            // Stable: equal high halves keep last frame's order (the low half).
            assert_eq!(keys, expected);
            let mut ids: Vec<u64> = keys.iter().map(|k| k & 0xffff_ffff).collect();
            ids.sort_unstable();
            assert_eq!(ids, (0..n as u64).collect::<Vec<_>>());
        }
    }

    #[test]
    fn axis_changes_only_when_clearly_better() {
        assert_eq!(choose_axis(0, [1.0, 1.4, 0.5]), 0);
        assert_eq!(choose_axis(0, [1.0, 1.6, 0.5]), 1);
        assert_eq!(choose_axis(2, [0.0, 0.0, 0.0]), 2);
    }
}
