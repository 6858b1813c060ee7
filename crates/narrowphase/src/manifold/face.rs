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
//!    plane has outward normal `(v_{k+1} − v_k) × n` (unit) and passes through `v_k`,
//!    pushed out by the clip tolerance; clip;
//! 3. each surviving point `p` has depth `d − n · p`; keep it when `depth ≥ −margin`
//!    and place it at `p + n · depth / 2`, halfway between the surfaces;
//! 4. reduce to at most four.

use super::clip::{
    ClipPolygon, ClipVertex, SidePlane, clip_by_sides, give_back_clip_buffers,
    reserve_clip_buffers, write_incident_polygon,
};
use super::pack_id;
use super::reduce::{Candidate, FaceCandidates, give_back_candidates, reduce, reserve_candidates};
use crate::frame::Frame;
use crate::polytope::{Polytope, next_in_loop};
use glam::Vec3;
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
    let n = reference.planes[reference_face].normal;
    let incident_face = incident_face_of(incident, frame, n);
    face_contact_on(
        reference,
        incident,
        frame,
        reference_face,
        incident_face,
        margin,
        clip_tolerance,
        reference_is_b,
    )
}

/// Step 1 of the module docs: the incident face for the reference normal `n` (in the
/// reference frame), among the faces around the incident shape's deepest vertex.
#[inline]
pub(crate) fn incident_face_of(incident: &Polytope, frame: &Frame, n: Vec3) -> usize {
    incident_face_at(incident, frame, n, None)
}

/// [`incident_face_of`] given the deepest vertex when the caller has it already:
/// `deepest` must be `incident.support(−Rᵀn)`'s index for these very bits of `frame`
/// and `n` (the kept-feature proof measures the face's separation with that support;
/// `None` looks for it).
#[inline(always)]
pub(crate) fn incident_face_at(
    incident: &Polytope,
    frame: &Frame,
    n: Vec3,
    deepest: Option<u32>,
) -> usize {
    let n_in_incident = frame.rot_t * n;
    // The 8-lane scan: the scalar scan's index, bit for bit (tests/hull_blocks.rs).
    let deepest = deepest.unwrap_or_else(|| incident.support(-n_in_incident).0 as u32);
    incident_face(incident, deepest, n_in_incident)
}

/// [`face_contact`] with the incident face given (steps 2–4 of the module docs).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn face_contact_on(
    reference: &Polytope,
    incident: &Polytope,
    frame: &Frame,
    reference_face: usize,
    incident_face: usize,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    let plane = reference.planes[reference_face];
    let n = plane.normal;
    let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
    // The incident face clipped by every side of the reference face and a bevel at
    // each corner at most.
    let bound = incident.face(incident_face).len() + 2 * reference.face(reference_face).len();
    reserve_clip_buffers(&mut polygon, &mut scratch, bound);
    write_incident_polygon(
        incident
            .face(incident_face)
            .iter()
            .map(|&v| frame.point_to_a(incident.vertices[v as usize])),
        &mut polygon,
    );
    let sides = face_sides(reference, reference_face, n);
    let clipped = clip_by_sides(&mut polygon, &mut scratch, sides, clip_tolerance, true);
    let mut candidates = FaceCandidates::new();
    reserve_candidates(&mut candidates, clipped.len());
    let id = |lines| {
        pack_id(
            reference_is_b,
            reference_face as u32,
            incident_face as u32,
            lines,
        )
    };
    points_below(clipped, n, plane.offset, margin, id, &mut candidates);
    let kept = reduce(&candidates, n, clip_tolerance);
    give_back_clip_buffers(&mut polygon, &mut scratch);
    give_back_candidates(&mut candidates);
    kept
}

/// The side planes of face `f` of `poly` about the normal `n` (the face's), as
/// [`clip_by_sides`] takes them, per loop edge `v_k → v_{k+1}`: the unit outward normal
/// along `(v_{k+1} − v_k) × n`, the plane's offset and the point `v_k`. A hull's come
/// from its table ([`ConvexHull::side_planes`], worked out in `f64` and rounded once,
/// when the hull was built: no square root and division per side and pair); a box's
/// are worked out here.
///
/// [`ConvexHull::side_planes`]: sepax_geometry::ConvexHull::side_planes
#[inline(always)]
pub(crate) fn face_sides<'a>(
    poly: &Polytope<'a>,
    f: usize,
    n: Vec3,
) -> impl Iterator<Item = SidePlane> + 'a {
    let (vertices, face) = (poly.vertices, poly.face(f));
    let table = poly
        .hull
        .map(|hull| &hull.side_planes()[poly.face_starts[f] as usize..][..face.len()]);
    (0..face.len()).map(move |k| {
        let v0 = vertices[face[k] as usize];
        match table {
            Some(planes) => SidePlane {
                // A zero normal marks a degenerate step (none on a valid hull).
                normal: Some(planes[k].normal).filter(|m| *m != Vec3::ZERO),
                offset: planes[k].offset,
                through: v0,
            },
            None => SidePlane::through(v0, vertices[next_in_loop(face, k) as usize], n),
        }
    })
}

/// Side `k` of face `f` of `poly` (normal `n`), as [`face_sides`] gives it (the same
/// reads, for one side: the clipper's loop keeps the face's slices across its sides).
#[inline(always)]
pub(crate) fn face_side(poly: &Polytope, f: usize, k: usize, n: Vec3) -> SidePlane {
    let (vertices, face) = (poly.vertices, poly.face(f));
    let v0 = vertices[face[k] as usize];
    match poly.hull {
        Some(hull) => {
            let plane = hull.side_planes()[poly.face_starts[f] as usize + k];
            SidePlane {
                // A zero normal marks a degenerate step (none on a valid hull).
                normal: Some(plane.normal).filter(|m| *m != Vec3::ZERO),
                offset: plane.offset,
                through: v0,
            }
        }
        None => SidePlane::through(v0, vertices[next_in_loop(face, k) as usize], n),
    }
}

/// The clipped points within `margin` below the reference plane `n · x = offset`, each
/// with its depth `offset − n · p`, placed at `p + n · depth / 2` (halfway between the
/// surfaces) and named by `id(lines)`, appended to `candidates`.
#[inline(always)]
pub(crate) fn points_below(
    clipped: &[ClipVertex],
    n: Vec3,
    offset: f32,
    margin: f32,
    id: impl Fn([u16; 2]) -> u64,
    candidates: &mut FaceCandidates,
) {
    for v in clipped {
        let depth = offset - n.dot(v.point);
        if depth >= -margin {
            candidates.push(Candidate {
                point: v.point + n * (0.5 * depth),
                depth,
                id: id(v.lines),
            });
        }
    }
}

/// Among the faces around vertex `deepest`, the one whose normal has the smallest
/// `m · n` (the lowest index among equal values; face 0 when every value is NaN).
///
/// A hull's faces around a vertex are those of its edges (each face twice), read from
/// the vertex adjacency's edges; a box scans its six faces for the vertex. Both give the
/// answer of a scan over every face in index order with a strict `<`.
fn incident_face(incident: &Polytope, deepest: u32, n: Vec3) -> usize {
    let (mut face, mut best) = (0, f32::INFINITY);
    let mut consider = |j: usize| {
        let d = incident.planes[j].normal.dot(n);
        if d < best || (d == best && j < face) {
            best = d;
            face = j;
        }
    };
    match incident.hull {
        Some(hull) => {
            let v = deepest as usize;
            let around = hull.neighbor_starts()[v] as usize..hull.neighbor_starts()[v + 1] as usize;
            for &edge in &hull.neighbor_edges()[around] {
                for j in hull.edges()[edge as usize].faces {
                    consider(j as usize);
                }
            }
        }
        None => {
            for j in 0..incident.planes.len() {
                if incident.face(j).contains(&deepest) {
                    consider(j);
                }
            }
        }
    }
    face
}
