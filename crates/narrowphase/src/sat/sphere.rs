//! Queries with a sphere: the axis always runs through the sphere's centre, so each is a
//! point-to-shape distance.
//!
//! * sphere–sphere: `n = (c_b − c_a) / |c_b − c_a|`, `s = |c_b − c_a| − r_a − r_b`;
//! * point–box (in the box frame): outside, the closest point is the clamp of `p` to
//!   `[−h, h]`; inside, the nearest face is the axis with the least `h_k − |p_k|`;
//! * point–polytope ([`point_polytope`](super::point_polytope)): inside (every plane
//!   distance ≤ 0) the nearest face is the largest plane distance; outside, the closest
//!   feature, found by a walk from the face `p` is furthest in front of.
//!
//! With `δ` the signed point–shape distance and `r` the sphere radius, `s = δ − r`.

use super::{Axis, Frame, SatOutcome, length_and_direction};
use crate::Feature;
use crate::math::length_and_unit;
use glam::Vec3;

/// Outward unit normal at the closest feature and the signed distance of `p`
/// (negative inside) to a box of half extents `h`.
pub(crate) fn point_box(h: Vec3, p: Vec3) -> (Vec3, f32) {
    let q = p.clamp(-h, h);
    let outside = p - q;
    if let Some((distance, normal)) = length_and_unit(outside) {
        return (normal, distance);
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
    use crate::polytope::{BoxPolytope, Polytope};
    use crate::sat::point_polytope::point_polytope;

    #[test]
    fn point_polytope_agrees_with_point_box() {
        let h = Vec3::new(1.0, 0.5, 2.0);
        let hull = sepax_geometry::ConvexHull::cuboid(h).unwrap();
        let boxed = BoxPolytope::new(h);
        let mut rng = sepax_geometry::rng::Rng::new(3);
        // The hull takes the walk, the box view the scan.
        for view in [Polytope::from_hull(&hull), boxed.view()] {
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
}
