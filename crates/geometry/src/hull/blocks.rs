//! A hull's vertices in blocks of 8 (structure of arrays): the support mapping as 8 dot
//! products at a time.
//!
//! `support_index` is the hot loop of every distance query and of the hull SAT's
//! face queries. Over [`VertexBlock`]s the 8 dot products of a block are independent
//! lanes, computed as one `wide::f32x8` (two 4-wide halves with SSE2 or NEON, no
//! `unsafe`, no target flags). Each lane computes `x·d.x + y·d.y + z·d.z` in
//! `Vec3::dot`'s order, and the winner is the lowest index among equal dot products,
//! so the answer is the scalar scan's, bit for bit (tested in `tests/hull_blocks.rs`).

use glam::{Mat3, Vec3};
use wide::f32x8;

/// Lanes per block.
pub const BLOCK: usize = 8;

/// Up to 8 vertices, one coordinate per array. The last block of a hull is padded with
/// copies of vertex 0 (their dot product ties vertex 0's, which wins the tie).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub struct VertexBlock {
    /// x coordinates.
    pub x: [f32; BLOCK],
    /// y coordinates.
    pub y: [f32; BLOCK],
    /// z coordinates.
    pub z: [f32; BLOCK],
}

/// The blocks of a vertex list (empty for an empty list).
pub(crate) fn vertex_blocks(vertices: &[Vec3]) -> Vec<VertexBlock> {
    let Some(&first) = vertices.first() else {
        return Vec::new();
    };
    vertices
        .chunks(BLOCK)
        .map(|chunk| {
            let at = |l: usize| chunk.get(l).copied().unwrap_or(first);
            VertexBlock {
                x: std::array::from_fn(|l| at(l).x),
                y: std::array::from_fn(|l| at(l).y),
                z: std::array::from_fn(|l| at(l).z),
            }
        })
        .collect()
}

/// Index of a vertex furthest along `dir` over `blocks`, the lowest among ties; 0 when
/// there is none (an empty list or a NaN direction), like
/// [`support_index`](super::support_index) on the same vertices.
///
/// Per lane (`wide::f32x8`: two SSE2 or NEON halves, one AVX register when the build
/// enables AVX), a running maximum with strict `>` keeps the earliest block; the lane
/// indices ride along as `f32` (exact below 2²⁴) through the same blend. Across lanes
/// the largest value wins and, among equal ones, the lowest index. Each dot product is
/// `(x·dx + y·dy) + z·dz`, separate multiplies and adds: the scalar scan's bits.
///
/// One AVX register per block when the CPU runs AVX (detected at run time), else
/// [`support_index_blocks_baseline`]: the same products, sums, compares and blends in
/// the same order, so the same index on every CPU.
#[inline]
pub fn support_index_blocks(blocks: &[VertexBlock], dir: Vec3) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx_detected() {
        // SAFETY: `avx_detected` is true only on a CPU that runs AVX, the one
        // requirement of the `#[target_feature(enable = "avx")]` function.
        return unsafe { support_index_blocks_avx(blocks, dir) };
    }
    support_index_blocks_baseline(blocks, dir)
}

/// [`support_index_blocks`] on the build's baseline (`wide::f32x8`: SSE2 or NEON
/// halves), the path of CPUs without AVX; public so that tests compare both paths.
#[inline]
pub fn support_index_blocks_baseline(blocks: &[VertexBlock], dir: Vec3) -> usize {
    let (dx, dy, dz) = (
        f32x8::splat(dir.x),
        f32x8::splat(dir.y),
        f32x8::splat(dir.z),
    );
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    let mut index = f32x8::splat(0.0);
    let mut lane = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let step = f32x8::splat(BLOCK as f32);
    for block in blocks {
        let d = f32x8::new(block.x) * dx + f32x8::new(block.y) * dy + f32x8::new(block.z) * dz;
        let better = d.simd_gt(best);
        best = better.select(d, best);
        index = better.select(lane, index);
        lane += step;
    }
    let top = tree(best.to_array(), |x, y| if y > x { y } else { x });
    if top == f32::NEG_INFINITY {
        return 0;
    }
    // The lowest index among the lanes that hold the top value.
    let tied = best
        .simd_eq(f32x8::splat(top))
        .select(index, f32x8::splat(f32::INFINITY));
    tree(tied.to_array(), |x, y| if y < x { y } else { x }) as usize
}

/// [`support_index_blocks_baseline`] with one AVX register per block: `d > best`
/// (ordered, as `simd_gt`), the blends, then the same folds over the stored lanes.
///
/// # Safety
/// The CPU must run AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn support_index_blocks_avx(blocks: &[VertexBlock], dir: Vec3) -> usize {
    use std::arch::x86_64::*;
    let (dx, dy, dz) = (
        _mm256_set1_ps(dir.x),
        _mm256_set1_ps(dir.y),
        _mm256_set1_ps(dir.z),
    );
    let mut best = _mm256_set1_ps(f32::NEG_INFINITY);
    let mut index = _mm256_set1_ps(0.0);
    let mut lane = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    let step = _mm256_set1_ps(BLOCK as f32);
    for block in blocks {
        // SAFETY: each array holds 8 f32s, the 32 bytes an unaligned load reads.
        let (x, y, z) = unsafe {
            (
                _mm256_loadu_ps(block.x.as_ptr()),
                _mm256_loadu_ps(block.y.as_ptr()),
                _mm256_loadu_ps(block.z.as_ptr()),
            )
        };
        let d = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(x, dx), _mm256_mul_ps(y, dy)),
            _mm256_mul_ps(z, dz),
        );
        let better = _mm256_cmp_ps::<_CMP_GT_OQ>(d, best);
        best = _mm256_blendv_ps(best, d, better);
        index = _mm256_blendv_ps(index, lane, better);
        lane = _mm256_add_ps(lane, step);
    }
    let (mut best_lanes, mut index_lanes) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
    // SAFETY: each array has room for the 8 f32s an unaligned store writes.
    unsafe {
        _mm256_storeu_ps(best_lanes.as_mut_ptr(), best);
        _mm256_storeu_ps(index_lanes.as_mut_ptr(), index);
    }
    let top = tree(best_lanes, |x, y| if y > x { y } else { x });
    if top == f32::NEG_INFINITY {
        return 0;
    }
    let tied = std::array::from_fn(|l| {
        if best_lanes[l] == top {
            index_lanes[l]
        } else {
            f32::INFINITY
        }
    });
    tree(tied, |x, y| if y < x { y } else { x }) as usize
}

/// The smallest and largest `R v` over the vertices in `blocks` (a hull's box turned
/// by `R`, before the translation): 8 vertices at a time, each lane's `R v` in
/// `Mat3 * Vec3`'s order (`(c₀ v_x + c₁ v_y) + c₂ v_z`), so the same bits as the
/// scalar loop over the vertices (minima and maxima are exact; padding lanes repeat
/// vertex 0). `(+∞, −∞)` for no blocks.
///
/// One AVX register per block when the CPU has AVX (detected at run time, once), else
/// [`rotated_bounds_baseline`]: the same multiplies, adds, minima and maxima (with
/// `wide`'s NaN rule) in the same order, so the same bits on every CPU
/// (`tests/hull_blocks.rs` checks both against the scalar loop). A plain build targets
/// SSE2, where `wide`'s 8 lanes are two 4-lane halves; the AVX path cut a 24-point
/// hull's box from 882 to about 380 instructions (callgrind, `stress --scene hulls`).
#[inline]
pub fn rotated_bounds(blocks: &[VertexBlock], r: Mat3) -> (Vec3, Vec3) {
    #[cfg(target_arch = "x86_64")]
    if avx_detected() {
        // SAFETY: `avx_detected` is true only on a CPU that runs AVX, the one
        // requirement of the `#[target_feature(enable = "avx")]` function.
        return unsafe { rotated_bounds_avx(blocks, r) };
    }
    rotated_bounds_baseline(blocks, r)
}

/// [`rotated_bounds`] on the build's baseline (`wide::f32x8`: SSE2 or NEON halves),
/// the path of CPUs without AVX; public so that tests compare both paths.
#[inline]
pub fn rotated_bounds_baseline(blocks: &[VertexBlock], r: Mat3) -> (Vec3, Vec3) {
    // One output axis at a time, over every block: 3 splatted matrix entries, one
    // running sum and two accumulators stay in registers. With all three axes in one
    // pass (9 entries, 6 accumulators) the baseline build's 16 SSE registers spilled:
    // a block cost ~310 instructions for the three axes, ~210 now, and a 24-point
    // hull's bounds 1,191 instructions, 882 now (callgrind, `stress --scene hulls`).
    let axis = |k: usize| {
        let (c0, c1, c2) = (
            f32x8::splat(r.x_axis[k]),
            f32x8::splat(r.y_axis[k]),
            f32x8::splat(r.z_axis[k]),
        );
        let mut low = f32x8::splat(f32::INFINITY);
        let mut high = f32x8::splat(f32::NEG_INFINITY);
        for block in blocks {
            let w = c0 * f32x8::new(block.x) + c1 * f32x8::new(block.y) + c2 * f32x8::new(block.z);
            low = low.min(w);
            high = high.max(w);
        }
        (
            tree(low.to_array(), f32::min),
            tree(high.to_array(), f32::max),
        )
    };
    let (x, y, z) = (axis(0), axis(1), axis(2));
    (Vec3::new(x.0, y.0, z.0), Vec3::new(x.1, y.1, z.1))
}

/// True when this CPU runs AVX (checked once; the standard library caches it).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx_detected() -> bool {
    std::arch::is_x86_feature_detected!("avx")
}

/// [`rotated_bounds_baseline`] with one AVX register per block. `wide`'s `min(self,
/// rhs)` is `rhs` NaN ? `self` : `minps(self, rhs)` (and `max` alike); written the
/// same way here, so even NaN and signed-zero lanes pick what the baseline picks.
///
/// # Safety
/// The CPU must run AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn rotated_bounds_avx(blocks: &[VertexBlock], r: Mat3) -> (Vec3, Vec3) {
    use std::arch::x86_64::*;
    let mut low_out = [0.0f32; 3];
    let mut high_out = [0.0f32; 3];
    for k in 0..3 {
        let c0 = _mm256_set1_ps(r.x_axis[k]);
        let c1 = _mm256_set1_ps(r.y_axis[k]);
        let c2 = _mm256_set1_ps(r.z_axis[k]);
        let mut low = _mm256_set1_ps(f32::INFINITY);
        let mut high = _mm256_set1_ps(f32::NEG_INFINITY);
        for block in blocks {
            // SAFETY: each array holds 8 f32s, the 32 bytes an unaligned load reads.
            let (x, y, z) = unsafe {
                (
                    _mm256_loadu_ps(block.x.as_ptr()),
                    _mm256_loadu_ps(block.y.as_ptr()),
                    _mm256_loadu_ps(block.z.as_ptr()),
                )
            };
            let w = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(c0, x), _mm256_mul_ps(c1, y)),
                _mm256_mul_ps(c2, z),
            );
            let w_nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(w, w);
            low = _mm256_blendv_ps(_mm256_min_ps(low, w), low, w_nan);
            high = _mm256_blendv_ps(_mm256_max_ps(high, w), high, w_nan);
        }
        let (mut low_lanes, mut high_lanes) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
        // SAFETY: each array has room for the 8 f32s an unaligned store writes.
        unsafe {
            _mm256_storeu_ps(low_lanes.as_mut_ptr(), low);
            _mm256_storeu_ps(high_lanes.as_mut_ptr(), high);
        }
        low_out[k] = tree(low_lanes, f32::min);
        high_out[k] = tree(high_lanes, f32::max);
    }
    (Vec3::from_array(low_out), Vec3::from_array(high_out))
}

/// Folds 8 lanes pairwise (4 + 2 + 1 steps) with an associative pick.
#[inline(always)]
pub(crate) fn tree(v: [f32; BLOCK], pick: impl Fn(f32, f32) -> f32) -> f32 {
    let h = [
        pick(v[0], v[4]),
        pick(v[1], v[5]),
        pick(v[2], v[6]),
        pick(v[3], v[7]),
    ];
    let q = [pick(h[0], h[2]), pick(h[1], h[3])];
    pick(q[0], q[1])
}
