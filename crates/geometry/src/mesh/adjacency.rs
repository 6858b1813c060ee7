//! Triangle adjacency and the active-edge / active-corner flags, computed once at build.
//!
//! **Pairing.** Every triangle edge is a *half-edge* `(triangle, edge)`, keyed by its
//! vertex-index pair sorted (`min << 32 | max`). Sorting the half-edges by key puts the
//! triangles that share an edge next to each other. Pairing is by **index**: two
//! triangles whose corners only coincide in position do not share an edge.
//!
//! **Classifying a shared edge** (edge `p → q` of triangle A with unit normal `nA`;
//! triangle B across it, with unit normal `nB` and third corner `w`):
//! * *flat* when the bend angle is below [`MeshTriangle::FLAT_ANGLE`]:
//!   `nA · nB ≥ cos(FLAT_ANGLE)`;
//! * otherwise *convex* (B bends away from A's front) when `(w − p) · nA ≤ 0`, and
//!   *concave* when `(w − p) · nA > 0`. `(w − p) · nA = 0` without being flat is B
//!   folded back onto A (a bend of 180°), a knife edge: convex.
//!
//! For consistently wound neighbours (B runs the edge `q → p`) the classification is
//! symmetric, so it is computed once per edge, in f64 from the f64 normals, and given
//! to both sides.
//!
//! **Active edges** are boundary edges (one triangle), convex edges and, as the safe
//! choice where "the neighbour's normal covers it" cannot be relied on:
//! * non-manifold edges (three or more triangles on one edge);
//! * edges whose two triangles run it in the same direction (inconsistent winding: one
//!   of them faces the other way, so its front is not comparable).
//!
//! Flat and concave edges are inactive. **A corner is active** when at least one mesh
//! edge meeting at its vertex index is active (in any triangle).

use crate::MeshTriangle;
use glam::DVec3;

/// The active edges and corners of one triangle, as bits: edge `i` is bit `i`, corner
/// `j` is bit `3 + j`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriangleFlags(u8);

impl TriangleFlags {
    /// Edge `i` (corner `i` to corner `(i + 1) % 3`) may give its own normal.
    #[inline]
    pub fn active_edges(self) -> [bool; 3] {
        [self.0 & 1 != 0, self.0 & 2 != 0, self.0 & 4 != 0]
    }

    /// Corner `j` may give its own normal.
    #[inline]
    pub fn active_vertices(self) -> [bool; 3] {
        [self.0 & 8 != 0, self.0 & 16 != 0, self.0 & 32 != 0]
    }

    fn set_edge(&mut self, edge: usize) {
        self.0 |= 1 << edge;
    }

    fn set_vertex(&mut self, corner: usize) {
        self.0 |= 8 << corner;
    }
}

/// How the triangle across a shared, consistently wound edge sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bend {
    /// Bent by less than [`MeshTriangle::FLAT_ANGLE`] either way.
    Flat,
    /// Bent away from the front by more than the flat angle.
    Convex,
    /// Bent towards the front by more than the flat angle.
    Concave,
}

/// The bend at edge `p → q` of a triangle with unit normal `n_a`, whose neighbour has
/// unit normal `n_b` and third corner `w` (see the module docs).
pub fn classify_bend(n_a: DVec3, n_b: DVec3, p: DVec3, w: DVec3) -> Bend {
    let cos_flat = (MeshTriangle::FLAT_ANGLE as f64).cos();
    if n_a.dot(n_b) >= cos_flat {
        Bend::Flat
    } else if (w - p).dot(n_a) <= 0.0 {
        Bend::Convex
    } else {
        Bend::Concave
    }
}

/// The flags of every triangle of `triangles` (indices into `vertices`, all in range),
/// given each triangle's unit normal in f64.
pub(crate) fn compute_flags(
    vertices: &[glam::Vec3],
    triangles: &[[u32; 3]],
    normals: &[DVec3],
) -> Vec<TriangleFlags> {
    // Half-edges (key, triangle * 3 + edge), sorted: equal keys are adjacent, and the
    // code breaks ties so the order is the same on every run.
    let mut half_edges: Vec<(u64, u32)> = Vec::with_capacity(triangles.len() * 3);
    for (t, tri) in triangles.iter().enumerate() {
        for e in 0..3 {
            let (p, q) = (tri[e], tri[(e + 1) % 3]);
            let key = ((p.min(q) as u64) << 32) | p.max(q) as u64;
            half_edges.push((key, t as u32 * 3 + e as u32));
        }
    }
    half_edges.sort_unstable();

    let mut flags = vec![TriangleFlags::default(); triangles.len()];
    let mut vertex_active = vec![false; vertices.len()];
    let mut activate = |code: u32, flags: &mut [TriangleFlags]| {
        let (t, e) = ((code / 3) as usize, (code % 3) as usize);
        flags[t].set_edge(e);
        let tri = triangles[t];
        vertex_active[tri[e] as usize] = true;
        vertex_active[tri[(e + 1) % 3] as usize] = true;
    };

    for run in half_edges.chunk_by(|x, y| x.0 == y.0) {
        let active = match run {
            [(_, a), (_, b)] => {
                let (ta, ea) = ((a / 3) as usize, (a % 3) as usize);
                let (tb, eb) = ((b / 3) as usize, (b % 3) as usize);
                let (tri_a, tri_b) = (triangles[ta], triangles[tb]);
                if tri_a[ea] == tri_b[eb] {
                    true // same direction in both: inconsistent winding
                } else {
                    let p = vertices[tri_a[ea] as usize].as_dvec3();
                    let w = vertices[tri_b[(eb + 2) % 3] as usize].as_dvec3();
                    classify_bend(normals[ta], normals[tb], p, w) == Bend::Convex
                }
            }
            _ => true, // boundary (one) or non-manifold (three or more)
        };
        if active {
            for &(_, code) in run {
                activate(code, &mut flags);
            }
        }
    }

    for (f, tri) in flags.iter_mut().zip(triangles) {
        for (j, &v) in tri.iter().enumerate() {
            if vertex_active[v as usize] {
                f.set_vertex(j);
            }
        }
    }
    flags
}
