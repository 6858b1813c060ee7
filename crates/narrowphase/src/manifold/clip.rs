//! Sutherland–Hodgman clipping of a convex polygon by half-spaces, with feature tracking:
//! the one clipper of the 3D face contacts.
//!
//! Every vertex carries the two "lines" it lies on: an incident polygon vertex `k` lies
//! on incident edges `k − 1` and `k`; a vertex made by cutting a segment with side plane
//! `p` lies on the segment's line and on `SIDE | p`. The segment between two consecutive
//! vertices lies on the line they share. The sorted pair of lines names the point, and
//! stays the same while the same features touch — the feature id a solver warm-starts
//! from.

use crate::scratch::{give_back, pools, reserve};
use glam::Vec3;
use smallvec::SmallVec;

/// Marks a line label as a side plane of the reference face (else an incident edge).
pub(crate) const SIDE: u16 = 0x8000;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClipVertex {
    pub point: Vec3,
    pub lines: [u16; 2],
}

pub(crate) type ClipPolygon = SmallVec<[ClipVertex; 16]>;

pools! {
    CLIP_POLYGON: ClipVertex,
    CLIP_SCRATCH: ClipVertex,
}

/// Room for `bound` vertices in both buffers of [`clip_by_sides`]' ping-pong: inline
/// when they fit, else the thread's pooled buffers (a face of many sides, no allocation
/// per pair: `crate::scratch`); [`give_back_clip_buffers`] returns them. A polygon of
/// `n` vertices clipped by `p` planes has at most `n + p` vertices.
#[inline(always)]
pub(crate) fn reserve_clip_buffers(
    polygon: &mut ClipPolygon,
    scratch: &mut ClipPolygon,
    bound: usize,
) {
    reserve(polygon, &CLIP_POLYGON, bound);
    reserve(scratch, &CLIP_SCRATCH, bound);
}

/// Hands the buffers [`reserve_clip_buffers`] took back to the thread's pools.
#[inline(always)]
pub(crate) fn give_back_clip_buffers(polygon: &mut ClipPolygon, scratch: &mut ClipPolygon) {
    give_back(polygon, &CLIP_POLYGON);
    give_back(scratch, &CLIP_SCRATCH);
}

/// The line shared by two consecutive vertices.
#[inline]
fn shared_line(a: &ClipVertex, b: &ClipVertex) -> u16 {
    if a.lines[0] == b.lines[0] || a.lines[0] == b.lines[1] {
        a.lines[0]
    } else {
        a.lines[1]
    }
}

/// Keeps the part of `input` (a convex loop) where `distance(point) ≤ 0`, handing each
/// vertex of the result to `push` in order. `distance` is the signed distance to the
/// clipping plane (any positive multiple of it), `plane_label` the plane's line label.
///
/// Sutherland–Hodgman: for each edge `(p, q)` of the loop with signed distances `dp`,
/// `dq`, add the crossing `p + (q − p) · dp / (dp − dq)` when the signs differ (it lies
/// on the edge's line, the one `p` and `q` share, and on the plane), then keep `q` when
/// `dq ≤ 0`.
///
/// Both face clippers run through here: [`super::face`] with a plane `n · x ≤ offset`,
/// [`super::box_face`] with a coordinate `±u ≤ h` of the reference face.
#[inline(always)]
pub(crate) fn clip_polygon(
    input: &[ClipVertex],
    distance: impl Fn(Vec3) -> f32,
    plane_label: u16,
    mut push: impl FnMut(ClipVertex),
) {
    let Some(mut previous) = input.last() else {
        return;
    };
    let mut previous_distance = distance(previous.point);
    for current in input {
        let current_distance = distance(current.point);
        if (previous_distance <= 0.0) != (current_distance <= 0.0) {
            let t = previous_distance / (previous_distance - current_distance);
            let line = shared_line(previous, current);
            push(ClipVertex {
                point: previous.point + (current.point - previous.point) * t,
                lines: [line.min(plane_label), line.max(plane_label)],
            });
        }
        if current_distance <= 0.0 {
            push(*current);
        }
        previous = current;
        previous_distance = current_distance;
    }
}

/// Keeps the part of `input` with `normal · x ≤ offset`, writing it to `output`.
pub(crate) fn clip_by_plane(
    input: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    plane_label: u16,
    output: &mut ClipPolygon,
) {
    output.clear();
    clip_polygon(
        input,
        |p| normal.dot(p) - offset,
        plane_label,
        |v| output.push(v),
    );
}

/// Marks a side-plane label as the bevel at a sharp corner of the reference face (see
/// [`clip_by_sides`]): `SIDE | BEVEL | k` is the bevel at the face's vertex `k`.
pub(crate) const BEVEL: u16 = 0x4000;

/// Below this cosine between consecutive side normals (a corner sharper than 60°, where
/// the pushed-out side planes meet more than `2 t` out) the corner is bevelled.
const SHARP_CORNER: f32 = -0.5;

/// Clips `polygon` by the side planes `(outward, through)` (outward normals need not be
/// unit, a zero one is skipped), each pushed out by `clip_tolerance`, labelled
/// `SIDE | k`; `scratch` is the second buffer of the ping-pong, and the result is
/// whichever of the two holds it (no polygon is moved by value).
///
/// The sides come in loop order (side `k` runs from vertex `k`, its `through` point).
/// With `bevel_corners` a sharp corner gets one more plane: two side planes pushed out
/// by `t` meet `t / sin(α/2)` from a corner of angle `α` (0.018 off a sliver's 21°
/// corner for a tolerance of 0.0034), and a crossing point made there lay that far
/// outside the reference face. The bevel, normal to the corner's bisector
/// `ŝ_{k−1} + ŝ_k` and pushed out by `t` from the vertex, keeps every point within
/// `2 t` of the face. It is labelled `SIDE | BEVEL | k`. A polytope's face asks for it; a mesh
/// triangle does not: a point past its corner lies on the surface the mesh continues
/// with, and a regular grid's 45° corners would be cut on most contacts (6 % more
/// instructions on the terrain scene).
///
/// A polygon wholly inside a plane would come out of the clip as it went in (every
/// vertex kept, in order), so that plane is passed without a copy: the flush faces of a
/// resting contact clip nothing on most side planes.
#[inline(always)]
pub(crate) fn clip_by_sides<'p>(
    polygon: &'p mut ClipPolygon,
    scratch: &'p mut ClipPolygon,
    sides: impl Iterator<Item = (Vec3, Vec3)>,
    clip_tolerance: f32,
    bevel_corners: bool,
) -> &'p ClipPolygon {
    let (mut from, mut to) = (polygon, scratch);
    // Clips by one plane; false once nothing is left.
    let clip = |from: &mut &'p mut ClipPolygon,
                to: &mut &'p mut ClipPolygon,
                normal: Vec3,
                through: Vec3,
                label: u16| {
        let offset = normal.dot(through) + clip_tolerance;
        if from.iter().all(|v| normal.dot(v.point) - offset <= 0.0) {
            return true;
        }
        clip_by_plane(from, normal, offset, label, to);
        std::mem::swap(from, to);
        !from.is_empty()
    };
    // The first side (for the corner that closes the loop) and the previous one.
    let (mut first, mut previous): (Option<(Vec3, Vec3)>, Option<Vec3>) = (None, None);
    for (k, (outward, through)) in sides.enumerate() {
        let Some(side) = outward.try_normalize() else {
            continue;
        };
        if !clip(&mut from, &mut to, side, through, SIDE | k as u16) {
            return from;
        }
        if bevel_corners
            && let Some(before) = previous
            && before.dot(side) < SHARP_CORNER
            && let Some(bevel) = (before + side).try_normalize()
            && !clip(&mut from, &mut to, bevel, through, SIDE | BEVEL | k as u16)
        {
            return from;
        }
        first.get_or_insert((side, through));
        previous = Some(side);
    }
    if bevel_corners
        && let (Some((side, through)), Some(before)) = (first, previous)
        && before.dot(side) < SHARP_CORNER
        && let Some(bevel) = (before + side).try_normalize()
    {
        clip(&mut from, &mut to, bevel, through, SIDE | BEVEL);
    }
    from
}

/// The polygon `points` (a loop) as clip vertices labelled with its edges, written into
/// `out` (cleared first).
#[inline]
pub(crate) fn write_incident_polygon(
    points: impl ExactSizeIterator<Item = Vec3>,
    out: &mut ClipPolygon,
) {
    out.clear();
    let n = points.len();
    for (k, point) in points.enumerate() {
        let before = if k == 0 { n - 1 } else { k - 1 } as u16;
        let k = k as u16;
        out.push(ClipVertex {
            point,
            lines: [before.min(k), before.max(k)],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_clipped_by_a_diagonal_plane() {
        let mut square = ClipPolygon::new();
        write_incident_polygon(
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ]
            .into_iter(),
            &mut square,
        );
        let mut out = ClipPolygon::new();
        // Keep x ≤ 0.5.
        clip_by_plane(&square, Vec3::X, 0.5, SIDE, &mut out);
        assert_eq!(out.len(), 4);
        for v in &out {
            assert!(v.point.x <= 0.5 + 1e-6);
        }
        // The two new points lie on edges 0 (bottom) and 2 (top) and on the plane.
        let mut labels: Vec<[u16; 2]> = out.iter().map(|v| v.lines).collect();
        labels.sort_unstable();
        assert!(labels.contains(&[0, SIDE]));
        assert!(labels.contains(&[2, SIDE]));
        assert!(labels.contains(&[0, 3]));
    }
}
