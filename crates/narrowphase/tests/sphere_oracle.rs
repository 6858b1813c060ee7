//! Sphere queries against closed forms in f64: sphere–sphere by centre distance,
//! sphere–box by clamping the centre into the box, sphere–hull by the smallest distance
//! to every face polygon and edge (or the largest plane distance when inside).

mod common;

use common::*;
use glam::DVec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::contact;

/// Signed distance (negative inside) from a world point to a box or hull, in f64.
fn signed_distance(shape: &Shape, pose: &Pose, world: DVec3) -> f64 {
    let q = pose.rotation.as_dquat();
    let p = q.inverse() * (world - pose.translation.as_dvec3());
    match shape {
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3();
            let outside = (p.abs() - h).max(DVec3::ZERO);
            if outside.length_squared() > 0.0 {
                outside.length()
            } else {
                (p.abs() - h).max_element()
            }
        }
        Shape::ConvexHull(hull) => {
            let v = |i: u32| hull.vertices()[i as usize].as_dvec3();
            let plane_max = hull
                .planes()
                .iter()
                .map(|pl| pl.normal.as_dvec3().dot(p) - pl.offset as f64)
                .fold(f64::NEG_INFINITY, f64::max);
            if plane_max <= 0.0 {
                return plane_max;
            }
            let mut best = f64::INFINITY;
            for (f, pl) in hull.planes().iter().enumerate() {
                let n = pl.normal.as_dvec3();
                let d = n.dot(p) - pl.offset as f64;
                let q = p - n * d;
                let face = hull.face(f);
                let inside = (0..face.len()).all(|k| {
                    let (a, b) = (v(face[k]), v(face[(k + 1) % face.len()]));
                    (b - a).cross(n).dot(q - a) <= 0.0
                });
                if inside && d >= 0.0 {
                    best = best.min(d);
                }
            }
            for e in hull.edges() {
                let (a, b) = (v(e.vertices[0]), v(e.vertices[1]));
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                best = best.min((a + (b - a) * t - p).length());
            }
            best
        }
        Shape::Sphere(s) => p.length() - s.radius() as f64,
    }
}

fn run(seed: u64, count: usize, make: impl Fn(&mut Rng) -> Shape) {
    let mut rng = Rng::new(seed);
    let mut hits = 0;
    for i in 0..count {
        let other = make(&mut rng);
        let sphere = Shape::from(Sphere::try_new(rng.range(0.05, 1.5)).unwrap());
        let (ps, po) = place(&mut rng, &sphere, &other, PLACEMENTS[i % 4]);
        let radius = sphere.bounding_radius() as f64;
        let truth = signed_distance(&other, &po, ps.translation.as_dvec3()) - radius;
        let size = scale(&sphere, &other);
        for (ours, label) in [
            (contact(&sphere, &ps, &other, &po, 0.0), "sphere first"),
            (contact(&other, &po, &sphere, &ps, 0.0), "sphere second"),
        ] {
            if truth > 1e-5 * size {
                assert!(
                    ours.is_none(),
                    "case {i} ({label}): gap {truth} but {ours:?}"
                );
            } else if truth < -1e-5 * size {
                let c =
                    ours.unwrap_or_else(|| panic!("case {i} ({label}): depth {} missed", -truth));
                assert!(
                    (c.depth as f64 + truth).abs() <= 1e-4 * size,
                    "case {i} ({label}): depth {} vs {}",
                    c.depth,
                    -truth
                );
                hits += 1;
            }
        }
    }
    assert!(hits > count / 4, "{hits}");
}

#[test]
fn sphere_box_matches_the_clamp_formula_on_100k_pairs() {
    run(0x5B0, 100_000, random_cuboid);
}

#[test]
fn sphere_hull_matches_the_closest_feature_on_20k_pairs() {
    run(0x5B1, 20_000, |rng| {
        let n = 8 + rng.below(17);
        random_hull(rng, n)
    });
}

#[test]
fn sphere_sphere_matches_the_centre_distance() {
    run(0x5B2, 20_000, |rng| {
        Shape::from(Sphere::try_new(rng.range(0.05, 2.0)).unwrap())
    });
}

/// Issue 9, item 4: spheres of radius 1e-20 once got normals of length 1.03 (the squared
/// centre distance underflows to a denormal). Normals are unit at any scale.
#[test]
fn tiny_and_huge_spheres_get_unit_normals() {
    use glam::Vec3;
    use sepax_geometry::{Pose, Shape, Sphere};
    use sepax_narrowphase::{PairCache, collide, contact};
    for r in [1e-20f32, 1e-12, 1.0, 1e12, 1e18] {
        let ball = Shape::from(Sphere::try_new(r).unwrap());
        let other = Pose::from_translation(Vec3::new(1.2, 0.7, -0.4) * r);
        let c = contact(&ball, &Pose::IDENTITY, &ball, &other, 0.0).expect("overlapping");
        assert!((c.normal.length() - 1.0).abs() < 1e-6, "radius {r}: {c:?}");
        let expected = 2.0 - Vec3::new(1.2, 0.7, -0.4).length();
        assert!((c.depth / r - expected).abs() < 1e-4, "radius {r}: {c:?}");
        let m = collide(
            &ball,
            &Pose::IDENTITY,
            &ball,
            &other,
            0.0,
            &mut PairCache::default(),
        )
        .unwrap();
        assert!((m.normal.length() - 1.0).abs() < 1e-6, "radius {r}: {m:?}");
    }
}
