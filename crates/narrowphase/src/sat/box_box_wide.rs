//! The box–box separations of 8 pairs at once, in structure-of-arrays lanes.
//!
//! ## Batching
//! A [`BoxBundle`] holds 8 pairs, one per lane: each entry of the scalar test's inputs
//! (`ha`, `hb`, `R`, `t`, see [`box_box`](super::box_box)) is an array of 8 floats, one
//! per pair. [`bundle_separations`] computes the 6 face separations of all 8 lanes, stops
//! there when every lane in use is separated by a face axis (the bundle's early out: the
//! scalar test would stop at that face too), and otherwise computes the 9 edge
//! separations of all 8 lanes. Everything else stays per pair and scalar, and is the
//! scalar test's own code: the relative frame (computed in f64, [`Frame::new`](super::Frame::new)),
//! which axis wins (faces first, the cached axis, the preference of
//! [`fold_candidates`](super::fold_candidates)) and the clipping.
//!
//! ## The determinism rule
//! A pair's answer must not depend on how it was batched: its bundle, its lane, how
//! full the bundle is, nor the instruction set. That holds because each lane computes
//! exactly the scalar test's operations in the same order:
//! * every separation is one call of the formulas in `box_box` (`face_a_separation`,
//!   `face_b_separation`, `edge_separation`), written per lane and mapped over the 8
//!   lanes by a plain loop that the compiler vectorises; lanes never mix (no horizontal
//!   sums, no shuffles between pairs), so a lane's bits depend on its own pair only;
//! * IEEE `+ − × ÷ √` and `abs` round the same in SSE2, AVX2, NEON and scalar code, and
//!   Rust never contracts `a * b + c` into a fused multiply-add nor reassociates a sum
//!   (no fast-math). No level enables the `fma` target feature, nor `avx512f` (which
//!   implies it), so that even a future hand-written intrinsic could not round once
//!   where the scalar code rounds twice;
//! * unused lanes of a padded bundle hold zeros and are masked out of the early out;
//!   whatever they compute is never read.
//!
//! The bitwise test `tests/box_batch_bitwise.rs` checks this on every level this CPU
//! can run.
//!
//! ## SIMD levels and dispatch
//! The kernel is one `#[inline(always)]` function over lane arrays, compiled twice: for
//! the build's baseline target (SSE2 on x86-64: 8 lanes as two 4-wide halves; NEON on
//! aarch64) and, on x86-64, once more inside a `#[target_feature(enable = "avx2")]`
//! function (8 lanes in one 256-bit register). [`SimdLevel::detected`] picks the fastest
//! the CPU has, once (`is_x86_feature_detected!`, cached), so a plain
//! `cargo build --release` without target-cpu flags takes the AVX2 path where there is
//! one.

// Lane loops index several arrays by the same lane (or axis): one index is the form
// both the vectoriser and a reader see as "this lane".
#![allow(clippy::needless_range_loop)]

use super::Frame;
use super::box_box::{EdgeTerms, Scan, edge_separation, face_a_separation, face_b_separation};
use glam::{Mat3, Vec3};
use std::sync::OnceLock;

/// Pairs per bundle.
pub(crate) const LANES: usize = 8;

/// One value of each of the 8 pairs of a bundle.
pub(crate) type Lanes = [f32; LANES];

/// The scalar test's inputs for 8 pairs, one per lane (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(crate) struct BoxBundle {
    /// a's half extents.
    pub ha: [Lanes; 3],
    /// b's half extents.
    pub hb: [Lanes; 3],
    /// `R[i][j] = a_i · b_j`.
    pub r: [[Lanes; 3]; 3],
    /// b's centre in a's frame.
    pub t: [Lanes; 3],
}

impl BoxBundle {
    /// Puts a pair's half extents in lane `lane`.
    #[inline]
    pub fn set_extents(&mut self, lane: usize, ha: Vec3, hb: Vec3) {
        for k in 0..3 {
            self.ha[k][lane] = ha[k];
            self.hb[k][lane] = hb[k];
        }
    }

    /// Lane `lane`'s frame (`R` and `t`), as a [`Frame`].
    #[inline]
    pub fn frame(&self, lane: usize) -> Frame {
        let (r, t) = (&self.r, &self.t);
        let col = |j: usize| Vec3::new(r[0][j][lane], r[1][j][lane], r[2][j][lane]);
        let rot = Mat3::from_cols(col(0), col(1), col(2));
        Frame {
            rot,
            rot_t: rot.transpose(),
            trans: Vec3::new(t[0][lane], t[1][lane], t[2][lane]),
        }
    }
}

/// The 15 separations of a bundle, axis-major: faces of a, faces of b, then edges
/// `6 + 3i + j` (the scalar test's numbering).
pub(crate) type BundleSeparations = [Lanes; 15];

/// Each lane's [`Scan`] of its 15 separations, computed in the lanes: the first axis
/// above the margin (`NONE`: none) and the best axis of each kind, by the scalar scan's
/// comparisons (`>` against the margin, `>` against the best so far), so the same
/// indices.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct BundleScan {
    pub first_separating: [u32; LANES],
    pub best: [[u32; LANES]; 3],
}

impl BundleScan {
    /// "No axis separates".
    const NONE: u32 = 15;

    pub fn new() -> BundleScan {
        BundleScan {
            first_separating: [Self::NONE; LANES],
            best: [[0; LANES], [3; LANES], [6; LANES]],
        }
    }

    /// Lane `lane`'s scan, as `box_box::scan` gives it.
    #[inline]
    pub fn lane(&self, lane: usize) -> Scan {
        let first = self.first_separating[lane];
        Scan {
            first_separating: (first != Self::NONE).then_some(first as usize),
            best: std::array::from_fn(|kind| self.best[kind][lane] as usize),
        }
    }
}

/// The separations of one lane, as the scalar test numbers them.
#[inline]
pub(crate) fn lane_separations(all: &BundleSeparations, lane: usize) -> [f32; 15] {
    std::array::from_fn(|k| all[k][lane])
}

/// How the bundle kernel is compiled (see the module docs). `Scalar` is the scalar
/// test run pair by pair, the twin the others are checked against.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimdLevel {
    /// One pair at a time through the scalar test.
    Scalar,
    /// Lane arrays compiled for the build's baseline target (SSE2 on x86-64, NEON on
    /// aarch64).
    Baseline,
    /// Lane arrays compiled with AVX2 enabled (x86-64 only, chosen at run time).
    Avx2,
}

impl SimdLevel {
    /// The fastest level this CPU runs, detected once.
    pub fn detected() -> SimdLevel {
        static LEVEL: OnceLock<SimdLevel> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            if SimdLevel::Avx2.is_available() {
                SimdLevel::Avx2
            } else {
                SimdLevel::Baseline
            }
        })
    }

    /// True when this CPU can run the level.
    pub fn is_available(self) -> bool {
        match self {
            SimdLevel::Scalar | SimdLevel::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            SimdLevel::Avx2 => false,
        }
    }

    /// Every level this CPU can run, slowest first.
    pub fn available() -> Vec<SimdLevel> {
        [SimdLevel::Scalar, SimdLevel::Baseline, SimdLevel::Avx2]
            .into_iter()
            .filter(|l| l.is_available())
            .collect()
    }
}

/// Fills `out` with the bundle's separations at a lane level (`Baseline` or `Avx2`; an
/// unavailable level runs as `Baseline`), and `scan` with each lane's [`Scan`]. Returns
/// false, with only the 6 face rows filled (and `scan` untouched), when every lane of
/// `active` is separated by a face axis beyond `margin`.
pub(crate) fn bundle_separations(
    level: SimdLevel,
    bundle: &BoxBundle,
    active: &[bool; LANES],
    margin: f32,
    out: &mut BundleSeparations,
    scan: &mut BundleScan,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if level == SimdLevel::Avx2 && SimdLevel::Avx2.is_available() {
        // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
        // a `#[target_feature(enable = "avx2")]` function.
        return unsafe { separations_avx2(bundle, active, margin, out, scan) };
    }
    let _ = level;
    separations_kernel(bundle, active, margin, out, scan)
}

/// The kernel with AVX2 enabled: the same source, 256-bit registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn separations_avx2(
    bundle: &BoxBundle,
    active: &[bool; LANES],
    margin: f32,
    out: &mut BundleSeparations,
    scan: &mut BundleScan,
) -> bool {
    separations_kernel(bundle, active, margin, out, scan)
}

/// The bundle kernel: the scalar formulas mapped over the lanes (see the module docs
/// for why the bits match the scalar test). Face axes first; the edge axes only when
/// some active lane is not separated by a face.
#[inline(always)]
fn separations_kernel(
    b: &BoxBundle,
    active: &[bool; LANES],
    margin: f32,
    out: &mut BundleSeparations,
    scan: &mut BundleScan,
) -> bool {
    let mut ar = [[[0.0f32; LANES]; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            for l in 0..LANES {
                ar[i][j][l] = b.r[i][j][l].abs();
            }
        }
    }
    for i in 0..3 {
        for l in 0..LANES {
            out[i][l] = face_a_separation(
                b.t[i][l],
                b.ha[i][l],
                [b.hb[0][l], b.hb[1][l], b.hb[2][l]],
                [ar[i][0][l], ar[i][1][l], ar[i][2][l]],
            );
        }
    }
    for j in 0..3 {
        for l in 0..LANES {
            out[3 + j][l] = face_b_separation(
                [b.t[0][l], b.t[1][l], b.t[2][l]],
                [b.r[0][j][l], b.r[1][j][l], b.r[2][j][l]],
                [b.ha[0][l], b.ha[1][l], b.ha[2][l]],
                [ar[0][j][l], ar[1][j][l], ar[2][j][l]],
                b.hb[j][l],
            );
        }
    }
    let mut all_separated = true;
    for l in 0..LANES {
        let separated = (0..6).any(|k| out[k][l] > margin);
        all_separated &= separated | !active[l];
    }
    if all_separated {
        return false;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            for l in 0..LANES {
                out[6 + 3 * i + j][l] = edge_separation(EdgeTerms {
                    r_i1: b.r[i1][j][l],
                    r_i2: b.r[i2][j][l],
                    t_i1: b.t[i1][l],
                    t_i2: b.t[i2][l],
                    ha_i1: b.ha[i1][l],
                    ha_i2: b.ha[i2][l],
                    hb_j1: b.hb[j1][l],
                    hb_j2: b.hb[j2][l],
                    r_i1_j1: b.r[i1][j1][l],
                    r_i2_j1: b.r[i2][j1][l],
                    r_i1_j2: b.r[i1][j2][l],
                    r_i2_j2: b.r[i2][j2][l],
                });
            }
        }
    }
    scan_lanes(out, margin, scan);
    true
}

/// Each lane's [`Scan`] (see [`BundleScan`]): the first axis above `margin` by writing
/// the indices from last to first, so the lowest one stays; the best of each kind by a
/// strict `>` against the best so far, so the lowest index wins a tie.
#[inline(always)]
fn scan_lanes(out: &BundleSeparations, margin: f32, scan: &mut BundleScan) {
    let mut first = [BundleScan::NONE; LANES];
    for k in (0..15).rev() {
        for l in 0..LANES {
            first[l] = if out[k][l] > margin {
                k as u32
            } else {
                first[l]
            };
        }
    }
    scan.first_separating = first;
    for (kind, (start, end)) in [(0, 3), (3, 6), (6, 15)].into_iter().enumerate() {
        let mut best = [start as u32; LANES];
        let mut best_separation = out[start];
        for k in start + 1..end {
            for l in 0..LANES {
                let better = out[k][l] > best_separation[l];
                best[l] = if better { k as u32 } else { best[l] };
                best_separation[l] = if better {
                    out[k][l]
                } else {
                    best_separation[l]
                };
            }
        }
        scan.best[kind] = best;
    }
}
