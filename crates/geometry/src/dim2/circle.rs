//! Circles.

use super::{Aabb2, Pose2, Shape2Error};
use glam::Vec2;

/// A circle: a center (in the body's local frame) and a radius.
///
/// ```
/// use sepax_geometry::dim2::Circle;
/// use glam::Vec2;
/// let c = Circle::try_new(Vec2::ZERO, 0.5).unwrap();
/// assert_eq!(c.radius(), 0.5);
/// assert!(Circle::try_new(Vec2::ZERO, 0.0).is_err());
/// assert!(Circle::try_new(Vec2::new(f32::NAN, 0.0), 1.0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    center: Vec2,
    radius: f32,
}

impl Circle {
    /// A circle; [`Shape2Error::NonFinite`] for a non-finite center or radius,
    /// [`Shape2Error::NonPositiveRadius`] for a zero or negative radius.
    /// Extreme sizes: any finite positive size is accepted; the 2D queries never panic
    /// on it, and between 1e-18 and 1e18 their answers are finite with unit normals
    /// (beyond that squared lengths leave f32's range and answers can be infinite).
    pub fn try_new(center: Vec2, radius: f32) -> Result<Circle, Shape2Error> {
        if !center.is_finite() || !radius.is_finite() {
            return Err(Shape2Error::NonFinite);
        }
        if radius <= 0.0 {
            return Err(Shape2Error::NonPositiveRadius(radius));
        }
        Ok(Circle { center, radius })
    }

    /// The center, in the local frame.
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The radius (positive and finite).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The world AABB under `pose`.
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        let c = pose.transform_point(self.center);
        Aabb2::from_center_half(c, Vec2::splat(self.radius))
    }

    /// The circle itself, placed in the world by `pose`.
    pub fn bounding_circle(&self, pose: &Pose2) -> BoundingCircle {
        BoundingCircle {
            center: pose.transform_point(self.center),
            radius: self.radius,
        }
    }
}

/// A world-space bounding circle, the coarsest filter of seed 001.
///
/// ```
/// use sepax_geometry::dim2::BoundingCircle;
/// use glam::Vec2;
/// let a = BoundingCircle { center: Vec2::ZERO, radius: 1.0 };
/// let b = BoundingCircle { center: Vec2::new(2.0, 0.0), radius: 1.0 };
/// assert!(a.overlaps(&b, 0.0)); // touching counts
/// assert!(!a.overlaps(&b, -0.1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingCircle {
    /// World center.
    pub center: Vec2,
    /// Radius.
    pub radius: f32,
}

impl BoundingCircle {
    /// True when the circles, each grown by `margin / 2`, overlap or touch.
    pub fn overlaps(&self, other: &BoundingCircle, margin: f32) -> bool {
        let r = self.radius + other.radius + margin;
        r >= 0.0 && (other.center - self.center).length_squared() <= r * r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_circles_and_boxes() {
        assert_eq!(
            Circle::try_new(Vec2::ZERO, -1.0),
            Err(Shape2Error::NonPositiveRadius(-1.0))
        );
        assert_eq!(
            Circle::try_new(Vec2::ZERO, 0.0),
            Err(Shape2Error::NonPositiveRadius(0.0))
        );
        assert_eq!(
            Circle::try_new(Vec2::ZERO, f32::NAN),
            Err(Shape2Error::NonFinite)
        );
        assert_eq!(
            Circle::try_new(Vec2::new(0.0, f32::INFINITY), 1.0),
            Err(Shape2Error::NonFinite)
        );
        assert_eq!(
            Aabb2::try_new(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)),
            Err(Shape2Error::Inverted)
        );
        assert_eq!(
            Aabb2::try_new(Vec2::splat(f32::NAN), Vec2::ONE),
            Err(Shape2Error::NonFinite)
        );
        assert!(Aabb2::from_points(&[]).is_none());
    }

    #[test]
    fn bounds_hold_the_shape() {
        let c = Circle::try_new(Vec2::new(1.0, 0.0), 0.5).unwrap();
        let pose = Pose2::new(Vec2::new(0.0, 2.0), std::f32::consts::FRAC_PI_2);
        let b = c.aabb(&pose);
        assert!((b.min - Vec2::new(-0.5, 2.5)).length() < 1e-6);
        assert!((b.max - Vec2::new(0.5, 3.5)).length() < 1e-6);
        let bc = c.bounding_circle(&pose);
        assert!((bc.center - Vec2::new(0.0, 3.0)).length() < 1e-6 && bc.radius == 0.5);
    }
}
