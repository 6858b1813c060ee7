//! Edge sizes: an empty world, and a world of a few hundred thousand bodies.

use glam::Vec3;
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Aabb, Pose, Sphere};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config};

#[test]
fn empty_world_steps_and_answers_queries() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    assert!(world.is_empty());
    for _ in 0..3 {
        let r = world.step();
        assert!(r.contacts.is_empty() && r.events.is_empty() && r.quarantined.is_empty());
        assert_eq!(r.candidate_pairs, 0);
    }
    assert_eq!(world.cast_ray(Vec3::ZERO, Vec3::X, f32::INFINITY), Ok(None));
    assert_eq!(
        world.query_aabb(&Aabb::new(Vec3::ZERO, Vec3::ONE)),
        Ok(vec![])
    );
    assert!(world.candidate_pairs().is_empty());
}

#[test]
fn three_hundred_thousand_bodies_do_not_panic() {
    // Small spheres on a sparse lattice with jitter: few pairs, so the test stays quick.
    let n = 300_000;
    let mut rng = Rng::new(9);
    let mut world = CollisionWorld::new(Config {
        threads: 2,
        ..Config::default()
    })
    .unwrap();
    let ball = Sphere::try_new(0.3).unwrap();
    let side = 67; // 67³ ≈ 300k
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        let cell = Vec3::new(
            (i % side) as f32,
            ((i / side) % side) as f32,
            (i / (side * side)) as f32,
        );
        let p = cell + rng.vec3(Vec3::splat(-0.25), Vec3::splat(0.25));
        let desc = if i % 3 == 0 {
            BodyDesc::fixed(ball, Pose::from_translation(p))
        } else {
            BodyDesc::dynamic(ball, Pose::from_translation(p))
        };
        handles.push(world.insert(desc).unwrap());
    }
    let r = world.step();
    let first = r.contacts.len();
    assert!(first > 0 && r.candidate_pairs >= first);
    for (k, &h) in handles
        .iter()
        .enumerate()
        .filter(|(k, _)| k % 3 != 0)
        .take(50_000)
    {
        let p = world.pose(h).unwrap().translation + Vec3::splat(0.01 * (k % 7) as f32);
        world.set_pose(h, Pose::from_translation(p)).unwrap();
    }
    let r = world.step();
    assert!(r.contacts.len() > first / 2);
    assert_eq!(world.len(), n);
}
