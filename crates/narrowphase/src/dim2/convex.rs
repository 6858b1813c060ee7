//! A polygon-like shape (box or polygon) seen from its own frame, without allocating,
//! and the two questions the queries ask of one: where a line crosses it
//! ([`line_interval`]) and whether a point is inside ([`inside`]).

use glam::Vec2;
use sepax_geometry::dim2::{ConvexPolygon, Obb2, Pose2};

/// Vertices (counter-clockwise) and outward unit normals of a convex polygon, both
/// in one frame; `normals[i]` belongs to the edge `verts[i] → verts[i + 1]`.
#[derive(Clone, Copy)]
pub(crate) struct PolyRef<'a> {
    pub verts: &'a [Vec2],
    pub normals: &'a [Vec2],
}

/// The 4 corners and normals of a box `[−h, h]` in its own frame, numbered as
/// [`Obb2::vertices`].
#[derive(Clone, Copy)]
pub(crate) struct BoxCorners {
    pub verts: [Vec2; 4],
    pub normals: [Vec2; 4],
}

impl BoxCorners {
    pub fn new(h: Vec2) -> BoxCorners {
        BoxCorners {
            verts: [
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ],
            normals: [-Vec2::Y, Vec2::X, Vec2::Y, -Vec2::X],
        }
    }
}

/// A box or polygon in the frame where its data is given.
pub(crate) enum Convex<'a> {
    Box(BoxCorners),
    Polygon(&'a ConvexPolygon),
}

impl<'a> Convex<'a> {
    /// The box in its own frame (`pose · box.frame()`), which keeps its data exact.
    pub fn from_box(b: &Obb2, pose: &Pose2) -> (Pose2, Convex<'a>) {
        (
            *pose * b.frame(),
            Convex::Box(BoxCorners::new(b.half_extents())),
        )
    }

    pub fn view(&self) -> PolyRef<'_> {
        match self {
            Convex::Box(c) => PolyRef {
                verts: &c.verts,
                normals: &c.normals,
            },
            Convex::Polygon(p) => PolyRef {
                verts: p.vertices(),
                normals: p.normals(),
            },
        }
    }

    /// A size for relative tolerances and the bounding-circle filter: the radius about
    /// [`center`](Convex::center) of the circle through the farthest vertex.
    pub fn size(&self) -> f32 {
        match self {
            Convex::Box(c) => c.verts[2].length(),
            Convex::Polygon(p) => p.radius(),
        }
    }
}

impl Convex<'_> {
    /// The center of the circle of radius [`size`](Convex::size) holding the shape.
    pub fn center(&self) -> Vec2 {
        match self {
            Convex::Box(_) => Vec2::ZERO,
            Convex::Polygon(p) => p.center(),
        }
    }
}

/// The parameter range `[lo, hi]` of the line `o + t·d` inside a convex polygon
/// (Cyrus–Beck: each edge's half-plane `n_i·(o + t·d − v_i) ≤ 0` bounds `t` from one
/// side), for a caller who reads it over `|t| ≤ reach`. Empty (`lo > hi`) when the line
/// misses the polygon.
///
/// An edge whose line the stretch `|t| ≤ reach` runs along, within the round-off of a
/// point placed on it (both ends within `1e-6 (1 + |o|)` of the edge's line), bounds
/// nothing: the stretch is on the polygon's boundary. Bounding `t` by it would divide
/// round-off by round-off: on a rectangle as a polygon, a point clipped onto the
/// reference edge's side plane runs along the neighbouring edge, whose f32 normal was
/// `1.2e-6` off square, and the bound fell mid-segment (a deep point 0.034 from the
/// middle of the part inside both shapes, where the box clip, which reads the side
/// plane exactly, puts it). An edge (nearly) parallel to the line elsewhere leaves it
/// inside or outside its half-plane as a whole, and "outside" needs a clear margin,
/// since a point clipped onto a side plane lies on such an edge up to round-off.
pub(crate) fn line_interval(p: PolyRef, o: Vec2, d: Vec2, reach: f32) -> (f32, f32) {
    let tol = 1e-5 * (1.0 + o.abs().max_element());
    let on_line = 1e-6 * (1.0 + o.abs().max_element());
    let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
    for (n, v) in p.normals.iter().zip(p.verts) {
        let den = n.dot(d);
        let num = n.dot(*v - o);
        if num.abs() <= on_line && den.abs() * reach <= on_line {
            continue;
        }
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

/// True when `p` is inside or on the polygon (every edge's `n·(p − v) ≤ 0`, with a
/// little slack for round-off).
pub(crate) fn inside(poly: PolyRef, p: Vec2) -> bool {
    let tol = 1e-6 * (1.0 + p.abs().max_element());
    poly.normals
        .iter()
        .zip(poly.verts)
        .all(|(n, v)| n.dot(p - *v) <= tol)
}
