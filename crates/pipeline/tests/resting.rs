//! Resting bodies: setting the same pose again is a no-op, and pairs of two unchanged
//! bodies reuse last step's manifold. The reuse must give exactly what a fresh world
//! computes from scratch.

use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{CollisionWorld, Config, ContactPair, Groups};
use sepax_testkit::scenes;

fn strip(c: &[ContactPair]) -> Vec<(u32, u32, sepax_pipeline::narrowphase::Manifold)> {
    c.iter()
        .map(|c| (c.a.index(), c.b.index(), c.manifold.clone()))
        .collect()
}

#[test]
fn reused_manifolds_equal_a_fresh_computation() {
    let scene = scenes::soup(1200, 8);
    let config = Config {
        threads: 2,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    // The twin lives through the same frames, but every body is marked changed every
    // frame (its shape set again), so every pair is computed afresh, with its own
    // cache: a reused manifold must equal that computation (a warm cache keeps its
    // reference feature, so a cold world is not the right twin).
    let mut twin = CollisionWorld::new(config).unwrap();
    let twin_handles = scene.populate(&mut twin).unwrap();
    let mut poses: Vec<Pose> = (0..scene.len()).map(|i| scene.pose(i, 0)).collect();
    for frame in 1..8u32 {
        // Every third body moves; the others get their unchanged pose set again.
        for (i, (h, t)) in handles.iter().zip(&twin_handles).enumerate() {
            if i % 3 == 0 {
                poses[i] = scene.pose(i, frame);
            }
            world.set_pose(*h, poses[i]).unwrap();
            twin.set_pose(*t, poses[i]).unwrap();
            twin.set_shape(*t, scene.bodies[i].shape.clone()).unwrap();
        }
        let filtered = Groups {
            memberships: 1,
            filter: 0,
        };
        if frame == 4 {
            // A group change on a resting body must still filter its pairs.
            world.set_groups(handles[1], filtered).unwrap();
            twin.set_groups(twin_handles[1], filtered).unwrap();
        }
        if frame == 6 {
            world.set_groups(handles[1], Groups::ALL).unwrap();
            twin.set_groups(twin_handles[1], Groups::ALL).unwrap();
        }
        let got = strip(&world.step().contacts);
        let want = strip(&twin.step().contacts);
        assert!(want.len() > 300);
        assert!(
            got == want,
            "frame {frame}: {} vs {} contacts",
            got.len(),
            want.len()
        );
    }
    // And a cold world agrees on which pairs touch (the warm preference changes the
    // reference feature within the slop, never the verdict of a touching pair).
    let mut fresh = CollisionWorld::new(Config::default()).unwrap();
    for (i, pose) in poses.iter().enumerate() {
        let mut desc = scene.body_desc(i);
        desc.pose = *pose;
        fresh.insert(desc).unwrap();
    }
    let pairs = |c: &[ContactPair]| -> Vec<(u32, u32)> {
        c.iter()
            .filter(|c| c.manifold.depth() > 1e-4)
            .map(|c| (c.a.index(), c.b.index()))
            .collect()
    };
    let cold = fresh.step().contacts.clone();
    let warm = world.report().contacts.clone();
    let (cold_pairs, warm_pairs) = (pairs(&cold), pairs(&warm));
    assert!(
        cold_pairs
            .iter()
            .all(|p| warm.iter().any(|c| (c.a.index(), c.b.index()) == *p))
    );
    assert!(
        warm_pairs
            .iter()
            .all(|p| cold.iter().any(|c| (c.a.index(), c.b.index()) == *p))
    );
    // Resting pairs keep their feature ids: all points persisted.
    let r = world.step();
    assert!(
        r.contacts
            .iter()
            .all(|c| (0..c.manifold.points.len()).all(|i| c.persisted(i)))
    );
}

#[test]
fn same_pose_again_is_not_a_change_but_a_new_one_is() {
    let scene = scenes::pile(101);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    let first = world.step().contacts.clone();
    scene.apply(&mut world, &handles, 5).unwrap(); // the pile does not move
    assert_eq!(
        world.step().contacts,
        first
            .iter()
            .enumerate()
            .map(|(k, c)| ContactPair {
                previous: Some(k as u32),
                previous_points: std::array::from_fn(|i| {
                    (i < c.manifold.points.len()).then_some(i as u8)
                }),
                ..c.clone()
            })
            .collect::<Vec<_>>()
    );
    // Lift the top box of the first column by 0.02: its contact with the box below ends.
    let top = handles[10];
    let lifted = Pose::from_translation(world.pose(top).unwrap().translation + Vec3::Y * 0.02);
    world.set_pose(top, lifted).unwrap();
    let r = world.step();
    assert_eq!(r.contacts.len(), first.len() - 1);
    assert_eq!(r.events.len(), 1);
}
