//! Edge–edge contact: one point halfway between the closest points of two segments.
//!
//! With the segments' closest points `p_a`, `p_b` (in a's frame) and the axis'
//! separation `s` along `n`:
//! * depth `−s` when penetrating; for a gap, `−|p_b − p_a|`, measured between the
//!   segments, which can be wider than between their lines (the axis separation), and
//!   no point beyond the margin;
//! * penetrating edges that support the axis cross it face to face, so their closest
//!   points differ by `s n` (`s` along `n`, nothing sideways); when they do not (within
//!   `1e-3` of the edges' reach), the pair only set the depth (see
//!   `sat::hull_hull::edges`: an edge pair tied with a face whose edge it is, its
//!   lines crossing beyond that edge's end) or was kept by the preference after its
//!   edges stopped crossing (a box pair's warm query), the segments say nothing about
//!   where the contact is, and the caller falls back to the exact axis or the deepest
//!   vertex;
//! * the point is `(p_a + p_b) / 2`; its id packs a's edge and b's edge (both lines
//!   `0xffff`, which [`flipped_id`](crate::flipped_id) recognises).

use super::pack_id;
use super::reduce::Candidate;
use crate::math::closest_points_on_crossing_segments_f64;
use crate::polytope::Polytope;
use glam::Vec3;
use smallvec::SmallVec;

/// A segment given by its two endpoints.
pub(crate) type Segment = (Vec3, Vec3);

/// The endpoints of edge `e` of a polytope, in its own frame.
pub(crate) fn polytope_edge(p: &Polytope, e: u32) -> Segment {
    let edge = p.edges[e as usize];
    (
        p.vertices[edge.vertices[0] as usize],
        p.vertices[edge.vertices[1] as usize],
    )
}

/// The contact point of edge `ea` of a (`(a0, a1)`, in a's frame) and edge `eb` of b
/// (`(b0, b1)`, already in a's frame) for the axis `n` with separation `s`.
pub(crate) fn edge_contact(
    a: Segment,
    b: Segment,
    n: Vec3,
    s: f32,
    margin: f32,
    edges: (u32, u32),
) -> SmallVec<[Candidate; 4]> {
    edge_contact_inlined(a, b, n, s, margin, edges)
}

/// [`edge_contact`] inlined into its caller, for the box pair's caller that builds the
/// segments in registers: as a call, the segments went by memory and its closest
/// points came back that way, and the reads waited on the stores.
#[inline(always)]
pub(crate) fn edge_contact_inlined(
    (a0, a1): Segment,
    (b0, b1): Segment,
    n: Vec3,
    s: f32,
    margin: f32,
    (ea, eb): (u32, u32),
) -> SmallVec<[Candidate; 4]> {
    let (on_a, on_b) = closest_points_on_crossing_segments_f64(
        a0.as_dvec3(),
        (a1 - a0).as_dvec3(),
        b0.as_dvec3(),
        (b1 - b0).as_dvec3(),
    );
    let (on_a, on_b) = (on_a.as_vec3(), on_b.as_vec3());
    let depth = if s > 0.0 { -(on_b - on_a).length() } else { -s };
    if depth < -margin {
        return SmallVec::new();
    }
    // Supporting edges cross: `p_b − p_a = s n`, sideways too. (Measured along `n`
    // alone until 5 December 2026, pairs whose lines cross beyond an edge's end
    // passed: a hull pair's point 0.27 outside a, and warm box pairs' points up to
    // 1.9 outside, 128 of 81,359 warm box manifolds in a first sweep:
    // `tests/warm_points_in_shapes.rs`.)
    let reach = (a1 - a0).length() + (b1 - b0).length();
    let tolerance = 1e-3 * reach;
    if s <= 0.0 && ((on_b - on_a) - n * s).length_squared() > tolerance * tolerance {
        return SmallVec::new();
    }
    let point = Candidate {
        point: (on_a + on_b) * 0.5,
        depth,
        id: pack_id(false, ea, eb, [u16::MAX, u16::MAX]),
    };
    // (Not `SmallVec::from_elem` or `push`: each stayed a call.)
    SmallVec::from_buf_and_len([point; 4], 1)
}
