//! A hull's vertices in blocks of 8 (structure of arrays): the support mapping as 8 dot
//! products at a time.
//!
//! `support_index` is the hot loop of every distance query and of the hull SAT's
//! face queries. Over [`VertexBlock`]s the 8 dot products of a block are independent
//! lanes, which the compiler turns into SIMD (two 4-wide halves with SSE2 or NEON,
//! no `unsafe`, no target flags). Each lane computes `x·d.x + y·d.y + z·d.z` in
//! `Vec3::dot`'s order, and the winner is the lowest index among equal dot products,
//! so the answer is the scalar scan's, bit for bit (tested in `tests/hull_blocks.rs`).

use glam::Vec3;

/// Lanes per block.
pub const BLOCK: usize = 8;

/// Up to 8 vertices, one coordinate per array. The last block of a hull is padded with
/// copies of vertex 0 (their dot product ties vertex 0's, which wins the tie).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct VertexBlock {
    /// x coordinates.
    pub x: [f32; BLOCK],
    /// y coordinates.
    pub y: [f32; BLOCK],
    /// z coordinates.
    pub z: [f32; BLOCK],
}

/// The blocks of a vertex list (empty for an empty list).
pub(crate) fn vertex_blocks(vertices: &[Vec3]) -> Vec<VertexBlock> {
    let Some(&first) = vertices.first() else {
        return Vec::new();
    };
    vertices
        .chunks(BLOCK)
        .map(|chunk| {
            let at = |l: usize| chunk.get(l).copied().unwrap_or(first);
            VertexBlock {
                x: std::array::from_fn(|l| at(l).x),
                y: std::array::from_fn(|l| at(l).y),
                z: std::array::from_fn(|l| at(l).z),
            }
        })
        .collect()
}

/// Index of a vertex furthest along `dir` over `blocks`, the lowest among ties; 0 when
/// there is none (an empty list or a NaN direction), like
/// [`support_index`](super::support_index) on the same vertices.
///
/// Per lane, a running maximum with strict `>` keeps the earliest block; across lanes
/// the largest value wins and, among equal ones, the lowest index.
#[inline]
pub fn support_index_blocks(blocks: &[VertexBlock], dir: Vec3) -> usize {
    let mut best = [f32::NEG_INFINITY; BLOCK];
    let mut index = [0u32; BLOCK];
    for (b, block) in blocks.iter().enumerate() {
        let base = (b * BLOCK) as u32;
        for l in 0..BLOCK {
            let d = block.x[l] * dir.x + block.y[l] * dir.y + block.z[l] * dir.z;
            let better = d > best[l];
            best[l] = if better { d } else { best[l] };
            index[l] = if better { base + l as u32 } else { index[l] };
        }
    }
    let mut winner = (f32::NEG_INFINITY, 0u32);
    for l in 0..BLOCK {
        if best[l] > winner.0
            || (best[l] == winner.0 && best[l] > f32::NEG_INFINITY && index[l] < winner.1)
        {
            winner = (best[l], index[l]);
        }
    }
    winner.1 as usize
}
