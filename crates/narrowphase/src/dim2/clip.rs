//! Manifold points for a polygon pair: reference edge, incident edge, clipping.

use super::convex::PolyRef;
use super::manifold::{FeatureId, ManifoldPoint2};
use glam::Vec2;
use smallvec::SmallVec;

/// Points of a polygon–polygon manifold, in the frame both polygons are given in.
///
/// The reference edge `v1 → v2` (edge `edge` of `reference`, outward normal `n`,
/// tangent `t`) was chosen by SAT. The incident edge `w1 → w2` is the edge of
/// `incident` whose normal is most anti-parallel to `n` (`min_j n·m_j`). The segment
/// `w1 w2` is clipped (Sutherland–Hodgman, one segment against two half-planes) to the
/// side planes `t·p ≥ t·v1` and `t·p ≤ t·v2`; a clipped end takes the reference
/// vertex as its feature. Each remaining point `q` has separation `s = n·(q − v1)`;
/// points with `s ≤ margin` are kept, placed midway between `q` and its projection on
/// the reference line (`q − s·n/2`), with depth `−s`. At most 2 points, in clip order.
pub(crate) fn clip_points(
    reference: PolyRef,
    incident: PolyRef,
    edge: usize,
    margin: f32,
    ref_is_b: bool,
) -> SmallVec<[ManifoldPoint2; 2]> {
    let nr = reference.verts.len();
    let v1 = reference.verts[edge];
    let v2 = reference.verts[(edge + 1) % nr];
    let n = reference.normals[edge];
    let t = Vec2::new(-n.y, n.x);

    let mut inc = 0;
    let mut best = f32::INFINITY;
    for (j, m) in incident.normals.iter().enumerate() {
        let d = n.dot(*m);
        if d < best {
            best = d;
            inc = j;
        }
    }
    let ni = incident.verts.len();
    let mut seg = [
        (incident.verts[inc], 0u32),
        (incident.verts[(inc + 1) % ni], 1u32),
    ];

    let mut out = SmallVec::new();
    if !clip_side(&mut seg, -t, -t.dot(v1), 2) || !clip_side(&mut seg, t, t.dot(v2), 3) {
        return out;
    }
    for (q, origin) in seg {
        let s = n.dot(q - v1);
        if s <= margin {
            out.push(ManifoldPoint2 {
                position: q - 0.5 * s * n,
                depth: -s,
                id: FeatureId::pack(edge, inc, origin, ref_is_b, 0),
            });
        }
    }
    out
}

/// Keeps the part of the segment with `side·p ≤ offset`; a replaced end gets `origin`
/// as its feature. False when the whole segment is outside.
fn clip_side(seg: &mut [(Vec2, u32); 2], side: Vec2, offset: f32, origin: u32) -> bool {
    let d0 = side.dot(seg[0].0) - offset;
    let d1 = side.dot(seg[1].0) - offset;
    match (d0 > 0.0, d1 > 0.0) {
        (false, false) => true,
        (true, true) => false,
        (out0, _) => {
            let x = seg[0].0 + (d0 / (d0 - d1)) * (seg[1].0 - seg[0].0);
            seg[if out0 { 0 } else { 1 }] = (x, origin);
            true
        }
    }
}
