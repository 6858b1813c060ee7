//! The f64 twin of a whole mesh against a convex shape: every triangle of the mesh,
//! each through its one-sided twin in [`triangle`](super::triangle), no BVH, no
//! internal-edge correction.
//!
//! It judges verdicts (touching or apart), not normals: the mesh path's normals are
//! corrected on internal edges by design, the twin's are the raw per-triangle axes.

use super::triangle::{triangle_sphere, triangle_vertex_projection_sat};
use sepax_geometry::{Pose, Shape, TriMesh};

/// The smallest one-sided separation of `shape` from any triangle of `mesh` (negative:
/// penetration depth), scanning every triangle; `None` when no triangle has the shape's
/// centre in front of it, for an invalid pose, for a capsule (no triangle twin yet) or
/// for a mesh.
pub fn mesh_separation(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<f64> {
    let per_triangle = |i: u32| {
        let triangle = mesh.triangle(i);
        match shape {
            Shape::Sphere(s) => triangle_sphere(&triangle, mesh_pose, s.radius(), pose),
            Shape::Cuboid(_) | Shape::ConvexHull(_) => {
                triangle_vertex_projection_sat(&triangle, mesh_pose, shape, pose)
            }
            Shape::Capsule(_) | Shape::TriMesh(_) => None,
        }
        .map(|c| c.separation)
    };
    (0..mesh.triangle_count() as u32)
        .filter_map(per_triangle)
        .min_by(f64::total_cmp)
}
