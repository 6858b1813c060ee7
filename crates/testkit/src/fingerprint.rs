//! A stable hash of narrow-phase answers, for tests that pin every bit of many
//! manifolds with one constant (the hull, box, mesh and capsule fingerprint tests): FNV-1a, 64
//! bits, over the bit patterns of normals, positions, depths, ids, anchors and
//! features, in a fixed order. Stable across Rust versions and platforms (no
//! `std::hash` involved).

use crate::pairs::Pair;
use glam::{Quat, Vec3};
use sepax_geometry::Pose;
use sepax_geometry::rng::Rng;
use sepax_narrowphase::{Contact, Feature, Manifold, PairCache, collide, contact};

/// FNV-1a (64 bits) over what it is fed. Start from [`Fnv::new`]; read the hash in
/// `.0`.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// The FNV-1a offset basis.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// The eight little-endian bytes of `v`.
    pub fn u64(&mut self, v: u64) {
        for byte in v.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The bits of x, y, z.
    pub fn vec3(&mut self, v: Vec3) {
        for c in v.to_array() {
            self.u64(c.to_bits() as u64);
        }
    }

    /// A feature as `(kind, i << 32 | j)`.
    pub fn feature(&mut self, feature: Feature) {
        let (kind, i, j) = match feature {
            Feature::FaceA(i) => (0, i, 0),
            Feature::FaceB(i) => (1, i, 0),
            Feature::EdgeEdge(i, j) => (2, i, j),
            Feature::Sphere => (3, 0, 0),
            Feature::Closest(i, j) => (4, i, j),
        };
        self.u64(kind);
        self.u64(((i as u64) << 32) | j as u64);
    }

    /// A manifold (`u64::MAX` for none): normal, feature, point count, then per point
    /// position, depth, id and both anchors.
    pub fn manifold(&mut self, m: &Option<Manifold>) {
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

    /// A contact (`u64::MAX − 1` for none): normal, depth, feature.
    pub fn contact(&mut self, c: &Option<Contact>) {
        let Some(c) = c else {
            self.u64(u64::MAX - 1);
            return;
        };
        self.vec3(c.normal);
        self.u64(c.depth.to_bits() as u64);
        self.feature(c.feature);
    }
}

/// Hashes one pair's answers as the hull and box fingerprint tests pin them: `collide`
/// with a cold cache, `contact`, then `collide` after each of three moves of b (up to
/// 1% of the pair's size along each axis and 0.01 rad about each, drawn from `rng`)
/// with the cache the last call left: the warm path. Returns whether the first
/// `collide` found a manifold.
pub fn hash_cold_then_warm(hash: &mut Fnv, rng: &mut Rng, pair: &Pair, margin: f32) -> bool {
    let mut cache = PairCache::default();
    let (a, b) = (&pair.a, &pair.b);
    let cold = collide(a, &pair.pose_a, b, &pair.pose_b, margin, &mut cache);
    hash.manifold(&cold);
    hash.contact(&contact(a, &pair.pose_a, b, &pair.pose_b, margin));
    let size = a.bounding_radius() + b.bounding_radius();
    let mut pose_b = pair.pose_b;
    for _ in 0..3 {
        let step = rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)) * (0.01 * size);
        let turn = Quat::from_scaled_axis(rng.vec3(Vec3::splat(-0.01), Vec3::splat(0.01)));
        pose_b = Pose::new(
            pose_b.translation + step,
            (turn * pose_b.rotation).normalize(),
        );
        let warm = collide(a, &pair.pose_a, b, &pose_b, margin, &mut cache);
        hash.manifold(&warm);
    }
    cold.is_some()
}
