//! A pinned hash of hull answers: `collide` (cold, then warm along a short motion with
//! the cache kept) and `contact` of 40,000 pairs with a hull on at least one side:
//! hull–hull (4 to 64 points, round and flattened), box–hull and hull–box, hashed
//! (FNV-1a over the bit patterns of every normal, point, depth, id, anchor and feature).
//!
//! Placements: the benches' touching hull pairs (`hull_pairs` of 8, 24 and 64 points,
//! both orders), and random shapes at random poses whose centres are 0–2.5 apart (deep,
//! touching and separated), a fifth of them with a margin. Each pair is then moved
//! three times by up to 2% of its size and 0.02 rad, querying with the cache it left:
//! the warm path.
//!
//! Speed-ups of the hull SAT (the SIMD edge and face queries, the warm path) must not
//! change an answer: any changed bit changes the hash. Update `FINGERPRINT` on purpose
//! only, with the reason in the commit message. Pinned for x86-64 (SSE2, no FMA: the
//! default target), where it was measured.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape};
use sepax_testkit::fingerprint::{Fnv, hash_cold_then_warm};
use sepax_testkit::pairs::{Pair, hull_pairs};
use sepax_testkit::shapes::{ball_hull, ellipsoid_hull_with, random_cuboid};

/// The hash of `fingerprint`: changed on purpose only.
const FINGERPRINT: u64 = 0x4245_1d81_cf4c_bc63;

/// A random hull: 4–64 points in a ball, or an ellipsoid's, a quarter of them flat.
fn random_hull(rng: &mut Rng) -> Shape {
    let n = 4 + (rng.next_u64() % 61) as usize;
    match rng.next_u64() % 4 {
        0 => Shape::from(ball_hull(rng, n, 0.2, 0.8)),
        1 => ellipsoid_hull_with(rng, n, Vec3::new(0.8, 0.05, 0.6)),
        _ => {
            let radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(0.9));
            ellipsoid_hull_with(rng, n, radii)
        }
    }
}

fn fingerprint() -> (u64, usize, usize) {
    let mut hash = Fnv::new();
    let mut rng = Rng::new(0x4011_f1a9);
    let (mut pairs, mut touching) = (0, 0);
    let bench = hull_pairs(0x4011_0008, 2_000, 8)
        .into_iter()
        .chain(hull_pairs(0x4011_0024, 2_000, 24))
        .chain(hull_pairs(0x4011_0064, 1_000, 64));
    for (k, pair) in bench.enumerate() {
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let swapped = pair.swapped();
        touching += hash_cold_then_warm(&mut hash, &mut rng, &pair, margin) as usize;
        touching += hash_cold_then_warm(&mut hash, &mut rng, &swapped, margin) as usize;
        pairs += 2;
    }
    for k in 0..30_000 {
        let a = random_hull(&mut rng);
        let b = if k % 3 == 0 {
            random_cuboid(&mut rng)
        } else {
            random_hull(&mut rng)
        };
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let centre = rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0));
        let offset = rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)) * rng.range(0.0, 1.5);
        let (pose_a, pose_b) = (
            Pose::new(centre, rng.rotation()),
            Pose::new(centre + offset, rng.rotation()),
        );
        let pair = if k % 2 == 0 {
            Pair {
                a,
                pose_a,
                b,
                pose_b,
            }
        } else {
            Pair {
                a: b,
                pose_a: pose_b,
                b: a,
                pose_b: pose_a,
            }
        };
        touching += hash_cold_then_warm(&mut hash, &mut rng, &pair, margin) as usize;
        pairs += 1;
    }
    (hash.0, pairs, touching)
}

#[test]
fn hull_answers_match_the_pinned_fingerprint() {
    let (hash, pairs, touching) = fingerprint();
    assert_eq!(pairs, 40_000);
    assert!(
        touching > 10_000 && touching < 38_000,
        "{touching} touching"
    );
    if cfg!(target_arch = "x86_64") {
        assert_eq!(hash, FINGERPRINT, "the answers changed: {hash:#x}");
    }
}
