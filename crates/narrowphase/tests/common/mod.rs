//! Checks shared by the sphere oracle tests (`sphere_hull_oracle.rs`,
//! `sphere_box_oracle.rs`, `sphere_sphere_oracle.rs`): one placed sphere pair against
//! the f64 oracle, the tally that shows every regime was exercised, and the pose at a
//! random reach with its tolerance.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::oracle::{gap_along, sphere_separation};
use sepax_narrowphase::{Manifold, PairCache, collide, contact, intersects};

/// Where a case is: its number and the feature kind its centre was placed near.
#[derive(Clone, Copy)]
pub struct Case {
    pub index: usize,
    pub kind: usize,
}

/// Checks a sphere of radius `radius` at `pose_s` against `other` at `pose_o`, with a
/// margin wide enough that every pair gets a contact: the depth against
/// `oracle::sphere_separation`, the gap of the shapes along the normal against the same
/// separation, a unit normal (all within `tolerance`, plus the f32 rounding of values as
/// large as the separation, `8 ε |separation|`); both argument orders of
/// `contact` and `collide` mirror each other bit for bit; `collide`'s one point has
/// `contact`'s depth and normal; `intersects` agrees with the oracle's sign where the
/// separation is beyond a tenth of `tolerance`. Returns the oracle's separation and
/// `collide`'s manifold.
pub fn check_sphere_pair(
    case: Case,
    (sphere, radius, pose_s): (&Shape, f32, &Pose),
    (other, pose_o): (&Shape, &Pose),
    tolerance: f64,
) -> (f64, Manifold) {
    let Case { index: i, kind } = case;
    let truth = sphere_separation(radius, pose_s, other, pose_o);
    // And the f32 rounding of values as large as the separation (far apart pairs).
    let tolerance = tolerance + 8.0 * f64::from(f32::EPSILON) * truth.abs();
    let margin = 100.0 * (other.bounding_radius() + radius);
    let c = contact(sphere, pose_s, other, pose_o, margin)
        .unwrap_or_else(|| panic!("case {i} (kind {kind}): no contact, truth {truth}"));
    assert!(
        (c.depth as f64 + truth).abs() <= tolerance,
        "case {i} (kind {kind}): depth {} vs {}",
        c.depth,
        -truth
    );
    // Every normal, a hair off the surface too (where the direction from the closest
    // point is mostly round-off, it must stay in the feature's cone).
    let gap = gap_along(sphere, pose_s, other, pose_o, c.normal.as_dvec3());
    assert!(
        (gap - truth).abs() <= tolerance,
        "case {i} (kind {kind}): the gap along the normal {} is {gap}, the separation {truth}",
        c.normal
    );
    assert!((c.normal.as_dvec3().length() - 1.0).abs() < 1e-5);
    assert_eq!(
        contact(other, pose_o, sphere, pose_s, margin),
        Some(c.flipped()),
        "case {i}: order"
    );
    let m = collide(
        sphere,
        pose_s,
        other,
        pose_o,
        margin,
        &mut PairCache::default(),
    )
    .expect("within the margin");
    assert_eq!(m.points.len(), 1, "case {i}: one point");
    assert_eq!((m.normal, m.points[0].depth), (c.normal, c.depth));
    let mirrored = collide(
        other,
        pose_o,
        sphere,
        pose_s,
        margin,
        &mut PairCache::default(),
    );
    assert_eq!(mirrored, Some(m.flipped()), "case {i}: collide order");
    if truth.abs() > 0.1 * tolerance {
        assert_eq!(intersects(sphere, pose_s, other, pose_o), truth < 0.0);
        assert_eq!(intersects(other, pose_o, sphere, pose_s), truth < 0.0);
    }
    (truth, m)
}

/// How many cases were checked, and had the centre inside the other shape, the shapes
/// touching, apart.
#[derive(Default, Debug)]
pub struct Regimes {
    pub cases: usize,
    pub inside: usize,
    pub touching: usize,
    pub apart: usize,
}

impl Regimes {
    /// Counts one case of separation `truth` for a sphere of radius `radius`.
    pub fn add(&mut self, truth: f64, radius: f32) {
        self.cases += 1;
        self.inside += (truth + (radius as f64) < 0.0) as usize;
        self.touching += (truth <= 0.0) as usize;
        self.apart += (truth > 0.0) as usize;
    }

    /// At least 100,000 cases, and more than `inside`, `touching` and `apart` of each
    /// regime: every one well represented.
    pub fn assert_at_least(&self, inside: usize, touching: usize, apart: usize) {
        assert!(self.cases >= 100_000, "{self:?}");
        assert!(
            self.inside > inside && self.touching > touching && self.apart > apart,
            "{self:?}"
        );
    }
}

/// A pose up to 1, 100 or 10,000 from the origin (drawn in that order: the reach, the
/// translation, the rotation) and the reach.
pub fn pose_at_random_reach(rng: &mut sepax_geometry::rng::Rng) -> (Pose, f32) {
    let reach = [1.0, 100.0, 10_000.0][rng.below(3)];
    let translation = rng.vec3(glam::Vec3::splat(-reach), glam::Vec3::splat(reach));
    (Pose::new(translation, rng.rotation()), reach)
}

/// The tolerance of a pair of size `size` placed `reach` from the origin: `1e-6 ×` the
/// size, plus the rounding of f32 positions near `reach` (a few `reach · 2⁻²⁴`).
/// (It was `1e-4 ×` the size until 5 December 2026; the worst errors measured on five
/// seeds fit under this.)
pub fn tolerance_at(size: f64, reach: f32) -> f64 {
    1e-6 * size + 8.0 * reach as f64 * f32::EPSILON as f64
}
