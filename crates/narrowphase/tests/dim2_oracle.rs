//! The 2D narrow phase against seed 001's slow twin (f64, all vertices on every edge
//! normal of both shapes) on 100,000+ random pairs per shape combination, including
//! near-touching pairs, coincident centres and parallel edges.

use glam::DVec2;
use sepax_geometry::dim2::{Pose2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::oracle::{point_polygon_distance, world_vertices};
use sepax_narrowphase::dim2::{Feature2, REFERENCE_TOLERANCE, collide2d, contact2d, intersects2d};
use sepax_testkit::pairs2d::{
    Placement2, Shape2Kind, face_separations, oracle2, random_pair2, top_two,
};

const PAIRS: usize = 100_000;
const BAND: f64 = 1e-5;
const MARGIN: f32 = 0.05;

/// Distance between two disjoint convex polygons: the nearest vertex of either to
/// the other.
fn polygon_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    let ab = a
        .iter()
        .map(|v| point_polygon_distance(*v, b))
        .fold(f64::INFINITY, f64::min);
    let ba = b
        .iter()
        .map(|v| point_polygon_distance(*v, a))
        .fold(f64::INFINITY, f64::min);
    ab.min(ba)
}

/// The depth's tolerance: f32 round-off of coordinates up to about 10 (worst measured
/// 3.5e-7 of `max(depth, 1)` over five seeds); the contact is the exact SAT axis, so
/// nothing else is allowed.
fn depth_tol(oracle_depth: f64) -> f64 {
    2e-6 * oracle_depth.abs().max(1.0)
}

#[derive(Default, Debug)]
struct Tally {
    penetrating: usize,
    separated: usize,
    in_band: usize,
    speculative: usize,
    coincident: usize,
    parallel: usize,
    near: usize,
}

/// Same verdict outside the band, same depth within `depth_tol`, the normal is an
/// axis along which the overlap is the depth, a manifold with 1–2 points exists for
/// penetrating pairs, and the margin rule matches the directed separation.
fn check_combination(ka: Shape2Kind, kb: Shape2Kind, seed: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for i in 0..PAIRS {
        let p = random_pair2(&mut rng, ka, kb);
        match p.placement {
            Placement2::CoincidentCenters => t.coincident += 1,
            Placement2::ParallelEdges => t.parallel += 1,
            Placement2::NearTouching => t.near += 1,
            Placement2::Generic => {}
        }
        let va = world_vertices(&p.a, &p.pose_a).unwrap();
        let vb = world_vertices(&p.b, &p.pose_b).unwrap();
        let o = oracle2(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let ours = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0);
        let hit = intersects2d(&p.a, &p.pose_a, &p.b, &p.pose_b);
        assert_eq!(hit, ours.is_some(), "pair {i}");
        if o.depth.abs() <= BAND {
            t.in_band += 1;
        } else if o.depth < 0.0 {
            t.separated += 1;
            assert!(
                ours.is_none(),
                "pair {i}: oracle gap {} but ours {ours:?}",
                -o.depth
            );
        } else {
            t.penetrating += 1;
            let c =
                ours.unwrap_or_else(|| panic!("pair {i}: oracle depth {} but no contact", o.depth));
            assert!(
                (c.depth as f64 - o.depth).abs() <= depth_tol(o.depth),
                "pair {i} ({:?}): depth {} vs oracle {}",
                p.placement,
                c.depth,
                o.depth
            );
            assert!((c.normal.length() - 1.0).abs() < 1e-5);
            // The overlap of the two projections along our normal is our depth.
            let n = DVec2::new(c.normal.x as f64, c.normal.y as f64).normalize();
            let max_a = va
                .iter()
                .map(|v| n.dot(*v))
                .fold(f64::NEG_INFINITY, f64::max);
            let min_b = vb.iter().map(|v| n.dot(*v)).fold(f64::INFINITY, f64::min);
            assert!(
                (max_a - min_b - c.depth as f64).abs() <= depth_tol(o.depth),
                "pair {i}: overlap along our normal {} vs depth {}",
                max_a - min_b,
                c.depth
            );
            let m = collide2d(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0)
                .unwrap_or_else(|| panic!("pair {i}: penetrating but no manifold"));
            assert!((1..=2).contains(&m.points.len()));
            let reference = m.contact();
            if reference.feature == c.feature {
                assert_eq!(reference, c, "pair {i}");
            } else {
                // The manifold kept a's edge while b's separation beat it by less than
                // the reference tolerance: its depth is that much deeper at most.
                let size = p.a.bounding_circle(&Pose2::IDENTITY).radius
                    + p.b.bounding_circle(&Pose2::IDENTITY).radius;
                assert!(
                    matches!(reference.feature, Feature2::EdgeA(_))
                        && matches!(c.feature, Feature2::EdgeB(_))
                        && reference.depth >= c.depth
                        && reference.depth - c.depth <= REFERENCE_TOLERANCE * size * 1.001,
                    "pair {i}: manifold {reference:?}, contact {c:?}"
                );
            }
            assert!(
                m.points
                    .iter()
                    .all(|q| q.depth >= -1e-5 && q.depth <= c.depth + 1e-4)
            );
        }
        // The margin: a contact exactly when the face-normal separation is within it.
        let spec = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN);
        let gap = o.directed - MARGIN as f64;
        if gap > BAND {
            assert!(
                spec.is_none(),
                "pair {i}: directed sep {} > margin",
                o.directed
            );
        } else if gap < -BAND {
            // A face-normal separation is only a lower bound on the distance; the
            // bounding-circle filter may prove the pair farther than the margin.
            let Some(c) = spec else {
                let distance = polygon_distance(&va, &vb);
                assert!(
                    distance > MARGIN as f64 - BAND,
                    "pair {i}: directed sep {} and distance {distance} within margin",
                    o.directed
                );
                continue;
            };
            assert!(
                (c.depth as f64 + o.directed).abs() <= depth_tol(o.directed),
                "pair {i}"
            );
            if o.directed > BAND {
                t.speculative += 1;
                assert!(c.depth < 0.0);
            }
        }
    }
    for (name, n) in [
        ("penetrating", t.penetrating),
        ("separated", t.separated),
        ("speculative", t.speculative),
        ("coincident", t.coincident),
        ("parallel", t.parallel),
        ("near", t.near),
    ] {
        assert!(n >= PAIRS / 50, "too few {name} pairs: {t:?}");
    }
    eprintln!("{ka:?}-{kb:?}: {t:?}");
    t
}

#[test]
fn obb2_obb2_matches_oracle() {
    check_combination(Shape2Kind::Box, Shape2Kind::Box, 1);
}

#[test]
fn polygon_polygon_matches_oracle() {
    check_combination(Shape2Kind::Polygon, Shape2Kind::Polygon, 2);
}

#[test]
fn obb2_polygon_matches_oracle() {
    check_combination(Shape2Kind::Box, Shape2Kind::Polygon, 3);
    check_combination(Shape2Kind::Polygon, Shape2Kind::Box, 4);
}

/// The box fast path (4 axes, projected radii) and the generic polygon path on the
/// same rectangles give the same contact (or the polygon path none, where its
/// bounding-circle filter proves the pair farther than the margin).
#[test]
fn box_fast_path_equals_polygon_path() {
    let mut rng = Rng::new(5);
    for i in 0..20_000 {
        let p = random_pair2(&mut rng, Shape2Kind::Box, Shape2Kind::Box);
        let as_poly = |s: &Shape2| match s {
            Shape2::Obb2(b) => Shape2::Polygon(b.to_polygon()),
            _ => unreachable!(),
        };
        let fast = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN);
        let slow = contact2d(&as_poly(&p.a), &p.pose_a, &as_poly(&p.b), &p.pose_b, MARGIN);
        let o = oracle2(&p.a, &p.pose_a, &p.b, &p.pose_b);
        if (o.directed - MARGIN as f64).abs() <= BAND {
            continue;
        }
        if fast.is_some() != slow.is_some() {
            // Only the polygon path has the bounding-circle filter, which may prove a
            // pair within the margin on the face normals farther than it.
            let va = world_vertices(&p.a, &p.pose_a).unwrap();
            let vb = world_vertices(&p.b, &p.pose_b).unwrap();
            let distance = polygon_distance(&va, &vb);
            assert!(
                slow.is_none() && distance > MARGIN as f64 - BAND,
                "pair {i}: {fast:?} vs {slow:?}, distance {distance}"
            );
            continue;
        }
        if let (Some(f), Some(s)) = (fast, slow) {
            assert!(
                ((f.depth - s.depth).abs() as f64) <= depth_tol(f.depth as f64),
                "pair {i}: {f:?} vs {s:?}"
            );
        }
    }
}

/// The box manifold (clip in the reference box's turned frame) equals the polygon
/// manifold on the same rectangles: same reference edge, same point count, same ids,
/// positions and depths within round-off, on pairs clear of ties.
#[test]
fn box_manifold_equals_polygon_manifold() {
    let mut rng = Rng::new(7);
    let mut compared = 0;
    for i in 0..50_000 {
        let p = random_pair2(&mut rng, Shape2Kind::Box, Shape2Kind::Box);
        let as_poly = |s: &Shape2| match s {
            Shape2::Obb2(b) => Shape2::Polygon(b.to_polygon()),
            _ => unreachable!(),
        };
        let va = world_vertices(&p.a, &p.pose_a).unwrap();
        let vb = world_vertices(&p.b, &p.pose_b).unwrap();
        let (a1, a2) = top_two(&face_separations(&va, &vb));
        let (b1, b2) = top_two(&face_separations(&vb, &va));
        if a1 - a2 < 1e-4 || b1 - b2 < 1e-4 || (a1 - b1).abs() < 1e-4 {
            continue;
        }
        let fast = collide2d(&p.a, &p.pose_a, &p.b, &p.pose_b, MARGIN);
        let slow = collide2d(&as_poly(&p.a), &p.pose_a, &as_poly(&p.b), &p.pose_b, MARGIN);
        let (Some(f), Some(s)) = (&fast, &slow) else {
            let near_margin = fast
                .iter()
                .chain(slow.iter())
                .any(|m| m.points.iter().all(|q| (q.depth + MARGIN).abs() < 1e-4));
            assert!(
                fast.is_none() && slow.is_none() || near_margin,
                "pair {i}: {fast:?} vs {slow:?}"
            );
            continue;
        };
        compared += 1;
        assert_eq!(f.feature, s.feature, "pair {i}");
        assert!((f.normal - s.normal).length() < 1e-5 && (f.depth() - s.depth()).abs() < 1e-5);
        if f.points.len() != s.points.len() {
            assert!(
                f.points
                    .iter()
                    .chain(&s.points)
                    .any(|q| (q.depth + MARGIN).abs() < 1e-4),
                "pair {i}: {f:?} vs {s:?}"
            );
            continue;
        }
        // A deep point's place along the normal is the middle of the part of its normal
        // line inside both boxes; with that line within `φ` of an edge, the part's ends
        // move by the corners' round-off over `sin φ` (a line 3e-4 rad off a thin box's
        // edge put the two paths' points 1.5e-4 apart, seed xor 4242). Across the normal
        // the points agree to round-off.
        let n = f.normal.as_dvec2();
        let sin_least = va
            .iter()
            .zip(va.iter().cycle().skip(1))
            .chain(vb.iter().zip(vb.iter().cycle().skip(1)))
            .map(|(p, q)| n.perp_dot((*q - *p).normalize()).abs())
            .fold(f64::INFINITY, f64::min);
        let reach = va
            .iter()
            .chain(&vb)
            .map(|v| v.abs().max_element())
            .fold(0.0, f64::max);
        let along_tolerance = 1e-4f64.max(4.0 * f64::from(f32::EPSILON) * reach / sin_least);
        for (x, y) in f.points.iter().zip(&s.points) {
            let gap = (x.position - y.position).as_dvec2();
            assert!(
                (gap - n * gap.dot(n)).length() < 1e-4 && gap.dot(n).abs() < along_tolerance,
                "pair {i}: {f:?} vs {s:?}"
            );
            assert!((x.depth - y.depth).abs() < 1e-5);
        }
        let ids = |m: &sepax_narrowphase::dim2::Manifold2| {
            m.points.iter().map(|q| q.id).collect::<Vec<_>>()
        };
        if ids(f) != ids(s) {
            // An incident edge chosen differently on a near tie of two anti-parallel
            // edges is the only allowed cause.
            assert!(
                f.points
                    .iter()
                    .zip(&s.points)
                    .all(|(x, y)| x.id & 0xfff == y.id & 0xfff),
                "pair {i}"
            );
        }
    }
    assert!(compared > 20_000, "{compared}");
}

/// Circle–polygon and circle–circle against the exact signed distance (f64).
#[test]
fn circles_match_exact_distance() {
    let mut rng = Rng::new(6);
    for i in 0..PAIRS {
        let kb = if rng.below(2) == 0 {
            Shape2Kind::Box
        } else {
            Shape2Kind::Polygon
        };
        let kb = if rng.below(5) == 0 {
            Shape2Kind::Circle
        } else {
            kb
        };
        let p = random_pair2(&mut rng, Shape2Kind::Circle, kb);
        let Shape2::Circle(circle) = &p.a else {
            unreachable!()
        };
        let center = p.pose_a.transform_point(circle.center());
        let dist = match &p.b {
            Shape2::Circle(cb) => {
                (center.as_dvec2() - p.pose_b.transform_point(cb.center()).as_dvec2()).length()
                    - cb.radius() as f64
            }
            other => point_polygon_distance(
                center.as_dvec2(),
                &world_vertices(other, &p.pose_b).unwrap(),
            ),
        };
        let exact = circle.radius() as f64 - dist;
        for (a, pa, b, pb) in [
            (&p.a, &p.pose_a, &p.b, &p.pose_b),
            (&p.b, &p.pose_b, &p.a, &p.pose_a),
        ] {
            let c = contact2d(a, pa, b, pb, MARGIN);
            if exact + (MARGIN as f64) < -BAND {
                assert!(c.is_none(), "pair {i}: {c:?}, exact depth {exact}");
            } else if exact + (MARGIN as f64) > BAND {
                let c = c.unwrap_or_else(|| panic!("pair {i}: exact depth {exact}"));
                assert!(
                    (c.depth as f64 - exact).abs() <= depth_tol(exact),
                    "pair {i}: {} vs {exact}",
                    c.depth
                );
                // The normal points from the first shape to the second.
                let moved =
                    Pose2::from_parts(pb.translation + c.normal * (c.depth + 1e-4), pb.rotation);
                assert!(!intersects2d(a, pa, b, &moved), "pair {i}: push apart");
            }
        }
    }
}

/// A thin box sunk 0.62 into another, as rectangles and as 4-gons (the dim2 oracle's
/// box-manifold test with seed xor 31, pair 47,004): the incident edge is clipped on the
/// reference edge's side plane, which runs along the reference box's neighbouring edge,
/// and the clipped point goes to the middle of the part of its normal segment inside
/// both shapes, worked out here in f64 from the world corners. The polygon path bounded
/// that part by the neighbouring edge, whose f32 normal is `1.2e-6` off square: the
/// bound fell mid-segment and the point landed 0.034 from the middle.
#[test]
fn a_point_clipped_on_a_side_plane_goes_to_the_middle_of_the_overlap() {
    use glam::Vec2;
    use sepax_geometry::dim2::{Obb2, Rot2};
    let rot = Rot2::from_direction(Vec2::new(-0.19715281, 0.9803728)).unwrap();
    let a = Obb2::try_new(
        Vec2::new(0.22050965, -0.33751124),
        Vec2::new(-0.8478097, -0.5303006),
        Vec2::new(0.5303006, -0.8478097),
        Vec2::new(1.4848996, 1.734447),
    )
    .unwrap();
    let b = Obb2::try_new(
        Vec2::new(-0.3506801, 0.118592024),
        Vec2::new(0.101877965, -0.99479693),
        Vec2::new(0.99479693, 0.101877965),
        Vec2::new(0.10847101, 1.5122584),
    )
    .unwrap();
    let pa = Pose2::from_parts(Vec2::new(-4.679288, 4.1733637), rot);
    let pb = Pose2::from_parts(Vec2::new(-4.3320985, 4.7690487), rot);
    // The middle by hand: b's edge 1 is the reference (outward normal `n`, b's +x in
    // the world), a's edge 0 the incident one, clipped at the side plane through b's
    // vertex 1; the segment from there along `n` up to the reference line, cut to both
    // boxes.
    let world = |o: &Obb2, pose: &Pose2| o.vertices().map(|v| pose.transform_point(v).as_dvec2());
    let (wa, wb) = (world(&a, &pa), world(&b, &pb));
    let n = (wb[2] - wb[1]).perp().normalize() * -1.0;
    let t = DVec2::new(-n.y, n.x);
    let (w1, w2) = (wa[0], wa[1]);
    let q = w1 + (w2 - w1) * (t.dot(wb[1] - w1) / t.dot(w2 - w1));
    let s = n.dot(q - wb[1]);
    let inside = |corners: &[DVec2; 4], t: f64| {
        let p = q + n * t;
        (0..4).all(|k| (corners[(k + 1) % 4] - corners[k]).perp_dot(p - corners[k]) >= -1e-12)
    };
    // The part inside both, on a fine scan of the segment (an interval: both are convex).
    let steps = 20_000;
    let ts: Vec<f64> = (0..=steps)
        .map(|k| -s * k as f64 / steps as f64)
        .filter(|&t| inside(&wa, t) && inside(&wb, t))
        .collect();
    let middle = q + n * (0.5 * (ts[0] + ts[ts.len() - 1]));
    for (label, sa, sb) in [
        ("boxes", Shape2::Obb2(a), Shape2::Obb2(b)),
        (
            "4-gons",
            Shape2::Polygon(a.to_polygon()),
            Shape2::Polygon(b.to_polygon()),
        ),
    ] {
        let m = collide2d(&sa, &pa, &sb, &pb, 0.05).expect("sunk 0.62 deep");
        let point = m
            .points
            .iter()
            .find(|p| (p.depth as f64 + s).abs() < 1e-5)
            .unwrap_or_else(|| panic!("{label}: no point of depth {}: {m:?}", -s));
        let off = (point.position.as_dvec2() - middle).length();
        assert!(
            off < 1e-3,
            "{label}: {} is {off} from the middle {middle}",
            point.position
        );
    }
}

/// A quad 0.38 deep in a hexagon whose edges 3 and 4 are nearly collinear (normals 7e-6
/// rad apart; the dim2 oracle's polygon test with seed xor 3, pair 58,230): the SAT takes
/// edge 3, and the quad's incident edge lies wholly beyond its side plane, under edge 4.
/// The clip kept nothing and `collide2d` said "no contact" for a pair `contact2d` found
/// 0.38 deep. Now the incident vertex deepest along the normal is kept: both orders give
/// a manifold whose deepest point is the contact's depth.
#[test]
fn a_deep_pair_beside_a_nearly_collinear_edge_keeps_its_deepest_point() {
    use glam::Vec2;
    use sepax_geometry::dim2::{ConvexPolygon, Rot2};
    let polygon = |points: &[Vec2]| Shape2::Polygon(ConvexPolygon::try_new(points).unwrap());
    let quad = polygon(&[
        Vec2::new(0.102722324, 0.020170767),
        Vec2::new(0.30269665, -0.08472981),
        Vec2::new(0.22050273, 0.20842731),
        Vec2::new(0.12155743, 0.1466442),
    ]);
    let hexagon = polygon(&[
        Vec2::new(-0.46676207, -0.012773407),
        Vec2::new(0.065208845, -0.3251565),
        Vec2::new(0.29173055, -0.16360253),
        Vec2::new(0.09073189, 0.48068306),
        Vec2::new(-0.17317365, 0.34062284),
        Vec2::new(-0.3816283, 0.22998963),
    ]);
    let rot = Rot2::from_direction(Vec2::new(-0.17929532, -0.9837953)).unwrap();
    let pa = Pose2::from_parts(Vec2::new(-4.1700935, -0.98973083), rot);
    let pb = Pose2::from_parts(Vec2::new(-4.3072658, -1.2683016), rot);
    let exact = oracle2(&quad, &pa, &hexagon, &pb).depth;
    for (a, pose_a, b, pose_b) in [(&quad, &pa, &hexagon, &pb), (&hexagon, &pb, &quad, &pa)] {
        for margin in [0.0, MARGIN] {
            let c = contact2d(a, pose_a, b, pose_b, margin).expect("0.38 deep");
            assert!((c.depth as f64 - exact).abs() <= depth_tol(exact));
            let m = collide2d(a, pose_a, b, pose_b, margin)
                .unwrap_or_else(|| panic!("{c:?} but no manifold"));
            let deepest = m.points.iter().map(|p| p.depth).fold(f32::MIN, f32::max);
            assert!(
                (deepest as f64 - exact).abs() <= depth_tol(exact),
                "deepest point {deepest}, exact depth {exact}: {m:?}"
            );
        }
    }
}
