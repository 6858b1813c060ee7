//! A step whose candidate pairs are last step's updates the pair states in place (no
//! carry-over copy): its reports must be what the carry-over gives. The twin world
//! holds the same pile plus two far-away spheres that come and go every frame, so its
//! pair list changes and its states are carried over chunk by chunk; the pile's
//! contacts and events must be the same bits in both, on 1 and 2 threads (120,000
//! pair-steps in all).

use glam::Vec3;
use sepax_pipeline::geometry::{Pose, Sphere};
use sepax_pipeline::{BodyDesc, BodyHandle, CollisionWorld, Config, StepReport};
use sepax_testkit::scenes;

/// The pile's contacts and events of a report, by body index (the extra spheres'
/// indices come after the pile's and are left out).
fn pile_part(report: &StepReport, bodies: u32) -> (Vec<String>, Vec<String>) {
    let ours = |h: BodyHandle| h.index() < bodies;
    let contacts = (report.contacts.iter())
        .filter(|c| ours(c.a) && ours(c.b))
        .map(|c| format!("{} {} {:?}", c.a.index(), c.b.index(), c.manifold))
        .collect();
    let events = (report.events.iter())
        .filter(|e| ours(e.a) && ours(e.b))
        .map(|e| format!("{} {} {:?}", e.a.index(), e.b.index(), e.kind))
        .collect();
    (contacts, events)
}

#[test]
fn states_updated_in_place_give_the_carried_over_answers() {
    for threads in [1, 2] {
        // 2,000 pairs, 30 frames: 60,000 pair-steps on each thread count.
        let scene = scenes::hull_pile(2001, 7);
        let config = Config {
            threads,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        let mut twin = CollisionWorld::new(config).unwrap();
        let handles = scene.populate(&mut world).unwrap();
        let twin_handles = scene.populate(&mut twin).unwrap();
        let bodies = scene.len() as u32;
        let ball = Sphere::try_new(0.5).unwrap();
        let far =
            |x: f32| BodyDesc::dynamic(ball, Pose::from_translation(Vec3::new(x, 500.0, 0.0)));
        let mut extra: Vec<BodyHandle> = Vec::new();
        let (mut pairs_kept, mut touching, mut before) = (0, 0, usize::MAX);
        for frame in 0..30u32 {
            for &i in scene.movers() {
                let pose = scene.pose(i, frame);
                world.set_pose(handles[i], pose).unwrap();
                twin.set_pose(twin_handles[i], pose).unwrap();
            }
            // The twin's pair list changes every frame: a touching pair of spheres far
            // away comes (even frames) or goes (odd ones).
            if extra.is_empty() {
                extra.push(twin.insert(far(0.0)).unwrap());
                extra.push(twin.insert(far(0.9)).unwrap());
            } else {
                for h in extra.drain(..) {
                    twin.remove(h).unwrap();
                }
            }
            let ours = world.step().clone();
            let theirs = twin.step();
            assert_eq!(
                pile_part(&ours, bodies),
                pile_part(theirs, bodies),
                "frame {frame}, {threads} threads"
            );
            pairs_kept += (before == ours.candidate_pairs) as usize;
            (before, touching) = (ours.candidate_pairs, ours.contacts.len());
        }
        // The pile's pair count stays the same from the first step on: the swaying
        // hulls keep their pairs (the in-place path).
        assert_eq!(pairs_kept, 29);
        assert!(touching >= 1_990, "{touching} touching pairs");
    }
}
