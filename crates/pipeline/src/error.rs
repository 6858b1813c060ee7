//! Errors of the collision world.

use crate::BodyHandle;
use std::fmt;

/// Why a [`CollisionWorld`](crate::CollisionWorld) call refused its input.
/// Nothing in this crate panics on user data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldError {
    /// The handle was never issued by this world (it comes from another world), or
    /// its body was removed (the slot may since hold another body with a newer
    /// generation).
    StaleHandle(BodyHandle),
    /// More than `u32::MAX - 1` bodies would be alive at once.
    TooManyBodies,
    /// A query got a region with a NaN or infinite value, or `min > max`.
    InvalidRegion,
    /// A ray needs a finite origin, a direction whose squared length is a normal
    /// `f32` (not zero, denormal or overflowing) and `max_t >= 0`; see
    /// [`is_valid_ray`](crate::ray::is_valid_ray).
    InvalidRay,
    /// The rayon thread pool could not be built (the message says why).
    ThreadPool(String),
    /// [`Config::threads`](crate::Config::threads) was above
    /// [`Config::MAX_THREADS`](crate::Config::MAX_THREADS) (the requested count).
    TooManyThreads(usize),
    /// [`Config::margin`](crate::Config::margin) was NaN or infinite.
    NonFiniteMargin,
    /// A triangle mesh was given to a dynamic or kinematic body: meshes are static
    /// level geometry (one broad-phase box for the whole mesh, its triangles culled by
    /// the mesh's own BVH).
    MeshNotStatic,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::StaleHandle(h) => write!(
                f,
                "body handle {}:{} of world {} is stale (removed, or issued by another world)",
                h.index(),
                h.generation(),
                h.world()
            ),
            WorldError::TooManyBodies => write!(f, "more than u32::MAX - 1 bodies"),
            WorldError::InvalidRegion => {
                write!(f, "a query region has a NaN or infinite value or min > max")
            }
            WorldError::InvalidRay => write!(
                f,
                "a ray needs a finite origin, a direction of normal squared length and max_t >= 0"
            ),
            WorldError::ThreadPool(m) => write!(f, "could not build the thread pool: {m}"),
            WorldError::TooManyThreads(n) => write!(
                f,
                "{n} threads requested, at most {} allowed",
                crate::Config::MAX_THREADS
            ),
            WorldError::NonFiniteMargin => write!(f, "the contact margin is NaN or infinite"),
            WorldError::MeshNotStatic => {
                write!(f, "a triangle mesh can only be the shape of a static body")
            }
        }
    }
}

impl std::error::Error for WorldError {}
