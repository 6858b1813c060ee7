//! The kept feature, proven without the full test: the warm path of a hull pair whose
//! reference feature stays.
//!
//! The full test measures every face of a and b that can win, then the edge pairs.
//! It keeps last query's reference feature `k` as the preferred axis while that
//! feature's separation `s_k` is within the slop of the exact (largest) separation
//! (see the [`sat`](crate::sat) module docs; an edge pair only while it still forms a
//! Minkowski face and its edges support its axis), and the manifold is built on the
//! preferred axis. So an upper bound `U` on every candidate's separation with
//! `U ≤ s_k + slop` proves that the full test's preferred axis is the kept feature,
//! which is measured here as the full test measures it, to the bit. (What else the
//! manifold takes from the full test is checked by the caller, `kept_feature`.)
//!
//! **The bound.** Let `q` (in a's frame) be a point of b, and
//! `r = min over faces f of a of (d_f − n_f·q)`, q's depth below a's nearest face
//! plane. The ball of radius `r` about `q` lies behind every face plane of a, so
//! inside a (the fact the face queries' inner-ball pruning rests on). For any unit
//! direction `n`, b reaches down to `n·q` (q is a point of b) and a up to `n·q + r` at
//! least, so the separation along `n`, `min_b n·x − max_a n·y`, is at most `−r`: along
//! every face normal, every edge pair's axis, every direction. So `U = −r`. The same
//! holds with the roles swapped (a point of a, b's planes, in b's frame), and for a
//! point inside both with `r = r_a + r_b` (a ball in each about it).
//!
//! For a face of a, `q` is the support vertex of b under it (the one that gave
//! `s_k = n_k·q − d_k`), or an incident point of the face's manifold. When `q` lies
//! under the kept face away from a's other faces, its nearest plane is the kept
//! face's and `r = −s_k`: the bound is tight. It holds while the nearest other plane is
//! more than `−s_k − slop` from `q`. A vertex of b resting on a face of a, a face on a
//! face, a hull or a box on the ground: the resting contacts of a simulation. A face
//! of b is the same with the roles swapped. For an edge pair, `q` is one of the edges'
//! closest points (each inside the other shape) or their midpoint: at the crossing
//! the nearest planes are the faces beside the other edge, at angles `θ` to the axis,
//! so `r ≈ −s_k cos θ`, which proves it while the penetration is below about
//! `slop / (1 − cos θ)` (on the benches' 24-point hulls, a few percent of the size).
//! Deeper contacts, a contact next to a third face, and features the full test would
//! drop take the full query.
//!
//! **Round-off.** With `u = 2⁻²⁴` and the pair's extent `E = |t| + ρ_a + ρ_b`, each
//! separation the full test computes (a few dot products of unit normals with points
//! at most `E` away, the frame's rotation applied once) is within about `15u·E` of its
//! exact value, `r` within about `11u·E`, and the preference's comparison rounds once
//! more: about `28u·E` in all. The test allows `W = 32u·E` (`ROUND_OFF`): `r > W` (the
//! pair overlaps beyond doubt, so no candidate separates or is a gap within the
//! margin) and `−s_k − r ≤ slop − W`; a sum of two depths is lowered by one more `W`.
//! A value that is not finite fails it. On a 200 m ground box (`ρ ≈ 141`) `W ≈ 6e-4`,
//! below the slop of hulls with an inradius above 0.12 m.

use super::edges::{arcs_cross, length};
use super::faces::hint_of;
use super::{Query, Remembered, Support, SupportMode, supports};
use crate::Feature;
use crate::cache::SupportHints;
use crate::math::closest_points_on_segments;
use crate::polytope::Polytope;
use crate::sat::{Axis, FEATURE_SLOP, Frame};
use glam::Vec3;

/// The round-off allowance `W` as a fraction of the pair's extent: 32 units of round-off
/// (`f32::EPSILON` is two), above the ~28 the module docs count.
const ROUND_OFF: f32 = 16.0 * f32::EPSILON;

/// The deepest edge pair (in slops) the warm path tries to prove. At the crossing,
/// `r ≈ p cos θ` for a penetration `p`, which proves it only while `p (1 − cos θ)` stays
/// below the slop: a pair 32 slops deep needs the faces beside the edges within 14° of
/// the axis (`1 − cos 14° ≈ 1/32`), which is rare, so deeper pairs go straight to the
/// full test, which would redo the work. (Callgrind, `stress --scene hulls`, narrow
/// stage a frame: 23.35M without the limit, 22.57M at 8 slops, 22.49M at 16, 22.44M at
/// 32.)
const EDGE_PENETRATION: f32 = 32.0;

/// Last query's feature measured on this frame by [`remeasure`], with what the bound of
/// the module docs needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remeasured {
    pub remembered: Remembered,
    /// The axis the full test keeps for this feature when the bound holds: a face's own
    /// axis; an edge pair's verified axis when the pair still forms a Minkowski face,
    /// its edge-to-edge value is within the margin and its edges support the axis
    /// (`None` otherwise, and for anything else).
    pub kept: Option<Axis>,
    /// The best `r` found so far: for a face, at the other shape's support vertex under
    /// it; for an edge pair, at the edges' closest points (NaN when there is none, and
    /// when the feature separates the pair beyond the margin: nothing reads it then).
    pub depth: f32,
    slop: f32,
    /// The round-off allowance `W` of the module docs.
    round_off: f32,
}

impl Remeasured {
    /// True when the feature is a face of either shape.
    #[inline]
    pub fn is_face(&self) -> bool {
        matches!(
            self.remembered.axis.feature,
            Feature::FaceA(_) | Feature::FaceB(_)
        )
    }

    /// The preference's slop for this pair (`FEATURE_SLOP` × the smaller inradius).
    #[inline]
    pub fn slop(&self) -> f32 {
        self.slop
    }

    /// Whether a point at `depth` `r` ([`depth_below_planes`], or one of [`remeasure`]'s)
    /// proves that the full test keeps the [`kept`](Remeasured::kept) axis: the bound of
    /// the module docs. False without a kept axis and for any NaN.
    #[inline]
    pub fn proves_kept(&self, depth: f32) -> bool {
        let Some(kept) = self.kept else {
            return false;
        };
        let separation = kept.separation;
        let w = self.round_off;
        depth > w && separation < 0.0 && -separation - depth <= self.slop - w
    }
}

/// Last query's `feature` measured on this frame as the full
/// [`hull_hull`](super::hull_hull) test measures it first (the same bits), with the
/// axis the full test would keep for it and the best `r` at hand (see [`Remeasured`]).
/// `None` for a feature index the shapes do not have, or near-parallel edges. `hints`
/// gets a face's support vertex.
pub(crate) fn remeasure(
    a: &Polytope,
    b: &Polytope,
    frame: &Frame,
    feature: Feature,
    margin: f32,
    mode: SupportMode,
    hints: &mut SupportHints,
) -> Option<Remeasured> {
    let query = Query::new(a, b, frame);
    let (mut support_a, mut support_b) = supports(a, b, mode, hints);
    let remembered = query.remembered(feature, &mut support_a, &mut support_b)?;
    let round_off = ROUND_OFF * (length(frame.trans) + a.radius + b.radius);
    let slop = FEATURE_SLOP * a.inradius.min(b.inradius);
    // Beyond the margin the caller answers "separated" from `remembered` alone: no
    // point's depth is measured for it.
    let separated = remembered.axis.separation > margin;
    let face_depth = |poly: &Polytope, q: Vec3| match separated {
        true => f32::NAN,
        false => depth_inside(poly, q),
    };
    let (kept, depth) = match feature {
        Feature::FaceA(_) => {
            hints.b_under_face_a = hint_of(remembered.vertex);
            let q = frame.point_to_a(b.vertices[remembered.vertex]);
            (Some(remembered.axis), face_depth(a, q))
        }
        Feature::FaceB(_) => {
            hints.a_under_face_b = hint_of(remembered.vertex);
            let q = frame.point_to_b(a.vertices[remembered.vertex]);
            (Some(remembered.axis), face_depth(b, q))
        }
        // A separating edge axis ends the test before any of this (the caller's); a
        // deep one cannot be proven (see `EDGE_PENETRATION`).
        Feature::EdgeEdge(i, j)
            if remembered.axis.separation <= margin
                && -remembered.axis.separation <= EDGE_PENETRATION * slop =>
        {
            query
                .kept_edge(
                    i as usize,
                    j as usize,
                    margin,
                    round_off,
                    &mut support_a,
                    &mut support_b,
                )
                .map_or((None, f32::NAN), |(axis, depth)| (Some(axis), depth))
        }
        _ => (None, f32::NAN),
    };
    Some(Remeasured {
        remembered,
        kept,
        depth,
        slop,
        round_off,
    })
}

impl Query<'_> {
    /// The axis the edge query keeps for the cached pair `(i, j)` (see
    /// [`Remeasured::kept`]), the same bits, and the best `r` at the edges' closest
    /// points: b's point inside a, a's point inside b, and their midpoint with both
    /// depths added when it is inside both (less one more `W`: two depths' round-off).
    fn kept_edge(
        &self,
        i: usize,
        j: usize,
        margin: f32,
        round_off: f32,
        sa: &mut Support,
        sb: &mut Support,
    ) -> Option<(Axis, f32)> {
        let (ea, eb) = (self.edge_a(i), self.edge_b(j));
        if !arcs_cross(ea.n0, ea.n1, ea.cross, eb.n0, eb.n1, eb.cross) {
            return None;
        }
        let axis = self.edge_axis(&ea, &eb)?;
        // A larger edge-to-edge value is measured, not kept, by the edge query.
        if axis.separation > margin || axis.separation.is_nan() {
            return None;
        }
        let (axis, supports) = self.verify(&axis, self.pair_scale(&ea, &eb), sa, sb);
        if !supports {
            return None;
        }
        let (on_a, on_b) =
            closest_points_on_segments(ea.point, ea.direction, eb.point, eb.direction);
        let (a, b, frame) = (self.a, self.b, self.frame);
        let mid = (on_a + on_b) * 0.5;
        let (mid_a, mid_b) = (depth_inside(a, mid), depth_inside(b, frame.point_to_b(mid)));
        let both = if mid_a >= 0.0 && mid_b >= 0.0 {
            mid_a + mid_b - round_off
        } else {
            f32::NEG_INFINITY
        };
        let depth = depth_inside(a, on_b)
            .max(depth_inside(b, frame.point_to_b(on_a)))
            .max(both);
        Some((axis, depth))
    }
}

/// `r` of the module docs for another point of the other shape: how deep `p` (a point
/// of b for a face of a, of a for a face of b; in a's frame) lies below the nearest face
/// plane of the face's own shape. NaN for an edge pair.
#[inline(always)]
pub(crate) fn depth_below_planes(
    a: &Polytope,
    b: &Polytope,
    frame: &Frame,
    feature: Feature,
    p: Vec3,
) -> f32 {
    match feature {
        Feature::FaceA(_) => depth_inside(a, p),
        Feature::FaceB(_) => depth_inside(b, frame.point_to_b(p)),
        _ => f32::NAN,
    }
}

/// `min over faces of (d_f − n_f·q)`: how deep `q` (in the polytope's frame) lies
/// below its nearest face plane; negative outside, NaN for a point that is not finite.
#[inline]
fn depth_inside(poly: &Polytope, q: Vec3) -> f32 {
    match poly.hull {
        Some(hull) => -hull.furthest_plane_distance(q),
        None => {
            let mut depth = f32::INFINITY;
            for plane in poly.planes {
                let d = plane.offset - plane.normal.dot(q);
                // A NaN stays, and then fails every test.
                if d < depth || d.is_nan() {
                    depth = d;
                }
            }
            depth
        }
    }
}
