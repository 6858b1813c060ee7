//! Two valid poses further apart than f32 can hold: each translation finite, their
//! difference not (or the difference finite but overflowing once turned into a shape's
//! frame). Every pair of shape kinds (sphere, box, hull, capsule) in both orders is apart
//! for `contact`, `contact_with`, `collide` (even with a huge margin) and `intersects`,
//! and `distance` is infinite. Before, sphere–hull, sphere–capsule and capsule–capsule
//! pairs so far apart came out as deep contacts (one with a NaN depth): the overflowed
//! offset had no direction.

use glam::{Quat, Vec3};
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere};
use sepax_narrowphase::{
    PairCache, SupportMode, collide, contact, contact_with, distance, intersects,
};

fn shapes() -> [Shape; 4] {
    [
        Shape::from(Sphere::try_new(1.0).unwrap()),
        Shape::from(Cuboid::try_from_half_extents(Vec3::new(1.0, 0.5, 2.0)).unwrap()),
        Shape::from(ConvexHull::cuboid(Vec3::new(1.0, 2.0, 0.5)).unwrap()),
        Shape::from(Capsule::try_new(1.0, 0.5).unwrap()),
    ]
}

/// Pose pairs: along x at ±3e38 and ±f32::MAX (the difference overflows), and a
/// diagonal one whose difference is finite but whose length is not, turned 45°.
fn far_pose_pairs() -> Vec<(Pose, Pose)> {
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    let mut pairs: Vec<(Pose, Pose)> = [3e38f32, f32::MAX]
        .iter()
        .map(|&x| {
            (
                Pose::from_translation(Vec3::new(-x, 0.0, 0.0)),
                Pose::from_translation(Vec3::new(x, 1.0, 0.0)),
            )
        })
        .collect();
    pairs.push((
        Pose::new(Vec3::new(-1.7e38, -1.7e38, 0.0), turn),
        Pose::new(Vec3::new(1.6e38, 1.6e38, 0.0), turn.conjugate()),
    ));
    pairs
}

#[test]
fn shapes_further_apart_than_f32_holds_are_apart() {
    let shapes = shapes();
    for (pose_a, pose_b) in far_pose_pairs() {
        assert!(pose_a.is_valid() && pose_b.is_valid());
        for a in &shapes {
            for b in &shapes {
                let label = format!("{a:?} at {pose_a:?} and {b:?} at {pose_b:?}");
                for margin in [0.0, 1e30] {
                    assert_eq!(contact(a, &pose_a, b, &pose_b, margin), None, "{label}");
                    assert_eq!(contact(b, &pose_b, a, &pose_a, margin), None, "{label}");
                    let scan = contact_with(a, &pose_a, b, &pose_b, margin, SupportMode::Scan);
                    assert_eq!(scan, None, "{label}");
                    let mut cache = PairCache::default();
                    let m = collide(a, &pose_a, b, &pose_b, margin, &mut cache);
                    assert!(m.is_none(), "{label}: {m:?}");
                    let m = collide(b, &pose_b, a, &pose_a, margin, &mut cache);
                    assert!(m.is_none(), "{label}: {m:?}");
                }
                assert!(!intersects(a, &pose_a, b, &pose_b), "{label}");
                assert!(!intersects(b, &pose_b, a, &pose_a), "{label}");
                let d = distance(a, &pose_a, b, &pose_b);
                assert!(d.is_ok_and(|d| d > 1e38), "{label}: {d:?}");
            }
        }
    }
}

/// The batched box queries leave such pairs out as `collide` does, whatever the lane:
/// among near pairs that touch, the far ones answer `None`.
#[test]
fn batched_box_pairs_further_apart_than_f32_holds_are_apart() {
    use sepax_narrowphase::{BoxBoxPair, collide_box_pairs, contact_box_pairs};
    let cuboid = Cuboid::try_from_half_extents(Vec3::new(1.0, 0.5, 2.0)).unwrap();
    let near = (
        Pose::IDENTITY,
        Pose::from_translation(Vec3::new(1.5, 0.2, 0.0)),
    );
    let mut pairs = Vec::new();
    for (k, (pose_a, pose_b)) in far_pose_pairs().into_iter().cycle().take(6).enumerate() {
        let (pose_a, pose_b) = if k % 2 == 0 { (pose_a, pose_b) } else { near };
        pairs.push(BoxBoxPair {
            a: cuboid,
            pose_a,
            b: cuboid,
            pose_b,
        });
    }
    for margin in [0.0, 1e30] {
        let mut caches = vec![PairCache::default(); pairs.len()];
        let mut manifolds = vec![None; pairs.len()];
        collide_box_pairs(&pairs, margin, &mut caches, &mut manifolds);
        let mut contacts = vec![None; pairs.len()];
        contact_box_pairs(&pairs, margin, &mut contacts);
        for k in 0..pairs.len() {
            let far = k % 2 == 0;
            assert_eq!(manifolds[k].is_none(), far, "pair {k}, margin {margin}");
            assert_eq!(contacts[k].is_none(), far, "pair {k}, margin {margin}");
        }
    }
}
