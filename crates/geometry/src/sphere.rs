//! Spheres.

use crate::ShapeError;

/// A sphere centred on its local origin.
///
/// ```
/// use sepax_geometry::Sphere;
/// assert!(Sphere::try_new(0.5).is_ok());
/// assert!(Sphere::try_new(0.0).is_err());
/// assert!(Sphere::try_new(f32::NAN).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    radius: f32,
}

impl Sphere {
    /// A sphere of the given radius; an error for a non-finite or non-positive radius.
    ///
    /// **Extreme values.** Every finite positive value is accepted, from the smallest
    /// denormal up to `f32::MAX`. A shape that large is stepped without a panic: the
    /// broad phase keeps its fat boxes finite, and a collision world quarantines a
    /// body whose world AABB passes `±f32::MAX` (`NonFiniteAabb`) until it fits again.
    pub fn try_new(radius: f32) -> Result<Sphere, ShapeError> {
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositiveRadius(radius));
        }
        Ok(Sphere { radius })
    }

    /// The radius (always positive and finite).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}
