//! The deepest point of a contact: the incident shape's deepest vertex along the axis,
//! used when clipping gave no point (the fallback) or none near the exact depth (the
//! deepest-point rule of the [module docs](super)).

use super::pack_id;
use super::reduce::{Candidate, reduce};
use crate::Feature;
use crate::frame::Frame;
use crate::sat::Axis;
use crate::solid::Solid;
use glam::Vec3;
use smallvec::SmallVec;

/// The incident shape's deepest vertex along the axis (b's along `−n` when a holds the
/// reference feature, a's along `n` when b does), moved halfway towards the other
/// surface, with the axis' depth. Its id names the vertex, so it stays the same while
/// that vertex is the deepest.
pub(crate) fn support_point(a: &Solid, b: &Solid, frame: &Frame, axis: &Axis) -> Candidate {
    let n = axis.normal;
    let depth = -axis.separation;
    let deepest = |solid: &Solid, dir: Vec3| {
        solid.with_polytope(|poly| {
            poly.map_or((Vec3::ZERO, u32::MAX), |p| {
                let i = p.support_index(dir);
                (p.vertices[i], i as u32)
            })
        })
    };
    let reference_is_b = matches!(axis.feature, Feature::FaceB(_));
    let (point, vertex) = if reference_is_b {
        let (v, i) = deepest(a, n);
        (v - n * (0.5 * depth), i)
    } else {
        let (v, i) = deepest(b, frame.rot_t * -n);
        (frame.point_to_a(v) + n * (0.5 * depth), i)
    };
    Candidate {
        point,
        depth,
        id: pack_id(
            reference_is_b,
            u32::MAX,
            u32::MAX,
            [u16::MAX - 1, vertex as u16],
        ),
    }
}

/// The deepest-point rule (see the `manifold` module docs): when clipping a penetrating
/// face contact left no point within the clip tolerance of the exact depth (the
/// incident shape's deepest vertex lies beyond the reference face's side planes, as
/// happens deep inside), that vertex joins the candidates with the depth of the axis and
/// the four are chosen again (the reduction keeps the deepest first).
#[inline]
pub(crate) fn keep_deepest(
    points: &mut SmallVec<[Candidate; 4]>,
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    exact: &Axis,
    clip_tolerance: f32,
) {
    let wanted = -exact.separation;
    let face = matches!(axis.feature, Feature::FaceA(_) | Feature::FaceB(_));
    if !face || wanted <= 0.0 {
        return;
    }
    let deepest = points
        .iter()
        .map(|c| c.depth)
        .fold(f32::NEG_INFINITY, f32::max);
    if deepest >= wanted - clip_tolerance {
        return;
    }
    let mut candidates: SmallVec<[Candidate; 5]> = SmallVec::from_slice(points);
    candidates.push(support_point(a, b, frame, axis));
    *points = reduce(&candidates, axis.normal, clip_tolerance);
}
