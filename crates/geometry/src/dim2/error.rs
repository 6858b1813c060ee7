//! Errors for 2D shapes built from user data.

use std::fmt;

/// Why a 2D box, circle or AABB could not be built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape2Error {
    /// A value was NaN or infinite.
    NonFinite,
    /// A box size was zero or negative (the offending value).
    NonPositiveExtent(f32),
    /// A circle radius was zero or negative (the offending value).
    NonPositiveRadius(f32),
    /// A box axis was not unit length within 1e-4 (its length).
    NonUnitAxis(f32),
    /// The two box axes were not perpendicular within 1e-4 (their dot product).
    NonOrthogonalAxes(f32),
    /// An AABB had `min > max` on some axis.
    Inverted,
}

impl fmt::Display for Shape2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape2Error::NonFinite => write!(f, "a value is NaN or infinite"),
            Shape2Error::NonPositiveExtent(v) => write!(f, "a box size must be positive, got {v}"),
            Shape2Error::NonPositiveRadius(v) => write!(f, "a radius must be positive, got {v}"),
            Shape2Error::NonUnitAxis(l) => write!(f, "a box axis must be unit length, got {l}"),
            Shape2Error::NonOrthogonalAxes(d) => {
                write!(
                    f,
                    "the box axes must be perpendicular, their dot product is {d}"
                )
            }
            Shape2Error::Inverted => write!(f, "an AABB has min > max on some axis"),
        }
    }
}

impl std::error::Error for Shape2Error {}

/// Why a convex polygon could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolygonError {
    /// Fewer than three points were given (the count).
    TooFewPoints(usize),
    /// More than [`MAX_POLYGON_VERTICES`](super::MAX_POLYGON_VERTICES) points (the count).
    TooManyPoints(usize),
    /// Point `i` has a NaN or infinite coordinate.
    NonFinite(usize),
    /// Point `i` coincides (within tolerance) with the point after it.
    DuplicatePoint(usize),
    /// All points lie on one line (or are one point): the polygon has no area.
    Collinear,
    /// The points turn clockwise; a polygon must list its vertices counter-clockwise.
    Clockwise,
    /// The corner at point `i` is straight (its neighbours are collinear with it
    /// within tolerance); a polygon must be strictly convex.
    StraightCorner(usize),
    /// The polygon is not convex at point `i` (a reflex corner, or the outline winds
    /// around more than once).
    NotConvex(usize),
}

impl fmt::Display for PolygonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolygonError::TooFewPoints(n) => {
                write!(f, "a polygon needs at least 3 points, got {n}")
            }
            PolygonError::TooManyPoints(n) => {
                write!(
                    f,
                    "a polygon has at most {} points, got {n}",
                    super::MAX_POLYGON_VERTICES
                )
            }
            PolygonError::NonFinite(i) => write!(f, "point {i} has a NaN or infinite coordinate"),
            PolygonError::DuplicatePoint(i) => write!(f, "point {i} repeats the next point"),
            PolygonError::Collinear => write!(f, "all points lie on one line"),
            PolygonError::Clockwise => write!(f, "the points are in clockwise order"),
            PolygonError::StraightCorner(i) => write!(f, "the corner at point {i} is straight"),
            PolygonError::NotConvex(i) => write!(f, "the polygon is not convex at point {i}"),
        }
    }
}

impl std::error::Error for PolygonError {}
