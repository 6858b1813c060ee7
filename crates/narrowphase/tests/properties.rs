//! Properties every 3D query must have (issue 2, part 3), checked with proptest on
//! seeded random pairs of boxes, boxes-as-hulls, capsules and mixed pairs:
//! swap symmetry, rigid-motion invariance, separation after pushing apart by the depth,
//! manifold points inside both shapes, at most 4 points, the deepest point kept, and a
//! warm cache that repeats its answer and keeps the preference within the slop.

use glam::{Quat, Vec3};
use proptest::prelude::*;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::oracle::gap_along;
use sepax_narrowphase::{CLIP_TOLERANCE, FEATURE_SLOP, PairCache, collide, contact, intersects};
use sepax_testkit::pairs::{PLACEMENTS, place};
use sepax_testkit::shapes::{cuboid_as_hull, ellipsoid_hull, random_capsule, random_cuboid};

/// The number of pair kinds of [`pair`].
const KINDS: u8 = 11;

/// A pair: kind 0 box–box, 1 hull–hull (boxes as hulls), 2 box–hull, 3 sphere–box,
/// 4 hull–sphere, 5 random hull–random hull, 6 sphere–random hull, 7 capsule–box,
/// 8 random hull–capsule, 9 capsule–capsule, 10 sphere–capsule.
fn pair(seed: u64, kind: u8, placement: usize) -> (Shape, Pose, Shape, Pose) {
    let mut rng = Rng::new(seed);
    let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
    let (pa, pb) = place(&mut rng, &a, &b, PLACEMENTS[placement % PLACEMENTS.len()]);
    let sphere = Shape::from(Sphere::try_new(rng.range(0.1, 2.0)).unwrap());
    match kind {
        0 => (a, pa, b, pb),
        1 => (cuboid_as_hull(&a), pa, cuboid_as_hull(&b), pb),
        2 => (a, pa, cuboid_as_hull(&b), pb),
        3 => (sphere, pa, b, pb),
        4 => (cuboid_as_hull(&a), pa, sphere, pb),
        5 | 6 => {
            let hull_b = ellipsoid_hull(&mut rng, 12);
            let hull_a = if kind == 5 {
                ellipsoid_hull(&mut rng, 16)
            } else {
                sphere
            };
            let (qa, qb) = place(
                &mut rng,
                &hull_a,
                &hull_b,
                PLACEMENTS[placement % PLACEMENTS.len()],
            );
            (hull_a, qa, hull_b, qb)
        }
        7..=10 => {
            let capsule = random_capsule(&mut rng);
            let other = match kind {
                7 => b,
                8 => ellipsoid_hull(&mut rng, 14),
                9 => random_capsule(&mut rng),
                _ => sphere,
            };
            let (first, second) = if kind == 7 {
                (capsule, other)
            } else {
                (other, capsule)
            };
            let (qa, qb) = place(
                &mut rng,
                &first,
                &second,
                PLACEMENTS[placement % PLACEMENTS.len()],
            );
            (first, qa, second, qb)
        }
        _ => unreachable!(),
    }
}

fn size(a: &Shape, b: &Shape) -> f32 {
    a.bounding_radius() + b.bounding_radius()
}

/// An upper bound of the feature slop: the inner radius is below the bounding radius.
fn slop(a: &Shape, b: &Shape) -> f32 {
    FEATURE_SLOP * a.bounding_radius().min(b.bounding_radius())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn swapping_flips_the_normal_and_keeps_the_depth(seed: u64, kind in 0u8..KINDS, placement in 0usize..6) {
        let (a, pa, b, pb) = pair(seed, kind, placement);
        let ab = contact(&a, &pa, &b, &pb, 0.0);
        let ba = contact(&b, &pb, &a, &pa, 0.0);
        if ab.is_some() != ba.is_some() {
            // Only a pair touching within round-off may change its verdict.
            let depth = ab.or(ba).unwrap().depth;
            prop_assert!(depth.abs() <= 1e-5 * size(&a, &b), "verdict changed at depth {}", depth);
        }
        if let (Some(ab), Some(ba)) = (ab, ba) {
            let tol = 1e-4 * size(&a, &b);
            prop_assert!((ab.depth - ba.depth).abs() <= tol, "{} vs {}", ab.depth, ba.depth);
            // Either the same axis reversed, or a tie between two axes of equal depth.
            // A sphere's normal runs from the closest point to its centre; with the
            // centre near the surface that direction carries f32 round-off of the
            // centre's coordinates divided by its distance, so it gets a looser bound.
            let with_sphere = matches!(a, Shape::Sphere(_)) || matches!(b, Shape::Sphere(_));
            let reversed = (ab.normal + ba.normal).length() < if with_sphere { 5e-3 } else { 1e-3 };
            let tie = (gap_along(&b, &pb, &a, &pa, ba.normal.as_dvec3()) + ab.depth as f64).abs() <= tol as f64
                && (gap_along(&a, &pa, &b, &pb, ab.normal.as_dvec3()) + ab.depth as f64).abs() <= tol as f64;
            prop_assert!(reversed || tie, "{:?} vs {:?}", ab, ba);
        }
    }

    #[test]
    fn moving_both_moves_the_result(seed: u64, kind in 0u8..KINDS, placement in 0usize..6, angle in -3.0f32..3.0, shift in -50.0f32..50.0) {
        let (a, pa, b, pb) = pair(seed, kind, placement);
        let motion = Pose::new(Vec3::new(shift, -shift * 0.5, 2.0), Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), angle));
        let (ma, mb) = (motion * pa, motion * pb);
        let before = contact(&a, &pa, &b, &pb, 0.0);
        let after = contact(&a, &ma, &b, &mb, 0.0);
        let tol = 2e-4 * size(&a, &b);
        match (before, after) {
            (Some(c0), Some(c1)) => {
                prop_assert!((c0.depth - c1.depth).abs() <= tol, "{} vs {}", c0.depth, c1.depth);
                let rotated = motion.rotation * c0.normal;
                prop_assert!((rotated - c1.normal).length() < 1e-3 || (c0.depth - c1.depth).abs() <= tol);
            }
            (None, None) => {}
            (c0, c1) => {
                // Only a pair touching within round-off may change its verdict.
                let depth = c0.or(c1).unwrap().depth;
                prop_assert!(depth.abs() <= tol, "verdict changed with depth {}", depth);
            }
        }
    }

    #[test]
    fn pushing_b_out_by_the_depth_separates(seed: u64, kind in 0u8..KINDS, placement in 0usize..6) {
        let (a, pa, b, pb) = pair(seed, kind, placement);
        if let Some(c) = contact(&a, &pa, &b, &pb, 0.0) {
            let moved = Pose::new(pb.translation + c.normal * (c.depth + 1e-4 * size(&a, &b)), pb.rotation);
            prop_assert!(!intersects(&a, &pa, &b, &moved), "{:?}", c);
        }
    }

    #[test]
    fn manifold_points_lie_in_both_shapes(seed: u64, kind in 0u8..KINDS, placement in 0usize..6, margin in 0.0f32..0.1) {
        let (a, pa, b, pb) = pair(seed, kind, placement);
        let mut cache = PairCache::default();
        let manifold = collide(&a, &pa, &b, &pb, margin, &mut cache);
        let exact = contact(&a, &pa, &b, &pb, margin);
        // A manifold needs an axis within the margin; a touching or penetrating axis
        // always gives a manifold.
        prop_assert!(manifold.is_none() || exact.is_some());
        prop_assert!(exact.is_none_or(|c| c.depth < 0.0) || manifold.is_some());
        if let (Some(m), Some(c)) = (manifold, exact) {
            let tol = 1e-4 * size(&a, &b);
            prop_assert!(!m.points.is_empty() && m.points.len() <= 4);
            prop_assert!((m.normal.length() - 1.0).abs() < 1e-4);
            for p in &m.points {
                // A corner within the clip tolerance of a side plane is kept whole.
                let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
                let slack = 0.5 * p.depth.abs() + tol + clip;
                prop_assert!(plane_distance(&a, &pa, p.position) <= slack, "{:?} outside a", p);
                prop_assert!(plane_distance(&b, &pb, p.position) <= slack, "{:?} outside b", p);
                prop_assert!(p.depth >= -margin - tol);
                // The preferred axis is at most the slop deeper than the exact one.
                prop_assert!(p.depth <= c.depth + slop(&a, &b) + tol,
                    "point depth {} beyond the pair's depth {}", p.depth, c.depth);
            }
            // The deepest point is never lost (issue 8, item 4); for a gap both answers
            // are minus the true distance (issue 11: speculative contacts are measured).
            let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
            prop_assert!(m.depth() >= c.depth - clip - tol,
                "deepest point {} but the pair is {} deep", m.depth(), c.depth);
            let mut ids: Vec<u64> = m.points.iter().map(|p| p.id).collect();
            ids.sort_unstable();
            ids.dedup();
            prop_assert_eq!(ids.len(), m.points.len(), "feature ids must be distinct");
        }
    }

    #[test]
    fn a_warm_call_is_repeatable_and_stays_within_the_slop(seed: u64, other: u64, kind in 0u8..KINDS, placement in 0usize..6) {
        let (a, pa, b, pb) = pair(seed, kind, placement);
        let cold = collide(&a, &pa, &b, &pb, 0.01, &mut PairCache::default());
        // The same input again, with the cache the cold call left: the same answer (the
        // pipeline reuses last step's manifold for resting pairs on that ground).
        let mut same = PairCache::default();
        collide(&a, &pa, &b, &pb, 0.01, &mut same);
        prop_assert_eq!(&collide(&a, &pa, &b, &pb, 0.01, &mut same), &cold);
        // A cache from an unrelated placement may keep another reference feature, but
        // only one within the slop of the exact axis; the verdict of a touching pair
        // does not change, and repeating the call repeats the answer.
        let (_, qa, _, qb) = pair(other, kind, placement + 1);
        let mut stale = PairCache::default();
        collide(&a, &qa, &b, &qb, 0.01, &mut stale);
        let warm = collide(&a, &pa, &b, &pb, 0.01, &mut stale);
        prop_assert_eq!(&collide(&a, &pa, &b, &pb, 0.01, &mut stale), &warm);
        let exact = contact(&a, &pa, &b, &pb, 0.01);
        if exact.is_some_and(|c| c.depth >= 0.0) {
            prop_assert!(warm.is_some() && cold.is_some());
        }
        if let (Some(w), Some(c)) = (&warm, exact)
            && !matches!(a, Shape::Sphere(_))
            && !matches!(b, Shape::Sphere(_))
        {
            let along = -gap_along(&a, &pa, &b, &pb, w.normal.as_dvec3()) as f32;
            let tol = 1e-4 * size(&a, &b);
            prop_assert!(along >= c.depth - tol, "depth {} along the warm normal, exact {}", along, c.depth);
            prop_assert!(along <= c.depth + slop(&a, &b) + tol, "depth {} along the warm normal, exact {}", along, c.depth);
        }
    }

    #[test]
    fn non_finite_poses_give_no_contact(seed: u64, kind in 0u8..KINDS, bad in prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY), Just(1e30f32)]) {
        let (a, pa, b, pb) = pair(seed, kind, 0);
        let broken = Pose::new(Vec3::new(bad, 0.0, 0.0), pb.rotation);
        let mut cache = PairCache::default();
        // Finite but huge translations are valid poses: they just must not panic.
        let result = collide(&a, &pa, &b, &broken, 0.0, &mut cache);
        if !bad.is_finite() {
            prop_assert!(result.is_none());
            prop_assert!(contact(&a, &pa, &b, &broken, 0.0).is_none());
            prop_assert!(!intersects(&b, &broken, &a, &pa));
        }
        let bad_rotation = Pose::new(pb.translation, Quat::from_xyzw(bad, 0.0, 0.0, 1.0));
        prop_assert!(collide(&a, &pa, &b, &bad_rotation, 0.0, &mut cache).is_none());
    }
}

/// A box resting on a slab: 4 face points, and the same feature ids after a tiny slide.
#[test]
fn resting_box_keeps_its_feature_ids_under_small_motion() {
    let slab = Shape::from(
        sepax_geometry::Cuboid::try_from_half_extents(Vec3::new(5.0, 0.5, 5.0)).unwrap(),
    );
    let cube =
        Shape::from(sepax_geometry::Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
    let base = Pose::new(Vec3::new(0.3, 0.995, -0.2), Quat::from_rotation_y(0.3));
    let nudged = Pose::new(
        base.translation + Vec3::new(1e-4, -1e-5, 2e-4),
        Quat::from_rotation_y(0.3001),
    );
    for (a, b) in [(&slab, &cube), (&cube, &slab)] {
        let (pa, pb0, pb1) = if std::ptr::eq(a, &slab) {
            (Pose::IDENTITY, base, nudged)
        } else {
            (base, Pose::IDENTITY, Pose::IDENTITY)
        };
        let pa1 = if std::ptr::eq(a, &slab) { pa } else { nudged };
        let m0 = collide(a, &pa, b, &pb0, 0.0, &mut PairCache::default()).unwrap();
        let m1 = collide(a, &pa1, b, &pb1, 0.0, &mut PairCache::default()).unwrap();
        assert_eq!(m0.points.len(), 4);
        let ids = |m: &sepax_narrowphase::Manifold| {
            let mut v: Vec<u64> = m.points.iter().map(|p| p.id).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(ids(&m0), ids(&m1));
        for p in &m0.points {
            assert!((p.depth - 0.005).abs() < 1e-4, "{p:?}");
        }
    }
}

/// Deep and shallow, apart and touching: the margin rule.
#[test]
fn margin_gives_speculative_contacts_with_negative_depth() {
    let cube =
        Shape::from(sepax_geometry::Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
    let cold = |pose: &Pose, margin: f32| {
        collide(
            &cube,
            &Pose::IDENTITY,
            &cube,
            pose,
            margin,
            &mut PairCache::default(),
        )
    };
    let apart = Pose::from_translation(Vec3::new(1.05, 0.0, 0.0));
    assert!(cold(&apart, 0.0).is_none());
    let m = cold(&apart, 0.1).unwrap();
    assert_eq!(m.points.len(), 4);
    for p in &m.points {
        assert!((p.depth + 0.05).abs() < 1e-5);
    }
    // Exactly touching counts at margin 0.
    let touching = Pose::from_translation(Vec3::new(1.0, 0.0, 0.0));
    assert!(intersects(&cube, &Pose::IDENTITY, &cube, &touching));
    // A negative, NaN or infinite margin behaves as documented: NaN and negative are 0.
    for bad in [-1.0, f32::NAN, f32::NEG_INFINITY] {
        assert!(cold(&apart, bad).is_none());
        assert!(contact(&cube, &Pose::IDENTITY, &cube, &touching, bad).is_some());
    }
    // An infinite margin reports every pair, with finite depths.
    let far = Pose::from_translation(Vec3::new(100.0, 0.0, 0.0));
    let c = contact(&cube, &Pose::IDENTITY, &cube, &far, f32::INFINITY).unwrap();
    assert!((c.depth + 99.0).abs() < 1e-3);
}

/// Tiny, huge and flat shapes far from the origin: answers may be coarse at the limits
/// of f32, but nothing panics and every reported number is finite.
#[test]
fn extreme_sizes_and_positions_do_not_panic() {
    let extents = [1e-20f32, 1e-6, 1.0, 1e6, 1e18];
    let mut shapes: Vec<Shape> = Vec::new();
    for &e in &extents {
        shapes.push(Shape::from(
            sepax_geometry::Cuboid::try_from_half_extents(Vec3::new(e, 1.0, 1.0)).unwrap(),
        ));
        shapes.push(Shape::from(Sphere::try_new(e).unwrap()));
        shapes.push(Shape::from(
            sepax_geometry::Capsule::try_new(e, 1.0).unwrap(),
        ));
        shapes.push(Shape::from(
            sepax_geometry::Capsule::try_new(1.0, e).unwrap(),
        ));
        let points: Vec<Vec3> = [
            Vec3::new(e, 0.0, 0.0),
            Vec3::new(-e, 0.0, 0.0),
            Vec3::new(0.0, e, 0.0),
            Vec3::new(0.0, -e, 0.0),
            Vec3::new(0.0, 0.0, e),
            Vec3::new(0.0, 0.0, -e),
        ]
        .to_vec();
        if let Ok(h) = sepax_geometry::ConvexHull::try_from_points(&points) {
            shapes.push(Shape::from(h));
        }
    }
    let poses = [
        Pose::IDENTITY,
        Pose::new(Vec3::splat(0.5), Quat::from_rotation_x(0.3)),
        Pose::new(Vec3::splat(1e7), Quat::from_rotation_y(1.0)),
        Pose::new(Vec3::new(1e30, -1e30, 0.0), Quat::IDENTITY),
    ];
    for a in &shapes {
        for b in &shapes {
            for pa in &poses {
                for pb in &poses {
                    let mut cache = PairCache::default();
                    if let Some(m) = collide(a, pa, b, pb, 0.01, &mut cache) {
                        assert!(!m.points.is_empty() && m.points.len() <= 4);
                        assert!(!m.normal.is_nan());
                        assert!(m.points.iter().all(|p| !p.depth.is_nan()));
                    }
                    if let Some(c) = contact(a, pa, b, pb, 0.0) {
                        assert!(!c.depth.is_nan());
                    }
                    let _ = intersects(a, pa, b, pb);
                }
            }
        }
    }
}

/// Signed distance of a world point to a shape, as max over face planes (exact inside,
/// a lower bound outside): enough to check "inside within tolerance".
fn plane_distance(s: &Shape, pose: &Pose, world: Vec3) -> f32 {
    let p = pose.inverse_transform_point(world);
    match s {
        Shape::Cuboid(c) => (p.abs() - c.half_extents()).max_element(),
        Shape::ConvexHull(h) => h
            .planes()
            .iter()
            .map(|pl| pl.signed_distance(p))
            .fold(f32::NEG_INFINITY, f32::max),
        Shape::Sphere(sp) => p.length() - sp.radius(),
        Shape::Capsule(c) => {
            (p - Vec3::new(0.0, p.y.clamp(-c.half_height(), c.half_height()), 0.0)).length()
                - c.radius()
        }
        Shape::TriMesh(_) => unreachable!("the property tests have no meshes"),
    }
}

/// Whether every point of `collide`'s manifold lies within both shapes, with the slack
/// `manifold_points_lie_in_both_shapes` allows; `None` when the pair does not touch.
fn points_inside_both(seed: u64, kind: u8, placement: usize) -> Option<bool> {
    let (a, pa, b, pb) = pair(seed, kind, placement);
    let m = collide(&a, &pa, &b, &pb, 0.0, &mut PairCache::default())?;
    let tol = 1e-4 * size(&a, &b);
    let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
    Some(m.points.iter().all(|p| {
        let slack = 0.5 * p.depth.abs() + tol + clip;
        plane_distance(&a, &pa, p.position) <= slack && plane_distance(&b, &pb, p.position) <= slack
    }))
}

/// Random hulls with nearly parallel edges (kind 5, placement 5), where an incident
/// edge lies flat along the reference plane beside the reference face: the fallback
/// point (`support_point`, when the face clip is empty or misses the depth) took the
/// edge's end the support scan named, up to 0.27 outside the other shape on shapes of
/// radius 2 (found by `manifold_points_lie_in_both_shapes` on a random local run; 279
/// of 300,000 seeds of that kind, 32 of the first 40,000 seeds below).
/// Now the point of the tie, or the reference corner, that lies inside is taken.
#[test]
fn a_flat_incident_edge_beside_the_face_keeps_its_points_inside() {
    assert_eq!(
        points_inside_both(1_325_603_288_120_882_723, 5, 5),
        Some(true)
    );
    let (mut touching, mut outside) = (0, Vec::new());
    for k in 0..40_000u64 {
        let seed = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        match points_inside_both(seed, 5, 5) {
            Some(true) => touching += 1,
            Some(false) => outside.push(k),
            None => {}
        }
    }
    assert!(touching > 20_000, "{touching} touching");
    assert!(outside.is_empty(), "points outside for k in {outside:?}");
}

/// Whether `collide`'s manifold at `margin` reaches the exact contact's depth (its
/// deepest point within the clip tolerance of it, as
/// `manifold_points_lie_in_both_shapes` asks); `None` when there is no manifold.
fn reaches_the_exact_depth(seed: u64, kind: u8, placement: usize, margin: f32) -> Option<bool> {
    let (a, pa, b, pb) = pair(seed, kind, placement);
    let m = collide(&a, &pa, &b, &pb, margin, &mut PairCache::default())?;
    let c = contact(&a, &pa, &b, &pb, margin)?;
    let tol = 1e-4 * size(&a, &b);
    let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
    Some(m.depth() >= c.depth - clip - tol)
}

/// Random hulls apart within the margin (kind 5, placement 5) whose exact axis is an
/// edge pair along the closest direction, but whose edges' segments are further apart
/// than their lines (the lines' closest points beyond an edge's end) while other
/// features tied along the axis are the closest: the speculative manifold took the
/// edges' segment points, 0.077 short of the gap of 0.0012 (found by a sweep of
/// random pairs: 3 of 1.3 million; 6 of the 40,000 seeds below). Now the
/// manifold of the closest features is taken when the clipped points miss the gap.
#[test]
fn a_speculative_edge_pair_reaches_the_gap() {
    for (seed, margin) in [
        (4_314_611_940_127_014_007, 0.1),
        (1_190_906_394_226_784_178, 0.05),
        (15_374_385_480_239_398_507, 0.1),
    ] {
        assert_eq!(
            reaches_the_exact_depth(seed, 5, 5, margin),
            Some(true),
            "seed {seed}"
        );
    }
    let (mut within, mut short) = (0, Vec::new());
    for k in 0..40_000u64 {
        let seed = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed;
        match reaches_the_exact_depth(seed, 5, 5, 0.1) {
            Some(true) => within += 1,
            Some(false) => short.push(k),
            None => {}
        }
    }
    assert!(within > 20_000, "{within} with a manifold");
    assert!(
        short.is_empty(),
        "manifolds short of the gap for k in {short:?}"
    );
}

/// Two random hulls (kind 5, placement 5, margin 0) whose exact axis is an edge pair
/// tied with a face of b that the edge of b bounds: the edges' lines cross beyond that
/// edge's end, and the clamped segment points, 0.27 apart sideways, put the manifold's
/// point 0.27 outside a (found by `sweep_of_the_properties`, k = 206,200, 5 December
/// 2026). The edge contact now requires its points to differ by `s n` sideways too,
/// and the pair falls back to its deepest vertex.
#[test]
fn an_edge_pair_tied_with_a_face_puts_its_point_in_both_shapes() {
    let why = broken_properties(8_275_244_325_120_999_648, 5, 5, 0.0);
    assert!(why.is_empty(), "{why}");
}

/// What one pair breaks of the properties above (the manifold's points in both shapes,
/// its depths, the deepest point kept; swap symmetry; the push-out by the depth; the
/// depth equal to the gap along the normal; a repeated or stale warm call), checked
/// without proptest; empty when nothing.
fn broken_properties(seed: u64, kind: u8, placement: usize, margin: f32) -> String {
    let (a, pa, b, pb) = pair(seed, kind, placement);
    let (tol, slop) = (1e-4 * size(&a, &b), slop(&a, &b));
    let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
    let mut why = String::new();
    let manifold = collide(&a, &pa, &b, &pb, margin, &mut PairCache::default());
    let exact = contact(&a, &pa, &b, &pb, margin);
    if manifold.is_some() != exact.is_some() && exact.is_none_or(|c| c.depth >= 0.0) {
        why += &format!("manifold {} but contact {exact:?}; ", manifold.is_some());
    }
    if let (Some(m), Some(c)) = (&manifold, exact) {
        for p in &m.points {
            let slack = 0.5 * p.depth.abs() + tol + clip;
            let outside =
                plane_distance(&a, &pa, p.position).max(plane_distance(&b, &pb, p.position));
            if outside > slack || p.depth < -margin - tol || p.depth > c.depth + slop + tol {
                why += &format!("point {p:?} ({outside} outside, slack {slack}); ");
            }
        }
        if m.depth() < c.depth - clip - tol {
            why += &format!("deepest {} of depth {}; ", m.depth(), c.depth);
        }
    }
    let (ab, ba) = (
        contact(&a, &pa, &b, &pb, 0.0),
        contact(&b, &pb, &a, &pa, 0.0),
    );
    if let (Some(ab), Some(ba)) = (ab, ba) {
        let with_sphere = matches!(a, Shape::Sphere(_)) || matches!(b, Shape::Sphere(_));
        let reversed = (ab.normal + ba.normal).length() < if with_sphere { 5e-3 } else { 1e-3 };
        let gap = |c: &sepax_narrowphase::Contact, (x, px, y, py)| {
            (gap_along(x, px, y, py, c.normal.as_dvec3()) + c.depth as f64).abs() <= tol as f64
        };
        let tie = gap(&ba, (&b, &pb, &a, &pa)) && gap(&ab, (&a, &pa, &b, &pb));
        if (ab.depth - ba.depth).abs() > tol || !(reversed || tie) {
            why += &format!("swapped {ab:?} against {ba:?}; ");
        }
        if !gap(&ab, (&a, &pa, &b, &pb)) && !with_sphere {
            why += &format!("depth {} off the gap along its normal; ", ab.depth);
        }
        let out = Pose::new(pb.translation + ab.normal * (ab.depth + tol), pb.rotation);
        if intersects(&a, &pa, &b, &out) {
            why += "still touching once pushed out by the depth; ";
        }
    } else if let Some(c) = ab.or(ba)
        && c.depth.abs() > 1e-5 * size(&a, &b)
    {
        why += &format!("one order only: {c:?}; ");
    }
    let mut same = PairCache::default();
    let first = collide(&a, &pa, &b, &pb, 0.01, &mut same);
    if collide(&a, &pa, &b, &pb, 0.01, &mut same) != first {
        why += "a repeated call changed; ";
    }
    let (_, qa, _, qb) = pair(seed ^ 0xabc, kind, placement + 1);
    let mut stale = PairCache::default();
    collide(&a, &qa, &b, &qb, 0.01, &mut stale);
    let warm = collide(&a, &pa, &b, &pb, 0.01, &mut stale);
    if collide(&a, &pa, &b, &pb, 0.01, &mut stale) != warm {
        why += "a repeated stale call changed; ";
    }
    why
}

/// The properties above on far more seeds than proptest draws (CI pins its seed):
/// every kind and placement of `pair` for `SWEEP_N` seeds (default 20,000: 1.32 million
/// pairs) from `SWEEP_START` (default 20,000), margins 0, 0.01, 0.05 and 0.1 in turn.
/// Ignored as slow (about 50 s optimised); run it with
/// `cargo test --release -p sepax-narrowphase --test properties sweep_of_the_properties -- --ignored --nocapture`.
/// Found the speculative edge pairs short of the gap (5 December 2026: 3 of the first
/// 1.32 million). Seeds below 20,000 held a marginal case until the end points of
/// nearly parallel capsules took the cores' own gap (5 December 2026): k = 8,951, kind
/// 9, placement 5, margin 0.1, a speculative point 0.0329 outside a where the slack is
/// 0.0325; seeds 0–20,000 and 400,000–440,000 now pass. Seeds 1,000,000–1,040,000
/// found capsules whose cores cross nearly parallel (k = 1,022,410, kind 9, placement 5):
/// their normal was round-off (`crossing_capsules_overlap_by_their_radii_along_their_common_perpendicular`
/// in `capsule_contacts.rs`).
#[test]
#[ignore]
fn sweep_of_the_properties() {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let (start, n) = (
        env("SWEEP_START").unwrap_or(20_000),
        env("SWEEP_N").unwrap_or(20_000),
    );
    let mut broken = Vec::new();
    for k in start..start + n {
        let seed = k.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x1234_5678;
        let margin = [0.0, 0.01, 0.05, 0.1][(k % 4) as usize];
        for kind in 0..KINDS {
            for placement in 0..6 {
                let why = broken_properties(seed, kind, placement, margin);
                if !why.is_empty() {
                    broken.push(format!(
                        "k {k} seed {seed} kind {kind} placement {placement} margin {margin}: {why}"
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken:\n{}",
        broken.len(),
        broken[..broken.len().min(20)].join("\n")
    );
}
