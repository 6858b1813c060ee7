//! Active edges and corners: keeping their normals inside the mesh's range of normals.
//!
//! Tested alone, a triangle is a thin sheet, and a shape crossing one of its edges can
//! be pushed off it sideways: the edge pair's axis, up to 90° from the face normal. On
//! a mesh, an active edge is a convex bend between two faces (or a boundary), and the
//! normals a contact there may take run from one face's normal to the other's, the
//! edge's **cone** (an arc about the edge: Gauss-map arcs again). So a patch on an active
//! edge whose normal leaves that arc is moved to the nearer end: rebuilt as a face
//! contact of that end's triangle (its face as the reference: points over that face,
//! depths along its normal), or kept aside when nothing of the shape lies over it (it
//! answers only when no triangle of the call gives a touching contact: see
//! `patch::buried_patch`). A patch of a triangle the shape is apart from (kept for the
//! margin) keeps its speculative points, only its normal moving into the cone.
//!
//! A patch moved to a face keeps its own deepest point among that face's points,
//! re-measured along the face's normal as the merge measures, when it is deeper than
//! all of them (beyond the clip tolerance, within the merge angle): the face's points
//! are only the convex's part over that face, and a terrain's peak poking into a box's
//! face lies beside it.
//!
//! A patch built on the test's preferred axis (a face of the convex within the slop of
//! the exact axis) whose normal leaves the cone for a face with nothing over it falls
//! back to the exact axis first, when that axis is on an active feature and inside its
//! own cone: a hull's tip on a convex ridge, its contact preferred onto a hull face
//! whose normal left the ridge corner's cone, was kept aside in favour of a
//! neighbour's buried patch measured against that neighbour's plane, 4.9 times the
//! exact depth along its normal (`tests/mesh_curved_oracle.rs`).
//!
//! The neighbour across the edge is found among the triangles of the same call whose
//! box the shape's own box overlaps, the margin left out (its two shared corners are
//! bit-equal: the same mesh vertices, transformed the same way). A shape touching the
//! shared edge overlaps the neighbour's box, so the neighbour is there; an edge whose
//! neighbour is not (a boundary edge, or one the test's axis names without the shape
//! reaching it, deep inside) keeps its normal. The margin is left out so that it changes
//! no touching contact: with it, a deep hull found neighbours the query without it
//! had not passed (`tests/mesh_contacts.rs`,
//! `a_margin_does_not_change_a_touching_convex_contact`).
//!
//! An active corner's cone is spanned by the normals of the triangles around it (those
//! of the call: all of them when the shape touches the corner, as they all hold it): the
//! directions along which the corner is the highest of its neighbouring corners. A
//! normal along which a neighbouring corner rises above it, or further from each of
//! those normals than they are from one another (the cone's width), is outside, and
//! moves to the nearest of them, as above. A corner with only its own triangle at hand
//! keeps its normal. The width closes the open side of a corner on the mesh's boundary
//! too: a shape pressing sideways on a boundary corner shared by several triangles gets
//! a face normal; and a saddle (convex one way, concave the other) has no direction
//! along which it is highest, so its contacts take the nearest face normal.
//!
//! Spheres need none of this: a sphere's normal runs from the closest point of the mesh
//! to its centre, which is inside the cone of the closest feature by construction.

use super::local::{Convex, LocalTriangle};
use super::merge::MERGE_ANGLE;
use super::patch::{Patch, buried_patch, exact_patch, face_points_touching};
use super::sphere_triangle::TriangleFeature;
use crate::Feature;
use crate::manifold::reduce::{Candidate, reduce};
use glam::Vec3;
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Moves the normals of active-edge and active-corner patches into their cones (see the
/// module docs); `triangles` are every triangle of the call, in the convex's frame. A
/// patch whose target face has nothing of the convex over it leaves `patches` for
/// `buried` (see `patch::buried_patch`).
pub(crate) fn clamp_to_cones(
    patches: &mut Vec<(u32, Patch)>,
    buried: &mut Vec<(u32, Patch)>,
    triangles: &[(u32, LocalTriangle)],
    convex: &Convex,
    margin: f32,
    clip_tolerance: f32,
) {
    let mut k = 0;
    while k < patches.len() {
        let (id, patch) = &patches[k];
        let Some((id, tri)) = cone_target(*id, patch, triangles) else {
            k += 1;
            continue;
        };
        if patch.gap > 0.0 {
            // A triangle the shape is apart from (kept for the margin): its speculative
            // points stay where they are, at its own feature and `gap` apart, and only
            // the normal moves into the cone. (The target face's points would be that
            // face's contact, which its own triangle gives if the shape touches it:
            // capped at this triangle's gap they sat deep inside the shape as
            // speculative points.)
            let patch = &mut patches[k].1;
            patch.normal = tri.normal;
            patch.feature = Feature::FaceA(0);
            patch.on = TriangleFeature::Face;
            k += 1;
            continue;
        }
        let (points, dropped) = face_points_touching(convex, &tri, margin, clip_tolerance);
        if points.is_empty()
            && let (own_id, own) = &patches[k]
            && let Some(exact) = own.exact
            && let Some(exact) = exact_patch(convex, &own.tri, exact, margin, clip_tolerance)
            && cone_target(*own_id, &exact, triangles).is_none()
        {
            // The test's exact axis, inside its cone, where the preferred one (a face
            // of the convex within the slop of it) left the cone for a face with
            // nothing over it: the exact contact, rather than a face contact kept
            // aside. (On a rolling terrain a hull's tip on a convex ridge, preferred
            // onto a corner beside it, was answered by a buried patch of a neighbour
            // 4.9 times its depth along that patch's normal.)
            patches[k].1 = exact;
            k += 1;
            continue;
        }
        if points.is_empty() {
            // Kept aside: the target face's contact, or, when the convex does not
            // reach below that face at all (a corner's nearest normal can belong to a
            // triangle the convex is apart from), the test's own.
            let (own_id, own) = patches.swap_remove(k);
            buried.push(match buried_patch(convex, &tri, margin) {
                Some(face) => (id, face),
                None => (own_id, own.buried()),
            });
            continue;
        }
        let (points, dropped) =
            with_own_deepest(&patches[k].1, tri.normal, (points, dropped), clip_tolerance);
        let face = Patch {
            normal: tri.normal,
            feature: Feature::FaceA(0),
            points,
            on: TriangleFeature::Face,
            tri,
            buried: false,
            gap: 0.0,
            dropped,
            exact: None,
        };
        patches[k] = (id, face);
        k += 1;
    }
}

/// The target face's points with the moved patch's own deepest point among them,
/// re-measured along the face's normal `n` as the merge measures (`d (m · n)` for a
/// point `d` deep along the patch's normal `m`), when that is deeper than every face
/// point by more than the clip tolerance and `m` is within the merge angle of `n`.
///
/// The face's points are the convex's part over that face only: a terrain's peak
/// poking into a box's face, the contact of the triangles around the peak (their
/// corner, the box face's normal), moved to the face of a neighbour, measured 0.0044
/// where the box must rise 0.0071 along that face's normal to clear the peak
/// (`tests/mesh_curved_oracle.rs`). The reduction to four keeps the deepest.
fn with_own_deepest(
    own: &Patch,
    n: Vec3,
    (points, dropped): (SmallVec<[Candidate; 4]>, Option<Candidate>),
    clip_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    let cos = own.normal.dot(n);
    let deepest = |c: &Candidate, d: f32| if c.depth > d { c.depth } else { d };
    let own_deepest =
        (own.points.iter().chain(&own.dropped)).fold(None::<Candidate>, |best, c| match best {
            Some(b) if b.depth >= c.depth => Some(b),
            _ => Some(*c),
        });
    let face_deepest =
        (points.iter().chain(&dropped)).fold(f32::NEG_INFINITY, |d, c| deepest(c, d));
    let Some(own_deepest) = own_deepest else {
        return (points, dropped);
    };
    let depth = own_deepest.depth * cos;
    // (A NaN keeps the face's points.)
    let deeper = depth.partial_cmp(&(face_deepest + clip_tolerance)) == Some(Ordering::Greater);
    if cos < MERGE_ANGLE.cos() || !deeper {
        return (points, dropped);
    }
    let moved = Candidate {
        depth,
        ..own_deepest
    };
    let mut gathered: SmallVec<[Candidate; 6]> = points.iter().copied().collect();
    gathered.push(moved);
    (reduce(&gathered, n, clip_tolerance), dropped)
}

/// The triangle (and its id) whose face `patch` moves to (see the module docs), or
/// `None` when its normal is inside its feature's cone (always on a face).
fn cone_target(
    id: u32,
    patch: &Patch,
    triangles: &[(u32, LocalTriangle)],
) -> Option<(u32, LocalTriangle)> {
    match patch.on {
        TriangleFeature::Face => None,
        TriangleFeature::Edge(i) => edge_target(id, patch, i as usize, triangles),
        TriangleFeature::Vertex(j) => corner_target(patch, j as usize, triangles),
    }
}

/// The triangle (and its id) whose face a patch on active edge `i` moves to, or `None`
/// when its normal is inside the edge's arc (or the edge has no neighbour).
fn edge_target(
    id: u32,
    patch: &Patch,
    i: usize,
    triangles: &[(u32, LocalTriangle)],
) -> Option<(u32, LocalTriangle)> {
    let tri = &patch.tri;
    let (a, b) = tri.edge(i);
    let &(neighbour_id, neighbour) = triangles.iter().find(|(_, t)| {
        t.vertices != tri.vertices && t.vertices.contains(&a) && t.vertices.contains(&b)
    })?;
    let e = (b - a).try_normalize()?;
    // The normal's part about the edge; both face normals are perpendicular to it.
    let l = (patch.normal - e * e.dot(patch.normal)).try_normalize()?;
    let (n_here, n_there) = (tri.normal, neighbour.normal);
    // Inside the arc from `n_here` to `n_there` (the short way, about `e`): on the same
    // turning side of both ends as the arc itself, and not on the far side of the circle.
    let turn = n_here.cross(n_there).dot(e);
    let inside = n_here.cross(l).dot(e) * turn >= 0.0
        && l.cross(n_there).dot(e) * turn >= 0.0
        && l.dot(n_here + n_there) > 0.0;
    if inside {
        return None;
    }
    if l.dot(n_here) >= l.dot(n_there) {
        Some((id, *tri))
    } else {
        Some((neighbour_id, neighbour))
    }
}

/// The triangle whose face a patch on active corner `j` moves to, or `None` when its
/// normal is within the cone of the triangles around the corner.
fn corner_target(
    patch: &Patch,
    j: usize,
    triangles: &[(u32, LocalTriangle)],
) -> Option<(u32, LocalTriangle)> {
    let corner = patch.tri.vertices[j];
    let around = || {
        triangles
            .iter()
            .filter(move |(_, t)| t.vertices.contains(&corner))
    };
    // A corner with only its own triangle at hand (a lone triangle, a mesh's outer
    // corner) keeps its normal.
    around().nth(1)?;
    // The cone's width as the smallest cosine between two of its normals.
    let mut widest = 1.0f32;
    for (_, t) in around() {
        for (_, u) in around() {
            widest = widest.min(t.normal.dot(u.normal));
        }
    }
    let l = patch.normal;
    let &(id, nearest) =
        around().max_by(|(_, t), (_, u)| l.dot(t.normal).total_cmp(&l.dot(u.normal)))?;
    // The exact test of a convex corner: its normals are the directions along which it
    // is the highest of its neighbours (`l · (w − corner) ≤ 0` for every corner `w` of
    // the triangles around it, each such plane holding the normals of the two faces
    // beside edge `w − corner`), to round-off. The width alone let a hull's face normal
    // 8° beyond every face around a corner through (the mesh sliding test's seed xor
    // 17): it bounds the spread, not the direction.
    let above = |w: Vec3| w != corner && l.dot(w - corner) > CORNER_SLACK * (w - corner).length();
    let beyond = around().any(|(_, t)| t.vertices.into_iter().any(above));
    (beyond || l.dot(nearest.normal) < widest).then_some((id, nearest))
}

/// How far (as a fraction of an edge's length) a neighbouring corner may rise above a
/// corner along a normal still taken as inside the corner's cone: round-off of the
/// corners and the normal (a normal on the cone's border is perpendicular to an edge).
const CORNER_SLACK: f32 = 1e-5;
