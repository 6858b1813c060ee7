//! Sphere against triangle: the closest point of the triangle to the centre, and the
//! feature (face, edge or corner) it lies on.
//!
//! Ericson, *Real-Time Collision Detection* §5.1.5: the closest point of triangle
//! `abc` to `p` is found by the Voronoi region of `p` — a corner when `p` lies behind
//! both edges' perpendicular planes there, an edge when behind its perpendicular plane
//! pair and outside the triangle across it, the face otherwise — from the six dot
//! products `ab·ap`, `ac·ap`, `ab·bp`, `ac·bp`, `ab·cp`, `ac·cp`.

use super::local::LocalTriangle;
use glam::Vec3;

/// The feature of a triangle a point is closest to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TriangleFeature {
    Face,
    /// Edge `i`, from corner `i` to corner `i + 1`.
    Edge(u8),
    Vertex(u8),
}

/// The closest point of `tri` to `p` and its feature.
pub(crate) fn closest_point(tri: &LocalTriangle, p: Vec3) -> (Vec3, TriangleFeature) {
    use TriangleFeature::*;
    let [a, b, c] = tri.vertices;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, Vertex(0));
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return (b, Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * (d1 / (d1 - d3)), Edge(0));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return (c, Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (a + ac * (d2 / (d2 - d6)), Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))), Edge(1));
    }
    // Inside the face: the projection onto the plane.
    (p - tri.normal * (tri.normal.dot(p) - tri.offset), Face)
}
