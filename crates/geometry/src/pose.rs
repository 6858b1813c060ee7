//! Rigid transforms.

use glam::{Quat, Vec3, Vec4, Vec4Swizzles};
use std::ops::Mul;

/// A rigid transform: rotate, then translate.
///
/// `world = rotation * local + translation`. The rotation is expected to be a unit
/// quaternion; [`Pose::is_valid`] tells whether a pose coming from user data is usable.
///
/// ```
/// use sepax_geometry::Pose;
/// use glam::{Quat, Vec3};
///
/// let a = Pose::new(Vec3::X, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
/// let p = a.transform_point(Vec3::X);
/// assert!((p - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
/// assert!((a.inverse().transform_point(p) - Vec3::X).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Where the local origin lands.
    pub translation: Vec3,
    /// Orientation of the local axes (unit quaternion).
    pub rotation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Pose::IDENTITY
    }
}

impl Pose {
    /// No rotation, no translation.
    pub const IDENTITY: Pose = Pose {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose from a translation and a (unit) rotation.
    pub const fn new(translation: Vec3, rotation: Quat) -> Pose {
        Pose {
            translation,
            rotation,
        }
    }

    /// A pure translation.
    pub const fn from_translation(translation: Vec3) -> Pose {
        Pose::new(translation, Quat::IDENTITY)
    }

    /// True when every component is finite and the rotation is unit length within 1e-3.
    /// A pose that fails this is refused by the pipeline (the body is quarantined).
    ///
    /// Written without branches, as it runs for every pair of a batch: `x − x` is `+0`
    /// for a finite `x` and NaN for an infinite or NaN one, so the sum of the three is
    /// zero exactly when the translation is finite; and a rotation with a non-finite
    /// component (or a square that overflows) has a non-finite `|q|² − 1`, which fails
    /// the unit test by itself. The verdict is that of the three checks in turn.
    ///
    /// `|q|²` is summed as `(x² + z²) + (y² + w²)`, spelled out as 4-lane operations
    /// (square, add the lanes swapped by pairs, add the two sums) rather than taken from
    /// glam's `length_squared` (whose order is that one on SSE2 but left to right in its
    /// scalar build): the verdict on a rotation at the edge of the tolerance is the same
    /// on every platform, it costs what glam's costs on SSE2, and the narrow phase's
    /// batched box queries check 8 poses at once with the same sums.
    #[inline]
    // `x − x` is the finiteness test itself, not a zero.
    #[allow(clippy::eq_op)]
    pub fn is_valid(&self) -> bool {
        let t = self.translation;
        let finite = (t.x - t.x) + (t.y - t.y) + (t.z - t.z) == 0.0;
        let q = Vec4::from(self.rotation);
        let squares = q * q;
        let sums = squares + squares.zwxy();
        let unit = ((sums.x + sums.y) - 1.0).abs() < 2e-3;
        finite & unit
    }

    /// Maps a local point to the world.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// Rotates a local direction into the world (no translation).
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation * v
    }

    /// Maps a world point into the local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.translation)
    }

    /// Rotates a world direction into the local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation.inverse() * v
    }

    /// The inverse transform.
    #[inline]
    pub fn inverse(&self) -> Pose {
        let rotation = self.rotation.inverse();
        Pose::new(-(rotation * self.translation), rotation)
    }

    /// The pose of a body posed at `self`, expressed in the frame of a body posed at `frame`:
    /// `frame.inverse() * self`. Pair queries use this to work in shape a's frame.
    #[inline]
    pub fn relative_to(&self, frame: &Pose) -> Pose {
        let inv = frame.rotation.inverse();
        Pose::new(
            inv * (self.translation - frame.translation),
            (inv * self.rotation).normalize(),
        )
    }
}

/// Composition: `(a * b).transform_point(p) == a.transform_point(b.transform_point(p))`.
impl Mul for Pose {
    type Output = Pose;
    #[inline]
    fn mul(self, rhs: Pose) -> Pose {
        Pose::new(
            self.rotation * rhs.translation + self.translation,
            self.rotation * rhs.rotation,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_relative_agree() {
        let a = Pose::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.7));
        let b = Pose::new(
            Vec3::new(-4.0, 0.5, 2.0),
            Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 1.1),
        );
        let rel = b.relative_to(&a);
        let p = Vec3::new(0.3, -0.2, 0.9);
        let via_rel = a.transform_point(rel.transform_point(p));
        assert!((via_rel - b.transform_point(p)).length() < 1e-5);
        let composed = a * rel;
        assert!((composed.transform_point(p) - b.transform_point(p)).length() < 1e-5);
    }

    #[test]
    fn validity() {
        assert!(Pose::IDENTITY.is_valid());
        assert!(!Pose::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)).is_valid());
        assert!(!Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)).is_valid());
        assert!(!Pose::from_translation(Vec3::splat(f32::INFINITY)).is_valid());
    }

    /// The branch-free `is_valid` gives the verdict of the three checks it replaced
    /// (every component finite, then the unit test) on every mix of special values.
    #[test]
    fn validity_matches_the_three_checks() {
        let reference = |p: &Pose| {
            p.translation.is_finite()
                && p.rotation.is_finite()
                && (p.rotation.length_squared() - 1.0).abs() < 2e-3
        };
        let values = [
            0.0,
            -0.0,
            0.5,
            -1.0,
            1e-45,
            1e30,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let mut rotations = vec![
            Quat::IDENTITY,
            Quat::from_xyzw(h, 0.0, 0.0, h),
            Quat::from_xyzw(0.0, 0.0, 0.0, 1.0005),
            Quat::from_xyzw(0.0, 0.0, 0.0, 1.01),
        ];
        for &v in &values {
            for k in 0..4 {
                let mut q = [0.0, 0.0, 0.0, 1.0];
                q[k] = v;
                rotations.push(Quat::from_array(q));
                q[(k + 1) % 4] = v;
                rotations.push(Quat::from_array(q));
            }
        }
        let mut checked = 0;
        for &x in &values {
            for &y in &values {
                for &z in &values {
                    for &q in &rotations {
                        let pose = Pose::new(Vec3::new(x, y, z), q);
                        assert_eq!(pose.is_valid(), reference(&pose), "{pose:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
