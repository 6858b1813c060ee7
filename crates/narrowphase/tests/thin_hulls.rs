//! Issue 9, item 2: the same answer in both argument orders, and the right one, on
//! thin and nearly coplanar hulls.
//!
//! Every query runs its pair in a canonical order and mirrors the answer, so
//! `contact(b, a)` is `contact(a, b)` mirrored bit for bit, and `collide(b, a)` is
//! `collide(a, b).flipped()`. The f64 vertex-projection oracle judges both: hulls from
//! near-lattice clouds, thin slabs, needles and slivers (nearly coplanar faces whose
//! Gauss arcs are a few 1e-3 rad long) against boxes, needles and each other.
//!
//! The regression case: a needle box against a thin hull once gave "apart" in one order
//! and 0.604 deep in the other: an edge pair on nearly coplanar faces passed the
//! Minkowski-face test with edges that did not support its axis, and the axis,
//! oriented by a's centroid, pointed the wrong way on the needle.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape};
use sepax_narrowphase::oracle::gap_along;
use sepax_narrowphase::{PairCache, collide, contact, intersects};
use sepax_testkit::pairs::{PLACEMENTS, oracle, place, scale};
use sepax_testkit::shapes::{ellipsoid_hull_with, random_cuboid};

#[test]
fn needle_against_a_thin_hull_in_both_orders() {
    let points = [
        Vec3::new(0.0, 0.002, 2.0),
        Vec3::new(3e-45, 0.002, -7.5403705e-7),
        Vec3::new(0.001, -1.0000005, 0.002),
        Vec3::new(1.0, 2.0000007, 0.0),
        Vec3::new(0.001, 1.0, -2.0),
        Vec3::new(0.0, -0.002, 2.0000002),
    ];
    let hull: Shape = ConvexHull::try_from_points(&points).unwrap().into();
    let needle: Shape = Cuboid::try_from_half_extents(Vec3::new(0.001, 0.001, 1.0))
        .unwrap()
        .into();
    let pa = Pose::new(
        Vec3::new(1.0, -2.0000002, 0.0),
        Quat::from_xyzw(-0.0008944267, 0.8944267, 0.4472134, 0.00044721336),
    );
    let pb = Pose::new(
        Vec3::new(0.5406529, -2.2417085, -0.2937697),
        Quat::from_xyzw(0.0, -0.70710677, 1e-45, 0.70710677),
    );
    let truth = oracle(&needle, &pa, &hull, &pb);
    let ab = contact(&needle, &pa, &hull, &pb, 0.0).expect("the oracle says 0.604 deep");
    let ba = contact(&hull, &pb, &needle, &pa, 0.0).expect("the oracle says 0.604 deep");
    assert_eq!(ba, ab.flipped());
    assert!(
        (ab.depth as f64 + truth.separation).abs() < 1e-5,
        "{ab:?} vs {truth:?}"
    );
}

/// A slab 2e-4 thick (its rim edges are knife edges: faces within 1e-7 of opposite)
/// 0.0128 away from a sliver, found by the random test below: once reported 0.0017
/// deep. The knife edge's Gauss arc was taken from `n1 × n0` and `n0 + n1`, both
/// round-off there, so the Minkowski-face test dropped the edge pair that separates.
#[test]
fn slab_knife_edge_apart_from_a_sliver() {
    let slab: Shape = ConvexHull::try_from_points(&[
        Vec3::new(-0.91506743, 1.7229802e-5, 0.58850694),
        Vec3::new(0.9918238, -5.306668e-5, -0.6016631),
        Vec3::new(-0.8636904, -3.785744e-5, 0.37850606),
        Vec3::new(0.347301, -0.00010109716, -0.5877042),
        Vec3::new(-0.35844564, -3.366221e-5, -0.44861186),
        Vec3::new(0.9551352, -0.00012120654, 0.8449826),
        Vec3::new(0.09485817, 3.0908137e-5, 0.80722487),
        Vec3::new(-0.6597973, 4.3410197e-5, 0.93988633),
        Vec3::new(-0.45123136, -8.997244e-5, -0.30014443),
    ])
    .unwrap()
    .into();
    let sliver: Shape = ConvexHull::try_from_points(&[
        Vec3::new(-0.0006437242, 0.81272006, 1.6826537),
        Vec3::new(0.00074894493, -0.21455467, 1.0158603),
        Vec3::new(0.00048581196, -0.4652754, -0.5129969),
        Vec3::new(-0.00012904668, -0.07494664, -1.4920719),
        Vec3::new(0.00075398386, 0.41451776, -1.5023835),
        Vec3::new(-0.00045512535, 0.4315815, 1.6776235),
        Vec3::new(0.7669083, 0.41080904, 0.34022427),
    ])
    .unwrap()
    .into();
    let pa = Pose::new(
        Vec3::new(6.924206, 0.43311596, -8.300208),
        Quat::from_xyzw(0.32658798, -0.3123018, -0.01706749, 0.8919174),
    );
    let pb = Pose::new(
        Vec3::new(5.186176, 0.80718005, -8.707455),
        Quat::from_xyzw(0.6808862, -0.016279578, -0.11127397, 0.72370374),
    );
    let truth = oracle(&slab, &pa, &sliver, &pb);
    assert!(truth.separation > 0.012, "{truth:?}");
    assert_eq!(contact(&slab, &pa, &sliver, &pb, 0.0), None);
    assert_eq!(contact(&sliver, &pb, &slab, &pa, 0.0), None);
    assert!(!intersects(&slab, &pa, &sliver, &pb));
}

/// A thin or degenerate-looking convex shape.
fn thin_shape(rng: &mut Rng) -> Shape {
    loop {
        let kind = rng.below(5);
        let shape = match kind {
            // A needle or a plate as a box.
            0 => {
                let mut h = rng.vec3(Vec3::splat(0.2), Vec3::splat(1.5));
                h[rng.below(3)] = rng.range(1e-4, 2e-3);
                if rng.below(2) == 0 {
                    h[rng.below(3)] = rng.range(1e-4, 2e-3);
                }
                Some(Shape::from(Cuboid::try_from_half_extents(h).unwrap()))
            }
            // A slab: random points flattened along one axis.
            1 => {
                let flat = rng.range(1e-4, 3e-3);
                let points: Vec<Vec3> = (0..10)
                    .map(|_| rng.vec3(Vec3::new(-1.0, -flat, -1.0), Vec3::new(1.0, flat, 1.0)))
                    .collect();
                ConvexHull::try_from_points(&points).ok().map(Shape::from)
            }
            // A near-lattice cloud: lattice points jittered by 1e-4.
            2 => {
                let points: Vec<Vec3> = (0..10)
                    .map(|_| {
                        let lattice = Vec3::new(
                            rng.below(3) as f32,
                            rng.below(3) as f32,
                            rng.below(2) as f32,
                        ) - Vec3::ONE;
                        lattice + rng.vec3(Vec3::splat(-1e-4), Vec3::splat(1e-4))
                    })
                    .collect();
                ConvexHull::try_from_points(&points).ok().map(Shape::from)
            }
            // A sliver: a thin sheet with one apex (nearly coplanar faces around it).
            3 => {
                let mut points: Vec<Vec3> = (0..6)
                    .map(|_| rng.vec3(Vec3::new(-1e-3, -1.0, -2.0), Vec3::new(1e-3, 1.0, 2.0)))
                    .collect();
                points.push(rng.vec3(Vec3::new(0.5, -2.0, -1.0), Vec3::new(1.0, 2.0, 1.0)));
                ConvexHull::try_from_points(&points).ok().map(Shape::from)
            }
            // An ordinary box, for contrast.
            _ => Some(random_cuboid(rng)),
        };
        if let Some(s) = shape {
            return s;
        }
    }
}

#[test]
fn thin_shapes_answer_the_same_in_both_orders_and_agree_with_the_oracle() {
    let mut rng = Rng::new(0x7819);
    let (mut touching, mut apart) = (0, 0);
    for i in 0..30_000 {
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let (a, b) = (thin_shape(&mut rng), thin_shape(&mut rng));
        let (pa, pb) = place(&mut rng, &a, &b, placement);
        let ab = contact(&a, &pa, &b, &pb, 0.0);
        let ba = contact(&b, &pb, &a, &pa, 0.0);
        assert_eq!(
            ba,
            ab.map(|c| c.flipped()),
            "case {i} ({placement:?}): orders differ"
        );
        assert_eq!(intersects(&a, &pa, &b, &pb), ab.is_some(), "case {i}");
        assert_eq!(intersects(&b, &pb, &a, &pa), ab.is_some(), "case {i}");
        let mab = collide(&a, &pa, &b, &pb, 0.01, &mut PairCache::default());
        let mba = collide(&b, &pb, &a, &pa, 0.01, &mut PairCache::default());
        assert_eq!(
            mba,
            mab.map(|m| m.flipped()),
            "case {i} ({placement:?}): manifolds differ"
        );

        let truth = oracle(&a, &pa, &b, &pb);
        let size = scale(&a, &b);
        let band = 1e-5 * size;
        if truth.separation > band {
            apart += 1;
            assert!(
                ab.is_none(),
                "case {i} ({placement:?}): oracle gap {} but {ab:?}",
                truth.separation
            );
        } else if truth.separation < -band {
            touching += 1;
            let c = ab.unwrap_or_else(|| {
                panic!(
                    "case {i} ({placement:?}): oracle depth {} missed",
                    -truth.separation
                )
            });
            assert!(
                (c.depth as f64 + truth.separation).abs() <= 1e-4 * size,
                "case {i} ({placement:?}): depth {} vs oracle {}",
                c.depth,
                -truth.separation
            );
        }
    }
    assert!(
        touching > 5_000 && apart > 3_000,
        "{touching} touching, {apart} apart"
    );
}

/// A needle, a plank or a plate from a point cloud: an ellipsoid's points (or its
/// box's) with one long radius (1–20), another 1 to 10,000 times shorter and the third
/// 10 to 10,000 times shorter, on random axes.
fn needle_or_plank(rng: &mut Rng) -> Shape {
    let long = 10f32.powf(rng.range(0.0, 1.3));
    let sizes = [
        long,
        long * 10f32.powf(rng.range(-4.0, 0.0)),
        long * 10f32.powf(rng.range(-4.0, -1.0)),
    ];
    let first = rng.below(3);
    let second = (first + 1 + rng.below(2)) % 3;
    let mut radii = Vec3::splat(sizes[2]);
    radii[first] = sizes[0];
    radii[second] = sizes[1];
    let n = 8 + rng.below(17);
    ellipsoid_hull_with(rng, n, radii)
}

/// Needles and planks against each other and against round hulls, every placement:
/// depth and normal within `5e-7` of the size of the f64 vertex-projection oracle (the
/// bound the round hulls of `hull_oracle.rs` meet).
///
/// The regression: the hull builder merged a needle's faces while their vertices stayed
/// within `1e-5` of its *length*, which on a needle 0.008 thick and 20 long turned their
/// normals by up to 0.025 rad. The Gauss map read from the merged faces no longer
/// matched the vertices: the edge pair whose arcs cross on the vertices' hull (the
/// oracle's axis) did not cross on it, and the depth came out up to `5e-6` of the size
/// too deep. The merge tolerance now follows the hull's thickness.
#[test]
fn needles_and_planks_from_point_clouds_get_the_oracle_depth_and_normal() {
    let mut rng = Rng::new(0x4e3d_1e50);
    let (mut touching, mut worst_depth, mut worst_normal) = (0, 0.0f64, 0.0f64);
    for i in 0..40_000 {
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let a = needle_or_plank(&mut rng);
        let b = if i % 4 == 0 {
            let radii = rng.vec3(Vec3::splat(0.05), Vec3::splat(2.0));
            let n = 8 + rng.below(17);
            ellipsoid_hull_with(&mut rng, n, radii)
        } else {
            needle_or_plank(&mut rng)
        };
        let (pa, pb) = place(&mut rng, &a, &b, placement);
        let truth = oracle(&a, &pa, &b, &pb);
        let size = scale(&a, &b);
        if truth.separation > -1e-5 * size {
            continue;
        }
        touching += 1;
        let c = contact(&a, &pa, &b, &pb, 0.0).unwrap_or_else(|| {
            panic!(
                "case {i} ({placement:?}): depth {} missed",
                -truth.separation
            )
        });
        let depth_error = (c.depth as f64 + truth.separation).abs() / size;
        let along = gap_along(&a, &pa, &b, &pb, c.normal.as_dvec3());
        let normal_error = (along + c.depth as f64).abs() / size;
        worst_depth = worst_depth.max(depth_error);
        worst_normal = worst_normal.max(normal_error);
        assert!(
            depth_error <= 5e-7 && normal_error <= 5e-7,
            "case {i} ({placement:?}): depth {} vs oracle {}, gap along the normal {along}",
            c.depth,
            -truth.separation
        );
    }
    eprintln!(
        "{touching} touching; worst depth {worst_depth:e}, normal {worst_normal:e} of the size"
    );
    assert!(touching > 10_000, "{touching} touching");
}
