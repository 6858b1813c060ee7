//! Where a deep contact point goes: the middle of the part of the normal line inside
//! both polygons, or the overlap's point nearest to it (a deep X-shaped crossing).

use crate::dim2::convex::{PolyRef, line_interval};
use glam::Vec2;
use smallvec::SmallVec;

/// Where a penetrating point `q` (separation `s < 0` along the reference normal `n`)
/// goes when the segment `q → q − s·n` is not inside both polygons: the middle of the
/// part of that segment inside both; when the segment misses the overlap (a deep
/// X-shaped crossing), the overlap's point nearest to the middle of the gap between
/// the two parts (continuous as the gap closes).
pub(crate) fn deep_point(reference: PolyRef, incident: PolyRef, q: Vec2, s: f32, n: Vec2) -> Vec2 {
    let (r0, r1) = line_interval(reference, q, n, -s);
    let (i0, i1) = line_interval(incident, q, n, -s);
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
