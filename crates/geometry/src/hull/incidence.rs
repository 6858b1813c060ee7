//! Which edge each step of a face loop and each vertex neighbour is, and the side plane
//! of each loop step: the links and tests a walk over a hull's features (face → its
//! edges → their vertices → their edges → their faces) uses without searching.
//!
//! * `face_edges` runs parallel to the face loops: entry `k` of face `f`'s stretch is
//!   the index (into [`ConvexHull::edges`](super::ConvexHull::edges)) of the edge from
//!   loop vertex `k` to loop vertex `k + 1` (wrapping);
//! * `neighbor_edges` runs parallel to the vertex adjacency: the edge joining a vertex
//!   to that neighbour. Both come from one sorted list of the edges' vertex pairs,
//!   searched once per entry at build time;
//! * `edge_steps`, one per edge: where in the face loops (an index into the loop
//!   entries) the edge is a step of `faces[0]` and of `faces[1]`;
//! * `side_planes`, parallel to the face loops: the plane through loop step
//!   `v_k → v_{k+1}` of face `f` that contains the face normal `n_f`, its unit normal
//!   `(v_{k+1} − v_k) × n_f` pointing out of the polygon. A point of `f`'s plane lies in
//!   the polygon iff it is on or behind every side plane of `f`; a point off the plane,
//!   iff its projection is. Computed in `f64`, rounded once.

use super::{HullEdge, Plane};
use glam::{DVec3, Vec3};

/// The edge index of every face-loop step and of every vertex neighbour, in that order
/// (see the [module docs](self)). Every pair asked for is an edge of a valid hull.
pub(crate) fn incidence(
    edges: &[HullEdge],
    face_starts: &[u32],
    face_vertices: &[u32],
    neighbor_starts: &[u32],
    neighbors: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let mut keys: Vec<(u32, u32, u32)> = edges
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let [a, b] = e.vertices;
            (a.min(b), a.max(b), i as u32)
        })
        .collect();
    keys.sort_unstable();
    let edge_of = |a: u32, b: u32| -> u32 {
        let key = (a.min(b), a.max(b));
        keys.binary_search_by(|k| (k.0, k.1).cmp(&key))
            .map(|i| keys[i].2)
            .unwrap_or_else(|_| unreachable!("a face step or a neighbour is an edge"))
    };
    let mut face_edges = Vec::with_capacity(face_vertices.len());
    for f in 0..face_starts.len() - 1 {
        let loop_ = &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize];
        for k in 0..loop_.len() {
            face_edges.push(edge_of(loop_[k], loop_[(k + 1) % loop_.len()]));
        }
    }
    let mut neighbor_edges = Vec::with_capacity(neighbors.len());
    for v in 0..neighbor_starts.len() - 1 {
        let range = neighbor_starts[v] as usize..neighbor_starts[v + 1] as usize;
        for &w in &neighbors[range] {
            neighbor_edges.push(edge_of(v as u32, w));
        }
    }
    (face_edges, neighbor_edges)
}

/// Where each edge is a loop step: `[step of faces[0], step of faces[1]]`, indices into
/// the loop entries (parallel to `face_edges`).
pub(crate) fn edge_steps(
    edges: &[HullEdge],
    face_starts: &[u32],
    face_edges: &[u32],
) -> Vec<[u32; 2]> {
    let mut steps = vec![[0u32; 2]; edges.len()];
    for f in 0..face_starts.len() - 1 {
        let range = face_starts[f] as usize..face_starts[f + 1] as usize;
        for (j, &e) in range.clone().zip(&face_edges[range]) {
            let side = usize::from(edges[e as usize].faces[0] != f as u32);
            steps[e as usize][side] = j as u32;
        }
    }
    steps
}

/// The side plane of every loop step (see the [module docs](self)); a step whose
/// direction has no part across the normal (impossible on a valid hull) gets a zero
/// plane, which holds every point.
pub(crate) fn side_planes(
    vertices: &[Vec3],
    planes: &[Plane],
    face_starts: &[u32],
    face_vertices: &[u32],
) -> Vec<Plane> {
    let mut sides = Vec::with_capacity(face_vertices.len());
    for (f, plane) in planes.iter().enumerate() {
        let loop_ = &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize];
        let n = plane.normal.as_dvec3();
        for k in 0..loop_.len() {
            let v0 = vertices[loop_[k] as usize].as_dvec3();
            let v1 = vertices[loop_[(k + 1) % loop_.len()] as usize].as_dvec3();
            let out = (v1 - v0).cross(n).try_normalize().unwrap_or(DVec3::ZERO);
            sides.push(Plane {
                normal: out.as_vec3(),
                offset: out.dot(v0) as f32,
            });
        }
    }
    sides
}
