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
//!    the depth of the shape's lowest vertex (`tests/mesh_floor_oracle.rs`);
//! 5. a box's or hull's deepest vertex along `N` that lies under a triangle without a
//!    patch, reached from a face patch's triangle across the edges and corners it
//!    passed, joins as a point at its depth below that triangle
//!    ([`corner_past_a_seam`]) when it is deeper than every gathered point.
//!
//! Patches beyond the angle (a wall next to the floor, the far side of a sharp valley)
//! are left out of this frame's manifold: the deepest side is resolved first, the other
//! comes back once it is the deepest. Jolt and Box2D make the same trade; Bepu keeps a
//! normal per point instead, which sepax's solver-facing type does not carry. A sphere
//! keeps only the reference patch's point: one contact, where the triangles sharing a
//! seam would give it several times.

use super::local::LocalTriangle;
use super::patch::Patch;
use super::sphere_triangle::TriangleFeature;
use crate::manifold::pack_id;
use crate::manifold::reduce::{Candidate, reduce};
use crate::polytope::Polytope;
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
    reference: usize,
    normal: Vec3,
    tolerance: f32,
    corners: Option<(&Polytope, &[(u32, LocalTriangle)])>,
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
    let mut deepest =
        (gathered.iter()).fold(
            f32::NEG_INFINITY,
            |d, c| {
                if c.depth > d { c.depth } else { d }
            },
        );
    if let Some((poly, triangles)) = corners
        && let Some(corner) =
            corner_past_a_seam(patches, reference, triangles, normal, poly, deepest)
    {
        deepest = corner.depth;
        gathered.push(corner);
    }
    (reduce(gathered, normal, tolerance), deepest)
}

/// The convex's deepest vertex along `−normal` as a point, when it lies under a
/// triangle without a patch: reached from a touching face patch's triangle across the
/// edges and corners it lies past ([`triangle_under`]: the neighbour across the edge,
/// or around the corner, and on while the vertex lies past that one too, up to
/// [`WALK`] triangles, all within [`MERGE_ANGLE`] of `normal`), inside that triangle's
/// prism and below its plane, and deeper along `normal` (as the merge measures: its
/// depth along its own normal times the cosine) than `beyond`, and first deeper than
/// `beyond` below the reference triangle's plane (a cheap test that on a flat floor is
/// the same). The deepest such point. `None` otherwise, and for a NaN.
///
/// A sharp corner can enter the surface through one triangle and reach under the next
/// from the side, its slanted faces crossing the plane on this side of the seam: the
/// next triangle is not touched (its test finds a separating axis), so it has no
/// patch, and this one's clip keeps only what lies over it. The corner is inside the
/// mesh all the same, under the next triangle, at its depth below that plane, as every
/// clipped point is measured under its own triangle. (On a flat floor, 23 of 88,356
/// resting shapes were up to 9.7e-3 of their size short before, none after;
/// `tests/mesh_floor_oracle.rs`; a corner under the lens-shaped bottom of a wide hull
/// can lie two triangles away from every touched one, hence the walk.) Only triangles
/// reached across the edges and corners the corner passed count: a triangle it reached
/// from elsewhere (the top of a ledge whose wall it went through) says nothing of its
/// depth. Cost: callgrind, `stress --scene terrain --threads 1 --frames 5`, step
/// 158.24M → 159.51M instructions with one step (+0.8 %: mostly the support of every
/// box and hull mesh pair), 161.27M with the walk and the cones' changes.
pub(crate) fn corner_past_a_seam(
    patches: &[(u32, Patch)],
    reference: usize,
    triangles: &[(u32, LocalTriangle)],
    normal: Vec3,
    poly: &Polytope,
    beyond: f32,
) -> Option<Candidate> {
    let cos_merge = MERGE_ANGLE.cos();
    let (k, _) = poly.support(-normal);
    let corner = poly.vertices[k];
    // First the reference triangle's plane: a corner no deeper below it than `beyond`
    // is not looked for under the neighbours (on a flat floor that is its depth).
    let reference = &patches[reference].1;
    let (plane, cos) = (reference.tri.normal, reference.tri.normal.dot(normal));
    let below_reference = (reference.tri.offset - plane.dot(corner)) * cos;
    // (A NaN fails it.)
    if reference.on != TriangleFeature::Face
        || below_reference.partial_cmp(&beyond) != Some(std::cmp::Ordering::Greater)
    {
        return None;
    }
    let mut best: Option<Candidate> = None;
    let deeper = |depth: f32, best: &Option<Candidate>| {
        depth > beyond && best.is_none_or(|b| depth > b.depth)
    };
    for (id, patch) in patches {
        let tri = &patch.tri;
        let cos = tri.normal.dot(normal);
        // Touching face patches only: one kept for a margin, apart from the shape,
        // would let a margin change a touching contact.
        if patch.on != TriangleFeature::Face || patch.gap > 0.0 || cos < cos_merge {
            continue;
        }
        let Some((other, next)) = triangle_under(corner, (*id, tri), triangles, normal) else {
            continue;
        };
        let cos = next.normal.dot(normal);
        let depth = (next.offset - next.normal.dot(corner)) * cos;
        if !deeper(depth, &best) {
            continue;
        }
        best = Some(Candidate {
            point: corner + normal * (0.5 * depth),
            depth,
            id: with_triangle(other, pack_id(false, 0x7fff, 0xffff, [u16::MAX, k as u16])),
        });
    }
    best
}

/// The most triangles [`triangle_under`] walks across.
const WALK: usize = 4;

/// The triangle of the call whose prism holds `corner`, other than `start`'s, reached
/// from `start` across the edges and corners `corner` lies past, one neighbour at a time
/// (a triangle sharing the edge's two corners, or the one corner between two edges,
/// whose prism holds `corner` if there is one), at most [`WALK`] steps, every triangle
/// on the way within the merge angle of `normal`. `None` when the walk ends elsewhere.
fn triangle_under<'t>(
    corner: Vec3,
    start: (u32, &'t LocalTriangle),
    triangles: &'t [(u32, LocalTriangle)],
    normal: Vec3,
) -> Option<(u32, &'t LocalTriangle)> {
    let cos_merge = MERGE_ANGLE.cos();
    let (mut id, mut tri) = start;
    let mut from = start.0;
    for _ in 0..WALK {
        let past = [0, 1, 2].map(|i| past_edge(tri, i, corner));
        let shared: &[usize] = match past {
            [false, false, false] => return (id != start.0).then_some((id, tri)),
            [true, true, true] => return None,
            [true, false, false] => &[0, 1],
            [false, true, false] => &[1, 2],
            [false, false, true] => &[2, 0],
            [true, true, false] => &[1],
            [false, true, true] => &[2],
            [true, false, true] => &[0],
        };
        let beside = |(other, t): &&(u32, LocalTriangle)| {
            *other != id
                && *other != from
                && shared
                    .iter()
                    .all(|&j| t.vertices.contains(&tri.vertices[j]))
                && t.normal.dot(normal) >= cos_merge
        };
        let holding = |(_, t): &&(u32, LocalTriangle)| !(0..3).any(|j| past_edge(t, j, corner));
        let next = (triangles.iter().filter(beside).find(holding))
            .or_else(|| triangles.iter().find(beside));
        let (other, t) = next?;
        (from, id, tri) = (id, *other, t);
    }
    None
}

/// Whether `p` lies outside edge `i`'s side plane (`(b − a) × n` points out of the
/// triangle).
#[inline]
fn past_edge(tri: &LocalTriangle, i: usize, p: Vec3) -> bool {
    let (a, b) = tri.edge(i);
    (b - a).cross(tri.normal).dot(p - a) > 0.0
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
