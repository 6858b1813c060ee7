//! Manifold points for a polygon pair: reference edge, incident edge, clipping.

use super::clip::{ClipSegment, clip_segment};
use super::overlap::deep_point;
use crate::dim2::contact::{ManifoldPoint2, ManifoldPoints2, pack_id};
use crate::dim2::convex::{PolyRef, inside};
use glam::Vec2;

/// Points of a polygon–polygon manifold, in the frame both polygons are given in.
///
/// The reference edge `v1 → v2` (edge `edge` of `reference`, outward normal `n`,
/// tangent `t`) was chosen by SAT. The incident edge `w1 → w2` is the edge of
/// `incident` whose normal is most anti-parallel to `n` (`min_j n·m_j`). The segment
/// `w1 w2` is clipped (Sutherland–Hodgman, one segment against two half-planes) to the
/// side planes `t·p ≥ t·v1` and `t·p ≤ t·v2`; a clipped end takes the reference
/// vertex as its feature. Each remaining point `q` has separation `s = n·(q − v1)`;
/// points with `s ≤ margin` are kept with depth `−s`, placed midway between `q` and
/// its projection on the reference line (`q − s·n/2`, as Box2D does) — except that
/// for a penetrating point the middle is taken of the part of that segment that lies
/// inside both polygons, so that deep points stay inside both shapes (when the segment
/// misses the overlap, as in a deep X-shaped crossing, the overlap's point nearest to
/// the middle of the gap between the two parts). At most 2 points, in clip order.
pub(crate) fn clip_points(
    reference: PolyRef,
    incident: PolyRef,
    edge: usize,
    margin: f32,
    ref_is_b: bool,
) -> ManifoldPoints2 {
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
    let mut seg: ClipSegment = [
        (incident.verts[inc], 0u32),
        (incident.verts[(inc + 1) % ni], 1u32),
    ];

    let mut out = ManifoldPoints2::new();
    let (offset1, offset2) = (-t.dot(v1), t.dot(v2));
    if !clip_segment(&mut seg, |p| (-t).dot(p) - offset1, 2)
        || !clip_segment(&mut seg, |p| t.dot(p) - offset2, 3)
    {
        return out;
    }
    for (q, origin) in seg {
        let s = n.dot(q - v1);
        if s <= margin {
            // On the line q + t·n: q is at t = 0, its projection on the reference
            // line at t = −s. Penetrating points go to the middle of the part of that
            // segment inside both polygons (the plain midpoint when nothing clips it).
            let mut position = q - 0.5 * s * n;
            // The segment q → q − s·n is inside the incident polygon when its far end
            // is, and inside the reference one when q is (each holds the other end).
            // Only when one of them is not does the overlap along the line get clipped.
            if s < 0.0 && !(inside(reference, q) && inside(incident, q - s * n)) {
                position = deep_point(reference, incident, q, s, n);
            }
            out.push(ManifoldPoint2 {
                position,
                depth: -s,
                id: pack_id(edge, inc, origin, ref_is_b, 0),
            });
        }
    }
    out
}
