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
/// When the clip keeps none (the incident edge wholly beyond a side plane, next to a
/// nearly collinear neighbour of the reference edge), the incident vertex deepest along
/// `n` is the one point when the pair overlaps: its separation is the SAT's, so an
/// overlapping pair always gets a point.
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
    // On the line q + t·n: q is at t = 0, its projection on the reference line at
    // t = −s. Penetrating points go to the middle of the part of that segment inside
    // both polygons (the plain midpoint when nothing clips it).
    let place = |q: Vec2, s: f32| {
        // The segment q → q − s·n is inside the incident polygon when its far end is,
        // and inside the reference one when q is (each holds the other end). Only when
        // one of them is not does the overlap along the line get clipped.
        if s < 0.0 && !(inside(reference, q) && inside(incident, q - s * n)) {
            deep_point(reference, incident, q, s, n)
        } else {
            q - 0.5 * s * n
        }
    };
    let (offset1, offset2) = (-t.dot(v1), t.dot(v2));
    if clip_segment(&mut seg, |p| (-t).dot(p) - offset1, 2)
        && clip_segment(&mut seg, |p| t.dot(p) - offset2, 3)
    {
        for (q, origin) in seg {
            let s = n.dot(q - v1);
            if s <= margin {
                out.push(ManifoldPoint2 {
                    position: place(q, s),
                    depth: -s,
                    id: pack_id(edge, inc, origin, ref_is_b, 0),
                });
            }
        }
    }
    if out.is_empty() {
        // The incident edge lies wholly beyond a side plane: the reference edge has a
        // nearly collinear neighbour whose separation tied with it, and the incident
        // edge faces that one (seen: a quad 0.38 deep in a hexagon, no point). The
        // incident vertex deepest along n has the SAT's own separation, so a pair the
        // SAT finds overlapping always gets that point (the vertex's id: as the
        // unclipped start of its edge). Not a pair apart: beside the reference edge,
        // that vertex may be farther than the margin from the reference shape.
        let (j, s) = (incident.verts.iter().enumerate())
            .map(|(j, w)| (j, n.dot(*w - v1)))
            .fold(
                (0, f32::INFINITY),
                |best, x| if x.1 < best.1 { x } else { best },
            );
        if s <= 0.0 {
            out.push(ManifoldPoint2 {
                position: place(incident.verts[j], s),
                depth: -s,
                id: pack_id(edge, j, 0, ref_is_b, 0),
            });
        }
    }
    out
}
