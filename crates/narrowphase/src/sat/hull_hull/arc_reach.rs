//! Which of a hull's edges the edge query pairs: the reach test of
//! [`EdgeBlock::may_reach`] over every block, in one AVX2 register a block when this CPU
//! has AVX2 (chosen at run time, as for the batched box pairs), else in `wide`'s lanes
//! (two SSE2 halves on the baseline build, NEON on aarch64).
//!
//! **Determinism rule.** The AVX2 path runs `may_reach`'s operations in its order —
//! separate multiplies and adds (no fused multiply-add), IEEE square roots, the same
//! operand order in `max` and the same select — so both paths give the same bits; the
//! unit test below compares them on random hulls, boxes and targets.

use glam::Vec3;
use sepax_geometry::hull::blocks::BLOCK;
#[cfg(target_arch = "x86_64")]
use sepax_geometry::hull::edge_blocks::{DIRECTION_UNIT, REACH_SLACK, point_slack};
use sepax_geometry::hull::edge_blocks::{EdgeBlock, ReachTarget};
use smallvec::SmallVec;

/// One mask a block (bit `l`: edge `8k + l` may reach every target), inline up to 32
/// blocks (256 edges).
pub(super) type ReachMasks = SmallVec<[u8; 32]>;

/// The reach masks of every block into `out` (cleared first).
pub(super) fn reach_masks(
    blocks: &[EdgeBlock],
    point_scale: Vec3,
    targets: &[ReachTarget; 2],
    out: &mut ReachMasks,
) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if crate::sat::box_box_wide::SimdLevel::detected() == crate::sat::box_box_wide::SimdLevel::Avx2
    {
        out.resize(blocks.len(), 0);
        // SAFETY: `detected` returns AVX2 only after checking that this CPU runs it, the
        // one requirement of a `#[target_feature(enable = "avx2")]` fn.
        unsafe { reach_masks_avx2(blocks, point_scale, targets, out) };
        return;
    }
    out.extend(
        blocks
            .iter()
            .map(|b| b.may_reach(point_scale, targets) as u8),
    );
}

/// Calls `visit` with each edge whose bit is set in `masks`, in index order.
#[inline(always)]
pub(super) fn for_each_reaching(masks: &ReachMasks, mut visit: impl FnMut(usize)) {
    for (k, &mask) in masks.iter().enumerate() {
        let mut reaching = mask as u32;
        while reaching != 0 {
            visit(k * BLOCK + reaching.trailing_zeros() as usize);
            reaching &= reaching - 1;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn reach_masks_avx2(
    blocks: &[EdgeBlock],
    point_scale: Vec3,
    targets: &[ReachTarget; 2],
    out: &mut [u8],
) {
    use std::arch::x86_64::{
        __m128i, __m256, _CMP_GE_OQ, _CMP_NLT_UQ, _mm_loadu_si128, _mm256_add_ps, _mm256_blendv_ps,
        _mm256_cmp_ps, _mm256_cvtepi16_epi32, _mm256_cvtepi32_ps, _mm256_max_ps,
        _mm256_movemask_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps, _mm256_sqrt_ps,
        _mm256_sub_ps,
    };
    // A row of 8 `i16` as 8 floats (exact).
    let row = |lanes: &[i16; 8]| -> __m256 {
        // SAFETY: reads the 16 bytes of `lanes` (unaligned load, in bounds).
        let packed = unsafe { _mm_loadu_si128(lanes.as_ptr() as *const __m128i) };
        _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(packed))
    };
    let (mul, add, sub) = (_mm256_mul_ps, _mm256_add_ps, _mm256_sub_ps);
    let splat = _mm256_set1_ps;
    let zero = _mm256_setzero_ps();
    let unit = splat(DIRECTION_UNIT);
    let lowered = point_slack(point_scale);
    let bounds = targets.map(|t| splat(t.bound - lowered));
    for (block, mask) in blocks.iter().zip(out.iter_mut()) {
        let p = [
            mul(row(&block.point[0]), splat(point_scale.x)),
            mul(row(&block.point[1]), splat(point_scale.y)),
            mul(row(&block.point[2]), splat(point_scale.z)),
        ];
        let mid = [
            mul(row(&block.mid[0]), unit),
            mul(row(&block.mid[1]), unit),
            mul(row(&block.mid[2]), unit),
        ];
        let (cos_half, sin_half) = (
            mul(row(&block.cos_half), unit),
            mul(row(&block.sin_half), unit),
        );
        let valid = _mm256_cmp_ps::<_CMP_GE_OQ>(cos_half, splat(-1.5));
        let mut reach = _mm256_movemask_ps(valid) as u32;
        for (target, &bound) in targets.iter().zip(&bounds) {
            let q = target.point;
            let w = [
                sub(splat(q.x), p[0]),
                sub(splat(q.y), p[1]),
                sub(splat(q.z), p[2]),
            ];
            let along = add(add(mul(mid[0], w[0]), mul(mid[1], w[1])), mul(mid[2], w[2]));
            let squared = add(add(mul(w[0], w[0]), mul(w[1], w[1])), mul(w[2], w[2]));
            let length = _mm256_sqrt_ps(squared);
            let inside = _mm256_cmp_ps::<_CMP_GE_OQ>(along, mul(length, cos_half));
            let across = _mm256_sqrt_ps(_mm256_max_ps(sub(squared, mul(along, along)), zero));
            let outside = add(mul(along, cos_half), mul(across, sin_half));
            let largest = _mm256_blendv_ps(outside, length, inside);
            let value = add(largest, mul(length, splat(REACH_SLACK)));
            // Not below the bound: a NaN value reaches, as in the lanes.
            let reached = _mm256_cmp_ps::<_CMP_NLT_UQ>(value, bound);
            reach &= _mm256_movemask_ps(reached) as u32;
            if reach == 0 {
                break;
            }
        }
        *mask = reach as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_geometry::ConvexHull;
    use sepax_geometry::rng::Rng;

    /// This CPU's path (AVX2 where it has it) gives `may_reach`'s masks bit for bit, on
    /// random hulls and scaled unit cubes, against random targets.
    #[test]
    fn masks_match_the_lanes() {
        let mut rng = Rng::new(0xa7c5);
        let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
        let (mut some, mut none) = (0, 0);
        let mut masks = ReachMasks::new();
        for trial in 0..500 {
            let n = 4 + (rng.next_u64() % 120) as usize;
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.vec3(Vec3::splat(0.01), Vec3::splat(2.0)))
                .collect();
            let hull = ConvexHull::try_from_points(&points).unwrap();
            let (shape, scale) = if trial % 4 == 0 {
                (&cube, rng.vec3(Vec3::splat(0.01), Vec3::splat(5.0)))
            } else {
                (&hull, Vec3::ONE)
            };
            let scale = scale * shape.edge_point_unit();
            for _ in 0..10 {
                // One target in eight far enough out that `|w|²` overflows (NaN lanes).
                let mut target = || {
                    let reach = if rng.next_u64().is_multiple_of(8) {
                        1e30
                    } else {
                        3.0
                    };
                    ReachTarget {
                        point: rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)),
                        bound: rng.range(-1.0, 3.0),
                    }
                };
                let targets = [target(), target()];
                reach_masks(shape.edge_blocks(), scale, &targets, &mut masks);
                assert_eq!(masks.len(), shape.edge_blocks().len());
                for (block, &mask) in shape.edge_blocks().iter().zip(&masks) {
                    assert_eq!(mask as u32, block.may_reach(scale, &targets));
                    some += (mask != 0) as usize;
                    none += (mask == 0) as usize;
                }
            }
        }
        assert!(some > 1_000 && none > 1_000, "{some} {none}");
    }
}
