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
    /// The id was never handed out, or its proxy was removed.
    UnknownProxy(ProxyId),
    /// More than `u32::MAX` proxies would be alive at once.
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
            BroadPhaseError::TooManyProxies => write!(f, "more than u32::MAX proxies"),
            BroadPhaseError::InvalidRay => write!(
                f,
                "a ray needs a finite origin, a direction of normal squared length and max_t >= 0"
            ),
        }
    }
}

impl std::error::Error for BroadPhaseError {}
