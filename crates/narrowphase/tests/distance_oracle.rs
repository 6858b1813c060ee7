//! GJK distance ([`closest_points`], [`distance`]) against the f64 distance oracle
//! (`oracle::distance::exact_distance`: every core vertex against the other core, every
//! edge against every edge, in f64, each answer proven by a lower bound), issue 11.
//!
//! For every pair of kinds among sphere, box, hull (4–24 random points, flat ones too)
//! and capsule, 100,000 random pairs: sizes from thin plates and needles to fat blocks,
//! random rotations, positions within ±10 of the origin and one time in ten within
//! ±1000, gaps log-uniform from `1e-5` to `100` times the pair's size (the sum of the
//! bounding radii), and one pair in ten overlapping. Checked on each:
//! * **verdict**: GJK gives `None` for every pair the oracle finds overlapping (beyond a
//!   band of [`BOUNDS`]`.touching` × size), and only for pairs closer than that;
//! * **distance**: `|distance − exact|` within [`BOUNDS`]`.distance` × size;
//! * **points**: `point_a` on a's surface and `point_b` on b's (the oracle's signed
//!   distance of each within `.surface` × size), `|point_b − point_a| ≈ distance`;
//! * **normal**: the vector `distance × normal` within `.normal` × size of the oracle's
//!   (an angle error scaled by the gap; the worst angle over pairs at least 1% of the
//!   size apart is printed too);
//! * **witnesses**: a vertex witness is at its point (less the radius along the normal),
//!   an edge witness is an edge with its point on it, a face witness a face with its
//!   point in its plane;
//! * **order**: `closest_points(b, a)` is `closest_points(a, b).flipped()` bit for bit.
//!
//! Every error has the f32 rounding of the reported value taken off first (`ε/2 |d|`
//! for the distance, `ε |x|` for a point `x`), so that pairs far apart or far from the
//! origin do not hide GJK's own error behind f32's. The worst errors are printed
//! (`--nocapture`).
//!
//! Then: warm against cold on random motion sequences (small and large steps,
//! teleports, spins), degenerate and extreme shapes (flat hulls, zero-height capsules,
//! sizes from `1e-3` to `1e4`), refused input, and parry3d's `query::distance` on 10,000
//! pairs of each kind with both libraries' disagreements with the oracle printed.

use glam::{DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere, TriMesh};
use sepax_narrowphase::oracle::distance::{ExactDistance, exact_distance};
use sepax_narrowphase::{ClosestPoints, PairCache, QueryError, Witness, closest_points, distance};
use sepax_testkit::pairs::scale;
use sepax_testkit::shapes::{bent_block, ellipsoid_hull_with, face_corners};
use sepax_testkit::to_parry::{pose as to_parry_pose, shape as to_parry_shape};
use std::sync::OnceLock;

/// Random pairs per kind of pair.
const PAIRS: usize = 100_000;

/// What a check allows, each error over the pair's size and beyond the f32 rounding of
/// the reported value (GJK works in f64 and its answers are the exact ones rounded to
/// f32, give or take f64 round-off).
struct Bounds {
    /// `|distance − exact|` beyond `ε/2 · exact`.
    distance: f64,
    /// A point's distance from its surface, and `| |point_b − point_a| − distance |`,
    /// beyond the points' rounding.
    surface: f64,
    /// `|distance · normal − exact · exact normal|` beyond `2ε · distance`.
    normal: f64,
    /// A witness's core point off its feature, beyond the points' rounding.
    witness: f64,
    /// GJK answers `None` only for pairs closer than this, and must answer `None` for
    /// pairs overlapping deeper.
    touching: f64,
    /// The oracle's own slack, `separation − lower_bound`.
    oracle: f64,
}

/// The bounds of the random pairs, each a little above the worst measured over the ten
/// kinds (in the comments; printed by every run with `--nocapture`).
const BOUNDS: Bounds = Bounds {
    distance: 1e-13, // 1.0e-14, box–hull
    surface: 1e-12,  // 0
    normal: 5e-8,    // 1.5e-8, box–hull
    witness: 1e-7,   // 3.3e-8, sphere–box
    touching: 3e-9,  // GJK None up to 1.95e-9 (sphere–hull); GJK Some on no overlap
    oracle: 1e-12,   // 5.1e-14, box–hull
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Sphere,
    Box,
    Hull,
    Capsule,
}

/// A hull of 4 to 24 points on an ellipsoid or, one time in four, in its box; one time
/// in four flattened to a plate (one radius 1% to 10% of the others).
fn random_hull(rng: &mut Rng) -> Shape {
    let n = 4 + rng.below(21);
    let mut radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0));
    if rng.below(4) == 0 {
        radii[rng.below(3)] *= rng.range(0.01, 0.1);
    }
    ellipsoid_hull_with(rng, n, radii)
}

/// Hulls in the pool the pairs draw from (building a hull costs more than checking a
/// pair; each pooled hull meets many partners at many poses).
const POOL: usize = 4096;

/// [`POOL`] random hulls, built once for the whole test binary.
fn hull_pool() -> &'static [Shape] {
    static POOLED: OnceLock<Vec<Shape>> = OnceLock::new();
    POOLED.get_or_init(|| {
        let mut rng = Rng::new(0x9001);
        (0..POOL).map(|_| random_hull(&mut rng)).collect()
    })
}

fn random_shape(rng: &mut Rng, kind: Kind) -> Shape {
    match kind {
        Kind::Sphere => Shape::from(Sphere::try_new(rng.range(0.02, 2.0)).unwrap()),
        Kind::Box => {
            let mut half = rng.vec3(Vec3::splat(0.02), Vec3::splat(2.0));
            if rng.below(4) == 0 {
                half[rng.below(3)] *= rng.range(0.005, 0.05);
            }
            Shape::from(Cuboid::try_from_half_extents(half).unwrap())
        }
        Kind::Hull => hull_pool()[rng.below(POOL)].clone(),
        Kind::Capsule => {
            let half_height = if rng.below(8) == 0 {
                0.0
            } else {
                rng.range(0.0, 2.0)
            };
            Shape::from(Capsule::try_new(half_height, rng.range(0.01, 1.0)).unwrap())
        }
    }
}

/// Poses for a and b with b moved along the oracle's normal until the separation is
/// `gap` (exact in f64: translating b by `s n` moves both closest points' planes
/// apart by `s`), a within ±`spread` of the origin.
fn place(rng: &mut Rng, a: &Shape, b: &Shape, gap: f64, spread: f32) -> (Pose, Pose) {
    let reach = a.bounding_radius() + b.bounding_radius();
    let origin = rng.vec3(Vec3::splat(-spread), Vec3::splat(spread));
    let pa = Pose::new(origin, rng.rotation());
    let mut pb = Pose::new(origin + rng.unit_vec3() * 1.1 * reach, rng.rotation());
    let apart = exact_distance(a, &pa, b, &pb).expect("valid poses");
    pb.translation += ((gap - apart.separation) * apart.normal).as_vec3();
    (pa, pb)
}

/// A random target gap: one time in ten an overlap of up to 30% of the size, one time
/// in ten log-uniform in `[1e-8, 1e-5] × size` (around the touching threshold), else
/// log-uniform in `[1e-5, 100] × size`.
fn random_gap(rng: &mut Rng, size: f64) -> f64 {
    match rng.below(10) {
        0 => -(rng.range(0.001, 0.3) as f64) * size,
        1 => size * 10f64.powf(rng.range(-8.0, -5.0) as f64),
        _ => size * 10f64.powf(rng.range(-5.0, 2.0) as f64),
    }
}

/// The exact signed distance of a world point from a posed shape's surface, by the
/// distance oracle (a vanishing ball at the point against the shape: exact facets,
/// unlike `oracle::signed_distance`'s f32 hull planes).
fn surface_distance(shape: &Shape, pose: &Pose, point: Vec3) -> f64 {
    let dot = Shape::from(Sphere::try_new(f32::MIN_POSITIVE).unwrap());
    exact_distance(&dot, &Pose::from_translation(point), shape, pose)
        .expect("valid poses")
        .separation
}

/// f32 rounding of a reported value or point: `ε |x|`.
fn rounding(x: f64) -> f64 {
    f32::EPSILON as f64 * x.abs()
}

fn point_rounding(p: Vec3) -> f64 {
    rounding(p.abs().max_element() as f64)
}

/// Both answers the same, bit for bit.
fn same_bits(x: &Option<ClosestPoints>, y: &Option<ClosestPoints>) -> bool {
    let bits = |c: &ClosestPoints| {
        (
            c.distance.to_bits(),
            [c.point_a, c.point_b, c.normal].map(|v| v.to_array().map(f32::to_bits)),
            c.witness_a,
            c.witness_b,
        )
    };
    x.as_ref().map(bits) == y.as_ref().map(bits)
}

/// The worst errors of a run, each over the pair's size.
#[derive(Default, Debug)]
struct Worst {
    distance: f64,
    surface: f64,
    length: f64,
    normal: f64,
    /// Largest angle (rad) between the normals, over pairs at least 1% of the size apart.
    angle: f64,
    witness: f64,
    oracle: f64,
    /// Largest exact separation GJK called touching.
    none_at: f64,
    /// Deepest exact overlap GJK called apart.
    some_at: f64,
}

/// A core point of a shape (local frame) for a witness.
fn witness_error(shape: &Shape, pose: &Pose, witness: Witness, point: Vec3, outward: Vec3) -> f64 {
    let radius = match shape {
        Shape::Sphere(s) => s.radius(),
        Shape::Capsule(c) => c.radius(),
        _ => 0.0,
    } as f64;
    let q = pose.rotation.as_dquat().normalize();
    let core_point = point.as_dvec3() - outward.as_dvec3() * radius;
    let p = q.inverse() * (core_point - pose.translation.as_dvec3());
    let segment_error = |u: Vec3, v: Vec3| {
        let (u, v) = (u.as_dvec3(), v.as_dvec3());
        let t =
            ((p - u).dot(v - u) / (v - u).length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
        (u + (v - u) * t - p).length()
    };
    match (shape, witness) {
        (Shape::Sphere(_), Witness::Vertex(0)) => p.length(),
        (Shape::Capsule(c), Witness::Vertex(i)) if i < 2 => {
            let (bottom, top) = c.segment();
            (if i == 0 { bottom } else { top }.as_dvec3() - p).length()
        }
        (Shape::Capsule(c), Witness::Edge(0, 1)) => segment_error(c.segment().0, c.segment().1),
        (Shape::Cuboid(c), Witness::Vertex(i)) if i < 8 => {
            (c.vertices()[i as usize].as_dvec3() - p).length()
        }
        (Shape::Cuboid(c), Witness::Edge(i, j)) if i < j && j < 8 && (i ^ j).count_ones() == 1 => {
            segment_error(c.vertices()[i as usize], c.vertices()[j as usize])
        }
        (Shape::Cuboid(c), Witness::Face(f)) if f < 6 => {
            let k = f as usize / 2;
            let h = c.half_extents().as_dvec3();
            let plane = if f % 2 == 1 { h[k] } else { -h[k] };
            let outside = (p.abs() - h).max(DVec3::ZERO);
            let mut off = outside;
            off[k] = 0.0;
            (p[k] - plane).abs().max(off.length())
        }
        (Shape::ConvexHull(h), Witness::Vertex(i)) if (i as usize) < h.vertices().len() => {
            (h.vertices()[i as usize].as_dvec3() - p).length()
        }
        (Shape::ConvexHull(h), Witness::Edge(i, j))
            if i < j
                && h.edges()
                    .iter()
                    .any(|e| e.vertices == [i, j] || e.vertices == [j, i]) =>
        {
            segment_error(h.vertices()[i as usize], h.vertices()[j as usize])
        }
        (Shape::ConvexHull(h), Witness::Face(f)) if (f as usize) < h.face_count() => {
            // In the face's plane (through its vertices: the plane's f32 offset is only
            // as good as the merge tolerance) and inside its loop.
            let face = h.face(f as usize);
            let v = |k: usize| h.vertices()[face[k % face.len()] as usize].as_dvec3();
            // Newell's normal of the loop, in f64 (the plane's is rounded to f32).
            let n = (0..face.len())
                .map(|k| v(k).cross(v(k + 1)))
                .sum::<DVec3>()
                .normalize();
            // A merged face is flat only to the hull builder's tolerance: its height
            // above the mean plane is measured beyond the loop's own bend.
            let centre = (0..face.len()).map(v).sum::<DVec3>() / face.len() as f64;
            let bend = (0..face.len())
                .map(|k| n.dot(v(k) - centre).abs())
                .fold(0.0, f64::max);
            let height = (n.dot(p - centre).abs() - bend).max(0.0);
            let outside = (0..face.len())
                .map(|k| (v(k + 1) - v(k)).cross(n).normalize().dot(p - v(k)))
                .fold(0.0, f64::max);
            height.max(outside)
        }
        _ => panic!("witness {witness:?} is not a feature of {shape:?}"),
    }
}

/// Checks one pair against the oracle (both orders, cold) and records the errors.
fn check_pair(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    bounds: &Bounds,
    worst: &mut Worst,
    label: &str,
) -> Option<bool> {
    let truth: ExactDistance = exact_distance(a, pa, b, pb).expect("valid poses, convex shapes");
    let size = scale(a, b);
    let ours = closest_points(a, pa, b, pb, &mut PairCache::default()).expect("valid input");
    let theirs = closest_points(b, pb, a, pa, &mut PairCache::default()).expect("valid input");
    assert!(
        same_bits(&theirs, &ours.map(|c| c.flipped())),
        "{label}: the orders differ: {ours:?} vs {theirs:?}"
    );
    let context = || format!("{label}: exact {truth:?}, GJK {ours:?}\n{a:?} {pa:?}\n{b:?} {pb:?}");
    let Some(c) = ours else {
        worst.none_at = worst.none_at.max(truth.separation / size);
        assert!(
            truth.separation <= bounds.touching * size,
            "GJK says touching: {}",
            context()
        );
        return None;
    };
    let Some((exact_a, exact_b)) = truth.points else {
        worst.some_at = worst.some_at.max(-truth.separation / size);
        assert!(
            truth.separation >= -bounds.touching * size,
            "GJK says apart: {}",
            context()
        );
        return Some(false);
    };
    // The normal of a gap `d` is known to about `1e-16 size / d` rad (round-off of the
    // f64 points), and the bound along it to that times the size.
    let conditioning = 1e-15 * size / truth.separation;
    let oracle = ((truth.separation - truth.lower_bound) / size - conditioning).max(0.0);
    worst.oracle = worst.oracle.max(oracle);
    assert!(
        oracle <= bounds.oracle,
        "the oracle is not tight: {}",
        context()
    );
    let d = c.distance as f64;
    let excess = |error: f64, round: f64| (error - round).max(0.0) / size;

    // Beyond the f32 rounding of the exact distance (at most half an ulp, `ε/2 |d|`).
    let e = excess(
        (d - truth.separation).abs(),
        0.5 * rounding(truth.separation),
    );
    worst.distance = worst.distance.max(e);
    assert!(e <= bounds.distance, "distance off by {e:e}: {}", context());

    let round = point_rounding(c.point_a).max(point_rounding(c.point_b));
    // A point's distance from the surface is at most its distance from the oracle's
    // closest point (on the surface); measured exactly only when that is not enough.
    let off_surface = |shape: &Shape, pose: &Pose, point: Vec3, exact: DVec3| {
        let near = excess((point.as_dvec3() - exact).length(), round);
        if near > 0.0 {
            excess(surface_distance(shape, pose, point).abs(), round)
        } else {
            0.0
        }
    };
    let on_a = off_surface(a, pa, c.point_a, exact_a);
    let on_b = off_surface(b, pb, c.point_b, exact_b);
    worst.surface = worst.surface.max(on_a).max(on_b);
    assert!(
        on_a.max(on_b) <= bounds.surface,
        "points off the surfaces by {on_a:e} {on_b:e}: {}",
        context()
    );
    let length = (c.point_b.as_dvec3() - c.point_a.as_dvec3()).length();
    let e = excess((length - d).abs(), 2.0 * round + rounding(d));
    worst.length = worst.length.max(e);
    assert!(
        e <= bounds.surface,
        "|point_b − point_a| off by {e:e}: {}",
        context()
    );

    let n = c.normal.as_dvec3();
    let e = excess(
        (n * d - truth.normal * truth.separation).length(),
        2.0 * rounding(d),
    );
    worst.normal = worst.normal.max(e);
    assert!(
        e <= bounds.normal,
        "normal off by {e:e} of the size: {}",
        context()
    );
    if truth.separation >= 1e-2 * size {
        worst.angle = worst.angle.max(n.angle_between(truth.normal));
    }

    let wa = witness_error(a, pa, c.witness_a, c.point_a, c.normal);
    let wb = witness_error(b, pb, c.witness_b, c.point_b, -c.normal);
    let e = excess(wa.max(wb), 2.0 * round);
    worst.witness = worst.witness.max(e);
    assert!(
        e <= bounds.witness,
        "witness off its feature by {e:e} of the size: {}",
        context()
    );
    Some(true)
}

/// 100,000 random pairs of two kinds.
fn run(ka: Kind, kb: Kind, seed: u64) {
    let name = format!("{ka:?}–{kb:?}");
    let mut rng = Rng::new(seed);
    let mut worst = Worst::default();
    let (mut apart, mut touching, mut overlapping) = (0, 0, 0);
    for i in 0..PAIRS {
        let (a, b) = (random_shape(&mut rng, ka), random_shape(&mut rng, kb));
        let size = scale(&a, &b);
        let gap = random_gap(&mut rng, size);
        let spread = if rng.below(10) == 0 { 1000.0 } else { 10.0 };
        let (pa, pb) = place(&mut rng, &a, &b, gap, spread);
        match check_pair(
            &a,
            &pa,
            &b,
            &pb,
            &BOUNDS,
            &mut worst,
            &format!("{name} case {i}"),
        ) {
            Some(true) => apart += 1,
            Some(false) => overlapping += 1,
            None => touching += 1,
        }
    }
    println!(
        "{name}: {PAIRS} pairs, {apart} apart, {touching} touching or overlapping (None), {overlapping} in the band; worst over size: {worst:?}"
    );
    assert!(
        apart > PAIRS * 8 / 10 && touching > PAIRS / 20,
        "{name}: {apart} {touching}"
    );
}

#[test]
fn sphere_sphere() {
    run(Kind::Sphere, Kind::Sphere, 0xD150);
}

#[test]
fn sphere_box() {
    run(Kind::Sphere, Kind::Box, 0xD151);
}

#[test]
fn sphere_hull() {
    run(Kind::Sphere, Kind::Hull, 0xD152);
}

#[test]
fn sphere_capsule() {
    run(Kind::Sphere, Kind::Capsule, 0xD153);
}

#[test]
fn box_box() {
    run(Kind::Box, Kind::Box, 0xD154);
}

#[test]
fn box_hull() {
    run(Kind::Box, Kind::Hull, 0xD155);
}

#[test]
fn box_capsule() {
    run(Kind::Box, Kind::Capsule, 0xD156);
}

#[test]
fn hull_hull() {
    run(Kind::Hull, Kind::Hull, 0xD157);
}

#[test]
fn hull_capsule() {
    run(Kind::Hull, Kind::Capsule, 0xD158);
}

#[test]
fn capsule_capsule() {
    run(Kind::Capsule, Kind::Capsule, 0xD159);
}

/// Every kind of pair, in the canonical order of kinds.
const KINDS: [(Kind, Kind); 10] = [
    (Kind::Sphere, Kind::Sphere),
    (Kind::Sphere, Kind::Box),
    (Kind::Sphere, Kind::Hull),
    (Kind::Sphere, Kind::Capsule),
    (Kind::Box, Kind::Box),
    (Kind::Box, Kind::Hull),
    (Kind::Box, Kind::Capsule),
    (Kind::Hull, Kind::Hull),
    (Kind::Hull, Kind::Capsule),
    (Kind::Capsule, Kind::Capsule),
];

/// Bound of `|warm − cold|` over the size, beyond the f32 rounding of the distances
/// (measured: 0; warm and cold run the same f64 steps from different simplices).
const WARM: f64 = 1e-12;

/// One step of a random motion of `pose` (size `size`): small (≤ 1% of the size, ≤ 0.01
/// rad), large (≤ 30%, ≤ 0.5 rad), a spin (0.5 to 3 rad about its centre) or, for
/// `teleport`, a new place around `around` at a random gap.
fn step(rng: &mut Rng, pose: &mut Pose, size: f32) {
    let (reach, turn) = match rng.below(8) {
        0..=3 => (0.01, 0.01),
        4 | 5 => (0.3, 0.5),
        _ => (0.0, rng.range(0.5, 3.0)),
    };
    pose.translation += rng.unit_vec3() * rng.range(0.0, reach * size);
    let spin = Quat::from_axis_angle(rng.unit_vec3(), rng.range(-turn, turn));
    pose.rotation = (spin * pose.rotation).normalize();
}

/// Random motion sequences with one cache per pair: the warm answer is the cold one
/// within [`WARM`] (both `None`, or distances that agree), for every kind of pair.
/// One query in eight takes the pair in the other order with the same cache (a
/// caller's slip: the simplex's indices then belong to the other shape) and must
/// still be right.
#[test]
fn warm_equals_cold_on_motion_sequences() {
    let mut rng = Rng::new(0x3A53);
    let mut total = 0;
    for (ka, kb) in KINDS {
        let (mut worst, mut same_bits_count, mut queries) = (0f64, 0, 0);
        for sequence in 0..420 {
            let (a, b) = (random_shape(&mut rng, ka), random_shape(&mut rng, kb));
            let size = scale(&a, &b);
            let gap = random_gap(&mut rng, size);
            let (mut pa, mut pb) = place(&mut rng, &a, &b, gap, 10.0);
            let mut cache = PairCache::default();
            for frame in 0..24 {
                if rng.below(12) == 0 {
                    let gap = random_gap(&mut rng, size);
                    (pa, pb) = place(&mut rng, &a, &b, gap, 10.0);
                } else {
                    step(&mut rng, &mut pb, size as f32);
                    if rng.below(4) == 0 {
                        step(&mut rng, &mut pa, size as f32);
                    }
                }
                let swapped = rng.below(8) == 0;
                let (warm, cold) = if swapped {
                    let warm = closest_points(&b, &pb, &a, &pa, &mut cache).unwrap();
                    let cold = closest_points(&b, &pb, &a, &pa, &mut PairCache::default());
                    (
                        warm.map(|c| c.flipped()),
                        cold.unwrap().map(|c| c.flipped()),
                    )
                } else {
                    let warm = closest_points(&a, &pa, &b, &pb, &mut cache).unwrap();
                    (
                        warm,
                        closest_points(&a, &pa, &b, &pb, &mut PairCache::default()).unwrap(),
                    )
                };
                queries += 1;
                same_bits_count += same_bits(&warm, &cold) as usize;
                let label = || {
                    format!(
                        "{ka:?}–{kb:?} sequence {sequence} frame {frame}: warm {warm:?} cold {cold:?}\n{a:?} {pa:?}\n{b:?} {pb:?}"
                    )
                };
                match (warm, cold) {
                    (Some(w), Some(c)) => {
                        let (dw, dc) = (w.distance as f64, c.distance as f64);
                        let e = ((dw - dc).abs() - rounding(dw.max(dc))).max(0.0) / size;
                        let n = ((w.normal * w.distance - c.normal * c.distance).length() as f64
                            - 2.0 * rounding(dw.max(dc)))
                        .max(0.0)
                            / size;
                        worst = worst.max(e).max(n);
                        assert!(e.max(n) <= WARM, "{}", label());
                    }
                    (None, Some(c)) | (Some(c), None) => {
                        let e = c.distance as f64 / size;
                        worst = worst.max(e);
                        assert!(e <= BOUNDS.touching, "{}", label());
                    }
                    (None, None) => {}
                }
            }
        }
        println!(
            "warm vs cold, {ka:?}–{kb:?}: {queries} queries, {same_bits_count} bit for bit, worst |warm − cold| / size beyond rounding {worst:e}"
        );
        total += queries;
    }
    assert!(total >= 100_000, "{total} queries");
}

/// Refused input: non-finite or non-unit poses give `InvalidPose`, meshes `NotConvex`,
/// in both orders and through both entry points, and the cache is left as it was.
#[test]
fn bad_input_gives_the_documented_errors() {
    let mut rng = Rng::new(0xBAD1);
    let mesh = Shape::from(
        TriMesh::try_new(
            vec![Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.0, 1.0)],
            vec![[0, 2, 1], [1, 2, 3]],
        )
        .unwrap(),
    );
    let bad_poses = [
        Pose::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(0.0, f32::INFINITY, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(0.0, 0.0, f32::NEG_INFINITY), Quat::IDENTITY),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 1.1)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 1.0)),
        Pose::new(
            Vec3::splat(f32::MAX),
            Quat::from_xyzw(0.0, 0.0, 0.0, f32::MAX),
        ),
    ];
    for (ka, kb) in KINDS {
        let (a, b) = (random_shape(&mut rng, ka), random_shape(&mut rng, kb));
        let (pa, pb) = place(&mut rng, &a, &b, 0.5, 10.0);
        // A cache that has seen the pair: errors must leave it as it is.
        let mut cache = PairCache::default();
        closest_points(&a, &pa, &b, &pb, &mut cache).unwrap();
        let before = cache;
        for bad in &bad_poses {
            for (pose_a, pose_b) in [(bad, &pb), (&pa, bad), (bad, bad)] {
                assert_eq!(
                    closest_points(&a, pose_a, &b, pose_b, &mut cache),
                    Err(QueryError::InvalidPose)
                );
                assert_eq!(
                    closest_points(&b, pose_b, &a, pose_a, &mut cache),
                    Err(QueryError::InvalidPose)
                );
                assert_eq!(
                    distance(&a, pose_a, &b, pose_b),
                    Err(QueryError::InvalidPose)
                );
                assert_eq!(cache, before, "{ka:?}–{kb:?} {bad:?}");
            }
        }
        for shape in [&a, &b] {
            assert_eq!(
                closest_points(&mesh, &pa, shape, &pb, &mut cache),
                Err(QueryError::NotConvex)
            );
            assert_eq!(
                closest_points(shape, &pa, &mesh, &pb, &mut cache),
                Err(QueryError::NotConvex)
            );
            assert_eq!(distance(shape, &pa, &mesh, &pb), Err(QueryError::NotConvex));
            assert!(closest_points(shape, &bad_poses[0], &mesh, &pb, &mut cache).is_err());
            assert_eq!(cache, before);
        }
    }
    assert_eq!(
        distance(&mesh, &Pose::IDENTITY, &mesh, &Pose::IDENTITY),
        Err(QueryError::NotConvex)
    );
}

/// The bounds of the extreme shapes, a little above the worst measured (in the
/// comments). Looser than [`BOUNDS`] for the flat hulls: their vertices tie along
/// directions near their normal to within f32's resolution, where GJK picks support
/// points (in f32) and so may stop up to about `ε × size` short; still well within the
/// `1e-6 × size` the distance module promises. Boxes: f64 round-off grows with the
/// ratio of the two sizes (up to 1e7 here), through the long thin simplices of a small
/// shape swept along a large one's edges (7.8e-11).
const EXTREME: Bounds = Bounds {
    distance: 1e-7, // 4.3e-8, hull–hull
    surface: 1e-12, // 0
    normal: 3e-6,   // 1.3e-6, hull–capsule
    witness: 1e-7,  // 0
    touching: 3e-9, // GJK None up to 1.6e-9 (sphere–box); GJK Some on no overlap
    oracle: 1e-12,  // 4.0e-14, box–capsule
};

/// A shape of `kind` scaled by `scale`: hulls of 4–24 points, one in three nearly flat
/// (thickness 1e-4 of their width, just above the hull builder's tolerance); capsules
/// of zero height one time in three.
fn scaled_shape(rng: &mut Rng, kind: Kind, s: f32) -> Shape {
    match kind {
        Kind::Hull => {
            let n = 4 + rng.below(21);
            let mut radii = rng.vec3(Vec3::splat(0.2), Vec3::splat(2.0)) * s;
            if rng.below(3) == 0 {
                radii[rng.below(3)] *= 1e-4;
            }
            loop {
                let points: Vec<Vec3> = (0..n).map(|_| rng.vec3(-radii, radii)).collect();
                if let Ok(h) = ConvexHull::try_from_points(&points) {
                    return Shape::from(h);
                }
            }
        }
        Kind::Capsule => {
            let h = if rng.below(3) == 0 {
                0.0
            } else {
                rng.range(0.0, 2.0) * s
            };
            Shape::from(Capsule::try_new(h, rng.range(0.01, 1.0) * s).unwrap())
        }
        Kind::Sphere => Shape::from(Sphere::try_new(rng.range(0.02, 2.0) * s).unwrap()),
        Kind::Box => {
            let mut half = rng.vec3(Vec3::splat(0.02), Vec3::splat(2.0)) * s;
            if rng.below(3) == 0 {
                half[rng.below(3)] *= 1e-4;
            }
            Shape::from(Cuboid::try_from_half_extents(half).unwrap())
        }
    }
}

/// Degenerate and extreme shapes: nearly flat hulls and boxes, zero-height capsules,
/// each shape scaled by 1e-3 to 1e4 (the two of a pair independently, so a
/// 1e-3 ball meets a 1e4 box), placed up to 10 sizes from the origin: no panic, a
/// finite answer, and the oracle's distance within [`EXTREME`], on 5,000 pairs of
/// each kind.
#[test]
fn degenerate_and_extreme_shapes() {
    let mut rng = Rng::new(0xDE6E);
    let scales = [1e-3, 1e-2, 1.0, 1e2, 1e4];
    for (ka, kb) in KINDS {
        let mut worst = Worst::default();
        for i in 0..5_000 {
            let (sa, sb) = (scales[rng.below(5)], scales[rng.below(5)]);
            let (a, b) = (
                scaled_shape(&mut rng, ka, sa),
                scaled_shape(&mut rng, kb, sb),
            );
            let size = scale(&a, &b);
            let gap = random_gap(&mut rng, size);
            let spread = 10.0 * size as f32;
            let (pa, pb) = place(&mut rng, &a, &b, gap, spread);
            let label = format!("{ka:?}–{kb:?} extreme case {i} (scales {sa}, {sb})");
            if let Some(c) = check_pair(&a, &pa, &b, &pb, &EXTREME, &mut worst, &label)
                .and(closest_points(&a, &pa, &b, &pb, &mut PairCache::default()).unwrap())
            {
                assert!(
                    c.distance > 0.0
                        && c.point_a.is_finite()
                        && c.point_b.is_finite()
                        && (c.normal.length() - 1.0).abs() < 1e-6,
                    "{label}: {c:?}"
                );
            }
            assert!(distance(&a, &pa, &b, &pb).unwrap() >= 0.0);
        }
        println!("extreme shapes, {ka:?}–{kb:?}: worst over size: {worst:?}");
    }
}

/// How often, and by how much, a library's distances leave the oracle's.
#[derive(Default, Debug)]
struct Disagreements {
    /// Pairs off by more than 1e-6 of the size (beyond f32 rounding).
    count: usize,
    /// Pairs off by more than 1e-3 of the size.
    large: usize,
    /// The worst error over the size, and its pair.
    worst: f64,
    worst_case: usize,
}

impl Disagreements {
    fn record(&mut self, case: usize, error: f64) {
        self.count += (error > 1e-6) as usize;
        self.large += (error > 1e-3) as usize;
        if error > self.worst {
            (self.worst, self.worst_case) = (error, case);
        }
    }
}

/// sepax and parry3d 0.31 (`query::distance`, and the gap between the points of
/// `query::closest_points`) on the same 10,000 random pairs of each kind, both judged by
/// the oracle: the disagreements of both are printed, only sepax's are asserted.
#[test]
fn parry_distance_against_the_oracle() {
    const PEER_PAIRS: usize = 10_000;
    // parry twins of the first 512 pooled hulls (parry builds its own hull of them).
    let hulls: Vec<(Shape, Box<dyn parry3d::shape::Shape>)> = hull_pool()[..512]
        .iter()
        .map(|h| (h.clone(), to_parry_shape(h)))
        .collect();
    let mut rng = Rng::new(0x9A77);
    for (ka, kb) in KINDS {
        let pick = |rng: &mut Rng, kind: Kind| {
            if kind == Kind::Hull {
                let (h, p) = &hulls[rng.below(hulls.len())];
                (h.clone(), None, Some(&**p))
            } else {
                let s = random_shape(rng, kind);
                let p = to_parry_shape(&s);
                (s, Some(p), None)
            }
        };
        let (mut ours, mut parry_distance, mut parry_points) = Default::default();
        let (ours, parry_distance, parry_points): (
            &mut Disagreements,
            &mut Disagreements,
            &mut Disagreements,
        ) = (&mut ours, &mut parry_distance, &mut parry_points);
        for i in 0..PEER_PAIRS {
            let (a, owned_a, pooled_a) = pick(&mut rng, ka);
            let (b, owned_b, pooled_b) = pick(&mut rng, kb);
            let (parry_a, parry_b) = (
                owned_a.as_deref().or(pooled_a).unwrap(),
                owned_b.as_deref().or(pooled_b).unwrap(),
            );
            let size = scale(&a, &b);
            let gap = random_gap(&mut rng, size);
            let spread = if rng.below(10) == 0 { 1000.0 } else { 10.0 };
            let (pa, pb) = place(&mut rng, &a, &b, gap, spread);
            let exact = exact_distance(&a, &pa, &b, &pb)
                .unwrap()
                .separation
                .max(0.0);
            let error = |x: f64| {
                ((x - exact).abs() - 0.5 * rounding(exact).max(rounding(x))).max(0.0) / size
            };

            let d = distance(&a, &pa, &b, &pb).unwrap() as f64;
            ours.record(i, error(d));
            if d == 0.0 {
                assert!(
                    exact <= BOUNDS.touching * size,
                    "{ka:?}–{kb:?} case {i}: 0 for {exact}"
                );
            } else {
                assert!(
                    error(d) <= BOUNDS.distance,
                    "{ka:?}–{kb:?} case {i}: {d} for {exact}"
                );
            }

            let (qa, qb) = (to_parry_pose(&pa), to_parry_pose(&pb));
            let theirs = parry3d::query::distance(&qa, parry_a, &qb, parry_b)
                .unwrap()
                .distance;
            parry_distance.record(i, error(theirs as f64));
            let points =
                parry3d::query::closest_points(&qa, parry_a, &qb, parry_b, f32::MAX).unwrap();
            let gap = match points {
                parry3d::query::ClosestPoints::WithinMargin(p, q) => (q - p).length() as f64,
                _ => 0.0,
            };
            parry_points.record(i, error(gap));
        }
        println!(
            "{ka:?}–{kb:?}, {PEER_PAIRS} pairs against the oracle (error over size beyond f32 rounding; count > 1e-6, large > 1e-3):\n  sepax distance:                  {ours:?}\n  parry3d query::distance:         {parry_distance:?}\n  parry3d query::closest_points:   {parry_points:?}"
        );
    }
}

/// A 0.002 box 65 units from a hull of size 1 (the extreme shapes' Box–Hull case 4,478
/// on their seed xor 17): GJK's support of the hull compares in f32, where two of its
/// vertices tie along the closest direction to within the dot products' rounding, and
/// it stopped on the nearer one, the normal 1.3e-5 rad off (6.2e-4 of the size on
/// `|n d − n* d*|`). The support is now climbed in f64 before GJK stops: within
/// [`EXTREME`] (fails before).
#[test]
fn a_far_pair_whose_hull_vertices_tie_in_f32_gets_its_normal() {
    let hull = ConvexHull::try_from_points(&[
        Vec3::new(-0.64773285, 0.6042036, -1.4783505),
        Vec3::new(-1.429858, -0.3947739, -0.8959301),
        Vec3::new(-1.2093996, -0.33730245, 1.4767363),
        Vec3::new(1.4056003, -0.08947241, -1.1367543),
        Vec3::new(0.98282695, 0.4526112, 0.64948726),
        Vec3::new(0.23374665, -0.008748293, -1.492707),
        Vec3::new(1.3235817, -0.12042087, -1.1827568),
        Vec3::new(0.24952936, 0.02771312, 1.4412916),
        Vec3::new(0.38576722, 0.44696534, -1.2661252),
        Vec3::new(-0.49977338, -0.5848664, -0.83499485),
        Vec3::new(0.9279094, -0.6233075, -0.9582415),
        Vec3::new(0.12073982, -0.6231898, 0.44345725),
        Vec3::new(0.72114134, 0.5651523, -0.35437977),
        Vec3::new(0.6243434, -0.49102247, -0.014198899),
        Vec3::new(-1.3046403, 0.12378663, 1.1826727),
    ])
    .unwrap();
    let a = Shape::from(
        Cuboid::try_from_half_extents(Vec3::new(0.0018191129, 0.00011361774, 0.0011475686))
            .unwrap(),
    );
    let pa = Pose::new(
        Vec3::new(5.647394, 9.1940155, -12.5798855),
        Quat::from_xyzw(-0.5435953, -0.5826829, 0.31631655, -0.5147122),
    );
    let b = Shape::from(hull);
    let pb = Pose::new(
        Vec3::new(4.689979, -53.90542, -33.606586),
        Quat::from_xyzw(0.67169255, 0.4981186, -0.22849238, -0.49849594),
    );
    let mut worst = Worst::default();
    let checked = check_pair(&a, &pa, &b, &pb, &EXTREME, &mut worst, "far box–hull");
    assert_eq!(checked, Some(true), "{worst:?}");
}

/// A box hovering over a face of a hull as a resting body does: face down, edge down
/// or corner down, its lowest point above a random spot near the face's border (inside
/// or outside it) at a gap of 1e-4 to 0.1 of the size, and tilted off the face's plane
/// by 1e-9 to 1e-5 rad. Two Minkowski faces of the pair (the box's edge or corner
/// against the face, and against the face's border edge) then meet at the tilt's tiny
/// angle, and the f32 support of the hull can pick the border edge's vertex over the
/// face's far vertex that is nearer by less than its rounding: GJK stopped on the
/// border's edge pair, 1e-8 of a 0.008 gap too far (`box_hull`, seed xor 555, case
/// 45,455). One hull in four is a [`bent_block`], whose merged quads hide an edge from
/// the climb's adjacency. Within [`BOUNDS`], both orders (fails before the support is
/// climbed in f64 on a triangle too, at case 10; and before the climb looks across
/// merged faces, at case 87).
#[test]
fn boxes_resting_nearly_flush_over_hull_faces() {
    use glam::{DQuat, DVec3};
    let mut rng = Rng::new(0x5E57);
    let mut worst = Worst::default();
    let pool = hull_pool();
    let cases = 100_000;
    for i in 0..cases {
        let hull = if i % 4 == 3 {
            std::sync::Arc::new(bent_block(&mut rng))
        } else {
            let Shape::ConvexHull(hull) = &pool[rng.below(POOL)] else {
                unreachable!()
            };
            hull.clone()
        };
        let half = rng.vec3(Vec3::splat(0.05), Vec3::splat(1.0)).as_dvec3();
        let boxed = Shape::from(Cuboid::try_from_half_extents(half.as_vec3()).unwrap());
        // The face, its loop and its f64 (Newell) normal, in the hull's frame.
        let f = rng.below(hull.face_count());
        let face = face_corners(&hull, f);
        let k = face.len();
        let normal = (0..k)
            .map(|j| face[j].cross(face[(j + 1) % k]))
            .sum::<DVec3>()
            .normalize();
        // Face, edge or corner down, spun about the normal, tilted by a hair.
        let turn = |rng: &mut Rng, lo: f32, hi: f32| rng.range(lo, hi) as f64;
        let down = match i % 3 {
            0 => DQuat::IDENTITY,
            1 => DQuat::from_rotation_x(turn(&mut rng, 0.2, 1.37)),
            _ => {
                DQuat::from_rotation_y(turn(&mut rng, 0.2, 1.37))
                    * DQuat::from_rotation_x(turn(&mut rng, 0.2, 1.37))
            }
        };
        let spin = DQuat::from_rotation_z(turn(&mut rng, 0.0, std::f32::consts::TAU));
        let align = DQuat::from_rotation_arc(DVec3::Z, normal);
        let tilt_axis = normal.any_orthonormal_vector();
        let tilt_axis =
            DQuat::from_axis_angle(normal, turn(&mut rng, 0.0, std::f32::consts::TAU)) * tilt_axis;
        let tilt = DQuat::from_axis_angle(tilt_axis, 10f64.powf(turn(&mut rng, -9.0, -5.0)));
        let rotation = tilt * align * spin * down;
        // The lowest corner (the middle of the lowest ones, on a flush face or edge).
        let corners: Vec<DVec3> = (0..8)
            .map(|c| {
                let s = |bit: usize| if c >> bit & 1 == 1 { 1.0 } else { -1.0 };
                rotation * DVec3::new(s(0) * half.x, s(1) * half.y, s(2) * half.z)
            })
            .collect();
        let low = corners
            .iter()
            .map(|c| c.dot(normal))
            .fold(f64::INFINITY, f64::min);
        let lowest: Vec<DVec3> = corners
            .iter()
            .copied()
            .filter(|c| c.dot(normal) <= low + 1e-6 * half.max_element())
            .collect();
        let lowest = lowest.iter().sum::<DVec3>() / lowest.len() as f64;
        // Above a spot near the face's border, at the gap.
        let j = rng.below(k);
        let border = face[j].lerp(face[(j + 1) % k], turn(&mut rng, 0.0, 1.0));
        let slide = rng.unit_vec3().as_dvec3();
        let slide =
            (slide - normal * slide.dot(normal)) * turn(&mut rng, 0.0, 0.5) * half.max_element();
        let plane = face[0].dot(normal);
        let spot = border + slide;
        let spot = spot - normal * (spot.dot(normal) - plane);
        let size = hull.bounding_radius() as f64 + half.length();
        let gap = size * 10f64.powf(turn(&mut rng, -4.0, -1.0));
        let centre = spot + normal * gap - lowest;
        // Both into the world through a random pose of the hull.
        let ph = Pose::new(
            rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
            rng.rotation(),
        );
        let qh = ph.rotation.as_dquat().normalize();
        let pbox = Pose::new(
            (ph.translation.as_dvec3() + qh * centre).as_vec3(),
            (qh * rotation).as_quat(),
        );
        let hull_shape = Shape::ConvexHull(hull.clone());
        let label = format!("resting box–hull case {i}");
        check_pair(&boxed, &pbox, &hull_shape, &ph, &BOUNDS, &mut worst, &label);
    }
    println!("{cases} boxes resting over hull faces: worst over size {worst:?}");
}
