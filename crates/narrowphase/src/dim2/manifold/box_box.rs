//! Box–box manifold without building polygons: after the SAT ([`BoxPair`]), the clip
//! is done in a canonical frame where the reference face is the box's top.

use super::clip::{ClipSegment, clip_segment};
use super::overlap::deep_point;
use crate::dim2::contact::{Manifold2, ManifoldPoint2, ManifoldPoints2, pack_id};
use crate::dim2::convex::{BoxCorners, PolyRef};
use crate::dim2::sat::box_box::BoxPair;
use glam::Vec2;

/// Corner `i` of a box is `(sx·h.x, sy·h.y)` (numbering of `Obb2::vertices`).
const CORNERS: [(f32, f32); 4] = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];

/// `(cos, sin)` of the quarter turn that takes edge `k`'s normal to `+y`: −y by a
/// half turn, +x by +90°, +y not at all, −x by −90°. Entries are 0 and ±1, so the
/// turns are exact (a table, not a branch, since `k` is unpredictable).
const TURNS: [(f32, f32); 4] = [(-1.0, 0.0), (0.0, 1.0), (1.0, 0.0), (0.0, -1.0)];

/// Turns `p` so that edge `k`'s normal becomes `+y`.
#[inline]
fn to_top(k: usize, p: Vec2) -> Vec2 {
    let (c, s) = TURNS[k & 3];
    Vec2::new(c * p.x - s * p.y, s * p.x + c * p.y)
}

/// The inverse of [`to_top`].
#[inline]
fn from_top(k: usize, p: Vec2) -> Vec2 {
    let (c, s) = TURNS[k & 3];
    Vec2::new(c * p.x + s * p.y, -s * p.x + c * p.y)
}

/// The clip of [`clip_points`](super::polygon::clip_points) specialised to boxes and
/// done in the reference box's frame turned so that the reference edge `k` is its
/// top `y = h` running from `(w, h)` to `(−w, h)`: the side planes are `x ≤ w`
/// (feature origin 2) and `x ≥ −w` (origin 3), the separation of a point is
/// `y − h`, and the incident edge is the one whose turned normal has the least
/// `y`. Same points and feature ids as the polygon path.
pub(crate) fn box_manifold(pair: &BoxPair, margin: f32) -> Option<Manifold2> {
    let k = pair.sat.edge;
    let (frame_ref, h_ref, h_inc, inc_pose) = if pair.sat.ref_is_b {
        (pair.frame_b, pair.hb, pair.ha, pair.rel.inverse())
    } else {
        (pair.frame_a, pair.ha, pair.hb, pair.rel)
    };
    let (w, h) = if k.is_multiple_of(2) {
        (h_ref.x, h_ref.y)
    } else {
        (h_ref.y, h_ref.x)
    };
    let c = to_top(k, inc_pose.translation);
    let u = to_top(k, inc_pose.transform_vector(Vec2::X));
    let v = Vec2::new(-u.y, u.x);
    // Incident normals −v, u, v, −u have y = −u.x, u.y, u.x, −u.y (v = perp u):
    // the least is −max(|u.x|, |u.y|), picked without a loop.
    let j = if u.x.abs() >= u.y.abs() {
        if u.x > 0.0 { 0 } else { 2 }
    } else if u.y > 0.0 {
        3
    } else {
        1
    };
    let corner = |i: usize| {
        let (sx, sy) = CORNERS[i];
        c + u * (sx * h_inc.x) + v * (sy * h_inc.y)
    };
    let mut seg: ClipSegment = [(corner(j), 0u32), (corner((j + 1) % 4), 1u32)];
    // Keep x ≤ w, then −x ≤ w.
    if !clip_segment(&mut seg, |p| p.x - w, 2) || !clip_segment(&mut seg, |p| -p.x - w, 3) {
        return None;
    }
    let mut points = ManifoldPoints2::new();
    let tol = 1e-6 * (1.0 + c.abs().max_element() + h_ref.max_element());
    for (q, origin) in seg {
        let s = q.y - h;
        if s > margin {
            continue;
        }
        let mut p = Vec2::new(q.x, q.y - 0.5 * s);
        if s < 0.0 {
            // Inside the reference box: q.y ≥ −h; the top point (q.x, h) inside
            // the incident box: within its half extents along u and v.
            let d = Vec2::new(q.x, h) - c;
            let in_ref = q.y >= -h - tol;
            let in_inc = d.dot(u).abs() <= h_inc.x + tol && d.dot(v).abs() <= h_inc.y + tol;
            if !(in_ref && in_inc) {
                p = along_up(q, s, h, c, u, h_inc).unwrap_or_else(|| deep(w, h, c, u, h_inc, q, s));
            }
        }
        points.push(ManifoldPoint2 {
            position: frame_ref.transform_point(from_top(k, p)),
            depth: -s,
            id: pack_id(k, j, origin, pair.sat.ref_is_b, 0),
        });
    }
    if points.is_empty() {
        return None;
    }
    Some(Manifold2::new(pair.reference_contact(), points))
}

/// The `t` range where `|o + t·d| ≤ half` (a slab); empty as `(∞, −∞)`.
#[inline]
fn slab(o: f32, d: f32, half: f32) -> (f32, f32) {
    if d.abs() <= 1e-12 {
        if o.abs() <= half {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    } else {
        let (t1, t2) = ((-half - o) / d, (half - o) / d);
        (t1.min(t2), t1.max(t2))
    }
}

/// [`deep_point`]'s first rule for two boxes, in closed form: on the line `q + t·ŷ`
/// the reference box holds `t ∈ [−h − q.y, h − q.y]` (q is between its side planes)
/// and the incident box is two slabs along `u` and `v`; the point is the middle of
/// their common part within `[0, −s]`, or `None` when there is none.
#[inline]
fn along_up(q: Vec2, s: f32, h: f32, c: Vec2, u: Vec2, h_inc: Vec2) -> Option<Vec2> {
    let v = Vec2::new(-u.y, u.x);
    let d = q - c;
    let (a0, a1) = slab(d.dot(u), u.y, h_inc.x);
    let (b0, b1) = slab(d.dot(v), v.y, h_inc.y);
    let lo = 0.0f32.max(-h - q.y).max(a0).max(b0);
    let hi = (-s).min(h - q.y).min(a1).min(b1);
    (lo <= hi).then(|| Vec2::new(q.x, q.y + 0.5 * (lo + hi)))
}

/// Deep points (rare): both boxes as 4-gons in the turned frame, then the general rule.
#[cold]
fn deep(w: f32, h: f32, c: Vec2, u: Vec2, h_inc: Vec2, q: Vec2, s: f32) -> Vec2 {
    let reference = BoxCorners::new(Vec2::new(w, h));
    let inc_local = BoxCorners::new(h_inc);
    let v = Vec2::new(-u.y, u.x);
    let place = |p: Vec2| c + u * p.x + v * p.y;
    let turn = |n: Vec2| u * n.x + v * n.y;
    let inc_verts = inc_local.verts.map(place);
    let inc_normals = inc_local.normals.map(turn);
    deep_point(
        PolyRef {
            verts: &reference.verts,
            normals: &reference.normals,
        },
        PolyRef {
            verts: &inc_verts,
            normals: &inc_normals,
        },
        q,
        s,
        Vec2::Y,
    )
}
