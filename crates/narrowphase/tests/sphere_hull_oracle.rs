//! Sphere–hull answers against the f64 oracle on 120,000 pairs (issue 14, item 3: the
//! closest-feature walk that replaced the scan of every face).
//!
//! Hulls of 4 to 64 points, round, ellipsoidal and flat (a quarter squashed to a slab
//! 0.05 thick), and the sphere's centre put where each kind of feature is closest:
//! inside, on a face (exactly, or a hair in front or behind), near an edge (in its
//! wedge of outward normals), near a vertex, far away, or anywhere around. Each pair
//! runs with a margin wide enough that every one gets a contact, so the depth is the
//! signed distance minus the radius everywhere, and is checked:
//! * the depth against `oracle::sphere_separation` (the centre's distance to every face
//!   polygon and edge, in f64) within `1e-6 ×` the size, plus the f32 rounding of the
//!   positions and of the separation, plus the hull's bend (a merged face's vertices lie
//!   up to that far behind the plane the query measures it by); `1e-4 ×` the size until
//!   5 December 2026 (the worst error then, 9e-6 of the size, came from a bent merged
//!   face);
//! * the normal: the gap of the two shapes along it (`oracle::gap_along`, f64) is the
//!   separation, as only a direction in the closest feature's cone of normals makes it
//!   (a hair off the surface too, where the direction from the closest point is
//!   mostly round-off);
//! * both argument orders mirror each other bit for bit, `collide` puts its point at
//!   `contact`'s depth and normal, and `intersects` agrees with the oracle's sign.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};

mod common;
use common::{Case, Regimes, check_sphere_pair};
use sepax_testkit::shapes::{ball_hull, ellipsoid_hull_with, face_flatness};

/// A random hull: 4–64 points in a ball, or an ellipsoid's, a quarter of them flat.
fn random_hull(rng: &mut Rng) -> Shape {
    let n = 4 + rng.below(61);
    match rng.below(4) {
        0 => Shape::from(ball_hull(rng, n, 0.2, 0.8)),
        1 => ellipsoid_hull_with(rng, n, Vec3::new(0.8, 0.05, 0.6)),
        _ => {
            let radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(0.9));
            ellipsoid_hull_with(rng, n, radii)
        }
    }
}

/// A point in the hull's frame near the feature kind `kind` picks (see the module docs).
fn centre_near(rng: &mut Rng, hull: &Shape, kind: usize) -> Vec3 {
    let Shape::ConvexHull(h) = hull else {
        unreachable!("a hull")
    };
    let size = h.bounding_radius();
    let v = |i: u32| h.vertices()[i as usize];
    // Small and not so small offsets, zero included.
    let offset = |rng: &mut Rng| match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-1e-5, 1e-5) * size,
        2 => rng.range(-1e-2, 1e-2) * size,
        _ => rng.range(0.0, 0.6) * size,
    };
    match kind {
        // Inside: a mix of a few vertices.
        0 => {
            let picks: Vec<Vec3> = (0..4)
                .map(|_| v(rng.below(h.vertices().len()) as u32))
                .collect();
            let w: Vec<f32> = (0..4).map(|_| rng.range(0.0, 1.0)).collect();
            let total: f32 = w.iter().sum::<f32>().max(1e-6);
            picks.iter().zip(&w).map(|(p, w)| *p * *w).sum::<Vec3>() / total
        }
        // On a face, then along its normal.
        1 => {
            let f = rng.below(h.face_count());
            let face = h.face(f);
            let w: Vec<f32> = face.iter().map(|_| rng.range(0.0, 1.0)).collect();
            let total: f32 = w.iter().sum::<f32>().max(1e-6);
            let on = face.iter().zip(&w).map(|(&i, w)| v(i) * *w).sum::<Vec3>() / total;
            on + h.planes()[f].normal * offset(rng)
        }
        // On an edge, then out along a direction of its wedge.
        2 => {
            let e = h.edges()[rng.below(h.edges().len())];
            let [a, b] = e.vertices;
            let on = v(a).lerp(v(b), rng.range(0.0, 1.0));
            let [f0, f1] = e.faces;
            let s = rng.range(0.0, 1.0);
            let out = (h.planes()[f0 as usize].normal * s
                + h.planes()[f1 as usize].normal * (1.0 - s))
                .normalize_or_zero();
            on + out * offset(rng)
        }
        // Around a vertex.
        3 => v(rng.below(h.vertices().len()) as u32) + rng.unit_vec3() * offset(rng),
        // Far.
        4 => rng.unit_vec3() * rng.range(2.0, 10.0) * size,
        _ => rng.vec3(Vec3::splat(-1.5 * size), Vec3::splat(1.5 * size)),
    }
}

#[test]
fn sphere_hull_matches_the_f64_oracle_on_120k_pairs() {
    let mut rng = Rng::new(0x5_4011);
    let hulls: Vec<Shape> = (0..400).map(|_| random_hull(&mut rng)).collect();
    let mut regimes = Regimes::default();
    for i in 0..120_000 {
        let hull = &hulls[rng.below(hulls.len())];
        let kind = i % 6;
        let size = hull.bounding_radius();
        let radius = rng.range(0.01, 1.0) * size;
        let sphere = Shape::from(Sphere::try_new(radius).unwrap());
        let pose_h = Pose::new(
            rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
            rng.rotation(),
        );
        let local = centre_near(&mut rng, hull, kind);
        let pose_s = Pose::new(pose_h.transform_point(local), rng.rotation());
        let scale = (size + radius) as f64;
        // The f32 round-off of the centre's place in the hull's frame, and the hull's
        // bend (a merged face's vertices lie up to that far behind its plane).
        let reach = (pose_s.translation.length() + pose_h.translation.length()) as f64;
        let round_off = 8.0 * f64::from(f32::EPSILON) * (reach + scale);
        let tolerance = 1e-6 * scale + round_off + face_flatness(hull);
        let (truth, _) = check_sphere_pair(
            Case { index: i, kind },
            (&sphere, radius, &pose_s),
            (hull, &pose_h),
            tolerance,
        );
        regimes.add(truth, radius);
    }
    // Every regime is well represented.
    regimes.assert_at_least(10_000, 30_000, 30_000);
}
