//! The f64 oracle of capsule pairs: the exact separation of a capsule's core segment and
//! the other shape, minus the radii.
//!
//! Written for obviousness, not speed, and independent of the fast queries' math:
//! * **point–segment**: the projection parameter clamped to `[0, 1]`;
//! * **segment–segment**: the smallest of the four endpoint–segment distances and, when
//!   the lines' closest points fall inside both segments, the distance between those;
//! * **segment–polytope** (box or hull, taken as the hull of its vertices): the
//!   vertex-projection SAT of the segment (its two endpoints) against the polytope's
//!   vertices on **every** face normal, the normal of every triangle of three vertices
//!   of a face, the cross product of the segment with **every** segment between two
//!   vertices of a face, and the direction of the closest pair below. A largest gap `g ≤ 0` means they meet and `−g` is the penetration;
//!   otherwise the distance is the smallest of the endpoints' distances to every
//!   triangle of three vertices of a face and the segment's distances to those
//!   segments (the closest pair of two convex polytopes is a vertex and a face, or two
//!   edges; the pieces cover a merged face however it bends).
//!
//! Everything runs in world coordinates measured from the capsule's position.

use super::DEGENERATE_CROSS;
use super::triangle::closest_on;
use glam::{DVec3, Vec3};
use sepax_geometry::{Capsule, ConvexHull, Pose, Shape};

/// The point of segment `a b` closest to `p` (the projection parameter clamped).
pub fn point_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let d = b - a;
    let length_squared = d.length_squared();
    let t = if length_squared > 0.0 {
        ((p - a).dot(d) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + d * t
}

/// Distance from `p` to the segment `a b`.
pub fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    (point_on_segment(p, a, b) - p).length()
}

/// The closest points of the segments `a0 a1` and `b0 b1` and their distance: the best
/// of the four endpoint projections (the first among ties) and, when the lines' closest
/// points lie inside both segments and are nearer, those.
pub fn closest_points_of_segments(
    a0: DVec3,
    a1: DVec3,
    b0: DVec3,
    b1: DVec3,
) -> (DVec3, DVec3, f64) {
    let candidates = [
        (a0, point_on_segment(a0, b0, b1)),
        (a1, point_on_segment(a1, b0, b1)),
        (point_on_segment(b0, a0, a1), b0),
        (point_on_segment(b1, a0, a1), b1),
    ];
    let mut best = (a0, candidates[0].1, f64::INFINITY);
    for (x, y) in candidates {
        // (x − y) is −(y − x) exactly: the same length as `point_segment_distance`.
        let distance = (x - y).length();
        if distance < best.2 {
            best = (x, y, distance);
        }
    }
    // Interior–interior: solve the 2×2 normal equations of the two lines.
    let (da, db, r) = (a1 - a0, b1 - b0, a0 - b0);
    let (aa, bb, ab) = (da.dot(da), db.dot(db), da.dot(db));
    let det = aa * bb - ab * ab;
    if det > 1e-12 * aa * bb {
        let (c, f) = (da.dot(r), db.dot(r));
        let s = (ab * f - c * bb) / det;
        let t = (aa * f - ab * c) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            let distance = (a0 + da * s - b0 - db * t).length();
            if distance < best.2 {
                best = (a0 + da * s, b0 + db * t, distance);
            }
        }
    }
    best
}

/// Distance between the segments `a0 a1` and `b0 b1`.
pub fn segment_segment_distance(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> f64 {
    closest_points_of_segments(a0, a1, b0, b1).2
}

/// The exact separation of a capsule at `pose` and any posed shape: positive apart (the
/// distance between the surfaces), negative penetrating (minus the depth); `NaN` for an
/// invalid pose or a mesh.
pub fn capsule_separation(capsule: &Capsule, pose: &Pose, other: &Shape, other_pose: &Pose) -> f64 {
    if !(pose.is_valid() && other_pose.is_valid()) {
        return f64::NAN;
    }
    let origin = pose.translation.as_dvec3();
    let to_world = |v: Vec3, p: &Pose| {
        p.rotation.as_dquat().normalize() * v.as_dvec3() + (p.translation.as_dvec3() - origin)
    };
    let (bottom, top) = capsule.segment();
    let (c0, c1) = (to_world(bottom, pose), to_world(top, pose));
    let radius = capsule.radius() as f64;
    let core = match other {
        Shape::Sphere(s) => {
            point_segment_distance(to_world(Vec3::ZERO, other_pose), c0, c1) - s.radius() as f64
        }
        Shape::Capsule(o) => {
            let (b0, b1) = o.segment();
            segment_segment_distance(c0, c1, to_world(b0, other_pose), to_world(b1, other_pose))
                - o.radius() as f64
        }
        Shape::Cuboid(c) => {
            let hull = ConvexHull::cuboid(c.half_extents()).expect("a valid box is a valid hull");
            // A box's face normals are its axes, exactly; its hull's planes are computed
            // from its corners, which a box 1e-22 thin leaves mostly round-off.
            let axes = [DVec3::X, DVec3::Y, DVec3::Z];
            segment_polytope(c0, c1, (&hull, &axes), other_pose, origin)
        }
        Shape::ConvexHull(h) => {
            let normals: Vec<DVec3> = h.planes().iter().map(|p| p.normal.as_dvec3()).collect();
            segment_polytope(c0, c1, (h, &normals), other_pose, origin)
        }
        // Not a solid: see `oracle::mesh::mesh_separation`.
        Shape::TriMesh(_) => return f64::NAN,
    };
    core - radius
}

/// The signed distance of the segment `c0 c1` (relative to `origin`) and the posed
/// polytope `hull` (`normals` its face normals in its frame, either sense).
///
/// The polytope is the hull of its **vertices**: a merged face of a nearly flat hull
/// is bent by up to the builder's tolerance, so its plane is only near the vertices,
/// and the planes of a slab 0.0016 thin and 60 wide meet far outside its vertices (a
/// point 1.7 beyond the rim was inside every plane). So nothing here reads a plane's
/// offset: the pieces of a face are **all** segments between two of its vertices and
/// all triangles of three, which cover the true facets whichever way they bend.
///
/// Any axis along which the vertices and the segment's endpoints leave a gap proves the
/// two apart; the distance is then the smallest of the endpoints' distances to the
/// face triangles and the segment's distances to the face segments. The axes: every
/// face normal and face triangle normal, every cross product of the segment with a face
/// segment, and the direction between the closest points that enumeration finds (a
/// segment nearly parallel to an edge has that edge's cross product skipped as
/// round-off, and it may be the only one that separates). With no gap along any of
/// them the two meet, and the largest gap is minus the penetration.
fn segment_polytope(
    c0: DVec3,
    c1: DVec3,
    (hull, normals): (&ConvexHull, &[DVec3]),
    pose: &Pose,
    origin: DVec3,
) -> f64 {
    let q = pose.rotation.as_dquat().normalize();
    let shift = pose.translation.as_dvec3() - origin;
    let local = |i: u32| hull.vertices()[i as usize].as_dvec3();
    let vertices: Vec<DVec3> = (0..hull.vertices().len() as u32)
        .map(|i| q * local(i) + shift)
        .collect();
    // Every segment between two vertices of a face, and every triangle of three.
    let mut segments: Vec<[u32; 2]> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    for f in 0..hull.planes().len() {
        let face = hull.face(f);
        for (i, &u) in face.iter().enumerate() {
            for (j, &v) in face.iter().enumerate().skip(i + 1) {
                segments.push([u, v]);
                for &w in &face[j + 1..] {
                    triangles.push([u, v, w]);
                }
            }
        }
    }
    let d = c1 - c0;
    let gap_along = |axis: DVec3| {
        let (lo, hi) = vertices
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                let x = v.dot(axis);
                (lo.min(x), hi.max(x))
            });
        let (s0, s1) = (c0.dot(axis), c1.dot(axis));
        (s0.min(s1) - hi).max(lo - s0.max(s1))
    };
    let mut gap = f64::NEG_INFINITY;
    for normal in normals {
        gap = gap.max(gap_along((q * *normal).normalize()));
    }
    // Edge directions from the polytope's own vertices: moved first, an edge 1e-22 long
    // 7e-6 from the origin is lost to the sum's round-off (and with it the axis that
    // separates a thin box).
    for [u, v] in &segments {
        let e = q * (local(*v) - local(*u));
        let c = d.cross(e);
        if c.length() > DEGENERATE_CROSS * d.length() * e.length() {
            gap = gap.max(gap_along(c.normalize()));
        }
    }
    // The closest pair of the endpoints and the face triangles, and of the segment and
    // the face segments; each triangle's normal is an axis too (a bent face's facets are
    // some of them).
    let mut closest = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    for [u, v, w] in &triangles {
        let t = [
            vertices[*u as usize],
            vertices[*v as usize],
            vertices[*w as usize],
        ];
        let Some(normal) = (t[1] - t[0]).cross(t[2] - t[0]).try_normalize() else {
            continue; // A degenerate triple: its segments cover it.
        };
        gap = gap.max(gap_along(normal));
        for p in [c0, c1] {
            let on = closest_on(&t, normal, p);
            let distance = (p - on).length();
            if distance < closest.0 {
                closest = (distance, on, p);
            }
        }
    }
    for [u, v] in &segments {
        let (on_core, on_poly, distance) =
            closest_points_of_segments(c0, c1, vertices[*u as usize], vertices[*v as usize]);
        if distance < closest.0 {
            closest = (distance, on_poly, on_core);
        }
    }
    let (distance, on_poly, on_core) = closest;
    // (The segments' closest points may lie a round-off apart while their distance,
    // computed on the lines, is not zero: no direction then.)
    if let Some(u) = (on_core - on_poly).try_normalize() {
        gap = gap.max(gap_along(u));
    }
    if gap <= 0.0 { gap } else { distance }
}
