//! Box–box SAT on 4 axes (seed 002), with an early exit on the first axis that
//! separates by more than the margin.

use super::sat_polygon::{EdgeSat, choose};
use glam::Vec2;
use sepax_geometry::dim2::Pose2;

/// SAT of box a (`[−ha, ha]` at the origin) against box b (`[−hb, hb]` placed by
/// `rel`, i.e. in a's frame).
///
/// With `d` = b's center and `R = [c −s; s c]` b's rotation, the separation along
/// a's axis `x` is `|d_x| − ha_x − (|c|·hb_x + |s|·hb_y)`: the gap between the
/// center distance and the two projected radii. The same holds on a's `y` and on b's
/// two axes with `d` seen from b (`Rᵀd`) and the roles swapped. The sign of `d` on an
/// axis picks the face turned towards the other box; that face's directed separation
/// equals the polygon form `min_j n·(w_j − v)` exactly, so the result is the one
/// [`sat_polygons`](super::sat_polygon::sat_polygons) gives for the two 4-gons.
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
