//! 2D contact manifolds: from the reference edge of a separating-axis test to at most two
//! points with depths and feature ids.
//!
//! * **Polygon pairs** ([`polygon`], [`box_box`] for two boxes): the incident edge is
//!   the other shape's edge most anti-parallel to the reference normal; it is clipped
//!   ([`clip`]) to the reference edge's side planes, and points separated by more than
//!   the margin are dropped.
//! * **Deep points** ([`overlap`]): a penetrating point goes to the middle of the part
//!   of its normal line inside both shapes, so that it lies in both.
//!
//! Circles need no clipping: their one point comes with the circle test
//! ([`crate::dim2::sat::circle`]).

pub(crate) mod box_box;
pub(crate) mod clip;
pub(crate) mod overlap;
pub(crate) mod polygon;
