//! Face contact between two boxes, in the reference box's frame, where its side planes
//! are the axis-aligned planes `±x_j = h_j`: the incident face comes straight from the
//! rotation (no search over planes) and no side plane needs a cross product.
//!
//! With reference face `σ e_k` (`σ = ±1`) and `R` the incident box's axes in the
//! reference frame, the incident face is along `m = argmax_j |R[k][j]|`, on the side
//! `s = −sign(σ R[k][m])`; its corners are `t + s h_m b_m ± h_{m1} b_{m1} ± h_{m2} b_{m2}`.
//! Depth of a clipped point `p` is `h_k − σ p_k`.

use super::clip::{ClipPolygon, SIDE, clip_by_plane, incident_polygon};
use super::pack_id;
use super::reduce::{Candidate, reduce};
use crate::sat::Frame;
use glam::Vec3;
use smallvec::SmallVec;

/// Manifold points, in the reference box's frame; `frame` places the incident box there.
/// `reference_face` is `2k` (−k) or `2k + 1` (+k).
pub(crate) fn box_face_contact(
    reference_h: Vec3,
    incident_h: Vec3,
    frame: &Frame,
    reference_face: usize,
    margin: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    let k = reference_face / 2;
    let sigma = if reference_face % 2 == 1 { 1.0 } else { -1.0 };
    let axes = [frame.rot.x_axis, frame.rot.y_axis, frame.rot.z_axis];
    let m = (0..3)
        .max_by(|&x, &y| axes[x][k].abs().total_cmp(&axes[y][k].abs()))
        .unwrap_or(0);
    let side = if sigma * axes[m][k] > 0.0 { -1.0 } else { 1.0 };
    let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
    let centre = frame.trans + axes[m] * (side * incident_h[m]);
    let (u, v) = (axes[m1] * incident_h[m1], axes[m2] * incident_h[m2]);
    let incident_face = 2 * m as u32 + (side > 0.0) as u32;
    let mut polygon = incident_polygon(
        [
            centre + u + v,
            centre - u + v,
            centre - u - v,
            centre + u - v,
        ]
        .into_iter(),
    );
    let mut scratch = ClipPolygon::new();
    let (mut from, mut to) = (&mut polygon, &mut scratch);
    for j in [(k + 1) % 3, (k + 2) % 3] {
        for plane_sign in [1.0f32, -1.0] {
            let mut normal = Vec3::ZERO;
            normal[j] = plane_sign;
            let label = SIDE | (2 * j as u16 + (plane_sign > 0.0) as u16);
            clip_by_plane(from, normal, reference_h[j], label, to);
            std::mem::swap(&mut from, &mut to);
        }
    }
    let candidates: SmallVec<[Candidate; 16]> = from
        .iter()
        .filter_map(|vertex| {
            let depth = reference_h[k] - sigma * vertex.point[k];
            (depth >= -margin).then(|| {
                let mut point = vertex.point;
                point[k] += sigma * 0.5 * depth;
                Candidate {
                    point,
                    depth,
                    id: pack_id(
                        reference_is_b,
                        reference_face as u32,
                        incident_face,
                        vertex.lines,
                    ),
                }
            })
        })
        .collect();
    let mut normal = Vec3::ZERO;
    normal[k] = sigma;
    reduce(&candidates, normal)
}
