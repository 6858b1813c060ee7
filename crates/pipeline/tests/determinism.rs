//! The step's output is bit-identical for 1, 2 and 4 threads (Box2D's determinism test
//! across worker counts), on boxes and hulls, with a body quarantined part of the time
//! and bodies removed and inserted between steps.

mod common;

use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
use sepax_testkit::scenes;
use std::hash::DefaultHasher;

fn run(threads: usize) -> (u64, usize, usize) {
    let scene = scenes::soup(3000, 11);
    let hulls = scenes::hulls(600, 12);
    let mut world = CollisionWorld::new(Config {
        threads,
        narrow_chunk: 16,
        aabb_chunk: 64,
        ..Config::default()
    })
    .unwrap();
    let mut handles = scene.populate(&mut world).unwrap();
    let hull_handles = hulls.populate(&mut world).unwrap();
    let mut h = DefaultHasher::new();
    let (mut contacts, mut events) = (0, 0);
    for frame in 0..12u32 {
        scene.apply(&mut world, &handles, frame).unwrap();
        hulls.apply(&mut world, &hull_handles, frame).unwrap();
        if frame % 4 == 1 {
            world
                .set_pose(handles[7], Pose::from_translation(Vec3::NAN))
                .unwrap();
        }
        if frame == 6 {
            world.remove(handles[100]).unwrap();
            handles[100] = world
                .insert(BodyDesc::dynamic(
                    scene.bodies[100].shape.clone(),
                    scene.pose(101, 6),
                ))
                .unwrap();
        }
        let r = world.step();
        contacts += r.contacts.len();
        events += r.events.len();
        common::report_hash(r, &mut h);
    }
    (common::finish(h), contacts, events)
}

#[test]
fn same_bits_for_one_two_and_four_threads() {
    let one = run(1);
    assert!(
        one.1 > 1000 && one.2 > 100,
        "the scene must collide: {one:?}"
    );
    assert_eq!(run(2), one);
    assert_eq!(run(4), one);
}
