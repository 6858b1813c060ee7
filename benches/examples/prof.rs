//! A profiling driver for the narrow phase: runs one of the narrowphase bench's pair
//! sets through one query `N` times in a plain loop, with no criterion around it, so
//! that an instruction-level profiler sees only the query. Instruction counts are
//! repeatable on a busy machine where timings are not: use it to tell whether a change
//! makes a query cheaper.
//!
//! Modes (the first argument):
//!
//! | mode | pairs | query |
//! |---|---|---|
//! | `box` | 256 box pairs (`box_pairs(1, 256, kind)`) | sepax `collide`, cold cache |
//! | `boxbatch` | the box pairs | `collide_box_pairs` (8 pairs per SIMD bundle), cold caches |
//! | `boxc` | the box pairs | sepax `contact` |
//! | `boxcbatch` | the box pairs | `contact_box_pairs` |
//! | `hull` | 256 touching 24-point hull pairs (`hull_pairs(24, 256, 24)`) | sepax `collide`, cold cache |
//! | `hullwarm` | the hull pairs, b nudged every pass (≤ 1% of its size, ≤ 0.01 rad) | sepax `collide`, each pair's cache kept from pass to pass |
//! | `hullnudged` | the nudged hull pairs of `hullwarm` | sepax `collide`, cold cache (`hullwarm`'s twin) |
//! | `hullrest` | 256 resting pairs of 24-point hulls (`resting_hull_pairs(15, 256, 24)`: largest face on largest face, sunk 2% of the radius), b nudged every pass as in `hullwarm` | sepax `collide`, each pair's cache kept from pass to pass (the kept-feature path) |
//! | `hullrestcold` | the nudged resting pairs of `hullrest` | sepax `collide`, cold cache (`hullrest`'s twin) |
//! | `parry-hullrest` | the resting pairs (not nudged) | parry3d `contact_manifolds`, fresh manifolds |
//! | `boxtri` | 256 boxes each touching one triangle (`terrain::box_triangle_pairs(6, 256)`) | sepax `collide_mesh_triangles` with that triangle, one scratch reused |
//! | `boxfloor` | 256 boxes resting on `terrain::flat_floor(8, 1.0)` (`terrain::boxes_on_floor`), each with the triangles its box overlaps | sepax `collide_mesh_triangles`, one scratch reused |
//! | `hulltri` | 256 hulls of 16 points each touching one triangle (`terrain::hull_triangle_pairs(8, 256, 16)`) | sepax `collide_mesh_triangles` with that triangle |
//! | `captri` | 256 capsules each touching one triangle (`terrain::capsule_triangle_pairs(9, 256)`) | sepax `collide_mesh_triangles` with that triangle |
//! | `parry-boxtri` | the box–triangle pairs | parry3d `contact_manifolds` (`Triangle`, `Cuboid`), fresh manifolds |
//! | `parry-box` | the box pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `parry-hull` | the hull pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `capsule-box` | 256 touching capsule–box pairs (`capsule_box_pairs(6, 256)`) | sepax `collide`, cold cache |
//! | `capsule-capsule` | 256 touching capsule pairs (`capsule_capsule_pairs(7, 256)`) | sepax `collide`, cold cache |
//! | `parry-capsule-box` | the capsule–box pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `parry-capsule-capsule` | the capsule pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `sphere-hull` | 256 touching sphere–hull pairs (`sphere_hull_pairs(5, 256, 24)`, the `sphere_hull_manifold/24` bench pairs) | sepax `collide`, cold cache |
//! | `box-hull` | 256 touching box–hull pairs (`box_hull_pairs(13, 256, 24)`, the `box_hull_manifold/24` bench pairs) | sepax `collide`, cold cache |
//! | `parry-sphere-hull`, `parry-box-hull` | the same pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `sphere-box` | 256 touching sphere–box pairs (`sphere_box_pairs(16, 256)`, the `sphere_box_manifold` bench pairs) | sepax `collide`, cold cache |
//! | `parry-sphere-box` | the same pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `sphere-sphere` | 256 touching sphere pairs (`sphere_sphere_pairs(17, 256)`, the `sphere_sphere_manifold` bench pairs) | sepax `collide`, cold cache |
//! | `parry-sphere-sphere` | the same pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `distance-hull24` | 256 pairs of 24-point hulls 5% of their size apart (`hull_pairs_as(11, 256, 24, PairKind::Apart)`) | sepax `distance` (cold) |
//! | `distance-hull24-warm` | the apart hull pairs, b nudged every pass (≤ 1% of its size, ≤ 0.01 rad) | sepax `closest_points`, each pair's cache kept from pass to pass |
//! | `parry-distance-hull24` | the apart hull pairs | parry3d `query::distance` |
//! | `distance-box` | 256 box pairs 5% of their size apart (`box_pairs(12, 256, PairKind::Apart)`, the `distance/*/box` bench pairs) | sepax `distance` (cold) |
//! | `cast-box`, `cast-hull24` | the cast bench's sets (`cast_sets()`: boxes 3 sizes apart, 24-point hulls 0.5 apart; b thrown at a) | sepax `cast`, translation only |
//! | `parry-cast-box`, `parry-cast-hull24` | the same pairs and velocities | parry3d `query::cast_shapes` |
//! | `seed003 <variants> <n>` | the `seed003` bench's `n`-point hull pairs (`sepax_benches::seed003::pairs(n)`) | the bench's variants, one after the other (`all`, or labels joined by commas: `plain`, `gauss-map`, `pruned-scan-contact`, `pruned-walk-contact`, `pruned-{scan,walk}-{cold,warm}`, `parry3d`, `parry3d-contact`) |
//!
//! The box modes take a second argument, the pair kind: `resting` (default),
//! `touching`, `deep`, `separated`; the hull modes (`sphere-hull` and `box-hull` too) the hull's point count (default 24). These are the pairs of the `box_box_*`,
//! `hull_hull_manifold/24`, `sphere_hull_manifold/24` and `box_hull_manifold/24` bench groups; the capsule modes those of
//! `capsule_box_manifold` and `capsule_capsule_manifold`. `N` (environment, default 100) is the number
//! of passes; `SEPAX_SIMD=scalar|baseline|avx2` forces the batched modes' SIMD level
//! (default: the best the CPU has, printed on stderr).
//!
//! ```sh
//! cargo build --profile bench -p sepax-benches --example prof
//! N=20 valgrind --tool=callgrind --callgrind-out-file=/tmp/prof.out \
//!     target/release/examples/prof boxbatch touching
//! callgrind_annotate /tmp/prof.out | head -30
//! ```
//!
//! (With `CARGO_TARGET_DIR` set, the binary is under that directory instead of
//! `target/`.) The total also counts building the 256 pairs: measured with `N=0`,
//! 1.39 billion instructions for the hull pairs (hull building and the f64 oracle
//! that places them), 0.55 million for the box pairs. The per-pair cost of a query is
//! the difference of two runs' totals (say `N=30` and `N=10`) over the difference of
//! their queries; the set-up's count varies by a few hundred thousand from run to run
//! (the hull builder's hash maps are randomly seeded). For a count of the queries
//! alone, collect inside the query only:
//! `valgrind --tool=callgrind --toggle-collect='sepax_narrowphase::query::collide' ...`
//! (the total over `N × 256` calls), or read the query function's inclusive count from
//! `callgrind_annotate --inclusive=yes`. Measured so on 23 November 2026 (`N=20`,
//! 5,120 calls, `sepax_narrowphase::distance::distance` / `closest_points` /
//! `parry3d::query::distance::distance::distance`): `distance-hull24` 8,741
//! instructions per pair, `distance-hull24-warm` 3,031, `parry-distance-hull24` 11,347.
//! Inside `sepax_narrowphase::query::collide` and parry's `contact_manifolds` (`N=10`,
//! 2,560 calls, 23 November 2026): `sphere-hull` 1,039 instructions per pair (5,873
//! before the closest-feature walk), `parry-sphere-hull` 3,071; `box-hull` 14,590,
//! `parry-box-hull` 20,493. 24 November 2026, after the walk's start came from the
//! hull's polar climb: `sphere-hull` 936, `parry-sphere-hull` 3,073; `box-hull` 14,626,
//! `parry-box-hull` 20,545. For parry: `--toggle-collect='*DefaultQueryDispatcher as
//! parry3d::query::query_dispatcher::PersistentQueryDispatcher*contact_manifolds'`.

use parry3d::query::ContactManifold;
use sepax_benches::{
    box_batch, cast_motions, cast_sets, nudged, parry_cast_pairs, parry_casts,
    parry_manifolds_pass, parry_pairs, parry_triangle_manifolds, parry_triangle_pairs, sepax_casts,
    to_parry,
};
use sepax_geometry::Pose;
use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles};
use sepax_narrowphase::{
    BoxBoxPair, PairCache, SimdLevel, closest_points, collide, collide_box_pairs_at, contact,
    contact_box_pairs_at, distance,
};
use sepax_testkit::pairs::{
    Pair, PairKind, box_hull_pairs, box_pairs, capsule_box_pairs, capsule_capsule_pairs,
    hull_pairs, hull_pairs_as, resting_hull_pairs, sphere_box_pairs, sphere_hull_pairs,
    sphere_sphere_pairs,
};
use sepax_testkit::terrain::{
    TrianglePair, box_triangle_pairs, boxes_on_floor, capsule_triangle_pairs, hull_triangle_pairs,
};
use std::hint::black_box;
use std::process::ExitCode;

const MODES: [&str; 38] = [
    "seed003",
    "box",
    "boxbatch",
    "boxc",
    "boxcbatch",
    "hull",
    "hullwarm",
    "hullnudged",
    "hullrest",
    "hullrestcold",
    "parry-hullrest",
    "parry-box",
    "parry-hull",
    "boxtri",
    "parry-boxtri",
    "boxfloor",
    "hulltri",
    "captri",
    "capsule-box",
    "capsule-capsule",
    "parry-capsule-box",
    "parry-capsule-capsule",
    "sphere-hull",
    "box-hull",
    "parry-sphere-hull",
    "parry-box-hull",
    "sphere-box",
    "parry-sphere-box",
    "sphere-sphere",
    "parry-sphere-sphere",
    "distance-hull24",
    "distance-hull24-warm",
    "distance-box",
    "parry-distance-hull24",
    "cast-box",
    "cast-hull24",
    "parry-cast-box",
    "parry-cast-hull24",
];

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_default();
    if !MODES.contains(&mode.as_str()) {
        eprintln!(
            "usage: prof <{}> [resting|touching|deep|separated]  (N=passes, default 100)",
            MODES.join("|")
        );
        return ExitCode::FAILURE;
    }
    let passes: usize = match std::env::var("N").map(|v| v.parse()) {
        Err(_) => 100,
        Ok(Ok(n)) => n,
        Ok(Err(e)) => {
            eprintln!("N must be a count: {e}");
            return ExitCode::FAILURE;
        }
    };
    if mode == "seed003" {
        return seed003(passes);
    }
    let points: usize = if mode.contains("hull") {
        std::env::args()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .unwrap_or(24)
    } else {
        24
    };
    let kind = match std::env::args().nth(2).as_deref() {
        _ if mode.contains("hull") => PairKind::Touching,
        None | Some("resting") => PairKind::Resting,
        Some("touching") => PairKind::Touching,
        Some("deep") => PairKind::Deep,
        Some("separated") => PairKind::Separated,
        Some(other) => {
            eprintln!("unknown pair kind {other}");
            return ExitCode::FAILURE;
        }
    };
    if mode.contains("cast-") {
        casts(&mode, passes);
        return ExitCode::SUCCESS;
    }
    if mode.contains("distance") {
        distances(&mode, passes);
        return ExitCode::SUCCESS;
    }
    let level = match std::env::var("SEPAX_SIMD").as_deref() {
        Ok("scalar") => SimdLevel::Scalar,
        Ok("baseline") => SimdLevel::Baseline,
        Ok("avx2") => SimdLevel::Avx2,
        _ => SimdLevel::detected(),
    };
    let pairs = if mode.ends_with("capsule-box") {
        capsule_box_pairs(6, 256)
    } else if mode.ends_with("capsule-capsule") {
        capsule_capsule_pairs(7, 256)
    } else if mode.ends_with("sphere-hull") {
        sphere_hull_pairs(5, 256, points)
    } else if mode.ends_with("sphere-sphere") {
        sphere_sphere_pairs(17, 256)
    } else if mode.ends_with("sphere-box") {
        sphere_box_pairs(16, 256)
    } else if mode.ends_with("box-hull") {
        box_hull_pairs(13, 256, points)
    } else if mode.contains("hullrest") {
        resting_hull_pairs(15, 256, points)
    } else if mode.contains("hull") {
        hull_pairs(24, 256, points)
    } else {
        box_pairs(1, 256, kind)
    };
    if mode == "boxfloor" {
        let (triangles, pairs) = boxes_on_floor(7, 256);
        let mut scratch = MeshScratch::default();
        let mut touched = 0;
        for _ in 0..passes {
            for (shape, pose, under) in &pairs {
                touched += under.len();
                black_box(collide_mesh_triangles(
                    under.iter().map(|&i| (i, triangles[i as usize])),
                    &Pose::IDENTITY,
                    shape,
                    pose,
                    0.0,
                    &mut scratch,
                ));
            }
        }
        eprintln!("{touched} triangle tests");
        return ExitCode::SUCCESS;
    }
    if mode.ends_with("boxtri") || mode == "hulltri" || mode == "captri" {
        let pairs = if mode == "hulltri" {
            hull_triangle_pairs(8, 256, 16)
        } else if mode == "captri" {
            capsule_triangle_pairs(9, 256)
        } else {
            box_triangle_pairs(6, 256)
        };
        if mode != "parry-boxtri" {
            let mut scratch = MeshScratch::default();
            for _ in 0..passes {
                for p in &pairs {
                    black_box(collide_mesh_triangles(
                        [(0, p.triangle)],
                        &p.mesh_pose,
                        &p.shape,
                        &p.pose,
                        0.0,
                        &mut scratch,
                    ));
                }
            }
        } else {
            parry_triangles(&pairs, passes);
        }
        return ExitCode::SUCCESS;
    }
    match mode.as_str() {
        "box" | "hull" | "capsule-box" | "capsule-capsule" | "sphere-hull" | "box-hull"
        | "sphere-box" | "sphere-sphere" => (0..passes).for_each(|_| sepax_collide(&pairs)),
        "hullwarm" | "hullrest" => sepax_collide_nudged(&pairs, passes, true),
        "hullnudged" | "hullrestcold" => sepax_collide_nudged(&pairs, passes, false),
        "boxc" => (0..passes).for_each(|_| sepax_contact(&pairs)),
        "boxbatch" | "boxcbatch" => {
            eprintln!("SIMD level: {level:?}");
            let Some(batch) = box_batch(&pairs) else {
                eprintln!("the batched modes take box pairs only");
                return ExitCode::FAILURE;
            };
            batched(&batch, level, mode == "boxbatch", passes);
        }
        _ => parry_manifolds(&pairs, passes),
    }
    ExitCode::SUCCESS
}

fn sepax_collide(pairs: &[Pair]) {
    for p in pairs {
        let mut cache = PairCache::default();
        // By reference, as the narrowphase bench keeps it (no 224-byte copy a call).
        let manifold = collide(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, &mut cache);
        black_box(&manifold);
    }
}

/// `passes` frames of the pairs with b nudged each frame by at most 1% of its size
/// and 0.01 rad (a fixed wobble around the bench pose, so the pairs stay touching),
/// each pair's cache kept from frame to frame (`warm`: the warm path) or fresh.
fn sepax_collide_nudged(pairs: &[Pair], passes: usize, warm: bool) {
    let mut caches = vec![PairCache::default(); pairs.len()];
    for pass in 0..passes {
        for (i, (p, cache)) in pairs.iter().zip(&mut caches).enumerate() {
            let phase = (pass * 7 + i) as f32 * 0.9;
            let pose_b = nudged(&p.pose_b, 2.0 * p.b.bounding_radius(), phase);
            if !warm {
                *cache = PairCache::default();
            }
            let manifold = collide(&p.a, &p.pose_a, &p.b, &pose_b, 0.0, cache);
            black_box(&manifold);
        }
    }
}

fn sepax_contact(pairs: &[Pair]) {
    for p in pairs {
        black_box(contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0));
    }
}

/// `passes` runs of the batched manifold (`manifolds`) or contact query, cold caches.
fn batched(batch: &[BoxBoxPair], level: SimdLevel, manifolds: bool, passes: usize) {
    let mut caches = vec![PairCache::default(); batch.len()];
    let mut out_manifolds = vec![None; batch.len()];
    let mut out_contacts = vec![None; batch.len()];
    for _ in 0..passes {
        if manifolds {
            caches.fill(PairCache::default());
            collide_box_pairs_at(level, batch, 0.0, &mut caches, &mut out_manifolds);
            black_box(&out_manifolds);
        } else {
            contact_box_pairs_at(level, batch, 0.0, &mut out_contacts);
            black_box(&out_contacts);
        }
    }
}

fn parry_manifolds(pairs: &[Pair], passes: usize) {
    let peers = parry_pairs(pairs);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    for _ in 0..passes {
        parry_manifolds_pass(&peers, &mut manifolds);
    }
}

fn parry_triangles(pairs: &[TrianglePair], passes: usize) {
    let peers = parry_triangle_pairs(pairs);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    for _ in 0..passes {
        parry_triangle_manifolds(&peers, &mut manifolds);
    }
}

/// The distance modes: 256 24-point hull pairs 5% of their size apart
/// (`hull_pairs_as(11, 256, 24, PairKind::Apart)`, the `distance/*/hull24` bench pairs),
/// `passes` times: sepax `distance` (cold), sepax `closest_points` with each pair's
/// cache kept from pass to pass while b wobbles (≤ 1% of its size, ≤ 0.01 rad, as
/// `hullwarm`), or parry3d `query::distance`.
fn distances(mode: &str, passes: usize) {
    let pairs = match mode {
        "distance-box" => box_pairs(12, 256, PairKind::Apart),
        _ => hull_pairs_as(11, 256, 24, PairKind::Apart),
    };
    match mode {
        "distance-hull24" | "distance-box" => {
            for _ in 0..passes {
                for p in &pairs {
                    black_box(distance(&p.a, &p.pose_a, &p.b, &p.pose_b).unwrap());
                }
            }
        }
        "distance-hull24-warm" => {
            let mut caches = vec![PairCache::default(); pairs.len()];
            for pass in 0..passes {
                for (i, (p, cache)) in pairs.iter().zip(&mut caches).enumerate() {
                    let phase = (pass * 7 + i) as f32 * 0.9;
                    let pose_b = nudged(&p.pose_b, 2.0 * p.b.bounding_radius(), phase);
                    black_box(closest_points(&p.a, &p.pose_a, &p.b, &pose_b, cache).unwrap());
                }
            }
        }
        _ => {
            let peers: Vec<_> = pairs
                .iter()
                .map(|p| {
                    (
                        to_parry::shape(&p.a),
                        to_parry::pose(&p.pose_a),
                        to_parry::shape(&p.b),
                        to_parry::pose(&p.pose_b),
                    )
                })
                .collect();
            for _ in 0..passes {
                for (a, pose_a, b, pose_b) in &peers {
                    black_box(parry3d::query::distance(pose_a, &**a, pose_b, &**b).unwrap());
                }
            }
        }
    }
}

/// The cast modes: the cast bench's box or hull set, `passes` times, sepax `cast` or
/// parry3d `cast_shapes` (translation only, `max_time` 1).
fn casts(mode: &str, passes: usize) {
    let set = if mode.ends_with("box") {
        "box"
    } else {
        "hull24"
    };
    let (_, pairs) = cast_sets()
        .into_iter()
        .find(|(name, _)| *name == set)
        .expect("a set");
    if !mode.starts_with("parry") {
        let motions = cast_motions(&pairs);
        (0..passes).for_each(|_| sepax_casts(&pairs, &motions));
    } else {
        let peers = parry_cast_pairs(&pairs);
        (0..passes).for_each(|_| parry_casts(&peers));
    }
}

/// The `seed003` mode: `passes` passes of each variant of the seed 003 bench over its
/// `n`-point pairs (arguments: a variant's label, several joined by commas, or `all`;
/// then `n`, default 24). Each pass is one call of `Passes::run`, so
/// `--dump-after=sepax_benches::seed003::Passes::run` gives callgrind one dump per pass.
fn seed003(passes: usize) -> ExitCode {
    use sepax_benches::seed003::{Passes, Variant, pairs};
    let labels = Variant::ALL.map(Variant::label).join("|");
    let chosen: Option<Vec<Variant>> = match std::env::args().nth(2).as_deref() {
        Some("all") => Some(Variant::ALL.to_vec()),
        Some(list) => list.split(',').map(Variant::from_label).collect(),
        None => None,
    };
    let Some(variants) = chosen else {
        eprintln!("usage: prof seed003 <all|{labels}>[,...] [points]");
        return ExitCode::FAILURE;
    };
    let n = std::env::args()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or(24);
    let mut runs = Passes::new(pairs(n));
    for variant in variants {
        eprintln!(
            "{}: {} pairs of {n}-point hulls, {passes} passes",
            variant.label(),
            runs.len()
        );
        (0..passes).for_each(|_| runs.run(variant));
    }
    ExitCode::SUCCESS
}
