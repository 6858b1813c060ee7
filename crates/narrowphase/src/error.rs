//! Why a distance or cast query refused its input.

use std::fmt;

/// Input a distance or shape-cast query refuses (instead of panicking).
///
/// ```
/// use sepax_geometry::{Pose, Shape, Sphere};
/// use sepax_narrowphase::{QueryError, distance};
/// use glam::{Quat, Vec3};
///
/// let ball = Shape::from(Sphere::try_new(1.0).unwrap());
/// let bad = Pose::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY);
/// assert_eq!(distance(&ball, &Pose::IDENTITY, &ball, &bad), Err(QueryError::InvalidPose));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryError {
    /// A pose has a non-finite value or a rotation that is not unit within 1e-3
    /// (see [`Pose::is_valid`](sepax_geometry::Pose::is_valid)).
    InvalidPose,
    /// A shape is a triangle mesh: distances and casts take convex shapes only.
    NotConvex,
    /// A motion has a non-finite velocity.
    InvalidMotion,
    /// The time limit of a cast is negative, NaN or infinite.
    InvalidTime,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QueryError::InvalidPose => "a pose is not finite or its rotation is not unit",
            QueryError::NotConvex => "a shape is a triangle mesh; the query takes convex shapes",
            QueryError::InvalidMotion => "a motion has a non-finite velocity",
            QueryError::InvalidTime => "the time limit is negative or not finite",
        })
    }
}

impl std::error::Error for QueryError {}
