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
//! Each test reports two edges when the shapes are not separated beyond the margin
//! ([`EdgeSat`]), as the 3D tests report an exact and a preferred axis:
//! * the **exact** one, the largest separation over both shapes' edges: the SAT
//!   answer, which [`contact2d`](crate::dim2::contact2d) reports (a pair apart by any
//!   amount within the margin gets a negative depth, a touching pair its exact depth);
//! * the **reference** one the manifold is built on: a's unless b's separation beats
//!   it by more than [`REFERENCE_TOLERANCE`] of the pair's size ([`choose`]), so that
//!   a resting pair does not flip between a's and b's face (each flip renews the
//!   feature ids a solver warm-starts from). Its separation is within that tolerance
//!   of the exact one.

pub(crate) mod box_box;
pub(crate) mod circle;
pub(crate) mod polygon;

/// b's face becomes the reference only when its separation beats a's by more than
/// this fraction of the pair's size (sum of the two shapes' radii). Small enough to
/// keep the reported depth within 1e-4 of the exact SAT depth, large enough to absorb
/// the round-off that would otherwise flip the choice between frames.
pub const REFERENCE_TOLERANCE: f32 = 1e-5;

/// The outcome of a SAT query in a's frame: the reference edge (the preference rule:
/// the manifold's face), its separation and whose it is, and the exact largest
/// separation with its edge (the contact's axis).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeSat {
    /// Signed distance along the reference edge's outward normal (negative:
    /// penetration).
    pub sep: f32,
    /// Reference edge index in its polygon.
    pub edge: usize,
    /// True when the reference edge is b's.
    pub ref_is_b: bool,
    /// The largest separation over both shapes' edges (`≥ sep`, within the tolerance).
    pub exact_sep: f32,
    /// The edge of the largest separation.
    pub exact_edge: usize,
    /// True when that edge is b's.
    pub exact_is_b: bool,
}

/// The reference-face rule shared by every polygon pair: b's face wins only by more
/// than `tol`; the exact edge is the larger separation (a's on a tie).
#[inline]
pub(crate) fn choose(sep_a: f32, edge_a: usize, sep_b: f32, edge_b: usize, tol: f32) -> EdgeSat {
    let exact_is_b = sep_b > sep_a;
    let (exact_sep, exact_edge) = if exact_is_b {
        (sep_b, edge_b)
    } else {
        (sep_a, edge_a)
    };
    let ref_is_b = sep_b > sep_a + tol;
    let (sep, edge) = if ref_is_b {
        (sep_b, edge_b)
    } else {
        (sep_a, edge_a)
    };
    EdgeSat {
        sep,
        edge,
        ref_is_b,
        exact_sep,
        exact_edge,
        exact_is_b,
    }
}
