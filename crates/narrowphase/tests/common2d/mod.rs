//! Seeded 2D scenes shared by the dim2 tests: random boxes and polygons, and pair
//! placements that stress SAT (near touching, coincident centres, parallel edges).
#![allow(dead_code)]

use glam::{DVec2, Vec2};
use sepax_geometry::dim2::{Circle, ConvexPolygon, Obb2, Pose2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::oracle::{sat_oracle, world_vertices};
use std::f32::consts::PI;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Box,
    Polygon,
    Circle,
}

pub fn random_box(rng: &mut Rng) -> Shape2 {
    let center = if rng.below(2) == 0 {
        Vec2::ZERO
    } else {
        Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5))
    };
    let size = Vec2::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0));
    Shape2::Obb2(Obb2::try_from_angle(center, size, rng.range(-PI, PI)).unwrap())
}

/// A regular n-gon (parallel edges for even n) or the hull of a random cloud.
pub fn random_polygon(rng: &mut Rng) -> Shape2 {
    loop {
        let r = rng.range(0.2, 1.2);
        let pts: Vec<Vec2> = if rng.below(3) == 0 {
            let n = 3 + rng.below(6);
            let phase = rng.range(0.0, PI);
            (0..n)
                .map(|k| Vec2::from_angle(phase + k as f32 * 2.0 * PI / n as f32) * r)
                .collect()
        } else {
            let n = 3 + rng.below(10);
            (0..n)
                .map(|_| Vec2::from_angle(rng.range(-PI, PI)) * r * rng.range(0.3, 1.0))
                .collect()
        };
        if let Ok(p) = ConvexPolygon::try_hull(&pts) {
            return Shape2::Polygon(p);
        }
    }
}

pub fn random_circle(rng: &mut Rng) -> Shape2 {
    let c = Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    Shape2::Circle(Circle::try_new(c, rng.range(0.1, 1.0)).unwrap())
}

pub fn random_shape(rng: &mut Rng, kind: Kind) -> Shape2 {
    match kind {
        Kind::Box => random_box(rng),
        Kind::Polygon => random_polygon(rng),
        Kind::Circle => random_circle(rng),
    }
}

pub fn random_pose(rng: &mut Rng) -> Pose2 {
    Pose2::new(
        Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
        rng.range(-PI, PI),
    )
}

/// Which placement a pair got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Generic,
    CoincidentCenters,
    ParallelEdges,
    NearTouching,
}

pub struct Pair {
    pub a: Shape2,
    pub pose_a: Pose2,
    pub b: Shape2,
    pub pose_b: Pose2,
    pub placement: Placement,
}

/// A random pair of the given kinds. Near-touching pairs are moved along the oracle's
/// axis to within ±1e-4 of touching (only for box/polygon pairs).
pub fn random_pair(rng: &mut Rng, ka: Kind, kb: Kind) -> Pair {
    let a = random_shape(rng, ka);
    let b = random_shape(rng, kb);
    let pose_a = random_pose(rng);
    let ra = a.bounding_circle(&Pose2::IDENTITY);
    let rb = b.bounding_circle(&Pose2::IDENTITY);
    let center_a = pose_a.transform_point(ra.center);
    let placement = match rng.below(4) {
        0 => Placement::Generic,
        1 => Placement::CoincidentCenters,
        2 => Placement::ParallelEdges,
        _ => Placement::NearTouching,
    };
    let angle_b = match placement {
        Placement::ParallelEdges => pose_a.rotation.angle() + (rng.below(4) as f32) * 0.5 * PI,
        _ => rng.range(-PI, PI),
    };
    let offset = match placement {
        Placement::CoincidentCenters => Vec2::ZERO,
        _ => Vec2::from_angle(rng.range(-PI, PI)) * rng.range(0.0, 1.1) * (ra.radius + rb.radius),
    };
    // Put b's bounding-circle center at center_a + offset.
    let rot_b = sepax_geometry::dim2::Rot2::from_angle(angle_b);
    let mut pose_b = Pose2::from_parts(center_a + offset - rot_b.rotate(rb.center), rot_b);
    if placement == Placement::NearTouching && ka != Kind::Circle && kb != Kind::Circle {
        let o = oracle(&a, &pose_a, &b, &pose_b);
        let eps = rng.range(-1e-4, 1e-4) as f64;
        let shift = o.axis * (o.depth + eps);
        pose_b.translation += Vec2::new(shift.x as f32, shift.y as f32);
    }
    Pair {
        a,
        pose_a,
        b,
        pose_b,
        placement,
    }
}

pub fn oracle(
    a: &Shape2,
    pa: &Pose2,
    b: &Shape2,
    pb: &Pose2,
) -> sepax_narrowphase::dim2::oracle::OracleSat {
    sat_oracle(
        &world_vertices(a, pa).unwrap(),
        &world_vertices(b, pb).unwrap(),
    )
}

pub fn dvec(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// A size for tolerances: the sum of the two bounding radii.
pub fn pair_scale(p: &Pair) -> f64 {
    (p.a.bounding_circle(&Pose2::IDENTITY).radius + p.b.bounding_circle(&Pose2::IDENTITY).radius)
        as f64
}

/// Signed distance (f64) from a world point to a shape: negative inside.
pub fn signed_distance(shape: &Shape2, pose: &Pose2, p: Vec2) -> f64 {
    match shape {
        Shape2::Circle(c) => {
            (dvec(p) - dvec(pose.transform_point(c.center()))).length() - c.radius() as f64
        }
        _ => sepax_narrowphase::dim2::oracle::point_polygon_distance(
            dvec(p),
            &world_vertices(shape, pose).unwrap(),
        ),
    }
}

/// Directed face separations of every edge of `owner` against `other` (f64, world).
pub fn face_separations(owner: &[DVec2], other: &[DVec2]) -> Vec<f64> {
    (0..owner.len())
        .map(|i| {
            let e = owner[(i + 1) % owner.len()] - owner[i];
            let n = DVec2::new(e.y, -e.x).normalize();
            other
                .iter()
                .map(|w| n.dot(*w - owner[i]))
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// The two largest values of a list.
pub fn top_two(v: &[f64]) -> (f64, f64) {
    let mut s = v.to_vec();
    s.sort_by(|x, y| y.total_cmp(x));
    (s[0], s.get(1).copied().unwrap_or(f64::NEG_INFINITY))
}
