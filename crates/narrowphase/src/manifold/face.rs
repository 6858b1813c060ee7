//! Face contact between two polytopes: clip the incident face against the reference
//! face's side planes.
//!
//! In the reference shape's frame, with reference plane `n · x = d`:
//! 1. incident face = among the faces around the incident shape's deepest vertex (its
//!    support along `−n`), the one whose normal has the smallest `m · n` (most
//!    anti-parallel). Around the deepest vertex, so that the deepest point is on the
//!    polygon that gets clipped: the most anti-parallel face of the whole shape can lie
//!    elsewhere on a hull with a sharp tip;
//! 2. for each edge `v_k → v_{k+1}` of the reference loop (CCW about `n`), the side
//!    plane has outward normal `(v_{k+1} − v_k) × n` and passes through `v_k`, pushed
//!    out by the clip tolerance; clip;
//! 3. each surviving point `p` has depth `d − n · p`; keep it when `depth ≥ −margin`
//!    and place it at `p + n · depth / 2`, halfway between the surfaces;
//! 4. reduce to at most four.

use super::clip::{ClipPolygon, SIDE, clip_by_plane, incident_polygon};
use super::pack_id;
use super::reduce::{Candidate, reduce};
use crate::frame::Frame;
use crate::polytope::Polytope;
use smallvec::SmallVec;

/// Manifold points in the reference shape's frame. `frame` places the incident shape in
/// the reference shape's frame.
pub(crate) fn face_contact(
    reference: &Polytope,
    incident: &Polytope,
    frame: &Frame,
    reference_face: usize,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    let plane = reference.planes[reference_face];
    let n = plane.normal;
    let n_in_incident = frame.rot_t * n;
    let deepest = incident.support_index(-n_in_incident) as u32;
    let mut incident_face = 0;
    let mut best_dot = f32::INFINITY;
    for j in 0..incident.planes.len() {
        let d = incident.planes[j].normal.dot(n_in_incident);
        if d < best_dot && incident.face(j).contains(&deepest) {
            best_dot = d;
            incident_face = j;
        }
    }
    let polygon = clip_incident(
        reference,
        incident,
        frame,
        reference_face,
        incident_face,
        clip_tolerance,
    );
    let candidates: SmallVec<[Candidate; 16]> = polygon
        .iter()
        .filter_map(|v| {
            let depth = plane.offset - n.dot(v.point);
            (depth >= -margin).then(|| Candidate {
                point: v.point + n * (0.5 * depth),
                depth,
                id: pack_id(
                    reference_is_b,
                    reference_face as u32,
                    incident_face as u32,
                    v.lines,
                ),
            })
        })
        .collect();
    reduce(&candidates, n, clip_tolerance)
}

/// The incident face, in the reference frame, clipped by the reference face's side planes.
fn clip_incident(
    reference: &Polytope,
    incident: &Polytope,
    frame: &Frame,
    reference_face: usize,
    incident_face: usize,
    clip_tolerance: f32,
) -> ClipPolygon {
    let n = reference.planes[reference_face].normal;
    let mut polygon = incident_polygon(
        incident
            .face(incident_face)
            .iter()
            .map(|&v| frame.point_to_a(incident.vertices[v as usize])),
    );
    let mut scratch = ClipPolygon::new();
    // Ping-pong between two buffers by swapping references, not contents.
    let (mut from, mut to) = (&mut polygon, &mut scratch);
    let reference_loop = reference.face(reference_face);
    for k in 0..reference_loop.len() {
        let v0 = reference.vertices[reference_loop[k] as usize];
        let v1 = reference.vertices[reference_loop[(k + 1) % reference_loop.len()] as usize];
        let Some(side) = (v1 - v0).cross(n).try_normalize() else {
            continue;
        };
        clip_by_plane(
            from,
            side,
            side.dot(v0) + clip_tolerance,
            SIDE | k as u16,
            to,
        );
        std::mem::swap(&mut from, &mut to);
        if from.is_empty() {
            break;
        }
    }
    std::mem::take(from)
}
