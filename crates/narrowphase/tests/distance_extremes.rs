//! Distances and casts at the edges of accepted input: huge and tiny shapes, far
//! poses, huge speeds. No panic, and answers that still make sense.

use glam::{Quat, Vec3};
use sepax_geometry::{Capsule, Cuboid, Pose, Shape, Sphere};
use sepax_narrowphase::{Motion, PairCache, cast, closest_points, distance};

fn cube(h: f32) -> Shape {
    Shape::from(Cuboid::try_from_half_extents(Vec3::splat(h)).unwrap())
}

#[test]
fn huge_boxes_have_a_gap() {
    // Half extents near f32::MAX: the f32 bounding radius is infinite.
    let big = cube(1e38);
    let at = Pose::from_translation(Vec3::new(0.0, 2.5e38, 0.0));
    let gap = distance(&big, &Pose::IDENTITY, &big, &at).unwrap();
    assert!((gap as f64 - 0.5e38).abs() < 1e32, "{gap}");
    let touching = Pose::from_translation(Vec3::new(0.0, 1.5e38, 0.0));
    assert_eq!(
        distance(&big, &Pose::IDENTITY, &big, &touching).unwrap(),
        0.0
    );
}

#[test]
fn tiny_shapes_far_from_the_origin() {
    let speck = Shape::from(Sphere::try_new(1e-3).unwrap());
    let far = Vec3::splat(1e4);
    let a = Pose::from_translation(far);
    let b = Pose::from_translation(far + Vec3::new(0.01, 0.0, 0.0));
    let gap = distance(&speck, &a, &speck, &b).unwrap();
    // 1e4 in f32 has a spacing of ~1e-3: the gap is exact up to the poses' rounding.
    assert!((gap - 0.008).abs() < 2e-3, "{gap}");
    let stick = Shape::from(Capsule::try_new(1e-3, 1e-4).unwrap());
    let mut cache = PairCache::default();
    let c = closest_points(&stick, &a, &cube(1e-3), &b, &mut cache)
        .unwrap()
        .unwrap();
    assert!(c.distance > 0.0 && c.normal.is_normalized());
}

#[test]
fn casts_at_extreme_speeds_and_sizes() {
    let wall = Shape::from(Cuboid::try_from_half_extents(Vec3::new(1e-3, 10.0, 10.0)).unwrap());
    let bullet = cube(1e-3);
    let start = Pose::new(Vec3::new(-1e3, 0.0, 0.0), Quat::IDENTITY);
    for speed in [1e3f32, 1e6, 1e12, 1e30] {
        let hit = cast(
            &bullet,
            &start,
            &Motion::linear(Vec3::X * speed),
            &wall,
            &Pose::IDENTITY,
            &Motion::ZERO,
            1.0,
        )
        .unwrap()
        .unwrap_or_else(|| panic!("missed at {speed}"));
        assert!(
            hit.time > 0.0 && hit.time <= 1.0 && hit.normal.is_normalized(),
            "{speed}: {hit:?}"
        );
    }
    // A spin of 1e6 rad per unit of time: conservative advancement takes tiny steps and
    // gives up after its step limit with a time that is still not late.
    let spin = Motion {
        linear: Vec3::X * 100.0,
        angular: Vec3::Y * 1e6,
    };
    let hit = cast(
        &bullet,
        &start,
        &spin,
        &wall,
        &Pose::IDENTITY,
        &Motion::ZERO,
        100.0,
    )
    .unwrap();
    let h = hit.expect("a hit or a stop short of one");
    assert!(h.time <= 10.0 + 1e-3, "{h:?}");
    // It stopped short: the hit says how far apart the shapes still are.
    let gap = distance(
        &bullet,
        &spin.pose_at(&start, h.time),
        &wall,
        &Pose::IDENTITY,
    )
    .unwrap();
    assert!(
        (h.separation - gap).abs() <= 1e-3 * gap.max(1e-3),
        "{} vs {gap}",
        h.separation
    );
}
