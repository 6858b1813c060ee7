//! Box–box separating-axis test: 15 axes in a's frame (Ericson, *Real-Time Collision
//! Detection* §4.4.1), without projecting a single vertex.
//!
//! With `R[i][j] = a_i · b_j` (b's axes in a's frame), `t` the centre of b in a's frame
//! and `ha`, `hb` the half extents, the projected radius of a box on an axis `L` is
//! `Σ h_k |e_k · L|`, so for
//! * a face axis `a_i`: `s = |t_i| − (ha_i + Σ_j hb_j |R[i][j]|)`;
//! * a face axis `b_j`: `s = |t · b_j| − (Σ_i ha_i |R[i][j]| + hb_j)`;
//! * an edge axis `L = a_i × b_j` (`|L|² = 1 − R[i][j]²`), with `i1, i2` (and `j1, j2`)
//!   the two other indices in cyclic order:
//!   `t·L = t_{i2} R[i1][j] − t_{i1} R[i2][j]`,
//!   `r_a = ha_{i1} |R[i2][j]| + ha_{i2} |R[i1][j]|`,
//!   `r_b = hb_{j1} |R[i][j2]| + hb_{j2} |R[i][j1]|`,
//!   `s = (|t·L| − r_a − r_b) / |L|`.
//!
//! `|R|` carries a small epsilon so that round-off cannot make a radius too small.
//! Edge axes with `|L| < 0.005` (near-parallel edges) are skipped: their direction is
//! noise, and the face axes already cover that configuration. The first axis whose
//! separation exceeds the margin ends the test.

use super::{Axis, Frame, SatOutcome, fold_candidates};
use crate::Feature;
use crate::sat::{ABSOLUTE_PREFERENCE, PARALLEL_EDGES};
use glam::Vec3;

/// Added to `|R[i][j]|` against round-off (Ericson's epsilon).
const ABS_R_EPSILON: f32 = 1e-6;

/// The box-box axis numbering: 0..3 faces of a, 3..6 faces of b, 6 + 3i + j edges.
pub(crate) fn axis_index(feature: Feature) -> Option<usize> {
    match feature {
        Feature::FaceA(f) if f < 6 => Some(f as usize / 2),
        Feature::FaceB(f) if f < 6 => Some(3 + f as usize / 2),
        Feature::EdgeEdge(ea, eb) if ea < 12 && eb < 12 => {
            Some(6 + 3 * (ea as usize / 4) + eb as usize / 4)
        }
        _ => None,
    }
}

/// Rotation entries and their absolute values, precomputed once per pair.
struct BoxPair {
    ha: Vec3,
    hb: Vec3,
    r: [[f32; 3]; 3],
    abs_r: [[f32; 3]; 3],
    t: Vec3,
    frame: Frame,
}

impl BoxPair {
    fn new(ha: Vec3, hb: Vec3, frame: &Frame) -> BoxPair {
        let cols = [frame.rot.x_axis, frame.rot.y_axis, frame.rot.z_axis];
        let r: [[f32; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| cols[j][i]));
        let abs_r = r.map(|row| row.map(|v| v.abs() + ABS_R_EPSILON));
        BoxPair {
            ha,
            hb,
            r,
            abs_r,
            t: frame.trans,
            frame: *frame,
        }
    }

    /// Separation along axis `k` of the 15 (`−∞` for a degenerate edge axis): the hot
    /// loop computes only this number; [`BoxPair::axis`] adds normal and feature for the
    /// few axes that win.
    #[inline(always)]
    fn separation(&self, k: usize) -> f32 {
        let (ha, hb, r, ar, t) = (self.ha, self.hb, &self.r, &self.abs_r, self.t);
        if k < 3 {
            let i = k;
            return t[i].abs() - (ha[i] + hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2]);
        }
        if k < 6 {
            let j = k - 3;
            let tb = t.x * r[0][j] + t.y * r[1][j] + t.z * r[2][j];
            return tb.abs() - (ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j] + hb[j]);
        }
        let (i, j) = ((k - 6) / 3, (k - 6) % 3);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let length_squared = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        if length_squared < PARALLEL_EDGES * PARALLEL_EDGES {
            return f32::NEG_INFINITY;
        }
        let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
        let rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
        (tl.abs() - ra - rb) / length_squared.sqrt()
    }

    /// Normal (a→b, a's frame) and feature of axis `k`, with its separation.
    fn axis(&self, k: usize) -> Axis {
        let (r, t) = (&self.r, self.t);
        let separation = self.separation(k);
        if k < 3 {
            let sign = if t[k] >= 0.0 { 1.0 } else { -1.0 };
            let mut normal = Vec3::ZERO;
            normal[k] = sign;
            return Axis {
                separation,
                normal,
                feature: Feature::FaceA(2 * k as u32 + (sign > 0.0) as u32),
            };
        }
        if k < 6 {
            let j = k - 3;
            let axis_b = Vec3::new(r[0][j], r[1][j], r[2][j]);
            let sign = if t.dot(axis_b) >= 0.0 { 1.0 } else { -1.0 };
            // b's touching face has outward normal −n = −sign · b_j.
            return Axis {
                separation,
                normal: axis_b * sign,
                feature: Feature::FaceB(2 * j as u32 + (sign < 0.0) as u32),
            };
        }
        let (i, j) = ((k - 6) / 3, (k - 6) % 3);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let mut normal = Vec3::ZERO;
        normal[i1] = -r[i2][j];
        normal[i2] = r[i1][j];
        let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let sign = if tl >= 0.0 { 1.0 } else { -1.0 };
        let normal = normal.normalize() * sign;
        Axis {
            separation,
            normal,
            feature: Feature::EdgeEdge(
                box_edge_along(i, normal),
                box_edge_along(j, self.frame.rot_t * -normal),
            ),
        }
    }
}

/// The box edge running along local axis `axis` that is furthest along `dir` (local):
/// numbered `4 · axis + (dir_{axis+1} > 0) + 2 (dir_{axis+2} > 0)`.
#[inline]
pub(crate) fn box_edge_along(axis: usize, dir: Vec3) -> u32 {
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    4 * axis as u32 + (dir[a1] > 0.0) as u32 + 2 * (dir[a2] > 0.0) as u32
}

/// The endpoints of box edge `edge` (numbered as [`box_edge_along`]) in the box's frame.
pub(crate) fn box_edge_segment(h: Vec3, edge: u32) -> (Vec3, Vec3) {
    let axis = edge as usize / 4;
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut p = Vec3::ZERO;
    p[a1] = if edge & 1 != 0 { h[a1] } else { -h[a1] };
    p[a2] = if edge & 2 != 0 { h[a2] } else { -h[a2] };
    let mut q = p;
    p[axis] = -h[axis];
    q[axis] = h[axis];
    (p, q)
}

/// The 15-axis test. `cached` is tried first; with no axis above `margin`, returns the
/// exact and preferred axes (see the [module docs](super)).
pub(crate) fn box_box(
    ha: Vec3,
    hb: Vec3,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
) -> SatOutcome {
    let pair = BoxPair::new(ha, hb, frame);
    if let Some(k) = cached.and_then(axis_index)
        && pair.separation(k) > margin
    {
        return SatOutcome::Separated(pair.axis(k));
    }
    // Best axis of each kind: faces of a (0..3), faces of b (3..6), edge pairs (6..15).
    let mut best = [0usize, 3, 6];
    let mut best_separation = [f32::NEG_INFINITY; 3];
    for k in 0..15 {
        let s = pair.separation(k);
        if s > margin {
            return SatOutcome::Separated(pair.axis(k));
        }
        let kind = (k >= 3) as usize + (k >= 6) as usize;
        if s > best_separation[kind] {
            best_separation[kind] = s;
            best[kind] = k;
        }
    }
    let tolerance = ABSOLUTE_PREFERENCE * ha.min_element().min(hb.min_element());
    fold_candidates(
        pair.axis(best[0]),
        Some(pair.axis(best[1])),
        (best_separation[2] > f32::NEG_INFINITY).then(|| pair.axis(best[2])),
        tolerance,
    )
}
