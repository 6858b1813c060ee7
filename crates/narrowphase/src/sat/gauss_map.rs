//! Gregorius' hull–hull SAT without bounds (GDC 2013): the "plain SAT" seed 003's walk
//! is claimed to beat by 5–10×, a second baseline of the `seed003` bench group. Nothing
//! in sepax calls it; [`hull_hull`](super::hull_hull) is the test in use.
//!
//! The same candidates as [`plain`](super::plain), in a's frame, but edge pairs are
//! kept only when they form a face of the Minkowski difference `a − b`:
//! * each face normal of a and of b, with a full support scan of the other shape (the
//!   `F_a + F_b` scans the seed's walk replaces by one scan and cheap updates);
//! * each edge pair whose Gauss-map arcs cross (`u→v` of a, `c→d` of −b; Gregorius'
//!   test on the signs of `c·(v×u)`, `d·(v×u)`, `u·(d×c)`, `v·(d×c)`): both edges then
//!   support the axis `n = ±(e_a × R e_b)/|…|`, oriented out of a at its edge, so its
//!   separation needs no support scan: `s = n·(p_b − p_a)` with `p_a`, `p_b` on the
//!   edges. Near-parallel edges (`PARALLEL_EDGES`) are skipped.
//!
//! The largest separation over these is exact (the maximum is reached at a face of
//! `a − b`). What it leaves out: the inner-sphere bounds that skip faces and drop edges
//! before pairing, the witnesses, the pair cache. It costs `(F_a + F_b)·V` dot products
//! and `E_a·E_b` arc tests.

use super::Frame;
use super::plain::{edge_pair_axis, face_axes};
use crate::polytope::Polytope;
use glam::Vec3;
use sepax_geometry::{ConvexHull, Pose};

/// Do arc `u→v` and arc `c→d` cross on the unit sphere? `vxu = v × u`, `dxc = d × c`.
/// Each arc's end points lie on opposite sides of the other's plane, and on the same
/// hemisphere (`c·(v×u)` and `v·(d×c)` of one sign), not antipodal.
#[inline]
fn arcs_cross(u: Vec3, v: Vec3, vxu: Vec3, c: Vec3, d: Vec3, dxc: Vec3) -> bool {
    let (cvu, dvu) = (c.dot(vxu), d.dot(vxu));
    let (udc, vdc) = (u.dot(dxc), v.dot(dxc));
    cvu * dvu < 0.0 && udc * vdc < 0.0 && cvu * vdc > 0.0
}

/// Gregorius' SAT of two posed hulls (its candidates are listed in the docs of
/// `sat/gauss_map.rs`), answered as
/// [`plain_hull_hull`](super::plain::plain_hull_hull): the axis of largest separation
/// as a unit world normal from a to b and its separation, or `None` when an axis
/// separates them or a pose is invalid.
///
/// ```
/// use sepax_geometry::{ConvexHull, Pose};
/// use sepax_narrowphase::sat_baseline::gauss_map_hull_hull;
/// use glam::{Quat, Vec3};
///
/// let cube = ConvexHull::cuboid(Vec3::splat(0.5)).unwrap();
/// let above = Pose::new(Vec3::new(0.0, 0.9, 0.0), Quat::from_rotation_y(0.3));
/// let (normal, separation) = gauss_map_hull_hull(&cube, &Pose::IDENTITY, &cube, &above).unwrap();
/// assert!((normal - Vec3::Y).length() < 1e-6 && (separation + 0.1).abs() < 1e-6);
/// ```
pub fn gauss_map_hull_hull(
    a: &ConvexHull,
    pose_a: &Pose,
    b: &ConvexHull,
    pose_b: &Pose,
) -> Option<(Vec3, f32)> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    let frame = Frame::new(pose_a, pose_b);
    let (pa, pb) = (Polytope::from_hull(a), Polytope::from_hull(b));
    let mut best = (f32::NEG_INFINITY, Vec3::X);
    let mut keep = |s: f32, n: Vec3| {
        if s > best.0 {
            best = (s, n);
        }
        s > 0.0
    };
    if face_axes(&pa, &pb, &frame, &mut keep) {
        return None;
    }
    for edge_b in pb.edges {
        // b's arc on −b's Gauss map, and the edge, in a's frame.
        let [g0, g1] = edge_b
            .faces
            .map(|f| frame.rot * -pb.planes[f as usize].normal);
        let dxc = g1.cross(g0);
        let [b0, b1] = edge_b
            .vertices
            .map(|v| frame.point_to_a(pb.vertices[v as usize]));
        let direction_b = b1 - b0;
        for edge_a in pa.edges {
            let [f0, f1] = edge_a.faces.map(|f| pa.planes[f as usize].normal);
            if !arcs_cross(f0, f1, f1.cross(f0), g0, g1, dxc) {
                continue;
            }
            let [a0, a1] = edge_a.vertices.map(|v| pa.vertices[v as usize]);
            let Some(n) = edge_pair_axis(&pa, a0, a1 - a0, direction_b) else {
                continue;
            };
            if keep(n.dot(b0 - a0), n) {
                return None;
            }
        }
    }
    let (separation, normal) = best;
    Some((pose_a.rotation.normalize() * normal, separation))
}
