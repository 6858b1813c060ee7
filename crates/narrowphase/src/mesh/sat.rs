//! The one-sided separating-axis rule of the triangle tests (the box test applies it in
//! closed form on its own; the hull test through [`offer_line`]).
//!
//! A triangle is a flat polytope: its faces are `+n` and `−n`, its edges have
//! half-great-circle Gauss arcs. For a convex shape b against triangle a, the candidate
//! axes are the triangle's front normal `n`, b's faces (the axis `−m` for a face with
//! outward normal `m`: that face turned towards the triangle), and the cross products
//! `e_i × g_j` of a triangle edge with an edge of b, each **both ways**. There is no
//! Gauss-map pruning: a triangle edge's arc is a half circle from `n` to `−n` through
//! the edge's outward perpendicular, which the `n1 × n2` arc formula cannot define, and
//! keeping every pair makes the candidate set exactly the f64 oracle's, so the
//! one-sided choice below (a maximum over a half space of directions, not over all of
//! them) agrees with it. For an axis `L` pointing from the triangle to b, the gap is
//! `min_b L·x − max_a L·x`.
//!
//! * **Verdict**: the pair is apart (beyond the margin) when some candidate's gap, either
//!   way, exceeds the margin — the usual SAT. (`−n` is left out: with b's centre in
//!   front of the plane its gap is never above 0.)
//! * **One-sided contact**: the mesh is solid behind its front faces, so the contact
//!   normal must not push b behind the triangle: only orientations with `L · n ≥ 0`
//!   compete for the contact axis, the largest gap among them winning (the preference
//!   below). The front normal itself always competes.
//!
//! Among the eligible axes the choice follows the project's bounded preference (see
//! [`crate::sat`]): the triangle's face unless a face of b is better by more than the
//! slop, that unless an edge pair is better by more than the slop; `exact` is the
//! largest gap.

use crate::Feature;
use crate::sat::{Axis, SatOutcome, fold_candidates};
use glam::Vec3;

/// The best eligible axes of a triangle test so far, per kind.
pub(crate) struct Eligible {
    pub face_b: Option<Axis>,
    pub edge: Option<Axis>,
}

impl Eligible {
    pub fn new() -> Eligible {
        Eligible {
            face_b: None,
            edge: None,
        }
    }

    /// The largest separation offered so far (`−∞` before any).
    #[inline]
    pub fn best(&self) -> f32 {
        let of = |a: Option<Axis>| a.map_or(f32::NEG_INFINITY, |a| a.separation);
        of(self.face_b).max(of(self.edge))
    }

    /// Offers a candidate of one kind (`edge`: an edge pair, else a face of b).
    #[inline(always)]
    pub fn offer(&mut self, edge: bool, separation: f32, normal: Vec3, feature: Feature) {
        let slot = if edge {
            &mut self.edge
        } else {
            &mut self.face_b
        };
        if slot.is_none_or(|best| separation > best.separation) {
            *slot = Some(Axis {
                separation,
                normal,
                feature,
            });
        }
    }

    /// Folds the candidates with the triangle's face (see the module docs).
    pub fn fold(self, face_a: Axis, slop: f32) -> SatOutcome {
        fold_candidates(face_a, self.face_b, self.edge, None, slop, None)
    }
}

/// One candidate line `l` (unit) with its gaps both ways: `up`, b beyond the triangle
/// along `+l`, and `down`, along `−l`. `Err` with the separating axis when either gap
/// exceeds the margin; otherwise each orientation with `±l · n ≥ 0` is offered.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn offer_line(
    eligible: &mut Eligible,
    edge: bool,
    l: Vec3,
    l_dot_n: f32,
    (up, down): (f32, f32),
    (feature_up, feature_down): (Feature, Feature),
    margin: f32,
) -> Result<(), Axis> {
    if up > margin {
        return Err(Axis {
            separation: up,
            normal: l,
            feature: feature_up,
        });
    }
    if down > margin {
        return Err(Axis {
            separation: down,
            normal: -l,
            feature: feature_down,
        });
    }
    if l_dot_n >= 0.0 {
        eligible.offer(edge, up, l, feature_up);
    }
    if l_dot_n <= 0.0 {
        eligible.offer(edge, down, -l, feature_down);
    }
    Ok(())
}
