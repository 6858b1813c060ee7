//! Seeded pairs for the narrow-phase benches.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape, Sphere};
use sepax_narrowphase::oracle::vertex_projection_sat;

/// One pair of posed shapes.
#[derive(Clone)]
pub struct Pair {
    pub a: Shape,
    pub pose_a: Pose,
    pub b: Shape,
    pub pose_b: Pose,
}

/// How a pair touches.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// b rests on a's top face, penetrating 1% of its size: a face contact.
    Resting,
    /// Centres 0.3 × size apart in a random direction.
    Deep,
    /// Centres 3 × size apart: the first axis separates.
    Separated,
    /// Random orientations, moved along the oracle's axis to a 1% penetration.
    Touching,
}

fn cuboid(rng: &mut Rng) -> Shape {
    Shape::from(
        Cuboid::try_from_half_extents(rng.vec3(Vec3::splat(0.4), Vec3::splat(0.6))).unwrap(),
    )
}

/// A hull of `n` points on a sphere of radius 0.5 (plus noise), as the issue's
/// "n-point hull".
pub fn hull(rng: &mut Rng, n: usize) -> Shape {
    loop {
        let points: Vec<Vec3> = (0..n)
            .map(|_| rng.unit_vec3() * rng.range(0.45, 0.55))
            .collect();
        if let Ok(h) = ConvexHull::try_from_points(&points) {
            return Shape::from(h);
        }
    }
}

/// A sphere of radius 0.5.
pub fn sphere() -> Shape {
    Shape::from(Sphere::try_new(0.5).unwrap())
}

fn place(rng: &mut Rng, a: Shape, b: Shape, kind: Kind) -> Pair {
    let pose_a = Pose::new(
        rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)),
        rng.rotation(),
    );
    let size = a.bounding_radius() + b.bounding_radius();
    let pose_b = match kind {
        Kind::Resting => {
            let (ha, hb) = match (&a, &b) {
                (Shape::Cuboid(x), Shape::Cuboid(y)) => (x.half_extents(), y.half_extents()),
                _ => (Vec3::splat(0.5), Vec3::splat(0.5)),
            };
            let local = Vec3::new(
                rng.range(-0.2, 0.2),
                ha.y + hb.y - 0.01,
                rng.range(-0.2, 0.2),
            );
            Pose::new(
                pose_a.transform_point(local),
                pose_a.rotation * Quat::from_rotation_y(rng.range(-0.5, 0.5)),
            )
        }
        Kind::Deep => Pose::new(
            pose_a.translation + rng.unit_vec3() * 0.3 * size * 0.5,
            rng.rotation(),
        ),
        Kind::Separated => Pose::new(
            pose_a.translation + rng.unit_vec3() * 3.0 * size,
            rng.rotation(),
        ),
        Kind::Touching => {
            let mut pose_b = Pose::new(
                pose_a.translation + rng.unit_vec3() * 0.8 * size,
                rng.rotation(),
            );
            if let Some(o) = vertex_projection_sat(&a, &pose_a, &b, &pose_b) {
                let target = -0.01 * size as f64 * 0.5;
                pose_b.translation += ((target - o.separation) * o.normal).as_vec3();
            } else {
                // Spheres: put the surfaces 1% into each other along the centre line.
                let d = pose_b.translation - pose_a.translation;
                let reach = a.bounding_radius() + b.bounding_radius() * 0.98;
                pose_b.translation = pose_a.translation + d.normalize() * reach;
            }
            pose_b
        }
    };
    Pair {
        a,
        pose_a,
        b,
        pose_b,
    }
}

/// `count` box–box pairs of one kind.
pub fn box_pairs(seed: u64, count: usize, kind: Kind) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (cuboid(&mut rng), cuboid(&mut rng));
            place(&mut rng, a, b, kind)
        })
        .collect()
}

/// `count` touching pairs of `n`-point hulls.
pub fn hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (hull(&mut rng, n), hull(&mut rng, n));
            place(&mut rng, a, b, Kind::Touching)
        })
        .collect()
}

/// `count` touching sphere–hull pairs (`n`-point hulls).
pub fn sphere_hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let b = hull(&mut rng, n);
            place(&mut rng, sphere(), b, Kind::Touching)
        })
        .collect()
}
