//! Capsule manifolds a solver relies on (issue 10): a capsule lying on a box face or a
//! hull face gets two points with their own depths and the same ids after a small
//! motion; one hanging over the edge gets the clipped point at the edge; two parallel
//! capsules get two points; crossing ones one. And ray casts against capsules, checked
//! against sphere tracing in f64 on the oracle's signed distance (20,000 rays).

use glam::{DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape};
use sepax_narrowphase::oracle::{capsule_separation, gap_along, signed_distance};
use sepax_narrowphase::ray::ray_shape;
use sepax_narrowphase::{Feature, Manifold, PairCache, collide, contact, intersects};

fn capsule(h: f32, r: f32) -> Shape {
    Shape::from(Capsule::try_new(h, r).unwrap())
}

fn ids(m: &Manifold) -> Vec<u64> {
    let mut v: Vec<u64> = m.points.iter().map(|p| p.id).collect();
    v.sort_unstable();
    v
}

#[test]
fn capsule_lying_on_a_face_gets_two_points_with_stable_ids() {
    let slab_box = Shape::from(Cuboid::try_from_half_extents(Vec3::new(5.0, 0.5, 5.0)).unwrap());
    let slab_hull = Shape::from(ConvexHull::cuboid(Vec3::new(5.0, 0.5, 5.0)).unwrap());
    let pill = capsule(1.0, 0.25);
    for slab in [&slab_box, &slab_hull] {
        // Resting 0.01 deep, its core tilted along its length by 2e-3 rad.
        let tilted = Pose::new(
            Vec3::new(0.2, 0.74, -0.1),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2 + 2e-3),
        );
        let nudged = Pose::new(
            tilted.translation + Vec3::new(1e-4, -1e-5, 2e-4),
            Quat::from_rotation_y(1e-4) * tilted.rotation,
        );
        let m0 = collide(
            slab,
            &Pose::IDENTITY,
            &pill,
            &tilted,
            0.0,
            &mut PairCache::default(),
        )
        .unwrap();
        let m1 = collide(
            slab,
            &Pose::IDENTITY,
            &pill,
            &nudged,
            0.0,
            &mut PairCache::default(),
        )
        .unwrap();
        assert_eq!(m0.points.len(), 2, "{m0:?}");
        assert!((m0.normal - Vec3::Y).length() < 1e-6);
        assert_eq!(ids(&m0), ids(&m1));
        // Each end has its own depth: 0.01 ± sin(2e-3) · 1.
        let mut depths: Vec<f32> = m0.points.iter().map(|p| p.depth).collect();
        depths.sort_by(f32::total_cmp);
        assert!((depths[0] - (0.01 - 2e-3)).abs() < 1e-4, "{depths:?}");
        assert!((depths[1] - (0.01 + 2e-3)).abs() < 1e-4, "{depths:?}");
        // Both orders give the same manifold, mirrored.
        let flipped = collide(
            &pill,
            &tilted,
            slab,
            &Pose::IDENTITY,
            0.0,
            &mut PairCache::default(),
        )
        .unwrap();
        assert_eq!(flipped, m0.flipped());
        // Points are halfway: anchors on each surface.
        for p in &m0.points {
            let on_capsule = tilted.transform_point(p.anchor_b);
            assert!((on_capsule.y - (0.5 - p.depth)).abs() < 1e-5, "{p:?}");
            assert!((p.anchor_a.y - 0.5).abs() < 1e-5, "{p:?}");
        }
    }
}

#[test]
fn capsule_over_the_edge_is_clipped_at_the_edge() {
    let block = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
    let pill = capsule(1.0, 0.25);
    // Core along x from 0.2 to 2.2 at height 0.74: the box ends at x = 0.5.
    let pose = Pose::new(
        Vec3::new(1.2, 0.74, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let m = collide(
        &block,
        &Pose::IDENTITY,
        &pill,
        &pose,
        0.0,
        &mut PairCache::default(),
    )
    .unwrap();
    assert_eq!(m.points.len(), 2, "{m:?}");
    let mut xs: Vec<f32> = m.points.iter().map(|p| p.position.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        (xs[0] - 0.2).abs() < 1e-5 && (xs[1] - 0.5).abs() < 2e-3,
        "{xs:?}"
    );
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5);
    }
    assert_eq!(m.feature, Feature::FaceA(3));
}

#[test]
fn parallel_capsules_get_two_points_and_crossing_ones_one() {
    let pill = capsule(1.0, 0.25);
    let side = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let below = Pose::new(Vec3::ZERO, side);
    let above = Pose::new(Vec3::new(0.5, 0.49, 0.0), side);
    let m = collide(&pill, &below, &pill, &above, 0.0, &mut PairCache::default()).unwrap();
    assert_eq!(m.points.len(), 2, "{m:?}");
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    let mut xs: Vec<f32> = m.points.iter().map(|p| p.position.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        (xs[0] + 0.5).abs() < 1e-5 && (xs[1] - 1.0).abs() < 1e-5,
        "{xs:?}"
    );
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5);
    }
    let crossing = Pose::new(
        Vec3::new(0.5, 0.49, 0.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    );
    let m = collide(
        &pill,
        &below,
        &pill,
        &crossing,
        0.0,
        &mut PairCache::default(),
    )
    .unwrap();
    assert_eq!(m.points.len(), 1);
    assert!((m.points[0].position - Vec3::new(0.5, 0.245, 0.0)).length() < 1e-5);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5);
}

/// Two nearly parallel capsules (cores 0 to 3° apart, the span where each end of the
/// clipped core becomes a point), touching or apart within the margin, at random
/// sideways offsets: every point lies within half its depth (plus the clip tolerance
/// and round-off) of both capsules, by the f64 signed distance. Each end's depth is
/// the cores' own gap at that end; measured along the shared normal instead, the
/// sideways offset of slightly skew cores put speculative points up to 0.006 beyond
/// that (found by the ignored sweeps).
#[test]
fn nearly_parallel_capsules_put_their_points_between_the_surfaces() {
    let mut rng = Rng::new(0xca95_0003);
    let (mut manifolds, mut two_points) = (0, 0);
    for i in 0..20_000 {
        let (ha, ra) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (hb, rb) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (a, b) = (capsule(ha, ra), capsule(hb, rb));
        let turn_a = rng.rotation();
        let skew = Quat::from_axis_angle(
            rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0))
                .try_normalize()
                .unwrap_or(Vec3::X),
            rng.range(0.0, 0.05),
        );
        // b beside a, its centre anywhere along a's core and beyond, its surface from
        // a little inside a's to a little beyond the margin.
        let along = rng.range(-1.5, 1.5) * (ha + hb);
        let side = rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0));
        let side = (side - Vec3::Y * side.y).try_normalize().unwrap_or(Vec3::X);
        let gap = rng.range(-0.2, 0.12) * ra.min(rb);
        let local = Vec3::Y * along + side * (ra + rb + gap);
        let pose_a = Pose::new(rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)), turn_a);
        let pose_b = Pose::new(pose_a.transform_point(local), (turn_a * skew).normalize());
        let margin = 0.05 * ra.min(rb) + 0.01;
        let Some(m) = collide(&a, &pose_a, &b, &pose_b, margin, &mut PairCache::default()) else {
            continue;
        };
        manifolds += 1;
        two_points += (m.points.len() >= 2) as usize;
        let tolerance = f64::from(sepax_narrowphase::CLIP_TOLERANCE * ra.min(rb)) + 1e-5;
        for p in &m.points {
            let q = p.position.as_dvec3();
            let slack = 0.5 * f64::from(p.depth.abs()) + tolerance;
            let outside = signed_distance(&a, &pose_a, q).max(signed_distance(&b, &pose_b, q));
            assert!(
                outside <= slack,
                "case {i}: {p:?} {outside} outside a shape, slack {slack}"
            );
        }
    }
    assert!(
        manifolds > 8_000 && two_points > 4_000,
        "{manifolds} manifolds, {two_points} with two points"
    );
}

/// Two capsules whose cores cross (each through a random point of the other, within
/// round-off), from 1e-7 rad to 3° apart, at random places far from the origin too:
/// `contact`'s depth is the overlap along its normal (the f64 gap between the shapes
/// along it, to round-off), which is `r_a + r_b`, the least overlap of any direction
/// (the cores meet); and b moved out along the normal by the depth no longer
/// touches. The normal is the cores' common perpendicular; in f32 it was round-off
/// below 0.005 rad (a direction across the longer core, chosen at random) and several
/// ε / sin θ off above: 5.6e-4 short on the properties sweep's k = 1,022,410. Fails
/// before the fix (case 0).
#[test]
fn crossing_capsules_overlap_by_their_radii_along_their_common_perpendicular() {
    let mut rng = Rng::new(0xca95_0004);
    for i in 0..20_000 {
        let (ha, ra) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (hb, rb) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (a, b) = (capsule(ha, ra), capsule(hb, rb));
        let turn_a = rng.rotation();
        let angle = 10f32.powf(rng.range(-7.0, -1.3));
        let skew = Quat::from_axis_angle(
            rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0))
                .try_normalize()
                .unwrap_or(Vec3::X),
            angle,
        );
        let turn_b = (turn_a * skew).normalize();
        // The cores meet at a point `ta` along a's core and `tb` along b's.
        let (ta, tb) = (rng.range(-0.95, 0.95) * ha, rng.range(-0.95, 0.95) * hb);
        let far = [1.0, 1e3][i % 2];
        let pose_a = Pose::new(rng.vec3(Vec3::splat(-far), Vec3::splat(far)), turn_a);
        let meet = pose_a.transform_point(Vec3::Y * ta);
        let pose_b = Pose::new(meet - turn_b * (Vec3::Y * tb), turn_b);
        let c = contact(&a, &pose_a, &b, &pose_b, 0.0).expect("crossing capsules touch");
        let size = f64::from(ha + hb + ra + rb);
        let tolerance = 1e-5 * size + 1e-6 * f64::from(far);
        let gap = gap_along(&a, &pose_a, &b, &pose_b, c.normal.as_dvec3());
        assert!(
            (gap + f64::from(c.depth)).abs() <= tolerance,
            "case {i} ({angle} rad): depth {} but gap {gap} along {:?}",
            c.depth,
            c.normal
        );
        assert!(
            (f64::from(c.depth) - f64::from(ra + rb)).abs() <= tolerance,
            "case {i} ({angle} rad): depth {} for radii {}",
            c.depth,
            ra + rb
        );
        let out = Pose::new(
            pose_b.translation + c.normal * (c.depth + 2.0 * tolerance as f32),
            pose_b.rotation,
        );
        assert!(
            !intersects(&a, &pose_a, &b, &out),
            "case {i} ({angle} rad): still touching once pushed out by the depth"
        );
    }
}

/// Two capsules whose cores pass a hair apart end to side (b's core ending `D` from a
/// point of a's, 1e-8 to 3e-5 of the pair's size away, turning off at 0.1 to 1.5 rad),
/// the same pairs with b's core moved to cross a's, and both in the other order:
/// `contact`'s depth is the oracle's overlap and the gap along its normal, to 6e-7 of
/// the size. Cores this close are within the f32 cores' round-off, where the closest
/// points give no direction; taking the crossing normal there put the depth `D` short
/// along it (7e-6 on a pair of size 2.5: the capsule oracle's seed xor 5151). Fails
/// before the fix.
#[test]
fn capsules_a_hair_apart_end_to_side_overlap_by_their_depth_along_the_normal() {
    let mut rng = Rng::new(0xca95_0005);
    let mut worst = 0.0f64;
    for i in 0..20_000 {
        let (ha, ra) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (hb, rb) = (rng.range(0.2, 2.0), rng.range(0.05, 0.8));
        let (a, b) = (capsule(ha, ra), capsule(hb, rb));
        let cores = [
            Capsule::try_new(ha, ra).unwrap(),
            Capsule::try_new(hb, rb).unwrap(),
        ];
        let pose_a = Pose::new(
            rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
            rng.rotation(),
        );
        let axis_a = pose_a.rotation * Vec3::Y;
        // `u` across a's core, `w` across both: b's core leaves a's along
        // `cos β u + sin β w`, so its end at `u D` from a's point is the closest.
        let u = axis_a.any_orthogonal_vector().normalize();
        let u = Quat::from_axis_angle(axis_a, rng.range(0.0, std::f32::consts::TAU)) * u;
        let w = Quat::from_axis_angle(u, rng.range(0.0, std::f32::consts::TAU)) * axis_a;
        let beta = rng.range(0.1, 1.5);
        let along_b = (u * beta.cos() + w * beta.sin()).normalize();
        let turn_b = Quat::from_rotation_arc(Vec3::Y, along_b);
        let size = f64::from(ha + hb + ra + rb);
        let gap = 10f64.powf(f64::from(rng.range(-8.0, -4.5))) * size;
        let on_a = pose_a.transform_point(Vec3::Y * rng.range(-0.9, 0.9) * ha);
        let end_b = on_a + u * gap as f32;
        let mut pose_b = Pose::new(end_b + along_b * hb, turn_b);
        if i % 3 == 2 {
            // Crossing instead: b's core through that point of a's.
            pose_b.translation -= along_b * rng.range(0.1, 1.9) * hb;
        }
        let orders = [
            (&cores[0], &a, &pose_a, &b, &pose_b),
            (&cores[1], &b, &pose_b, &a, &pose_a),
        ];
        for (order, (core, x, px, y, py)) in orders.into_iter().enumerate() {
            let truth = capsule_separation(core, px, y, py);
            let c = contact(x, px, y, py, 0.0).expect("overlapping capsules touch");
            let along = gap_along(x, px, y, py, c.normal.as_dvec3());
            let errors = [
                (f64::from(c.depth) + truth).abs(),
                (along + f64::from(c.depth)).abs(),
            ];
            worst = worst.max(errors[0].max(errors[1]) / size);
            assert!(
                errors[0] <= 6e-7 * size && errors[1] <= 6e-7 * size,
                "case {i} order {order} (gap {gap:e}): depth {} vs the oracle's {}, gap {along} \
                 along {:?}",
                c.depth,
                -truth,
                c.normal
            );
        }
    }
    eprintln!("worst error {worst:e} of the size");
}

/// Sphere tracing in f64 on the oracle's signed distance: the first `t` where the
/// distance falls below `1e-9`, or `None` past `max_t`.
fn traced(shape: &Shape, pose: &Pose, origin: Vec3, dir: Vec3, max_t: f64) -> Option<f64> {
    let (o, d) = (origin.as_dvec3(), dir.as_dvec3());
    let unit = d.length();
    let mut t = 0.0f64;
    for _ in 0..10_000 {
        let distance = signed_distance(shape, pose, o + d * t);
        if distance < 1e-9 {
            return Some(t);
        }
        t += distance / unit;
        if t > max_t {
            return None;
        }
    }
    None
}

#[test]
fn ray_casts_match_sphere_tracing() {
    let mut rng = Rng::new(0xCA5E);
    let (mut hits, mut inside) = (0, 0);
    for i in 0..20_000 {
        let h = if i % 8 == 0 { 0.0 } else { rng.range(0.0, 2.0) };
        let shape = capsule(h, rng.range(0.05, 1.0));
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-3.0), Vec3::splat(3.0)),
            rng.rotation(),
        );
        let origin = rng.vec3(Vec3::splat(-6.0), Vec3::splat(6.0));
        // Half the rays aim at the capsule's core, the rest anywhere.
        let target = pose.transform_point(Vec3::new(0.0, rng.range(-h - 0.5, h + 0.5), 0.0));
        let dir = if i % 2 == 0 {
            (target - origin) * rng.range(0.2, 3.0)
        } else {
            rng.unit_vec3()
        };
        let max_t = 100.0;
        let ours = ray_shape(&shape, &pose, origin, dir, max_t);
        let truth = traced(&shape, &pose, origin, dir, max_t as f64);
        match (ours, truth) {
            (Some(hit), Some(t)) => {
                let size = shape.bounding_radius() as f64 + origin.length() as f64;
                // Tracing stops short of the surface (by up to 1e-9 / sin of the grazing
                // angle), never beyond it: our entry is on the surface and not before it,
                // within f32's round-off of a grazing ray's quadratic (1e-4 of the size).
                let on_surface = signed_distance(&shape, &pose, hit.point.as_dvec3());
                assert!(
                    hit.t == 0.0 || on_surface.abs() <= 1e-4 * size,
                    "case {i}: {on_surface} off the surface"
                );
                assert!(
                    (hit.t as f64 - t) * dir.length() as f64 >= -1e-4 * size,
                    "case {i}: t {} before the traced {t}",
                    hit.t
                );
                assert!((hit.normal.length() - 1.0).abs() < 1e-5);
                if hit.t == 0.0 {
                    assert_eq!(t, 0.0, "case {i}: inside, but traced to {t}");
                    inside += 1;
                } else {
                    // The normal is the surface's: the gradient of the distance there.
                    let p = hit.point.as_dvec3();
                    let step = 1e-4;
                    let g = DVec3::new(
                        signed_distance(&shape, &pose, p + DVec3::X * step)
                            - signed_distance(&shape, &pose, p - DVec3::X * step),
                        signed_distance(&shape, &pose, p + DVec3::Y * step)
                            - signed_distance(&shape, &pose, p - DVec3::Y * step),
                        signed_distance(&shape, &pose, p + DVec3::Z * step)
                            - signed_distance(&shape, &pose, p - DVec3::Z * step),
                    )
                    .normalize();
                    assert!(
                        (hit.normal.as_dvec3() - g).length() < 1e-3,
                        "case {i}: normal {} vs {g} ({shape:?} {pose:?} local {})",
                        hit.normal,
                        pose.inverse_transform_point(hit.point)
                    );
                    hits += 1;
                }
            }
            (None, None) => {}
            (ours, truth) => {
                // Grazing rays may disagree within round-off.
                let closest = truth.map_or(f64::INFINITY, |t| t);
                panic!("case {i}: {ours:?} vs traced {truth:?} ({closest})");
            }
        }
    }
    assert!(hits > 5_000 && inside > 10, "{hits} hits, {inside} inside");
}

/// Bad input never panics: NaN, infinite and huge poses, NaN, negative and infinite
/// margins, capsules from the smallest to the largest values, against every kind.
#[test]
fn bad_input_never_panics_and_margins_behave_as_documented() {
    use sepax_geometry::Sphere;
    use sepax_narrowphase::{contact, intersects};
    let pill = capsule(1.0, 0.25);
    let touching = Pose::from_translation(Vec3::new(0.0, 0.0, 0.5));
    let apart = Pose::from_translation(Vec3::new(0.0, 0.0, 0.55));
    for bad in [-1.0, f32::NAN, f32::NEG_INFINITY] {
        assert!(contact(&pill, &Pose::IDENTITY, &pill, &apart, bad).is_none());
        assert!(contact(&pill, &Pose::IDENTITY, &pill, &touching, bad).is_some());
    }
    let c = contact(&pill, &Pose::IDENTITY, &pill, &apart, f32::INFINITY).unwrap();
    assert!((c.depth + 0.05).abs() < 1e-6);
    let mut shapes = vec![
        Shape::from(Cuboid::try_from_half_extents(Vec3::ONE).unwrap()),
        Shape::from(ConvexHull::cuboid(Vec3::new(1.0, 0.5, 2.0)).unwrap()),
        Shape::from(Sphere::try_new(1.0).unwrap()),
    ];
    for e in [1e-30f32, 1e-6, 1.0, 1e18, 1e37, f32::MAX] {
        shapes.push(capsule(e, 1.0));
        shapes.push(capsule(1.0, e));
        shapes.push(capsule(0.0, e));
    }
    let poses = [
        Pose::IDENTITY,
        Pose::new(Vec3::splat(0.5), Quat::from_rotation_x(0.3)),
        Pose::new(Vec3::new(1e30, -1e30, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(f32::INFINITY, 0.0, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
    ];
    for a in &shapes {
        for b in &shapes {
            if !(matches!(a, Shape::Capsule(_)) || matches!(b, Shape::Capsule(_))) {
                continue;
            }
            for pa in &poses {
                for pb in &poses {
                    let valid = pa.is_valid() && pb.is_valid();
                    for margin in [0.0, 0.1, f32::NAN, f32::INFINITY] {
                        let m = collide(a, pa, b, pb, margin, &mut PairCache::default());
                        if let Some(m) = &m {
                            assert!(valid);
                            assert!(!m.points.is_empty() && m.points.len() <= 4);
                            assert!(!m.normal.is_nan());
                            assert!(m.points.iter().all(|p| !p.depth.is_nan()));
                        }
                        let c = contact(a, pa, b, pb, margin);
                        assert!(valid || c.is_none());
                        assert!(c.is_none_or(|c| !c.depth.is_nan()));
                    }
                    assert!(valid || !intersects(a, pa, b, pb));
                    let _ = ray_shape(a, pa, Vec3::splat(-3.0), Vec3::ONE, f32::INFINITY);
                }
            }
        }
    }
}

/// `collide`, `contact` and `intersects` on two capsules take one query, so they agree
/// bit for bit: a manifold exactly when a contact, the same normal, the manifold's
/// deepest point within the clip tolerance of the contact's depth (deeper by round-off
/// at most), `intersects` exactly when `contact` with margin 0 — also right at
/// touching, where two computations would split on round-off. Random pairs, then each pair moved along
/// its normal until the surfaces touch, give or take a few ulps, in both orders.
#[test]
fn collide_contact_and_intersects_agree_on_capsule_pairs() {
    use sepax_narrowphase::{contact, intersects};
    use sepax_testkit::shapes::random_capsule;
    let mut rng = Rng::new(0xca95);
    let (mut touching, mut borderline) = (0, 0);
    for i in 0..20_000 {
        let (a, b) = (random_capsule(&mut rng), random_capsule(&mut rng));
        let pa = Pose::new(
            rng.vec3(Vec3::splat(-2.0), Vec3::splat(2.0)),
            rng.rotation(),
        );
        let mut pb = Pose::new(
            pa.translation + rng.unit_vec3() * rng.range(0.0, 4.0),
            rng.rotation(),
        );
        // Every other pair is moved to touch: along the contact normal by its depth,
        // then off by a few ulps of the coordinates either way.
        if i % 2 == 1
            && let Some(c) = contact(&a, &pa, &b, &pb, 10.0)
        {
            let ulps = rng.range(-4.0, 4.0) * f32::EPSILON * pb.translation.abs().max_element();
            pb.translation += c.normal * (c.depth + ulps);
            borderline += 1;
        }
        for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
            for margin in [0.0, 0.05] {
                let c = contact(x, px, y, py, margin);
                let m = collide(x, px, y, py, margin, &mut PairCache::default());
                assert_eq!(m.is_some(), c.is_some(), "pair {i}, margin {margin}");
                if let (Some(m), Some(c)) = (&m, &c) {
                    assert_eq!(m.normal, c.normal, "pair {i}");
                    let deepest = m.points.iter().map(|p| p.depth).fold(f32::MIN, f32::max);
                    // Each point's depth is measured at the point (f32, a few ulps of
                    // the sizes here); the parallel case's ends may lie up to the clip
                    // tolerance above the closest points.
                    let (round, clip) = (1e-5, 2e-3 * 1.0f32.max(c.depth.abs()));
                    assert!(
                        deepest <= c.depth + round && deepest >= c.depth - clip,
                        "pair {i}: {deepest} vs {c:?}, {m:?}"
                    );
                    touching += 1;
                }
            }
            assert_eq!(
                intersects(x, px, y, py),
                contact(x, px, y, py, 0.0).is_some(),
                "pair {i}"
            );
        }
    }
    // The test compares something: many contacts, many pairs at the boundary.
    assert!(
        touching > 20_000 && borderline > 5_000,
        "{touching} / {borderline}"
    );
}
