//! Which edge each step of a face loop and each vertex neighbour is: the links a walk
//! over a hull's features (face → its edges → their vertices → their edges → their
//! faces) follows without searching.
//!
//! `face_edges` runs parallel to the face loops: entry `k` of face `f`'s stretch is
//! the index (into [`ConvexHull::edges`](super::ConvexHull::edges)) of the edge from
//! loop vertex `k` to loop vertex `k + 1` (wrapping). `neighbor_edges` runs parallel to
//! the vertex adjacency: the edge joining a vertex to that neighbour. Both come from one
//! sorted list of the edges' vertex pairs, searched once per entry at build time.

use super::HullEdge;

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
