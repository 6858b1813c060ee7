//! Internal edges: which feature of the triangle a contact is on, and whether that
//! feature may give a normal of its own.
//!
//! A box sliding over a flat floor made of triangles overlaps, now and then, a triangle
//! only by a sliver at its edge or corner. Tested alone, that triangle's best axis can
//! be an edge pair or a side face of the box: a sideways normal, the box catches on a
//! seam that is not there (a *ghost collision*). The mesh knows which edges are real
//! (boundary or convex bends, the flags of [`MeshTriangle`](sepax_geometry::MeshTriangle));
//! a contact on any other edge or corner is **corrected**: its normal becomes the
//! triangle's front normal and its points are rebuilt with the triangle's face as the
//! reference, so every depth is measured exactly along that normal, and only the part of
//! the convex over this triangle contributes (the neighbours give the rest). A corrected
//! contact with nothing touching over the triangle is kept aside, and answers only when
//! no triangle of the call gives a touching contact (see `patch::buried_patch`).
//!
//! The triangle's feature of an axis `L`:
//! * the front face when the test chose it;
//! * edge `i` for an edge pair on triangle edge `i`;
//! * for a face of the convex: the triangle's support set along `L` — the corners
//!   within a small tolerance of the highest `L · t_i`: three (`L` along the normal,
//!   within the tolerance) is the face, two an edge, one a corner.
//!
//! An active feature keeps the test's normal here (it lies in the front half-space by
//! the one-sided rule); the flags say nothing about the neighbouring face, so the
//! narrower range between the two faces' normals is enforced once every triangle of
//! the call is known (`cone`).

use super::local::LocalTriangle;
use super::sphere_triangle::TriangleFeature;
use crate::Feature;
use crate::sat::Axis;
use glam::Vec3;

/// Relative tolerance of the support set: corners within this fraction of the
/// triangle's size of the highest along the axis count as supporting.
const SUPPORT_TOLERANCE: f32 = 1e-4;

/// The triangle's feature that carries `axis`.
pub(crate) fn axis_feature(tri: &LocalTriangle, axis: &Axis) -> TriangleFeature {
    match axis.feature {
        // A triangle's axes never name closest features (only polytope pairs do).
        Feature::FaceA(_) | Feature::Sphere | Feature::Closest(..) => TriangleFeature::Face,
        Feature::EdgeEdge(i, _) => TriangleFeature::Edge(i as u8),
        Feature::FaceB(_) => support_feature(tri, axis.normal),
    }
}

/// The triangle's support set along `normal` as a feature: the corners within a small
/// tolerance of the highest `normal · t_i` (three: the face, two: an edge, one: a corner).
pub(crate) fn support_feature(tri: &LocalTriangle, normal: Vec3) -> TriangleFeature {
    let heights = tri.vertices.map(|v| normal.dot(v));
    let top = heights[0].max(heights[1]).max(heights[2]);
    let tolerance = SUPPORT_TOLERANCE * tri.size();
    let on = heights.map(|h| h >= top - tolerance);
    match on {
        [true, true, true] => TriangleFeature::Face,
        [true, true, false] => TriangleFeature::Edge(0),
        [false, true, true] => TriangleFeature::Edge(1),
        [true, false, true] => TriangleFeature::Edge(2),
        [true, false, false] => TriangleFeature::Vertex(0),
        [false, true, false] => TriangleFeature::Vertex(1),
        _ => TriangleFeature::Vertex(2),
    }
}

/// May a contact on `feature` keep a normal of its own?
#[inline]
pub(crate) fn is_active(tri: &LocalTriangle, feature: TriangleFeature) -> bool {
    match feature {
        TriangleFeature::Face => true,
        TriangleFeature::Edge(i) => tri.active_edges[i as usize],
        TriangleFeature::Vertex(j) => tri.active_vertices[j as usize],
    }
}
