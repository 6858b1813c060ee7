//! The shared scenes have the properties their docs promise.

use sepax_pipeline::{CollisionWorld, Config};
use sepax_testkit::scenes;

fn pairs_per_body(scene: &scenes::Scene) -> (f64, usize) {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    scene.populate(&mut world).unwrap();
    let r = world.step();
    (
        r.candidate_pairs as f64 / scene.len() as f64,
        r.contacts.len(),
    )
}

#[test]
fn soup_has_about_one_and_a_half_aabb_pairs_per_body() {
    let (ppb, _) = pairs_per_body(&scenes::soup(4000, 1));
    eprintln!("soup pairs per body {ppb}");
    assert!((1.2..1.8).contains(&ppb), "{ppb}");
}

#[test]
fn hulls_density() {
    let (ppb, _) = pairs_per_body(&scenes::hulls(2000, 1));
    eprintln!("hulls pairs per body {ppb}");
    assert!((1.0..2.0).contains(&ppb), "{ppb}");
}

#[test]
fn pile_pairs_are_all_face_contacts() {
    use sepax_pipeline::narrowphase::Feature;
    let scene = scenes::pile(501);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    scene.apply(&mut world, &handles, 1).unwrap();
    let r = world.step();
    // 50 columns of 10: 9 pairs inside each column + 1 with the ground.
    assert_eq!(r.contacts.len(), 500);
    assert_eq!(r.candidate_pairs, 500);
    for c in &r.contacts {
        assert!(matches!(
            c.manifold.feature,
            Feature::FaceA(_) | Feature::FaceB(_)
        ));
        assert_eq!(c.manifold.points.len(), 4);
        for p in &c.manifold.points {
            assert!((p.depth - 0.01).abs() < 1e-4, "{}", p.depth);
        }
    }
}

/// The hull pile rests as its docs say: every pair a shallow face contact (sunk 0.01,
/// each hull swaying by 0.002) whose points span the touching faces, and from the
/// second step on the narrow phase's warm path answers nearly every pair (the scene
/// exists to measure it).
#[test]
fn hull_pile_pairs_are_shallow_face_contacts_kept_warm() {
    use sepax_pipeline::narrowphase::Feature;
    let scene = scenes::hull_pile(501, 3);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    for frame in 1..6 {
        scene.apply(&mut world, &handles, frame).unwrap();
        let r = world.step();
        // 50 columns of 10: 9 pairs inside each column + 1 with the ground.
        assert_eq!(r.candidate_pairs, 500, "frame {frame}");
        assert_eq!(r.contacts.len(), 500, "frame {frame}");
        for c in &r.contacts {
            assert!(
                matches!(c.manifold.feature, Feature::FaceA(_) | Feature::FaceB(_)),
                "frame {frame}: {:?}",
                c.manifold.feature
            );
            assert!(c.manifold.points.len() >= 3, "frame {frame}");
            let deepest = c
                .manifold
                .points
                .iter()
                .map(|p| p.depth)
                .fold(0.0, f32::max);
            assert!(
                (0.005..0.015).contains(&deepest),
                "frame {frame}: {deepest}"
            );
            // The points span the contact (the smaller 12-gon, radius 0.4: a largest
            // triangle of 0.16 for four points at its rim), not a sliver of it: a
            // clipper given part of a face (parry3d 0.31 takes a face's first four
            // vertices) gives one point near the rim here.
            let points: Vec<_> = c.manifold.points.iter().map(|p| p.position).collect();
            let mut largest = 0.0f32;
            for (i, &p) in points.iter().enumerate() {
                for (j, &q) in points.iter().enumerate().skip(i + 1) {
                    for &r in &points[j + 1..] {
                        largest = largest.max(0.5 * (q - p).cross(r - p).length());
                    }
                }
            }
            assert!(largest > 0.1, "frame {frame}: largest triangle {largest}");
        }
        if frame > 1 {
            let kept = r.kept_pairs;
            assert!(
                kept * 100 >= 95 * r.candidate_pairs,
                "frame {frame}: {kept} kept"
            );
        }
    }
}

#[test]
fn static_heavy_has_statics_and_movers() {
    let scene = scenes::by_name("static-heavy", 5100, 1).unwrap();
    let movers = (0..scene.len()).filter(|&i| scene.is_moving(i)).count();
    assert_eq!((scene.len(), movers), (5100, 100));
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    scene.populate(&mut world).unwrap();
    let r = world.step();
    assert!(r.candidate_pairs > 50 && !r.contacts.is_empty());
}

#[test]
fn poses_are_a_pure_function_of_the_frame() {
    let scene = scenes::soup(50, 3);
    let again = scenes::soup(50, 3);
    for i in 0..50 {
        assert_eq!(scene.pose(i, 17), again.pose(i, 17));
        let step = (scene.pose(i, 1).translation - scene.pose(i, 0).translation).length();
        assert!(step > 0.0 && step <= 0.0151, "{step}"); // ≤ 1% of a size ≤ 1.5
    }
}

/// `large-world` by name: 100 movers and the rest static tiles; every mover rests on
/// the floor (touches a tile) at every frame, and touches one to four tiles.
#[test]
fn large_world_movers_rest_on_the_floor() {
    let scene = scenes::by_name("large-world", 10_100, 1).unwrap();
    assert_eq!((scene.len(), scene.movers().len()), (10_100, 100));
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    let is_static = |i: u32| !scene.is_moving(i as usize);
    for frame in [0, 30, 77] {
        scene.apply(&mut world, &handles, frame).unwrap();
        let r = world.step();
        let mut tiles = vec![0; scene.len()];
        for c in r.contacts.iter().filter(|c| c.touching) {
            let (a, b) = (c.a.index(), c.b.index());
            if is_static(a) != is_static(b) {
                tiles[a.max(b) as usize] += 1; // movers come after the statics
            }
        }
        for &m in scene.movers() {
            assert!(
                (1..=4).contains(&tiles[m]),
                "frame {frame}: mover {m} on {} tiles",
                tiles[m]
            );
        }
    }
}
