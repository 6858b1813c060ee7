//! The slow, obviously-correct twin of the SAT queries: the seeds' own method.
//!
//! Project **every vertex** of both shapes, in `f64`, on **every** candidate axis: each
//! face normal of a and of b, and the cross product of every edge direction of a with
//! every edge direction of b (no Gauss-map pruning, so the set is a superset of what
//! the fast test looks at). For each axis the gap is
//! `max(min_b − max_a, min_a − max_b)`; the shapes are apart iff some gap is positive,
//! and otherwise the penetration depth is `−max gap`. Used by the tests, by
//! `stress --check` and by anyone who doubts an answer. Spheres have no vertices and are
//! not covered by it; they have closed forms instead:
//!
//! * [`signed_distance`]: from a point to a posed box (clamp the point into the box),
//!   hull (largest plane distance inside; outside, the nearest face polygon or edge)
//!   sphere (centre distance) or capsule (core segment distance), in `f64`;
//! * [`sphere_separation`]: a sphere against any shape, the signed distance of its
//!   centre minus its radius;
//! * [`capsule_separation`] (in [`capsule`]): a capsule against any shape, from the
//!   exact distance or penetration of its core segment (segment–point, segment–segment,
//!   segment–polytope) minus the radii.
//!
//! [`triangle`] holds the one-sided twins of the mesh-triangle queries.
//!
//! [`distance`] is the twin of the GJK distance query: the exact gap, closest points
//! and normal of two convex shapes by enumerating their core features (vertex against
//! shape, edge against edge), with a lower bound that proves each answer.
//!
//! [`gap_along`] measures a pair's gap along a given normal (`min_b − max_a` over the
//! vertices, or centre ± radius), the check that a reported normal really is an axis
//! of that depth.

pub mod capsule;
pub mod distance;

pub use capsule::capsule_separation;
use glam::{DVec3, Vec3};
use sepax_geometry::{ConvexHull, Pose, Shape};

pub mod mesh;
pub mod triangle;

/// What the oracle found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleContact {
    /// The largest gap over all axes: positive = apart, negative = penetration depth.
    pub separation: f64,
    /// The axis of that gap, unit, world frame, pointing from a to b.
    pub normal: DVec3,
}

/// Cross products shorter than this fraction of `|e1||e2|` are skipped as degenerate
/// (parallel edges have no cross-product axis). In f64 a cross product of edges `φ`
/// apart has its direction to about 1e-16 / φ, so edges 1e-9 apart still give an axis
/// good to 1e-7; skipping more (this was 1e-6) drops real candidates: a hull edge
/// 1.7e-7 off a triangle edge has the axis that decides, and without it the oracle
/// said 1.6e-3 too deep.
pub const DEGENERATE_CROSS: f64 = 1e-9;

struct Solid {
    vertices: Vec<DVec3>,
    normals: Vec<DVec3>,
    edges: Vec<DVec3>,
}

/// A pose's rotation in `f64`, normalised: an accepted rotation is unit only within
/// `1e-3` ([`Pose::is_valid`]), and the queries read it as the rotation it stands for
/// (see `FrameF64`). Rotating by the quaternion as given would scale every offset by
/// `|q|²`: a box 12 long, turned by an f32 quaternion `2e-7` off unit, came out `6e-6`
/// deeper in the oracle than along the same normal in [`gap_along`].
pub(crate) fn unit_rotation(pose: &Pose) -> glam::DQuat {
    pose.rotation.as_dquat().normalize()
}

fn world(v: Vec3, pose: &Pose) -> DVec3 {
    unit_rotation(pose) * v.as_dvec3() + pose.translation.as_dvec3()
}

fn solid(shape: &Shape, pose: &Pose) -> Option<Solid> {
    let q = unit_rotation(pose);
    match shape {
        Shape::Sphere(_) | Shape::Capsule(_) | Shape::TriMesh(_) => None,
        Shape::Cuboid(c) => {
            let axes = [DVec3::X, DVec3::Y, DVec3::Z].map(|a| q * a);
            Some(Solid {
                vertices: c.vertices().iter().map(|v| world(*v, pose)).collect(),
                normals: axes.to_vec(),
                edges: axes.to_vec(),
            })
        }
        Shape::ConvexHull(h) => Some(Solid {
            vertices: h.vertices().iter().map(|v| world(*v, pose)).collect(),
            normals: h.planes().iter().map(|p| q * p.normal.as_dvec3()).collect(),
            edges: h
                .edges()
                .iter()
                .map(|e| {
                    q * (h.vertices()[e.vertices[1] as usize]
                        - h.vertices()[e.vertices[0] as usize])
                        .as_dvec3()
                })
                .collect(),
        }),
    }
}

fn interval(vertices: &[DVec3], axis: DVec3) -> (f64, f64) {
    vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = v.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// The vertex-projection SAT of two boxes or hulls; `None` when either is a sphere, a
/// capsule or a mesh (see [`mesh::mesh_separation`]), or a pose is invalid.
pub fn vertex_projection_sat(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
) -> Option<OracleContact> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    let (sa, sb) = (solid(a, pose_a)?, solid(b, pose_b)?);
    let mut best = OracleContact {
        separation: f64::NEG_INFINITY,
        normal: DVec3::X,
    };
    let mut consider = |axis: DVec3| {
        let (min_a, max_a) = interval(&sa.vertices, axis);
        let (min_b, max_b) = interval(&sb.vertices, axis);
        let (gap, normal) = if min_b - max_a >= min_a - max_b {
            (min_b - max_a, axis)
        } else {
            (min_a - max_b, -axis)
        };
        if gap > best.separation {
            best = OracleContact {
                separation: gap,
                normal,
            };
        }
    };
    for n in sa.normals.iter().chain(&sb.normals) {
        consider(n.normalize());
    }
    for ea in &sa.edges {
        for eb in &sb.edges {
            let c = ea.cross(*eb);
            if c.length() > DEGENERATE_CROSS * ea.length() * eb.length() {
                consider(c.normalize());
            }
        }
    }
    Some(best)
}

/// Signed distance from a world point to a posed shape, in `f64`: negative inside.
///
/// Box: take the point into the box's frame; outside, the length of its offset past
/// the half extents (`max(|p| − h, 0)`); inside, the largest `|p_i| − h_i` (minus the
/// distance to the nearest face). Hull: inside (every plane distance ≤ 0) the largest
/// plane distance; outside, the smallest distance to a face polygon the point projects
/// into (from the front) or to an edge segment. Sphere: centre distance minus radius.
/// Capsule: distance to the core segment minus radius. Triangle mesh: the distance to
/// its nearest triangle (a surface has no inside; every triangle scanned).
pub fn signed_distance(shape: &Shape, pose: &Pose, point: DVec3) -> f64 {
    let offset = point - pose.translation.as_dvec3();
    let local = || unit_rotation(pose).inverse() * offset;
    match shape {
        Shape::Cuboid(c) => {
            let p = local();
            let h = c.half_extents().as_dvec3();
            let outside = (p.abs() - h).max(DVec3::ZERO);
            if outside.length_squared() > 0.0 {
                outside.length()
            } else {
                (p.abs() - h).max_element()
            }
        }
        Shape::ConvexHull(hull) => hull_distance(hull, local()),
        Shape::Sphere(s) => offset.length() - s.radius() as f64,
        Shape::Capsule(c) => {
            let (bottom, top) = c.segment();
            let (p0, p1) = (bottom.as_dvec3(), top.as_dvec3());
            capsule::point_segment_distance(local(), p0, p1) - c.radius() as f64
        }
        // A surface has no inside: the distance to the nearest triangle, never negative.
        Shape::TriMesh(m) => (0..m.triangle_count() as u32)
            .map(|i| {
                (triangle::closest_point_on_triangle(&m.triangle(i), pose, point) - point).length()
            })
            .fold(f64::INFINITY, f64::min),
    }
}

/// Signed distance from a point in the hull's frame to the hull (see
/// [`signed_distance`]).
fn hull_distance(hull: &ConvexHull, p: DVec3) -> f64 {
    let v = |i: u32| hull.vertices()[i as usize].as_dvec3();
    let plane_max = hull
        .planes()
        .iter()
        .map(|pl| pl.normal.as_dvec3().dot(p) - pl.offset as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    if plane_max <= 0.0 {
        return plane_max;
    }
    let mut best = f64::INFINITY;
    for (f, pl) in hull.planes().iter().enumerate() {
        let n = pl.normal.as_dvec3();
        let d = n.dot(p) - pl.offset as f64;
        let q = p - n * d;
        let face = hull.face(f);
        let inside = (0..face.len()).all(|k| {
            let (a, b) = (v(face[k]), v(face[(k + 1) % face.len()]));
            (b - a).cross(n).dot(q - a) <= 0.0
        });
        if inside && d >= 0.0 {
            best = best.min(d);
        }
    }
    for e in hull.edges() {
        let (a, b) = (v(e.vertices[0]), v(e.vertices[1]));
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        best = best.min((a + (b - a) * t - p).length());
    }
    best
}

/// The exact separation of a sphere of `radius` at `sphere_pose` and any posed shape:
/// positive apart, negative penetrating (minus the depth).
pub fn sphere_separation(radius: f32, sphere_pose: &Pose, other: &Shape, other_pose: &Pose) -> f64 {
    signed_distance(other, other_pose, sphere_pose.translation.as_dvec3()) - radius as f64
}

/// `(min, max)` of `n · (x − origin)` over a posed shape, in `f64` (its vertices, or
/// centre ± radius for a sphere, core endpoints ± radius for a capsule; every vertex
/// of a mesh).
fn extent(s: &Shape, p: &Pose, n: DVec3, origin: DVec3) -> (f64, f64) {
    let q = unit_rotation(p);
    let shift = p.translation.as_dvec3() - origin;
    let to_world = |v: Vec3| q * v.as_dvec3() + shift;
    let vertices: Vec<Vec3> = match s {
        Shape::Cuboid(c) => c.vertices().to_vec(),
        Shape::ConvexHull(h) => h.vertices().to_vec(),
        Shape::TriMesh(m) => m.vertices().to_vec(),
        Shape::Sphere(sphere) => {
            let c = to_world(Vec3::ZERO).dot(n);
            let r = sphere.radius() as f64 * n.length();
            return (c - r, c + r);
        }
        Shape::Capsule(capsule) => {
            let (bottom, top) = capsule.segment();
            let (e0, e1) = (to_world(bottom).dot(n), to_world(top).dot(n));
            let r = capsule.radius() as f64 * n.length();
            return (e0.min(e1) - r, e0.max(e1) + r);
        }
    };
    vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = to_world(*v).dot(n);
            (lo.min(d), hi.max(d))
        })
}

/// The gap of a pair along `normal` (a → b): `min_b − max_a` over both shapes'
/// vertices (centre ± radius for spheres, core endpoints ± radius for capsules), in `f64`, measured about a's position so
/// that bodies far from the origin keep `f64`'s precision. A contact of depth `d` along
/// `normal` has `gap_along ≈ −d`.
pub fn gap_along(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, normal: DVec3) -> f64 {
    let origin = pose_a.translation.as_dvec3();
    extent(b, pose_b, normal, origin).0 - extent(a, pose_a, normal, origin).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use sepax_geometry::Cuboid;
    use sepax_geometry::rng::Rng;

    /// A rotation off unit length by up to `4e-4` (the pipeline accepts `1e-3`) is read
    /// as the unit rotation it stands for, as the queries read it: the oracle's
    /// separation is the gap along its own normal to f64 round-off, and the oracle's
    /// answer and the signed distance are those of the unit pose to the f32 rounding of
    /// the scaled quaternion (`1e-6` of the size; unnormalised, the offsets scaled by
    /// `|q|²` moved them by up to `8e-4` of it).
    #[test]
    fn a_rotation_off_unit_is_read_as_the_unit_rotation() {
        let mut rng = Rng::new(0x0a_c1e);
        let shape = |rng: &mut Rng| -> Shape {
            let h = rng.vec3(Vec3::splat(0.1), Vec3::splat(10.0));
            if rng.below(2) == 0 {
                Cuboid::try_from_half_extents(h).unwrap().into()
            } else {
                let points: Vec<Vec3> = (0..12).map(|_| rng.unit_vec3() * h).collect();
                ConvexHull::try_from_points(&points).unwrap().into()
            }
        };
        let off_unit = |rng: &mut Rng, q: Quat| {
            let s = rng.range(1.0 - 4e-4, 1.0 + 4e-4);
            Quat::from_xyzw(q.x * s, q.y * s, q.z * s, q.w * s)
        };
        for case in 0..2_000 {
            let (a, b) = (shape(&mut rng), shape(&mut rng));
            let centre = rng.vec3(Vec3::splat(-50.0), Vec3::splat(50.0));
            let offset = rng.vec3(Vec3::splat(-8.0), Vec3::splat(8.0));
            let unit = [
                Pose::new(centre, rng.rotation()),
                Pose::new(centre + offset, rng.rotation()),
            ];
            let off = unit.map(|p| Pose::new(p.translation, off_unit(&mut rng, p.rotation)));
            assert!(off[0].is_valid() && off[1].is_valid());
            let size = (a.bounding_radius() + b.bounding_radius()) as f64;
            let read = vertex_projection_sat(&a, &off[0], &b, &off[1]).unwrap();
            let along = gap_along(&a, &off[0], &b, &off[1], read.normal);
            assert!(
                (along - read.separation).abs() <= 1e-12 * size,
                "case {case}: separation {} but the gap along its normal {along}",
                read.separation
            );
            let exact = vertex_projection_sat(&a, &unit[0], &b, &unit[1]).unwrap();
            assert!(
                (exact.separation - read.separation).abs() <= 1e-6 * size,
                "case {case}: {exact:?} against {read:?}"
            );
            let point = (centre + rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0))).as_dvec3();
            let d = [unit[0], off[0]].map(|pose| signed_distance(&a, &pose, point));
            assert!((d[0] - d[1]).abs() <= 1e-6 * size, "case {case}: {d:?}");
        }
    }
}
