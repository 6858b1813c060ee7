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
