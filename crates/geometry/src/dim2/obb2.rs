//! The 2D oriented box of seed 002.

use super::{Aabb2, BoundingCircle, ConvexPolygon, Pose2, Rot2, Shape2Error};
use glam::Vec2;

/// Tolerance on `|axis| = 1` and `axis_x · axis_y = 0` in [`Obb2::try_new`].
const AXIS_TOL: f32 = 1e-4;

/// A 2D oriented box as seed 002 gives it: a **center**, two unit axes
/// **axis_x**, **axis_y** and a full **size** (width along `axis_x`, height along
/// `axis_y`). Its corners are `center + (±axis_x·size.x ± axis_y·size.y) / 2`.
///
/// The center and axes are in the body's local frame; a [`Pose2`] places the body
/// in the world (for a free-standing box use [`Pose2::IDENTITY`]).
///
/// Edge `i` joins [`vertices`](Obb2::vertices)`[i]` to `vertices[(i + 1) % 4]`;
/// their outward normals are `−axis_y, +axis_x, +axis_y, −axis_x` (counter-clockwise).
///
/// ```
/// use sepax_geometry::dim2::Obb2;
/// use glam::Vec2;
/// let b = Obb2::try_from_angle(Vec2::new(1.0, 0.0), Vec2::new(2.0, 1.0), 0.0).unwrap();
/// assert_eq!(b.vertices()[2], Vec2::new(2.0, 0.5));
/// let r = Obb2::try_new(Vec2::ZERO, Vec2::Y, -Vec2::X, Vec2::new(2.0, 1.0)).unwrap();
/// assert!((r.vertices()[2] - Vec2::new(-0.5, 1.0)).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb2 {
    center: Vec2,
    axis_x: Vec2,
    axis_y: Vec2,
    size: Vec2,
}

impl Obb2 {
    /// A box from seed 002's data.
    ///
    /// Errors: [`Shape2Error::NonFinite`] for any non-finite value,
    /// [`Shape2Error::NonPositiveExtent`] for a zero or negative size,
    /// [`Shape2Error::NonUnitAxis`] when an axis is not unit length within 1e-4,
    /// [`Shape2Error::NonOrthogonalAxes`] when `|axis_x · axis_y| > 1e-4`.
    /// The axes are stored re-orthonormalized: `axis_x` normalized and `axis_y` its
    /// counter-clockwise perpendicular. A left-handed pair (`axis_y` the clockwise
    /// perpendicular) spans the same rectangle and is stored the same way.
    /// Extreme sizes: any finite positive size is accepted; the 2D queries never panic
    /// on it, and between 1e-18 and 1e18 their answers are finite with unit normals
    /// (beyond that squared lengths leave f32's range and answers can be infinite).
    pub fn try_new(
        center: Vec2,
        axis_x: Vec2,
        axis_y: Vec2,
        size: Vec2,
    ) -> Result<Obb2, Shape2Error> {
        if !center.is_finite() || !axis_x.is_finite() || !axis_y.is_finite() || !size.is_finite() {
            return Err(Shape2Error::NonFinite);
        }
        let smallest = size.min_element();
        if smallest <= 0.0 {
            return Err(Shape2Error::NonPositiveExtent(smallest));
        }
        for axis in [axis_x, axis_y] {
            let len = axis.length();
            if (len - 1.0).abs() > AXIS_TOL {
                return Err(Shape2Error::NonUnitAxis(len));
            }
        }
        let dot = axis_x.dot(axis_y);
        if dot.abs() > AXIS_TOL {
            return Err(Shape2Error::NonOrthogonalAxes(dot));
        }
        let axis_x = axis_x.normalize();
        Ok(Obb2 {
            center,
            axis_x,
            axis_y: axis_x.perp(),
            size,
        })
    }

    /// A box from its center, full size and counter-clockwise angle (radians) of
    /// `axis_x` from `+x`. Errors as [`Obb2::try_new`] (non-finite values, non-positive size).
    pub fn try_from_angle(center: Vec2, size: Vec2, angle: f32) -> Result<Obb2, Shape2Error> {
        if !angle.is_finite() {
            return Err(Shape2Error::NonFinite);
        }
        let r = Rot2::from_angle(angle);
        Obb2::try_new(center, r.rotate(Vec2::X), r.rotate(Vec2::Y), size)
    }

    /// An axis-aligned box centred on the local origin, from half extents.
    /// Errors as [`Obb2::try_new`].
    pub fn try_from_half_extents(half_extents: Vec2) -> Result<Obb2, Shape2Error> {
        Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::Y, half_extents * 2.0)
    }

    /// The center.
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The first axis (unit).
    #[inline]
    pub fn axis_x(&self) -> Vec2 {
        self.axis_x
    }

    /// The second axis: `axis_x` turned a quarter counter-clockwise.
    #[inline]
    pub fn axis_y(&self) -> Vec2 {
        self.axis_y
    }

    /// The full size (width, height).
    #[inline]
    pub fn size(&self) -> Vec2 {
        self.size
    }

    /// Half the size.
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        self.size * 0.5
    }

    /// The box's own frame: origin at the center, `+x` along `axis_x`. In this frame
    /// the box is `[−half_extents, half_extents]`.
    pub fn frame(&self) -> Pose2 {
        // axis_x is unit by construction.
        Pose2::from_parts(
            self.center,
            Rot2 {
                cos: self.axis_x.x,
                sin: self.axis_x.y,
            },
        )
    }

    /// The 4 corners, counter-clockwise, starting at `center − axis_x·w/2 − axis_y·h/2`.
    pub fn vertices(&self) -> [Vec2; 4] {
        let ex = self.axis_x * (0.5 * self.size.x);
        let ey = self.axis_y * (0.5 * self.size.y);
        let c = self.center;
        [c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey]
    }

    /// The outward unit normals of the 4 edges (edge `i` runs from vertex `i` to `i + 1`).
    pub fn normals(&self) -> [Vec2; 4] {
        [-self.axis_y, self.axis_x, self.axis_y, -self.axis_x]
    }

    /// The same rectangle as a [`ConvexPolygon`] (same vertex and edge numbering).
    pub fn to_polygon(&self) -> ConvexPolygon {
        ConvexPolygon::try_new(&self.vertices())
            .expect("a validated box is a strictly convex counter-clockwise 4-gon")
    }

    /// The tight world AABB under `pose`.
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        let c = pose.transform_point(self.center);
        let ex = pose.transform_vector(self.axis_x).abs() * (0.5 * self.size.x);
        let ey = pose.transform_vector(self.axis_y).abs() * (0.5 * self.size.y);
        Aabb2::from_center_half(c, ex + ey)
    }

    /// The circle through the 4 corners, under `pose`.
    pub fn bounding_circle(&self, pose: &Pose2) -> BoundingCircle {
        BoundingCircle {
            center: pose.transform_point(self.center),
            radius: self.half_extents().length(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_boxes() {
        let ok = Vec2::new(1.0, 2.0);
        assert_eq!(
            Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(1.0, 0.0)),
            Err(Shape2Error::NonPositiveExtent(0.0))
        );
        assert_eq!(
            Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(-1.0, 1.0)),
            Err(Shape2Error::NonPositiveExtent(-1.0))
        );
        assert_eq!(
            Obb2::try_new(Vec2::new(f32::NAN, 0.0), Vec2::X, Vec2::Y, ok),
            Err(Shape2Error::NonFinite)
        );
        assert_eq!(
            Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(f32::INFINITY, 1.0)),
            Err(Shape2Error::NonFinite)
        );
        assert_eq!(
            Obb2::try_new(Vec2::ZERO, Vec2::X * 2.0, Vec2::Y, ok),
            Err(Shape2Error::NonUnitAxis(2.0))
        );
        assert_eq!(
            Obb2::try_new(Vec2::ZERO, Vec2::X, Vec2::ZERO, ok),
            Err(Shape2Error::NonUnitAxis(0.0))
        );
        let tilted = Vec2::new(0.6, 0.8);
        assert!(matches!(
            Obb2::try_new(Vec2::ZERO, Vec2::X, tilted, ok),
            Err(Shape2Error::NonOrthogonalAxes(_))
        ));
        assert_eq!(
            Obb2::try_from_angle(Vec2::ZERO, ok, f32::NAN),
            Err(Shape2Error::NonFinite)
        );
    }

    #[test]
    fn vertices_follow_seed_002() {
        let b = Obb2::try_from_angle(Vec2::new(3.0, -1.0), Vec2::new(2.0, 4.0), 0.4).unwrap();
        let (c, ax, ay, s) = (b.center(), b.axis_x(), b.axis_y(), b.size());
        let expect = [
            c + (-ax * s.x - ay * s.y) / 2.0,
            c + (ax * s.x - ay * s.y) / 2.0,
            c + (ax * s.x + ay * s.y) / 2.0,
            c + (-ax * s.x + ay * s.y) / 2.0,
        ];
        for (v, e) in b.vertices().iter().zip(expect) {
            assert!((*v - e).length() < 1e-6);
        }
        let aabb = b.aabb(&Pose2::IDENTITY);
        let tight = Aabb2::from_points(&b.vertices()).unwrap();
        assert!((aabb.min - tight.min).length() < 1e-5 && (aabb.max - tight.max).length() < 1e-5);
        let poly = b.to_polygon();
        assert_eq!(poly.vertices(), &b.vertices());
        for (n, m) in poly.normals().iter().zip(b.normals()) {
            assert!((*n - m).length() < 1e-5);
        }
    }
}
