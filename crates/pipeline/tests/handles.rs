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
