//! Sphere–sphere answers against the f64 oracle on 120,000 pairs: the sphere path
//! (`sphere_pair`), where the first sphere of the canonical order meets the second as
//! the shape whose point query is `(c / |c|, |c| − r)`.
//!
//! Radii from 0.001 to 2, centres apart by nothing (coincident), a hair, about the sum
//! of the radii (a hair either way), less than it, far more, or anything; poses up to
//! 10,000 from the origin, where the offset between the centres is rounded. Each pair
//! runs through `common::check_sphere_pair` (the depth and the normal against
//! `oracle::sphere_separation`, both orders bit for bit, `collide` against `contact`,
//! `intersects` against the oracle's sign), and each sphere's anchor is checked: on its
//! surface, its radius from its centre in its own frame.

use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};

mod common;
use common::{Case, Regimes, check_sphere_pair, pose_at_random_reach, tolerance_at};

/// The distance between the centres for offset kind `kind` (see the module docs).
fn centre_distance(rng: &mut Rng, ra: f32, rb: f32, kind: usize) -> f32 {
    let sum = ra + rb;
    match kind {
        0 => 0.0,
        1 => rng.range(0.0, 1e-5) * sum,
        2 => sum * (1.0 + rng.range(-1e-5, 1e-5)),
        3 => rng.range(0.0, 1.0) * sum,
        4 => sum * rng.range(1.0, 20.0),
        _ => rng.range(0.0, 3.0) * sum,
    }
}

#[test]
fn sphere_sphere_matches_the_f64_oracle_on_120k_pairs() {
    let mut rng = Rng::new(0x5_5055);
    let mut regimes = Regimes::default();
    for i in 0..120_000 {
        let kind = i % 6;
        let (ra, rb) = (rng.range(0.001, 2.0), rng.range(0.001, 2.0));
        let (a, b) = (
            Shape::from(Sphere::try_new(ra).unwrap()),
            Shape::from(Sphere::try_new(rb).unwrap()),
        );
        let (pose_b, reach) = pose_at_random_reach(&mut rng);
        let distance = centre_distance(&mut rng, ra, rb, kind);
        let centre_a = pose_b.translation + rng.unit_vec3() * distance;
        let pose_a = Pose::new(centre_a, rng.rotation());
        let size = (ra + rb) as f64;
        let tolerance = tolerance_at(size, reach);
        let (truth, m) = check_sphere_pair(
            Case { index: i, kind },
            (&a, ra, &pose_a),
            (&b, &pose_b),
            tolerance,
        );
        // Each anchor, in its sphere's frame, is on that sphere's surface (whichever
        // sphere ran first).
        for (anchor, radius) in [(m.points[0].anchor_a, ra), (m.points[0].anchor_b, rb)] {
            let off = (anchor.length() - radius).abs() as f64;
            assert!(
                off <= 1e-5 * size,
                "case {i} (kind {kind}): anchor {anchor} is {off} off a sphere of radius {radius}"
            );
        }
        regimes.add(truth, ra);
    }
    // Every regime is well represented.
    regimes.assert_at_least(10_000, 50_000, 30_000);
}

/// Two spheres far out near `f32::MAX`, where the sum of their surface points
/// overflows f32 (a fuzz input: two coincident spheres at `x = −1.76e38` got their
/// point at `−∞`, `fuzz/artifacts-found/narrow_phase/huge-spheres-point-overflow`):
/// the point is finite, halfway between the surface points to f32's rounding, and the
/// other order mirrors it (as `==` compares: a coincident pair's normal `±z` flips to
/// `−0` components). Coincident, and apart in any direction by up to the radii.
#[test]
fn spheres_near_the_edge_of_f32_get_a_finite_point() {
    let mut rng = Rng::new(0xf32_3a7);
    for i in 0..2_000 {
        let (ra, rb) = (rng.range(0.01, 50.0), rng.range(0.01, 50.0));
        let far = if rng.below(2) == 0 { -1.0 } else { 1.0 } * rng.range(1.7e38, 3.4e38);
        let axis = rng.below(3);
        let mut ta = rng.vec3(glam::Vec3::splat(-10.0), glam::Vec3::splat(10.0));
        ta[axis] = far;
        // Coincident one time in four, else apart by less than the radii along any
        // direction (a hair off the far coordinate's spacing is rounded away there).
        let tb = if i % 4 == 0 {
            ta
        } else {
            ta + rng.rotation() * glam::Vec3::X * rng.range(0.0, ra + rb)
        };
        let (a, b) = (
            Shape::from(Sphere::try_new(ra).unwrap()),
            Shape::from(Sphere::try_new(rb).unwrap()),
        );
        let (pa, pb) = (Pose::from_translation(ta), Pose::from_translation(tb));
        let margin = ra + rb;
        let m = sepax_narrowphase::collide(&a, &pa, &b, &pb, margin, &mut Default::default())
            .unwrap_or_else(|| panic!("case {i}: no manifold"));
        let point = &m.points[0];
        assert!(
            point.position.is_finite() && m.normal.is_finite(),
            "case {i}: {m:?}"
        );
        // Halfway between the surface points, to the rounding of the far coordinate.
        let surface = |t: glam::Vec3, on: glam::Vec3| t.as_dvec3() + on.as_dvec3();
        let halfway = (surface(ta, m.normal * ra) + surface(tb, -m.normal * rb)) * 0.5;
        let off = (point.position.as_dvec3() - halfway).abs().max_element();
        assert!(
            off <= 2.0 * far.abs() as f64 * f32::EPSILON as f64,
            "case {i}: {off}"
        );
        let other = sepax_narrowphase::collide(&b, &pb, &a, &pa, margin, &mut Default::default());
        assert_eq!(other, Some(m.flipped()), "case {i}: order");
    }
}
