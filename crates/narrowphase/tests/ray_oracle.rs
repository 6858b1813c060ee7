//! Ray casts (`ray::ray_shape`) against an f64 twin, on 200,000 random rays at spheres,
//! capsules, boxes and hulls placed up to 10,000 from the origin.
//!
//! The twin computes the entry in `f64` from the same f32 inputs: the ray brought into
//! the shape's frame by the exact rotation, then the ball's and the cylinder's closest
//! approach, the box's slabs, the hull's planes (read as exact: the ray cast takes a hull
//! as the intersection of its planes). The f32 cast rounds the local origin and its own
//! steps, so it is held between two twins: the shape **grown** and **shrunk** by
//! `δ = 8 ε (|o| + size)` (radii, half extents, plane offsets; `o` the local origin,
//! `ε = 2⁻²³`):
//! * a hit must be a hit of the grown shape, no earlier than its entry, and a miss a miss
//!   of the shrunk shape; a hit's `t` no later than the shrunk shape's entry;
//! * the normal: `−dir/|dir|` for an origin inside (`t = 0`); otherwise the surface's
//!   outward normal at the hit point — within `δ` of that face's plane for a box or a
//!   hull, facing the ray; from the core's closest point, within `δ / r` (plus
//!   round-off), for a sphere or a capsule.
//!
//! The rays: from far away (up to 3,000 sizes) towards a point near the shape; tangent
//! to it (along a direction square to the surface's normal at a support point, passing
//! 1e-7 to 0.1 of the size inside or outside); and from inside. Before 5 December 2026
//! the sphere's and the capsule's discriminant `b² − a c` cancelled to nothing from
//! 3,000 radii away: rays aimed at a ball's centre missed, rays passing 12 % of a radius
//! outside hit, and entries were off by 2e-4 of the distance (3,327 wrong verdicts and
//! 50,145 entries off by more than 1e-5 in a first sweep of 200,000 rays; here the test
//! fails at the first such ray).

use glam::{DQuat, DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, Pose, Shape, Sphere};
use sepax_narrowphase::ray::ray_shape;
use sepax_testkit::shapes::{bent_block, ellipsoid_hull, random_cuboid};

/// The entry of `o + t d` (`t ≥ 0`) into the ball of radius `r` about `c`, in f64.
fn ball_entry(o: DVec3, d: DVec3, c: DVec3, r: f64) -> Option<f64> {
    let oc = o - c;
    if oc.length_squared() <= r * r {
        return Some(0.0);
    }
    let closest_t = -oc.dot(d) / d.length_squared();
    let closest = oc + d * closest_t;
    let inside = r * r - closest.length_squared();
    if inside < 0.0 {
        return None;
    }
    let t = closest_t - inside.sqrt() / d.length();
    (t >= 0.0).then_some(t)
}

/// The entry of `o + t d` into the shape grown by `grow` (shrunk when negative), in
/// f64, in the shape's frame; `None` for a miss.
fn exact_entry(shape: &Shape, o: DVec3, d: DVec3, grow: f64) -> Option<f64> {
    match shape {
        Shape::Sphere(s) => ball_entry(o, d, DVec3::ZERO, f64::from(s.radius()) + grow),
        Shape::Capsule(c) => {
            let (h, r) = (f64::from(c.half_height()), f64::from(c.radius()) + grow);
            let core = DVec3::new(0.0, o.y.clamp(-h, h), 0.0);
            if (o - core).length_squared() <= r * r {
                return Some(0.0);
            }
            let mut best: Option<f64> = None;
            let mut offer = |t: Option<f64>| {
                if let Some(t) = t {
                    best = Some(best.map_or(t, |b| b.min(t)));
                }
            };
            offer(ball_entry(o, d, DVec3::Y * h, r));
            offer(ball_entry(o, d, -DVec3::Y * h, r));
            let (o_xz, d_xz) = (DVec3::new(o.x, 0.0, o.z), DVec3::new(d.x, 0.0, d.z));
            let a = d_xz.length_squared();
            if a > 0.0 {
                let closest_t = -o_xz.dot(d_xz) / a;
                let inside = r * r - (o_xz + d_xz * closest_t).length_squared();
                if inside >= 0.0 {
                    let t = closest_t - inside.sqrt() / a.sqrt();
                    if t >= 0.0 && (o.y + t * d.y).abs() <= h {
                        offer(Some(t));
                    }
                }
            }
            best
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3() + DVec3::splat(grow);
            let planes: Vec<(DVec3, f64)> = (0..3)
                .flat_map(|k| {
                    let mut n = DVec3::ZERO;
                    n[k] = 1.0;
                    [(n, h[k]), (-n, h[k])]
                })
                .collect();
            clip(&planes, o, d)
        }
        Shape::ConvexHull(hull) => {
            let planes: Vec<(DVec3, f64)> = hull
                .planes()
                .iter()
                .map(|p| (p.normal.as_dvec3(), f64::from(p.offset) + grow))
                .collect();
            clip(&planes, o, d)
        }
        Shape::TriMesh(_) => unreachable!("no meshes here"),
    }
}

/// Cyrus–Beck against the half-spaces `n·x ≤ offset` (`n` unit), in f64.
fn clip(planes: &[(DVec3, f64)], o: DVec3, d: DVec3) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    for &(n, offset) in planes {
        let (dist, denom) = (n.dot(o) - offset, n.dot(d));
        if denom == 0.0 {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / denom;
        if denom < 0.0 {
            enter = enter.max(t);
        } else {
            exit = exit.min(t);
        }
    }
    (enter <= exit).then_some(enter)
}

/// Whether `normal` (local) is the outward normal of the shape at local point `p`, a
/// point within `delta` of its surface (see the module docs).
fn normal_fits(shape: &Shape, p: DVec3, normal: DVec3, delta: f64) -> Result<(), String> {
    match shape {
        Shape::Sphere(_) | Shape::Capsule(_) => {
            let (h, r) = match shape {
                Shape::Sphere(s) => (0.0, f64::from(s.radius())),
                Shape::Capsule(c) => (f64::from(c.half_height()), f64::from(c.radius())),
                _ => unreachable!(),
            };
            let radial = p - DVec3::new(0.0, p.y.clamp(-h, h), 0.0);
            let off = (radial.normalize() - normal).length();
            let allowed = 4.0 * delta / r + 1e-6;
            (off <= allowed).then_some(()).ok_or(format!(
                "normal {off:e} off the radial one (allowed {allowed:e})"
            ))
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3();
            let k = normal.abs().max_position();
            let on_face = (normal[k].abs() - 1.0).abs() < 1e-6
                && (p[k] * normal[k].signum() - h[k]).abs() <= delta;
            on_face
                .then_some(())
                .ok_or(format!("normal {normal} at {p}, half extents {h}"))
        }
        Shape::ConvexHull(hull) => {
            let fits = hull.planes().iter().any(|plane| {
                let n = plane.normal.as_dvec3();
                (n - normal).length() < 1e-6 && (n.dot(p) - f64::from(plane.offset)).abs() <= delta
            });
            fits.then_some(())
                .ok_or(format!("normal {normal} is no face's at {p}"))
        }
        Shape::TriMesh(_) => unreachable!(),
    }
}

/// A random shape: sphere, capsule, box, hull or bent block.
fn random_shape(rng: &mut Rng) -> Shape {
    match rng.below(5) {
        0 => Shape::from(Sphere::try_new(rng.range(0.05, 2.0)).unwrap()),
        1 => Shape::from(Capsule::try_new(rng.range(0.0, 2.0), rng.range(0.05, 1.0)).unwrap()),
        2 => random_cuboid(rng),
        3 => {
            let n = 8 + rng.below(17);
            ellipsoid_hull(rng, n)
        }
        _ => Shape::from(bent_block(rng)),
    }
}

/// A ray (origin, direction) in the shape's frame: from far away towards a point near
/// the shape, tangent to it near a support point, or from inside (see the module docs).
fn random_ray(rng: &mut Rng, shape: &Shape, kind: usize) -> (DVec3, DVec3) {
    let size = f64::from(shape.bounding_radius());
    let (origin, towards) = match kind {
        0 => {
            let target = rng.vec3(Vec3::splat(-1.5), Vec3::splat(1.5)).as_dvec3() * size;
            let away = 10f64.powf(f64::from(rng.range(0.3, 3.5))) * size;
            (target + rng.unit_vec3().as_dvec3() * away, target)
        }
        1 => {
            let u = rng.unit_vec3();
            let at = shape.local_support(u).as_dvec3();
            let u = u.as_dvec3();
            let pass = 10f64.powf(f64::from(rng.range(-7.0, -1.0))) * size;
            let pass = if rng.below(2) == 0 { pass } else { -pass };
            let tangent =
                DQuat::from_axis_angle(u, std::f64::consts::TAU * f64::from(rng.range(0.0, 1.0)))
                    * u.any_orthonormal_vector();
            let target = at + u * pass;
            let away = 10f64.powf(f64::from(rng.range(0.3, 3.0))) * size;
            (target - tangent * away, target)
        }
        _ => {
            let inside =
                shape.local_support(rng.unit_vec3()).as_dvec3() * f64::from(rng.range(0.0, 0.9));
            (inside, inside + rng.unit_vec3().as_dvec3())
        }
    };
    let length = 10f64.powf(f64::from(rng.range(-2.0, 2.0)));
    (origin, (towards - origin).normalize() * length)
}

#[test]
fn rays_agree_with_the_f64_twin_on_200k_casts() {
    let mut rng = Rng::new(0x4A70);
    let (mut hits, mut misses, mut inside) = (0, 0, 0);
    for i in 0..200_000 {
        let shape = random_shape(&mut rng);
        let reach = [1.0, 100.0, 10_000.0][rng.below(3)];
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)),
            rng.rotation(),
        );
        let kind = i % 3;
        let (local_origin, local_dir) = random_ray(&mut rng, &shape, kind);
        let rotation = pose.rotation.as_dquat().normalize();
        let origin = (rotation * local_origin + pose.translation.as_dvec3()).as_vec3();
        let dir = (rotation * local_dir).as_vec3();
        if dir == Vec3::ZERO {
            continue;
        }
        let max_t = 1e9;
        let ours = ray_shape(&shape, &pose, origin, dir, max_t);
        // The twin, from the f32 inputs.
        let o = rotation.inverse() * (origin.as_dvec3() - pose.translation.as_dvec3());
        let d = rotation.inverse() * dir.as_dvec3();
        let size = f64::from(shape.bounding_radius());
        let delta = 8.0 * f64::from(f32::EPSILON) * (o.length() + size);
        let grown = exact_entry(&shape, o, d, delta);
        let shrunk = exact_entry(&shape, o, d, -delta);
        let label =
            format!("case {i} (kind {kind}, {shape:?} at {pose:?}, ray {origin} + t {dir})");
        let Some(hit) = ours else {
            assert!(
                shrunk.is_none(),
                "{label}: missed, but the shrunk shape is entered at {shrunk:?}"
            );
            misses += 1;
            continue;
        };
        let t = f64::from(hit.t);
        let rounding = 4.0 * f64::from(f32::EPSILON) * t;
        let grown =
            grown.unwrap_or_else(|| panic!("{label}: hit at {t}, but the grown shape is missed"));
        assert!(
            grown <= t + rounding,
            "{label}: hit at {t}, the grown shape entered at {grown}"
        );
        if let Some(shrunk) = shrunk {
            assert!(
                t <= shrunk + rounding,
                "{label}: hit at {t}, the shrunk shape entered at {shrunk}"
            );
        }
        let normal = rotation.inverse() * hit.normal.as_dvec3();
        assert!(
            (normal.length() - 1.0).abs() < 1e-5,
            "{label}: normal {normal}"
        );
        if hit.t == 0.0 {
            assert!(
                (normal + d.normalize()).length() < 1e-5,
                "{label}: inside, normal {normal}"
            );
            inside += 1;
            continue;
        }
        // Facing the ray, but for the round-off of a tangent ray's point (δ / size).
        let along = normal.dot(d.normalize());
        assert!(
            along <= 4.0 * delta / size + 1e-6,
            "{label}: the normal {normal} faces along the ray ({along:e})"
        );
        let p = o + d * t;
        normal_fits(&shape, p, normal, 2.0 * delta + rounding * d.length())
            .unwrap_or_else(|why| panic!("{label}: {why}"));
        hits += 1;
    }
    eprintln!("{hits} hits, {misses} misses, {inside} from inside");
    assert!(
        hits > 40_000 && misses > 50_000 && inside > 30_000,
        "{hits} {misses} {inside}"
    );
}

/// A ray aimed straight at a ball's centre from 3,000 radii away hits it, and one passing
/// 5 % of the radius outside misses it (both failed before 5 December 2026: the
/// discriminant was all round-off there).
#[test]
fn far_rays_at_a_ball_hit_and_miss_by_the_radius() {
    let ball = Shape::from(Sphere::try_new(0.5).unwrap());
    let pose = Pose::new(Vec3::new(3.0, -2.0, 7.0), Quat::from_rotation_x(0.3));
    for (k, from) in [
        Vec3::X,
        Vec3::new(0.3, 0.8, -0.52),
        Vec3::new(-0.6, 0.0, 0.8),
    ]
    .into_iter()
    .enumerate()
    {
        let from = from.normalize();
        let origin = pose.translation + from * 1500.0;
        let straight = ray_shape(&ball, &pose, origin, -from, 1e4)
            .unwrap_or_else(|| panic!("ray {k} at the centre missed"));
        assert!(
            (straight.t - 1499.5).abs() < 1e-3,
            "ray {k}: {}",
            straight.t
        );
        let side = from.any_orthonormal_vector();
        let target = pose.translation + side * 0.525;
        let past = ray_shape(&ball, &pose, origin, target - origin, 1e4);
        assert!(
            past.is_none(),
            "ray {k} passing 5 % outside hit at {past:?}"
        );
        let target = pose.translation + side * 0.475;
        assert!(
            ray_shape(&ball, &pose, origin, target - origin, 1e4).is_some(),
            "ray {k} 5 % inside missed"
        );
    }
}
