//! Welding vertices that sit at exactly the same position, so that triangles which
//! share an edge only by position share it by index too.
//!
//! Exporters often split a vertex where its normal or texture coordinates change (hard
//! edges, UV seams); every split edge would otherwise be a boundary edge, active, and a
//! box sliding across it could catch on it. Welding here is **exact**: coordinates
//! equal as numbers (`-0.0` equals `0.0`). Vertices that are merely close are left
//! apart; snap them to a grid first if they should be one.
//!
//! **Algorithm.** Sort the vertex indices by coordinates (then by index), so equal
//! positions are adjacent with the lowest index first; every vertex maps to the first
//! of its run. O(n log n), one `Vec<u32>` of scratch.

use super::TriMesh;
use crate::MeshError;
use glam::Vec3;

impl TriMesh {
    /// [`TriMesh::try_new`] after welding vertices with exactly equal coordinates:
    /// every index is replaced by the lowest index of a vertex at the same position.
    /// The vertex list is kept as given (so [`TriMesh::vertices`] still lines up with
    /// the input); [`TriMesh::indices`] holds the welded indices. Triangles that lose
    /// an area to the weld (two corners welded together) are removed as degenerate.
    ///
    /// ```
    /// use sepax_geometry::TriMesh;
    /// use glam::Vec3;
    /// // Two triangles of one square, each with its own three vertices.
    /// let vertices = vec![
    ///     Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 0.0),
    ///     Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0),
    /// ];
    /// let indices = vec![[0, 1, 2], [3, 4, 5]];
    /// let split = TriMesh::try_new(vertices.clone(), indices.clone()).unwrap();
    /// assert_eq!(split.triangle(0).active_edges, [true, true, true]);
    /// let welded = TriMesh::try_new_welded(vertices, indices).unwrap();
    /// assert_eq!(welded.indices()[1], [2, 1, 5]);
    /// assert_eq!(welded.triangle(0).active_edges, [true, false, true]); // the diagonal
    /// ```
    pub fn try_new_welded(
        vertices: Vec<Vec3>,
        mut indices: Vec<[u32; 3]>,
    ) -> Result<TriMesh, MeshError> {
        let canonical = exact_weld_map(&vertices);
        for tri in &mut indices {
            for index in tri {
                // Out-of-range indices are left for `try_new` to report.
                if let Some(&to) = canonical.get(*index as usize) {
                    *index = to;
                }
            }
        }
        TriMesh::try_new(vertices, indices)
    }
}

/// For each vertex, the lowest index of a vertex with exactly the same coordinates.
fn exact_weld_map(vertices: &[Vec3]) -> Vec<u32> {
    // Bit patterns with −0 turned into +0 (x + 0.0 does that and changes nothing else);
    // NaNs compare by their bits, so sorting never meets an unordered pair.
    // Only the first u32::MAX vertices can be named by an index.
    let count = vertices.len().min(u32::MAX as usize) as u32;
    let key = |i: u32| {
        (vertices[i as usize] + Vec3::ZERO)
            .to_array()
            .map(f32::to_bits)
    };
    let mut order: Vec<u32> = (0..count).collect();
    order.sort_unstable_by_key(|&i| (key(i), i));
    let mut canonical: Vec<u32> = (0..count).collect();
    for run in order.chunk_by(|&a, &b| key(a) == key(b)) {
        for &i in run {
            canonical[i as usize] = run[0];
        }
    }
    canonical
}
