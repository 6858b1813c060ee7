//! The closed set of 2D shapes the narrow phase understands.

use super::{Aabb2, BoundingCircle, Circle, ConvexPolygon, Obb2, Pose2};

/// A 2D convex shape in its body's local frame.
///
/// ```
/// use sepax_geometry::dim2::{Circle, Pose2, Shape2};
/// use glam::Vec2;
/// let s = Shape2::from(Circle::try_new(Vec2::ZERO, 1.0).unwrap());
/// let aabb = s.aabb(&Pose2::new(Vec2::new(3.0, 0.0), 0.0));
/// assert_eq!(aabb.min, Vec2::new(2.0, -1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape2 {
    /// A circle.
    Circle(Circle),
    /// An oriented box.
    Obb2(Obb2),
    /// A convex polygon.
    Polygon(ConvexPolygon),
}

impl Shape2 {
    /// The tight world AABB under `pose`.
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        match self {
            Shape2::Circle(c) => c.aabb(pose),
            Shape2::Obb2(b) => b.aabb(pose),
            Shape2::Polygon(p) => p.aabb(pose),
        }
    }

    /// A world bounding circle under `pose`.
    pub fn bounding_circle(&self, pose: &Pose2) -> BoundingCircle {
        match self {
            Shape2::Circle(c) => c.bounding_circle(pose),
            Shape2::Obb2(b) => b.bounding_circle(pose),
            Shape2::Polygon(p) => p.bounding_circle(pose),
        }
    }
}

impl From<Circle> for Shape2 {
    fn from(c: Circle) -> Shape2 {
        Shape2::Circle(c)
    }
}

impl From<Obb2> for Shape2 {
    fn from(b: Obb2) -> Shape2 {
        Shape2::Obb2(b)
    }
}

impl From<ConvexPolygon> for Shape2 {
    fn from(p: ConvexPolygon) -> Shape2 {
        Shape2::Polygon(p)
    }
}
