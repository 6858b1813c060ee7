//! Errors for shapes built from user data.

use std::fmt;

/// Why a sphere, box, capsule or AABB could not be built from the given values, or why mass
/// properties could not be computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeError {
    /// A value was NaN or infinite.
    NonFinite,
    /// A box extent or size was zero or negative (the offending value).
    NonPositiveExtent(f32),
    /// A sphere or capsule radius was zero or negative (the offending value).
    NonPositiveRadius(f32),
    /// A capsule's half height was negative (the offending value); zero is allowed.
    NegativeHalfHeight(f32),
    /// An AABB had `min > max` on some axis.
    Inverted,
    /// A rotation quaternion was zero-length or could not be normalized.
    InvalidRotation,
    /// A density was zero, negative, NaN or infinite (the offending value): mass
    /// properties need a finite, positive density.
    InvalidDensity(f32),
    /// The mass or a moment of inertia does not fit in an `f32` as a positive normal
    /// number (finite and at least `f32::MIN_POSITIVE`): the shape is too large or too
    /// small for the density.
    MassOutOfRange,
    /// The shape is a surface (a triangle mesh): it has no volume, so no mass.
    NotSolid,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NonFinite => write!(f, "a value is NaN or infinite"),
            ShapeError::NonPositiveExtent(v) => {
                write!(f, "a box extent must be positive, got {v}")
            }
            ShapeError::NonPositiveRadius(v) => write!(f, "a radius must be positive, got {v}"),
            ShapeError::NegativeHalfHeight(v) => {
                write!(f, "a capsule's half height must not be negative, got {v}")
            }
            ShapeError::Inverted => write!(f, "an AABB has min > max on some axis"),
            ShapeError::InvalidRotation => {
                write!(f, "the rotation quaternion is zero or not finite")
            }
            ShapeError::InvalidDensity(v) => {
                write!(f, "a density must be finite and positive, got {v}")
            }
            ShapeError::NotSolid => write!(f, "a triangle mesh is a surface and has no mass"),
            ShapeError::MassOutOfRange => {
                write!(f, "the mass or inertia does not fit in an f32")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// Why a convex hull could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HullError {
    /// Fewer than four points were given (the count).
    TooFewPoints(usize),
    /// A point coordinate was NaN or infinite (the index of the first such point).
    NonFinite(usize),
    /// All points are the same point (within tolerance).
    AllDuplicate,
    /// All points lie on one line (within tolerance): the hull has no volume.
    Collinear,
    /// All points lie in one plane (within tolerance): the hull has no volume.
    Coplanar,
    /// Faces handed to [`ConvexHull::try_from_faces`](crate::ConvexHull::try_from_faces)
    /// do not describe a closed convex polyhedron.
    InvalidTopology,
    /// [`ConvexHull::try_from_points`](crate::ConvexHull::try_from_points) could not
    /// build a hull that is consistent within its tolerance: round-off between points
    /// that lie about one tolerance apart. Rare: about 1 in 50,000 fuzzed clouds of
    /// lattice points each moved by about the tolerance (see the constructor's docs).
    NumericalFailure,
    /// More points than the limit of
    /// [`ConvexHull::try_from_points`](crate::ConvexHull::try_from_points)
    /// ([`ConvexHull::MAX_POINTS`](crate::ConvexHull::MAX_POINTS)) or the one given to
    /// [`ConvexHull::try_from_points_with_limit`](crate::ConvexHull::try_from_points_with_limit),
    /// or more vertices than [`ConvexHull::try_from_faces`](crate::ConvexHull::try_from_faces)
    /// takes ([`ConvexHull::MAX_VERTICES`](crate::ConvexHull::MAX_VERTICES)).
    TooManyPoints {
        /// The number of points given.
        count: usize,
        /// The limit they passed.
        limit: usize,
    },
    /// The hull lies so far out or is so wide (coordinates near `f32::MAX`) that its
    /// size about its centroid or a face plane's offset is not a finite f32.
    TooLarge,
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HullError::TooFewPoints(n) => write!(f, "a hull needs at least 4 points, got {n}"),
            HullError::NonFinite(i) => write!(f, "point {i} has a NaN or infinite coordinate"),
            HullError::AllDuplicate => write!(f, "all points are the same point"),
            HullError::Collinear => write!(f, "all points lie on one line"),
            HullError::Coplanar => write!(f, "all points lie in one plane"),
            HullError::InvalidTopology => {
                write!(f, "the faces do not form a closed convex polyhedron")
            }
            HullError::NumericalFailure => {
                write!(f, "no hull consistent within tolerance could be built")
            }
            HullError::TooLarge => write!(f, "a face plane of the hull lies beyond f32::MAX"),
            HullError::TooManyPoints { count, limit } => {
                write!(f, "{count} points for a hull, at most {limit} allowed")
            }
        }
    }
}

impl std::error::Error for HullError {}

/// Why a [`TriMesh`](crate::TriMesh) could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshError {
    /// No vertices or no triangles were given.
    Empty,
    /// A vertex coordinate was NaN or infinite (the index of the first such vertex).
    NonFiniteVertex(usize),
    /// A vertex coordinate lies beyond
    /// [`TriMesh::MAX_COORDINATE`](crate::TriMesh::MAX_COORDINATE) in magnitude (the
    /// index of the first such vertex): products of two lengths (normals, areas,
    /// plane offsets) would overflow `f32`.
    TooLarge(usize),
    /// A triangle names a vertex that does not exist.
    IndexOutOfRange {
        /// The triangle's position in the index list given.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
    },
    /// More triangles than [`TriMesh::MAX_TRIANGLES`](crate::TriMesh::MAX_TRIANGLES)
    /// (the count).
    TooManyTriangles(usize),
    /// Every triangle was degenerate (repeated index or no area), so nothing is left.
    AllDegenerate,
    /// [`TriMesh::try_from_heights`](crate::TriMesh::try_from_heights) was given fewer
    /// than 2 × 2 samples, a height count that is not `columns × rows`, or a cell size
    /// that is not finite and positive.
    InvalidGrid,
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshError::Empty => write!(f, "a mesh needs at least one vertex and one triangle"),
            MeshError::NonFiniteVertex(i) => {
                write!(f, "vertex {i} has a NaN or infinite coordinate")
            }
            MeshError::TooLarge(i) => write!(
                f,
                "vertex {i} has a coordinate beyond {:e}",
                crate::TriMesh::MAX_COORDINATE
            ),
            MeshError::IndexOutOfRange { triangle, index } => {
                write!(
                    f,
                    "triangle {triangle} names vertex {index}, which does not exist"
                )
            }
            MeshError::TooManyTriangles(n) => write!(
                f,
                "{n} triangles, more than the {} a mesh may have",
                crate::TriMesh::MAX_TRIANGLES
            ),
            MeshError::AllDegenerate => write!(f, "every triangle of the mesh is degenerate"),
            MeshError::InvalidGrid => write!(
                f,
                "a height grid needs at least 2 x 2 samples, columns x rows heights and a finite positive cell size"
            ),
        }
    }
}

impl std::error::Error for MeshError {}
