//! Speculative contacts in the world (issue 11, part 2): `Config::margin` reports a pair
//! apart by a distance `d` within it with depth `−d` along the closest direction, and
//! nothing when `d` exceeds it, also when the separating-axis test's lower bound of the
//! gap is within the margin. Boxes hovering corner-down over another box, batched and
//! one by one.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::{Cuboid, Pose, Shape};
use sepax_pipeline::narrowphase::oracle::vertex_projection_sat;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, ContactPair};

const MARGIN: f32 = 0.05;

/// Half the body diagonal of the unit cube: how far a corner reaches along it.
const CORNER: f32 = 0.866_025_4;

fn unit_cube() -> Shape {
    Cuboid::try_from_half_extents(Vec3::splat(0.5))
        .unwrap()
        .into()
}

/// The unit cube turned so that its corner `(+, +, +)` points along `dir`.
fn corner_along(dir: Vec3) -> Quat {
    Quat::from_rotation_arc(Vec3::ONE.normalize(), dir)
}

/// The one contact of a world of two bodies after a step, if any.
fn step_pair(lower: Pose, upper: Pose, batch_box_pairs: bool) -> Option<ContactPair> {
    let mut world = CollisionWorld::new(Config {
        margin: MARGIN,
        batch_box_pairs,
        ..Config::default()
    })
    .unwrap();
    world.insert(BodyDesc::dynamic(unit_cube(), lower)).unwrap();
    world.insert(BodyDesc::dynamic(unit_cube(), upper)).unwrap();
    let report = world.step();
    assert!(report.contacts.len() <= 1);
    report.contacts.first().cloned()
}

/// The SAT's best separation: a lower bound of the distance.
fn sat_gap(lower: &Pose, upper: &Pose) -> f64 {
    vertex_projection_sat(&unit_cube(), lower, &unit_cube(), upper)
        .unwrap()
        .separation
}

#[test]
fn a_corner_over_a_corner_reports_the_true_gap() {
    for batch in [false, true] {
        for gap in [0.001f32, 0.02, 0.045] {
            // Corner up below, corner down above, on one vertical line: the corners are
            // the closest points, `gap` apart.
            let lower = Pose::new(Vec3::new(1.0, 2.0, 3.0), corner_along(Vec3::Y));
            let upper = Pose::new(
                lower.translation + Vec3::new(0.0, 2.0 * CORNER + gap, 0.0),
                corner_along(-Vec3::Y),
            );
            // Every axis of the SAT sees a smaller gap than the corners' distance.
            assert!(sat_gap(&lower, &upper) < gap as f64 * 0.9);
            let c = step_pair(lower, upper, batch).expect("within the margin");
            assert!(!c.touching);
            let m = &c.manifold;
            assert!((m.depth() + gap).abs() < 2e-5, "gap {gap}: {m:?}");
            // From the first body to the second: the lower one was inserted first.
            assert!((m.normal - Vec3::Y).length() < 1e-3, "gap {gap}: {m:?}");
            let deepest = m.points.iter().max_by(|p, q| p.depth.total_cmp(&q.depth));
            let corner = lower.translation + Vec3::new(0.0, CORNER + 0.5 * gap, 0.0);
            assert!(
                (deepest.unwrap().position - corner).length() < 1e-4,
                "{m:?}"
            );
        }
    }
}

#[test]
fn a_corner_over_a_corner_beyond_the_margin_reports_nothing() {
    for batch in [false, true] {
        // The SAT's lower bound is within the margin, the true gap is not.
        let gap = 1.2 * MARGIN;
        let lower = Pose::new(Vec3::ZERO, corner_along(Vec3::Y));
        let upper = Pose::new(
            Vec3::new(0.0, 2.0 * CORNER + gap, 0.0),
            corner_along(-Vec3::Y),
        );
        assert!(sat_gap(&lower, &upper) < MARGIN as f64);
        assert!(step_pair(lower, upper, batch).is_none());
    }
}

#[test]
fn a_corner_over_a_face_reports_the_true_gap() {
    for batch in [false, true] {
        let gap = 0.03;
        let lower = Pose::from_translation(Vec3::new(-4.0, 0.0, 2.0));
        let upper = Pose::new(
            lower.translation + Vec3::new(0.1, 0.5 + CORNER + gap, -0.2),
            corner_along(-Vec3::Y),
        );
        let c = step_pair(lower, upper, batch).expect("within the margin");
        let m = &c.manifold;
        assert!((m.depth() + gap).abs() < 2e-5, "{m:?}");
        assert!((m.normal - Vec3::Y).length() < 1e-5, "{m:?}");
    }
}
