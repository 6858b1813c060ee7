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

/// The parameter range `[lo, hi]` of the line `o + t·d` inside a convex polygon
/// (Cyrus–Beck: each edge's half-plane `n_i·(o + t·d − v_i) ≤ 0` bounds `t` from one
/// side). Empty (`lo > hi`) when the line misses the polygon.
pub(crate) fn line_interval(p: PolyRef, o: Vec2, d: Vec2) -> (f32, f32) {
    // A line (nearly) parallel to an edge is inside or outside its half-plane as a
    // whole; "outside" needs a clear margin, since a point clipped onto a side plane
    // lies on such an edge up to round-off.
    let tol = 1e-5 * (1.0 + o.abs().max_element());
    let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
    for (n, v) in p.normals.iter().zip(p.verts) {
        let den = n.dot(d);
        let num = n.dot(*v - o);
        if den.abs() <= 1e-6 {
            if num < -tol {
                return (f32::INFINITY, f32::NEG_INFINITY);
            }
        } else if den > 0.0 {
            hi = hi.min(num / den);
        } else {
            lo = lo.max(num / den);
        }
    }
    (lo, hi)
}

/// The point of `a ∩ b` nearest to `p` (`p` itself when inside), or `None` when the
/// overlap is empty. The overlap is `b` clipped by each half-plane of `a`
/// (Sutherland–Hodgman); only used for deep crossings, so its cost does not matter.
fn closest_in_overlap(a: PolyRef, b: PolyRef, p: Vec2) -> Option<Vec2> {
    let mut poly: SmallVec<[Vec2; 16]> = b.verts.iter().copied().collect();
    for (n, v) in a.normals.iter().zip(a.verts) {
        let mut next: SmallVec<[Vec2; 16]> = SmallVec::new();
        for k in 0..poly.len() {
            let (cur, nxt) = (poly[k], poly[(k + 1) % poly.len()]);
            let (dc, dn) = (n.dot(cur - *v), n.dot(nxt - *v));
            if dc <= 0.0 {
                next.push(cur);
            }
            if (dc <= 0.0) != (dn <= 0.0) {
                next.push(cur + (dc / (dc - dn)) * (nxt - cur));
            }
        }
        poly = next;
        if poly.is_empty() {
            return None;
        }
    }
    let k = poly.len();
    let inside = (0..k).all(|i| (poly[(i + 1) % k] - poly[i]).perp_dot(p - poly[i]) >= 0.0);
    if inside {
        return Some(p);
    }
    (0..k)
        .map(|i| {
            let (v, e) = (poly[i], poly[(i + 1) % k] - poly[i]);
            let l2 = e.length_squared();
            let t = if l2 > 0.0 {
                ((p - v).dot(e) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            v + t * e
        })
        .min_by(|x, y| {
            (*x - p)
                .length_squared()
                .total_cmp(&(*y - p).length_squared())
        })
}

/// True when `p` is inside or on the polygon (every edge's `n·(p − v) ≤ 0`, with a
/// little slack for round-off).
pub(crate) fn inside(poly: PolyRef, p: Vec2) -> bool {
    let tol = 1e-6 * (1.0 + p.abs().max_element());
    poly.normals
        .iter()
        .zip(poly.verts)
        .all(|(n, v)| n.dot(p - *v) <= tol)
}

/// Where a penetrating point `q` (separation `s < 0` along the reference normal `n`)
/// goes when the segment `q → q − s·n` is not inside both polygons: the middle of the
/// part of that segment inside both; when the segment misses the overlap (a deep
/// X-shaped crossing), the overlap's point nearest to the middle of the gap between
/// the two parts (continuous as the gap closes).
pub(crate) fn deep_point(reference: PolyRef, incident: PolyRef, q: Vec2, s: f32, n: Vec2) -> Vec2 {
    let (r0, r1) = line_interval(reference, q, n);
    let (i0, i1) = line_interval(incident, q, n);
    let (lo, hi) = (r0.max(i0).max(0.0), r1.min(i1).min(-s));
    // An empty interval (the line misses a polygon) is infinite here.
    let mut position = q - 0.5 * s * n;
    if lo.is_finite() && hi.is_finite() {
        position = q + (0.5 * (lo + hi)).clamp(0.0, -s) * n;
    }
    if lo > hi
        && let Some(p) = closest_in_overlap(reference, incident, position)
    {
        position = p;
    }
    position
}
