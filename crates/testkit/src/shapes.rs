//! Random 3D shapes: the boxes, hulls and spheres every pair set and scene is made of.
//!
//! Each generator draws from the [`Rng`] it is given, in a fixed order, so the same
//! seed gives the same shape everywhere. The hull generators retry on a degenerate
//! point cloud (which random clouds of 8+ points never are in practice), so they always
//! return a hull.
//!
//! | generator | shape | used by |
//! |---|---|---|
//! | [`soup_box`] | box, sides 0.5–1.5 | the world scenes ([`scenes`](crate::scenes)) |
//! | [`pair_cuboid`] | box, half extents 0.4–0.6 | the benches' box pairs ([`pairs`](crate::pairs)) |
//! | [`random_cuboid`] | box, half extents 0.1–2 | the narrow-phase oracle tests |
//! | [`ball_hull`] | hull of n points at radius lo–hi from the centre | scenes (24 points, 0.3–0.6), bench pairs (0.45–0.55) |
//! | [`ellipsoid_hull`], [`ellipsoid_hull_with`] | hull of n points on an ellipsoid or in a box (given radii) | the narrow-phase oracle tests |
//! | [`random_capsule`] | capsule, half height 0–2 (0 one time in 8), radius 0.05–1 | the narrow-phase capsule tests |
//! | [`ball_points`] | the point cloud of [`ball_hull`] | the stacking scenes' centred hulls ([`stacks`](crate::stacks)) |
//! | [`bent_block`] | hull of a box's 8 corners moved by up to 2e-6 of its least width: six bent quads | the distance and hull oracle tests |
//!
//! [`face_flatness`] measures how far a hull's merged faces bend, which the oracle tests
//! allow on top of their tolerances.

use glam::{DQuat, DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

/// A box of random sides in `[0.5, 1.5]`, with its mean side (the scenes' size).
pub fn soup_box(rng: &mut Rng) -> (Shape, f32) {
    let size = rng.vec3(Vec3::splat(0.5), Vec3::splat(1.5));
    // Sizes in [0.5, 1.5] are positive and finite: the constructor cannot fail.
    let cuboid = Cuboid::try_from_size(size).unwrap_or_else(|_| unreachable!());
    (Shape::from(cuboid), (size.x + size.y + size.z) / 3.0)
}

/// A box of random half extents in `[0.4, 0.6]`: the benches' pairs of similar boxes.
pub fn pair_cuboid(rng: &mut Rng) -> Shape {
    let half = rng.vec3(Vec3::splat(0.4), Vec3::splat(0.6));
    Shape::from(Cuboid::try_from_half_extents(half).unwrap_or_else(|_| unreachable!()))
}

/// A box of random half extents in `[0.1, 2]`: thin plates to fat blocks.
pub fn random_cuboid(rng: &mut Rng) -> Shape {
    let half = rng.vec3(Vec3::splat(0.1), Vec3::splat(2.0));
    Shape::from(Cuboid::try_from_half_extents(half).unwrap_or_else(|_| unreachable!()))
}

/// A capsule of random half height in `[0, 2]` (exactly 0, a ball, one time in 8) and
/// radius in `[0.05, 1]`: needles to pills.
pub fn random_capsule(rng: &mut Rng) -> Shape {
    let half_height = if rng.below(8) == 0 {
        0.0
    } else {
        rng.range(0.0, 2.0)
    };
    let radius = rng.range(0.05, 1.0);
    Shape::from(Capsule::try_new(half_height, radius).unwrap_or_else(|_| unreachable!()))
}

/// The same box as a convex hull (other shapes unchanged), to run the hull path on
/// box data.
pub fn cuboid_as_hull(shape: &Shape) -> Shape {
    match shape {
        Shape::Cuboid(c) => {
            Shape::from(ConvexHull::cuboid(c.half_extents()).unwrap_or_else(|_| unreachable!()))
        }
        other => other.clone(),
    }
}

/// A block of half extents 0.2–2 whose 8 corners are each moved off the box by up to
/// 2e-6 of its least width: the hull builder merges each side's two triangles back into a quad
/// (within its tolerance), bent by the moves, so the hull of its vertices has an edge
/// across each quad (the merged-away diagonal) that the hull's adjacency lacks.
pub fn bent_block(rng: &mut Rng) -> ConvexHull {
    let half = rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0));
    let jitter = 4e-6 * half.min_element();
    let corners: Vec<Vec3> = (0..8)
        .map(|c| {
            let s = |bit: usize| if c >> bit & 1 == 1 { 1.0 } else { -1.0 };
            Vec3::new(s(0) * half.x, s(1) * half.y, s(2) * half.z)
                + rng.vec3(Vec3::splat(-jitter), Vec3::splat(jitter))
        })
        .collect();
    let hull = ConvexHull::try_from_points(&corners).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(hull.face_count(), 6, "the sides merge back into quads");
    hull
}

/// A sphere of radius 0.5.
pub fn half_unit_sphere() -> Shape {
    Shape::from(Sphere::try_new(0.5).unwrap_or_else(|_| unreachable!()))
}

/// `n` points in random directions, each at a random distance in `[lo, hi)` from the
/// origin (direction drawn first, then distance).
pub fn ball_points(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<Vec3> {
    (0..n)
        .map(|_| rng.unit_vec3() * rng.range(lo, hi))
        .collect()
}

/// The hull of [`ball_points`]`(n, lo, hi)`; a degenerate cloud is drawn again.
pub fn ball_hull(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> ConvexHull {
    loop {
        if let Ok(hull) = ConvexHull::try_from_points(&ball_points(rng, n, lo, hi)) {
            return hull;
        }
    }
}

/// A hull of `n` random points: on an ellipsoid (radii 0.2–2), or, one time in four,
/// in the box of those radii, so that hulls with merged (quad) faces also appear. A
/// degenerate cloud is drawn again (same radii).
pub fn ellipsoid_hull(rng: &mut Rng, n: usize) -> Shape {
    let radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0));
    ellipsoid_hull_with(rng, n, radii)
}

/// The resting shapes of the mesh oracle tests, in turn by `i`: a box with half extents
/// in `[0.05, 1]`, an [`ellipsoid_hull`] of 8 to 24 points, a [`bent_block`].
pub fn box_hull_or_bent_block(rng: &mut Rng, i: usize) -> Shape {
    match i % 3 {
        0 => {
            let half = rng.vec3(Vec3::splat(0.05), Vec3::splat(1.0));
            Shape::from(Cuboid::try_from_half_extents(half).unwrap_or_else(|_| unreachable!()))
        }
        1 => {
            let points = 8 + rng.below(17);
            ellipsoid_hull(rng, points)
        }
        _ => Shape::from(bent_block(rng)),
    }
}

/// A rotation that rests `shape` on a surface whose outward normal is `up`: a face of a
/// hull or box, or (one time in two, and for other shapes) a random direction, turned to
/// `−up`; spun about `up`; then tilted by 1e-9 to 1e-2 rad about a random direction
/// across `up` (`across` turned about `up`). The mesh oracle tests' resting shapes.
pub fn resting_rotation(rng: &mut Rng, shape: &Shape, up: DVec3, across: DVec3) -> Quat {
    let down: DVec3 = match (shape, rng.below(2)) {
        (Shape::ConvexHull(h), 0) => h.planes()[rng.below(h.face_count())].normal.as_dvec3(),
        (Shape::Cuboid(_), 0) => {
            DVec3::AXES[rng.below(3)] * if rng.below(2) == 0 { 1.0 } else { -1.0 }
        }
        _ => rng.unit_vec3().as_dvec3(),
    };
    let turn = |rng: &mut Rng| std::f64::consts::TAU * f64::from(rng.range(0.0, 1.0));
    let align = DQuat::from_rotation_arc(down, -up);
    let spin = DQuat::from_axis_angle(up, turn(rng));
    let tilt_axis = DQuat::from_axis_angle(up, turn(rng)) * across;
    let tilt = 10f64.powf(f64::from(rng.range(-9.0, -2.0)));
    (DQuat::from_axis_angle(tilt_axis, tilt) * spin * align)
        .as_quat()
        .normalize()
}

/// [`ellipsoid_hull`] with given radii (a caller that flattens some): `n` points on the
/// ellipsoid or, one time in four, in its box; a degenerate cloud is drawn again.
pub fn ellipsoid_hull_with(rng: &mut Rng, n: usize, radii: Vec3) -> Shape {
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

/// How far a hull's vertices lie behind the planes of the faces they belong to, at most
/// (`0` for other shapes): its bend. The hull builder merges nearly coplanar triangles
/// into one face while its vertices stay within the merge tolerance (`1e-5` of the
/// hull's diagonal) of a plane, and the queries measure a face by that plane, which
/// supports the vertices: a point over a bent face is up to this much nearer the plane
/// than the hull of the vertices. A hull of triangles has round-off here. The oracle
/// tests allow it on top of their tolerances.
pub fn face_flatness(shape: &Shape) -> f64 {
    let Shape::ConvexHull(hull) = shape else {
        return 0.0;
    };
    let mut worst = 0.0f64;
    for (f, plane) in hull.planes().iter().enumerate() {
        for &v in hull.face(f) {
            let v = hull.vertices()[v as usize].as_dvec3();
            worst = worst.max(f64::from(plane.offset) - plane.normal.as_dvec3().dot(v));
        }
    }
    worst
}

/// The corners of face `f` of `hull`, in its loop's order, in f64 (the hull's frame).
pub fn face_corners(hull: &ConvexHull, f: usize) -> Vec<glam::DVec3> {
    (hull.face(f).iter())
        .map(|&k| hull.vertices()[k as usize].as_dvec3())
        .collect()
}
