//! Resting bodies: setting the same pose again is a no-op, and pairs of two unchanged
//! bodies reuse last step's manifold. The reuse must give exactly what a fresh world
//! computes from scratch.

use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{CollisionWorld, Config, ContactPair, Groups};
use sepax_testkit::scenes;

fn strip(c: &[ContactPair]) -> Vec<(u32, u32, sepax_pipeline::narrowphase::Manifold)> {
    c.iter()
        .map(|c| (c.a.index(), c.b.index(), c.manifold))
        .collect()
}

#[test]
fn reused_manifolds_equal_a_fresh_computation() {
    let scene = scenes::soup(1200, 8);
    let config = Config {
        threads: 2,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    // The twin lives through the same frames, but every body is marked changed every
    // frame (its shape set again), so every pair is computed afresh, with its own
    // cache: a reused manifold must equal that computation (a warm cache keeps its
    // reference feature, so a cold world is not the right twin).
    let mut twin = CollisionWorld::new(config).unwrap();
    let twin_handles = scene.populate(&mut twin).unwrap();
    let mut poses: Vec<Pose> = (0..scene.len()).map(|i| scene.pose(i, 0)).collect();
    for frame in 1..8u32 {
        // Every third body moves; the others get their unchanged pose set again.
        for (i, (h, t)) in handles.iter().zip(&twin_handles).enumerate() {
            if i % 3 == 0 {
                poses[i] = scene.pose(i, frame);
            }
            world.set_pose(*h, poses[i]).unwrap();
            twin.set_pose(*t, poses[i]).unwrap();
            twin.set_shape(*t, scene.bodies[i].shape.clone()).unwrap();
        }
        let filtered = Groups {
            memberships: 1,
            filter: 0,
        };
        if frame == 4 {
            // A group change on a resting body must still filter its pairs.
            world.set_groups(handles[1], filtered).unwrap();
            twin.set_groups(twin_handles[1], filtered).unwrap();
        }
        if frame == 6 {
            world.set_groups(handles[1], Groups::ALL).unwrap();
            twin.set_groups(twin_handles[1], Groups::ALL).unwrap();
        }
        let got = strip(&world.step().contacts);
        let want = strip(&twin.step().contacts);
        assert!(want.len() > 300);
        assert!(
            got == want,
            "frame {frame}: {} vs {} contacts",
            got.len(),
            want.len()
        );
    }
    // And a cold world agrees on which pairs touch (the warm preference changes the
    // reference feature within the slop, never the verdict of a touching pair).
    let mut fresh = CollisionWorld::new(Config::default()).unwrap();
    for (i, pose) in poses.iter().enumerate() {
        let mut desc = scene.body_desc(i);
        desc.pose = *pose;
        fresh.insert(desc).unwrap();
    }
    let pairs = |c: &[ContactPair]| -> Vec<(u32, u32)> {
        c.iter()
            .filter(|c| c.manifold.depth() > 1e-4)
            .map(|c| (c.a.index(), c.b.index()))
            .collect()
    };
    let cold = fresh.step().contacts.clone();
    let warm = world.report().contacts.clone();
    let (cold_pairs, warm_pairs) = (pairs(&cold), pairs(&warm));
    assert!(
        cold_pairs
            .iter()
            .all(|p| warm.iter().any(|c| (c.a.index(), c.b.index()) == *p))
    );
    assert!(
        warm_pairs
            .iter()
            .all(|p| cold.iter().any(|c| (c.a.index(), c.b.index()) == *p))
    );
    // Resting pairs keep their feature ids: all points persisted.
    let r = world.step();
    assert!(
        r.contacts
            .iter()
            .all(|c| (0..c.manifold.points.len()).all(|i| c.persisted(i)))
    );
}

#[test]
fn same_pose_again_is_not_a_change_but_a_new_one_is() {
    let scene = scenes::pile(101);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    let first = world.step().contacts.clone();
    scene.apply(&mut world, &handles, 5).unwrap(); // the pile does not move
    assert_eq!(
        world.step().contacts,
        first
            .iter()
            .enumerate()
            .map(|(k, c)| ContactPair {
                previous: Some(k as u32),
                previous_points: std::array::from_fn(|i| {
                    (i < c.manifold.points.len()).then_some(i as u8)
                }),
                ..*c
            })
            .collect::<Vec<_>>()
    );
    // Lift the top box of the first column by 0.02: its contact with the box below ends.
    let top = handles[10];
    let lifted = Pose::from_translation(world.pose(top).unwrap().translation + Vec3::Y * 0.02);
    world.set_pose(top, lifted).unwrap();
    let r = world.step();
    assert_eq!(r.contacts.len(), first.len() - 1);
    assert_eq!(r.events.len(), 1);
}

/// A step in which nothing changed takes the short way (the broad phase keeps its
/// pairs, the contacts are last step's): it must report exactly what the full step
/// reports. The twin is kept off the short way by setting one body's groups again
/// (an edit that changes no answer) before every step.
#[test]
fn a_step_where_nothing_changed_reports_what_the_full_step_does() {
    // A soup that moves every fifth frame, and a pile that never moves.
    let soup_scene = scenes::soup(800, 31);
    let pile = scenes::pile(201);
    let config = Config {
        threads: 2,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let mut twin = CollisionWorld::new(config).unwrap();
    let soup = (
        soup_scene.populate(&mut world).unwrap(),
        soup_scene.populate(&mut twin).unwrap(),
    );
    let piled = (
        pile.populate(&mut world).unwrap(),
        pile.populate(&mut twin).unwrap(),
    );
    let mut short_ways = 0;
    for frame in 0..16u32 {
        // Frames 0, 5, 10, 15 move the soup; the others set the same poses again.
        let t = frame / 5 * 5;
        soup_scene.apply(&mut world, &soup.0, t).unwrap();
        soup_scene.apply(&mut twin, &soup.1, t).unwrap();
        pile.apply(&mut world, &piled.0, frame).unwrap();
        pile.apply(&mut twin, &piled.1, frame).unwrap();
        twin.set_groups(piled.1[0], Groups::ALL).unwrap();
        let got = world.step().clone();
        short_ways += (got.timings.narrow.is_zero() && frame % 5 != 0) as u32;
        let want = twin.step();
        assert!(want.contacts.len() > 300);
        assert_eq!(got.contacts, want.contacts, "frame {frame}");
        assert_eq!(got.events, want.events, "frame {frame}");
        assert_eq!(got.candidate_pairs, want.candidate_pairs);
        assert_eq!(got.quarantined, want.quarantined);
    }
    // The idle frames (12 of 16) took the short way.
    assert!(short_ways >= 10, "{short_ways}");
}

/// Hulls resting on a ground box, nudged a little every step (as a solver leaves them):
/// from the second step on, the narrow phase's warm path keeps most pairs' features
/// (`StepReport::kept_pairs`), and the contacts are those of a world that runs every
/// pair through the full test (`collide_full`, by the narrow phase's own test of the
/// path) — here checked as the same contacts for 1 and 2 threads, and the count as
/// well.
#[test]
fn resting_hulls_are_kept_by_the_warm_path() {
    use sepax_pipeline::BodyDesc;
    use sepax_pipeline::geometry::{ConvexHull, Cuboid, Shape};
    let run = |threads: usize| {
        let config = Config {
            threads,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        let ground = Cuboid::try_from_half_extents(Vec3::new(50.0, 0.5, 50.0)).unwrap();
        world
            .insert(BodyDesc::fixed(
                Shape::from(ground),
                Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)),
            ))
            .unwrap();
        let mut rng = sepax_pipeline::geometry::rng::Rng::new(21);
        let mut hulls = Vec::new();
        for k in 0..40 {
            let points: Vec<Vec3> = (0..16).map(|_| rng.unit_vec3() * 0.5).collect();
            let hull = ConvexHull::try_from_points(&points).unwrap();
            // Its lowest vertex 0.01 below the ground's top.
            let bottom = hull
                .vertices()
                .iter()
                .map(|v| v.y)
                .fold(f32::INFINITY, f32::min);
            let at = Vec3::new((k % 8) as f32 * 2.0, -bottom - 0.01, (k / 8) as f32 * 2.0);
            let h = world
                .insert(BodyDesc::dynamic(
                    Shape::from(hull),
                    Pose::from_translation(at),
                ))
                .unwrap();
            hulls.push((h, at));
        }
        let mut kept = Vec::new();
        let mut contacts = Vec::new();
        for frame in 0..6 {
            for &(h, at) in &hulls {
                let nudge = Vec3::new(1e-4 * frame as f32, 0.0, 0.0);
                world
                    .set_pose(h, Pose::from_translation(at + nudge))
                    .unwrap();
            }
            let report = world.step();
            kept.push(report.kept_pairs);
            contacts.push(strip(&report.contacts));
        }
        (kept, contacts)
    };
    let (kept, contacts) = run(1);
    assert!(contacts[0].len() >= 40, "{} contacts", contacts[0].len());
    // The first step has no cached feature to keep.
    assert_eq!(kept[0], 0);
    for (frame, &k) in kept.iter().enumerate().skip(1) {
        assert!(
            k * 2 > contacts[frame].len(),
            "frame {frame}: {k} kept of {}",
            contacts[frame].len()
        );
    }
    assert_eq!(run(2), (kept, contacts));
}
