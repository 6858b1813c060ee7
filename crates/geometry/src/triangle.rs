//! One triangle of a triangle mesh, as the narrow phase sees it.
//!
//! A [`MeshTriangle`] carries its three corners, its unit front normal and which of its
//! edges and corners may produce a contact normal of their own. The flags are what lets
//! the narrow phase remove *internal-edge* (ghost) contacts: a box sliding over a flat
//! floor made of many triangles must not catch on the seams between them.
//!
//! ## Orientation
//! The corners are counter-clockwise seen from the front; the front normal is
//! `normalize((v1 − v0) × (v2 − v0))`.
//!
//! ## Active features
//! * Edge `i` runs from `vertices[i]` to `vertices[(i + 1) % 3]`. It is **active** when it
//!   is a boundary edge (no other triangle shares it) or when the triangle across it
//!   bends away from the front side (a *convex* edge) by more than
//!   [`MeshTriangle::FLAT_ANGLE`]. Flat edges (bent by less, either way) and concave
//!   edges (bent towards the front) are **inactive**: every direction a contact there
//!   could need is already some neighbouring face's normal.
//! * Corner `j` is **active** when at least one mesh edge that meets at it (in any
//!   triangle, not only this one) is active.
//!
//! [`TriMesh`](crate::TriMesh) pairs edges by vertex index and also marks active the
//! edges it cannot classify: non-manifold edges (three or more triangles) and edges
//! whose two triangles are wound in opposite senses (see [`crate::mesh::adjacency`]).
//!
//! A contact whose closest feature on the triangle is an inactive edge or corner has
//! its normal replaced by the triangle's front normal.

use glam::{DVec3, Vec3};

/// One triangle of a mesh in the mesh's local frame, with its internal-edge flags.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshTriangle {
    /// The corners, counter-clockwise seen from the front.
    pub vertices: [Vec3; 3],
    /// The unit front normal, `normalize((v1 − v0) × (v2 − v0))`.
    pub normal: Vec3,
    /// Edge `i` (from corner `i` to corner `(i + 1) % 3`) may give its own normal.
    pub active_edges: [bool; 3],
    /// Corner `j` may give its own normal.
    pub active_vertices: [bool; 3],
}

impl MeshTriangle {
    /// Bend angle (radians) below which an edge between two triangles counts as flat:
    /// about 0.5°. Meshes exported from modelling tools carry this much noise on faces
    /// meant to be flat.
    pub const FLAT_ANGLE: f32 = 0.5 * std::f32::consts::PI / 180.0;

    /// A triangle whose edges and corners are all active (a lone triangle: every edge is
    /// a boundary edge). `None` when the corners are not finite or the triangle has no
    /// area: twice its area squared is below `f32::MIN_POSITIVE` (see
    /// [`MeshTriangle::unit_normal`]).
    pub fn lone(vertices: [Vec3; 3]) -> Option<MeshTriangle> {
        if !vertices.iter().all(|v| v.is_finite()) {
            return None;
        }
        let normal = MeshTriangle::unit_normal(vertices)?.as_vec3();
        Some(MeshTriangle {
            vertices,
            normal,
            active_edges: [true; 3],
            active_vertices: [true; 3],
        })
    }

    /// The unit front normal of the triangle with these (finite) corners,
    /// `normalize((v1 − v0) × (v2 − v0))`, computed in f64 (so neither round-off on thin
    /// triangles nor overflow on large ones spoils it); `None` when twice the area
    /// squared, `|(v1 − v0) × (v2 − v0)|²`, is below `f32::MIN_POSITIVE` (about
    /// `1.2e-38`: a right triangle with legs below about `3e-10`), too small for f32
    /// arithmetic. [`TriMesh`](crate::TriMesh) and [`MeshTriangle::lone`] both use it, so
    /// a mesh triangle and a lone one with the same corners have the same normal bits.
    pub fn unit_normal(vertices: [Vec3; 3]) -> Option<DVec3> {
        let [a, b, c] = vertices.map(|v| v.as_dvec3());
        let cross = (b - a).cross(c - a);
        let squared = cross.length_squared();
        (squared >= f32::MIN_POSITIVE as f64).then(|| cross / squared.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_triangle_faces_its_counter_clockwise_side() {
        let t = MeshTriangle::lone([Vec3::ZERO, Vec3::X, Vec3::Y]).unwrap();
        assert_eq!(t.normal, Vec3::Z);
        assert!(MeshTriangle::lone([Vec3::ZERO, Vec3::X, Vec3::X * 2.0]).is_none());
        assert!(MeshTriangle::lone([Vec3::NAN, Vec3::X, Vec3::Y]).is_none());
    }
}
