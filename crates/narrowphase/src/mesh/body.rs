//! A whole [`TriMesh`] against a convex shape: the mesh's BVH picks the triangles,
//! [`collide_mesh_triangles`] does the rest. This is what [`collide`](crate::collide),
//! [`contact`](fn@crate::contact) and [`intersects`](crate::intersects) run for a pair with
//! a mesh.
//!
//! The region asked of the BVH is the convex's AABB in the mesh's frame (the shape's
//! own AABB at its pose relative to the mesh), grown by the margin: every triangle that
//! may touch the shape, and the neighbours of a touched edge or corner that the
//! active-edge cones need, overlap it.

use super::{MeshScratch, collide_mesh_triangles_within};
use crate::contact::{Contact, Manifold};
use crate::math::sanitize_margin;
use glam::Vec3;
use sepax_geometry::{Aabb, Pose, Shape, TriMesh};
use std::cell::RefCell;

/// Buffers for [`collide_mesh`] and [`contact_mesh`], reused from call to call: the
/// triangle indices the BVH returns and the per-triangle patches. Once they have grown
/// to the largest pair seen, nothing is allocated.
#[derive(Clone, Debug, Default)]
pub struct MeshQueryScratch {
    candidates: Vec<u32>,
    triangles: MeshScratch,
}

thread_local! {
    /// The scratch of [`collide`](crate::collide) and friends, one per thread.
    static SCRATCH: RefCell<MeshQueryScratch> = RefCell::default();
}

/// Runs `f` with this thread's scratch (a fresh one if it is already borrowed, which
/// only a re-entrant call from inside `f` could cause).
pub(crate) fn with_thread_scratch<R>(f: impl FnOnce(&mut MeshQueryScratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut MeshQueryScratch::default()),
    })
}

/// The contact manifold of `mesh` (shape a, at `mesh_pose`) and the convex `shape` at
/// `pose`: normal from the mesh to the shape, at most four points, one-sided, internal
/// edges removed (see the [module docs](super)). `None` when apart by more than
/// `margin`, for an invalid pose, or when `shape` is itself a mesh (meshes do not
/// collide with each other). A negative or NaN margin counts as 0.
pub fn collide_mesh(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
    scratch: &mut MeshQueryScratch,
) -> Option<Manifold> {
    let (margin, reach) = culled(mesh, mesh_pose, shape, pose, margin, scratch)?;
    let triangles = scratch.candidates.iter().map(|&i| (i, mesh.triangle(i)));
    collide_mesh_triangles_within(
        triangles,
        (mesh_pose, shape, pose),
        margin,
        Some(reach),
        &mut scratch.triangles,
    )
}

/// The deepest contact of `mesh` and `shape`: the normal and feature of
/// [`collide_mesh`]'s manifold and the depth of the deepest point before its reduction
/// to four (see [`contact_mesh_triangles`](super::contact_mesh_triangles)). Same
/// arguments and rules.
pub fn contact_mesh(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
    scratch: &mut MeshQueryScratch,
) -> Option<Contact> {
    let manifold = collide_mesh(mesh, mesh_pose, shape, pose, margin, scratch)?;
    Some(scratch.triangles.contact_of(&manifold))
}

/// Fills `scratch.candidates` with the triangles whose boxes overlap the shape's grown
/// by the margin (see the module docs) and returns the sanitised margin and the
/// shape's own box in the mesh's frame; `None` for a mesh `shape`, an invalid pose, or
/// a shape box that is not finite in the mesh's frame.
fn culled(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
    scratch: &mut MeshQueryScratch,
) -> Option<(f32, Aabb)> {
    if matches!(shape, Shape::TriMesh(_)) || !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let margin = sanitize_margin(margin);
    let own = box_in_mesh(mesh_pose, shape, pose);
    let region = Aabb::new(own.min - Vec3::splat(margin), own.max + Vec3::splat(margin));
    if !region.is_valid() {
        return None;
    }
    mesh.query_aabb(&region, &mut scratch.candidates);
    Some((margin, own))
}

/// The shape's AABB in the mesh's frame (not checked: see [`Aabb::is_valid`]).
pub(crate) fn box_in_mesh(mesh_pose: &Pose, shape: &Shape, pose: &Pose) -> Aabb {
    let inverse = mesh_pose.inverse();
    let relative = Pose::new(
        inverse.transform_point(pose.translation),
        (inverse.rotation * pose.rotation).normalize(),
    );
    shape.aabb(&relative)
}
