//! Separating-axis tests.
//!
//! Every test works in shape a's frame (b is brought over with [`Frame`]) and measures,
//! for each candidate axis `n` (unit, pointing from a to b), the **separation**
//! `s(n) = min over b of n·x − max over a of n·x`. The shapes are apart iff some
//! candidate has `s > 0`; otherwise the candidate with the largest `s` is the
//! minimum-penetration axis and `depth = −s`.
//!
//! Each test reports two axes when the shapes are not separated beyond the margin:
//! * `exact`: the largest separation over all candidates — the true penetration depth;
//! * `preferred`: the axis the manifold is built on, chosen by a **bounded, hysteretic
//!   preference**. With `slop = FEATURE_SLOP × (the smaller shape's inner radius)`:
//!   1. *warm*: last query's reference feature (kept in the pair's cache) stays while
//!      its separation is within `slop` of the exact one;
//!   2. *cold*: otherwise a face of a is kept unless a face of b is better by more than
//!      `slop`, and that face unless an edge pair is better than it by more than `slop`
//!      (after Gregorius, GDC 2013, and Box2D's `0.1 · linearSlop`);
//!
//! So the manifold's depth is never more than `slop` above the exact depth (one
//! exception: on a degenerate hull the exact axis can come from an edge pair that does
//! not support it, which sets the depth but cannot carry a manifold), and a pair
//! at rest does not flip between a's and b's face (each flip renews every feature id a
//! solver warm-starts from). The slop is a length tied to the shapes' size, never a
//! fraction of the depth: a deep pair is pushed out along (nearly) the minimum axis.
//!
//! **Bent faces.** A hull's merged face is flat only to the hull builder's merge
//! tolerance, and it is one candidate axis where the hull of its vertices has several
//! facets a few 1e-6 rad apart. Every candidate's separation is measured exactly (by
//! vertex supports), so `exact` is the vertex hull's depth up to round-off plus at most
//! the face's bend (how far its vertices spread along its normal): on boxes whose
//! corners were moved by 2e-6 of their width, 8 in 200,000 pairs were off by more than
//! `5e-7 ×` the size, by at most a quarter of the bend (`tests/hull_oracle.rs`,
//! `bent_blocks_agree_with_vertex_projection_within_their_bend`). The merge buys whole
//! faces for manifolds: a box lying on a bent quad gets four points, not a triangle's
//! three.

pub(crate) mod box_box;
pub(crate) mod box_box_wide;
pub(crate) mod capsule;
pub(crate) mod capsule_box;
pub(crate) mod frame_wide;
pub mod gauss_map;
pub(crate) mod hull_hull;
pub mod plain;
pub(crate) mod point_polytope;
pub(crate) mod sphere;

use crate::Feature;
// The pair's frame and the vector helpers live in base modules that `manifold` reads
// too; the SAT files name them through here.
pub(crate) use crate::frame::Frame;
pub(crate) use crate::math::length_and_direction;
use glam::Vec3;

/// The feature slop of the preference (see the module docs), as a fraction of the
/// smaller shape's inner radius (a box's smallest half extent, a hull's inradius).
///
/// 5e-3 of the inner radius is 2.5 mm on a 1 m cube. It must exceed how much the face
/// separations of a resting pair move from frame to frame: a solver leaves stacked
/// boxes tilted by ~1e-3 rad, which moves a face axis' separation by about
/// `h · 1e-3 = 2e-3 × inner radius`. And it must stay below the penetration a solver
/// tolerates (Box2D's linear slop is 5 mm on 1 m bodies): choosing an axis this much
/// deeper than the minimum is then invisible to it.
pub const FEATURE_SLOP: f32 = 5e-3;
/// Edge pairs whose directions are closer to parallel than this (`|e1×e2| < k|e1||e2|`)
/// have an f32 cross product that is mostly round-off. The hull test takes their axis
/// in f64 there (`hull_hull::edges`); the box test needs no such bound, its edge axes
/// are exact for every angle (`box_box`); the baseline tests (`plain`, `gauss_map`),
/// the mesh and capsule tests skip such pairs, leaving them to the face axes.
pub(crate) const PARALLEL_EDGES: f32 = 0.005;
/// Edge pairs of the hull tests (`hull_hull::edges`, `mesh::hull_triangle`) closer to
/// parallel than this (`|e1×e2| < k|e1||e2|`) get their axis in f64. The f32 cross
/// product's direction is off by a few ε / sin φ, and the depth along it by that times
/// the size: a hull pair with edges at sin φ = 6.1e-3, just above [`PARALLEL_EDGES`],
/// had its axis 7.6e-7 rad off and its depth 1.5e-6 deeper than the f64 oracle on a
/// pair of size 3 (`hull_oracle` allows 5e-7 × size); in f64 it is 1e-7 off. Random
/// edge pairs are this close about 2 % of the time, and the f64 axis costs a few dozen
/// instructions: `prof hull` moved by 0.02 %.
pub(crate) const EXACT_CROSS: f32 = 0.2;

/// One candidate axis, in a's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Axis {
    pub separation: f32,
    /// Unit, from a to b, in a's frame.
    pub normal: Vec3,
    pub feature: Feature,
}

/// What a separating-axis test found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SatOutcome {
    /// An axis with separation above the margin.
    Separated(Axis),
    /// No axis separates beyond the margin.
    Overlap { exact: Axis, preferred: Axis },
}

/// Best candidates per kind, each the largest separation of its kind (lowest index on
/// ties), folded into the exact and preferred axes. `edge` is the best edge pair that
/// may carry a manifold; `any_edge`, when given, the best edge axis of any pair by its
/// true separation, which only sets the exact axis (see `hull_hull::edges`). `kept` is last
/// query's reference feature measured on this query's poses, when the test could
/// measure it.
// Out of line, as it was before it ran through `fold_separations`: inlined into the hull
// test it cost that test 7% more instructions (callgrind, `prof hull`).
#[inline(never)]
pub(crate) fn fold_candidates(
    face_a: Axis,
    face_b: Option<Axis>,
    edge: Option<Axis>,
    any_edge: Option<Axis>,
    slop: f32,
    kept: Option<Axis>,
) -> SatOutcome {
    let candidates = [Some(face_a), face_b, edge, any_edge, kept];
    let separation = |c: Option<Axis>| c.map(|c| c.separation);
    let (exact, preferred) = fold_separations(
        face_a.separation,
        [
            separation(face_b),
            separation(edge),
            separation(any_edge),
            separation(kept),
        ],
        slop,
    );
    let pick = |i: Pick| candidates[i as usize].expect("the fold picks a given candidate");
    SatOutcome::Overlap {
        exact: pick(exact),
        preferred: pick(preferred),
    }
}

/// A candidate of [`fold_separations`], by its place in the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    FaceA = 0,
    FaceB = 1,
    Edge = 2,
    AnyEdge = 3,
    Kept = 4,
}

/// The rule of [`fold_candidates`] on the separations alone: `face_a`, then
/// `[face_b, edge, any_edge, kept]` where given. Says which candidate is the exact axis
/// and which the preferred one, so that a test that can build an axis' normal and
/// feature after the fact (the box test) builds only these two.
#[inline]
pub(crate) fn fold_separations(face_a: f32, others: [Option<f32>; 4], slop: f32) -> (Pick, Pick) {
    let [face_b, edge, any_edge, kept] = others;
    let (mut exact, mut exact_separation) = (Pick::FaceA, face_a);
    for (pick, candidate) in [
        (Pick::FaceB, face_b),
        (Pick::Edge, edge),
        (Pick::AnyEdge, any_edge),
    ] {
        if let Some(s) = candidate
            && s > exact_separation
        {
            exact = pick;
            exact_separation = s;
        }
    }
    if let Some(kept) = kept
        && kept >= exact_separation - slop
    {
        return (exact, Pick::Kept);
    }
    // Each rival is compared with the choice so far, so the choice ends within one
    // slop of every candidate: of the exact axis too.
    let (mut preferred, mut preferred_separation) = (Pick::FaceA, face_a);
    if let Some(fb) = face_b
        && fb > preferred_separation + slop
    {
        preferred = Pick::FaceB;
        preferred_separation = fb;
    }
    if let Some(e) = edge
        && e > preferred_separation + slop
    {
        preferred = Pick::Edge;
    }
    (exact, preferred)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fold on separations alone picks what the preference rule says: a face of b
    /// must beat a face of a by more than the slop, an edge the choice so far by more
    /// than the slop, a kept axis stays within the slop of the exact one.
    #[test]
    fn fold_separations_follows_the_preference() {
        let slop = 0.01;
        // b's face better by less than the slop: a's face is kept.
        assert_eq!(
            fold_separations(-0.100, [Some(-0.095), None, None, None], slop),
            (Pick::FaceB, Pick::FaceA)
        );
        // By more than the slop: b's face.
        assert_eq!(
            fold_separations(-0.100, [Some(-0.080), None, None, None], slop),
            (Pick::FaceB, Pick::FaceB)
        );
        // An edge pair better than the faces by more than the slop.
        assert_eq!(
            fold_separations(-0.100, [Some(-0.099), Some(-0.050), None, None], slop),
            (Pick::Edge, Pick::Edge)
        );
        // Any edge sets only the exact axis.
        assert_eq!(
            fold_separations(-0.100, [Some(-0.120), None, Some(-0.010), None], slop),
            (Pick::AnyEdge, Pick::FaceA)
        );
        // A kept axis within the slop of the exact one stays; beyond it, it does not.
        assert_eq!(
            fold_separations(-0.100, [Some(-0.050), None, None, Some(-0.055)], slop),
            (Pick::FaceB, Pick::Kept)
        );
        assert_eq!(
            fold_separations(-0.100, [Some(-0.050), None, None, Some(-0.070)], slop),
            (Pick::FaceB, Pick::FaceB)
        );
    }
}
