//! Queries with a sphere: the axis always runs through the sphere's centre, so each is a
//! point-to-shape distance.
//!
//! * sphere–sphere: `n = (c_b − c_a) / |c_b − c_a|`, `s = |c_b − c_a| − r_a − r_b`;
//! * point–box (in the box frame): outside, the closest point is the clamp of `p` to
//!   `[−h, h]`; inside, the nearest face is the axis with the least `h_k − |p_k|`;
//! * point–polytope: inside (every plane distance ≤ 0) the nearest face is the largest
//!   plane distance; outside, the closest point lies on a face (projection inside the
//!   polygon) or on an edge of a face that `p` is in front of.
//!
//! With `δ` the signed point–shape distance and `r` the sphere radius, `s = δ − r`.

use super::{Axis, Frame, SatOutcome, length_and_direction};
use crate::Feature;
use crate::math::closest_points_on_segments;
use crate::polytope::Polytope;
use glam::Vec3;

/// Outward unit normal at the closest feature and the signed distance of `p`
/// (negative inside) to a box of half extents `h`.
pub(crate) fn point_box(h: Vec3, p: Vec3) -> (Vec3, f32) {
    let q = p.clamp(-h, h);
    let outside = p - q;
    let distance_squared = outside.length_squared();
    if distance_squared > 0.0 {
        let distance = distance_squared.sqrt();
        return (outside / distance, distance);
    }
    let gaps = h - p.abs();
    let axis = if gaps.x <= gaps.y && gaps.x <= gaps.z {
        0
    } else if gaps.y <= gaps.z {
        1
    } else {
        2
    };
    let mut normal = Vec3::ZERO;
    normal[axis] = if p[axis] >= 0.0 { 1.0 } else { -1.0 };
    (normal, -gaps[axis])
}

/// Outward unit normal and signed distance of `p` to a convex polytope.
pub(crate) fn point_polytope(poly: &Polytope, p: Vec3) -> (Vec3, f32) {
    let mut deepest = 0;
    let mut largest = f32::NEG_INFINITY;
    for (f, plane) in poly.planes.iter().enumerate() {
        let d = plane.signed_distance(p);
        if d > largest {
            largest = d;
            deepest = f;
        }
    }
    if largest <= 0.0 {
        return (poly.planes[deepest].normal, largest);
    }
    // The whole polytope lies behind every face plane, so if p projects into the polygon
    // of the face it is furthest in front of, that projection is the closest point.
    if projects_inside(poly, deepest, p - poly.planes[deepest].normal * largest) {
        return (poly.planes[deepest].normal, largest);
    }
    // Outside: the closest point is on a face in front of p, inside that face's polygon
    // or on its boundary.
    let mut best_distance_squared = f32::INFINITY;
    let mut best_point = p;
    for (f, plane) in poly.planes.iter().enumerate() {
        let d = plane.signed_distance(p);
        if d <= 0.0 {
            continue;
        }
        let projected = p - plane.normal * d;
        let face = poly.face(f);
        let mut inside = true;
        for k in 0..face.len() {
            let v0 = poly.vertices[face[k] as usize];
            let v1 = poly.vertices[face[(k + 1) % face.len()] as usize];
            if (v1 - v0).cross(plane.normal).dot(projected - v0) > 0.0 {
                inside = false;
                let (on_edge, _) = closest_points_on_segments(v0, v1 - v0, p, Vec3::ZERO);
                let ds = (p - on_edge).length_squared();
                if ds < best_distance_squared {
                    best_distance_squared = ds;
                    best_point = on_edge;
                }
            }
        }
        if inside && d * d < best_distance_squared {
            best_distance_squared = d * d;
            best_point = projected;
        }
    }
    let distance = best_distance_squared.sqrt();
    let normal = ((p - best_point) / distance)
        .try_normalize()
        .unwrap_or(poly.planes[deepest].normal);
    (normal, distance)
}

/// Does `q`, a point in face `f`'s plane, lie inside the face polygon (boundary
/// included)? Inside means behind every edge's outward side plane.
fn projects_inside(poly: &Polytope, f: usize, q: Vec3) -> bool {
    let face = poly.face(f);
    let normal = poly.planes[f].normal;
    (0..face.len()).all(|k| {
        let v0 = poly.vertices[face[k] as usize];
        let v1 = poly.vertices[face[(k + 1) % face.len()] as usize];
        (v1 - v0).cross(normal).dot(q - v0) <= 0.0
    })
}

fn outcome(axis: Axis, margin: f32) -> SatOutcome {
    if axis.separation > margin {
        SatOutcome::Separated(axis)
    } else {
        SatOutcome::Overlap {
            exact: axis,
            preferred: axis,
        }
    }
}

pub(crate) fn sphere_sphere(ra: f32, rb: f32, frame: &Frame, margin: f32) -> SatOutcome {
    let (length, normal) = length_and_direction(frame.trans).unwrap_or((0.0, Vec3::Z));
    outcome(
        Axis {
            separation: length - ra - rb,
            normal,
            feature: Feature::Sphere,
        },
        margin,
    )
}

/// Sphere a (radius `ra`) against a shape b given by its point query in b's frame.
pub(crate) fn sphere_shape(
    ra: f32,
    frame: &Frame,
    margin: f32,
    point_query: impl Fn(Vec3) -> (Vec3, f32),
) -> SatOutcome {
    let centre_in_b = frame.point_to_b(Vec3::ZERO);
    let (normal_b, distance) = point_query(centre_in_b);
    outcome(
        Axis {
            separation: distance - ra,
            normal: -(frame.rot * normal_b),
            feature: Feature::Sphere,
        },
        margin,
    )
}

/// Shape a given by its point query against sphere b (radius `rb`).
pub(crate) fn shape_sphere(
    rb: f32,
    frame: &Frame,
    margin: f32,
    point_query: impl Fn(Vec3) -> (Vec3, f32),
) -> SatOutcome {
    let (normal, distance) = point_query(frame.trans);
    outcome(
        Axis {
            separation: distance - rb,
            normal,
            feature: Feature::Sphere,
        },
        margin,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polytope::BoxPolytope;

    #[test]
    fn point_polytope_agrees_with_point_box() {
        let h = Vec3::new(1.0, 0.5, 2.0);
        let boxed = BoxPolytope::new(h);
        let view = boxed.view();
        let mut rng = sepax_geometry::rng::Rng::new(3);
        for _ in 0..2000 {
            let p = rng.vec3(Vec3::splat(-4.0), Vec3::splat(4.0));
            let (n1, d1) = point_box(h, p);
            let (n2, d2) = point_polytope(&view, p);
            assert!((d1 - d2).abs() < 1e-5, "{p}: {d1} vs {d2}");
            assert!(
                (n1 - n2).length() < 1e-3 || d1.abs() < 1e-4,
                "{p}: {n1} vs {n2}"
            );
        }
    }
}
