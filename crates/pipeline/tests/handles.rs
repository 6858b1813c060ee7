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

/// Bad poses in a batch are taken like `set_pose` takes them: accepted, and the body is
/// quarantined at the next step (NaN, infinite, non-unit rotation) while the other
/// bodies of the batch keep their contacts; fixing the pose brings it back.
#[test]
fn bad_poses_in_a_batch_quarantine_only_their_bodies() {
    use glam::Quat;
    use sepax_pipeline::QuarantineReason;
    let ball = Sphere::try_new(0.5).unwrap();
    let at = |x: f32| Pose::from_translation(Vec3::X * x);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let bodies: Vec<_> = (0..6)
        .map(|i| {
            world
                .insert(BodyDesc::dynamic(ball, at(0.9 * i as f32)))
                .unwrap()
        })
        .collect();
    assert_eq!(world.step().contacts.len(), 5);
    let batch = world.set_poses([
        (
            bodies[1],
            Pose::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)),
        ),
        (
            bodies[3],
            Pose::new(Vec3::X * 2.7, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)),
        ),
        (
            bodies[5],
            Pose::from_translation(Vec3::new(f32::INFINITY, 0.0, 0.0)),
        ),
    ]);
    assert_eq!((batch.moved, batch.stale), (3, 0));
    let report = world.step();
    let mut quarantined: Vec<_> = report
        .quarantined
        .iter()
        .map(|q| (q.body, q.reason))
        .collect();
    quarantined.sort_by_key(|q| q.0.index());
    assert_eq!(
        quarantined,
        vec![
            (bodies[1], QuarantineReason::NonFinitePose),
            (bodies[3], QuarantineReason::NonUnitRotation),
            (bodies[5], QuarantineReason::NonFinitePose),
        ]
    );
    // Every touching pair had a quarantined body; the good bodies 0, 2, 4 are 1.8
    // apart, so no contact is left, and none names a quarantined body.
    assert!(report.contacts.is_empty());
    assert_eq!(report.candidate_pairs, 0);
    let fixed = world.set_poses([
        (bodies[1], at(0.9)),
        (bodies[3], at(2.7)),
        (bodies[5], at(4.5)),
    ]);
    assert_eq!(fixed.moved, 3);
    let report = world.step();
    assert!(report.quarantined.is_empty());
    assert_eq!(report.contacts.len(), 5);
}

/// The handles a step reports (contacts, started and ended events, CCD hits) are the
/// world's own, its id included: the pair states keep each body as a slot and a
/// generation and put the world's id back when they report. Checked in a second world
/// (ids differ between worlds) on both the sequential and the parallel step.
#[test]
fn reported_handles_carry_their_world() {
    for threads in [1, 2] {
        let _first = CollisionWorld::new(Config::default()).unwrap();
        let config = Config {
            threads,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        let ball = Sphere::try_new(0.5).unwrap();
        let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
        let wall = world.insert(BodyDesc::fixed(ball, at(0.0))).unwrap();
        let near = world.insert(BodyDesc::dynamic(ball, at(0.8))).unwrap();
        let bullet = world
            .insert(BodyDesc {
                ccd: true,
                ..BodyDesc::dynamic(ball, at(-3.0))
            })
            .unwrap();
        let ours = |world: &CollisionWorld, h: sepax_pipeline::BodyHandle| {
            h.world() == wall.world() && world.contains(h)
        };
        let report = world.step().clone();
        assert!(!report.contacts.is_empty() && !report.events.is_empty());
        for c in &report.contacts {
            assert!(ours(&world, c.a) && ours(&world, c.b), "{c:?}");
        }
        for e in &report.events {
            assert!(ours(&world, e.a) && ours(&world, e.b), "{e:?}");
        }
        // Through the wall in one step: a CCD hit.
        world.set_pose(bullet, at(3.0)).unwrap();
        let report = world.step().clone();
        assert!(!report.ccd_hits.is_empty(), "threads {threads}");
        for h in &report.ccd_hits {
            assert!(ours(&world, h.a) && ours(&world, h.b), "{h:?}");
        }
        // Apart, then removed: ended events for both causes name live-world handles
        // (the removed body's handle is stale in the world but keeps its world's id).
        world.set_pose(bullet, at(30.0)).unwrap();
        world.set_pose(near, at(5.0)).unwrap();
        let ended = world.step().events.clone();
        assert!(!ended.is_empty(), "threads {threads}");
        for e in &ended {
            assert!(ours(&world, e.a) && ours(&world, e.b), "{e:?}");
        }
        world.set_pose(near, at(0.8)).unwrap();
        world.step();
        world.remove(near).unwrap();
        let removed = world.step().events.clone();
        assert!(!removed.is_empty(), "threads {threads}");
        for e in &removed {
            assert!(
                e.a.world() == wall.world() && e.b.world() == wall.world(),
                "{e:?}"
            );
        }
    }
}
