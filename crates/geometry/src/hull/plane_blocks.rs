//! A hull's face planes in blocks of 8 (structure of arrays): the plane a point lies
//! furthest in front of, 8 plane distances at a time.
//!
//! The signed distance of `p` from face `f` is `n_f · p − offset_f`; its largest value
//! over the faces is the point's distance when it is inside (negative: minus the depth),
//! a lower bound of its distance when it is outside, and the face with that value is
//! where a closest-feature search starts. [`furthest_plane_blocks`] evaluates 8 planes
//! per `wide::f32x8`, each distance as `((x·px + y·py) + z·pz) − offset`, separate
//! multiplies and adds: [`Plane::signed_distance`]'s bits. The winner is the lowest
//! index among equal distances, as a scalar scan with a strict `>` picks it (tested in
//! `tests/hull_blocks.rs`).

use super::Plane;
use crate::hull::blocks::{BLOCK, tree};
use glam::Vec3;
use wide::f32x8;

/// Up to 8 face planes, one component per array. The last block of a hull is padded
/// with copies of face 0 (their distances tie face 0's, which wins the tie).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub struct PlaneBlock {
    /// Normals' x components.
    pub x: [f32; BLOCK],
    /// Normals' y components.
    pub y: [f32; BLOCK],
    /// Normals' z components.
    pub z: [f32; BLOCK],
    /// [`Plane::offset`]s.
    pub offset: [f32; BLOCK],
}

/// The blocks of a plane list (empty for an empty list).
pub(crate) fn plane_blocks(planes: &[Plane]) -> Vec<PlaneBlock> {
    let Some(&first) = planes.first() else {
        return Vec::new();
    };
    planes
        .chunks(BLOCK)
        .map(|chunk| {
            let at = |l: usize| chunk.get(l).copied().unwrap_or(first);
            PlaneBlock {
                x: std::array::from_fn(|l| at(l).normal.x),
                y: std::array::from_fn(|l| at(l).normal.y),
                z: std::array::from_fn(|l| at(l).normal.z),
                offset: std::array::from_fn(|l| at(l).offset),
            }
        })
        .collect()
}

/// The face `p` lies furthest in front of and that signed distance: the lowest index
/// among equal distances, the scalar scan's answer; `(0, −∞)` for an empty list.
///
/// Two passes: the largest distance by a lane-wise running maximum (`fast_max`: the
/// distances of a finite point are never NaN, so every SIMD level takes the same
/// maximum), then the blocks again, with the same operations (the same bits), until a
/// lane equals it; that lane's own value is returned (of `+0` and `−0`, which compare
/// equal, the first face's). A point that is not finite (or whose coordinates sum past
/// `f32::MAX`) takes a scalar scan that passes NaN distances over.
#[inline]
pub fn furthest_plane_blocks(blocks: &[PlaneBlock], p: Vec3) -> (usize, f32) {
    // Finite coordinates have a finite sum unless they are huge: either way a point
    // whose sum is not finite takes the scalar scan (one test instead of three).
    if !(p.x + p.y + p.z).is_finite() {
        return furthest_plane_scalar(blocks, p);
    }
    let (px, py, pz) = (f32x8::splat(p.x), f32x8::splat(p.y), f32x8::splat(p.z));
    let distances = |block: &PlaneBlock| {
        f32x8::new(block.x) * px + f32x8::new(block.y) * py + f32x8::new(block.z) * pz
            - f32x8::new(block.offset)
    };
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    for block in blocks {
        best = distances(block).fast_max(best);
    }
    let top = f32x8::splat(tree(best.to_array(), |x, y| if y > x { y } else { x }));
    for (b, block) in blocks.iter().enumerate() {
        let d = distances(block);
        let hits = d.simd_eq(top).to_bitmask();
        if hits != 0 {
            let lane = hits.trailing_zeros() as usize;
            return (b * BLOCK + lane, d.to_array()[lane]);
        }
    }
    (0, f32::NEG_INFINITY)
}

/// The largest signed distance of `p` from the planes (minus `p`'s depth below the
/// nearest plane when it is inside): the value of [`furthest_plane_blocks`], one pass,
/// without the face. Bits as there for a finite point; a point that is not finite (or
/// whose coordinates sum past `f32::MAX`) gives NaN, and an empty list `−∞`.
#[inline]
pub fn furthest_plane_distance(blocks: &[PlaneBlock], p: Vec3) -> f32 {
    if !(p.x + p.y + p.z).is_finite() {
        return f32::NAN;
    }
    let (px, py, pz) = (f32x8::splat(p.x), f32x8::splat(p.y), f32x8::splat(p.z));
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    for block in blocks {
        let d = f32x8::new(block.x) * px + f32x8::new(block.y) * py + f32x8::new(block.z) * pz
            - f32x8::new(block.offset);
        best = d.fast_max(best);
    }
    tree(best.to_array(), |x, y| if y > x { y } else { x })
}

/// [`furthest_plane_blocks`] lane by lane, a strict `>` passing NaN over.
#[cold]
fn furthest_plane_scalar(blocks: &[PlaneBlock], p: Vec3) -> (usize, f32) {
    let mut best = (0, f32::NEG_INFINITY);
    for (b, block) in blocks.iter().enumerate() {
        for l in 0..BLOCK {
            let normal = Vec3::new(block.x[l], block.y[l], block.z[l]);
            let d = normal.dot(p) - block.offset[l];
            if d > best.1 {
                best = (b * BLOCK + l, d);
            }
        }
    }
    best
}
