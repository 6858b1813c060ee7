//! Properties of the 2D narrow phase (proptest over seeded random pairs of every
//! shape combination): swapping a and b, moving both rigidly, pushing apart by the
//! depth, manifold points inside both shapes, at most 2 points, feature ids stable
//! under a tiny motion.

use glam::{DVec2, Vec2};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use sepax_geometry::dim2::{Pose2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::oracle::world_vertices;
use sepax_narrowphase::dim2::{Feature2, REFERENCE_TOLERANCE, collide2d, contact2d, intersects2d};
use sepax_testkit::pairs2d::{
    Pair2, Shape2Kind, face_separations, oracle2, pair2_scale, random_pair2, shape2_distance,
    top_two,
};

const MARGIN: f32 = 0.05;
const KINDS: [Shape2Kind; 3] = [Shape2Kind::Box, Shape2Kind::Polygon, Shape2Kind::Circle];

fn pair_from(seed: u64, ka: usize, kb: usize) -> Pair2 {
    random_pair2(&mut Rng::new(seed), KINDS[ka], KINDS[kb])
}

fn is_round(s: &Shape2) -> bool {
    matches!(s, Shape2::Circle(_))
}

/// For two polygon-like shapes: no near-tie in the choice of reference face (within
/// each shape and between the shapes), judged in f64 with a gap of `gap`.
fn faces_tie_free(p: &Pair2, gap: f64) -> bool {
    if is_round(&p.a) || is_round(&p.b) {
        return true;
    }
    let va = world_vertices(&p.a, &p.pose_a).unwrap();
    let vb = world_vertices(&p.b, &p.pose_b).unwrap();
    let (a1, a2) = top_two(&face_separations(&va, &vb));
    let (b1, b2) = top_two(&face_separations(&vb, &va));
    a1 - a2 > gap && b1 - b2 > gap && (a1 - b1).abs() > gap
}

/// Circle pairs: the center is not near a Voronoi-region boundary or a vertex of the
/// polygon, and circle centers are not nearly coincident (f32 round-off at world
/// coordinates up to ~25 would turn the center-to-center normal).
fn round_regions_clear(p: &Pair2) -> bool {
    let center = |s: &Shape2, pose: &Pose2| match s {
        Shape2::Circle(c) => Some(pose.transform_point(c.center())),
        _ => None,
    };
    match (center(&p.a, &p.pose_a), center(&p.b, &p.pose_b)) {
        (Some(ca), Some(cb)) => (ca - cb).length() > 0.05,
        (Some(c), None) => region_clear(c, &world_vertices(&p.b, &p.pose_b).unwrap()),
        (None, Some(c)) => region_clear(c, &world_vertices(&p.a, &p.pose_a).unwrap()),
        (None, None) => true,
    }
}

fn region_clear(c: Vec2, poly: &[DVec2]) -> bool {
    let c = c.as_dvec2();
    let seps = face_separations(poly, &[c]);
    let (s1, s2) = top_two(&seps);
    if s1 - s2 < 1e-3 {
        return false;
    }
    // Away from the vertices (a vertex normal c − v is ill-conditioned when short)
    // and from the lines through each vertex that bound the vertex regions.
    poly.iter().all(|v| (c - *v).length() > 0.05)
        && (0..poly.len()).all(|i| {
            let (v, w) = (poly[i], poly[(i + 1) % poly.len()]);
            let t = (w - v).normalize();
            (t.dot(c - v)).abs() > 1e-3 && (t.dot(c - w)).abs() > 1e-3
        })
}

fn reflect_margin(depth: f32) -> bool {
    (depth + MARGIN).abs() < 1e-3
}

/// 3000 cases from a fixed seed (deterministic CI); set `SEPAX_PROPTEST_SEED` to
/// explore other seeds.
fn config() -> ProptestConfig {
    let seed = std::env::var("SEPAX_PROPTEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    ProptestConfig {
        cases: 3000,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// collide2d(b, a) flips the normal and keeps the depth of collide2d(a, b).
    #[test]
    fn swap_flips_normal_keeps_depth(seed in any::<u64>(), ka in 0..3usize, kb in 0..3usize) {
        let p = pair_from(seed, ka, kb);
        let ab = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN);
        let ba = contact2d(&p.b, &p.pose_b, &p.a, &p.pose_a, MARGIN);
        let scale = pair2_scale(&p) as f32;
        match (ab, ba) {
            (Some(x), Some(y)) => {
                prop_assert!((x.depth - y.depth).abs() <= REFERENCE_TOLERANCE * scale + 2e-5,
                    "{x:?} vs {y:?}");
                if faces_tie_free(&p, 1e-4) && round_regions_clear(&p) {
                    prop_assert!((x.normal + y.normal).length() < 1e-4, "{x:?} vs {y:?}");
                    prop_assert!((x.depth - y.depth).abs() < 1e-5);
                }
            }
            (None, None) => {}
            (Some(c), None) | (None, Some(c)) => prop_assert!(reflect_margin(c.depth) || c.depth < -MARGIN + 1e-4,
                "one order only: {c:?}"),
        }
    }

    /// Moving both shapes by one rigid transform moves the result with them.
    #[test]
    fn rigid_motion_moves_the_result(seed in any::<u64>(), ka in 0..3usize, kb in 0..3usize,
                                     tx in -20.0f32..20.0, ty in -20.0f32..20.0, angle in -3.2f32..3.2) {
        let p = pair_from(seed, ka, kb);
        prop_assume!(faces_tie_free(&p, 1e-4) && round_regions_clear(&p));
        let t = Pose2::new(Vec2::new(tx, ty), angle);
        let (qa, qb) = (t * p.pose_a, t * p.pose_b);
        let m0 = collide2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN);
        let m1 = collide2d(&p.a, &qa, &p.b, &qb, MARGIN);
        match (m0, m1) {
            (Some(m0), Some(m1)) => {
                prop_assert!((t.transform_vector(m0.normal) - m1.normal).length() < 1e-4);
                prop_assert!((m0.depth() - m1.depth()).abs() < 1e-4);
                prop_assert_eq!(m0.feature, m1.feature);
                if m0.points.len() == m1.points.len() {
                    for (x, y) in m0.points.iter().zip(&m1.points) {
                        prop_assert!((t.transform_point(x.position) - y.position).length() < 1e-3,
                            "{x:?} vs {y:?}: off by {}", (t.transform_point(x.position) - y.position).length());
                        prop_assert!((x.depth - y.depth).abs() < 1e-4);
                    }
                } else {
                    let all = m0.points.iter().chain(&m1.points);
                    prop_assert!(all.clone().any(|q| reflect_margin(q.depth)), "point counts differ");
                }
            }
            (None, None) => {}
            (Some(m), None) | (None, Some(m)) => {
                prop_assert!(reflect_margin(m.depth()) || m.points.iter().all(|q| reflect_margin(q.depth)),
                    "only one side: {m:?}");
            }
        }
    }

    /// Translating b by depth + 1e-4 along the normal separates the pair.
    #[test]
    fn pushing_by_depth_separates(seed in any::<u64>(), ka in 0..3usize, kb in 0..3usize) {
        let p = pair_from(seed, ka, kb);
        if let Some(c) = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0) {
            let moved = Pose2::from_parts(p.pose_b.translation + c.normal * (c.depth + 1e-4), p.pose_b.rotation);
            prop_assert!(!intersects2d(&p.a, &p.pose_a, &p.b, &moved), "{c:?}");
            if !is_round(&p.a) && !is_round(&p.b) {
                prop_assert!(oracle2(&p.a, &p.pose_a, &p.b, &moved).depth < 0.0);
            }
        }
    }

    /// Every manifold point lies in both shapes (for a speculative point: within half
    /// its separation of each), there are 1 or 2 points, and point depths never
    /// exceed the manifold's.
    #[test]
    fn points_lie_in_both_shapes(seed in any::<u64>(), ka in 0..3usize, kb in 0..3usize) {
        let p = pair_from(seed, ka, kb);
        if let Some(m) = collide2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN) {
            prop_assert!((1..=2).contains(&m.points.len()));
            let tol = 1e-4 * pair2_scale(&p);
            for q in &m.points {
                let allowed = (-q.depth).max(0.0) as f64 / 2.0 + tol;
                let da = shape2_distance(&p.a, &p.pose_a, q.position);
                let db = shape2_distance(&p.b, &p.pose_b, q.position);
                prop_assert!(da <= allowed && db <= allowed, "{q:?}: {da} {db} ({:?})", p.placement);
                prop_assert!(q.depth <= m.depth() + 1e-4);
            }
        }
    }

    /// Feature ids do not change under a tiny motion when no decision is near a tie
    /// (reference face, incident edge, side-plane clips, the margin).
    #[test]
    fn feature_ids_survive_tiny_motion(seed in any::<u64>(), ka in 0..2usize, kb in 0..2usize,
                                       dx in -1e-5f32..1e-5, dy in -1e-5f32..1e-5, da in -1e-5f32..1e-5) {
        let p = pair_from(seed, ka, kb);
        prop_assume!(faces_tie_free(&p, 1e-3));
        let Some(m0) = collide2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN) else { return Ok(()) };
        prop_assume!(m0.points.iter().all(|q| !reflect_margin(q.depth)));
        prop_assume!(clip_decisions_clear(&p, &m0));
        let moved = Pose2::new(p.pose_b.translation + Vec2::new(dx, dy), p.pose_b.rotation.angle() + da);
        let m1 = collide2d(&p.a, &p.pose_a, &p.b, &moved, MARGIN).expect("tiny motion lost the contact");
        // A point crossing the margin legitimately appears or disappears.
        prop_assume!(m1.points.iter().all(|q| !reflect_margin(q.depth)));
        let ids = |m: &sepax_narrowphase::dim2::Manifold2| m.points.iter().map(|q| q.id).collect::<Vec<_>>();
        prop_assert_eq!(ids(&m0), ids(&m1));
        prop_assert_eq!(m0.feature, m1.feature);
    }
}

/// The incident edge is clearly the most anti-parallel one and its end points are
/// clearly on one side of each side plane (f64, world).
fn clip_decisions_clear(p: &Pair2, m: &sepax_narrowphase::dim2::Manifold2) -> bool {
    let va = world_vertices(&p.a, &p.pose_a).unwrap();
    let vb = world_vertices(&p.b, &p.pose_b).unwrap();
    let (reference, incident, edge) = match m.feature {
        Feature2::EdgeA(i) => (&va, &vb, i as usize),
        Feature2::EdgeB(i) => (&vb, &va, i as usize),
        _ => return false,
    };
    let (v1, v2) = (reference[edge], reference[(edge + 1) % reference.len()]);
    let t = (v2 - v1).normalize();
    let n = DVec2::new(t.y, -t.x);
    let k = incident.len();
    let dots: Vec<f64> = (0..k)
        .map(|j| {
            let e = incident[(j + 1) % k] - incident[j];
            -n.dot(DVec2::new(e.y, -e.x).normalize())
        })
        .collect();
    let (d1, d2) = top_two(&dots);
    if d1 - d2 < 1e-3 {
        return false;
    }
    let j = dots.iter().position(|d| *d == d1).unwrap();
    [incident[j], incident[(j + 1) % k]]
        .iter()
        .all(|w| (t.dot(*w - v1)).abs() > 1e-3 && (t.dot(*w - v2)).abs() > 1e-3)
}
