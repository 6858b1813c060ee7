//! Circle–circle and circle–polygon queries.

use super::polygon::{Points, max_separation};
use crate::dim2::contact::{Feature2, pack_id};
use crate::dim2::convex::{PolyRef, line_interval};
use glam::Vec2;

/// A contact against a circle, in one frame: `normal` from the first shape to the
/// second, `point` in the middle of the overlap along the normal (of the gap when
/// separated).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundContact {
    pub normal: Vec2,
    pub depth: f32,
    pub point: Vec2,
    /// Index of the polygon feature (edge or vertex), 0 for two circles.
    pub index: usize,
    /// True for a polygon vertex, false for a polygon edge (or two circles).
    pub vertex: bool,
}

/// Circle `ca, ra` against circle `cb, rb`: `depth = ra + rb − |cb − ca|`, normal
/// along the centers (`+x` when they coincide). `None` when `depth < −margin`.
pub(crate) fn circle_circle(
    ca: Vec2,
    ra: f32,
    cb: Vec2,
    rb: f32,
    margin: f32,
) -> Option<RoundContact> {
    let d = cb - ca;
    let dist = d.length();
    let depth = ra + rb - dist;
    if depth < -margin {
        return None;
    }
    let normal = if dist > 0.0 { d / dist } else { Vec2::X };
    // Along ca + t·normal, a covers [−ra, ra] and b covers [dist − rb, dist + rb]:
    // the point is the middle of their overlap (of the gap when separated).
    let lo = (-ra).max(dist - rb);
    let hi = ra.min(dist + rb);
    Some(RoundContact {
        normal,
        depth,
        point: ca + 0.5 * (lo + hi) * normal,
        index: 0,
        vertex: false,
    })
}

/// Polygon against a circle of center `c` and radius `r`, all in the polygon's frame;
/// the normal points from the polygon to the circle.
///
/// As Box2D's `b2CollidePolygonAndCircle`: the edge `i` of largest separation
/// `s = n_i·(c − v_i)` is found; when the center is outside (`s > 0`) and beyond one
/// end of that edge (`(c − v1)·(v2 − v1) < 0`, or the same at `v2`) the closest
/// feature is that vertex and the distance is `|c − v|`; otherwise it is the edge
/// and the distance is `s` (negative inside). `depth = r − distance`.
pub(crate) fn polygon_circle(p: PolyRef, c: Vec2, r: f32, margin: f32) -> Option<RoundContact> {
    let (s, i) = max_separation(p, &Points::Slice(&[c]), r + margin);
    if s > r + margin {
        return None;
    }
    let n = p.verts.len();
    let v1 = p.verts[i];
    let v2 = p.verts[(i + 1) % n];
    if s > 0.0 {
        let (v, index) = if (c - v1).dot(v2 - v1) < 0.0 {
            (v1, i)
        } else if (c - v2).dot(v1 - v2) < 0.0 {
            (v2, (i + 1) % n)
        } else {
            (c, usize::MAX)
        };
        if index != usize::MAX {
            let d = c - v;
            let dist = d.length();
            let depth = r - dist;
            if depth < -margin {
                return None;
            }
            let normal = d / dist;
            return Some(RoundContact {
                normal,
                depth,
                point: middle(p, c, r, -dist, normal),
                index,
                vertex: true,
            });
        }
    }
    let normal = p.normals[i];
    Some(RoundContact {
        normal,
        depth: r - s,
        point: middle(p, c, r, -s, normal),
        index: i,
        vertex: false,
    })
}

/// The contact point on the line `c + t·n`: the circle covers `t ∈ [−r, r]`, the
/// polygon ends at `t = surface` (its closest feature) on the circle's side. Separated:
/// the middle of the gap. Penetrating: the middle of the part inside both (the
/// polygon's far side found by clipping the line), so that the point is in both shapes.
fn middle(p: PolyRef, c: Vec2, r: f32, surface: f32, n: Vec2) -> Vec2 {
    let (lo, hi) = if surface < -r {
        (surface, -r)
    } else {
        let (far, _) = line_interval(p, c, n, r + surface.abs());
        // Round-off can make the line graze past the polygon: then keep its surface.
        let far = if far <= surface { far } else { surface };
        ((-r).max(far), surface.min(r))
    };
    c + 0.5 * (lo + hi) * n
}

impl RoundContact {
    /// The feature name, given which shape holds the polygon (`None`: two circles).
    pub fn feature(&self, polygon_is_a: Option<bool>) -> Feature2 {
        let i = self.index as u16;
        match (polygon_is_a, self.vertex) {
            (None, _) => Feature2::Centers,
            (Some(true), false) => Feature2::EdgeA(i),
            (Some(true), true) => Feature2::VertexA(i),
            (Some(false), false) => Feature2::EdgeB(i),
            (Some(false), true) => Feature2::VertexB(i),
        }
    }

    /// The point id (pair kind 1 edge, 2 vertex, 3 two circles).
    pub fn id(&self, polygon_is_a: Option<bool>) -> u32 {
        match polygon_is_a {
            None => pack_id(0, 0, 0, false, 3),
            Some(a) => pack_id(self.index, 0, 0, !a, if self.vertex { 2 } else { 1 }),
        }
    }
}
