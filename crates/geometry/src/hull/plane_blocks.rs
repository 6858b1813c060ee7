//! A hull's face planes in blocks of 8 (structure of arrays): the plane a point lies
//! furthest in front of, 8 plane distances at a time.
//!
//! The signed distance of `p` from face `f` is `n_f · p − offset_f`; its largest value
//! over the faces is the point's distance when it is inside (negative: minus the depth),
//! a lower bound of its distance when it is outside, and the face with that value is
//! where a closest-feature search starts. [`furthest_plane_blocks`] evaluates 8 planes
//! per `wide::f32x8` lane group, each distance as `((x·px + y·py) + z·pz) − offset`,
//! separate multiplies and adds: [`Plane::signed_distance`]'s bits. The winner is the
//! lowest index among equal distances, as a scalar scan with a strict `>` picks it
//! (tested in `tests/hull_blocks.rs`).

use super::Plane;
use crate::hull::blocks::{BLOCK, tree};
use glam::Vec3;
use wide::f32x8;

/// Up to 8 face planes, one component per array. The last block of a hull is padded
/// with copies of face 0 (their distances tie face 0's, which wins the tie).
#[derive(Clone, Copy, Debug, PartialEq)]
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
/// among equal distances; `(0, −∞)` for an empty list (and a NaN point gives index 0).
///
/// Per lane a running maximum with strict `>` keeps the earliest block, the lane's
/// face index riding along as an `f32` (exact below 2²⁴); across lanes the largest
/// value wins and, among equal ones, the lowest index.
#[inline]
pub fn furthest_plane_blocks(blocks: &[PlaneBlock], p: Vec3) -> (usize, f32) {
    let (px, py, pz) = (f32x8::splat(p.x), f32x8::splat(p.y), f32x8::splat(p.z));
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    let mut index = f32x8::splat(0.0);
    let mut lane = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let step = f32x8::splat(BLOCK as f32);
    for block in blocks {
        let d = f32x8::new(block.x) * px + f32x8::new(block.y) * py + f32x8::new(block.z) * pz
            - f32x8::new(block.offset);
        let better = d.simd_gt(best);
        best = better.select(d, best);
        index = better.select(lane, index);
        lane += step;
    }
    let top = tree(best.to_array(), |x, y| if y > x { y } else { x });
    if top == f32::NEG_INFINITY {
        return (0, top);
    }
    // The lowest index among the lanes that hold the top value.
    let tied = best
        .simd_eq(f32x8::splat(top))
        .select(index, f32x8::splat(f32::INFINITY));
    let first = tree(tied.to_array(), |x, y| if y < x { y } else { x });
    (first as usize, top)
}
