//! Face contact between two boxes, in the reference box's frame, where the side planes
//! of reference face `σ e_k` are the lines `±u = h_{k1}`, `±v = h_{k2}` of the face's
//! own 2D coordinates `(u, v) = (x_{k1}, x_{k2})`. The incident face comes straight
//! from the rotation and is clipped as a 2D polygon that carries its height `w = x_k`
//! along, in fixed arrays: no plane search, no cross product, no allocation.
//!
//! With `R` the incident box's axes in the reference frame, the incident face is along
//! `m = argmax_j |R[k][j]|`, on the side `s = −sign(σ R[k][m])`; its corners are
//! `t + s h_m b_m ± h_{m1} b_{m1} ± h_{m2} b_{m2}`. A clipped point's depth is
//! `h_k − σ w`; it is kept when `depth ≥ −margin` and placed at `w + σ depth / 2`.
//! Feature labels follow [`super::clip`]: incident edges `0..4`, side planes
//! `SIDE | face index`. The clip is [`super::clip`]'s Sutherland–Hodgman clipper with
//! the plane distance `±u − h` (one coordinate, no dot product), into fixed arrays.

use super::clip::{ClipVertex, SIDE, clip_polygon};
use super::pack_id;
use super::reduce::{Candidate, reduce};
use crate::frame::Frame;
use crate::sat::box_box::unit_axis_vector;
use glam::{Vec3, Vec4};
use smallvec::SmallVec;

/// A quad clipped by at most 4 lines has at most 8 vertices; the ninth slot takes the
/// write of a vertex beyond them, which is dropped. A vertex's point holds the face
/// coordinates and the height, `(u, v, w)`.
#[derive(Clone, Copy, Default)]
struct Polygon8 {
    vertices: [ClipVertex; 9],
    len: usize,
}

impl Polygon8 {
    #[inline(always)]
    fn push(&mut self, v: ClipVertex) {
        // A convex polygon gains at most one vertex per clip; 4 + 4 fits. Written
        // without a branch: slot `len` (the spare one once 8 are in), counted if < 8.
        self.vertices[self.len.min(8)] = v;
        self.len += (self.len < 8) as usize;
    }

    /// Keeps the part of `self` where `distance ≤ 0`, written to `output` (see
    /// [`clip_polygon`]).
    #[inline(always)]
    fn clip_into(&self, output: &mut Polygon8, distance: impl Fn(Vec3) -> f32, label: u16) {
        output.len = 0;
        clip_polygon(&self.vertices[..self.len.min(8)], distance, label, |v| {
            output.push(v)
        });
    }
}

/// The reference face `σ e_k` of a box: the axis `k`, the two face axes `k1`, `k2` in
/// cyclic order and the side `σ = ±1`.
#[derive(Clone, Copy)]
struct ReferenceFace {
    k: usize,
    k1: usize,
    k2: usize,
    sigma: f32,
}

impl ReferenceFace {
    /// The box-frame point of face coordinates `(u, v, w) = (x_k1, x_k2, x_k)`, built
    /// in registers: written to an array at runtime indices and read back as a vector,
    /// the read waited on the stores (a failed store forward, seen in `perf annotate`
    /// of `prof boxbatch touching`).
    #[inline(always)]
    fn to_box(self, u: f32, v: f32, w: f32) -> Vec3 {
        match self.k {
            0 => Vec3::new(w, u, v),
            1 => Vec3::new(v, w, u),
            _ => Vec3::new(u, v, w),
        }
    }
}

/// Manifold points; `frame` places the incident box in the reference box's frame.
/// `reference_face` is `2k` (−k) or `2k + 1` (+k).
/// `clip_tolerance` widens the side planes (see [`super`]): corners within it of a side
/// are kept whole. The points are in the reference box's frame, or, when the reference
/// box is the pair's b (`b_to_a` given: `frame` is then b's view of a, and `b_to_a` the
/// pair's frame), moved to a's frame by `b_to_a` — the same bits as moving the
/// returned points afterwards, without a second pass over them (whose copy of the list
/// read back, 16 bytes at a time, points just stored 12 bytes at a time: a failed
/// store forward, seen in `perf annotate` of `prof boxbatch touching`).
pub(crate) fn box_face_contact(
    reference_h: Vec3,
    incident_h: Vec3,
    frame: &Frame,
    reference_face: usize,
    margin: f32,
    clip_tolerance: f32,
    b_to_a: Option<&Frame>,
) -> SmallVec<[Candidate; 4]> {
    let reference_is_b = b_to_a.is_some();
    let to_a = |p: Vec3| b_to_a.map_or(p, |f| f.point_to_a(p));
    let k = reference_face / 2;
    let face = ReferenceFace {
        k,
        k1: (k + 1) % 3,
        k2: (k + 2) % 3,
        sigma: if reference_face % 2 == 1 { 1.0 } else { -1.0 },
    };
    let reference_h = reference_h.to_array();
    let (mut polygon, incident_face) = incident_quad(frame, incident_h, face);
    clip_to_sides(
        &mut polygon,
        face,
        reference_h[face.k1] + clip_tolerance,
        reference_h[face.k2] + clip_tolerance,
    );
    // Each kept point as `(x, y, z, depth)` in one register and its id: written whole
    // and read whole below. (Written as `Candidate`s, field by field, the copies out
    // read them 8 and 16 bytes at a time and waited on the stores: failed store
    // forwards, 15% of this function in `perf annotate` of `prof boxbatch touching`.)
    let mut points = [Vec4::ZERO; 8];
    let mut ids = [0u64; 8];
    let mut count = 0;
    for vertex in &polygon.vertices[..polygon.len.min(8)] {
        let [u, v, w] = vertex.point.to_array();
        let depth = reference_h[k] - face.sigma * w;
        if depth >= -margin {
            points[count] = face
                .to_box(u, v, w + face.sigma * 0.5 * depth)
                .extend(depth);
            ids[count] = pack_id(
                reference_is_b,
                reference_face as u32,
                incident_face,
                vertex.lines,
            );
            count += 1;
        }
    }
    let candidate = |i: usize| Candidate {
        point: points[i].truncate(),
        depth: points[i].w,
        id: ids[i],
    };
    let in_a = |c: Candidate| Candidate {
        point: to_a(c.point),
        ..c
    };
    if count <= 4 {
        // What `reduce` answers (the candidates as they are), built as four fixed
        // slots: its copy of a slice of any length was a `memcpy` call.
        let first = [candidate(0), candidate(1), candidate(2), candidate(3)];
        let mut kept = SmallVec::from_buf_and_len(first, count);
        // Moved in place, in the list returned (moved in a local array that was then
        // copied into the list, the copy's 16-byte loads of the 12-byte stores failed
        // to forward).
        if reference_is_b {
            for c in &mut kept {
                *c = in_a(*c);
            }
        }
        return kept;
    }
    let candidates: [Candidate; 8] = std::array::from_fn(candidate);
    // Reduced in the reference frame (its normal is an axis there), then moved.
    let mut kept = reduce(
        &candidates[..count],
        unit_axis_vector(k, face.sigma),
        clip_tolerance,
    );
    if reference_is_b {
        for c in &mut kept {
            *c = in_a(*c);
        }
    }
    kept
}

/// The incident box's face most anti-parallel to the reference face, as a quad in the
/// face coordinates `(u, v, w)` with its edges labelled `0..4`, and its face number.
#[inline(always)]
fn incident_quad(frame: &Frame, incident_h: Vec3, face: ReferenceFace) -> (Polygon8, u32) {
    let ReferenceFace { k, k1, k2, sigma } = face;
    // Entry `c` of column `j`, read one float at a time straight from the frame: the
    // frame's columns copied whole to an array (for the runtime indices) read its
    // entries, which are stored one float at a time, with 16-byte loads that waited on
    // the stores (a failed store forward, seen in `perf annotate`).
    let rot: &[f32; 9] = frame.rot.as_ref();
    let axes = |j: usize, c: usize| rot[3 * j + c];
    let trans: &[f32; 3] = frame.trans.as_ref();
    let incident_h = incident_h.to_array();
    let mut m = 0;
    for j in 1..3 {
        if axes(j, k).abs() > axes(m, k).abs() {
            m = j;
        }
    }
    let side = if sigma * axes(m, k) > 0.0 { -1.0 } else { 1.0 };
    let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
    // Only three coordinates of each corner matter: (u, v, w) = (x_k1, x_k2, x_k).
    let project = |c: usize| trans[c] + axes(m, c) * (side * incident_h[m]);
    let centre = [project(k1), project(k2), project(k)];
    let a = [
        axes(m1, k1) * incident_h[m1],
        axes(m1, k2) * incident_h[m1],
        axes(m1, k) * incident_h[m1],
    ];
    let b = [
        axes(m2, k1) * incident_h[m2],
        axes(m2, k2) * incident_h[m2],
        axes(m2, k) * incident_h[m2],
    ];
    let incident_face = 2 * m as u32 + (side > 0.0) as u32;

    let mut polygon = Polygon8::default();
    for (corner, (sa, sb)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let before = ((corner + 3) % 4) as u16;
        polygon.push(ClipVertex {
            point: Vec3::new(
                centre[0] + sa * a[0] + sb * b[0],
                centre[1] + sa * a[1] + sb * b[1],
                centre[2] + sa * a[2] + sb * b[2],
            ),
            lines: [before.min(corner as u16), before.max(corner as u16)],
        });
    }
    (polygon, incident_face)
}

/// Clips `polygon` to the side planes `±u ≤ h1`, `±v ≤ h2` of the reference face
/// (u, v, w = x, y, z of the clip points).
///
/// A polygon wholly inside a plane would come out of that plane's clip as it went in
/// (every vertex kept, in order: the same bits), so the plane is passed without a
/// copy, as in [`super::clip::clip_by_sides`]: a quad that overhangs the reference face
/// on one side clips once, not four times.
#[inline(always)]
fn clip_to_sides(polygon: &mut Polygon8, face: ReferenceFace, h1: f32, h2: f32) {
    let (k1, k2) = (face.k1 as u16, face.k2 as u16);
    let mut scratch = Polygon8::default();
    let mut buffers = (&mut *polygon, &mut scratch, false);
    // The side planes in the clipper's order: `+u`, `−u`, `+v`, `−v`.
    clip_side(&mut buffers, |p| p.x - h1, SIDE | (2 * k1 + 1));
    clip_side(&mut buffers, |p| -p.x - h1, SIDE | (2 * k1));
    clip_side(&mut buffers, |p| p.y - h2, SIDE | (2 * k2 + 1));
    clip_side(&mut buffers, |p| -p.y - h2, SIDE | (2 * k2));
    if buffers.2 {
        *polygon = scratch;
    }
}

/// One side plane's clip on the ping-pong `(from, to, swapped)`: skipped when every
/// vertex is inside, else clipped into `to` and the buffers swapped.
#[inline(always)]
fn clip_side<'p>(
    (from, to, swapped): &mut (&'p mut Polygon8, &'p mut Polygon8, bool),
    distance: impl Fn(Vec3) -> f32,
    label: u16,
) {
    let vertices = &from.vertices[..from.len.min(8)];
    if vertices.iter().all(|v| distance(v.point) <= 0.0) {
        return;
    }
    from.clip_into(to, distance, label);
    std::mem::swap(from, to);
    *swapped = !*swapped;
}
