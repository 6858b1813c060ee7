//! Manifold points of one triangle pair, in the convex's frame, from the axis the test
//! chose: the project's clipper ([`crate::manifold::clip`]) and reduction with the
//! triangle as one of the two polygons.
//!
//! * **Triangle face** (normal `n`, plane `n·x = d`): the incident face is, among the
//!   convex's faces around its deepest vertex along `−n`, the most anti-parallel one (a
//!   box's: straight from the largest component of `n`); it
//!   is clipped by the triangle's three side planes `((t_{i+1} − t_i) × n) · x ≤ …`,
//!   pushed out by the clip tolerance; a point `p` has depth `d − n·p`.
//! * **Convex face** `m·x = o` (the axis is `−m`): the triangle is the incident polygon,
//!   clipped by the face's side planes; depth `o − m·p`.
//! * **Edge pair**: one point halfway between the closest points of the triangle edge
//!   and the convex's edge (a box edge by its number, a hull edge when it supports the
//!   axis, else the hull's deepest vertex along the axis).
//!
//! Points within the margin are kept, placed halfway between the surfaces, and reduced
//! to four. Ids are [`pack_id`]'s, local to the triangle (the caller adds the
//! triangle's id).

use super::local::{Convex, LocalTriangle};
use crate::Feature;
use crate::manifold::clip::{
    ClipPolygon, SidePlane, clip_by_sides, give_back_clip_buffers, reserve_clip_buffers,
    write_incident_polygon,
};
use crate::manifold::edge::{edge_contact, polytope_edge};
use crate::manifold::face::{face_sides, points_below};
use crate::manifold::pack_id;
use crate::manifold::reduce::{
    Candidate, FaceCandidates, give_back_candidates, reduce, reserve_candidates,
};
use crate::sat::Axis;
use crate::sat::box_box::box_edge_segment;
use smallvec::SmallVec;

/// Manifold points for `axis` (from the triangle test), in the convex's frame, and the
/// deepest point when their reduction to four dropped it ([`dropped_point`]; none for
/// an edge pair's one point).
pub(crate) fn triangle_points(
    convex: &Convex,
    tri: &LocalTriangle,
    axis: &Axis,
    margin: f32,
    clip_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    match axis.feature {
        Feature::FaceA(_) => triangle_face_points(convex, tri, margin, clip_tolerance),
        Feature::FaceB(j) => convex_face_points(convex, tri, j as usize, margin, clip_tolerance),
        Feature::EdgeEdge(i, j) => (edge_points(convex, tri, axis, (i, j), margin), None),
        Feature::Sphere | Feature::Closest(..) => (SmallVec::new(), None),
    }
}

/// The triangle's face as the reference (see the module docs), and the deepest point
/// when the reduction to four dropped it ([`dropped_point`]).
pub(crate) fn triangle_face_points(
    convex: &Convex,
    tri: &LocalTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    let poly = convex.polytope();
    let n = tri.normal;
    let incident_face = match convex {
        // A box's most anti-parallel face, `−sign(n_k) e_k` for the largest `|n_k|`,
        // holds its deepest corner: no search.
        Convex::Box { .. } => {
            let a = n.abs();
            let k = if a.x >= a.y && a.x >= a.z {
                0
            } else if a.y >= a.z {
                1
            } else {
                2
            };
            2 * k + (n[k] < 0.0) as usize
        }
        Convex::Hull(_) => {
            let deepest = poly.support_index(-n) as u32;
            let mut incident_face = 0;
            let mut best_dot = f32::INFINITY;
            for (j, plane) in poly.planes.iter().enumerate() {
                let d = plane.normal.dot(n);
                if d < best_dot && poly.face(j).contains(&deepest) {
                    best_dot = d;
                    incident_face = j;
                }
            }
            incident_face
        }
    };
    let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
    // The incident face clipped by the triangle's three sides.
    let bound = poly.face(incident_face).len() + 3;
    reserve_clip_buffers(&mut polygon, &mut scratch, bound);
    write_incident_polygon(
        poly.face(incident_face)
            .iter()
            .map(|&v| poly.vertices[v as usize]),
        &mut polygon,
    );
    let sides = (0..3).map(|i| {
        let (v0, v1) = tri.edge(i);
        SidePlane::through(v0, v1, n)
    });
    let clipped = clip_by_sides(&mut polygon, &mut scratch, sides, clip_tolerance, false);
    let mut candidates = FaceCandidates::new();
    reserve_candidates(&mut candidates, clipped.len());
    let id = |lines| pack_id(false, 0, incident_face as u32, lines);
    points_below(clipped, n, tri.offset, margin, id, &mut candidates);
    let kept = reduce(&candidates, n, clip_tolerance);
    let dropped = dropped_point(&candidates, &kept);
    give_back_clip_buffers(&mut polygon, &mut scratch);
    give_back_candidates(&mut candidates);
    (kept, dropped)
}

/// Face `j` of the convex as the reference, the triangle as the incident polygon; and
/// the deepest point when the reduction to four dropped it ([`dropped_point`]).
fn convex_face_points(
    convex: &Convex,
    tri: &LocalTriangle,
    j: usize,
    margin: f32,
    clip_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    let poly = convex.polytope();
    let plane = poly.planes[j];
    let m = plane.normal;
    let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
    // The triangle clipped by every side of face `j` and a bevel at each corner at most.
    reserve_clip_buffers(&mut polygon, &mut scratch, 3 + 2 * poly.face(j).len());
    write_incident_polygon(tri.vertices.into_iter(), &mut polygon);
    let sides = face_sides(poly, j, m);
    let clipped = clip_by_sides(&mut polygon, &mut scratch, sides, clip_tolerance, true);
    let mut candidates = FaceCandidates::new();
    reserve_candidates(&mut candidates, clipped.len());
    let id = |lines| pack_id(true, j as u32, 0, lines);
    points_below(clipped, m, plane.offset, margin, id, &mut candidates);
    let kept = reduce(&candidates, -m, clip_tolerance);
    let dropped = dropped_point(&candidates, &kept);
    give_back_clip_buffers(&mut polygon, &mut scratch);
    give_back_candidates(&mut candidates);
    (kept, dropped)
}

/// The deepest of `candidates` (the first of equals) when the reduction to four did not
/// keep it as deep: it keeps a point within the clip tolerance of it, for ids that
/// stay, and the merge of a mesh's triangles takes it into account
/// (`merge::merged_points`), so that the manifold loses at most that once.
fn dropped_point(candidates: &[Candidate], kept: &[Candidate]) -> Option<Candidate> {
    if candidates.len() <= 4 {
        return None;
    }
    let mut deepest = &candidates[0];
    for c in &candidates[1..] {
        // (A NaN depth never wins.)
        if c.depth > deepest.depth {
            deepest = c;
        }
    }
    let kept_depth = kept.iter().fold(
        f32::NEG_INFINITY,
        |d, c| if c.depth > d { c.depth } else { d },
    );
    (deepest.depth > kept_depth).then_some(*deepest)
}

/// One point for an edge pair: triangle edge `i` against the convex's edge `j`.
fn edge_points(
    convex: &Convex,
    tri: &LocalTriangle,
    axis: &Axis,
    (i, j): (u32, u32),
    margin: f32,
) -> SmallVec<[Candidate; 4]> {
    let l = axis.normal;
    let on_convex = match convex {
        Convex::Box { half, .. } => box_edge_segment(*half, j),
        Convex::Hull(poly) => {
            // The hull edge gave the direction; it carries the contact only when both its
            // ends are the hull's lowest along `L` (within round-off), else the deepest
            // vertex does.
            let (v0, v1) = polytope_edge(poly, j);
            let deepest = poly.vertices[poly.support_index(-l)];
            let tolerance = 1e-4 * poly.radius;
            let low = l.dot(deepest);
            if l.dot(v0) - low <= tolerance && l.dot(v1) - low <= tolerance {
                (v0, v1)
            } else {
                (deepest, deepest)
            }
        }
    };
    let points = edge_contact(
        tri.edge(i as usize),
        on_convex,
        l,
        axis.separation,
        margin,
        (i, j),
    );
    if !points.is_empty() || axis.separation > 0.0 {
        return points;
    }
    // The edges do not carry the axis (see `edge_contact`): the convex's deepest vertex.
    let poly = convex.polytope();
    let k = poly.support_index(-l);
    let depth = -axis.separation;
    SmallVec::from_elem(
        Candidate {
            point: poly.vertices[k] + l * (0.5 * depth),
            depth,
            id: pack_id(false, u32::MAX, u32::MAX, [u16::MAX - 1, k as u16]),
        },
        1,
    )
}
