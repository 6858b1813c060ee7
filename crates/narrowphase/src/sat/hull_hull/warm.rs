//! The kept face, proven without the full test: the warm path of a hull pair whose
//! reference face stays.
//!
//! The full test measures every face of a and b that can win, then the edge pairs.
//! It keeps last query's reference face `k` as the preferred axis while that face's
//! separation `s_k` is within the slop of the exact (largest) separation (see the
//! [`sat`](crate::sat) module docs), and the manifold is built on the preferred axis.
//! So an upper bound `U` on every candidate's separation with `U ≤ s_k + slop` proves
//! that the full test's preferred axis is the kept face, which is measured here as the
//! full test measures it, to the bit. (What else the manifold takes from the full test
//! is checked by the caller, `kept_face`.)
//!
//! **The bound.** Let face k be a face of a, and `q` (in a's frame) a point of b: the
//! support vertex under the face first (the one that gave `s_k = n_k·q − d_k`), or the
//! incident points of the face's clipped manifold. Let
//! `r = min over faces f of a of (d_f − n_f·q)`, q's depth below a's nearest face
//! plane. The ball of radius `r` about `q` lies behind every face plane of a, so
//! inside a (the fact the face queries' inner-ball pruning rests on). For any unit
//! direction `n`, b reaches down to `n·q` (q is a point of b) and a up to `n·q + r` at
//! least, so the separation along `n`, `min_b n·x − max_a n·y`, is at most `−r`: along
//! every face normal, every edge pair's axis, every direction. So `U = −r`.
//!
//! When `q` lies under the kept face away from a's other faces, its nearest plane is
//! the kept face's and `r = −s_k`: the bound is tight. It holds while the nearest
//! other plane is more than `−s_k − slop` from `q`. A vertex of b resting on a face of
//! a, a face on a face, a hull or a box on the ground: the resting contacts of a
//! simulation. A contact next to an edge of a (`q` near two planes) or across two
//! edges (no ball that size fits), or a penetration much deeper than the slop near a
//! face's border, fails the test and takes the full query. A face of b is the same
//! with the roles swapped: a point of a, b's planes, in b's frame.
//!
//! **Round-off.** With `u = 2⁻²⁴` and the pair's extent `E = |t| + ρ_a + ρ_b`, each
//! separation the full test computes (a few dot products of unit normals with points
//! at most `E` away, the frame's rotation applied once) is within about `15u·E` of its
//! exact value, `r` within about `11u·E`, and the preference's comparison rounds once
//! more: about `28u·E` in all. The test allows `W = 32u·E` (`ROUND_OFF`): `r > W` (the
//! pair overlaps beyond doubt, so no candidate separates or is a gap within the
//! margin) and `−s_k − r ≤ slop − W`. A value that is not finite fails it. On a
//! 200 m ground box (`ρ ≈ 141`) `W ≈ 6e-4`, below the slop of hulls with an inradius
//! above 0.12 m.

use super::edges::length;
use super::faces::hint_of;
use super::{Query, Remembered, SupportMode, supports};
use crate::Feature;
use crate::cache::SupportHints;
use crate::polytope::Polytope;
use crate::sat::{FEATURE_SLOP, Frame};
use glam::Vec3;

/// The round-off allowance `W` as a fraction of the pair's extent: 32 units of round-off
/// (`f32::EPSILON` is two), above the ~28 the module docs count.
const ROUND_OFF: f32 = 16.0 * f32::EPSILON;

/// Last query's feature measured on this frame by [`remeasure`], with what the bound of
/// the module docs needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remeasured {
    pub remembered: Remembered,
    /// For a face: `r` at the other shape's support vertex under it (NaN for an edge
    /// pair).
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

    /// Whether a point of the other shape at `depth` below the face's shape's nearest
    /// plane ([`depth_below_planes`]) proves that the full test keeps the face: the
    /// bound of the module docs. False for an edge pair and for any NaN.
    #[inline]
    pub fn proves_kept(&self, depth: f32) -> bool {
        let separation = self.remembered.axis.separation;
        let w = self.round_off;
        self.is_face() && depth > w && separation < 0.0 && -separation - depth <= self.slop - w
    }
}

/// Last query's `feature` measured on this frame as the full
/// [`hull_hull`](super::hull_hull) test measures it first (the same bits), with `r` at
/// the support vertex under it when it is a face. `None` for a feature index the
/// shapes do not have, or near-parallel edges. `hints` gets the face's support vertex.
pub(crate) fn remeasure(
    a: &Polytope,
    b: &Polytope,
    frame: &Frame,
    feature: Feature,
    mode: SupportMode,
    hints: &mut SupportHints,
) -> Option<Remeasured> {
    let query = Query::new(a, b, frame);
    let (mut support_a, mut support_b) = supports(a, b, mode, hints);
    let remembered = query.remembered(feature, &mut support_a, &mut support_b)?;
    let depth = match feature {
        Feature::FaceA(_) => {
            hints.b_under_face_a = hint_of(remembered.vertex);
            depth_inside(a, frame.point_to_a(b.vertices[remembered.vertex]))
        }
        Feature::FaceB(_) => {
            hints.a_under_face_b = hint_of(remembered.vertex);
            depth_inside(b, frame.point_to_b(a.vertices[remembered.vertex]))
        }
        _ => f32::NAN,
    };
    Some(Remeasured {
        remembered,
        depth,
        slop: FEATURE_SLOP * a.inradius.min(b.inradius),
        round_off: ROUND_OFF * (length(frame.trans) + a.radius + b.radius),
    })
}

/// `r` of the module docs for another point of the other shape: how deep `p` (a point
/// of b for a face of a, of a for a face of b; in a's frame) lies below the nearest face
/// plane of the face's own shape. NaN for an edge pair.
#[inline]
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
