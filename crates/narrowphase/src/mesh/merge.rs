//! Many triangles, one manifold: the patches of the triangles under a convex gathered
//! into at most four points with one normal.
//!
//! Solvers want one normal per manifold (sepax's [`Manifold`](crate::Manifold) has one).
//! The rule:
//! 1. the **reference patch** is the deepest one (its deepest point; the first in the
//!    caller's order among equal depths). Its normal is the manifold's normal `N`;
//! 2. every patch whose normal is within [`MERGE_ANGLE`] of `N` gives its points, each
//!    depth re-measured along `N`: a point of depth `d` along its own normal `m` has its
//!    surfaces `d·m` apart, which is `d (m · N)` along `N`; the position (halfway
//!    between the surfaces) stays;
//! 3. the points are reduced to four by [`reduce`](crate::manifold::reduce) (the deepest
//!    first, then the widest spread), as one triangle's clipped points are;
//! 4. a triangle's own reduction keeps a point within the clip tolerance of its deepest
//!    (the earliest of near ties, so that the ids stay) and may drop the deepest: the
//!    merge gathers that one too, so that the manifold keeps a point within the
//!    tolerance of the deepest of all, whose depth `contact` reports: on a flat floor
//!    the depth of the shape's lowest vertex over a triangle it touches
//!    (`tests/mesh_floor_oracle.rs`).
//!
//! Patches beyond the angle (a wall next to the floor, the far side of a sharp valley)
//! are left out of this frame's manifold: the deepest side is resolved first, the other
//! comes back once it is the deepest. Jolt and Box2D make the same trade; Bepu keeps a
//! normal per point instead, which sepax's solver-facing type does not carry. A sphere
//! keeps only the reference patch's point: one contact, where the triangles sharing a
//! seam would give it several times.

use super::patch::Patch;
use crate::manifold::reduce::{Candidate, reduce};
use glam::Vec3;
use smallvec::SmallVec;

/// Patches whose normal is within this angle (radians) of the reference patch's join
/// its manifold: 10°, well above the bend between neighbouring triangles of a smooth
/// terrain (a gentle one bends by well under 1° per triangle) and below a step or a
/// wall.
pub const MERGE_ANGLE: f32 = 10.0 * std::f32::consts::PI / 180.0;

/// The reference patch (see the module docs).
pub(crate) fn reference_patch(patches: &[(u32, Patch)]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (k, (_, patch)) in patches.iter().enumerate() {
        let depth = patch.depth();
        if depth.is_nan() {
            continue;
        }
        if best.is_none_or(|(_, d)| depth > d) {
            best = Some((k, depth));
        }
    }
    best.map(|(k, _)| k)
}

/// The merged points along `normal`, reduced to four, ids carrying the triangle ids,
/// and the depth of the deepest point before any reduction (each triangle's, then this
/// one's, keeps a point within `tolerance` of it: see [`reduce`]).
pub(crate) fn merged_points(
    patches: &[(u32, Patch)],
    normal: Vec3,
    tolerance: f32,
    gathered: &mut Vec<Candidate>,
) -> (SmallVec<[Candidate; 4]>, f32) {
    let cos_merge = MERGE_ANGLE.cos();
    gathered.clear();
    for (id, patch) in patches {
        let cos = patch.normal.dot(normal);
        if cos < cos_merge {
            continue;
        }
        let gather = |c: &Candidate| Candidate {
            point: c.point,
            depth: c.depth * cos,
            id: with_triangle(*id, c.id),
        };
        gathered.extend(patch.points.iter().map(gather));
        // And its deepest point where its own reduction dropped it.
        if let Some(c) = &patch.dropped {
            gathered.push(gather(c));
        }
    }
    let deepest = (gathered.iter()).fold(
        f32::NEG_INFINITY,
        |d, c| {
            if c.depth > d { c.depth } else { d }
        },
    );
    (reduce(gathered, normal, tolerance), deepest)
}

/// A point's id with its triangle: the triangle id in the high 32 bits, the local id
/// (which packs the features and clip lines, see `pack_id`) folded to the low 32 by a
/// multiplicative hash — stable from frame to frame, distinct for distinct features
/// but for a 2⁻³² chance.
#[inline]
pub(crate) fn with_triangle(triangle: u32, local: u64) -> u64 {
    let folded = ((local ^ (local >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32;
    ((triangle as u64) << 32) | folded as u64
}
