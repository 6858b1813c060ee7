//! The f64 twins of the one-sided triangle queries ([`crate::mesh`]): vertex projection
//! over every candidate axis for boxes and hulls, the closest point for spheres, the
//! closest points of the core segment for capsules.
//!
//! The rules are the mesh module's, written out plainly:
//! * the shape's centre (a box's centre, a hull's centroid, a sphere's centre) behind
//!   the triangle's plane: no contact (`None`);
//! * candidate axes, each unit, pointing from the triangle to the shape: the front
//!   normal `n`; `−m` for each face normal `m` of the shape (a box's six faces, a
//!   hull's planes); `±(e_i × g)` for every triangle edge `e_i` and every edge
//!   direction `g` of the shape;
//! * gap along `L`: `min over the shape of L·x − max over the triangle of L·x`, every
//!   vertex projected, in f64;
//! * apart when some gap (or the gap along `−n`) is positive: `separation` is then the
//!   largest gap; otherwise `separation` is minus the depth, the largest gap among the
//!   axes with `L · n ≥ 0`, and `normal` that axis.

use super::capsule::{closest_points_of_segments, point_on_segment};
use super::{DEGENERATE_CROSS, OracleContact, interval, solid, unit_rotation, world};
use glam::DVec3;
use sepax_geometry::{Capsule, MeshTriangle, Pose, Shape};

/// The triangle's corners and normal in the world, in f64.
fn world_triangle(triangle: &MeshTriangle, mesh_pose: &Pose) -> ([DVec3; 3], DVec3) {
    let corners = triangle.vertices.map(|v| world(v, mesh_pose));
    let normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .normalize();
    (corners, normal)
}

/// The one-sided vertex-projection test of a box or hull against a triangle (see the
/// module docs); `None` for a sphere, an invalid pose or a centre behind the plane.
pub fn triangle_vertex_projection_sat(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<OracleContact> {
    triangle_vertex_projection_sat_eligible_from(triangle, mesh_pose, shape, pose, 0.0)
}

/// [`triangle_vertex_projection_sat`] with the axes `L · n ≥ eligible_from` competing
/// for the contact (0 there).
///
/// The one-sided depth is discontinuous where a candidate axis lies in the triangle's
/// plane (`L · n = 0`): a box turned with a face axis along a triangle edge has one
/// there, and whether it competes, which can halve the depth, is decided by round-off
/// (the f32 normal, the rounded rotation). Tests take the answers with `±` a small band
/// as the range the exact one may be read as.
pub fn triangle_vertex_projection_sat_eligible_from(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    eligible_from: f64,
) -> Option<OracleContact> {
    let (mut best, apart) = projections(triangle, mesh_pose, shape, pose, eligible_from)?;
    if apart > 0.0 {
        best.separation = apart;
    }
    Some(best)
}

/// The body of [`triangle_vertex_projection_sat_eligible_from`]: the best eligible
/// axis and the largest gap over every axis (the verdict's).
fn projections(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    eligible_from: f64,
) -> Option<(OracleContact, f64)> {
    if !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let (t, n) = world_triangle(triangle, mesh_pose);
    let convex = solid(shape, pose)?;
    let centre = match shape {
        Shape::ConvexHull(h) => world(h.centroid(), pose),
        _ => pose.translation.as_dvec3(),
    };
    if n.dot(centre - t[0]) < 0.0 {
        return None;
    }
    let mut apart = f64::NEG_INFINITY;
    let mut best = OracleContact {
        separation: f64::NEG_INFINITY,
        normal: n,
    };
    let mut consider = |l: DVec3| {
        let (lo, _) = interval(&convex.vertices, l);
        let (_, hi) = interval(&t, l);
        let gap = lo - hi;
        apart = apart.max(gap);
        if l.dot(n) >= eligible_from && gap > best.separation {
            best = OracleContact {
                separation: gap,
                normal: l,
            };
        }
    };
    consider(n);
    // A box's normals are its three axes: its six faces are `±` each.
    let both_ways = matches!(shape, Shape::Cuboid(_));
    for m in &convex.normals {
        let m = m.normalize();
        consider(-m);
        if both_ways {
            consider(m);
        }
    }
    for i in 0..3 {
        let e = t[(i + 1) % 3] - t[i];
        for g in &convex.edges {
            let c = e.cross(*g);
            if c.length() > DEGENERATE_CROSS * e.length() * g.length() {
                let l = c.normalize();
                consider(l);
                consider(-l);
            }
        }
    }
    // The back face: its gap is never positive with the centre in front, kept for the
    // plain statement of the verdict.
    let (_, hi) = interval(&convex.vertices, n);
    apart = apart.max(n.dot(t[0]) - hi);
    Some((best, apart))
}

/// The verdict's gap of a posed shape (any convex kind) and a triangle, one-sided:
/// positive apart (by that much along some axis, or the distance for a sphere or a
/// capsule), otherwise `≤ 0`, touching; `None` as the twins of each kind (a centre
/// behind the plane, an invalid pose, a mesh).
///
/// It differs from the twins' `separation` when the pair touches: that is minus the
/// depth along the axes that may carry the contact (`L · n ≥ 0`), which can be deep
/// while the pair only grazes along an axis pointing behind the triangle. Verdict tests
/// judge this value against their band.
pub fn triangle_verdict_gap(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<f64> {
    match shape {
        Shape::Sphere(s) => {
            Some(triangle_sphere(triangle, mesh_pose, s.radius(), pose)?.separation)
        }
        Shape::Capsule(c) => capsule_core_distance(triangle, mesh_pose, c, pose)
            .map(|(distance, _, _)| distance - c.radius() as f64),
        Shape::Cuboid(_) | Shape::ConvexHull(_) => {
            projections(triangle, mesh_pose, shape, pose, 0.0).map(|(_, apart)| apart)
        }
        Shape::TriMesh(_) => None,
    }
}

/// The closest point of the triangle (world, f64) to `p`.
pub fn closest_point_on_triangle(triangle: &MeshTriangle, mesh_pose: &Pose, p: DVec3) -> DVec3 {
    let (t, n) = world_triangle(triangle, mesh_pose);
    let projected = p - n * n.dot(p - t[0]);
    let inside = (0..3).all(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        (b - a).cross(n).dot(projected - a) <= 0.0
    });
    if inside {
        return projected;
    }
    (0..3)
        .map(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            let s = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            a + (b - a) * s
        })
        .min_by(|x, y| (*x - p).length().total_cmp(&(*y - p).length()))
        .unwrap_or(projected)
}

/// A sphere against a triangle: `None` when the centre is behind the plane, else the
/// separation `|c − q| − r` and the unit normal from the closest point `q` to the
/// centre (the front normal when the centre lies on the triangle).
pub fn triangle_sphere(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    radius: f32,
    pose: &Pose,
) -> Option<OracleContact> {
    let (t, n) = world_triangle(triangle, mesh_pose);
    let c = pose.translation.as_dvec3();
    if n.dot(c - t[0]) < 0.0 {
        return None;
    }
    let q = closest_point_on_triangle(triangle, mesh_pose, c);
    let distance = (c - q).length();
    let normal = if distance > 0.0 {
        (c - q) / distance
    } else {
        n
    };
    Some(OracleContact {
        separation: distance - radius as f64,
        normal,
    })
}

/// The gap of a posed shape and a triangle along `normal` (triangle → shape): `min over
/// the shape − max over the triangle` of `normal · x`, in f64 (a sphere: centre minus
/// radius). A contact of depth `d` along `normal` has `gap ≈ −d`.
pub fn triangle_gap_along(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    normal: DVec3,
) -> f64 {
    let (t, _) = world_triangle(triangle, mesh_pose);
    let (_, hi) = interval(&t, normal);
    let lo = match (solid(shape, pose), shape) {
        (Some(convex), _) => interval(&convex.vertices, normal).0,
        (None, Shape::Capsule(c)) => {
            let [p0, p1] = capsule_core(c, pose);
            p0.dot(normal).min(p1.dot(normal)) - c.radius() as f64 * normal.length()
        }
        (None, _) => {
            let r = shape.bounding_radius() as f64 * normal.length();
            pose.translation.as_dvec3().dot(normal) - r
        }
    };
    lo - hi
}

/// The capsule's core segment in the world, in f64.
fn capsule_core(capsule: &Capsule, pose: &Pose) -> [DVec3; 2] {
    let top = unit_rotation(pose) * DVec3::new(0.0, capsule.half_height() as f64, 0.0);
    let c = pose.translation.as_dvec3();
    [c - top, c + top]
}

/// The closest point of the world triangle `t` (unit normal `n`) to `p`: its projection
/// when that falls inside (or on) the triangle, else the nearest point of its sides.
pub(super) fn closest_on(t: &[DVec3; 3], n: DVec3, p: DVec3) -> DVec3 {
    let projected = p - n * n.dot(p - t[0]);
    let inside = (0..3).all(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        (b - a).cross(n).dot(projected - a) <= 0.0
    });
    if inside {
        return projected;
    }
    (0..3)
        .map(|i| point_on_segment(p, t[i], t[(i + 1) % 3]))
        .min_by(|x, y| (*x - p).length().total_cmp(&(*y - p).length()))
        .unwrap_or(projected)
}

/// The closest points of segments `a0 a1` and `b0 b1` (see
/// [`closest_points_of_segments`]).
fn segment_pair(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> (DVec3, DVec3) {
    let (x, y, _) = closest_points_of_segments(a0, a1, b0, b1);
    (x, y)
}

/// A capsule against a triangle, one-sided: `None` for an invalid pose or a centre
/// behind the plane. Apart, the separation is the distance `D` between the core and the
/// triangle minus the radius, along the closest points' direction `u` (triangle →
/// core). In contact with `D > 0` and `u · n ≥ 0`, the same. Otherwise (the core
/// crossing the triangle, or `u` pointing behind it) the largest gap minus the radius
/// over the axes `n` and `±(d × e_i)` with `L · n ≥ 0` (`d` the core's direction,
/// `e_i` the edges), endpoints and corners projected.
pub fn triangle_capsule(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    capsule: &Capsule,
    pose: &Pose,
) -> Option<OracleContact> {
    let (distance, (x, y), ([p0, p1], t, n)) =
        capsule_core_distance(triangle, mesh_pose, capsule, pose)?;
    let radius = capsule.radius() as f64;
    if distance > 0.0 {
        let u = (x - y) / distance;
        if distance > radius || u.dot(n) >= 0.0 {
            return Some(OracleContact {
                separation: distance - radius,
                normal: u,
            });
        }
    }
    let mut best = OracleContact {
        separation: f64::NEG_INFINITY,
        normal: n,
    };
    let mut consider = |l: DVec3| {
        let gap = p0.dot(l).min(p1.dot(l)) - interval(&t, l).1 - radius;
        if l.dot(n) >= 0.0 && gap > best.separation {
            best = OracleContact {
                separation: gap,
                normal: l,
            };
        }
    };
    consider(n);
    let d = p1 - p0;
    for i in 0..3 {
        let e = t[(i + 1) % 3] - t[i];
        let c = d.cross(e);
        if c.length() > DEGENERATE_CROSS * d.length() * e.length() {
            consider(c.normalize());
            consider(-c.normalize());
        }
    }
    Some(best)
}

/// The capsule twin's geometry (see [`triangle_capsule`]).
type CoreAndTriangle = ([DVec3; 2], [DVec3; 3], DVec3);

/// The distance of a capsule's core and a triangle (0 where the core crosses it), its
/// closest points (core, triangle) and the core's ends, the triangle's corners and its
/// normal, in the world; `None` for an invalid pose or a centre behind the plane.
fn capsule_core_distance(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    capsule: &Capsule,
    pose: &Pose,
) -> Option<(f64, (DVec3, DVec3), CoreAndTriangle)> {
    if !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let (t, n) = world_triangle(triangle, mesh_pose);
    if n.dot(pose.translation.as_dvec3() - t[0]) < 0.0 {
        return None;
    }
    let [p0, p1] = capsule_core(capsule, pose);
    // The closest points: zero where the core crosses the triangle.
    let (h0, h1) = (n.dot(p0 - t[0]), n.dot(p1 - t[0]));
    let crossing = (h0 <= 0.0) != (h1 <= 0.0) && {
        let q = p0 + (p1 - p0) * (h0 / (h0 - h1));
        (0..3).all(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            (b - a).cross(n).dot(q - a) <= 0.0
        })
    };
    let mut pairs = vec![(p0, closest_on(&t, n, p0)), (p1, closest_on(&t, n, p1))];
    pairs.extend((0..3).map(|i| segment_pair(p0, p1, t[i], t[(i + 1) % 3])));
    let (x, y) = pairs
        .into_iter()
        .min_by(|a, b| (a.0 - a.1).length().total_cmp(&(b.0 - b.1).length()))
        .expect("five pairs");
    let distance = if crossing { 0.0 } else { (x - y).length() };
    Some((distance, (x, y), ([p0, p1], t, n)))
}
