//! 2D axis-aligned bounding boxes.

use super::Shape2Error;
use glam::Vec2;

/// A closed 2D box `[min, max]`; two boxes that only touch overlap.
///
/// ```
/// use sepax_geometry::dim2::Aabb2;
/// use glam::Vec2;
/// let a = Aabb2::try_new(Vec2::ZERO, Vec2::ONE).unwrap();
/// let b = Aabb2::try_new(Vec2::ONE, Vec2::splat(2.0)).unwrap();
/// assert!(a.overlaps(&b));
/// assert!(Aabb2::try_new(Vec2::ONE, Vec2::ZERO).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb2 {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb2 {
    /// A box from its corners; an error for non-finite values or `min > max`.
    pub fn try_new(min: Vec2, max: Vec2) -> Result<Aabb2, Shape2Error> {
        if !min.is_finite() || !max.is_finite() {
            return Err(Shape2Error::NonFinite);
        }
        if min.x > max.x || min.y > max.y {
            return Err(Shape2Error::Inverted);
        }
        Ok(Aabb2 { min, max })
    }

    /// The box `center ± half`.
    pub fn from_center_half(center: Vec2, half: Vec2) -> Aabb2 {
        Aabb2 {
            min: center - half,
            max: center + half,
        }
    }

    /// The smallest box holding every point (`None` for no points).
    pub fn from_points(points: &[Vec2]) -> Option<Aabb2> {
        let (first, rest) = points.split_first()?;
        let mut b = Aabb2 {
            min: *first,
            max: *first,
        };
        for p in rest {
            b.min = b.min.min(*p);
            b.max = b.max.max(*p);
        }
        Some(b)
    }

    /// True when the boxes overlap or touch.
    #[inline]
    pub fn overlaps(&self, other: &Aabb2) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// True when `p` is inside or on the boundary.
    pub fn contains_point(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// The box grown by `margin` on every side.
    pub fn expanded(&self, margin: f32) -> Aabb2 {
        Aabb2 {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }
}
