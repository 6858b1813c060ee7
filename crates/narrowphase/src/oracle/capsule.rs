//! The f64 oracle of capsule pairs: the exact separation of a capsule's core segment and
//! the other shape, minus the radii.
//!
//! Written for obviousness, not speed, and independent of the fast queries' math:
//! * **point–segment**: the projection parameter clamped to `[0, 1]`;
//! * **segment–segment**: the smallest of the four endpoint–segment distances and, when
//!   the lines' closest points fall inside both segments, the distance between those;
//! * **segment–polytope** (box or hull): the vertex-projection SAT of the segment (its
//!   two endpoints) against the polytope's vertices on **every** face normal and the
//!   cross product of the segment with **every** edge. A largest gap `g ≤ 0` means they
//!   meet and `−g` is the penetration; otherwise the distance is the smallest of the
//!   endpoints' distances to the polytope ([`signed_distance`])
//!   and the segment's distances to every edge (the closest pair of two convex polytopes
//!   is a vertex and a face, or two edges).
//!
//! Everything runs in world coordinates measured from the capsule's position.

use super::{DEGENERATE_CROSS, signed_distance};
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
            segment_polytope(c0, c1, (&hull, &axes), other, other_pose, origin)
        }
        Shape::ConvexHull(h) => {
            let normals: Vec<DVec3> = h.planes().iter().map(|p| p.normal.as_dvec3()).collect();
            segment_polytope(c0, c1, (h, &normals), other, other_pose, origin)
        }
        // Not a solid: see `oracle::mesh::mesh_separation`.
        Shape::TriMesh(_) => return f64::NAN,
    };
    core - radius
}

/// The signed distance of the segment `c0 c1` (relative to `origin`) and the posed
/// polytope `shape` (`hull` is its polyhedron, `normals` its face normals in its frame,
/// either sense).
fn segment_polytope(
    c0: DVec3,
    c1: DVec3,
    (hull, normals): (&ConvexHull, &[DVec3]),
    shape: &Shape,
    pose: &Pose,
    origin: DVec3,
) -> f64 {
    let q = pose.rotation.as_dquat().normalize();
    let shift = pose.translation.as_dvec3() - origin;
    let vertices: Vec<DVec3> = hull
        .vertices()
        .iter()
        .map(|v| q * v.as_dvec3() + shift)
        .collect();
    let edges: Vec<(DVec3, DVec3)> = hull
        .edges()
        .iter()
        .map(|e| {
            (
                vertices[e.vertices[0] as usize],
                vertices[e.vertices[1] as usize],
            )
        })
        .collect();
    let d = c1 - c0;
    let mut gap = f64::NEG_INFINITY;
    let mut consider = |axis: DVec3| {
        let (lo, hi) = vertices
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                let x = v.dot(axis);
                (lo.min(x), hi.max(x))
            });
        let (s0, s1) = (c0.dot(axis), c1.dot(axis));
        gap = gap.max(s0.min(s1) - hi).max(lo - s0.max(s1));
    };
    for normal in normals {
        consider((q * *normal).normalize());
    }
    // Edge directions from the polytope's own vertices: moved first, an edge 1e-22 long
    // 7e-6 from the origin is lost to the sum's round-off (and with it the axis that
    // separates a thin box).
    for e in hull.edges() {
        let [v0, v1] = e.vertices.map(|v| hull.vertices()[v as usize].as_dvec3());
        let e = q * (v1 - v0);
        let c = d.cross(e);
        if c.length() > DEGENERATE_CROSS * d.length() * e.length() {
            consider(c.normalize());
        }
    }
    if gap <= 0.0 {
        return gap;
    }
    let world_origin = |p: DVec3| p + origin;
    let mut distance = signed_distance(shape, pose, world_origin(c0)).min(signed_distance(
        shape,
        pose,
        world_origin(c1),
    ));
    for (e0, e1) in &edges {
        distance = distance.min(segment_segment_distance(c0, c1, *e0, *e1));
    }
    distance
}
