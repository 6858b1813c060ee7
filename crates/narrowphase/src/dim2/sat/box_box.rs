//! Box–box SAT on 4 axes (seed 002), with an early exit on the first axis that
//! separates by more than the margin, and the pair it leaves for the box clip
//! ([`crate::dim2::manifold::box_box`]).

use super::{EdgeSat, REFERENCE_TOLERANCE, choose};
use crate::dim2::contact::{Contact2, Feature2};
use glam::Vec2;
use sepax_geometry::dim2::{Obb2, Pose2};

/// SAT of box a (`[−ha, ha]` at the origin) against box b (`[−hb, hb]` placed by
/// `rel`, i.e. in a's frame).
///
/// With `d` = b's center and `R = [c −s; s c]` b's rotation, the separation along
/// a's axis `x` is `|d_x| − ha_x − (|c|·hb_x + |s|·hb_y)`: the gap between the
/// center distance and the two projected radii. The same holds on a's `y` and on b's
/// two axes with `d` seen from b (`Rᵀd`) and the roles swapped. The sign of `d` on an
/// axis picks the face turned towards the other box; that face's directed separation
/// equals the polygon form `min_j n·(w_j − v)` exactly, so the result is the one
/// [`sat_polygons`](super::polygon::sat_polygons) gives for the two 4-gons.
/// Edge numbering follows [`sepax_geometry::dim2::Obb2::vertices`]:
/// 0 `−y`, 1 `+x`, 2 `+y`, 3 `−x`.
pub(crate) fn sat_boxes(ha: Vec2, hb: Vec2, rel: &Pose2, margin: f32, tol: f32) -> Option<EdgeSat> {
    let d = rel.translation;
    let (c, s) = (rel.rotation.cos().abs(), rel.rotation.sin().abs());
    let ax = d.x.abs() - ha.x - (c * hb.x + s * hb.y);
    if ax > margin {
        return None;
    }
    let ay = d.y.abs() - ha.y - (s * hb.x + c * hb.y);
    if ay > margin {
        return None;
    }
    let db = rel.rotation.inv_rotate(d);
    let bx = db.x.abs() - hb.x - (c * ha.x + s * ha.y);
    if bx > margin {
        return None;
    }
    let by = db.y.abs() - hb.y - (s * ha.x + c * ha.y);
    if by > margin {
        return None;
    }
    // a's face looks towards b's center; b's face towards a's center (−db).
    let (sep_a, edge_a) = if ay > ax {
        (ay, if d.y >= 0.0 { 2 } else { 0 })
    } else {
        (ax, if d.x >= 0.0 { 1 } else { 3 })
    };
    let (sep_b, edge_b) = if by > bx {
        (by, if db.y <= 0.0 { 2 } else { 0 })
    } else {
        (bx, if db.x <= 0.0 { 1 } else { 3 })
    };
    Some(choose(sep_a, edge_a, sep_b, edge_b, tol))
}

/// Outward normal of box edge `k` (numbering of `Obb2::vertices`).
pub(crate) const NORMALS: [Vec2; 4] = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];

/// Two boxes after SAT: each in its own frame (`[−h, h]` about the origin).
pub(crate) struct BoxPair {
    pub frame_a: Pose2,
    pub frame_b: Pose2,
    pub ha: Vec2,
    pub hb: Vec2,
    /// b in a's frame.
    pub rel: Pose2,
    pub sat: EdgeSat,
}

/// SAT between two boxes (see [`sat_boxes`]); `None` when farther apart than `margin`.
#[inline]
pub(crate) fn box_pair(
    a: &Obb2,
    pose_a: &Pose2,
    b: &Obb2,
    pose_b: &Pose2,
    margin: f32,
) -> Option<BoxPair> {
    let (frame_a, frame_b) = (*pose_a * a.frame(), *pose_b * b.frame());
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let rel = frame_a.inv_mul(&frame_b);
    let tol = REFERENCE_TOLERANCE * (ha.length() + hb.length());
    let sat = sat_boxes(ha, hb, &rel, margin, tol)?;
    Some(BoxPair {
        frame_a,
        frame_b,
        ha,
        hb,
        rel,
        sat,
    })
}

impl BoxPair {
    /// The contact along the exact axis (the largest separation), in the world.
    pub fn contact(&self) -> Contact2 {
        let sat = &self.sat;
        self.contact_along(sat.exact_edge, sat.exact_is_b, sat.exact_sep)
    }

    /// The contact along the reference edge (the manifold's), in the world.
    pub fn reference_contact(&self) -> Contact2 {
        self.contact_along(self.sat.edge, self.sat.ref_is_b, self.sat.sep)
    }

    fn contact_along(&self, k: usize, of_b: bool, sep: f32) -> Contact2 {
        let (normal, feature) = if of_b {
            (
                -self.frame_b.transform_vector(NORMALS[k]),
                Feature2::EdgeB(k as u16),
            )
        } else {
            (
                self.frame_a.transform_vector(NORMALS[k]),
                Feature2::EdgeA(k as u16),
            )
        };
        Contact2 {
            normal,
            depth: -sep,
            feature,
        }
    }
}
