//! Bit-for-bit twins on 120,000 pairs (issue 8's warm preference, issue 9's order
//! symmetry), and 60,000 more with capsules (issue 10): for boxes, hulls, spheres and
//! capsules under every placement of `common` (general,
//! coincident centres, parallel faces, edge on edge, near touching), a fifth of them
//! moved 1e4 from the origin:
//! * `contact(b, a)` is `contact(a, b)` mirrored, `collide(b, a)` is
//!   `collide(a, b).flipped()`, and `intersects` agrees both ways;
//! * a query repeated with the cache the first one left gives the same bits (the
//!   pipeline's reuse of resting pairs relies on it), and so does one whose cache
//!   holds the previous pose's feature after a small motion, when repeated.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::{PairCache, collide, contact, intersects};
use sepax_testkit::pairs::{PLACEMENTS, place};
use sepax_testkit::shapes::{ellipsoid_hull, random_capsule, random_cuboid};

#[test]
fn both_orders_and_repeated_warm_queries_are_bit_for_bit() {
    let mut rng = Rng::new(0xB17B17);
    let hulls: Vec<Shape> = (0..48)
        .map(|i| ellipsoid_hull(&mut rng, 8 + i % 17))
        .collect();
    let pick = |rng: &mut Rng| -> Shape {
        match rng.below(4) {
            0 | 1 => random_cuboid(rng),
            2 => hulls[rng.below(hulls.len())].clone(),
            _ => Shape::from(Sphere::try_new(rng.range(0.1, 2.0)).unwrap()),
        }
    };
    check(&mut rng, 120_000, 30_000, |rng| (pick(rng), pick(rng)));
}

/// The same with a capsule in every pair, against each kind (issue 10).
#[test]
fn capsule_pairs_are_bit_for_bit_in_both_orders_and_warm() {
    let mut rng = Rng::new(0xCA5B17);
    let hulls: Vec<Shape> = (0..48)
        .map(|i| ellipsoid_hull(&mut rng, 8 + i % 17))
        .collect();
    let pick = |rng: &mut Rng| -> Shape {
        match rng.below(4) {
            0 => random_cuboid(rng),
            1 => hulls[rng.below(hulls.len())].clone(),
            2 => random_capsule(rng),
            _ => Shape::from(Sphere::try_new(rng.range(0.1, 2.0)).unwrap()),
        }
    };
    check(&mut rng, 60_000, 15_000, |rng| {
        let (capsule, other) = (random_capsule(rng), pick(rng));
        if rng.below(2) == 0 {
            (capsule, other)
        } else {
            (other, capsule)
        }
    });
}

/// `count` pairs from `pairs`, each checked as the module docs say; at least
/// `min_touching` of them must give a manifold.
fn check(
    rng: &mut Rng,
    count: usize,
    min_touching: usize,
    mut pairs: impl FnMut(&mut Rng) -> (Shape, Shape),
) {
    let mut touching = 0;
    for i in 0..count {
        let (a, b) = pairs(rng);
        let rng = &mut *rng;
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let (mut pa, mut pb) = place(rng, &a, &b, placement);
        if i % 5 == 0 {
            let far = Vec3::new(1e4, -1e4, 1e4);
            pa.translation += far;
            pb.translation += far;
        }
        let margin = if i % 3 == 0 { 0.02 } else { 0.0 };

        let ab = contact(&a, &pa, &b, &pb, margin);
        let ba = contact(&b, &pb, &a, &pa, margin);
        assert_eq!(
            ba,
            ab.map(|c| c.flipped()),
            "case {i} ({placement:?}): contact"
        );
        assert_eq!(
            intersects(&a, &pa, &b, &pb),
            intersects(&b, &pb, &a, &pa),
            "case {i}"
        );

        let (mut cache_ab, mut cache_ba) = (PairCache::default(), PairCache::default());
        let mab = collide(&a, &pa, &b, &pb, margin, &mut cache_ab);
        let mba = collide(&b, &pb, &a, &pa, margin, &mut cache_ba);
        assert_eq!(
            mba,
            mab.map(|m| m.flipped()),
            "case {i} ({placement:?}): collide"
        );
        touching += mab.is_some() as usize;
        // Repeated with the cache it left: the same bits.
        assert_eq!(
            collide(&a, &pa, &b, &pb, margin, &mut cache_ab),
            mab,
            "case {i}: repeat"
        );
        // A small motion with last pose's cache, then the same poses again.
        let nudged = Pose::new(
            pb.translation + rng.vec3(Vec3::splat(-1e-3), Vec3::splat(1e-3)),
            (Quat::from_rotation_y(rng.range(-1e-3, 1e-3)) * pb.rotation).normalize(),
        );
        let warm = collide(&a, &pa, &b, &nudged, margin, &mut cache_ab);
        assert_eq!(
            collide(&a, &pa, &b, &nudged, margin, &mut cache_ab),
            warm,
            "case {i}: warm repeat"
        );
    }
    assert!(touching > min_touching, "{touching} manifolds");
}
