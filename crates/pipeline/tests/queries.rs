//! Ray casts against exact answers, and region queries against a brute-force scan.
//!
//! Exact answers: analytic cases (sphere, box, hull) checked to the ulp range, and
//! random rays (at spheres, boxes, hulls and capsules) checked against a slow twin that finds the entry by bisection on the
//! point-inside test of each shape.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Aabb, Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere};
use sepax_pipeline::ray::ray_shape;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, WorldError};
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::world::{brute_force_ray, brute_force_region};

/// Point-inside test of a shape (closed), the slow twin's only primitive.
fn inside(shape: &Shape, pose: &Pose, p: Vec3) -> bool {
    let l = pose.inverse_transform_point(p);
    match shape {
        Shape::Sphere(s) => l.length() <= s.radius(),
        Shape::Cuboid(c) => l.abs().cmple(c.half_extents()).all(),
        Shape::ConvexHull(h) => h.planes().iter().all(|pl| pl.signed_distance(l) <= 0.0),
        Shape::Capsule(c) => {
            let core = Vec3::new(0.0, l.y.clamp(-c.half_height(), c.half_height()), 0.0);
            (l - core).length() <= c.radius()
        }
        Shape::TriMesh(_) => unreachable!("a surface has no inside; meshes are tested apart"),
    }
}

/// Entry of the ray by dense sampling then bisection; `None` if no sample is inside.
fn slow_entry(shape: &Shape, pose: &Pose, o: Vec3, d: Vec3, max_t: f32) -> Option<f32> {
    if inside(shape, pose, o) {
        return Some(0.0);
    }
    let steps = 4000;
    let mut prev = 0.0f32;
    for k in 1..=steps {
        let t = max_t * k as f32 / steps as f32;
        if inside(shape, pose, o + t * d) {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..40 {
                let mid = 0.5 * (lo + hi);
                if inside(shape, pose, o + mid * d) {
                    hi = mid
                } else {
                    lo = mid
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

#[test]
fn analytic_hits() {
    let ball = Shape::from(Sphere::try_new(2.0).unwrap());
    let pose = Pose::from_translation(Vec3::new(0.0, 10.0, 0.0));
    let hit = ray_shape(&ball, &pose, Vec3::ZERO, Vec3::Y * 0.5, 100.0).unwrap();
    assert_eq!(hit.t, 16.0); // dir of length 0.5: 8 units away is t = 16
    assert_eq!(hit.normal, -Vec3::Y);
    assert!(
        ray_shape(&ball, &pose, Vec3::ZERO, Vec3::Y, 7.9).is_none(),
        "beyond max_t"
    );
    assert!(ray_shape(&ball, &pose, Vec3::new(2.01, 0.0, 0.0), Vec3::Y, 100.0).is_none());
    // Grazing ray at x = 1: enters at y = 10 - √3.
    let graze = ray_shape(&ball, &pose, Vec3::new(1.0, 0.0, 0.0), Vec3::Y, 100.0).unwrap();
    assert!((graze.t - (10.0 - 3f32.sqrt())).abs() < 1e-5);
    assert!((graze.normal - Vec3::new(0.5, -(3f32.sqrt()) / 2.0, 0.0)).length() < 1e-5);

    let cuboid = Shape::from(Cuboid::try_from_half_extents(Vec3::new(1.0, 2.0, 3.0)).unwrap());
    let turned = Pose::new(
        Vec3::new(5.0, 0.0, 0.0),
        Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
    );
    // Turned 90° about y: the box's z half extent (3) now lies along world x.
    let hit = ray_shape(&cuboid, &turned, Vec3::ZERO, Vec3::X, 100.0).unwrap();
    assert!((hit.t - 2.0).abs() < 1e-5, "{}", hit.t);
    assert!((hit.normal + Vec3::X).length() < 1e-5);
    let hull = Shape::from(ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap());
    let hh = ray_shape(&hull, &turned, Vec3::ZERO, Vec3::X, 100.0).unwrap();
    assert!((hh.t - hit.t).abs() < 1e-5 && (hh.normal - hit.normal).length() < 1e-5);
    // Starting inside: t = 0, normal against the ray.
    let inner = ray_shape(&cuboid, &turned, Vec3::new(5.0, 0.0, 0.0), Vec3::Z, 10.0).unwrap();
    assert_eq!((inner.t, inner.normal), (0.0, -Vec3::Z));
}

#[test]
fn random_rays_match_the_bisection_twin() {
    let mut rng = Rng::new(17);
    let mut hits = 0;
    for i in 0..300 {
        let shape: Shape = match i % 4 {
            0 => Sphere::try_new(rng.range(0.3, 2.0)).unwrap().into(),
            1 => Cuboid::try_from_half_extents(rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0)))
                .unwrap()
                .into(),
            2 => scene_hull(&mut rng).into(),
            _ => Capsule::try_new(rng.range(0.0, 1.5), rng.range(0.2, 1.0))
                .unwrap()
                .into(),
        };
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)),
            rng.rotation(),
        );
        let o = rng.unit_vec3() * rng.range(3.0, 6.0);
        let target = rng.vec3(Vec3::splat(-1.5), Vec3::splat(1.5));
        let d = (target - o) * rng.range(0.5, 2.0);
        let max_t = 3.0;
        let fast = ray_shape(&shape, &pose, o, d, max_t);
        let slow = slow_entry(&shape, &pose, o, d, max_t);
        match (fast, slow) {
            (Some(f), Some(s)) => {
                hits += 1;
                assert!(
                    (f.t - s).abs() < 2e-4 * d.length().recip().max(1.0),
                    "case {i}: {} vs {s}",
                    f.t
                );
                // The normal is a unit outward normal at the entry: a step along it leaves.
                assert!((f.normal.length() - 1.0).abs() < 1e-5);
                assert!(f.normal.dot(d) <= 1e-6, "case {i}: normal faces the ray");
                let p = o + f.t * d;
                assert!(!inside(&shape, &pose, p + f.normal * 1e-3), "case {i}");
            }
            (None, None) => {}
            // Grazing rays may touch a sliver the sampling steps over, or vice versa.
            (f, s) => {
                let f_t = f.map(|h| h.t);
                let near = |t: f32| {
                    inside(&shape, &pose, o + t * d) || {
                        let p = o + t * d;
                        let l = pose.inverse_transform_point(p);
                        (shape.local_support(l) - l).length() < 1e-2
                    }
                };
                assert!(
                    f_t.or(s).is_some_and(near),
                    "case {i}: fast {f_t:?} slow {s:?}"
                );
            }
        }
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn world_ray_and_region_queries_match_a_scan() {
    let mut rng = Rng::new(4);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let mut all = Vec::new();
    for i in 0..600 {
        let shape: Shape = match i % 4 {
            0 => Sphere::try_new(rng.range(0.2, 1.0)).unwrap().into(),
            1 => Cuboid::try_from_half_extents(rng.vec3(Vec3::splat(0.2), Vec3::splat(1.0)))
                .unwrap()
                .into(),
            2 => scene_hull(&mut rng).into(),
            _ => Capsule::try_new(rng.range(0.0, 1.0), rng.range(0.1, 0.6))
                .unwrap()
                .into(),
        };
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-15.0), Vec3::splat(15.0)),
            rng.rotation(),
        );
        let desc = if i % 2 == 0 {
            BodyDesc::fixed(shape, pose)
        } else {
            BodyDesc::dynamic(shape, pose)
        };
        all.push(world.insert(desc).unwrap());
    }
    world.step();
    // Move a few dynamic bodies after the step: queries must see the current poses.
    for &h in all.iter().skip(1).step_by(10) {
        world
            .set_pose(
                h,
                Pose::new(
                    rng.vec3(Vec3::splat(-15.0), Vec3::splat(15.0)),
                    rng.rotation(),
                ),
            )
            .unwrap();
    }
    let mut hits = 0;
    for _ in 0..200 {
        let o = rng.vec3(Vec3::splat(-20.0), Vec3::splat(20.0));
        let d = rng.unit_vec3();
        let got = world.cast_ray(o, d, 40.0).unwrap();
        let best = brute_force_ray(&world, &all, o, d, 40.0);
        assert_eq!(got.map(|(body, g)| (g.t, body.index())), best);
        hits += got.is_some() as usize;

        let c = rng.vec3(Vec3::splat(-15.0), Vec3::splat(15.0));
        let region = Aabb::new(c - 2.0, c + 2.0);
        let want = brute_force_region(&world, &all, &region);
        assert_eq!(world.query_aabb(&region).unwrap(), want);
    }
    assert!(hits > 30, "{hits}");
    assert_eq!(
        world.cast_ray(Vec3::ZERO, Vec3::ZERO, 1.0),
        Err(WorldError::InvalidRay)
    );
    assert_eq!(
        world.cast_ray(Vec3::NAN, Vec3::X, 1.0),
        Err(WorldError::InvalidRay)
    );
    assert_eq!(
        world.cast_ray(Vec3::ZERO, Vec3::X, -1.0),
        Err(WorldError::InvalidRay)
    );
    assert_eq!(
        world.query_aabb(&Aabb::new(Vec3::ONE, Vec3::ZERO)),
        Err(WorldError::InvalidRegion)
    );
}

#[test]
fn issue_9_tiny_and_huge_ray_directions_never_hit_at_infinity() {
    // A denormal direction used to give a hit at t = inf with NaN coordinates.
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let wall = Cuboid::try_from_half_extents(Vec3::new(0.5, 5.0, 5.0)).unwrap();
    let ball = Shape::from(Sphere::try_new(1.0).unwrap());
    world
        .insert(BodyDesc::fixed(wall, Pose::from_translation(Vec3::X * 3.0)))
        .unwrap();
    world
        .insert(BodyDesc::dynamic(
            ball.clone(),
            Pose::from_translation(Vec3::Y * 20.0),
        ))
        .unwrap();
    world.step();
    let at = |x: f32| Pose::from_translation(Vec3::X * x);
    for dir in [
        Vec3::X * 1e-45,
        Vec3::new(1e-40, 1e-41, 0.0),
        Vec3::X * 1e-20,
        Vec3::X * 1e20,
        Vec3::ZERO,
    ] {
        for origin in [Vec3::ZERO, Vec3::X * 3.0, Vec3::Y * 20.0] {
            assert_eq!(
                world.cast_ray(origin, dir, f32::INFINITY),
                Err(WorldError::InvalidRay),
                "{dir}"
            );
        }
        assert!(ray_shape(&ball, &at(5.0), Vec3::ZERO, dir, f32::INFINITY).is_none());
        assert!(ray_shape(&ball, &at(0.0), Vec3::ZERO, dir, f32::INFINITY).is_none());
    }
    // Valid but short: the entry parameter is large and exact, or, past f32::MAX, a
    // miss (never a hit at t = inf).
    let short = Vec3::X * 1e-18;
    let (_, hit) = world
        .cast_ray(Vec3::ZERO, short, f32::INFINITY)
        .unwrap()
        .unwrap();
    assert_eq!(hit.t, 2.5e18);
    assert!(hit.point.is_finite() && hit.normal == -Vec3::X);
    let far = Pose::from_translation(Vec3::X * 1e30);
    assert!(ray_shape(&ball, &far, Vec3::ZERO, short, f32::INFINITY).is_none());
    let inside = ray_shape(&ball, &at(0.0), Vec3::ZERO, short, 1.0).unwrap();
    assert_eq!((inside.t, inside.normal), (0.0, -Vec3::X));
    // Long but valid: still the right entry.
    let long = Vec3::X * 1e18;
    let hit = ray_shape(&ball, &at(5.0), Vec3::ZERO, long, f32::INFINITY).unwrap();
    assert!((hit.t * 1e18 - 4.0).abs() < 1e-5);
}
