//! The f64 twin of a whole mesh against a convex shape: every triangle of the mesh,
//! each through its one-sided twin in [`triangle`](super::triangle), no BVH, no
//! internal-edge correction.
//!
//! It judges verdicts (touching or apart), not normals: the mesh path's normals are
//! corrected on internal edges by design, the twin's are the raw per-triangle axes.

use super::triangle::{
    triangle_capsule, triangle_sphere, triangle_verdict_gap, triangle_vertex_projection_sat,
};
use sepax_geometry::{Pose, Shape, TriMesh};

/// The smallest one-sided separation of `shape` from the triangles of `mesh` (negative:
/// penetration depth), over every triangle whose box overlaps the shape's box (both in
/// the mesh's frame; a plain scan of all triangle boxes, no BVH). A triangle whose box
/// misses the shape's is apart from it, so the answer is exact whenever it is ≤ 0, and
/// positive (at least the true separation's sign) otherwise; `+∞` when no box
/// overlaps. `None` when no overlapping triangle has the shape's centre in front of it,
/// for an invalid pose or for a mesh.
pub fn mesh_separation(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<f64> {
    smallest_over_overlapping(mesh, mesh_pose, shape, pose, |i| {
        let triangle = mesh.triangle(i);
        match shape {
            Shape::Sphere(s) => triangle_sphere(&triangle, mesh_pose, s.radius(), pose),
            Shape::Cuboid(_) | Shape::ConvexHull(_) => {
                triangle_vertex_projection_sat(&triangle, mesh_pose, shape, pose)
            }
            Shape::Capsule(c) => triangle_capsule(&triangle, mesh_pose, c, pose),
            Shape::TriMesh(_) => None,
        }
        .map(|c| c.separation)
    })
}

/// The verdict's gap of `shape` and the mesh: the smallest [`triangle_verdict_gap`]
/// over the triangles [`mesh_separation`] looks at (`≤ 0`: touching, else apart by at
/// least that), `+∞` when no box overlaps, `None` as for [`mesh_separation`]. It equals
/// `mesh_separation` apart; touching, it is the gap along every axis, not only those
/// that may carry the contact, so that a pair grazing along an axis behind a triangle
/// reads as touching by a hair, not as deep.
pub fn mesh_verdict_gap(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<f64> {
    smallest_over_overlapping(mesh, mesh_pose, shape, pose, |i| {
        triangle_verdict_gap(&mesh.triangle(i), mesh_pose, shape, pose)
    })
}

/// The smallest `per_triangle` value over the triangles whose boxes overlap the
/// shape's (those without a value skipped), `+∞` when no box overlaps, `None` when no
/// overlapping triangle has a value or a pose is invalid.
fn smallest_over_overlapping(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    per_triangle: impl Fn(u32) -> Option<f64>,
) -> Option<f64> {
    let overlapping = overlapping_triangles(mesh, mesh_pose, shape, pose)?;
    if overlapping.is_empty() {
        return Some(f64::INFINITY);
    }
    overlapping
        .into_iter()
        .filter_map(per_triangle)
        .min_by(f64::total_cmp)
}

/// The triangles whose boxes overlap the shape's box (both in the mesh's frame; a plain
/// scan); `None` for an invalid pose.
fn overlapping_triangles(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
) -> Option<Vec<u32>> {
    if !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let inverse = mesh_pose.inverse();
    let relative = Pose::new(
        inverse.transform_point(pose.translation),
        (inverse.rotation * pose.rotation).normalize(),
    );
    let region = shape.aabb(&relative);
    Some(
        (0..mesh.triangle_count() as u32)
            .filter(|&i| mesh.triangle_aabb(i).overlaps(&region))
            .collect(),
    )
}
