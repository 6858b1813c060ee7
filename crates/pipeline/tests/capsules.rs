//! Capsules as bodies (issue 10): dynamic, static and kinematic capsules among boxes,
//! spheres and hulls, stepped for several frames of motion, against a brute-force twin
//! that queries every pair the kind rule allows with the narrow phase directly:
//! * the touching pairs of each step are exactly the brute force's (margin-0 contact);
//! * every contact with a capsule carries the manifold a cold `collide` gives, bit for
//!   bit (capsule queries do not depend on the pair cache);
//! * ray casts and region queries find capsules like any other shape.

use glam::Vec3;
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Aabb, Capsule, Cuboid, Pose, Shape, Sphere};
use sepax_pipeline::narrowphase::{PairCache, collide};
use sepax_pipeline::{BodyDesc, BodyHandle, BodyKind, CollisionWorld, Config};
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::world::{
    brute_force_ray, brute_force_region, brute_force_touching, reported_touching,
};

fn random_shape(rng: &mut Rng, i: usize) -> Shape {
    match i % 5 {
        0 | 1 => Capsule::try_new(rng.range(0.0, 1.0), rng.range(0.15, 0.5))
            .unwrap()
            .into(),
        2 => Cuboid::try_from_half_extents(rng.vec3(Vec3::splat(0.2), Vec3::splat(0.8)))
            .unwrap()
            .into(),
        3 => Sphere::try_new(rng.range(0.2, 0.7)).unwrap().into(),
        _ => scene_hull(rng).into(),
    }
}

#[test]
fn capsule_scene_matches_the_brute_force_pairs() {
    let mut rng = Rng::new(0xCA9);
    let config = Config {
        margin: 0.02,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let mut bodies: Vec<BodyHandle> = Vec::new();
    for i in 0..400 {
        let shape = random_shape(&mut rng, i);
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-7.0), Vec3::splat(7.0)),
            rng.rotation(),
        );
        let desc = match i % 7 {
            0 | 1 => BodyDesc::fixed(shape, pose),
            2 => BodyDesc::kinematic(shape, pose),
            _ => BodyDesc::dynamic(shape, pose),
        };
        bodies.push(world.insert(desc).unwrap());
    }
    let (mut touching_total, mut capsule_contacts) = (0, 0);
    for frame in 0..8 {
        if frame > 0 {
            for &h in &bodies {
                if world.kind(h).unwrap() != BodyKind::Static {
                    let p = world.pose(h).unwrap();
                    let moved = Pose::new(
                        p.translation + rng.vec3(Vec3::splat(-0.15), Vec3::splat(0.15)),
                        (glam::Quat::from_rotation_y(rng.range(-0.1, 0.1)) * p.rotation)
                            .normalize(),
                    );
                    world.set_pose(h, moved).unwrap();
                }
            }
        }
        let report = world.step().clone();
        let want = brute_force_touching(&world, &bodies);
        let got = reported_touching(&report);
        assert_eq!(got, want, "frame {frame}: touching pairs");
        touching_total += got.len();
        for c in &report.contacts {
            let (sa, sb) = (world.shape(c.a).unwrap(), world.shape(c.b).unwrap());
            if !(matches!(sa, Shape::Capsule(_)) || matches!(sb, Shape::Capsule(_))) {
                continue;
            }
            let (pa, pb) = (world.pose(c.a).unwrap(), world.pose(c.b).unwrap());
            let cold = collide(sa, &pa, sb, &pb, config.margin, &mut PairCache::default());
            assert_eq!(Some(&c.manifold), cold.as_ref(), "frame {frame}: {c:?}");
            capsule_contacts += 1;
        }
    }
    assert!(
        touching_total > 200 && capsule_contacts > 100,
        "{touching_total} {capsule_contacts}"
    );

    // Rays and regions see the capsules.
    let mut hits = 0;
    for _ in 0..300 {
        let o = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
        let d = rng.unit_vec3();
        let got = world.cast_ray(o, d, 30.0).unwrap();
        let best = brute_force_ray(&world, &bodies, o, d, 30.0);
        assert_eq!(got.map(|(body, g)| (g.t, body.index())), best);
        if let Some((body, _)) = got
            && matches!(world.shape(body).unwrap(), Shape::Capsule(_))
        {
            hits += 1;
        }
        let c = rng.vec3(Vec3::splat(-7.0), Vec3::splat(7.0));
        let region = Aabb::new(c - 1.5, c + 1.5);
        let want = brute_force_region(&world, &bodies, &region);
        assert_eq!(world.query_aabb(&region).unwrap(), want);
    }
    assert!(hits > 20, "{hits} rays hit a capsule first");
}
