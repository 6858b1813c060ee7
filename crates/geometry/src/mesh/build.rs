//! Building a [`TriMesh`]: validation, degenerate-triangle removal, normals, flags, BVH.

use super::TriMesh;
use super::adjacency::compute_flags;
use super::bvh::MeshBvh;
use crate::{Aabb, MeshError, MeshTriangle};
use glam::{DVec3, Vec2, Vec3};

impl TriMesh {
    /// Most triangles a mesh may have: `u32::MAX / 4` (about a billion), so triangle,
    /// half-edge (`3 × triangle + edge`) and BVH node indices fit a `u32`.
    pub const MAX_TRIANGLES: usize = (u32::MAX / 4) as usize;

    /// A mesh of `vertices` and `indices` (three vertex indices per triangle,
    /// counter-clockwise seen from the front).
    ///
    /// Errors, checked in this order:
    /// * no vertex or no triangle: [`MeshError::Empty`];
    /// * more than [`TriMesh::MAX_TRIANGLES`] triangles: [`MeshError::TooManyTriangles`];
    /// * a NaN or infinite coordinate, or one beyond [`TriMesh::MAX_COORDINATE`]:
    ///   [`MeshError::NonFiniteVertex`] / [`MeshError::TooLarge`], with the first
    ///   offending vertex;
    /// * an index `>= vertices.len()`: [`MeshError::IndexOutOfRange`], with the first
    ///   offending triangle;
    /// * every triangle degenerate: [`MeshError::AllDegenerate`].
    ///
    /// **Degenerate triangles are removed** (and listed in
    /// [`TriMesh::removed_triangles`]): a repeated vertex index; twice the area at most
    /// [`TriMesh::DEGENERATE_TOLERANCE`] times the longest edge squared; or twice the
    /// area squared below `f32::MIN_POSITIVE` (about `1.2e-38`: a right triangle with
    /// legs below about `3e-10`), too small for f32 arithmetic to resolve.
    /// The edges they leave open count as boundary edges for the flags.
    ///
    /// Normals are [`MeshTriangle::unit_normal`] (f64, rounded once), the same bits a
    /// [`MeshTriangle::lone`] with the same corners has.
    ///
    /// Vertices that no kept triangle uses are kept (indices stay valid) but play no
    /// part in the box, the radius or the queries.
    pub fn try_new(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> Result<TriMesh, MeshError> {
        if vertices.is_empty() || indices.is_empty() {
            return Err(MeshError::Empty);
        }
        if indices.len() > TriMesh::MAX_TRIANGLES {
            return Err(MeshError::TooManyTriangles(indices.len()));
        }
        for (i, v) in vertices.iter().enumerate() {
            if !v.is_finite() {
                return Err(MeshError::NonFiniteVertex(i));
            }
            if v.abs().max_element() > TriMesh::MAX_COORDINATE {
                return Err(MeshError::TooLarge(i));
            }
        }
        for (t, tri) in indices.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange { triangle: t, index });
            }
        }

        let mut triangles = Vec::with_capacity(indices.len());
        let mut normals64 = Vec::with_capacity(indices.len());
        let mut removed = Vec::new();
        for (t, tri) in indices.into_iter().enumerate() {
            match triangle_normal(&vertices, tri) {
                Some(n) => {
                    triangles.push(tri);
                    normals64.push(n);
                }
                None => removed.push(t as u32),
            }
        }
        if triangles.is_empty() {
            return Err(MeshError::AllDegenerate);
        }

        let flags = compute_flags(&vertices, &triangles, &normals64);
        let boxes: Vec<Aabb> = triangles
            .iter()
            .map(|tri| {
                let [a, b, c] = tri.map(|v| vertices[v as usize]);
                Aabb::new(a.min(b).min(c), a.max(b).max(c))
            })
            .collect();
        let bvh = MeshBvh::build(&boxes);
        let mesh = TriMesh {
            aabb: bvh.nodes()[0].aabb,
            bounding_radius: bounding_radius(&vertices, &triangles),
            normals: normals64.iter().map(|n| n.as_vec3()).collect(),
            vertices,
            triangles,
            flags,
            removed,
            bvh,
        };
        debug_assert!(
            (0..mesh.triangle_count() as u32).all(|t| mesh.triangle_aabb(t) == boxes[t as usize])
        );
        Ok(mesh)
    }

    /// A height field: `columns × rows` samples on the x–z plane, `cell` apart (x, z),
    /// sample `(i, j)` at `(i · cell.x, heights[j · columns + i], j · cell.y)`, two
    /// triangles per cell facing up (+y). The corner sample `(0, 0)` is at the local
    /// origin.
    ///
    /// Errors: [`MeshError::InvalidGrid`] for fewer than 2 samples a side, a height count
    /// other than `columns × rows` or a cell size that is not finite and positive; the
    /// errors of [`TriMesh::try_new`] otherwise (a NaN height is
    /// [`MeshError::NonFiniteVertex`]).
    ///
    /// ```
    /// use sepax_geometry::TriMesh;
    /// use glam::{Vec2, Vec3};
    /// let flat = TriMesh::try_from_heights(3, 3, Vec2::ONE, &[0.0; 9]).unwrap();
    /// assert_eq!(flat.triangle_count(), 8);
    /// assert!(flat.normals().iter().all(|&n| n == Vec3::Y));
    /// ```
    pub fn try_from_heights(
        columns: usize,
        rows: usize,
        cell: Vec2,
        heights: &[f32],
    ) -> Result<TriMesh, MeshError> {
        let grid_ok = columns >= 2
            && rows >= 2
            && columns.checked_mul(rows) == Some(heights.len())
            && cell.is_finite()
            && cell.min_element() > 0.0
            && u32::try_from(heights.len()).is_ok();
        if !grid_ok {
            return Err(MeshError::InvalidGrid);
        }
        let cells = (columns - 1) * (rows - 1);
        if cells > TriMesh::MAX_TRIANGLES / 2 {
            return Err(MeshError::TooManyTriangles(cells.saturating_mul(2)));
        }
        let vertices = heights
            .iter()
            .enumerate()
            .map(|(k, &h)| {
                let (i, j) = (k % columns, k / columns);
                Vec3::new(i as f32 * cell.x, h, j as f32 * cell.y)
            })
            .collect();
        let mut indices = Vec::with_capacity(2 * cells);
        for j in 0..rows - 1 {
            for i in 0..columns - 1 {
                let at = |i: usize, j: usize| (j * columns + i) as u32;
                // Seen from +y, (i, j) → (i, j + 1) → (i + 1, j) turns counter-clockwise.
                indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                indices.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
            }
        }
        TriMesh::try_new(vertices, indices)
    }
}

/// The unit normal (f64) of triangle `tri`, or `None` when it is degenerate (see
/// [`TriMesh::try_new`]).
fn triangle_normal(vertices: &[Vec3], tri: [u32; 3]) -> Option<DVec3> {
    let [i, j, k] = tri;
    if i == j || j == k || k == i {
        return None;
    }
    let corners = tri.map(|i| vertices[i as usize]);
    // None when twice the area squared underflows f32 (the tiny-triangle rule).
    let normal = MeshTriangle::unit_normal(corners)?;
    let [a, b, c] = corners.map(|v| v.as_dvec3());
    let twice_area = (b - a).cross(c - a).length();
    let longest_squared = (b - a)
        .length_squared()
        .max((c - a).length_squared())
        .max((c - b).length_squared());
    if twice_area <= TriMesh::DEGENERATE_TOLERANCE * longest_squared {
        return None;
    }
    Some(normal)
}

/// Largest distance from the origin of a vertex of a kept triangle, in f64, rounded up
/// to an f32.
fn bounding_radius(vertices: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let squared = triangles
        .iter()
        .flatten()
        .map(|&v| vertices[v as usize].as_dvec3().length_squared())
        .fold(0.0f64, f64::max);
    let r = squared.sqrt();
    let rounded = r as f32;
    if (rounded as f64) < r {
        rounded.next_up()
    } else {
        rounded
    }
}
