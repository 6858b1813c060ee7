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
    /// A shape is a triangle mesh where the query takes convex shapes only (distances;
    /// a cast of two meshes).
    NotConvex,
    /// A motion has a non-finite velocity.
    InvalidMotion,
    /// The time limit of a cast is negative, NaN or infinite.
    InvalidTime,
    /// A cast against a triangle mesh whose motion turns (a mesh may translate, not
    /// rotate, during a cast: level geometry is static).
    TurningMesh,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QueryError::InvalidPose => "a pose is not finite or its rotation is not unit",
            QueryError::NotConvex => "a shape is a triangle mesh; the query takes convex shapes",
            QueryError::InvalidMotion => "a motion has a non-finite velocity",
            QueryError::InvalidTime => "the time limit is negative or not finite",
            QueryError::TurningMesh => "a cast against a triangle mesh that turns",
        })
    }
}

impl std::error::Error for QueryError {}
