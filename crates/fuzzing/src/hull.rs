//! Target `hull_builder`: [`ConvexHull::try_from_points`] and
//! [`ConvexHull::try_from_faces`] on decoded input.
//!
//! **Input.** A mode byte ([`Mode::Ordinary`] or [`Mode::Wild`]), a point cloud
//! ([`decode::points`]), then a list of *face edits*: the built hull's own faces are
//! handed to `try_from_faces` after a few byte-chosen changes (a face dropped,
//! reversed or rotated, an index swapped or out of range, a vertex moved, a duplicated
//! face). With no edits this must rebuild the same hull.
//!
//! **Checked.**
//! * Neither constructor panics; each returns a hull or a named error.
//! * The error is the right one where the docs say which: `TooFewPoints` exactly for
//!   fewer than 4 points, `NonFinite(i)` exactly for the first non-finite point.
//! * A hull that is built satisfies its invariants ([`check_hull`]): V − E + F = 2,
//!   unit face normals, faces of 3+ vertices on their planes, every edge between two
//!   faces and its Gauss arc holding both face normals (within [`ARC_SLACK`]), symmetric vertex
//!   adjacency, the centroid strictly inside, and every input point inside or on every
//!   face plane within the documented tolerance.
//! * `try_from_points` keeps bit-exact input points, in input order, and gives the
//!   same hull twice.

use crate::bytes::{Bytes, Mode};
use crate::decode;
use crate::known::{HUGE_HULL, KNIFE, OpenBug, Tolerance};
use glam::{DVec3, Vec3};
use sepax_geometry::{ConvexHull, HullError};

/// How far a face normal may fall outside its edge's Gauss arc: the slack the narrow
/// phase allows in its arc pruning (`ARC_SLACK` in `sat/hull_hull/edges.rs`), which trusts
/// the arcs to this precision.
pub const ARC_SLACK: f32 = 1e-5;

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    let mut b = Bytes::new(data);
    let mode = Mode::from_flags(b.u8());
    let points = decode::points(&mut b, mode);
    let built = ConvexHull::try_from_points(&points);
    check_points_error(&points, &built);
    let Ok(hull) = built else {
        return;
    };
    check_hull(&hull, &points, point_tolerance(&points), allowed);
    check_vertices_are_input_points(&hull, &points);
    assert_eq!(
        ConvexHull::try_from_points(&points).as_ref(),
        Ok(&hull),
        "a second build differs"
    );

    let (vertices, faces) = edit_faces(&hull, &mut b);
    let edited = vertices != hull.vertices() || faces != faces_of(&hull);
    match ConvexHull::try_from_faces(vertices.clone(), &faces) {
        Ok(again) => {
            let tolerance = face_tolerance(&vertices);
            check_hull(&again, &vertices, tolerance, allowed);
            if !edited {
                assert_eq!(again, hull, "rebuilding from the hull's own faces differs");
            }
        }
        Err(e) => {
            assert!(edited, "the hull's own faces are refused: {e:?}");
            if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
                assert_eq!(e, HullError::NonFinite(i));
            }
        }
    }
}

/// The documented errors for too few and non-finite points.
fn check_points_error(points: &[Vec3], built: &Result<ConvexHull, HullError>) {
    let first_bad = points.iter().position(|p| !p.is_finite());
    match built {
        _ if points.len() < 4 => {
            assert_eq!(built, &Err(HullError::TooFewPoints(points.len())));
        }
        _ if first_bad.is_some() => {
            assert_eq!(built, &Err(HullError::NonFinite(first_bad.unwrap())));
        }
        Err(HullError::TooFewPoints(_) | HullError::NonFinite(_) | HullError::InvalidTopology) => {
            panic!("{built:?} for {} finite points", points.len());
        }
        _ => {}
    }
}

/// `3 · eps`, the documented bound on how far an input point may stand in front of a
/// face plane: `eps = 1e-5 · d + 4 · f32::EPSILON · m` (`d` the bounding-box diagonal,
/// `m` the largest absolute coordinate).
pub fn point_tolerance(points: &[Vec3]) -> f64 {
    let lo = points
        .iter()
        .fold(DVec3::INFINITY, |m, p| m.min(p.as_dvec3()));
    let hi = points
        .iter()
        .fold(DVec3::NEG_INFINITY, |m, p| m.max(p.as_dvec3()));
    let diag = (hi - lo).length();
    let max_abs = lo.abs().max(hi.abs()).max_element();
    3.0 * (1e-5 * diag + 4.0 * f32::EPSILON as f64 * max_abs)
}

/// The tolerance `try_from_faces` documents: `1e-4 ×` the larger of the hull's radius
/// about its centroid and the centroid's largest coordinate (plus f32 rounding of the
/// plane offsets, which are stored in f32).
fn face_tolerance(vertices: &[Vec3]) -> f64 {
    let n = vertices.len() as f64;
    let centroid = vertices.iter().map(|v| v.as_dvec3()).sum::<DVec3>() / n;
    let radius = vertices
        .iter()
        .map(|v| (v.as_dvec3() - centroid).length())
        .fold(0.0, f64::max);
    let size = radius.max(centroid.abs().max_element());
    1e-4 * size + 4.0 * f32::EPSILON as f64 * (size + centroid.length())
}

/// The invariants of a built hull; `points` must all lie within `tolerance` behind
/// every face plane (measured in f64). `allowed` may skip the arcs of knife edges
/// ([`OpenBug::GaussArcKnifeEdge`]).
pub fn check_hull(hull: &ConvexHull, points: &[Vec3], tolerance: f64, allowed: Tolerance) {
    let v = hull.vertices();
    let (nv, nf, ne) = (v.len(), hull.face_count(), hull.edges().len());
    assert!(nv >= 4 && nf >= 4, "{nv} vertices, {nf} faces");
    assert_eq!(
        nv as i64 - ne as i64 + nf as i64,
        2,
        "Euler: V {nv} E {ne} F {nf}"
    );
    assert!(v.iter().all(|p| p.is_finite()), "non-finite vertex");
    assert_eq!(hull.face_starts().len(), nf + 1);

    let huge = points.iter().any(|p| p.abs().max_element() > HUGE_HULL);
    let skip_planes = huge && allowed.allows(OpenBug::HugeHull);
    for (f, plane) in hull.planes().iter().enumerate() {
        let n = plane.normal.as_dvec3();
        if skip_planes {
            continue;
        }
        assert!(
            (n.length() - 1.0).abs() < 1e-5 && plane.offset.is_finite(),
            "face {f}: plane {plane:?}"
        );
        let loop_ = hull.face(f);
        assert!(loop_.len() >= 3, "face {f} has {} vertices", loop_.len());
        for &i in loop_ {
            let d = n.dot(v[i as usize].as_dvec3()) - plane.offset as f64;
            assert!(d.abs() <= tolerance, "vertex {i} is {d} off face {f}");
        }
        for (k, p) in points.iter().enumerate() {
            let d = n.dot(p.as_dvec3()) - plane.offset as f64;
            assert!(
                d <= tolerance,
                "point {k} is {d} in front of face {f} (tolerance {tolerance})"
            );
        }
        assert!(
            plane.signed_distance(hull.centroid()) < 0.0,
            "centroid not behind face {f}"
        );
    }

    for (e, edge) in hull.edges().iter().enumerate() {
        let [a, b] = edge.vertices.map(|i| i as usize);
        let [f0, f1] = edge.faces.map(|f| f as usize);
        assert!(
            a < nv && b < nv && f0 < nf && f1 < nf && f0 != f1,
            "edge {e}: {edge:?}"
        );
        let runs_ccw = |f: usize, from: usize, to: usize| {
            let l = hull.face(f);
            (0..l.len()).any(|k| l[k] as usize == from && l[(k + 1) % l.len()] as usize == to)
        };
        assert!(
            runs_ccw(f0, a, b) && runs_ccw(f1, b, a),
            "edge {e} is not in its faces"
        );
        let arc = hull.gauss_arcs()[e];
        let [n0, n1] = [f0, f1].map(|f| hull.planes()[f].normal);
        let knife = n0.dot(n1) < KNIFE - 1.0;
        if knife && allowed.allows(OpenBug::GaussArcKnifeEdge) {
            continue;
        }
        for n in [n0, n1] {
            assert!(
                n.dot(arc.mid) >= arc.cos_half - ARC_SLACK,
                "edge {e}: the Gauss arc {arc:?} misses its face normal {n} (n · mid = {})",
                n.dot(arc.mid)
            );
        }
    }

    for i in 0..nv {
        for &j in hull.neighbors(i) {
            assert!(
                hull.neighbors(j as usize).contains(&(i as u32)),
                "adjacency {i} → {j} not symmetric"
            );
        }
    }
    assert!(hull.inradius() > 0.0, "inradius {}", hull.inradius());
}

/// The vertices are bit-exact input points, ordered by first index in the input.
fn check_vertices_are_input_points(hull: &ConvexHull, points: &[Vec3]) {
    let bits = |p: &Vec3| p.to_array().map(f32::to_bits);
    let mut last = None;
    for v in hull.vertices() {
        let first = points.iter().position(|p| bits(p) == bits(v));
        assert!(first.is_some(), "vertex {v} is not an input point");
        assert!(first > last, "vertices out of input order");
        last = first;
    }
}

fn faces_of(hull: &ConvexHull) -> Vec<Vec<u32>> {
    (0..hull.face_count())
        .map(|f| hull.face(f).to_vec())
        .collect()
}

/// The hull's vertices and faces after up to 4 byte-chosen edits.
fn edit_faces(hull: &ConvexHull, b: &mut Bytes) -> (Vec<Vec3>, Vec<Vec<u32>>) {
    let mut vertices = hull.vertices().to_vec();
    let mut faces = faces_of(hull);
    for _ in 0..b.below(5) {
        let f = b.below(faces.len());
        let k = b.below(faces[f].len());
        match b.below(7) {
            0 => {
                faces.remove(f);
            }
            1 => faces[f].reverse(),
            2 => faces[f].rotate_left(1),
            3 => faces[f][k] = b.u8() as u32,
            4 => {
                let v = b.below(vertices.len());
                vertices[v] += b.vec3(Mode::Wild);
            }
            5 => {
                let copy = faces[f].clone();
                faces.push(copy);
            }
            _ => {
                let g = b.below(faces.len());
                let l = b.below(faces[g].len());
                let (x, y) = (faces[f][k], faces[g][l]);
                faces[f][k] = y;
                faces[g][l] = x;
            }
        }
        if faces.is_empty() {
            break;
        }
    }
    (vertices, faces)
}
