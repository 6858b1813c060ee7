//! Sphere–box answers against the f64 oracle on 120,000 pairs: the sphere path that
//! takes the box's clamp in the box's frame, without the relative frame (`sphere_pair`).
//!
//! Boxes from thin plates (a side of 0.002) to long bars and cubes, and the sphere's
//! centre put where each kind of feature is closest: inside, on a face (exactly, or a
//! hair in front or behind), near an edge (out along a direction of its wedge of
//! normals), near a corner, far away, or anywhere around; poses up to 10,000 from the
//! origin, where the centre's offset is rounded. Each pair runs with a margin wide
//! enough that every one gets a contact, so the depth is the signed distance minus the
//! radius everywhere, and is checked:
//! * the depth against `oracle::sphere_separation` (the clamp of the centre in f64)
//!   within `1e-6 ×` the size plus the rounding of the centre's coordinates and of the
//!   separation (`1e-4 ×` the size until 5 December 2026);
//! * the normal: the gap of the two shapes along it (`oracle::gap_along`, f64) is the
//!   separation, as only a direction in the closest feature's cone of normals makes it;
//! * the box's anchor is on the box's surface, where the centre's closest point is;
//! * both argument orders mirror each other bit for bit, `collide` puts its point at
//!   `contact`'s depth and normal, and `intersects` agrees with the oracle's sign.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Cuboid, Pose, Shape, Sphere};

mod common;
use common::{Case, Regimes, check_sphere_pair, pose_at_random_reach, tolerance_at};

/// A random box: cubes, bars and plates (one side 100 times thinner than the others).
fn random_box(rng: &mut Rng) -> Vec3 {
    let mut h = rng.vec3(Vec3::splat(0.05), Vec3::splat(2.0));
    match rng.below(3) {
        0 => h[rng.below(3)] = rng.range(0.001, 0.01),
        1 => h[rng.below(3)] *= 5.0,
        _ => {}
    }
    h
}

/// `±1` at random.
fn sign(rng: &mut Rng) -> f32 {
    if rng.below(2) == 0 { -1.0 } else { 1.0 }
}

/// A point in the box's frame near the feature kind `kind` picks (see the module docs).
fn centre_near(rng: &mut Rng, h: Vec3, kind: usize) -> Vec3 {
    let size = h.length();
    // Small and not so small offsets, zero included.
    let offset = |rng: &mut Rng| match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-1e-5, 1e-5) * size,
        2 => rng.range(-1e-2, 1e-2) * size,
        _ => rng.range(0.0, 0.6) * size,
    };
    let (k, k1, k2) = {
        let k = rng.below(3);
        (k, (k + 1) % 3, (k + 2) % 3)
    };
    let inside = |rng: &mut Rng| rng.vec3(-h, h);
    match kind {
        0 => inside(rng),
        // On face ±k, then along its normal.
        1 => {
            let s = sign(rng);
            let mut p = inside(rng);
            p[k] = s * h[k] + s * offset(rng);
            p
        }
        // On an edge along k, then out along a direction between its faces' normals.
        2 => {
            let (s1, s2) = (sign(rng), sign(rng));
            let mut on = Vec3::ZERO;
            on[k] = rng.range(-h[k], h[k]);
            on[k1] = s1 * h[k1];
            on[k2] = s2 * h[k2];
            let t = rng.range(0.0, 1.0);
            let mut out = Vec3::ZERO;
            out[k1] = s1 * t;
            out[k2] = s2 * (1.0 - t);
            on + out.normalize_or_zero() * offset(rng)
        }
        // Around a corner.
        3 => {
            let corner = Vec3::new(sign(rng) * h.x, sign(rng) * h.y, sign(rng) * h.z);
            corner + rng.unit_vec3() * offset(rng)
        }
        // Far.
        4 => rng.unit_vec3() * rng.range(2.0, 10.0) * size,
        _ => rng.vec3(-1.5 * h, 1.5 * h),
    }
}

#[test]
fn sphere_box_matches_the_f64_oracle_on_120k_pairs() {
    let mut rng = Rng::new(0x5_B0C5);
    let mut regimes = Regimes::default();
    for i in 0..120_000 {
        let kind = i % 6;
        let h = random_box(&mut rng);
        let boxed = Shape::from(Cuboid::try_from_half_extents(h).unwrap());
        let size = h.length();
        let radius = rng.range(0.01, 1.0) * size;
        let sphere = Shape::from(Sphere::try_new(radius).unwrap());
        let (pose_b, reach) = pose_at_random_reach(&mut rng);
        let local = centre_near(&mut rng, h, kind);
        let pose_s = Pose::new(pose_b.transform_point(local), rng.rotation());
        let scale = (size + radius) as f64;
        let tolerance = tolerance_at(scale, reach);
        let (truth, m) = check_sphere_pair(
            Case { index: i, kind },
            (&sphere, radius, &pose_s),
            (&boxed, &pose_b),
            tolerance,
        );
        // The box's anchor (in the box's frame) is on its surface: inside `h` on every
        // axis and on the boundary of at least one.
        let anchor = m.points[0].anchor_b;
        let beyond = (anchor.abs() - h).max_element() as f64;
        let slack = 1e-5 * size as f64 + 4.0 * reach as f64 * f32::EPSILON as f64;
        assert!(
            beyond.abs() <= slack,
            "case {i} (kind {kind}): anchor {anchor} is {beyond} off the surface of {h}"
        );
        regimes.add(truth, radius);
    }
    // Every regime is well represented.
    regimes.assert_at_least(20_000, 50_000, 20_000);
}
