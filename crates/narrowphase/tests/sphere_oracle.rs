//! Sphere queries against closed forms in f64 (`sepax_narrowphase::oracle::
//! sphere_separation`): sphere–sphere by centre distance, sphere–box by clamping the
//! centre into the box, sphere–hull by the smallest distance to every face polygon and
//! edge (or the largest plane distance when inside).

use sepax_geometry::rng::Rng;
use sepax_geometry::{Shape, Sphere};
use sepax_narrowphase::contact;
use sepax_narrowphase::oracle::sphere_separation;
use sepax_testkit::pairs::{PLACEMENTS, place, scale};
use sepax_testkit::shapes::{ellipsoid_hull, random_cuboid};

fn run(seed: u64, count: usize, make: impl Fn(&mut Rng) -> Shape) {
    let mut rng = Rng::new(seed);
    let mut hits = 0;
    for i in 0..count {
        let other = make(&mut rng);
        let sphere = Shape::from(Sphere::try_new(rng.range(0.05, 1.5)).unwrap());
        let (ps, po) = place(&mut rng, &sphere, &other, PLACEMENTS[i % 4]);
        let truth = sphere_separation(sphere.bounding_radius(), &ps, &other, &po);
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
        ellipsoid_hull(rng, n)
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
