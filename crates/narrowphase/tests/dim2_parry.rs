//! parry2d 0.31 (a peer, not the judge) on the same random pairs as the oracle test:
//! `parry2d::query::contact` is compared with seed 001's f64 oracle, and so are we.
//! Cases where parry disagrees with the oracle are counted, and one is kept below as
//! a named regression case.

use glam::Vec2;
use parry2d::math::{Pose2 as PPose, Vector as PVec};
use parry2d::shape::{ConvexPolygon as PConvex, Cuboid as PCuboid, Shape as PShape};
use sepax_geometry::dim2::{Pose2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::contact2d;
use sepax_testkit::pairs2d::{Pair2, Shape2Kind, oracle2, random_pair2};

const PAIRS: usize = 100_000;
const BAND: f64 = 1e-5;
const PARRY_GAP_TOL: f64 = 2e-4;

fn pvec(v: Vec2) -> PVec {
    PVec::new(v.x, v.y)
}

/// The same shape and pose for parry (a box in its own frame, as a centred cuboid).
fn to_parry(s: &Shape2, pose: &Pose2) -> (Box<dyn PShape>, PPose) {
    match s {
        Shape2::Obb2(b) => {
            let f = *pose * b.frame();
            (
                Box::new(PCuboid::new(pvec(b.half_extents()))),
                PPose::new(pvec(f.translation), f.rotation.angle()),
            )
        }
        Shape2::Polygon(p) => (
            Box::new(
                PConvex::from_convex_polyline_unmodified(
                    p.vertices().iter().map(|v| pvec(*v)).collect(),
                )
                .unwrap(),
            ),
            PPose::new(pvec(pose.translation), pose.rotation.angle()),
        ),
        Shape2::Circle(_) => unreachable!("circles are not compared here"),
    }
}

#[derive(Default, Debug)]
struct Stats {
    compared: usize,
    parry_missed: usize,
    parry_false_hit: usize,
    parry_depth_off: usize,
    worst_parry_depth_error: f64,
    ours_depth_off: usize,
    parry_tolerance_hits: usize,
}

fn compare(ka: Shape2Kind, kb: Shape2Kind, seed: u64) -> (Stats, Option<Pair2>) {
    let mut rng = Rng::new(seed);
    let mut st = Stats::default();
    let mut first_bad = None;
    for _ in 0..PAIRS {
        let p = random_pair2(&mut rng, ka, kb);
        let o = oracle2(&p.a, &p.pose_a, &p.b, &p.pose_b);
        if o.depth.abs() <= BAND {
            continue;
        }
        st.compared += 1;
        let (ga, pa) = to_parry(&p.a, &p.pose_a);
        let (gb, pb) = to_parry(&p.b, &p.pose_b);
        let theirs = parry2d::query::contact(&pa, ga.as_ref(), &pb, gb.as_ref(), 0.0).unwrap();
        let ours = contact2d(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0);
        let tol = 1e-4 * o.depth.abs().max(1.0);
        let mut parry_bad = false;
        match (o.depth > 0.0, theirs) {
            (true, None) => {
                st.parry_missed += 1;
                parry_bad = true;
            }
            // parry reports pairs a hair apart (gap up to ~1.2e-4 seen here) as
            // touching, with a positive distance: its own tolerance, not an error.
            (false, Some(c)) if c.dist > 0.0 && -o.depth < PARRY_GAP_TOL => {
                st.parry_tolerance_hits += 1;
            }
            (false, Some(_)) => {
                st.parry_false_hit += 1;
                parry_bad = true;
            }
            (true, Some(c)) => {
                let err = (-(c.dist as f64) - o.depth).abs();
                st.worst_parry_depth_error = st.worst_parry_depth_error.max(err);
                if err > tol {
                    st.parry_depth_off += 1;
                    parry_bad = true;
                }
            }
            (false, None) => {}
        }
        // Ours on the very same pairs (the oracle test checks more).
        match ours {
            Some(c) if o.depth > 0.0 && (c.depth as f64 - o.depth).abs() <= tol => {}
            None if o.depth < 0.0 => {}
            _ => st.ours_depth_off += 1,
        }
        if parry_bad && std::env::var_os("SEPAX_VERBOSE").is_some() {
            // SEPAX_VERBOSE=1 prints every disagreement with its shapes and poses.
            eprintln!(
                "parry disagrees: oracle {:?}, parry {theirs:?}, ours {ours:?}\n  a={:?} pose_a={:?}\n  b={:?} pose_b={:?}",
                o, p.a, p.pose_a, p.b, p.pose_b
            );
        }
        if parry_bad && first_bad.is_none() {
            first_bad = Some(p);
        }
    }
    eprintln!("{ka:?}-{kb:?}: {st:?}");
    (st, first_bad)
}

fn check(ka: Shape2Kind, kb: Shape2Kind, seed: u64) {
    let (st, first_bad) = compare(ka, kb, seed);
    assert_eq!(st.ours_depth_off, 0, "{st:?}");
    // parry agrees on the vast majority of pairs (a sanity check that both sides
    // measure the same geometry); its disagreements are reported, not judged here.
    let bad = st.parry_missed + st.parry_false_hit + st.parry_depth_off;
    assert!(
        bad * 1000 < st.compared,
        "parry disagrees on {bad} of {} pairs: {st:?}",
        st.compared
    );
    if let Some(p) = first_bad {
        eprintln!(
            "first parry disagreement: a={:?} pose_a={:?} b={:?} pose_b={:?}",
            p.a, p.pose_a, p.b, p.pose_b
        );
    }
}

#[test]
fn parry_contact_on_obb2_pairs() {
    check(Shape2Kind::Box, Shape2Kind::Box, 1);
}

#[test]
fn parry_contact_on_polygon_pairs() {
    check(Shape2Kind::Polygon, Shape2Kind::Polygon, 2);
}

#[test]
fn parry_contact_on_obb2_polygon_pairs() {
    check(Shape2Kind::Box, Shape2Kind::Polygon, 3);
}

fn polygon(points: &[(f32, f32)]) -> Shape2 {
    let pts: Vec<Vec2> = points.iter().map(|(x, y)| Vec2::new(*x, *y)).collect();
    Shape2::Polygon(sepax_geometry::dim2::ConvexPolygon::try_new(&pts).unwrap())
}

fn pose(x: f32, y: f32, cos: f32, sin: f32) -> Pose2 {
    Pose2::from_parts(
        Vec2::new(x, y),
        sepax_geometry::dim2::Rot2::from_direction(Vec2::new(cos, sin)).unwrap(),
    )
}

/// Found by `parry_contact_on_polygon_pairs` (seed 2): a small triangle deep inside
/// a long one. The oracle's depth is 0.2611; parry2d 0.31's `query::contact`
/// (GJK/EPA) reports a penetration of about 0.021. We match the oracle.
#[test]
fn parry_0_31_underestimates_a_deep_triangle_pair() {
    let a = polygon(&[
        (-0.47595567, -0.36613742),
        (0.095466174, -0.9678768),
        (-0.23406696, 0.6961178),
    ]);
    let pa = pose(-2.6614876, 0.6420078, -0.43210417, -0.9018237);
    let b = polygon(&[
        (0.026976725, -0.09785792),
        (0.13631316, -0.18320441),
        (0.08361107, 0.052154504),
    ]);
    let pb = pose(-2.7359605, 0.80443305, -0.8419138, 0.53961205);
    let o = oracle2(&a, &pa, &b, &pb);
    assert!((o.depth - 0.2611).abs() < 1e-3, "{o:?}");
    let ours = contact2d(&a, &pa, &b, &pb, 0.0).unwrap();
    assert!((ours.depth as f64 - o.depth).abs() < 1e-4);
    let (ga, qa) = to_parry(&a, &pa);
    let (gb, qb) = to_parry(&b, &pb);
    let theirs = parry2d::query::contact(&qa, ga.as_ref(), &qb, gb.as_ref(), 0.0)
        .unwrap()
        .unwrap();
    eprintln!(
        "oracle {} ours {} parry {}",
        o.depth, ours.depth, -theirs.dist
    );
    assert!(
        (-theirs.dist as f64 - o.depth).abs() > 0.1,
        "parry now agrees: {theirs:?}"
    );
}

/// Found by the same run: parry's depth is off by 6.6e-4 (0.6 %) on a moderate
/// penetration (EPA's tolerance); ours is within 1e-6.
#[test]
fn parry_0_31_depth_off_on_pentagon_hexagon_pair() {
    let a = polygon(&[
        (-0.7241603, -0.22312315),
        (-0.23114774, -0.21414554),
        (0.2679685, 0.07014367),
        (0.3283331, 0.25274542),
        (0.17478251, 0.37858093),
        (-0.3105728, 0.7176433),
    ]);
    let pa = pose(0.30568314, -3.1820285, -0.7960562, -0.60522264);
    let b = polygon(&[
        (-0.1822673, 0.0046406),
        (0.04880554, -0.11798435),
        (0.07018584, -0.12917085),
        (0.16323733, -0.0024124414),
        (-0.017962517, 0.08354349),
    ]);
    let pb = pose(0.3445643, -2.9769487, -0.08123204, 0.9966952);
    let o = oracle2(&a, &pa, &b, &pb);
    let ours = contact2d(&a, &pa, &b, &pb, 0.0).unwrap();
    assert!(
        (ours.depth as f64 - o.depth).abs() < 1e-5,
        "{ours:?} vs {o:?}"
    );
    let (ga, qa) = to_parry(&a, &pa);
    let (gb, qb) = to_parry(&b, &pb);
    let theirs = parry2d::query::contact(&qa, ga.as_ref(), &qb, gb.as_ref(), 0.0)
        .unwrap()
        .unwrap();
    assert!(
        (-theirs.dist as f64 - o.depth).abs() > 1e-4,
        "parry now agrees: {theirs:?}"
    );
}
