//! The deepest point of a contact: the incident shape's deepest vertex along the axis,
//! used when clipping gave no point (the fallback) or none near the exact depth (the
//! deepest-point rule of the [module docs](super)).

use super::reduce::{Candidate, reduce};
use super::{manifold_points, pack_id};
use crate::Feature;
use crate::frame::Frame;
use crate::polytope::Polytope;
use crate::sat::Axis;
use crate::solid::{Solid, with_polytopes};
use glam::Vec3;
use smallvec::SmallVec;

/// The incident shape's deepest vertex along the axis (b's along `−n` when a holds the
/// reference feature, a's along `n` when b does), moved halfway towards the other
/// surface, with the axis' depth. Its id names the vertex, so it stays the same while
/// that vertex is the deepest.
///
/// **Near ties.** An incident edge lying flat along the reference plane has vertices
/// within round-off of the deepest, and the one the support scan names may lie beside
/// the reference face, outside the reference shape (seen with nearly parallel edges: a
/// point 0.27 outside on shapes of radius 2). So when the deepest vertex lies outside
/// the reference shape by more than `tolerance`, the point is the one of these that
/// lies least outside the other shape (measured by its planes):
/// 1. a vertex within `tolerance` of the deepest one's depth (taken outright when it
///    lies inside within `tolerance`);
/// 2. a corner of the reference face, placed halfway down (the flat incident edge
///    crosses the face's border, which pokes into the incident shape);
/// 3. the deepest vertex itself, unless one of the others lies less outside.
///
/// The lowest index wins among equals, vertices before corners. The point's depth
/// stays the axis' (a taken vertex is within `tolerance` of it, as a clipped point may
/// be). A rare path: the common deepest vertex inside the reference shape costs one
/// pass over the reference shape's planes more than before.
pub(crate) fn support_point(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    tolerance: f32,
) -> Candidate {
    let n = axis.normal;
    let depth = -axis.separation;
    let (reference_is_b, face) = match axis.feature {
        Feature::FaceA(i) => (false, Some(i as usize)),
        Feature::FaceB(j) => (true, Some(j as usize)),
        _ => (false, None),
    };
    // Halfway down from the incident side (`half`, in a's frame) for an incident
    // vertex; from the reference face for one of its corners.
    let half = if reference_is_b { -0.5 } else { 0.5 } * depth * n;
    let to_a = |p: Vec3, in_b: bool| if in_b { frame.point_to_a(p) } else { p };
    let found = with_polytopes(a, b, |pa, pb| {
        let (incident, reference) = if reference_is_b { (pa, pb) } else { (pb, pa) };
        // The incident shape's own frame: the way down, and a point into the other's.
        let dir = if reference_is_b { n } else { frame.rot_t * -n };
        type Move = fn(&Frame, Vec3) -> Vec3;
        let (to_reference, to_incident): (Move, Move) = if reference_is_b {
            (Frame::point_to_b, Frame::point_to_a)
        } else {
            (Frame::point_to_a, Frame::point_to_b)
        };
        let across = |p: Vec3| to_reference(frame, p);
        let back = |p: Vec3| to_incident(frame, p);
        let outside = |poly: &Polytope, p: Vec3| {
            (poly.planes.iter())
                .map(|plane| plane.normal.dot(p) - plane.offset)
                .fold(f32::NEG_INFINITY, f32::max)
        };
        // The lowest `outside` among `points` (index, value), the first among equals.
        let most_inside = |points: &mut dyn Iterator<Item = (usize, f32)>| {
            points.fold((usize::MAX, f32::INFINITY), |best, (i, out)| {
                if out < best.1 { (i, out) } else { best }
            })
        };
        let deepest = incident.support_index(dir);
        let v = incident.vertices[deepest];
        let v_outside = outside(reference, across(v));
        if v_outside <= tolerance {
            return (deepest, to_a(v, !reference_is_b) + half, false);
        }
        let floor = v.dot(dir) - tolerance;
        let (i, vertex_outside) = most_inside(
            &mut (incident.vertices.iter().enumerate())
                .filter(|(_, w)| w.dot(dir) >= floor)
                .map(|(i, w)| (i, outside(reference, across(*w)))),
        );
        let (k, corner_outside) =
            match face.filter(|&f| f < reference.planes.len()) {
                Some(f) => {
                    most_inside(&mut reference.face(f).iter().enumerate().map(|(k, &c)| {
                        (k, outside(incident, back(reference.vertices[c as usize])))
                    }))
                }
                None => (usize::MAX, f32::INFINITY),
            };
        if vertex_outside <= tolerance
            || (vertex_outside <= corner_outside && vertex_outside < v_outside)
        {
            return (i, to_a(incident.vertices[i], !reference_is_b) + half, false);
        }
        if corner_outside < v_outside {
            let c = reference.face(face.unwrap_or(0))[k] as usize;
            return (c, to_a(reference.vertices[c], reference_is_b) - half, true);
        }
        (deepest, to_a(v, !reference_is_b) + half, false)
    });
    let (vertex, point, corner) = found.unwrap_or((u32::MAX as usize, Vec3::ZERO, false));
    Candidate {
        point,
        depth,
        id: pack_id(
            reference_is_b,
            u32::MAX,
            u32::MAX,
            [u16::MAX - 1 - corner as u16, vertex as u16],
        ),
    }
}

/// The deepest-point rule (see the `manifold` module docs): when clipping a penetrating
/// face contact left no point within the clip tolerance of the exact depth (the
/// incident shape's deepest vertex lies beyond the reference face's side planes, as
/// happens deep inside), that vertex joins the candidates with the depth of the axis and
/// the four are chosen again (the reduction keeps the deepest first).
///
/// When the exact axis is an edge pair (the face was preferred within the slop), the
/// deepest point is where those edges cross, the edge contact's point, with the exact
/// depth: the face's support vertex may lie beside the face, outside the other shape
/// (0.013 outside where the slack was 0.005, on random hulls nearly touching). When it
/// is another face, the deepest point is that face's deepest clipped point, if it
/// reaches the exact depth within the clip tolerance: deep inside (hulls about one
/// centre), the preferred face's support vertex may poke out of the other shape and
/// the corner fallback too (a corner of the face 0.44 beyond its slack outside the
/// incident shape, `tests/warm_points_in_shapes.rs`). The support vertex stays the
/// fallback when neither gives a point.
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
    let on_exact = match exact.feature {
        Feature::EdgeEdge(..) => manifold_points(a, b, frame, exact, 0.0, clip_tolerance),
        Feature::FaceA(_) | Feature::FaceB(_) if exact.feature != axis.feature => {
            manifold_points(a, b, frame, exact, 0.0, clip_tolerance)
        }
        _ => SmallVec::new(),
    };
    // The exact face's deepest clipped point (the first among equals), when it
    // reaches the exact depth.
    let deepest_on_exact = on_exact
        .iter()
        .copied()
        .reduce(|best, c| if c.depth > best.depth { c } else { best })
        .filter(|c| c.depth >= wanted - clip_tolerance);
    match deepest_on_exact {
        Some(point) => candidates.push(point),
        None => candidates.push(support_point(a, b, frame, axis, clip_tolerance)),
    }
    *points = reduce(&candidates, axis.normal, clip_tolerance);
}
