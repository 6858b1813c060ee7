//! # sepax-narrowphase
//!
//! Separating-axis queries and contact manifolds for pairs of convex shapes.
//! The normal of every result points **from a to b**; `depth > 0` means penetrating.

pub mod dim2;
