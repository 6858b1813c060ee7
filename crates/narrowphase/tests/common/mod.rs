//! Random pairs shared by the narrow-phase tests: seeded, so a failure names its case.
#![allow(dead_code)]

use glam::{DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape};
use sepax_narrowphase::oracle::{OracleContact, vertex_projection_sat};

/// The placements every randomized test cycles through.
#[derive(Clone, Copy, Debug)]
pub enum Placement {
    /// Random rotations, centres up to 1.2 × the sum of bounding radii apart.
    General,
    /// Both centres at the same point.
    CoincidentCentres,
    /// Rotations equal up to quarter turns: faces parallel.
    ParallelFaces,
    /// a turned 45° about x, b 45° about y: edges meet edges.
    EdgeOnEdge,
    /// Moved along the oracle's axis until the gap is within ±1e-3 of the size.
    NearTouching,
}

pub const PLACEMENTS: [Placement; 5] = [
    Placement::General,
    Placement::CoincidentCentres,
    Placement::ParallelFaces,
    Placement::EdgeOnEdge,
    Placement::NearTouching,
];

pub fn random_cuboid(rng: &mut Rng) -> Shape {
    let h = rng.vec3(Vec3::splat(0.1), Vec3::splat(2.0));
    Shape::from(Cuboid::try_from_half_extents(h).unwrap())
}

pub fn cuboid_as_hull(shape: &Shape) -> Shape {
    match shape {
        Shape::Cuboid(c) => Shape::from(ConvexHull::cuboid(c.half_extents()).unwrap()),
        other => other.clone(),
    }
}

fn quarter_turns(rng: &mut Rng) -> Quat {
    let axes = [Vec3::X, Vec3::Y, Vec3::Z];
    let mut q = Quat::IDENTITY;
    for _ in 0..3 {
        let axis = axes[rng.below(3)];
        q = Quat::from_axis_angle(axis, std::f32::consts::FRAC_PI_2 * rng.below(4) as f32) * q;
    }
    q
}

/// Poses for a pair of shapes under a placement.
pub fn place(rng: &mut Rng, a: &Shape, b: &Shape, placement: Placement) -> (Pose, Pose) {
    let reach = a.bounding_radius() + b.bounding_radius();
    let origin = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
    match placement {
        Placement::General => {
            let pa = Pose::new(origin, rng.rotation());
            let offset = rng.unit_vec3() * rng.range(0.0, 1.2 * reach);
            (pa, Pose::new(origin + offset, rng.rotation()))
        }
        Placement::CoincidentCentres => (
            Pose::new(origin, rng.rotation()),
            Pose::new(origin, rng.rotation()),
        ),
        Placement::ParallelFaces => {
            let base = rng.rotation();
            let offset = rng.unit_vec3() * rng.range(0.0, reach);
            (
                Pose::new(origin, base),
                Pose::new(origin + offset, base * quarter_turns(rng)),
            )
        }
        Placement::EdgeOnEdge => {
            let base = rng.rotation();
            let jitter = rng.range(-1e-3, 1e-3);
            let ra = base * Quat::from_rotation_x(std::f32::consts::FRAC_PI_4 + jitter);
            let rb = base * Quat::from_rotation_y(std::f32::consts::FRAC_PI_4 - jitter);
            let offset = base * Vec3::new(0.0, 0.0, rng.range(0.2, 1.0) * reach);
            (Pose::new(origin, ra), Pose::new(origin + offset, rb))
        }
        Placement::NearTouching => {
            let (pa, mut pb) = place(rng, a, b, Placement::General);
            if let Some(o) = vertex_projection_sat(a, &pa, b, &pb) {
                let size = a.bounding_radius().min(b.bounding_radius());
                let target = rng.range(-1e-3, 1e-3) * size;
                let shift = (target as f64 - o.separation) * o.normal;
                pb.translation += shift.as_vec3();
            }
            (pa, pb)
        }
    }
}

/// `(min, max)` of `n · x` over a shape at a pose, in f64 (vertices, or centre ± radius).
pub fn extent(s: &Shape, p: &Pose, n: DVec3) -> (f64, f64) {
    let to_world = |v: Vec3| p.rotation.as_dquat() * v.as_dvec3() + p.translation.as_dvec3();
    let verts: Vec<Vec3> = match s {
        Shape::Cuboid(c) => c.vertices().to_vec(),
        Shape::ConvexHull(h) => h.vertices().to_vec(),
        Shape::Sphere(sp) => {
            let c = to_world(Vec3::ZERO).dot(n);
            let r = sp.radius() as f64 * n.length();
            return (c - r, c + r);
        }
    };
    verts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = to_world(*v).dot(n);
            (lo.min(d), hi.max(d))
        })
}

/// The gap of the pair along `normal` (a→b): `min_b − max_a`.
pub fn gap_along(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, normal: DVec3) -> f64 {
    let (_, max_a) = extent(a, pa, normal);
    let (min_b, _) = extent(b, pb, normal);
    min_b - max_a
}

/// A size for relative tolerances.
pub fn scale(a: &Shape, b: &Shape) -> f64 {
    (a.bounding_radius() + b.bounding_radius()) as f64
}

pub fn oracle(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> OracleContact {
    vertex_projection_sat(a, pa, b, pb).expect("boxes and hulls")
}

/// Signed distance of a world point to a shape, as max over face planes (exact inside,
/// a lower bound outside): enough to check "inside within tolerance".
pub fn plane_distance(s: &Shape, pose: &Pose, world: Vec3) -> f32 {
    let p = pose.inverse_transform_point(world);
    match s {
        Shape::Cuboid(c) => (p.abs() - c.half_extents()).max_element(),
        Shape::ConvexHull(h) => h
            .planes()
            .iter()
            .map(|pl| pl.signed_distance(p))
            .fold(f32::NEG_INFINITY, f32::max),
        Shape::Sphere(sp) => p.length() - sp.radius(),
    }
}

/// A hull of `n` random points: on an ellipsoid (radii 0.2..2), or in a box when
/// `rng` says so, so that hulls with merged (quad) faces also appear.
pub fn random_hull(rng: &mut Rng, n: usize) -> Shape {
    let radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0));
    let in_box = rng.below(4) == 0;
    loop {
        let points: Vec<Vec3> = (0..n)
            .map(|_| {
                if in_box {
                    rng.vec3(-radii, radii)
                } else {
                    rng.unit_vec3() * radii
                }
            })
            .collect();
        if let Ok(h) = ConvexHull::try_from_points(&points) {
            return Shape::from(h);
        }
    }
}
