//! Capsules: a segment swept by a ball.

use crate::ShapeError;
use glam::Vec3;

/// A capsule centred on its local origin: the points within `radius` of the segment
/// from `(0, −half_height, 0)` to `(0, +half_height, 0)` (the local y axis, as Jolt's
/// and rapier's upright capsules; the pose orients it).
///
/// `half_height = 0` is accepted and gives a sphere of the same radius (the narrow
/// phase then answers as for a sphere, up to round-off); a [`Sphere`](crate::Sphere) is
/// the better choice for that shape, as its queries are cheaper.
///
/// ```
/// use sepax_geometry::{Capsule, ShapeError};
/// use glam::Vec3;
/// let c = Capsule::try_new(1.0, 0.5).unwrap();
/// assert_eq!(c.segment(), (Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)));
/// assert_eq!(Capsule::try_new(-1.0, 0.5), Err(ShapeError::NegativeHalfHeight(-1.0)));
/// assert_eq!(Capsule::try_new(1.0, 0.0), Err(ShapeError::NonPositiveRadius(0.0)));
/// assert!(Capsule::try_new(f32::NAN, 0.5).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    half_height: f32,
    radius: f32,
}

impl Capsule {
    /// A capsule of the given half height (half the length of its core segment) and
    /// radius: [`ShapeError::NonFinite`] for a NaN or infinite value,
    /// [`ShapeError::NegativeHalfHeight`] for `half_height < 0`,
    /// [`ShapeError::NonPositiveRadius`] for `radius <= 0`.
    ///
    /// **Extreme values.** As for boxes and spheres, every finite value is accepted up
    /// to `f32::MAX`; a world quarantines a body whose AABB does not fit in `f32`.
    pub fn try_new(half_height: f32, radius: f32) -> Result<Capsule, ShapeError> {
        if !(half_height.is_finite() && radius.is_finite()) {
            return Err(ShapeError::NonFinite);
        }
        if half_height < 0.0 {
            return Err(ShapeError::NegativeHalfHeight(half_height));
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositiveRadius(radius));
        }
        // −0.0 is stored as +0.0: the canonical pair order compares bit patterns.
        Ok(Capsule {
            half_height: half_height + 0.0,
            radius,
        })
    }

    /// Half the length of the core segment (`>= 0`, finite).
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }

    /// The radius (positive, finite).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The core segment's endpoints in the local frame, bottom then top:
    /// `(0, −half_height, 0)` and `(0, half_height, 0)`.
    #[inline]
    pub fn segment(&self) -> (Vec3, Vec3) {
        let top = Vec3::new(0.0, self.half_height, 0.0);
        (-top, top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_values_and_accepts_a_point_core() {
        assert_eq!(
            Capsule::try_new(1.0, f32::INFINITY),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            Capsule::try_new(1.0, -2.0),
            Err(ShapeError::NonPositiveRadius(-2.0))
        );
        let ball = Capsule::try_new(-0.0, 1.0).unwrap();
        assert_eq!(ball.half_height().to_bits(), 0.0f32.to_bits());
        assert!(Capsule::try_new(f32::MAX, f32::MAX).is_ok());
    }
}
