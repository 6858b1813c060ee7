//! A pinned hash of capsule answers: `collide` (cold, then warm with the same cache) and
//! `contact` of 60,000 pairs with a capsule on one side: capsule–box, box–capsule,
//! capsule–hull, capsule–capsule and capsule–sphere, hashed (FNV-1a over the bit
//! patterns of every normal, point, depth, id, anchor and feature).
//!
//! Placements: the benches' touching pairs (`capsule_box_pairs`,
//! `capsule_capsule_pairs`, both orders), and random shapes at random poses whose
//! centres are 0–3 apart (deep, touching and separated), a fifth of them with a margin.
//!
//! Speed-ups of the capsule narrow phase must not change an answer: any change of a bit
//! changes the hash. Update `FINGERPRINT` on purpose only, with the reason in the
//! commit message. The random pairs' near-touching placements come from the capsule
//! oracle (`sepax_testkit::pairs`), so a change of the oracle's round-off moves them
//! and re-pins the hash too (2 December 2026: the oracle measures the hull of a hull's
//! vertices; every answer compared pair by pair, none changed). Pinned for x86-64 (SSE2, no FMA: the default target), where it was
//! measured.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::{PairCache, collide, contact};
use sepax_testkit::fingerprint::Fnv;
use sepax_testkit::pairs::{Pair, capsule_box_pairs, capsule_capsule_pairs};
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::shapes::{random_capsule, random_cuboid};

/// The hash of `fingerprint`: changed on purpose only.
const FINGERPRINT: u64 = 0x60e2_03e5_3d7c_167f;

/// Hashes every answer for one pair; returns whether `collide` found a manifold.
fn hash_pair(hash: &mut Fnv, pair: &Pair, margin: f32) -> bool {
    let mut cache = PairCache::default();
    let cold = collide(
        &pair.a,
        &pair.pose_a,
        &pair.b,
        &pair.pose_b,
        margin,
        &mut cache,
    );
    let warm = collide(
        &pair.a,
        &pair.pose_a,
        &pair.b,
        &pair.pose_b,
        margin,
        &mut cache,
    );
    hash.manifold(&cold);
    hash.manifold(&warm);
    hash.contact(&contact(
        &pair.a,
        &pair.pose_a,
        &pair.b,
        &pair.pose_b,
        margin,
    ));
    cold.is_some()
}

/// The other shape of a random pair: box, hull, capsule or sphere by `k`.
fn other_shape(rng: &mut Rng, k: usize) -> Shape {
    match k % 4 {
        0 => random_cuboid(rng),
        1 => Shape::from(scene_hull(rng)),
        2 => random_capsule(rng),
        _ => Shape::from(Sphere::try_new(rng.range(0.1, 1.0)).unwrap()),
    }
}

fn fingerprint() -> (u64, usize, usize) {
    let mut hash = Fnv::new();
    let (mut pairs, mut touching) = (0, 0);
    let bench = capsule_box_pairs(0xca95_b0c5, 5_000)
        .into_iter()
        .chain(capsule_capsule_pairs(0xca95_ca95, 5_000));
    for (k, pair) in bench.enumerate() {
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let swapped = pair.swapped();
        touching += hash_pair(&mut hash, &pair, margin) as usize;
        touching += hash_pair(&mut hash, &swapped, margin) as usize;
        pairs += 2;
    }
    let mut rng = Rng::new(0xca95_5eed);
    for k in 0..40_000 {
        let capsule = random_capsule(&mut rng);
        let other = other_shape(&mut rng, k);
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let centre = rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0));
        let offset = rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)) * rng.range(0.0, 3.0);
        let (pose_c, pose_o) = (
            Pose::new(centre, rng.rotation()),
            Pose::new(centre + offset, rng.rotation()),
        );
        let pair = if k % 8 < 4 {
            Pair {
                a: capsule,
                pose_a: pose_c,
                b: other,
                pose_b: pose_o,
            }
        } else {
            Pair {
                a: other,
                pose_a: pose_o,
                b: capsule,
                pose_b: pose_c,
            }
        };
        touching += hash_pair(&mut hash, &pair, margin) as usize;
        pairs += 1;
    }
    (hash.0, pairs, touching)
}

#[test]
fn capsule_answers_match_the_pinned_fingerprint() {
    let (hash, pairs, touching) = fingerprint();
    assert_eq!(pairs, 60_000);
    assert!(
        touching > 15_000 && touching < 55_000,
        "{touching} touching"
    );
    if cfg!(target_arch = "x86_64") {
        assert_eq!(hash, FINGERPRINT, "the answers changed: {hash:#x}");
    }
}
