//! Issue 9, item 1: every shape, pose and margin the constructors accept can be stepped
//! without a panic. A body whose AABB is wider than `f32::MAX` on some axis used to
//! make the broad phase's fat box ±inf, and the sweep then read past its list
//! (`index out of bounds` in `sweep.rs`) at every step until the body was removed.
//!
//! The fix is in the broad phase (fat boxes are clamped to ±`f32::MAX`); a body whose
//! own AABB overflows is quarantined as before. These tests step the exact repro of the
//! issue several times, both limits of every shape kind (just below and above the size
//! where the AABB stops being finite), and check that the other bodies' contacts are
//! those of the same scene without the huge body.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::{ConvexHull, Cuboid, HullError, Pose, Shape, Sphere};
use sepax_pipeline::{
    BodyDesc, BodyHandle, CollisionWorld, Config, ContactPair, QuarantineReason, WorldError,
};

fn unit_cube() -> Shape {
    Cuboid::try_from_half_extents(Vec3::splat(0.5))
        .unwrap()
        .into()
}

/// Four small cubes in two touching pairs, far from each other.
fn small_bodies(world: &mut CollisionWorld) -> Vec<BodyHandle> {
    let at = [
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(10.9, 0.0, 0.0),
        Vec3::new(-10.0, 5.0, 0.0),
        Vec3::new(-10.0, 5.95, 0.0),
    ];
    at.iter()
        .map(|&p| {
            world
                .insert(BodyDesc::dynamic(unit_cube(), Pose::from_translation(p)))
                .unwrap()
        })
        .collect()
}

/// The contacts among `bodies` only, without `previous` (an index into the whole
/// contact list, which also holds the huge body's contacts).
fn contacts_among(world: &CollisionWorld, bodies: &[BodyHandle]) -> Vec<ContactPair> {
    world
        .report()
        .contacts
        .iter()
        .filter(|c| bodies.contains(&c.a) && bodies.contains(&c.b))
        .map(|c| ContactPair {
            previous: None,
            ..*c
        })
        .collect()
}

/// Steps a world holding the small bodies and `huge` (inserted first, so it takes the
/// lowest slot) five times, and compares the small bodies' contacts with a world
/// without it. Returns the last report's quarantine list.
fn step_with(huge: BodyDesc, margin: f32) -> Vec<QuarantineReason> {
    let config = Config {
        margin,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let big = world.insert(huge).unwrap();
    let small = small_bodies(&mut world);
    let mut twin = CollisionWorld::new(config).unwrap();
    twin.insert(BodyDesc::dynamic(
        unit_cube(),
        Pose::from_translation(Vec3::splat(1e6)),
    ))
    .unwrap();
    let twin_small = small_bodies(&mut twin);
    assert_eq!(small, twin_small);
    for _ in 0..5 {
        world.step();
        twin.step();
        assert_eq!(
            contacts_among(&world, &small),
            contacts_among(&twin, &small)
        );
        assert_eq!(contacts_among(&twin, &small).len(), 2);
    }
    world
        .report()
        .quarantined
        .iter()
        .filter(|q| q.body == big)
        .map(|q| q.reason)
        .collect()
}

#[test]
fn issue_9_repro_huge_cuboid_and_unit_cube_step_without_panic() {
    let mut w = CollisionWorld::new(Config::default()).unwrap();
    w.insert(BodyDesc::dynamic(
        Cuboid::try_from_half_extents(Vec3::splat(2e38)).unwrap(),
        Pose::IDENTITY,
    ))
    .unwrap();
    w.insert(BodyDesc::dynamic(
        Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap(),
        Pose::IDENTITY,
    ))
    .unwrap();
    for _ in 0..5 {
        let report = w.step();
        assert!(report.quarantined.is_empty());
        assert_eq!(report.candidate_pairs, 1);
    }
}

#[test]
fn issue_9_huge_cuboids_at_both_limits() {
    // Fat box overflows (AABB finite): stepped normally.
    let below = [1.7e38, 2e38, f32::MAX];
    for h in below {
        let cube = Cuboid::try_from_half_extents(Vec3::splat(h)).unwrap();
        let desc = BodyDesc::dynamic(cube, Pose::IDENTITY);
        assert_eq!(step_with(desc.clone(), 0.0), vec![], "half extent {h}");
        assert_eq!(
            step_with(
                BodyDesc {
                    ..BodyDesc::fixed(cube, Pose::IDENTITY)
                },
                0.0
            ),
            vec![]
        );
    }
    // Rotated, the box's AABB grows by up to √2 on an axis: at 2e38 it stays finite
    // and is stepped, at f32::MAX it overflows and the body is quarantined.
    let turned = Pose::new(Vec3::ZERO, Quat::from_rotation_z(0.7));
    for (h, expected) in [
        (2e38, vec![]),
        (f32::MAX, vec![QuarantineReason::NonFiniteAabb]),
    ] {
        let cube = Cuboid::try_from_half_extents(Vec3::splat(h)).unwrap();
        assert_eq!(step_with(BodyDesc::dynamic(cube, turned), 0.0), expected);
    }
    // Far out on either side: a small box whose fat box would pass ±f32::MAX.
    for side in [1.0f32, -1.0] {
        let cube = Cuboid::try_from_half_extents(Vec3::splat(1e37)).unwrap();
        let pose = Pose::from_translation(Vec3::splat(side * 3.3e38));
        assert_eq!(step_with(BodyDesc::dynamic(cube, pose), 0.0), vec![]);
    }
}

#[test]
fn issue_9_huge_spheres_at_both_limits() {
    for r in [1.7e38, 2e38, f32::MAX] {
        let ball = Sphere::try_new(r).unwrap();
        assert_eq!(
            step_with(BodyDesc::dynamic(ball, Pose::IDENTITY), 0.0),
            vec![],
            "radius {r}"
        );
        // Moved off the origin, the AABB passes f32::MAX on one side.
        let moved = Pose::from_translation(Vec3::X * 1e38);
        let expected = if r + 1e38 > f32::MAX {
            vec![QuarantineReason::NonFiniteAabb]
        } else {
            vec![]
        };
        assert_eq!(step_with(BodyDesc::dynamic(ball, moved), 0.0), expected);
    }
}

/// Issue 10: capsules at the limits, like spheres: a core or a radius near `f32::MAX`
/// is stepped without a panic while its AABB is finite, and quarantined once it is not.
#[test]
fn huge_capsules_at_both_limits() {
    for (h, r, expected) in [
        (1e38, 1e38, vec![]),
        (1.7e38, 1.0, vec![]),
        (1.0, 2e38, vec![]),
        (f32::MAX, f32::MAX, vec![QuarantineReason::NonFiniteAabb]),
        (2e38, 2e38, vec![QuarantineReason::NonFiniteAabb]),
    ] {
        let capsule = sepax_pipeline::geometry::Capsule::try_new(h, r).unwrap();
        assert_eq!(
            step_with(BodyDesc::dynamic(capsule, Pose::IDENTITY), 0.0),
            expected,
            "half height {h}, radius {r}"
        );
    }
}

#[test]
fn issue_9_hulls_with_points_near_f32_max() {
    let mut built = 0;
    for s in [9e37f32, 1.7e38, 3e38, f32::MAX] {
        let points: Vec<Vec3> = (0..8)
            .map(|i| {
                let sign = |bit: i32| if i & bit != 0 { s } else { -s };
                Vec3::new(sign(1), sign(2), sign(4))
            })
            .collect();
        // A hull wider than f32::MAX about its centroid is refused by name (its
        // tolerance would be infinite); one within it is built and stepped.
        let hull = match ConvexHull::try_from_points(&points) {
            Ok(hull) => hull,
            Err(e) => {
                assert_eq!(e, HullError::TooLarge, "corner {s}");
                // Refused when the bounding-box diagonal 2·√3·s passes f32::MAX.
                assert!(
                    2.0 * 3f64.sqrt() * s as f64 > f32::MAX as f64,
                    "corner {s} refused"
                );
                continue;
            }
        };
        assert_eq!(
            step_with(BodyDesc::dynamic(hull.clone(), Pose::IDENTITY), 0.0),
            vec![],
            "corner {s}"
        );
        let turned = Pose::new(Vec3::ZERO, Quat::from_rotation_y(0.5));
        let q = step_with(BodyDesc::dynamic(hull, turned), 0.0);
        assert!(q.is_empty() || q == vec![QuarantineReason::NonFiniteAabb]);
        built += 1;
    }
    assert_eq!(built, 1, "the hull of corner 9e37 is built and stepped");
}

#[test]
fn issue_9_huge_margins_step_and_infinite_margin_is_refused() {
    // Every body's fat box overflows; nothing panics and each small pair is found.
    for margin in [1.7e38, 2e38, f32::MAX] {
        let config = Config {
            margin,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        small_bodies(&mut world);
        for _ in 0..3 {
            let report = world.step();
            assert!(report.quarantined.is_empty());
            // All four AABBs overlap: 6 candidate pairs.
            assert_eq!(report.candidate_pairs, 6);
        }
    }
    // +inf used to quarantine every body silently: now a named error.
    let config = Config {
        margin: f32::INFINITY,
        ..Config::default()
    };
    assert_eq!(
        CollisionWorld::new(config).unwrap_err(),
        WorldError::NonFiniteMargin
    );
}
