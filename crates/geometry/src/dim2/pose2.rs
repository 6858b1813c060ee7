//! Planar rotations and rigid transforms.

use glam::Vec2;
use std::ops::Mul;

/// A planar rotation, stored as its cosine and sine (always a unit pair).
///
/// `rotate(v) = (c·x − s·y, s·x + c·y)`: a counter-clockwise turn by the angle.
///
/// ```
/// use sepax_geometry::dim2::Rot2;
/// use glam::Vec2;
/// let r = Rot2::from_angle(std::f32::consts::FRAC_PI_2);
/// assert!((r.rotate(Vec2::X) - Vec2::Y).length() < 1e-6);
/// assert!((r.inv_rotate(Vec2::Y) - Vec2::X).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rot2 {
    pub(crate) cos: f32,
    pub(crate) sin: f32,
}

impl Default for Rot2 {
    fn default() -> Self {
        Rot2::IDENTITY
    }
}

impl Rot2 {
    /// No rotation.
    pub const IDENTITY: Rot2 = Rot2 { cos: 1.0, sin: 0.0 };

    /// A counter-clockwise rotation by `angle` radians. A non-finite angle gives a
    /// non-finite rotation, which [`Rot2::is_finite`] and [`Pose2::is_valid`] report.
    pub fn from_angle(angle: f32) -> Rot2 {
        let (sin, cos) = angle.sin_cos();
        Rot2 { cos, sin }
    }

    /// The rotation that turns `+x` onto the direction of `v`, or `None` when `v` is
    /// zero-length or not finite.
    pub fn from_direction(v: Vec2) -> Option<Rot2> {
        let len = v.length();
        if !len.is_finite() || len < 1e-20 {
            return None;
        }
        Some(Rot2 {
            cos: v.x / len,
            sin: v.y / len,
        })
    }

    /// The cosine of the angle.
    #[inline]
    pub fn cos(&self) -> f32 {
        self.cos
    }

    /// The sine of the angle.
    #[inline]
    pub fn sin(&self) -> f32 {
        self.sin
    }

    /// The angle in `(−π, π]`.
    pub fn angle(&self) -> f32 {
        self.sin.atan2(self.cos)
    }

    /// True when both components are finite.
    pub fn is_finite(&self) -> bool {
        self.cos.is_finite() && self.sin.is_finite()
    }

    /// Rotates a vector.
    #[inline]
    pub fn rotate(&self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    pub fn inv_rotate(&self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }

    /// The inverse rotation.
    #[inline]
    pub fn inverse(&self) -> Rot2 {
        Rot2 {
            cos: self.cos,
            sin: -self.sin,
        }
    }

    /// `self⁻¹ · other`: the rotation of `other` seen from `self`'s frame.
    #[inline]
    pub fn inv_mul(&self, other: Rot2) -> Rot2 {
        Rot2 {
            cos: self.cos * other.cos + self.sin * other.sin,
            sin: self.cos * other.sin - self.sin * other.cos,
        }
    }
}

impl Mul for Rot2 {
    type Output = Rot2;
    /// Composition: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    #[inline]
    fn mul(self, other: Rot2) -> Rot2 {
        Rot2 {
            cos: self.cos * other.cos - self.sin * other.sin,
            sin: self.sin * other.cos + self.cos * other.sin,
        }
    }
}

/// A planar rigid transform: rotate, then translate (`world = rotation · local + translation`).
///
/// ```
/// use sepax_geometry::dim2::Pose2;
/// use glam::Vec2;
/// let a = Pose2::new(Vec2::new(1.0, 0.0), std::f32::consts::FRAC_PI_2);
/// let p = a.transform_point(Vec2::X);
/// assert!((p - Vec2::new(1.0, 1.0)).length() < 1e-6);
/// assert!((a.inverse_transform_point(p) - Vec2::X).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose2 {
    /// Where the local origin lands.
    pub translation: Vec2,
    /// Orientation of the local axes.
    pub rotation: Rot2,
}

impl Pose2 {
    /// No rotation, no translation.
    pub const IDENTITY: Pose2 = Pose2 {
        translation: Vec2::ZERO,
        rotation: Rot2::IDENTITY,
    };

    /// A pose from a translation and a counter-clockwise angle in radians.
    pub fn new(translation: Vec2, angle: f32) -> Pose2 {
        Pose2 {
            translation,
            rotation: Rot2::from_angle(angle),
        }
    }

    /// A pose from a translation and a rotation.
    pub const fn from_parts(translation: Vec2, rotation: Rot2) -> Pose2 {
        Pose2 {
            translation,
            rotation,
        }
    }

    /// A pure translation.
    pub const fn from_translation(translation: Vec2) -> Pose2 {
        Pose2::from_parts(translation, Rot2::IDENTITY)
    }

    /// True when every component is finite and the rotation is unit length within 1e-3.
    /// The 2D queries return no contact for a pose that fails this.
    pub fn is_valid(&self) -> bool {
        self.translation.is_finite()
            && self.rotation.is_finite()
            && (self.rotation.cos * self.rotation.cos + self.rotation.sin * self.rotation.sin - 1.0)
                .abs()
                < 2e-3
    }

    /// Maps a local point to the world.
    #[inline]
    pub fn transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.rotate(p) + self.translation
    }

    /// Maps a local direction to the world (rotation only).
    #[inline]
    pub fn transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.rotate(v)
    }

    /// Maps a world point to the local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.inv_rotate(p - self.translation)
    }

    /// Maps a world direction to the local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.inv_rotate(v)
    }

    /// The inverse transform.
    pub fn inverse(&self) -> Pose2 {
        let rotation = self.rotation.inverse();
        Pose2 {
            translation: -rotation.rotate(self.translation),
            rotation,
        }
    }

    /// `self⁻¹ · other`: where `other`'s frame sits in `self`'s frame. The 2D narrow
    /// phase uses it to put shape b in shape a's frame.
    #[inline]
    pub fn inv_mul(&self, other: &Pose2) -> Pose2 {
        Pose2 {
            translation: self.inverse_transform_point(other.translation),
            rotation: self.rotation.inv_mul(other.rotation),
        }
    }
}

impl Mul for Pose2 {
    type Output = Pose2;
    /// Composition: `(a * b).transform_point(p) == a.transform_point(b.transform_point(p))`.
    #[inline]
    fn mul(self, other: Pose2) -> Pose2 {
        Pose2 {
            translation: self.transform_point(other.translation),
            rotation: self.rotation * other.rotation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composition_and_relative_pose_agree() {
        let a = Pose2::new(Vec2::new(1.0, -2.0), 0.7);
        let b = Pose2::new(Vec2::new(-3.0, 0.5), -2.1);
        let rel = a.inv_mul(&b);
        let p = Vec2::new(0.3, 0.9);
        let via_rel = a.transform_point(rel.transform_point(p));
        assert!((via_rel - b.transform_point(p)).length() < 1e-5);
        assert!(((a * rel).translation - b.translation).length() < 1e-5);
        let back = a.inverse() * a;
        assert!(back.translation.length() < 1e-6);
        assert!((back.rotation.angle()).abs() < 1e-6);
    }

    #[test]
    fn invalid_poses_are_reported() {
        assert!(Pose2::new(Vec2::ZERO, 1.0).is_valid());
        assert!(!Pose2::new(Vec2::new(f32::NAN, 0.0), 1.0).is_valid());
        assert!(!Pose2::new(Vec2::ZERO, f32::INFINITY).is_valid());
        assert!(Rot2::from_direction(Vec2::ZERO).is_none());
        assert!(Rot2::from_direction(Vec2::new(f32::NAN, 1.0)).is_none());
    }
}
