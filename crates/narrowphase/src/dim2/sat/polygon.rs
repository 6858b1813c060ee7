//! Polygon–polygon SAT on the edge normals of both polygons (seed 001, as Box2D's
//! `b2FindMaxSeparation` does it).

use super::{EdgeSat, choose};
use crate::dim2::convex::PolyRef;
use glam::{Vec2, Vec4};
use sepax_geometry::dim2::Pose2;
use smallvec::SmallVec;

/// The vertices of the "other" polygon in a SAT query, laid out for the inner loop:
/// up to 8 points as two `Vec4` of x and two of y (padded by repeating the last
/// point, which leaves every minimum unchanged), so that the 8 projections on a
/// normal take four SIMD multiply-adds and a horizontal minimum.
pub(crate) enum Points<'a> {
    Soa8 { x: [Vec4; 2], y: [Vec4; 2] },
    Slice(&'a [Vec2]),
}

impl<'a> Points<'a> {
    #[inline]
    pub fn new(verts: &'a [Vec2]) -> Points<'a> {
        let n = verts.len();
        if n == 0 || n > 8 {
            return Points::Slice(verts);
        }
        let at = |i: usize| verts[i.min(n - 1)];
        let (mut x, mut y) = ([0.0f32; 8], [0.0f32; 8]);
        for i in 0..8 {
            let p = at(i);
            x[i] = p.x;
            y[i] = p.y;
        }
        Points::Soa8 {
            x: [Vec4::from_slice(&x[..4]), Vec4::from_slice(&x[4..])],
            y: [Vec4::from_slice(&y[..4]), Vec4::from_slice(&y[4..])],
        }
    }

    /// `min_j n · w_j`.
    #[inline]
    pub fn min_dot(&self, n: Vec2) -> f32 {
        match self {
            Points::Soa8 { x, y } => {
                let lo = x[0] * n.x + y[0] * n.y;
                let hi = x[1] * n.x + y[1] * n.y;
                lo.min(hi).min_element()
            }
            Points::Slice(s) => s.iter().fold(f32::INFINITY, |m, w| m.min(n.dot(*w))),
        }
    }
}

/// `max_i min_j n_i · (w_j − v_i)`: for each edge `i` of polygon 1, how far the
/// deepest vertex of polygon 2 lies beyond it; the largest is the separation along
/// polygon 1's normals (positive: a separating axis). Computed as
/// `min_j (n_i·w_j) − n_i·v_i`. Returns the first edge reaching the maximum, or the
/// first edge whose separation exceeds `limit` (early exit: the pair is already known
/// to be farther apart than the margin).
pub(crate) fn max_separation(p1: PolyRef, points2: &Points, limit: f32) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, (n, v)) in p1.normals.iter().zip(p1.verts).enumerate() {
        let s = points2.min_dot(*n) - n.dot(*v);
        if s > best.0 {
            best = (s, i);
            if s > limit {
                break;
            }
        }
    }
    best
}

/// Vertices and normals of a polygon moved by `rel` (inline up to 8 vertices).
pub(crate) struct Moved {
    pub verts: SmallVec<[Vec2; 8]>,
    pub normals: SmallVec<[Vec2; 8]>,
}

impl Moved {
    #[inline]
    pub fn new(p: PolyRef, rel: &Pose2) -> Moved {
        let n = p.verts.len();
        if n > 8 {
            return Moved {
                verts: p.verts.iter().map(|v| rel.transform_point(*v)).collect(),
                normals: p.normals.iter().map(|m| rel.transform_vector(*m)).collect(),
            };
        }
        // Up to 8 vertices: fill the inline buffers directly (no `extend` machinery).
        let (mut verts, mut normals) = ([Vec2::ZERO; 8], [Vec2::ZERO; 8]);
        for i in 0..n {
            verts[i] = rel.transform_point(p.verts[i]);
            normals[i] = rel.transform_vector(p.normals[i]);
        }
        Moved {
            verts: SmallVec::from_buf_and_len(verts, n),
            normals: SmallVec::from_buf_and_len(normals, n),
        }
    }

    pub fn view(&self) -> PolyRef<'_> {
        PolyRef {
            verts: &self.verts,
            normals: &self.normals,
        }
    }
}

/// SAT between polygon a and polygon b, both given in a's frame: `None` when an
/// edge normal separates them by more than `margin`; otherwise the reference edge,
/// which is b's only when b's separation beats a's by more than `tol` (a's face is
/// preferred so that the choice does not flicker between frames).
pub(crate) fn sat_polygons(a: PolyRef, b: PolyRef, margin: f32, tol: f32) -> Option<EdgeSat> {
    let (sep_a, edge_a) = max_separation(a, &Points::new(b.verts), margin);
    if sep_a > margin {
        return None;
    }
    let (sep_b, edge_b) = max_separation(b, &Points::new(a.verts), margin);
    if sep_b > margin {
        return None;
    }
    Some(choose(sep_a, edge_a, sep_b, edge_b, tol))
}
