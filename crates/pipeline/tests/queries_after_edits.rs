//! Scene queries between steps (issue 12): the static BVH answers only for the static
//! bodies unchanged since the last step, every other body is culled by its own box.
//! After statics are moved, reshaped, removed and inserted (and dynamics too), region
//! queries equal a brute-force scan at the current poses, and ray casts equal those
//! of a world rebuilt from scratch with the same bodies.

use glam::Vec3;
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Aabb, Cuboid, Pose, Shape, Sphere};
use sepax_pipeline::{BodyDesc, BodyHandle, BodyKind, CollisionWorld, Config};

fn random_shape(rng: &mut Rng) -> Shape {
    if rng.below(2) == 0 {
        Sphere::try_new(rng.range(0.2, 1.0)).unwrap().into()
    } else {
        Cuboid::try_from_half_extents(rng.vec3(Vec3::splat(0.2), Vec3::splat(1.0)))
            .unwrap()
            .into()
    }
}

fn random_pose(rng: &mut Rng) -> Pose {
    Pose::new(
        rng.vec3(Vec3::splat(-12.0), Vec3::splat(12.0)),
        rng.rotation(),
    )
}

fn desc(kind: BodyKind, shape: Shape, pose: Pose) -> BodyDesc {
    BodyDesc {
        kind,
        ..BodyDesc::dynamic(shape, pose)
    }
}

#[test]
fn queries_see_statics_edited_since_the_step() {
    let mut rng = Rng::new(12);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let mut live: Vec<BodyHandle> = Vec::new();
    for i in 0..400 {
        let kind = if i % 4 == 0 {
            BodyKind::Dynamic
        } else {
            BodyKind::Static
        };
        let (shape, pose) = (random_shape(&mut rng), random_pose(&mut rng));
        live.push(world.insert(desc(kind, shape, pose)).unwrap());
    }
    world.step();
    // The statics are in the broad phase, so the BVH is used.
    assert!(
        world
            .handles()
            .any(|h| world.kind(h) == Ok(BodyKind::Static) && world.aabb(h).unwrap().is_some())
    );
    // Edits after the step, none of them seen by the broad phase yet.
    for &h in &live {
        match rng.below(10) {
            0 => world.set_pose(h, random_pose(&mut rng)).unwrap(),
            1 => world.set_shape(h, random_shape(&mut rng)).unwrap(),
            2 => world.remove(h).unwrap(),
            _ => {}
        }
    }
    live.retain(|&h| world.contains(h));
    for _ in 0..20 {
        let (shape, pose) = (random_shape(&mut rng), random_pose(&mut rng));
        live.push(world.insert(desc(BodyKind::Static, shape, pose)).unwrap());
    }

    let mut fresh = CollisionWorld::new(Config::default()).unwrap();
    for &h in &live {
        let (shape, pose) = (world.shape(h).unwrap().clone(), world.pose(h).unwrap());
        fresh
            .insert(desc(world.kind(h).unwrap(), shape, pose))
            .unwrap();
    }
    fresh.step();

    let (mut regions, mut rays) = (0, 0);
    for _ in 0..300 {
        let c = rng.vec3(Vec3::splat(-12.0), Vec3::splat(12.0));
        let region = Aabb::new(c - 1.5, c + 1.5);
        let want: Vec<BodyHandle> = live
            .iter()
            .copied()
            .filter(|&h| {
                let (shape, pose) = (world.shape(h).unwrap(), world.pose(h).unwrap());
                shape.aabb(&pose).overlaps(&region)
            })
            .collect();
        let got = world.query_aabb(&region).unwrap();
        assert_eq!(got, want);
        regions += !got.is_empty() as usize;

        let o = rng.vec3(Vec3::splat(-15.0), Vec3::splat(15.0));
        let d = rng.unit_vec3();
        let got = world.cast_ray(o, d, 30.0).unwrap();
        let want = fresh.cast_ray(o, d, 30.0).unwrap();
        assert_eq!(
            got.map(|(_, g)| (g.t, g.normal)),
            want.map(|(_, w)| (w.t, w.normal))
        );
        rays += got.is_some() as usize;
    }
    assert!(regions > 50 && rays > 50, "{regions} {rays}");
}
