//! Stale and foreign handles get `StaleHandle`, never a panic or another body.

use glam::Vec3;
use sepax_pipeline::geometry::{Pose, Sphere};
use sepax_pipeline::{BodyDesc, BodyKind, CollisionWorld, Config, Groups, WorldError};

#[test]
fn stale_handles_are_refused_everywhere() {
    let ball = Sphere::try_new(0.5).unwrap();
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let a = world
        .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
        .unwrap();
    let b = world
        .insert(BodyDesc {
            user_data: 42,
            ..BodyDesc::fixed(ball, Pose::IDENTITY)
        })
        .unwrap();
    assert_eq!(world.user_data(b), Ok(42));
    assert_eq!(world.kind(b), Ok(BodyKind::Static));
    world.remove(a).unwrap();
    let stale = Err(WorldError::StaleHandle(a));
    assert_eq!(world.remove(a), stale);
    assert_eq!(world.pose(a).map(|_| ()), stale);
    assert_eq!(world.shape(a).map(|_| ()), stale);
    assert_eq!(world.set_pose(a, Pose::IDENTITY), stale);
    assert_eq!(world.set_shape(a, ball.into()), stale);
    assert_eq!(world.set_groups(a, Groups::ALL), stale);
    assert_eq!(world.user_data(a).map(|_| ()), stale);
    assert_eq!(world.aabb(a).map(|_| ()), stale);
    assert!(!world.contains(a));
    assert_eq!(world.len(), 1);

    // The slot is reused only after a step, and the old handle stays stale.
    let c = world
        .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
        .unwrap();
    assert_ne!(c.index(), a.index());
    world.step();
    let d = world
        .insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X)))
        .unwrap();
    assert_eq!(d.index(), a.index());
    assert_eq!(world.pose(a).map(|_| ()), stale);
    assert_eq!(world.pose(d), Ok(Pose::from_translation(Vec3::X)));

    // A handle from another world with an index this world never issued.
    let mut other = CollisionWorld::new(Config::default()).unwrap();
    for _ in 0..10 {
        other
            .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
            .unwrap();
    }
    let foreign = other
        .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
        .unwrap();
    assert_eq!(
        world.pose(foreign).map(|_| ()),
        Err(WorldError::StaleHandle(foreign))
    );
}

#[test]
fn issue_9_handle_from_another_world_with_a_live_index_is_stale() {
    // Both worlds issue slot 0, generation 0: before handles carried their world, the
    // other world's handle read (and could move or remove) this world's body.
    let ball = Sphere::try_new(0.5).unwrap();
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let mine = world
        .insert(BodyDesc {
            user_data: 1,
            ..BodyDesc::dynamic(ball, Pose::IDENTITY)
        })
        .unwrap();
    let mut other = CollisionWorld::new(Config::default()).unwrap();
    let theirs = other
        .insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X)))
        .unwrap();
    assert_eq!(
        (mine.index(), mine.generation()),
        (theirs.index(), theirs.generation())
    );
    assert_ne!(mine.world(), theirs.world());
    // Equal as values (twin worlds give equal reports), but each world knows its own.
    assert_eq!(mine, theirs);

    let stale = Err(WorldError::StaleHandle(theirs));
    assert_eq!(world.pose(theirs).map(|_| ()), stale);
    assert_eq!(world.shape(theirs).map(|_| ()), stale);
    assert_eq!(world.kind(theirs).map(|_| ()), stale);
    assert_eq!(world.groups(theirs).map(|_| ()), stale);
    assert_eq!(world.user_data(theirs).map(|_| ()), stale);
    assert_eq!(world.aabb(theirs).map(|_| ()), stale);
    assert_eq!(world.set_pose(theirs, Pose::IDENTITY), stale);
    assert_eq!(world.set_shape(theirs, ball.into()), stale);
    assert_eq!(world.set_groups(theirs, Groups::ALL), stale);
    assert_eq!(world.set_user_data(theirs, 7), stale);
    assert_eq!(world.remove(theirs), stale);
    assert!(!world.contains(theirs));

    // This world's body is untouched, and each world still knows its own handle.
    assert_eq!(world.len(), 1);
    assert_eq!(world.user_data(mine), Ok(1));
    assert_eq!(world.pose(mine), Ok(Pose::IDENTITY));
    assert_eq!(other.pose(theirs), Ok(Pose::from_translation(Vec3::X)));
    assert_eq!(
        other.pose(mine).map(|_| ()),
        Err(WorldError::StaleHandle(mine))
    );
    world.step();
    assert_eq!(world.handles().collect::<Vec<_>>(), vec![mine]);
}

/// `set_poses` skips and counts stale and foreign handles (the rest of the batch still
/// applies), treats a pose with the same bits as no change, and lets the last of two
/// entries for one body win. Nothing panics.
#[test]
fn a_pose_batch_skips_stale_entries_and_applies_the_rest() {
    let ball = Sphere::try_new(0.5).unwrap();
    let at = |x: f32| Pose::from_translation(Vec3::X * x);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let mut other = CollisionWorld::new(Config::default()).unwrap();
    let bodies: Vec<_> = (0..4)
        .map(|i| world.insert(BodyDesc::dynamic(ball, at(i as f32))).unwrap())
        .collect();
    let foreign = other.insert(BodyDesc::dynamic(ball, at(0.0))).unwrap();
    world.remove(bodies[1]).unwrap();
    world.step();
    // A slot reused after the step: the old handle must not reach the new body.
    let reused = world.insert(BodyDesc::dynamic(ball, at(9.0))).unwrap();
    assert_eq!(reused.index(), bodies[1].index());
    let batch = world.set_poses([
        (bodies[0], at(0.0)), // same bits: unchanged
        (bodies[1], at(5.0)), // removed: stale
        (foreign, at(6.0)),   // another world's: stale
        (bodies[2], at(7.0)), // moved
        (bodies[2], at(7.5)), // moved again: the last pose wins
        (bodies[3], at(3.0)), // same bits: unchanged
    ]);
    assert_eq!((batch.moved, batch.unchanged, batch.stale), (2, 2, 2));
    assert_eq!(batch.first_stale, Some(bodies[1]));
    assert!(!batch.all_applied());
    assert_eq!(world.pose(bodies[2]), Ok(at(7.5)));
    assert_eq!(world.pose(reused), Ok(at(9.0)));
    assert_eq!(other.pose(foreign), Ok(at(0.0)));
    // -0.0 and +0.0 compare equal but are different bits: a change.
    let batch = world.set_poses([(bodies[0], Pose::from_translation(Vec3::new(-0.0, 0.0, 0.0)))]);
    assert_eq!((batch.moved, batch.unchanged, batch.stale), (1, 0, 0));
    let empty = world.set_poses(std::iter::empty());
    assert_eq!(empty, Default::default());
    assert!(empty.all_applied());
}
