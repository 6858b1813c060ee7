//! Warm manifolds keep their points in both shapes and their depth: pairs under every
//! placement, each queried cold and then moved three times (b by up to 1% of the
//! pair's size and 0.02 rad a step, or 10% and 0.2 rad) with the cache it left, as a
//! simulation queries them; every point of every manifold must lie within `|depth| / 2`
//! (plus the clip tolerance and round-off) of both shapes, judged by the f64 signed
//! distance of the oracle, and a touching pair's depth must be the exact one (the f64
//! vertex-projection oracle's) within the clip tolerance below and the slop above.
//!
//! The warm query may keep last frame's feature while it stays within the slop of the
//! exact axis (the preference). A box pair kept so an edge–edge axis whose edges had
//! stopped crossing, and its one point, halfway between the segments' closest points,
//! lay up to 1.9 outside both boxes (before 5 December 2026: 128 of 81,359 box
//! manifolds in a first version of this test, all on the warm path; 66 of 78,962 and
//! 63 of 51,761 in the two box tests below); the cold property tests never saw it.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Cuboid, Pose, Shape, Sphere};
use sepax_narrowphase::oracle::{signed_distance, vertex_projection_sat};
use sepax_narrowphase::{
    BoxBoxPair, CLIP_TOLERANCE, FEATURE_SLOP, Manifold, PairCache, collide, collide_box_pairs,
    contact,
};
use sepax_testkit::pairs::{PLACEMENTS, place};
use sepax_testkit::shapes::{cuboid_as_hull, ellipsoid_hull, random_capsule, random_cuboid};

/// Makes a random pair of shapes.
type Maker = fn(&mut Rng) -> (Shape, Shape);

/// Steps of a pair: the cold query, then this many warm ones.
const WARM_STEPS: usize = 3;

/// What is wrong with `m` for the posed pair, if anything: a point further outside
/// either shape than its slack, or, for a touching pair, a manifold depth outside
/// `[exact − clip tolerance, exact + slop]` (the f64 vertex-projection oracle's exact
/// depth for boxes and hulls, `contact`'s otherwise; the preference may keep a feature
/// up to the slop deeper).
fn fault(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, m: &Manifold) -> Option<String> {
    let tol = 1e-4 * (a.bounding_radius() + b.bounding_radius());
    let clip = CLIP_TOLERANCE * a.bounding_radius().min(b.bounding_radius());
    let slop = FEATURE_SLOP * a.bounding_radius().min(b.bounding_radius());
    for p in &m.points {
        let slack = f64::from(0.5 * p.depth.abs() + tol + clip);
        let q = p.position.as_dvec3();
        let outside = signed_distance(a, pa, q).max(signed_distance(b, pb, q));
        if outside > slack {
            return Some(format!("a point {} beyond its slack", outside - slack));
        }
    }
    // Boxes and hulls: the f64 oracle; with a capsule or a sphere, `contact`'s depth.
    let exact = match vertex_projection_sat(a, pa, b, pb) {
        Some(truth) => -truth.separation as f32,
        None => contact(a, pa, b, pb, 0.0)?.depth,
    };
    let depth = m.depth();
    if exact > tol && !(exact - clip - tol..=exact + slop + tol).contains(&depth) {
        return Some(format!("depth {depth} where the exact depth is {exact}"));
    }
    None
}

/// How far b moves in each step of pair `i`'s motion, as a fraction of the pair's size
/// (and twice that in radians): small (1%, 0.02 rad) or large (10%, 0.2 rad), every
/// other round of the placements.
fn step_of(i: usize) -> f32 {
    if (i / PLACEMENTS.len()).is_multiple_of(2) {
        0.01
    } else {
        0.1
    }
}

/// A pair's poses along its motion: placement `i` (cycling), then `warm` moves of b by
/// up to `step` of the pair's size and `2 step` radians each.
fn motion(
    rng: &mut Rng,
    (a, b): (&Shape, &Shape),
    i: usize,
    step: f32,
    warm: usize,
) -> Vec<(Pose, Pose)> {
    let (pa, mut pb) = place(rng, a, b, PLACEMENTS[i % PLACEMENTS.len()]);
    let size = a.bounding_radius() + b.bounding_radius();
    let mut poses = vec![(pa, pb)];
    for _ in 0..warm {
        let shift = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let axis = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(0.1, 1.0),
        );
        let turn = Quat::from_axis_angle(axis.normalize(), rng.range(-2.0 * step, 2.0 * step));
        pb = Pose::new(
            pb.translation + shift * (step * size / 3f32.sqrt()),
            (turn * pb.rotation).normalize(),
        );
        poses.push((pa, pb));
    }
    poses
}

/// Runs `count` pairs made by `make` along their motions through `collide`; returns
/// the manifolds seen and the faults (described). `plan(i)` gives pair `i`'s margin,
/// step size (see [`motion`]) and number of warm steps.
fn run(
    seed: u64,
    count: usize,
    make: impl Fn(&mut Rng) -> (Shape, Shape),
    plan: impl Fn(usize) -> (f32, f32, usize),
) -> (usize, Vec<String>) {
    let mut rng = Rng::new(seed);
    let (mut seen, mut faults) = (0, Vec::new());
    for i in 0..count {
        let (a, b) = make(&mut rng);
        let (margin, step, warm) = plan(i);
        let mut cache = PairCache::default();
        let poses = motion(&mut rng, (&a, &b), i, step, warm);
        for (s, (pa, pb)) in poses.into_iter().enumerate() {
            let Some(m) = collide(&a, &pa, &b, &pb, margin, &mut cache) else {
                continue;
            };
            seen += 1;
            if let Some(why) = fault(&a, &pa, &b, &pb, &m) {
                faults.push(format!(
                    "pair {i} step {s} margin {margin}: {why}, {:?}",
                    m.feature
                ));
            }
        }
    }
    (seen, faults)
}

/// The plan of the tests below: a fifth of the pairs with a margin, small or large
/// steps ([`step_of`]), `WARM_STEPS` of them.
fn plan(i: usize) -> (f32, f32, usize) {
    let margin = if i.is_multiple_of(5) { 0.05 } else { 0.0 };
    (margin, step_of(i), WARM_STEPS)
}

/// Fails with the first few faults when there are any (of `seen` manifolds).
fn assert_none_wrong(seen: usize, faults: &[String]) {
    assert!(
        faults.is_empty(),
        "{} of {seen}:\n{}",
        faults.len(),
        faults[..faults.len().min(20)].join("\n")
    );
}

#[test]
fn box_pairs_warm_and_cold() {
    let (seen, outside) = run(
        0xb0c5_f1a9,
        30_000,
        |rng| (random_cuboid(rng), random_cuboid(rng)),
        plan,
    );
    assert!(seen > 60_000, "{seen} manifolds");
    assert_none_wrong(seen, &outside);
}

/// The same box motions through the batch (8 pairs a bundle), caches kept from step to
/// step: the batch gives `collide`'s bits, so its points are checked the same way.
#[test]
fn batched_box_pairs_warm_and_cold() {
    let mut rng = Rng::new(0xb0c5_f1aa);
    let count = 20_000;
    let cuboid = |s: Shape| match s {
        Shape::Cuboid(c) => c,
        _ => unreachable!("random_cuboid makes boxes"),
    };
    // `steps[s][i]`: pair `i` at step `s` of its motion.
    let mut steps: Vec<Vec<BoxBoxPair>> = vec![Vec::new(); WARM_STEPS + 1];
    for i in 0..count {
        let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
        for (s, (pose_a, pose_b)) in motion(&mut rng, (&a, &b), i, step_of(i), WARM_STEPS)
            .into_iter()
            .enumerate()
        {
            let (a, b): (Cuboid, Cuboid) = (cuboid(a.clone()), cuboid(b.clone()));
            steps[s].push(BoxBoxPair {
                a,
                pose_a,
                b,
                pose_b,
            });
        }
    }
    let mut caches = vec![PairCache::default(); count];
    let mut manifolds = vec![None; count];
    let (mut seen, mut outside) = (0, Vec::new());
    for (step, pairs) in steps.iter().enumerate() {
        collide_box_pairs(pairs, 0.0, &mut caches, &mut manifolds);
        for (i, (m, p)) in manifolds.iter().zip(pairs).enumerate() {
            let Some(m) = m else { continue };
            seen += 1;
            let (a, b) = (Shape::from(p.a), Shape::from(p.b));
            if let Some(why) = fault(&a, &p.pose_a, &b, &p.pose_b, m) {
                outside.push(format!("pair {i} step {step}: {why}, {:?}", m.feature));
            }
        }
    }
    assert!(seen > 40_000, "{seen} manifolds");
    assert_none_wrong(seen, &outside);
}

#[test]
fn hull_pairs_warm_and_cold() {
    let makers: [(u64, Maker); 3] = [
        (0x4011_0001, |rng| {
            (
                cuboid_as_hull(&random_cuboid(rng)),
                cuboid_as_hull(&random_cuboid(rng)),
            )
        }),
        (0x4011_0002, |rng| {
            (random_cuboid(rng), cuboid_as_hull(&random_cuboid(rng)))
        }),
        (0x4011_0003, |rng| {
            (ellipsoid_hull(rng, 16), ellipsoid_hull(rng, 12))
        }),
    ];
    for (seed, make) in makers {
        let (seen, outside) = run(seed, 5_000, make, plan);
        assert!(seen > 8_000, "{seen} manifolds");
        assert_none_wrong(seen, &outside);
    }
}

/// The pair that showed the deepest-point rule's fault: two random hulls about one
/// centre (the 278th pair of the hull run's seed, every step large), whose kept face's
/// clip fell short of the exact depth at the fourth query; the rule's fallback, a
/// corner of that face halfway down, lay 0.44 beyond its slack outside a.
#[test]
fn a_deep_kept_face_keeps_its_deepest_point_in_both_shapes() {
    let mut rng = Rng::new(0x4011_0003);
    for i in 0..278 {
        let (a, b) = (ellipsoid_hull(&mut rng, 16), ellipsoid_hull(&mut rng, 12));
        let poses = motion(&mut rng, (&a, &b), i, 0.1, WARM_STEPS);
        if i < 277 {
            continue;
        }
        let mut cache = PairCache::default();
        for (step, (pa, pb)) in poses.into_iter().enumerate() {
            let m = collide(&a, &pa, &b, &pb, 0.0, &mut cache).expect("deep inside");
            assert_eq!(fault(&a, &pa, &b, &pb, &m), None, "step {step}");
        }
    }
}

/// The checks above on far more pairs and kinds (ignored: about a minute optimised for
/// `SWEEP_N = 100000`): ten kinds (boxes, boxes as hulls, box–hull, random hulls, box–
/// random hull, capsule–box, hull–capsule, capsule–capsule, sphere–box, hull–sphere),
/// `SWEEP_N` pairs each (default 10,000) from seed `SWEEP_START` (default 0), margins 0
/// to 0.1, five warm steps of 0.2 % to 20 % of the size. Run it with `cargo test
/// --release -p sepax-narrowphase --test warm_points_in_shapes sweep -- --ignored
/// --nocapture`. On 5 December 2026, `SWEEP_N=100000 SWEEP_START=7000`: 3,997,186
/// manifolds, 29 faults, 28 of them speculative points of two nearly parallel capsules
/// (their depth measured along the normal, the cores' sideways offset at a clipped end
/// adding 0.001–0.006 beyond the slack; mended the same day, test
/// `nearly_parallel_capsules_put_their_points_between_the_surfaces`) and one speculative
/// box point 5e-5 beyond, which the same run still finds (kind 0, pair 82,649: the test
/// fails on it; read its list).
#[test]
#[ignore]
fn sweep() {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let (n, start) = (
        env("SWEEP_N").unwrap_or(10_000),
        env("SWEEP_START").unwrap_or(0),
    );
    let kinds: [Maker; 10] = [
        |rng| (random_cuboid(rng), random_cuboid(rng)),
        |rng| {
            (
                cuboid_as_hull(&random_cuboid(rng)),
                cuboid_as_hull(&random_cuboid(rng)),
            )
        },
        |rng| (random_cuboid(rng), cuboid_as_hull(&random_cuboid(rng))),
        |rng| (ellipsoid_hull(rng, 16), ellipsoid_hull(rng, 12)),
        |rng| (random_cuboid(rng), ellipsoid_hull(rng, 20)),
        |rng| (random_capsule(rng), random_cuboid(rng)),
        |rng| (ellipsoid_hull(rng, 14), random_capsule(rng)),
        |rng| (random_capsule(rng), random_capsule(rng)),
        |rng| {
            (
                Shape::from(Sphere::try_new(rng.range(0.1, 2.0)).unwrap()),
                random_cuboid(rng),
            )
        },
        |rng| {
            (
                ellipsoid_hull(rng, 10),
                Shape::from(Sphere::try_new(rng.range(0.1, 2.0)).unwrap()),
            )
        },
    ];
    let (mut seen, mut broken) = (0, Vec::new());
    let sweep_plan = |i: usize| {
        let margin = [0.0, 0.0, 0.01, 0.05, 0.1][i % 5];
        let step = [0.002, 0.01, 0.05, 0.2][(i / PLACEMENTS.len()) % 4];
        (margin, step, 5)
    };
    for (kind, make) in kinds.into_iter().enumerate() {
        let seed = 0x5eed_0000 + start + kind as u64;
        let (kind_seen, faults) = run(seed, n as usize, make, sweep_plan);
        seen += kind_seen;
        broken.extend(faults.into_iter().map(|f| format!("kind {kind} {f}")));
    }
    println!("{seen} manifolds, {} faults", broken.len());
    assert_none_wrong(seen, &broken);
}
