//! A body with a NaN, infinite or non-unit pose leaves the step, is reported, and every
//! other body's result is exactly what it would be without that body.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::{Cuboid, Pose};
use sepax_pipeline::{BodyHandle, CollisionWorld, Config, ContactPair, QuarantineReason};
use sepax_testkit::scenes;

fn world_of(scene: scenes::Scene) -> (CollisionWorld, Vec<BodyHandle>, scenes::Scene) {
    let mut world = CollisionWorld::new(Config {
        threads: 2,
        ..Config::default()
    })
    .unwrap();
    let handles = scene.populate(&mut world).unwrap();
    (world, handles, scene)
}

#[test]
fn bad_poses_are_quarantined_and_others_unchanged() {
    quarantine_leaves_the_others_unchanged(|| scenes::soup(2000, 5));
}

/// The same with hulls: the stages that ask for hull data ahead read the victims' (and
/// the victim whose hull becomes a box keeps the world's hull count right).
#[test]
fn bad_poses_among_hulls_leave_the_others_unchanged() {
    quarantine_leaves_the_others_unchanged(|| scenes::hulls(600, 5));
}

fn quarantine_leaves_the_others_unchanged(make: impl Fn() -> scenes::Scene) {
    let bad = [
        (
            Pose::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)),
            QuarantineReason::NonFinitePose,
        ),
        (
            Pose::from_translation(Vec3::new(0.0, f32::INFINITY, 0.0)),
            QuarantineReason::NonFinitePose,
        ),
        (
            Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 3.0)),
            QuarantineReason::NonUnitRotation,
        ),
        (
            Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
            QuarantineReason::NonFinitePose,
        ),
        (
            Pose::from_translation(Vec3::splat(f32::MAX)),
            QuarantineReason::NonFiniteAabb,
        ),
    ];
    let (mut reference, ref_handles, scene) = world_of(make());
    let (mut world, handles, _) = world_of(make());
    // Victims: bodies that touch others at frame 3.
    scene.apply(&mut reference, &ref_handles, 3).unwrap();
    scene.apply(&mut world, &handles, 3).unwrap();
    world.step();
    let victims: Vec<BodyHandle> = {
        let r = reference.step();
        let mut seen = Vec::new();
        r.contacts
            .iter()
            .step_by((r.contacts.len() / (2 * bad.len())).clamp(1, 97))
            .map(|c| c.a)
            .filter(|a| {
                !seen.contains(a) && {
                    seen.push(*a);
                    true
                }
            })
            .take(bad.len())
            // Handles belong to the world that issued them (issue 9): take this
            // world's handle of the same slot (handles compare by slot and generation).
            .map(|v| *handles.iter().find(|&&h| h == v).unwrap())
            .collect()
    };
    assert_eq!(victims.len(), bad.len());
    for frame in 4..8u32 {
        scene.apply(&mut reference, &ref_handles, frame).unwrap();
        scene.apply(&mut world, &handles, frame).unwrap();
        for (v, (pose, _)) in victims.iter().zip(&bad) {
            world.set_pose(*v, *pose).unwrap();
        }
        // A finite pose whose AABB overflows: a huge box near f32::MAX.
        let huge = Cuboid::try_from_half_extents(Vec3::splat(1e38)).unwrap();
        world.set_shape(victims[4], huge.into()).unwrap();
        let expected: Vec<_> = reference
            .step()
            .contacts
            .iter()
            .filter(|c| !victims.contains(&c.a) && !victims.contains(&c.b))
            .map(without_index)
            .collect();
        let r = world.step();
        let mut got_q: Vec<_> = r.quarantined.iter().map(|q| (q.body, q.reason)).collect();
        let mut want_q: Vec<_> = victims
            .iter()
            .copied()
            .zip(bad.iter().map(|b| b.1))
            .collect();
        got_q.sort_by_key(|q| q.0);
        want_q.sort_by_key(|q| q.0);
        assert_eq!(got_q, want_q, "frame {frame}");
        assert!(!expected.is_empty());
        // Everything but the index into last step's contacts, which shifts because the
        // victims' pairs are missing from that list.
        let got: Vec<_> = r.contacts.iter().map(without_index).collect();
        assert!(
            got == expected,
            "frame {frame}: other bodies' contacts changed ({} vs {})",
            got.len(),
            expected.len()
        );
    }
    // Fixing the pose brings the body back.
    world
        .set_pose(victims[0], scene.pose(victims[0].index() as usize, 8))
        .unwrap();
    let r = world.step();
    assert!(r.quarantined.iter().all(|q| q.body != victims[0]));
    assert!(world.aabb(victims[0]).unwrap().is_some());
}

/// A contact with its index into the previous step's contacts erased.
fn without_index(c: &ContactPair) -> ContactPair {
    ContactPair {
        previous: None,
        ..*c
    }
}
