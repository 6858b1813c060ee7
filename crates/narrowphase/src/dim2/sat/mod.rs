//! Separating-axis tests in the plane.
//!
//! Every test works in one frame (a's, or a box's own) and measures, for each edge
//! normal `n` of either shape (outward, unit), the **separation**
//! `s(n) = min over the other shape of n·x − (n·v of the edge)`. The shapes are apart
//! iff some `s > 0`; otherwise the edge with the largest `s` is the reference face and
//! `depth = −s`. Each test exits early on the first edge separating by more than the
//! margin.
//!
//! * [`polygon`]: polygon–polygon (and box–polygon, the box as a 4-gon), the largest
//!   separation over a's edges, then over b's (Box2D's `b2FindMaxSeparation`);
//! * [`box_box`]: two boxes by projected radii on 4 axes, the same answer in closed form;
//! * [`circle`]: circle–circle along the centres, circle–polygon by the Voronoi regions
//!   of the edge of largest separation.
//!
//! The reference face is a's unless b's separation beats it by more than
//! [`REFERENCE_TOLERANCE`] of the pair's size ([`choose`]): a resting pair does not flip
//! between a's and b's face (each flip renews the feature ids a solver warm-starts from).

pub(crate) mod box_box;
pub(crate) mod circle;
pub(crate) mod polygon;

/// b's face becomes the reference only when its separation beats a's by more than
/// this fraction of the pair's size (sum of the two shapes' radii). Small enough to
/// keep the reported depth within 1e-4 of the exact SAT depth, large enough to absorb
/// the round-off that would otherwise flip the choice between frames.
pub const REFERENCE_TOLERANCE: f32 = 1e-5;

/// The outcome of a SAT query in a's frame: the largest separation found, the edge
/// that gave it and whether that edge belongs to b.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeSat {
    /// Signed distance along the edge's outward normal (negative: penetration).
    pub sep: f32,
    /// Edge index in its polygon.
    pub edge: usize,
    /// True when the edge is b's.
    pub ref_is_b: bool,
}

/// The reference-face rule shared by every polygon pair: b's face wins only by more
/// than `tol`.
#[inline]
pub(crate) fn choose(sep_a: f32, edge_a: usize, sep_b: f32, edge_b: usize, tol: f32) -> EdgeSat {
    if sep_b > sep_a + tol {
        EdgeSat {
            sep: sep_b,
            edge: edge_b,
            ref_is_b: true,
        }
    } else {
        EdgeSat {
            sep: sep_a,
            edge: edge_a,
            ref_is_b: false,
        }
    }
}
