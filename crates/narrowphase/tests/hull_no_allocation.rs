//! Convex contacts allocate nothing per pair (issue 14: "no allocation per pair"): a
//! counting global allocator around repeated `collide` calls, cold and warm, on hulls
//! of every size the benches use and on prisms whose caps are polygons of up to 256
//! sides (a wheel, a barrel, a coin), whose face contacts clip a many-sided incident
//! face by as many side planes; boxes, spheres and capsules against them too.
//!
//! Only allocations made on the thread that runs the calls are counted (the test
//! harness's own threads may allocate at any moment).

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere};
use sepax_narrowphase::{PairCache, collide};
use sepax_testkit::counting_alloc::{Counting, allocations, count_this_thread};
use sepax_testkit::shapes::ball_hull;
use std::sync::Arc;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A prism of `sides` sides, radius `radius`, height `2 half_height` along y.
fn prism(sides: usize, radius: f32, half_height: f32) -> Shape {
    let points: Vec<Vec3> = (0..sides)
        .flat_map(|k| {
            let angle = std::f32::consts::TAU * k as f32 / sides as f32;
            let (s, c) = angle.sin_cos();
            [-half_height, half_height].map(|y| Vec3::new(radius * c, y, radius * s))
        })
        .collect();
    Shape::ConvexHull(Arc::new(ConvexHull::try_from_points(&points).unwrap()))
}

#[test]
fn hull_contacts_allocate_nothing_per_pair() {
    let mut rng = Rng::new(20261203);
    let mut hulls: Vec<Shape> = [8, 24, 64, 256]
        .into_iter()
        .map(|n| Shape::ConvexHull(Arc::new(ball_hull(&mut rng, n, 0.3, 0.6))))
        .collect();
    for sides in [12, 32, 64, 256] {
        hulls.push(prism(sides, 0.6, 0.2));
    }
    let others = [
        Shape::from(Cuboid::try_from_half_extents(Vec3::new(0.7, 0.3, 0.5)).unwrap()),
        Shape::from(Sphere::try_new(0.4).unwrap()),
        Shape::from(Capsule::try_new(0.5, 0.3).unwrap()),
    ];
    // Every hull against every hull (caps flush on caps among the prisms) and against
    // the others, in poses that touch: b above a, sunk a little, turned a little.
    let mut pairs = Vec::new();
    for a in &hulls {
        for b in hulls.iter().chain(&others) {
            for k in 0..6 {
                let tilt = 0.02 * k as f32;
                let pose_b = Pose::new(
                    Vec3::new(0.05 * k as f32, 0.0, -0.03 * k as f32),
                    Quat::from_rotation_y(0.3 * k as f32) * Quat::from_rotation_x(tilt),
                );
                pairs.push((a.clone(), b.clone(), pose_b));
            }
        }
    }
    // Place b on top of a: its lowest point just below a's highest (sunk 0.03).
    let top = |s: &Shape, pose: &Pose| s.aabb(pose).max.y;
    let bottom = |s: &Shape, pose: &Pose| s.aabb(pose).min.y;
    for (a, b, pose_b) in &mut pairs {
        let lift = top(a, &Pose::IDENTITY) - bottom(b, pose_b) - 0.03;
        pose_b.translation.y += lift;
    }
    let mut caches = vec![PairCache::default(); pairs.len()];
    let run = |caches: &mut [PairCache], nudge: f32| {
        let mut touching = 0;
        for ((a, b, pose_b), cache) in pairs.iter().zip(caches) {
            let pose_b = Pose::new(
                pose_b.translation + Vec3::new(nudge, 0.0, 0.0),
                pose_b.rotation,
            );
            let m = collide(a, &Pose::IDENTITY, b, &pose_b, 0.02, cache);
            touching += m.is_some_and(|m| !m.points.is_empty()) as usize;
        }
        touching
    };
    count_this_thread();
    // One sequence: cold (fresh caches), then warm twice (each pair's cache from the
    // call before, b nudged between the calls). Returns the allocations of each call.
    let sequence = |caches: &mut Vec<PairCache>| {
        caches.iter_mut().for_each(|c| *c = PairCache::default());
        [0.0, 0.001, 0.002].map(|nudge| {
            let before = allocations();
            let touching = run(caches, nudge);
            // The pairs touch (the test measures something).
            assert!(
                touching > pairs.len() * 3 / 4,
                "{touching} of {}",
                pairs.len()
            );
            allocations() - before
        })
    };
    // Warm-up: the thread's pooled lists grow to their working size (see the narrow
    // phase's `scratch` module).
    let grown = sequence(&mut caches);
    assert!(
        grown[0] > 0,
        "the counter sees this thread: the pools grew during the warm-up"
    );
    // The same calls again: nothing is allocated.
    let allocated = sequence(&mut caches);
    assert_eq!(
        allocated,
        [0; 3],
        "allocations in {} calls, cold and warm twice",
        pairs.len()
    );
}
