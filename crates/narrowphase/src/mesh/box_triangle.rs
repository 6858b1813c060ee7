//! Box against triangle: 13 axes in the box's frame, in closed form (the triangle's
//! normal, the box's 3 face axes, the 9 crosses of a triangle edge with a box axis),
//! like box–box's 15.
//!
//! With the box's half extents `h`, the triangle's corners `t_i`, normal `n` and plane
//! offset `d = n · t_0`, and `r(L) = Σ_k h_k |L_k|` the box's projected radius:
//! * front face: `s = −d − r(n)` (the box's lowest point below the plane);
//! * box axis `e_k`: `up = −h_k − max_i t_{ik}`, `down = min_i t_{ik} − h_k` (the box
//!   face `−k`, resp. `+k`, turned to the triangle);
//! * edge axis `L = (t_{i+1} − t_i) × e_k / |…|`: the edge's corners project to one
//!   value `p`, the third corner to `q`: `up = −r(L) − max(p, q)`,
//!   `down = min(p, q) − r(L)`. `L`'s components are the edge's own, so the line is
//!   exact at every angle; only an edge parallel to `e_k` (`|L|²` below
//!   `DEGENERATE_EDGE_AXIS`) is skipped (the face axes cover that configuration).
//!
//! Each line follows `sat`'s one-sided rule (verdict both ways, contact only for
//! orientations with `L · n ≥ 0`); the first separating line ends the test. The
//! largest gap of every line either way (the two-sided verdict's) comes back with the
//! outcome: positive when the box is apart from the triangle within the margin, even
//! where every eligible orientation reads as an overlap.

use super::local::LocalTriangle;
use crate::Feature;
use crate::sat::box_box::{DEGENERATE_EDGE_AXIS, box_edge_along};
use crate::sat::{Axis, FEATURE_SLOP, SatOutcome, fold_candidates};
use glam::Vec3;

/// The 13-axis test of the box with half extents `h` (centred at the origin) against
/// `tri`, whose plane has the box's centre in front. Edge features name the triangle
/// edge and the box edge (numbered as [`box_edge_along`]) that support the axis.
///
/// The candidates are kept as separations and small codes (`2k`, `2k + 1` for the box
/// face axes `+e_k`, `−e_k`; `2m`, `2m + 1` for edge line `m = 3i + k` along `+L`,
/// `−L`); normals and features are built for the chosen axes only. Returns the outcome
/// and the largest gap over every line either way (see the module docs); without a
/// margin an overlap's gap is at most 0, and only the front face's is returned.
pub(crate) fn box_triangle(h: Vec3, tri: &LocalTriangle, margin: f32) -> (SatOutcome, f32) {
    // Only a margin needs the gap: its two maxima per line cost the box test about
    // 15 % more instructions (2 % of the `terrain` scene's mesh pairs, callgrind).
    if margin > 0.0 {
        box_triangle_gap::<true>(h, tri, margin)
    } else {
        box_triangle_gap::<false>(h, tri, margin)
    }
}

/// [`box_triangle`], the largest gap tracked when `GAP`.
#[inline(always)]
fn box_triangle_gap<const GAP: bool>(
    h: Vec3,
    tri: &LocalTriangle,
    margin: f32,
) -> (SatOutcome, f32) {
    let n = tri.normal;
    let t = tri.vertices;
    let face_a = Axis {
        separation: -tri.offset - h.dot(n.abs()),
        normal: n,
        feature: Feature::FaceA(0),
    };
    if face_a.separation > margin {
        return (SatOutcome::Separated(face_a), face_a.separation);
    }
    let mut gap = face_a.separation;
    let (ha, na) = (h.to_array(), n.to_array());
    let (lo, hi) = (
        t[0].min(t[1]).min(t[2]).to_array(),
        t[0].max(t[1]).max(t[2]).to_array(),
    );
    // Box face axes.
    let mut face_b = (f32::NEG_INFINITY, 0);
    for k in 0..3 {
        let (up, down) = (-ha[k] - hi[k], lo[k] - ha[k]);
        if up > margin {
            return (SatOutcome::Separated(face_axis(up, 2 * k)), up);
        }
        if down > margin {
            return (SatOutcome::Separated(face_axis(down, 2 * k + 1)), down);
        }
        if GAP {
            gap = gap.max(up).max(down);
        }
        if na[k] >= 0.0 && up > face_b.0 {
            face_b = (up, 2 * k);
        }
        if na[k] <= 0.0 && down > face_b.0 {
            face_b = (down, 2 * k + 1);
        }
    }
    // Edge axes `(t_{i+1} − t_i) × e_k`, unnormalised (`L' = |L'| L`) until the gaps.
    let mut edge = (f32::NEG_INFINITY, 0);
    for i in 0..3 {
        let e = (t[(i + 1) % 3] - t[i]).to_array();
        let (on, off) = (t[i].to_array(), t[(i + 2) % 3].to_array());
        let floor = DEGENERATE_EDGE_AXIS
            .max(DEGENERATE_EDGE_AXIS * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
        let lines = [
            edge_line::<0>(e, on, off, ha, na, floor),
            edge_line::<1>(e, on, off, ha, na, floor),
            edge_line::<2>(e, on, off, ha, na, floor),
        ];
        for (k, line) in lines.into_iter().enumerate() {
            let Some((up, down, l_dot_n)) = line else {
                continue;
            };
            let m = 3 * i + k;
            if up > margin {
                return (SatOutcome::Separated(edge_axis(up, 2 * m, t)), up);
            }
            if down > margin {
                return (SatOutcome::Separated(edge_axis(down, 2 * m + 1, t)), down);
            }
            if GAP {
                gap = gap.max(up).max(down);
            }
            if l_dot_n >= 0.0 && up > edge.0 {
                edge = (up, 2 * m);
            }
            if l_dot_n <= 0.0 && down > edge.0 {
                edge = (down, 2 * m + 1);
            }
        }
    }
    let face_b = (face_b.0 > f32::NEG_INFINITY).then(|| face_axis(face_b.0, face_b.1));
    let edge = (edge.0 > f32::NEG_INFINITY).then(|| edge_axis(edge.0, edge.1, t));
    let outcome = fold_candidates(
        face_a,
        face_b,
        edge,
        None,
        FEATURE_SLOP * h.min_element(),
        None,
    );
    (outcome, gap)
}

/// The box face axis of code `c`: `+e_k` (b's face `−k`, numbered `2k`) for `c = 2k`,
/// `−e_k` (face `+k`, `2k + 1`) for `c = 2k + 1`.
#[inline]
fn face_axis(separation: f32, c: usize) -> Axis {
    let mut normal = [0.0; 3];
    normal[c / 2] = if c.is_multiple_of(2) { 1.0 } else { -1.0 };
    Axis {
        separation,
        normal: Vec3::from_array(normal),
        feature: Feature::FaceB(c as u32),
    }
}

/// The gaps `(up, down)` along the line `(t_{i+1} − t_i) × e_K` and the sign-bearing
/// `L' · n`, or `None` when the edge is near-parallel to `e_K`. With `K1, K2` the other
/// axes in cyclic order, `L'` has `L'_K = 0`, `L'_{K1} = e_{K2}`, `L'_{K2} = −e_{K1}`,
/// so each dot product is two products and the box's radius `h_{K1}|e_{K2}| +
/// h_{K2}|e_{K1}|`; the gaps are divided by `|L'|` once.
#[inline(always)]
fn edge_line<const K: usize>(
    e: [f32; 3],
    on: [f32; 3],
    off: [f32; 3],
    h: [f32; 3],
    n: [f32; 3],
    floor: f32,
) -> Option<(f32, f32, f32)> {
    let (k1, k2) = ((K + 1) % 3, (K + 2) % 3);
    let length_squared = e[k1] * e[k1] + e[k2] * e[k2];
    if length_squared < floor {
        return None;
    }
    let dot = |v: [f32; 3]| e[k2] * v[k1] - e[k1] * v[k2];
    let (p, q) = (dot(on), dot(off));
    let r = h[k1] * e[k2].abs() + h[k2] * e[k1].abs();
    let inverse = 1.0 / length_squared.sqrt();
    Some(((-r - p.max(q)) * inverse, (p.min(q) - r) * inverse, dot(n)))
}

/// The edge axis of code `c` (line `m = c / 2`, `+L` or `−L`, for triangle edge `m / 3`
/// and box axis `m % 3`), its feature naming the triangle edge and the box edge along
/// that axis that supports it (furthest along `−normal`).
#[inline]
fn edge_axis(separation: f32, c: usize, t: [Vec3; 3]) -> Axis {
    let m = c / 2;
    let (i, k) = (m / 3, m % 3);
    let units = [Vec3::X, Vec3::Y, Vec3::Z];
    let l = (t[(i + 1) % 3] - t[i]).cross(units[k]).normalize();
    let normal = if c.is_multiple_of(2) { l } else { -l };
    Axis {
        separation,
        normal,
        feature: Feature::EdgeEdge(i as u32, box_edge_along(k, -normal)),
    }
}
