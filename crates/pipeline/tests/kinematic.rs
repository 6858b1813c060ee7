//! Kinematic bodies (issue 8, item 7): paired with dynamic bodies only. Kinematic–static
//! and kinematic–kinematic overlaps give no candidate, no contact and no event; the
//! rest of the world is unchanged, checked against the same world with every
//! kinematic body made dynamic.

use glam::Vec3;
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Cuboid, Pose, Shape};
use sepax_pipeline::{
    BodyDesc, BodyHandle, BodyKind, CollisionWorld, Config, ContactEvent, EndCause, EventKind,
};

fn cube() -> Cuboid {
    Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap()
}

fn at(x: f32, y: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, y, 0.0))
}

fn floor() -> BodyDesc {
    let slab = Cuboid::try_from_half_extents(Vec3::new(10.0, 0.5, 10.0)).unwrap();
    BodyDesc::fixed(slab, at(0.0, -0.5))
}

#[test]
fn kinematic_pairs_only_with_dynamic_bodies() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let ground = world.insert(floor()).unwrap();
    // Two kinematic boxes sunk into the floor and into each other.
    let k1 = world
        .insert(BodyDesc::kinematic(cube(), at(0.0, 0.4)))
        .unwrap();
    let k2 = world
        .insert(BodyDesc::kinematic(cube(), at(0.9, 0.4)))
        .unwrap();
    assert_eq!(world.kind(k1), Ok(BodyKind::Kinematic));
    let r = world.step();
    assert!(r.contacts.is_empty() && r.events.is_empty());
    assert_eq!(r.candidate_pairs, 0);
    assert!(world.candidate_pairs().is_empty());

    // A dynamic box sunk into the top of k1 (and clear of k2 and the floor).
    let d = world
        .insert(BodyDesc::dynamic(cube(), at(-0.2, 1.3)))
        .unwrap();
    let r = world.step();
    let pairs: Vec<_> = r.contacts.iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(pairs, vec![(k1, d)]);
    assert_eq!(
        r.events,
        vec![ContactEvent {
            a: k1,
            b: d,
            kind: EventKind::Started
        }]
    );
    assert_eq!(world.candidate_pairs(), vec![(k1, d)]);

    // The kinematic bodies move every frame (driven by the user), both into d: still
    // nothing with the floor or each other, whatever they overlap.
    for frame in 1..5 {
        let y = 0.3 + 0.02 * frame as f32;
        world.set_pose(k1, at(0.0, y)).unwrap();
        world.set_pose(k2, at(0.5, y)).unwrap();
        let r = world.step();
        assert!(
            r.contacts
                .iter()
                .all(|c| (c.a, c.b) != (ground, k1) && (c.a, c.b) != (k1, k2)),
            "frame {frame}"
        );
        let pairs: Vec<_> = r.contacts.iter().map(|c| (c.a, c.b)).collect();
        assert_eq!(pairs, vec![(k1, d), (k2, d)], "frame {frame}");
        assert!(r.events.iter().all(|e| e.b == d), "frame {frame}");
    }

    // Moving them away ends their contacts with d as any pair's would.
    world.set_pose(k1, at(5.0, 0.4)).unwrap();
    world.set_pose(k2, at(6.0, 0.4)).unwrap();
    let r = world.step();
    assert!(r.contacts.is_empty());
    let ended = |a| ContactEvent {
        a,
        b: d,
        kind: EventKind::Ended(EndCause::Separated),
    };
    assert_eq!(r.events, vec![ended(k1), ended(k2)]);
}

#[test]
fn dynamic_body_touches_kinematic_and_static_alike() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let ground = world.insert(floor()).unwrap();
    let k = world
        .insert(BodyDesc::kinematic(cube(), at(0.0, 0.45)))
        .unwrap();
    let d = world
        .insert(BodyDesc::dynamic(cube(), at(0.95, 0.45)))
        .unwrap();
    let r = world.step();
    let pairs: Vec<_> = r.contacts.iter().map(|c| (c.a, c.b)).collect();
    // d rests on the floor and leans on k; k against the floor is no pair.
    assert_eq!(pairs, vec![(ground, d), (k, d)]);
    let r = world.step();
    assert_eq!(r.contacts.len(), 2);
    assert!(r.events.is_empty());
}

#[test]
fn removed_kinematic_slot_is_reused_by_a_dynamic_body() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let ground = world.insert(floor()).unwrap();
    let k = world
        .insert(BodyDesc::kinematic(cube(), at(0.0, 0.4)))
        .unwrap();
    assert!(world.step().contacts.is_empty());
    world.remove(k).unwrap();
    assert!(world.step().events.is_empty(), "it never touched: no Ended");
    // The slot comes back for a dynamic body, which must pair with the floor again.
    let d = world
        .insert(BodyDesc::dynamic(cube(), at(0.0, 0.4)))
        .unwrap();
    assert_eq!(d.index(), k.index());
    assert_eq!(world.kind(d), Ok(BodyKind::Dynamic));
    let r = world.step();
    let pairs: Vec<_> = r.contacts.iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(pairs, vec![(ground, d)]);
}

#[test]
fn kinematic_world_reports_the_dynamic_world_minus_never_pairs() {
    // Boxes in a pile over a floor, a third of them kinematic. The same world with every
    // kinematic body made dynamic is the oracle: the kinematic world must report exactly
    // its contacts that involve a dynamic body, bit for bit, on every frame.
    let mut rng = Rng::new(42);
    let mut descs = vec![floor()];
    let mut kinds = vec![BodyKind::Static];
    for _ in 0..300 {
        let centre = rng.vec3(Vec3::new(-4.0, -0.2, -4.0), Vec3::new(4.0, 3.0, 4.0));
        let size = rng.vec3(Vec3::splat(0.3), Vec3::splat(1.2));
        let shape = Shape::from(Cuboid::try_from_size(size).unwrap());
        let kind = match rng.below(3) {
            0 => BodyKind::Kinematic,
            _ => BodyKind::Dynamic,
        };
        descs.push(BodyDesc {
            kind,
            ..BodyDesc::dynamic(shape, Pose::new(centre, rng.rotation()))
        });
        kinds.push(kind);
    }
    let mut kin = CollisionWorld::new(Config::default()).unwrap();
    let mut dyn_ = CollisionWorld::new(Config::default()).unwrap();
    let mut handles: Vec<BodyHandle> = Vec::new();
    // Handles carry their world: each world is moved through its own.
    let mut dyn_handles: Vec<BodyHandle> = Vec::new();
    for desc in &descs {
        handles.push(kin.insert(desc.clone()).unwrap());
        let kind = match desc.kind {
            BodyKind::Kinematic => BodyKind::Dynamic,
            k => k,
        };
        dyn_handles.push(
            dyn_.insert(BodyDesc {
                kind,
                ..desc.clone()
            })
            .unwrap(),
        );
    }
    let pairs_by_kind = |a: BodyHandle, b: BodyHandle| {
        kinds[a.index() as usize].pairs_with(kinds[b.index() as usize])
    };
    let mut skipped = 0;
    for frame in 0..4 {
        if frame > 0 {
            // Move every non-static body a little, the same way in both worlds.
            for (i, h) in handles.iter().enumerate().skip(1) {
                let pose = kin.pose(*h).unwrap();
                let step = rng.vec3(Vec3::splat(-0.05), Vec3::splat(0.05));
                let moved = Pose::new(pose.translation + step, pose.rotation);
                kin.set_pose(*h, moved).unwrap();
                dyn_.set_pose(dyn_handles[i], moved).unwrap();
            }
        }
        let all = dyn_.step().clone();
        let got = kin.step().clone();
        let strip = |v: &[sepax_pipeline::ContactPair]| -> Vec<_> {
            v.iter().map(|c| (c.a, c.b, c.manifold)).collect()
        };
        let want: Vec<_> = all
            .contacts
            .iter()
            .filter(|c| pairs_by_kind(c.a, c.b))
            .cloned()
            .collect();
        skipped += all.contacts.len() - want.len();
        assert!(
            want.len() > 50,
            "frame {frame}: too few contacts to mean anything"
        );
        assert_eq!(strip(&got.contacts), strip(&want), "frame {frame}");
        let want_events: Vec<_> = all
            .events
            .iter()
            .filter(|e| pairs_by_kind(e.a, e.b))
            .copied()
            .collect();
        assert_eq!(got.events, want_events, "frame {frame}");
        let want_candidates: Vec<_> = dyn_
            .candidate_pairs()
            .into_iter()
            .filter(|&(a, b)| pairs_by_kind(a, b))
            .collect();
        assert_eq!(kin.candidate_pairs(), want_candidates, "frame {frame}");
        assert_eq!(got.candidate_pairs, want_candidates.len());
    }
    assert!(
        skipped > 20,
        "the scene must have kinematic never-pairs to drop"
    );
}

#[test]
fn kind_table() {
    use BodyKind::{Dynamic, Kinematic, Static};
    let kinds = [Static, Dynamic, Kinematic];
    // Rows and columns in the order of `kinds`: a pair needs a dynamic body.
    let want = [
        [false, true, false],
        [true, true, true],
        [false, true, false],
    ];
    for (i, a) in kinds.iter().enumerate() {
        for (j, b) in kinds.iter().enumerate() {
            assert_eq!(a.pairs_with(*b), want[i][j], "{a:?} with {b:?}");
        }
    }
}

#[test]
fn queries_see_kinematic_bodies() {
    use sepax_pipeline::geometry::Aabb;
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let ground = world.insert(floor()).unwrap();
    let k = world
        .insert(BodyDesc::kinematic(cube(), at(0.0, 0.4)))
        .unwrap();
    world.step();
    let region = Aabb::new(Vec3::new(-0.1, 0.0, -0.1), Vec3::new(0.1, 0.1, 0.1));
    assert_eq!(world.query_aabb(&region).unwrap(), vec![ground, k]);
    let (body, hit) = world
        .cast_ray(Vec3::Y * 5.0, -Vec3::Y, 10.0)
        .unwrap()
        .unwrap();
    assert_eq!(body, k);
    assert!((hit.t - 4.1).abs() < 1e-5);
}
