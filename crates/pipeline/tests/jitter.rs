//! Issue 8, item 3: feature ids follow features, not round-off.
//!
//! Two resting bodies with flush faces, their poses jittered by 1e-5 (translation and
//! rotation) every frame around a fixed rest pose, nothing but `step()`: at least 99 %
//! of the manifold points must keep their feature id from one frame to the next, and a
//! point that keeps its id must not move more than 1 % of the box size on the body,
//! and the reference feature must never change (item 2: no face-of-a/face-of-b flip).
//! Equal flush faces are the most common stacking case and the hardest for clipping:
//! every corner of the incident face lies on a side plane of the reference face, so
//! without a clip tolerance round-off decides whether a corner is kept (vertex id) or
//! cut into a crossing point (another id) whose place along an edge lying in the side
//! plane is ill-defined.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{ConvexHull, Cuboid, Pose, Shape};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config};

const FRAMES: usize = 1000;
const JITTER: f32 = 1e-5;

fn jittered(rng: &mut Rng, base: Pose) -> Pose {
    let shift = rng.vec3(Vec3::splat(-JITTER), Vec3::splat(JITTER));
    let axis = rng.unit_vec3();
    let turn = Quat::from_axis_angle(axis, rng.range(-JITTER, JITTER));
    Pose::new(base.translation + shift, (turn * base.rotation).normalize())
}

/// Runs the pair and returns (fraction of points keeping their id, largest move of a
/// point that kept its id, relative to `size`).
fn run(lower: Shape, upper: Shape, rest_a: Pose, rest_b: Pose, size: f32, seed: u64) -> (f64, f32) {
    let mut world = CollisionWorld::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let a = world.insert(BodyDesc::dynamic(lower, rest_a)).unwrap();
    let b = world.insert(BodyDesc::dynamic(upper, rest_b)).unwrap();
    let mut rng = Rng::new(seed);
    let (mut kept, mut total) = (0usize, 0usize);
    let mut worst_move = 0.0f32;
    let mut previous: Option<Vec<(u64, Vec3)>> = None;
    let mut reference = None;
    for _ in 0..FRAMES {
        world.set_pose(a, jittered(&mut rng, rest_a)).unwrap();
        world.set_pose(b, jittered(&mut rng, rest_b)).unwrap();
        let report = world.step();
        assert_eq!(report.contacts.len(), 1, "the bodies must stay in contact");
        // Item 2: no flip between a's and b's face (or to an edge) at rest.
        let feature = report.contacts[0].manifold.feature;
        assert_eq!(
            *reference.get_or_insert(feature),
            feature,
            "the reference feature flipped"
        );
        let points: Vec<(u64, Vec3)> = report.contacts[0]
            .manifold
            .points
            .iter()
            .map(|p| (p.id, p.anchor_a))
            .collect();
        if let Some(prev) = &previous {
            for (id, anchor) in &points {
                total += 1;
                if let Some((_, before)) = prev.iter().find(|(i, _)| i == id) {
                    kept += 1;
                    worst_move = worst_move.max(anchor.distance(*before) / size);
                }
            }
        }
        previous = Some(points);
    }
    (kept as f64 / total as f64, worst_move)
}

fn cube(h: f32) -> Cuboid {
    Cuboid::try_from_half_extents(Vec3::splat(h)).unwrap()
}

fn assert_stable(name: &str, (kept, worst_move): (f64, f32)) {
    eprintln!(
        "{name}: {:.2} % of ids kept, worst move {worst_move:.2e} × size",
        100.0 * kept
    );
    assert!(
        kept >= 0.99,
        "{name}: only {:.2} % of ids kept",
        100.0 * kept
    );
    assert!(
        worst_move <= 0.01,
        "{name}: a point kept its id and moved {worst_move} × size"
    );
}

#[test]
fn equal_cubes_keep_their_ids_under_jitter() {
    let below = Pose::IDENTITY;
    let above = Pose::from_translation(Vec3::new(0.0, 0.999, 0.0));
    assert_stable(
        "flush",
        run(cube(0.5).into(), cube(0.5).into(), below, above, 1.0, 1),
    );
    // Flush along one side only, turned on the other.
    let shifted = Pose::from_translation(Vec3::new(0.3, 0.999, 0.0));
    assert_stable(
        "shifted",
        run(cube(0.5).into(), cube(0.5).into(), below, shifted, 1.0, 2),
    );
    let turned = Pose::new(Vec3::new(0.0, 0.999, 0.0), Quat::from_rotation_y(0.4));
    assert_stable(
        "turned",
        run(cube(0.5).into(), cube(0.5).into(), below, turned, 1.0, 3),
    );
}

#[test]
fn equal_hull_cubes_keep_their_ids_under_jitter() {
    let hull = || Shape::from(ConvexHull::cuboid(Vec3::splat(0.5)).unwrap());
    let below = Pose::IDENTITY;
    let above = Pose::from_translation(Vec3::new(0.0, 0.999, 0.0));
    assert_stable("hull on hull", run(hull(), hull(), below, above, 1.0, 4));
    assert_stable(
        "box on hull",
        run(hull(), cube(0.5).into(), below, above, 1.0, 5),
    );
}

#[test]
fn smaller_box_on_a_larger_one_keeps_its_ids() {
    let below = Pose::IDENTITY;
    let above = Pose::from_translation(Vec3::new(0.0, 0.949, 0.0));
    assert_stable(
        "0.9 on 1.0",
        run(cube(0.5).into(), cube(0.45).into(), below, above, 0.9, 6),
    );
    assert_stable(
        "1.0 on 0.9",
        run(cube(0.45).into(), cube(0.5).into(), below, above, 0.9, 7),
    );
}
