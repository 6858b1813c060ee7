//! The batched box–box queries against the scalar ones, bit for bit (issue 13, items 1
//! and 2): `collide_box_pairs` / `contact_box_pairs` must give, for every pair, the
//! very bits `collide` / `contact` give on that pair alone — at every SIMD level this
//! CPU can take (the scalar twin included), in both argument orders, with cold and warm
//! caches, in full and padded bundles, whichever lane the pair lands in.
//!
//! 100,000+ pairs in batches of 1..=24 (so most bundles are padded), under the shared
//! placements (general, coincident centres, parallel faces, edge on edge, near
//! touching) and this test's own (resting, flush, deep, far apart, a gap near the
//! margin), a fifth of the batches 1e4 from the origin; a third of the batches use one
//! placement throughout, so that whole bundles take the face early out.
//!
//! The dev profile (opt-level 1) does not auto-vectorise the lane loops, so it checks
//! the logic; `cargo test --release -p sepax-narrowphase --test box_batch_bitwise`
//! checks the vector code itself (SSE2 and AVX2 on x86-64).

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Cuboid, Pose, Shape};
use sepax_narrowphase::{
    BoxBoxPair, Contact, Feature, Manifold, PairCache, SimdLevel, collide, collide_box_pairs_at,
    collide_box_pairs_scattered, collide_box_pairs_with_at, contact, contact_box_pairs_at,
};
use sepax_testkit::pairs::{PLACEMENTS, oracle, place};
use sepax_testkit::shapes::random_cuboid;

#[derive(Clone, Copy, Debug)]
enum Placement {
    Shared(usize),
    /// b on a's top face, 1% of its height into it, turned about a's y axis.
    Resting,
    /// b on a's top face, same rotation, the faces at the same height.
    Flush,
    /// Centres 0.3 × the summed bounding radii apart.
    Deep,
    /// Centres 3 × the summed bounding radii apart: a face axis separates.
    Far,
    /// The oracle's gap set to the margin (0.02) ± 20 %.
    NearMargin,
}

const ALL: [Placement; 10] = [
    Placement::Shared(0),
    Placement::Shared(1),
    Placement::Shared(2),
    Placement::Shared(3),
    Placement::Shared(4),
    Placement::Resting,
    Placement::Flush,
    Placement::Deep,
    Placement::Far,
    Placement::NearMargin,
];

const MARGIN: f32 = 0.02;

fn cuboid(shape: &Shape) -> Cuboid {
    match shape {
        Shape::Cuboid(c) => *c,
        _ => unreachable!("boxes only"),
    }
}

fn make_pair(rng: &mut Rng, placement: Placement) -> BoxBoxPair {
    let (a, b) = (random_cuboid(rng), random_cuboid(rng));
    let (ha, hb) = (cuboid(&a).half_extents(), cuboid(&b).half_extents());
    let reach = a.bounding_radius() + b.bounding_radius();
    let origin = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
    let (pose_a, pose_b) = match placement {
        Placement::Shared(k) => place(rng, &a, &b, PLACEMENTS[k]),
        Placement::Resting | Placement::Flush => {
            let pa = Pose::new(origin, rng.rotation());
            let sink = if matches!(placement, Placement::Resting) {
                0.01 * hb.y
            } else {
                0.0
            };
            let local = Vec3::new(
                rng.range(-0.5, 0.5) * ha.x,
                ha.y + hb.y - sink,
                rng.range(-0.5, 0.5) * ha.z,
            );
            let turn = if matches!(placement, Placement::Resting) {
                Quat::from_rotation_y(rng.range(-0.5, 0.5))
            } else {
                Quat::IDENTITY
            };
            (pa, Pose::new(pa.transform_point(local), pa.rotation * turn))
        }
        Placement::Deep => (
            Pose::new(origin, rng.rotation()),
            Pose::new(origin + rng.unit_vec3() * 0.3 * reach, rng.rotation()),
        ),
        Placement::Far => (
            Pose::new(origin, rng.rotation()),
            Pose::new(origin + rng.unit_vec3() * 3.0 * reach, rng.rotation()),
        ),
        Placement::NearMargin => {
            let (pa, mut pb) = place(rng, &a, &b, PLACEMENTS[0]);
            let o = oracle(&a, &pa, &b, &pb);
            let target = MARGIN * rng.range(0.8, 1.2);
            pb.translation += ((target as f64 - o.separation) * o.normal).as_vec3();
            (pa, pb)
        }
    };
    BoxBoxPair {
        a: cuboid(&a),
        pose_a,
        b: cuboid(&b),
        pose_b,
    }
}

fn reversed(p: &BoxBoxPair) -> BoxBoxPair {
    BoxBoxPair {
        a: p.b,
        pose_a: p.pose_b,
        b: p.a,
        pose_b: p.pose_a,
    }
}

fn feature_bits(f: Feature, out: &mut Vec<u64>) {
    out.extend(match f {
        Feature::FaceA(i) => [1, i as u64, 0],
        Feature::FaceB(i) => [2, i as u64, 0],
        Feature::EdgeEdge(i, j) => [3, i as u64, j as u64],
        Feature::Sphere => [4, 0, 0],
        Feature::Closest(i, j) => [5, i as u64, j as u64],
    });
}

fn vec_bits(v: Vec3, out: &mut Vec<u64>) {
    out.extend(v.to_array().map(|x| x.to_bits() as u64));
}

/// Every bit of a manifold (so that −0 and +0 differ, unlike `==` on floats).
fn manifold_bits(m: &Option<Manifold>) -> Vec<u64> {
    let mut out = Vec::new();
    if let Some(m) = m {
        vec_bits(m.normal, &mut out);
        feature_bits(m.feature, &mut out);
        for p in &m.points {
            vec_bits(p.position, &mut out);
            out.push(p.depth.to_bits() as u64);
            out.push(p.id);
            vec_bits(p.anchor_a, &mut out);
            vec_bits(p.anchor_b, &mut out);
        }
    }
    out
}

fn contact_bits(c: &Option<Contact>) -> Vec<u64> {
    let mut out = Vec::new();
    if let Some(c) = c {
        vec_bits(c.normal, &mut out);
        out.push(c.depth.to_bits() as u64);
        feature_bits(c.feature, &mut out);
    }
    out
}

/// The scalar answers of a batch: manifolds from `caches` (updated) and contacts.
fn scalar(
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let manifolds = pairs
        .iter()
        .zip(caches.iter_mut())
        .map(|(p, cache)| {
            let (a, b) = (Shape::from(p.a), Shape::from(p.b));
            manifold_bits(&collide(&a, &p.pose_a, &b, &p.pose_b, margin, cache))
        })
        .collect();
    let contacts = pairs
        .iter()
        .map(|p| {
            let (a, b) = (Shape::from(p.a), Shape::from(p.b));
            contact_bits(&contact(&a, &p.pose_a, &b, &p.pose_b, margin))
        })
        .collect();
    (manifolds, contacts)
}

/// Runs the batch at `level` from `caches` and checks every answer and cache against
/// the scalar ones.
fn check(
    level: SimdLevel,
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &[PairCache],
    want: &(Vec<Vec<u64>>, Vec<Vec<u64>>),
    want_caches: &[PairCache],
    what: &str,
) {
    let mut got_caches = caches.to_vec();
    let mut manifolds = vec![None; pairs.len()];
    collide_box_pairs_at(level, pairs, margin, &mut got_caches, &mut manifolds);
    let mut contacts = vec![None; pairs.len()];
    contact_box_pairs_at(level, pairs, margin, &mut contacts);
    // The same batch handed over by value (`collide_box_pairs_with`): each pair once,
    // in order, with its updated cache.
    let mut handed_caches = caches.to_vec();
    let mut handed = Vec::with_capacity(pairs.len());
    collide_box_pairs_with_at(level, pairs, margin, &mut handed_caches, |i, cache, m| {
        assert_eq!(i, handed.len(), "{what}: pairs handed in order");
        handed.push((manifold_bits(&m), *cache));
    });
    assert_eq!(handed.len(), pairs.len());
    // And scattered into slots that hold stale manifolds (the pipeline's way), in
    // reverse order within a longer slice, at the detected level.
    let scattered = (level == SimdLevel::detected()).then(|| {
        let stale = manifolds.iter().flatten().next().cloned();
        let mut slots = vec![stale; pairs.len() + 3];
        let place: Vec<usize> = (0..pairs.len()).rev().map(|i| i + 1).collect();
        let mut scattered_caches = caches.to_vec();
        let mut seen = Vec::new();
        collide_box_pairs_scattered(
            pairs,
            margin,
            &mut scattered_caches,
            &mut slots,
            &place,
            |i, cache, m| seen.push((i, manifold_bits(m), *cache)),
        );
        assert_eq!(seen.len(), pairs.len());
        (slots, place, scattered_caches, seen)
    });
    for i in 0..pairs.len() {
        assert_eq!(
            handed[i].0, want.0[i],
            "{what}, {level:?}, pair {i}: handed"
        );
        assert_eq!(
            handed[i].1, want_caches[i],
            "{what}, pair {i}: handed cache"
        );
        if let Some((slots, place, scattered_caches, seen)) = &scattered {
            let bits = manifold_bits(&slots[place[i]]);
            assert_eq!(bits, want.0[i], "{what}, pair {i}: scattered");
            assert_eq!(
                seen[i],
                (i, bits, want_caches[i]),
                "{what}: finish of pair {i}"
            );
            assert_eq!(scattered_caches[i], want_caches[i], "{what}, pair {i}");
        }
        assert_eq!(
            manifold_bits(&manifolds[i]),
            want.0[i],
            "{what}, {level:?}, pair {i} of {}: manifold {:?}",
            pairs.len(),
            pairs[i]
        );
        assert_eq!(
            got_caches[i], want_caches[i],
            "{what}, {level:?}, pair {i}: cache"
        );
        assert_eq!(
            contact_bits(&contacts[i]),
            want.1[i],
            "{what}, {level:?}, pair {i}: contact"
        );
    }
}

#[test]
fn batched_box_pairs_match_the_scalar_queries_bit_for_bit() {
    let levels = SimdLevel::available();
    assert!(levels.contains(&SimdLevel::Scalar) && levels.contains(&SimdLevel::Baseline));
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        assert!(levels.contains(&SimdLevel::Avx2));
        assert_eq!(SimdLevel::detected(), SimdLevel::Avx2);
    }
    let mut rng = Rng::new(0x05EB_AB17);
    let (mut total, mut touching, mut batches) = (0usize, 0usize, 0usize);
    while total < 100_000 {
        let len = 1 + rng.below(24);
        let margin = if batches % 3 == 0 { MARGIN } else { 0.0 };
        let one_placement = (rng.below(3) == 0).then(|| ALL[rng.below(ALL.len())]);
        let far = batches % 5 == 0;
        let mut pairs: Vec<BoxBoxPair> = (0..len)
            .map(|_| {
                let placement = one_placement.unwrap_or_else(|| ALL[rng.below(ALL.len())]);
                make_pair(&mut rng, placement)
            })
            .collect();
        if far {
            let shift = Vec3::new(1e4, -1e4, 1e4);
            for p in &mut pairs {
                p.pose_a.translation += shift;
                p.pose_b.translation += shift;
            }
        }
        let cold = vec![PairCache::default(); len];

        // Cold, in the caller's order and reversed.
        let mut warm = cold.clone();
        let want = scalar(&pairs, margin, &mut warm);
        touching += want.0.iter().filter(|m| !m.is_empty()).count();
        let flipped: Vec<BoxBoxPair> = pairs.iter().map(reversed).collect();
        let mut warm_flipped = cold.clone();
        let want_flipped = scalar(&flipped, margin, &mut warm_flipped);
        // The same pairs in reverse order: every pair in another lane.
        let shuffled: Vec<BoxBoxPair> = pairs.iter().rev().copied().collect();
        let mut shuffled_caches = cold.clone();
        let want_shuffled = scalar(&shuffled, margin, &mut shuffled_caches);
        // Warm: b nudged, from the caches the cold queries left.
        let nudged: Vec<BoxBoxPair> = pairs
            .iter()
            .map(|p| BoxBoxPair {
                pose_b: Pose::new(
                    p.pose_b.translation + rng.vec3(Vec3::splat(-1e-3), Vec3::splat(1e-3)),
                    (Quat::from_rotation_y(rng.range(-1e-3, 1e-3)) * p.pose_b.rotation).normalize(),
                ),
                ..*p
            })
            .collect();
        let mut warm_after = warm.clone();
        let want_warm = scalar(&nudged, margin, &mut warm_after);

        for &level in &levels {
            check(level, &pairs, margin, &cold, &want, &warm, "cold");
            check(
                level,
                &flipped,
                margin,
                &cold,
                &want_flipped,
                &warm_flipped,
                "reversed",
            );
            check(
                level,
                &shuffled,
                margin,
                &cold,
                &want_shuffled,
                &shuffled_caches,
                "lanes permuted",
            );
            check(
                level,
                &nudged,
                margin,
                &warm,
                &want_warm,
                &warm_after,
                "warm",
            );
        }

        // The same pair in all 8 lanes (warm), now and then.
        if batches % 16 == 0 {
            let k = rng.below(len);
            let eight = [nudged[k]; 8];
            let caches = [warm[k]; 8];
            let mut after = caches;
            let want = scalar(&eight, margin, &mut after);
            for &level in &levels {
                check(
                    level,
                    &eight,
                    margin,
                    &caches,
                    &want,
                    &after,
                    "same pair in every lane",
                );
            }
        }
        total += len;
        batches += 1;
    }
    assert!(
        touching > total / 3,
        "{touching} manifolds in {total} pairs"
    );
}

/// Bad input in a batch: poses with NaN or infinite parts, non-unit rotations and huge
/// translations, mixed into bundles with good pairs, under NaN, negative and infinite
/// margins. Each pair gets what `collide` / `contact` give it alone (bit for bit, no
/// panic), and a bad pair does not disturb the good pairs of its bundle.
#[test]
fn bad_poses_and_margins_in_a_batch_match_the_scalar_queries() {
    let bad_poses = [
        Pose::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(0.0, f32::INFINITY, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        Pose::new(Vec3::splat(f32::MAX), Quat::IDENTITY),
        Pose::new(Vec3::splat(-3e38), Quat::from_rotation_z(0.3)),
    ];
    let mut rng = Rng::new(0xBAD_B0C5);
    let mut checked = 0;
    for margin in [0.0, MARGIN, -1.0, f32::NAN, f32::INFINITY, f32::MAX] {
        for round in 0..40 {
            let len = 1 + rng.below(20);
            let mut pairs: Vec<BoxBoxPair> = (0..len)
                .map(|_| {
                    let placement = ALL[rng.below(ALL.len())];
                    make_pair(&mut rng, placement)
                })
                .collect();
            // Spoil a few pairs' poses (a's, b's or both).
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(len);
                let bad = bad_poses[rng.below(bad_poses.len())];
                match (round + i) % 3 {
                    0 => pairs[i].pose_a = bad,
                    1 => pairs[i].pose_b = bad,
                    _ => (pairs[i].pose_a, pairs[i].pose_b) = (bad, bad),
                }
            }
            let cold = vec![PairCache::default(); len];
            let mut after = cold.clone();
            let want = scalar(&pairs, margin, &mut after);
            for level in SimdLevel::available() {
                check(level, &pairs, margin, &cold, &want, &after, "bad input");
            }
            checked += len;
        }
    }
    assert!(checked > 1_000);
}
