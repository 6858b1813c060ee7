//! Errors for proxies and queries built from user data.

use crate::ProxyId;
use sepax_geometry::ShapeError;
use std::fmt;

/// Why a broad-phase call refused its input. Nothing in this crate panics on user data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// An AABB had a NaN or infinite coordinate. It never reaches a sort.
    NonFiniteAabb,
    /// An AABB had `min > max` on some axis.
    InvertedAabb,
    /// No proxy lives under this id (never inserted, or removed).
    UnknownProxy(ProxyId),
    /// A proxy already lives under this id.
    ProxyExists(ProxyId),
    /// The id `u32::MAX` is reserved (it marks the sweep's sentinel).
    TooManyProxies,
    /// A ray had a non-finite origin, a direction whose squared length is not a
    /// normal `f32` (zero, denormal or overflowing), or a negative or NaN maximum
    /// parameter.
    InvalidRay,
}

impl From<ShapeError> for BroadPhaseError {
    fn from(e: ShapeError) -> Self {
        match e {
            ShapeError::Inverted => BroadPhaseError::InvertedAabb,
            _ => BroadPhaseError::NonFiniteAabb,
        }
    }
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadPhaseError::NonFiniteAabb => write!(f, "an AABB has a NaN or infinite value"),
            BroadPhaseError::InvertedAabb => write!(f, "an AABB has min > max on some axis"),
            BroadPhaseError::UnknownProxy(id) => {
                write!(
                    f,
                    "proxy {} does not exist (never inserted or removed)",
                    id.0
                )
            }
            BroadPhaseError::ProxyExists(id) => write!(f, "proxy {} already exists", id.0),
            BroadPhaseError::TooManyProxies => write!(f, "the proxy id u32::MAX is reserved"),
            BroadPhaseError::InvalidRay => write!(
                f,
                "a ray needs a finite origin, a direction of normal squared length and max_t >= 0"
            ),
        }
    }
}

impl std::error::Error for BroadPhaseError {}
