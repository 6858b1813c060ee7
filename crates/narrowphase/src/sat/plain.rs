//! The plain separating-axis test between two convex hulls: the baseline that seed 003's
//! "5–10× faster than a plain SAT" is measured against (the `seed003` bench group).
//! Nothing in sepax calls it; [`hull_hull`](super::hull_hull) is the test in use.
//!
//! Every candidate axis of `a − b`, each measured in full, in f32, in a's frame:
//! * each face normal `n_i` of a: `s = n_i·t − h_b(−Rᵀn_i) − d_i` (b's support scanned);
//! * each face normal `m_j` of b, as `n = −R m_j`: `s = n·t − e_j − h_a(n)` (a's
//!   support scanned);
//! * each edge pair: `n = ±(e_a × R e_b)/|e_a × R e_b|`, oriented out of a at its edge
//!   (`n·(p_a − c_a) ≥ 0`, `p_a` on a's edge, `c_a` a's centroid), skipped when the
//!   edges are within `PARALLEL_EDGES` of parallel; `s = n·t − h_b(−Rᵀn) − h_a(n)`, both
//!   supports scanned.
//!
//! Here `h` is a support distance (the largest `dir·v` over the vertices, by the same
//! scan, 8 vertices at a time, that the pruned test's
//! [`SupportMode::Scan`](super::hull_hull::SupportMode) uses), `R`, `t` b's pose in a's
//! frame and `d_i`, `e_j` the face planes' offsets. Any direction's `s` is at most the
//! true separation, and the largest is reached at a face normal of the Minkowski
//! difference, which is one of these candidates: an edge pair that forms such a face
//! supports a along `n`, so `n·p_a = h_a(n) > n·c_a` and the orientation picks its
//! outward side. (Orienting by `c_b − c_a` instead fails on deep pairs: with coincident
//! centroids it picks either side.) A positive `s` ends the test.
//!
//! What it leaves out, on purpose: the Gauss-map (Minkowski-face) test that drops edge
//! pairs, the inner-sphere bounds, the witnesses, the pair cache, the walk. It costs
//! `(F_a + F_b)·V + E_a·E_b·(V_a + V_b)` dot products, against the pruned test's few
//! faces and edges; that difference is what the bench measures.

use super::{Frame, PARALLEL_EDGES};
use crate::polytope::Polytope;
use glam::Vec3;
use sepax_geometry::{ConvexHull, Pose};

/// The plain SAT of two posed hulls (its candidates are listed in the docs of
/// `sat/plain.rs`): the axis of largest separation, as a unit world normal from a to b
/// and its separation (`≤ 0`: touching or penetrating by `−separation`), or `None` when
/// an axis separates them or a pose is invalid. Ties keep the first candidate, in the
/// order faces of a, faces of b, edge pairs.
///
/// ```
/// use sepax_geometry::{ConvexHull, Pose};
/// use sepax_narrowphase::sat_baseline::plain_hull_hull;
/// use glam::Vec3;
///
/// let cube = ConvexHull::cuboid(Vec3::splat(0.5)).unwrap();
/// let above = Pose::from_translation(Vec3::new(0.0, 0.9, 0.0));
/// let (normal, separation) = plain_hull_hull(&cube, &Pose::IDENTITY, &cube, &above).unwrap();
/// assert!((normal - Vec3::Y).length() < 1e-6 && (separation + 0.1).abs() < 1e-6);
/// ```
pub fn plain_hull_hull(
    a: &ConvexHull,
    pose_a: &Pose,
    b: &ConvexHull,
    pose_b: &Pose,
) -> Option<(Vec3, f32)> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    let frame = Frame::new(pose_a, pose_b);
    let (pa, pb) = (Polytope::from_hull(a), Polytope::from_hull(b));
    let support_a = |n: Vec3| pa.support(n).1;
    let support_b = |n: Vec3| pb.support(frame.rot_t * -n).1;
    let mut best = (f32::NEG_INFINITY, Vec3::X);
    let mut keep = |s: f32, n: Vec3| {
        if s > best.0 {
            best = (s, n);
        }
        s > 0.0
    };
    if face_axes(&pa, &pb, &frame, &mut keep) {
        return None;
    }
    for eb in 0..pb.edges.len() {
        let [b0, b1] = pb.edges[eb].vertices;
        let edge_b = frame.rot * (pb.vertices[b1 as usize] - pb.vertices[b0 as usize]);
        for ea in 0..pa.edges.len() {
            let [a0, a1] = pa.edges[ea].vertices;
            let start_a = pa.vertices[a0 as usize];
            let edge_a = pa.vertices[a1 as usize] - start_a;
            let Some(n) = edge_pair_axis(&pa, start_a, edge_a, edge_b) else {
                continue;
            };
            if keep(n.dot(frame.trans) - support_b(n) - support_a(n), n) {
                return None;
            }
        }
    }
    let (separation, normal) = best;
    Some((pose_a.rotation.normalize() * normal, separation))
}

/// Both hulls' face axes, each with a full support scan of the other (`a`'s normals
/// `n_i`: `s = n_i·t − h_b(−Rᵀn_i) − d_i`; b's as `n = −R m_j`: `s = n·t − e_j − h_a(n)`),
/// handed to `keep` in order; true as soon as `keep` says an axis separates.
pub(super) fn face_axes(
    pa: &Polytope,
    pb: &Polytope,
    frame: &Frame,
    keep: &mut impl FnMut(f32, Vec3) -> bool,
) -> bool {
    for plane in pa.planes {
        let n = plane.normal;
        if keep(
            n.dot(frame.trans) - pb.support(frame.rot_t * -n).1 - plane.offset,
            n,
        ) {
            return true;
        }
    }
    for plane in pb.planes {
        let n = frame.rot * -plane.normal;
        if keep(n.dot(frame.trans) - plane.offset - pa.support(n).1, n) {
            return true;
        }
    }
    false
}

/// The unit axis `±(e_a × e_b)` of an edge pair (a's frame), oriented out of a at its
/// edge (`n·(p_a − c_a) ≥ 0`, `p_a` = `start_a`); `None` when the edges are within
/// `PARALLEL_EDGES` of parallel.
pub(super) fn edge_pair_axis(
    pa: &Polytope,
    start_a: Vec3,
    edge_a: Vec3,
    edge_b: Vec3,
) -> Option<Vec3> {
    let cross = edge_a.cross(edge_b);
    let floor = PARALLEL_EDGES * PARALLEL_EDGES;
    if cross.length_squared() < floor * edge_a.length_squared() * edge_b.length_squared() {
        return None;
    }
    let n = cross.normalize();
    Some(if n.dot(start_a - pa.centroid) < 0.0 {
        -n
    } else {
        n
    })
}
