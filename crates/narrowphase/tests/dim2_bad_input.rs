//! Bad input to the 2D queries: non-finite poses and margins never panic and never
//! invent a contact. (Bad shapes cannot be built: their constructors' named errors
//! are tested in sepax-geometry's `dim2` unit tests.)

use glam::Vec2;
use sepax_geometry::dim2::{Circle, ConvexPolygon, Obb2, Pose2, Rot2, Shape2};
use sepax_narrowphase::dim2::{collide2d, contact2d, intersects2d};

fn shapes() -> Vec<Shape2> {
    vec![
        Circle::try_new(Vec2::ZERO, 0.5).unwrap().into(),
        Obb2::try_from_half_extents(Vec2::splat(0.5))
            .unwrap()
            .into(),
        ConvexPolygon::try_new(&[
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.5, -0.5),
            Vec2::new(0.0, 0.5),
        ])
        .unwrap()
        .into(),
    ]
}

#[test]
fn non_finite_poses_give_no_contact() {
    let bad = [
        Pose2::new(Vec2::new(f32::NAN, 0.0), 0.0),
        Pose2::new(Vec2::new(0.0, f32::INFINITY), 0.0),
        Pose2::new(Vec2::ZERO, f32::NAN),
        Pose2::new(Vec2::ZERO, f32::NEG_INFINITY),
        Pose2::from_parts(
            Vec2::ZERO,
            Rot2::from_direction(Vec2::X).unwrap().inverse() * Rot2::from_angle(f32::NAN),
        ),
    ];
    let good = Pose2::IDENTITY;
    for a in &shapes() {
        for b in &shapes() {
            // Overlapping at the same place: a contact with good poses...
            assert!(intersects2d(a, &good, b, &good));
            for p in &bad {
                assert!(!p.is_valid());
                assert!(collide2d(a, p, b, &good, 0.1).is_none());
                assert!(collide2d(a, &good, b, p, 0.1).is_none());
                assert!(contact2d(a, p, b, &good, 0.1).is_none());
                assert!(!intersects2d(a, &good, b, p));
            }
        }
    }
}

#[test]
fn negative_and_nan_margins_count_as_zero() {
    let s = shapes();
    let near = Pose2::new(Vec2::new(1.05, 0.0), 0.0); // 0.05 apart
    let touching = Pose2::new(Vec2::new(1.0, 0.0), 0.0);
    for margin in [-1.0, f32::NAN, f32::NEG_INFINITY, 0.0] {
        assert!(contact2d(&s[1], &Pose2::IDENTITY, &s[1], &near, margin).is_none());
        assert!(contact2d(&s[0], &Pose2::IDENTITY, &s[0], &near, margin).is_none());
        let c = contact2d(&s[1], &Pose2::IDENTITY, &s[1], &touching, margin).unwrap();
        assert!(c.depth.abs() < 1e-6, "exact touching is a contact");
    }
    let c = contact2d(&s[1], &Pose2::IDENTITY, &s[1], &near, 0.1).unwrap();
    assert!((c.depth + 0.05).abs() < 1e-6);
}

#[test]
fn exactly_touching_counts_for_every_pair_kind() {
    let s = shapes();
    // Box on box, circle on box top, circle on circle: all at distance 0.
    assert!(intersects2d(
        &s[1],
        &Pose2::IDENTITY,
        &s[1],
        &Pose2::new(Vec2::new(0.0, 1.0), 0.0)
    ));
    assert!(intersects2d(
        &s[1],
        &Pose2::IDENTITY,
        &s[0],
        &Pose2::new(Vec2::new(0.0, 1.0), 0.0)
    ));
    assert!(intersects2d(
        &s[0],
        &Pose2::IDENTITY,
        &s[0],
        &Pose2::new(Vec2::new(0.0, 1.0), 0.0)
    ));
    assert!(!intersects2d(
        &s[0],
        &Pose2::IDENTITY,
        &s[0],
        &Pose2::new(Vec2::new(0.0, 1.001), 0.0)
    ));
}

/// Issue 9: extreme sizes the 2D constructors accept never panic the queries; within
/// 1e-18..1e18 the answers stay finite with unit normals (what the constructors' docs
/// promise).
#[test]
fn extreme_sizes_never_panic_and_stay_finite_in_range() {
    for scale in [1e-30f32, 1e-18, 1e-6, 1.0, 1e6, 1e18, 1e30, 1e37] {
        let shapes: Vec<Shape2> = vec![
            Circle::try_new(Vec2::ZERO, 0.5 * scale).unwrap().into(),
            Obb2::try_from_half_extents(Vec2::splat(0.5 * scale))
                .unwrap()
                .into(),
            ConvexPolygon::try_new(&[
                Vec2::new(-0.5, -0.5) * scale,
                Vec2::new(0.5, -0.5) * scale,
                Vec2::new(0.0, 0.5) * scale,
            ])
            .unwrap()
            .into(),
        ];
        let near = Pose2::new(Vec2::new(0.7, 0.1) * scale, 0.3);
        for a in &shapes {
            for b in &shapes {
                let c = contact2d(a, &Pose2::IDENTITY, b, &near, 0.0);
                let m = collide2d(a, &Pose2::IDENTITY, b, &near, 0.0);
                let _ = intersects2d(a, &Pose2::IDENTITY, b, &near);
                if (1e-18..=1e18).contains(&scale) {
                    let c = c.expect("overlapping");
                    assert!(
                        c.depth.is_finite() && (c.normal.length() - 1.0).abs() < 1e-4,
                        "{scale}: {c:?}"
                    );
                    let m = m.expect("overlapping");
                    assert!(
                        m.points
                            .iter()
                            .all(|p| p.position.is_finite() && p.depth.is_finite()),
                        "{scale}: {m:?}"
                    );
                }
            }
        }
    }
}
