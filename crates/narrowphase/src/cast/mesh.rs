//! Casting a convex shape against a triangle mesh: one cast per triangle under the
//! swept shape, the earliest hit.
//!
//! The mesh may translate but not turn, so in its frame the other shape's origin runs
//! along a straight segment and the shape stays within its reach of it: the box of
//! that segment grown by the reach (and a hair of round-off) holds every triangle the
//! shape can touch, and the mesh's BVH lists them ([`TriMesh::query_aabb`], ascending,
//! into a reused per-thread buffer). Each is cast as a flat core of three corners
//! (two-sided, like ray casts against meshes; contacts are one-sided) by the same
//! conservative advancement as any pair, the mesh triangle first; each cast is given
//! the earliest time found so far as its limit, and the earliest hit wins; among equal
//! times the one with the least separation (so a triangle the shape already overlaps
//! at time 0 beats one it is a hair from: the hit is `initially_touching`, with the
//! penetration's normal), then the lowest triangle index.

use super::advance::{Body, advance};
use super::{CAST_TOLERANCE, CastHit, Motion};
use crate::error::QueryError;
use glam::Vec3;
use sepax_geometry::{Aabb, Pose, Shape, TriMesh};
use std::cell::RefCell;

thread_local! {
    /// The triangles under a sweep, reused from cast to cast.
    static UNDER: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// The cast of `other` against the mesh `shape` (`mesh`, at `pose`, moving with
/// `motion`), mesh first.
pub(super) fn cast_mesh(
    (shape, mesh): (&Shape, &TriMesh),
    pose: &Pose,
    motion: &Motion,
    other: &Body,
    max_time: f32,
) -> Result<Option<CastHit>, QueryError> {
    if motion.angular != Vec3::ZERO {
        return Err(QueryError::TurningMesh);
    }
    let inverse = pose.inverse();
    let start = inverse.transform_point(other.pose.translation);
    let velocity = inverse.transform_vector(other.motion.linear - motion.linear);
    let end = start + velocity * max_time;
    let tolerance = CAST_TOLERANCE as f64 * other.reach();
    let grow = (other.reach() * (1.0 + 1e-5) + tolerance) as f32
        + 1e-5 * (start.abs().max_element() + end.abs().max_element());
    let region = Aabb::new(
        start.min(end) - Vec3::splat(grow),
        start.max(end) + Vec3::splat(grow),
    );
    UNDER.with_borrow_mut(|under| {
        under.clear();
        mesh.query_aabb(&region, under);
        let mut best: Option<CastHit> = None;
        for &i in under.iter() {
            let corners = mesh.triangle(i).vertices;
            let triangle = Body::triangle(shape, corners, pose, motion);
            let limit = best.map_or(max_time, |h| h.time);
            if let Some(hit) = advance(&triangle, other, limit)
                && best.is_none_or(|b| earlier(&hit, &b))
            {
                best = Some(hit);
            }
        }
        Ok(best)
    })
}

/// Whether `hit` goes before `best`: earlier, or as early and less apart (see the
/// module docs).
fn earlier(hit: &CastHit, best: &CastHit) -> bool {
    hit.time < best.time || (hit.time == best.time && hit.separation < best.separation)
}
