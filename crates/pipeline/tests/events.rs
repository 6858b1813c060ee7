//! Contact events and persistent manifold points across steps.

use glam::Vec3;
use sepax_pipeline::geometry::{Cuboid, Pose};
use sepax_pipeline::{
    BodyDesc, BodyHandle, CollisionWorld, Config, ContactEvent, EndCause, EventKind, Groups,
};

fn cube() -> Cuboid {
    Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap()
}

fn at(x: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, 0.0, 0.0))
}

fn event(a: BodyHandle, b: BodyHandle, kind: EventKind) -> ContactEvent {
    ContactEvent { a, b, kind }
}

#[test]
fn start_persist_end() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let a = world.insert(BodyDesc::dynamic(cube(), at(0.0))).unwrap();
    let b = world.insert(BodyDesc::dynamic(cube(), at(3.0))).unwrap();
    assert!(world.step().events.is_empty());

    world.set_pose(b, at(0.95)).unwrap();
    let r = world.step();
    assert_eq!(r.events, vec![event(a, b, EventKind::Started)]);
    assert_eq!(r.contacts.len(), 1);
    assert_eq!(r.contacts[0].manifold.points.len(), 4);
    assert_eq!(
        r.contacts[0].previous_points, [None; 4],
        "new contact: nothing to warm-start"
    );

    world.set_pose(b, at(0.94)).unwrap();
    let r = world.step();
    assert!(r.events.is_empty(), "still touching: no event");
    assert_eq!(
        r.contacts[0].previous_points,
        [Some(0), Some(1), Some(2), Some(3)],
        "same face pair: same feature ids"
    );

    world.set_pose(b, at(1.2)).unwrap();
    let r = world.step();
    assert_eq!(
        r.events,
        vec![event(a, b, EventKind::Ended(EndCause::Separated))]
    );
    assert!(r.contacts.is_empty());
    assert!(world.step().events.is_empty(), "an ended pair ends once");
}

#[test]
fn apart_but_aabbs_overlapping_is_not_touching() {
    // Two boxes turned 45° about y: AABBs overlap, shapes do not.
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let turn = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
    world
        .insert(BodyDesc::dynamic(cube(), Pose::new(Vec3::ZERO, turn)))
        .unwrap();
    world
        .insert(BodyDesc::dynamic(
            cube(),
            Pose::new(Vec3::new(0.75, 0.0, 0.75), turn),
        ))
        .unwrap();
    let r = world.step();
    assert_eq!(r.candidate_pairs, 1);
    assert!(r.contacts.is_empty() && r.events.is_empty());
}

#[test]
fn end_on_remove_filter_and_quarantine() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let a = world.insert(BodyDesc::dynamic(cube(), at(0.0))).unwrap();
    let b = world.insert(BodyDesc::dynamic(cube(), at(0.9))).unwrap();
    let c = world.insert(BodyDesc::dynamic(cube(), at(-0.9))).unwrap();
    let small = Cuboid::try_from_half_extents(Vec3::splat(0.3)).unwrap();
    let d = world
        .insert(BodyDesc::fixed(small, at(0.0).mul_y(-0.75)))
        .unwrap();
    let r = world.step();
    assert_eq!(r.events.len(), 3); // (a,b), (a,c), (a,d)
    assert!(r.events.iter().all(|e| e.kind == EventKind::Started));

    world.remove(b).unwrap();
    world
        .set_groups(
            c,
            Groups {
                memberships: 1,
                filter: 0,
            },
        )
        .unwrap();
    world
        .set_pose(d, Pose::from_translation(Vec3::splat(f32::INFINITY)))
        .unwrap();
    let r = world.step();
    assert_eq!(
        r.events,
        vec![
            event(a, b, EventKind::Ended(EndCause::Removed)),
            event(a, c, EventKind::Ended(EndCause::Filtered)),
            event(a, d, EventKind::Ended(EndCause::Quarantined)),
        ]
    );
    assert!(r.contacts.is_empty());
    assert_eq!(r.quarantined.len(), 1);
    assert_eq!(r.quarantined[0].body, d);

    // The freed slot is reused with a new generation; the new body starts fresh.
    let e = world.insert(BodyDesc::dynamic(cube(), at(0.9))).unwrap();
    assert_eq!(e.index(), b.index());
    assert_ne!(e, b);
    world.set_pose(d, at(0.0).mul_y(-0.75)).unwrap();
    let r = world.step();
    assert_eq!(
        r.events,
        vec![
            event(a, e, EventKind::Started),
            event(a, d, EventKind::Started)
        ]
    );
    assert!(r.quarantined.is_empty());
}

trait MulY {
    fn mul_y(self, y: f32) -> Pose;
}
impl MulY for Pose {
    fn mul_y(mut self, y: f32) -> Pose {
        self.translation.y = y;
        self
    }
}

/// Issue 8, item 6: with a margin, a pair within reach but apart is reported as a
/// speculative contact (`touching` false, negative depths) and starts no event; touch
/// events follow `depth >= 0` only.
#[test]
fn speculative_contacts_are_reported_but_start_no_event() {
    let config = Config {
        margin: 0.05,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let a = world.insert(BodyDesc::dynamic(cube(), at(0.0))).unwrap();
    let b = world.insert(BodyDesc::dynamic(cube(), at(1.02))).unwrap();
    let r = world.step();
    assert!(r.events.is_empty(), "a gap of 0.02 is not a touch");
    assert_eq!(r.contacts.len(), 1, "but it is within the margin");
    let c = &r.contacts[0];
    assert!(!c.touching && !c.manifold.is_touching());
    assert!(c.manifold.points.iter().all(|p| p.is_speculative()));
    assert!((c.manifold.depth() + 0.02).abs() < 1e-5);

    world.set_pose(b, at(0.99)).unwrap();
    let r = world.step();
    assert_eq!(r.events, vec![event(a, b, EventKind::Started)]);
    assert!(r.contacts[0].touching);

    world.set_pose(b, at(1.03)).unwrap();
    let r = world.step();
    assert_eq!(
        r.events,
        vec![event(a, b, EventKind::Ended(EndCause::Separated))]
    );
    assert_eq!(r.contacts.len(), 1, "still speculative");
    assert!(!r.contacts[0].touching);

    world.set_pose(b, at(1.2)).unwrap();
    let r = world.step();
    assert!(r.events.is_empty(), "no second end");
    assert!(r.contacts.is_empty());
}

/// A world on 2 threads whose narrow pass cuts the pairs into chunks of `narrow_chunk`.
fn two_threads_in_chunks_of(narrow_chunk: usize) -> CollisionWorld {
    let config = Config {
        threads: 2,
        narrow_chunk,
        ..Config::default()
    };
    CollisionWorld::new(config).unwrap()
}

/// Each contact's `previous` names the same pair in the previous step's contacts (or
/// `None` when the pair was not there), checked against a map of last step's list:
/// on a moving soup with bodies removed and inserted on the way and resting frames
/// between, for chunk sizes that cut the pairs into many or few chunks. (A pair state
/// names its contact by its place in the narrow pass's staging list; this is the
/// plain twin of that bookkeeping.)
#[test]
fn previous_names_the_same_pair_in_last_steps_contacts() {
    use sepax_testkit::scenes;
    use std::collections::HashMap;
    let scene = scenes::soup(600, 7);
    for narrow_chunk in [1, 5, 16, 128, 4096] {
        let mut world = two_threads_in_chunks_of(narrow_chunk);
        let mut handles = scene.populate(&mut world).unwrap();
        let mut last: HashMap<(u32, u32), u32> = HashMap::new();
        let (mut continued, mut fresh) = (0, 0);
        for frame in 0..30u32 {
            // Frames 10–11 and 20 rest (no pose set): the step repeats its report.
            if !(10..12).contains(&frame) && frame != 20 {
                scene.apply(&mut world, &handles, frame).unwrap();
            }
            if frame == 15 {
                // Remove a few bodies and put one back: pair lists shift.
                for h in handles.drain(100..110) {
                    world.remove(h).unwrap();
                }
                let cube = Cuboid::try_from_half_extents(Vec3::splat(0.4)).unwrap();
                world
                    .insert(BodyDesc::dynamic(cube, Pose::IDENTITY))
                    .unwrap();
            }
            let report = world.step();
            for c in &report.contacts {
                let want = last.get(&(c.a.index(), c.b.index())).copied();
                assert_eq!(c.previous, want, "chunk {narrow_chunk}, frame {frame}");
                if want.is_some() {
                    continued += 1;
                } else {
                    fresh += 1;
                }
            }
            last = report
                .contacts
                .iter()
                .enumerate()
                .map(|(i, c)| ((c.a.index(), c.b.index()), i as u32))
                .collect();
        }
        assert!(continued > 1000 && fresh > 50, "{continued} / {fresh}");
    }
}

/// The touch events of every step are exactly the changes of the touching set (a pair
/// touching now and not at the last step started, one touching then and not now
/// ended), in key order, whatever the way a pair ends: separated while still a
/// candidate, gone from the candidates (bodies teleported away), or a body removed.
/// The twin is the touching sets of consecutive reports.
#[test]
fn events_are_the_touching_set_changes_in_key_order() {
    use sepax_testkit::scenes;
    use std::collections::BTreeSet;
    let scene = scenes::soup(800, 11);
    for narrow_chunk in [3, 128] {
        let mut world = two_threads_in_chunks_of(narrow_chunk);
        let mut handles = scene.populate(&mut world).unwrap();
        let touching = |world: &CollisionWorld| -> BTreeSet<(u32, u32)> {
            let contacts = &world.report().contacts;
            contacts
                .iter()
                .filter(|c| c.touching)
                .map(|c| (c.a.index(), c.b.index()))
                .collect()
        };
        world.step();
        let mut before = touching(&world);
        let (mut started, mut ended, mut removed) = (0, 0, 0);
        for frame in 1..40u32 {
            scene.apply(&mut world, &handles, frame).unwrap();
            if frame % 6 == 0 {
                // Teleport a run of bodies far away (their pairs leave the
                // candidates), and bring the previous run back.
                let far = Pose::from_translation(Vec3::new(1e4, 0.0, 0.0));
                for (k, &h) in handles.iter().enumerate().skip(frame as usize * 7).take(20) {
                    world
                        .set_pose(
                            h,
                            Pose::new(
                                far.translation + Vec3::X * (3.0 * k as f32),
                                Default::default(),
                            ),
                        )
                        .unwrap();
                }
            }
            if frame == 20 {
                for h in handles.drain(300..330) {
                    world.remove(h).unwrap();
                }
            }
            let report = world.step();
            let keys: Vec<(u32, u32)> = report
                .events
                .iter()
                .map(|e| (e.a.index(), e.b.index()))
                .collect();
            assert!(
                keys.windows(2).all(|w| w[0] < w[1]),
                "events in key order, each pair once (chunk {narrow_chunk}, frame {frame})"
            );
            let now = touching(&world);
            let want: Vec<((u32, u32), bool)> = now
                .symmetric_difference(&before)
                .map(|&k| (k, now.contains(&k)))
                .collect();
            let got: Vec<((u32, u32), bool)> = world
                .report()
                .events
                .iter()
                .map(|e| ((e.a.index(), e.b.index()), e.kind == EventKind::Started))
                .collect();
            assert_eq!(got, want, "chunk {narrow_chunk}, frame {frame}");
            for e in &world.report().events {
                match e.kind {
                    EventKind::Started => started += 1,
                    EventKind::Ended(EndCause::Removed) => removed += 1,
                    EventKind::Ended(_) => ended += 1,
                }
            }
            before = now;
        }
        assert!(
            started > 50 && ended > 50 && removed > 0,
            "{started} / {ended} / {removed}"
        );
    }
}

/// A world whose pairs all go (every body removed) and come back: the steps between
/// have no pairs, no contacts and the `Ended` events once; the new pairs start fresh
/// (`previous` is `None`, no stale contact is read).
#[test]
fn all_pairs_gone_and_back() {
    let mut world = two_threads_in_chunks_of(4);
    let bodies: Vec<_> = (0..12)
        .map(|i| {
            let pose = at(0.9 * i as f32);
            world.insert(BodyDesc::dynamic(cube(), pose)).unwrap()
        })
        .collect();
    assert_eq!(world.step().contacts.len(), 11);
    for h in bodies {
        world.remove(h).unwrap();
    }
    let report = world.step();
    assert!(report.contacts.is_empty());
    assert_eq!(report.events.len(), 11);
    assert!(
        report
            .events
            .iter()
            .all(|e| e.kind == EventKind::Ended(EndCause::Removed))
    );
    assert!(world.step().events.is_empty() && world.report().contacts.is_empty());
    for i in 0..6 {
        world
            .insert(BodyDesc::dynamic(cube(), at(0.9 * i as f32)))
            .unwrap();
    }
    let report = world.step();
    assert_eq!(report.contacts.len(), 5);
    assert!(report.contacts.iter().all(|c| c.previous.is_none()));
    assert_eq!(report.events.len(), 5);
}
