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
//! commit message. Pinned for x86-64 (SSE2, no FMA: the default target), where it was
//! measured.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::{Contact, Feature, Manifold, PairCache, collide, contact};
use sepax_testkit::pairs::{Pair, capsule_box_pairs, capsule_capsule_pairs};
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::shapes::{random_capsule, random_cuboid};

/// The hash of `fingerprint`: changed on purpose only.
const FINGERPRINT: u64 = 0x3cd0_748c_3543_9e6d;

/// FNV-1a, 64 bits: stable across Rust versions and platforms.
struct Fnv(u64);

impl Fnv {
    fn u64(&mut self, v: u64) {
        for byte in v.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn vec3(&mut self, v: Vec3) {
        for c in v.to_array() {
            self.u64(c.to_bits() as u64);
        }
    }
    fn feature(&mut self, feature: Feature) {
        let (kind, i, j) = match feature {
            Feature::FaceA(i) => (0, i, 0),
            Feature::FaceB(i) => (1, i, 0),
            Feature::EdgeEdge(i, j) => (2, i, j),
            Feature::Sphere => (3, 0, 0),
        };
        self.u64(kind);
        self.u64(((i as u64) << 32) | j as u64);
    }
    fn manifold(&mut self, m: &Option<Manifold>) {
        let Some(m) = m else {
            self.u64(u64::MAX);
            return;
        };
        self.vec3(m.normal);
        self.feature(m.feature);
        self.u64(m.points.len() as u64);
        for p in &m.points {
            self.vec3(p.position);
            self.u64(p.depth.to_bits() as u64);
            self.u64(p.id);
            self.vec3(p.anchor_a);
            self.vec3(p.anchor_b);
        }
    }
    fn contact(&mut self, c: &Option<Contact>) {
        let Some(c) = c else {
            self.u64(u64::MAX - 1);
            return;
        };
        self.vec3(c.normal);
        self.u64(c.depth.to_bits() as u64);
        self.feature(c.feature);
    }
}

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
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut pairs, mut touching) = (0, 0);
    let bench = capsule_box_pairs(0xca95_b0c5, 5_000)
        .into_iter()
        .chain(capsule_capsule_pairs(0xca95_ca95, 5_000));
    for (k, pair) in bench.enumerate() {
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let swapped = Pair {
            a: pair.b.clone(),
            pose_a: pair.pose_b,
            b: pair.a.clone(),
            pose_b: pair.pose_a,
        };
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
