//! The edge query's two hot loops on 8 arcs at once: the cone pruning of the arcs and
//! the Minkowski-face test of one edge of a against the kept edges of b.
//!
//! Each lane computes exactly what the scalar functions beside them in [`edges`]
//! (`arc_may_reach`, `arcs_cross`) compute for one arc, operation for operation and in
//! the same order, so the answers are the same bits at every level (the determinism
//! rule of [`box_box_wide`](crate::sat::box_box_wide): lanes never mix, IEEE arithmetic
//! rounds alike in SSE2, AVX2 and scalar code, no fused multiply-add). The kernels are
//! compiled twice, for the baseline target and with AVX2, and picked by [`SimdLevel`];
//! `SimdLevel::Scalar` runs the scalar functions instead, the twin the bitwise test
//! (`tests/hull_simd_bitwise.rs`) checks the others against.
//!
//! [`edges`]: super::edges

// Lane loops index several arrays by the same lane: one index is the form both the
// vectoriser and a reader see as "this lane".
#![allow(clippy::needless_range_loop)]

use super::edges::ARC_SLACK;
use crate::sat::box_box_wide::{LANES, Lanes, SimdLevel};
use glam::Vec3;
use sepax_geometry::hull::ArcLanes;
use smallvec::SmallVec;

/// The ends of 8 arcs of b (normals negated, in a's frame) as the Minkowski-face test
/// reads them: `n0`, `n1` and `n1 × n0`, one arc per lane.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(super) struct EndLanes {
    pub n0: [Lanes; 3],
    pub n1: [Lanes; 3],
    pub cross: [Lanes; 3],
}

impl EndLanes {
    /// Puts an arc's ends in lane `lane`.
    #[inline]
    pub fn set(&mut self, lane: usize, n0: Vec3, n1: Vec3, cross: Vec3) {
        for k in 0..3 {
            self.n0[k][lane] = n0[k];
            self.n1[k][lane] = n1[k];
            self.cross[k][lane] = cross[k];
        }
    }
}

/// Pushes onto `out`, in index order, the arcs of `arcs` (the first `count` lanes) that
/// may reach the cone `n·u ≥ c`: `arc_may_reach` on 8 arcs at once.
pub(super) fn arcs_reaching(
    level: SimdLevel,
    arcs: &[ArcLanes],
    count: usize,
    u: Vec3,
    c: f32,
    out: &mut SmallVec<[u32; 64]>,
) {
    #[cfg(target_arch = "x86_64")]
    if level == SimdLevel::Avx2 && SimdLevel::Avx2.is_available() {
        // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
        // a `#[target_feature(enable = "avx2")]` function.
        return unsafe { arcs_reaching_avx2(arcs, count, u, c, out) };
    }
    let _ = level;
    arcs_reaching_kernel(arcs, count, u, c, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn arcs_reaching_avx2(
    arcs: &[ArcLanes],
    count: usize,
    u: Vec3,
    c: f32,
    out: &mut SmallVec<[u32; 64]>,
) {
    arcs_reaching_kernel(arcs, count, u, c, out);
}

/// `arc_may_reach` per lane: `cos φ = mid·u`; inside the cap, or past the cheap
/// `sin φ ≤ 1` rejection and within the exact `cos(φ − θ)` bound.
#[inline(always)]
fn arcs_reaching_kernel(
    arcs: &[ArcLanes],
    count: usize,
    u: Vec3,
    c: f32,
    out: &mut SmallVec<[u32; 64]>,
) {
    for (k, chunk) in arcs.iter().enumerate() {
        let mut hit = [false; LANES];
        for l in 0..LANES {
            let cos_phi = chunk.mid[0][l] * u.x + chunk.mid[1][l] * u.y + chunk.mid[2][l] * u.z;
            let quick = cos_phi * chunk.cos_half[l] + chunk.sin_half[l];
            let square = 1.0 - cos_phi * cos_phi;
            let sin_phi = if square > 0.0 { square } else { 0.0 }.sqrt();
            let full = cos_phi * chunk.cos_half[l] + sin_phi * chunk.sin_half[l];
            let limit = c - ARC_SLACK;
            hit[l] = (cos_phi >= chunk.cos_half[l]) | (!(quick < limit) & (full >= limit));
        }
        for (l, &h) in hit.iter().enumerate() {
            let index = k * LANES + l;
            if h && index < count {
                out.push(index as u32);
            }
        }
    }
}

/// Writes into `masks[k]` which lanes of `ends[k]` form a Minkowski face with a's arc
/// `a0 → a1` (`a_cross = a1 × a0`): `arcs_cross` on 8 arcs of b at once. Lanes past the
/// kept edges are the caller's to ignore.
pub(super) fn crossing_masks(
    level: SimdLevel,
    (a0, a1, a_cross): (Vec3, Vec3, Vec3),
    ends: &[EndLanes],
    masks: &mut [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if level == SimdLevel::Avx2 && SimdLevel::Avx2.is_available() {
        // SAFETY: as in `arcs_reaching`.
        return unsafe { crossing_masks_avx2((a0, a1, a_cross), ends, masks) };
    }
    let _ = level;
    crossing_masks_kernel((a0, a1, a_cross), ends, masks);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn crossing_masks_avx2(a: (Vec3, Vec3, Vec3), ends: &[EndLanes], masks: &mut [u8]) {
    crossing_masks_kernel(a, ends, masks);
}

/// `arcs_cross(a, b, b × a, c, d, d × c)` per lane, with a's arc `a → b` broadcast and
/// b's arc `c → d` in the lanes: `c·(b×a)` and `d·(b×a)` of opposite signs, `a·(d×c)`
/// and `b·(d×c)` too, and `c·(b×a)`, `b·(d×c)` of the same sign.
#[inline(always)]
fn crossing_masks_kernel((a, b, bxa): (Vec3, Vec3, Vec3), ends: &[EndLanes], masks: &mut [u8]) {
    for (chunk, mask) in ends.iter().zip(masks.iter_mut()) {
        let mut hit = [false; LANES];
        for l in 0..LANES {
            let (c, d, dxc) = (&chunk.n0, &chunk.n1, &chunk.cross);
            let cba = c[0][l] * bxa.x + c[1][l] * bxa.y + c[2][l] * bxa.z;
            let dba = d[0][l] * bxa.x + d[1][l] * bxa.y + d[2][l] * bxa.z;
            let adc = a.x * dxc[0][l] + a.y * dxc[1][l] + a.z * dxc[2][l];
            let bdc = b.x * dxc[0][l] + b.y * dxc[1][l] + b.z * dxc[2][l];
            hit[l] = !(cba * dba >= 0.0) & (adc * bdc < 0.0) & (cba * bdc > 0.0);
        }
        *mask = hit
            .iter()
            .enumerate()
            .fold(0u8, |m, (l, &h)| m | ((h as u8) << l));
    }
}
