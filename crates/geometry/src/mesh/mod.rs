//! Static triangle meshes: level geometry (floors, terrain, walls, ramps) that other
//! shapes collide with.
//!
//! A [`TriMesh`] is built once from vertices and triangle indices and never changes:
//! it is meant for bodies that do not move (a level, a terrain). It is not a solid:
//! it is a surface, and each triangle has a front and a back.
//!
//! ## Orientation: one-sided contacts
//! Triangles are counter-clockwise seen from the **front**; a triangle's front normal
//! is `normalize((v1 − v0) × (v2 − v0))`. Contacts with a triangle push towards its
//! front: a floor's triangles face up. Ray casts ([`TriMesh::cast_ray`]) are two-sided
//! (a ray hits a triangle from either side, and the normal returned faces the ray),
//! because that is what picking and line-of-sight queries want.
//!
//! ## What the build does ([`TriMesh::try_new`])
//! 1. **Validation.** NaN or infinite coordinates, coordinates beyond
//!    [`TriMesh::MAX_COORDINATE`], indices out of range and empty input are errors
//!    ([`MeshError`](crate::MeshError)).
//! 2. **Degenerate triangles are removed**, not refused: a triangle with a repeated
//!    index or (within a relative tolerance) no area has no normal and no contact
//!    to give. The mesh remembers which input triangles it dropped
//!    ([`TriMesh::removed_triangles`]); the others keep their relative order. A mesh
//!    whose triangles are all degenerate is an error.
//! 3. **Adjacency and internal-edge flags** ([`adjacency`]): each edge is paired with
//!    the triangle across it by **vertex index**, and marked *active* (boundary, or a
//!    convex bend of more than [`MeshTriangle::FLAT_ANGLE`]) or *inactive* (flat or
//!    concave); a corner is active when any edge meeting there is. The narrow phase
//!    reads them through [`TriMesh::triangle`] to drop the ghost contacts a box would
//!    otherwise catch on the seams of a flat floor. `try_new` does **not weld**: two
//!    triangles that share an edge only by position (duplicated vertices, as some
//!    exporters write them) see a boundary there, and both edges stay active.
//!    [`TriMesh::try_new_welded`] first merges vertices with exactly equal
//!    coordinates; vertices that are only close must be merged by the caller.
//! 4. **A bounding volume hierarchy** over the triangles' boxes ([`bvh`]), for
//!    [`TriMesh::query_aabb`] (the triangles near a shape) and [`TriMesh::cast_ray`].
//!    Queries allocate nothing beyond the caller's buffer.
//!
//! Everything is in the mesh's local frame; a pose places it in the world like any
//! other shape.
//!
//! ```
//! use sepax_geometry::{Aabb, TriMesh};
//! use glam::Vec3;
//!
//! // A 2 × 1 floor of two squares (four triangles) facing +y.
//! let vertices = vec![
//!     Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0),
//!     Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(2.0, 0.0, 1.0),
//! ];
//! let indices = vec![[0, 3, 1], [1, 3, 4], [1, 4, 2], [2, 4, 5]];
//! let mesh = TriMesh::try_new(vertices, indices).unwrap();
//! assert_eq!(mesh.triangle_count(), 4);
//!
//! // The shared edges are flat: inactive. The outline is active.
//! let t = mesh.triangle(1);
//! assert_eq!(t.normal, Vec3::Y);
//! assert_eq!(t.active_edges, [false, true, false]);
//!
//! // Region query: the triangles whose boxes overlap a box, ascending.
//! let mut hits = Vec::new();
//! mesh.query_aabb(&Aabb::new(Vec3::new(1.6, -0.1, 0.2), Vec3::new(1.8, 0.1, 0.3)), &mut hits);
//! assert_eq!(hits, vec![2, 3]);
//!
//! // Ray cast from above: hits the floor at t = 2 with the normal facing the ray.
//! let hit = mesh.cast_ray(Vec3::new(0.5, 2.0, 0.25), -Vec3::Y, 10.0).unwrap();
//! assert_eq!((hit.t, hit.normal), (2.0, Vec3::Y));
//! ```

pub mod adjacency;
mod build;
pub mod bvh;
mod query;
mod weld;

use crate::{Aabb, MeshTriangle};
use adjacency::TriangleFlags;
use bvh::MeshBvh;
use glam::Vec3;

pub use query::MeshRayHit;

/// A static triangle mesh with its adjacency flags and its own BVH (see the
/// [module docs](self)).
#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    /// The kept (non-degenerate) triangles, in input order.
    triangles: Vec<[u32; 3]>,
    /// Unit front normal of each kept triangle.
    normals: Vec<Vec3>,
    /// Active edges and corners of each kept triangle.
    flags: Vec<TriangleFlags>,
    /// Input positions of the triangles removed as degenerate, ascending.
    removed: Vec<u32>,
    bvh: MeshBvh,
    aabb: Aabb,
    bounding_radius: f32,
}

impl TriMesh {
    /// Largest coordinate magnitude a vertex may have: `1e18`. Edges are then at most
    /// about `3.5e18` long, so a product of two lengths (a cross product, a squared
    /// length, a box's surface area) stays below `f32::MAX ≈ 3.4e38`.
    pub const MAX_COORDINATE: f32 = 1e18;

    /// A triangle is degenerate (and removed) when twice its area is at most this
    /// fraction of its longest edge squared: its height is below about `1e-6` of its
    /// longest edge, so its normal is not well defined in `f32`.
    pub const DEGENERATE_TOLERANCE: f64 = 1e-6;

    /// The vertices, as given (including any that no kept triangle uses).
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The kept triangles' vertex indices, counter-clockwise seen from the front.
    /// Triangle `i` of every query is `indices()[i]`.
    #[inline]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Number of (kept) triangles.
    #[inline]
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The unit front normal of each kept triangle.
    #[inline]
    pub fn normals(&self) -> &[Vec3] {
        &self.normals
    }

    /// Input positions (in the index list given to the constructor) of the triangles
    /// removed as degenerate, ascending. Kept triangles keep their relative order, so
    /// kept triangle `i` was input triangle `i + k`, where `k` counts the removed
    /// positions below it ([`TriMesh::input_index`]).
    #[inline]
    pub fn removed_triangles(&self) -> &[u32] {
        &self.removed
    }

    /// The position in the constructor's index list of kept triangle `i`.
    pub fn input_index(&self, i: u32) -> u32 {
        // Kept triangle i is input position p with p − #(removed < p) = i and p not
        // removed: walk the removed list, which is ascending.
        let mut p = i;
        for &r in &self.removed {
            if r <= p {
                p += 1;
            } else {
                break;
            }
        }
        p
    }

    /// Triangle `i` as the narrow phase reads it: corners, front normal, active edges
    /// and corners (see [`MeshTriangle`] for what the flags mean).
    ///
    /// # Panics
    /// When `i >= self.triangle_count()`, like slice indexing; indices from
    /// [`TriMesh::query_aabb`] and [`TriMesh::cast_ray`] are always in range.
    #[inline(always)]
    pub fn triangle(&self, i: u32) -> MeshTriangle {
        let i = i as usize;
        let [a, b, c] = self.triangles[i];
        let flags = self.flags[i];
        MeshTriangle {
            vertices: [
                self.vertices[a as usize],
                self.vertices[b as usize],
                self.vertices[c as usize],
            ],
            normal: self.normals[i],
            active_edges: flags.active_edges(),
            active_vertices: flags.active_vertices(),
        }
    }

    /// The box around every kept triangle, in the mesh's frame.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// Radius of a sphere about the local origin that holds every kept triangle
    /// (rounded up, so it always holds them).
    #[inline]
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// The mesh's BVH (for tools and tests; queries go through
    /// [`TriMesh::query_aabb`] and [`TriMesh::cast_ray`]).
    #[inline]
    pub fn bvh(&self) -> &MeshBvh {
        &self.bvh
    }

    /// The box of kept triangle `i` (the box the BVH and [`TriMesh::query_aabb`] use).
    #[inline]
    pub fn triangle_aabb(&self, i: u32) -> Aabb {
        let [a, b, c] = self.triangles[i as usize];
        let (a, b, c) = (
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        );
        Aabb::new(a.min(b).min(c), a.max(b).max(c))
    }
}
