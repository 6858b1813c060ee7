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
//!   `down = min(p, q) − r(L)`; skipped when the edge is within `PARALLEL_EDGES` of
//!   parallel to `e_k` (the face axes cover that configuration).
//!
//! Each line goes through [`offer_line`] (verdict both ways, contact only for
//! orientations with `L · n ≥ 0`); the first separating line ends the test.

use super::local::LocalTriangle;
use super::sat::{Eligible, offer_line};
use crate::Feature;
use crate::sat::box_box::box_edge_along;
use crate::sat::{Axis, FEATURE_SLOP, PARALLEL_EDGES, SatOutcome};
use glam::Vec3;

/// The 13-axis test of the box with half extents `h` (centred at the origin) against
/// `tri`, whose plane has the box's centre in front. Edge features name the triangle
/// edge and the box edge (numbered as [`box_edge_along`]) that support the axis.
pub(crate) fn box_triangle(h: Vec3, tri: &LocalTriangle, margin: f32) -> SatOutcome {
    let n = tri.normal;
    let t = tri.vertices;
    let face_a = Axis {
        separation: -tri.offset - h.dot(n.abs()),
        normal: n,
        feature: Feature::FaceA(0),
    };
    if face_a.separation > margin {
        return SatOutcome::Separated(face_a);
    }
    match box_axes(h, &t, n, margin) {
        Ok(eligible) => {
            let slop = FEATURE_SLOP * h.min_element();
            match eligible.fold(face_a, slop) {
                SatOutcome::Overlap { exact, preferred } => SatOutcome::Overlap {
                    exact: name_box_edge(exact),
                    preferred: name_box_edge(preferred),
                },
                separated => separated,
            }
        }
        Err(axis) => SatOutcome::Separated(name_box_edge(axis)),
    }
}

/// The box's face axes and the edge crosses; edge features carry the box axis `k` until
/// [`name_box_edge`] names the edge.
#[inline(always)]
fn box_axes(h: Vec3, t: &[Vec3; 3], n: Vec3, margin: f32) -> Result<Eligible, Axis> {
    let mut eligible = Eligible::new();
    let (lo, hi) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
    let units = [Vec3::X, Vec3::Y, Vec3::Z];
    let (ha, na, loa, hia) = (h.to_array(), n.to_array(), lo.to_array(), hi.to_array());
    for k in 0..3 {
        offer_line(
            &mut eligible,
            false,
            units[k],
            na[k],
            (-ha[k] - hia[k], loa[k] - ha[k]),
            (
                Feature::FaceB(2 * k as u32),
                Feature::FaceB(2 * k as u32 + 1),
            ),
            margin,
        )?;
    }
    for i in 0..3 {
        let e = t[(i + 1) % 3] - t[i];
        let floor = PARALLEL_EDGES * PARALLEL_EDGES * e.length_squared();
        // e × X, e × Y, e × Z.
        let crosses = [
            Vec3::new(0.0, e.z, -e.y),
            Vec3::new(-e.z, 0.0, e.x),
            Vec3::new(e.y, -e.x, 0.0),
        ];
        for (k, l) in crosses.into_iter().enumerate() {
            let length_squared = l.length_squared();
            if length_squared < floor {
                continue;
            }
            let l = l / length_squared.sqrt();
            let (p, q) = (l.dot(t[i]), l.dot(t[(i + 2) % 3]));
            let r = h.dot(l.abs());
            let feature = Feature::EdgeEdge(i as u32, k as u32);
            offer_line(
                &mut eligible,
                true,
                l,
                l.dot(n),
                (-r - p.max(q), p.min(q) - r),
                (feature, feature),
                margin,
            )?;
        }
    }
    Ok(eligible)
}

/// An edge axis' feature with the box axis replaced by the box edge along it that
/// supports the axis (furthest along `−normal`).
#[inline]
fn name_box_edge(axis: Axis) -> Axis {
    match axis.feature {
        Feature::EdgeEdge(i, k) => Axis {
            feature: Feature::EdgeEdge(i, box_edge_along(k as usize, -axis.normal)),
            ..axis
        },
        _ => axis,
    }
}
