//! Broad phase: sepax's sweep-and-prune against parry3d's BVH, the bvh crate and
//! brute force, on the same reproducible box clouds (`sepax_testkit::clouds`).
//!
//! Every iteration is one frame: move the boxes, hand the new boxes to the broad
//! phase, get the full list of overlapping pairs.
//!
//! * `coherent_N`: N boxes (sizes 0.5–1.5) in a cube sized for about one neighbour
//!   each, moving about 1% of their size per frame, bouncing off the walls
//!   ([`MovingBoxes::coherent`]).
//! * `teleport_N`: the same boxes, every box jumping to a fresh random place every
//!   frame (two precomputed layouts, alternated: [`MovingBoxes::teleport`]).
//! * `static_heavy`: 50,000 static floor tiles + 1,000 moving boxes above and on the
//!   floor ([`floor_tiles`], [`floor_movers`]), next to the same 1,000 moving boxes
//!   alone. This is the broad phase's own floor scene, not the world scene
//!   `sepax_testkit::scenes::static_heavy` of the step bench.
//!
//! Contenders: `sepax_sap` ([`SweepAndPrune`]); `parry_bvh` (parry3d 0.31
//! `partitioning::Bvh`: `insert_or_update_partially` + `refit` +
//! `traverse_bvtt_single_tree`; in the teleport groups the tree is rebuilt with
//! `Bvh::from_leaves` first, because refitting a tree whose leaves all jumped took
//! 14 s a frame at 100k here); `parry_bvh_par` (the same with `refit_parallel` and
//! `traverse_bvtt_single_tree_parallel`); `bvh_crate` (bvh 0.13: `build_par` + one
//! `traverse` per box, since it has no refit nor self query); `brute_force` at 1,000.
//!
//! Run: `cargo bench -p sepax-benches --bench broadphase`.
//!
//! ## Figures
//!
//! The run of 21 November 2026 (commit a8e7fe7, recorded then in the `sepax-broadphase`
//! crate docs and moved here unchanged; rerun the command to refresh it):
//!
//! `cargo bench -p sepax-benches --bench broadphase -- --warm-up-time 1
//! --measurement-time 3` (criterion medians, rayon's default pool of 2 threads, one
//! run; frame = move every box, update every proxy, get all pairs):
//!
//! | scene | sepax | parry3d BVH | parry3d BVH, parallel | vs parry |
//! |---|---|---|---|---|
//! | coherent 1,000 | 20.4 µs | 44.1 µs | 63.7 µs | 2.2× |
//! | coherent 10,000 | 229 µs | 1.15 ms | 668 µs | 5.0× (2.9× vs parallel) |
//! | coherent 100,000 | 3.43 ms | 9.98 ms | 9.90 ms | 2.9× |
//! | teleport 1,000 | 73.5 µs | 260 µs | 263 µs | 3.5× |
//! | teleport 10,000 | 1.61 ms | 4.66 ms | 4.26 ms | 2.9× |
//! | teleport 100,000 | 17.0 ms | 55.5 ms | 54.9 ms | 3.3× |
//! | 50,000 static + 1,000 moving | 32.8 µs | 861 µs | 834 µs | 26× |
//! | the same 1,000 moving alone | 11.6 µs | 26.8 µs | | 2.3× |
//!
//! parry3d: `insert_or_update_partially` + `refit` + `traverse_bvtt_single_tree`
//! (parallel: `refit_parallel` + `traverse_bvtt_single_tree_parallel`); rebuilt with
//! `from_leaves` each teleport frame (refitting teleported leaves took 14 s a frame
//! at 100,000); with statics, change detection on (margin 1e-4) as rapier does. The
//! same run measured the bvh crate (one query per box) at 315 µs / 4.5 ms / 176 ms
//! for the coherent scenes and brute force at 3.0 ms for 1,000 boxes. Between runs
//! on this shared machine the parry figures moved by up to 1.6×.
//!
//! Against the targets: coherent 10,000 is 5.0× faster than parry's serial
//! frame (2.9× its parallel one in this run); coherent 100,000 is 2.9× (target 5×,
//! missed: each frame re-tests every candidate, two random box reads each, and a
//! full sweep still runs whenever more than `16 + n/256` boxes leave their fat box
//! in a frame); the static-heavy frame costs 2.8× its 1,000 moving bodies alone
//! (target 1.5×, missed: the movers alone became cheap with the candidate cache,
//! while the static part, about 21 µs, is the containment test and ~6 cached
//! candidates per mover plus ~30 BVH re-queries a frame).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::partitioning::{Bvh as ParryBvh, BvhBuildStrategy, BvhWorkspace};
use sepax_broadphase::{BruteForce, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::Aabb;
use sepax_testkit::clouds::{MovingBoxes, floor_movers, floor_tiles};
use std::hint::black_box;

fn to_parry(b: &Aabb) -> ParryAabb {
    ParryAabb::new(
        parry3d::math::Vector::from_array(b.min.to_array()),
        parry3d::math::Vector::from_array(b.max.to_array()),
    )
}

// ---------------------------------------------------------------- contenders

struct Sap {
    sap: SweepAndPrune,
    ids: Vec<ProxyId>,
}

impl Sap {
    fn new(statics: &[Aabb], movers: &MovingBoxes) -> Sap {
        let mut sap = SweepAndPrune::new();
        let mut next = 0..;
        let mut key = || ProxyId(next.next().unwrap());
        for s in statics {
            sap.insert(key(), *s, ProxyKind::Static).unwrap();
        }
        let ids = movers
            .boxes
            .iter()
            .map(|b| {
                let id = key();
                sap.insert(id, *b, ProxyKind::Dynamic).unwrap();
                id
            })
            .collect();
        sap.update_pairs();
        Sap { sap, ids }
    }

    fn frame(&mut self, movers: &MovingBoxes) -> usize {
        for (id, b) in self.ids.iter().zip(&movers.boxes) {
            self.sap.update(*id, *b).unwrap();
        }
        self.sap.update_pairs();
        self.sap.pairs().len()
    }
}

struct Parry {
    bvh: ParryBvh,
    ws: BvhWorkspace,
    first_mover: u32,
    pairs: Vec<(u32, u32)>,
    parallel: bool,
    /// With statics, only changed leaves are traversed (change detection with a
    /// 1e-4 margin, as rapier does); without, every pair is enumerated.
    change_detection: bool,
}

impl Parry {
    fn new(statics: &[Aabb], movers: &MovingBoxes, parallel: bool) -> Parry {
        let leaves: Vec<ParryAabb> = statics
            .iter()
            .chain(movers.boxes.iter())
            .map(to_parry)
            .collect();
        let bvh = ParryBvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        Parry {
            bvh,
            ws: BvhWorkspace::default(),
            first_mover: statics.len() as u32,
            pairs: Vec::new(),
            parallel,
            change_detection: !statics.is_empty(),
        }
    }

    fn frame(&mut self, movers: &MovingBoxes) -> usize {
        if movers.teleports() {
            // Teleports: a refit of a tree whose leaves all jumped is catastrophic
            // (14 s a frame at 100k measured here), so rebuild, as a user would.
            let leaves: Vec<ParryAabb> = movers.boxes.iter().map(to_parry).collect();
            self.bvh = ParryBvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        }
        let margin = if self.change_detection { 1.0e-4 } else { 0.0 };
        for (i, b) in movers.boxes.iter().enumerate() {
            self.bvh
                .insert_or_update_partially(to_parry(b), self.first_mover + i as u32, margin);
        }
        self.pairs.clear();
        match (self.parallel, self.change_detection) {
            (false, false) => {
                self.bvh.refit(&mut self.ws);
                let pairs = &mut self.pairs;
                self.bvh
                    .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| {
                        pairs.push((a, b))
                    });
            }
            (false, true) => {
                self.bvh.refit(&mut self.ws);
                let pairs = &mut self.pairs;
                self.bvh
                    .traverse_bvtt_single_tree::<true>(&mut self.ws, &mut |a, b| {
                        pairs.push((a, b))
                    });
            }
            (true, false) => {
                self.bvh.refit_parallel(&mut self.ws);
                self.pairs = self.bvh.traverse_bvtt_single_tree_parallel::<false>();
            }
            (true, true) => {
                self.bvh.refit_parallel(&mut self.ws);
                self.pairs = self.bvh.traverse_bvtt_single_tree_parallel::<true>();
            }
        }
        self.pairs.len()
    }
}

/// A bvh 0.13 shape.
struct BvhShape {
    aabb: bvh::aabb::Aabb<f32, 3>,
    index: usize,
    node: usize,
}

impl bvh::aabb::Bounded<f32, 3> for BvhShape {
    fn aabb(&self) -> bvh::aabb::Aabb<f32, 3> {
        self.aabb
    }
}

impl bvh::bounding_hierarchy::BHShape<f32, 3> for BvhShape {
    fn set_bh_node_index(&mut self, i: usize) {
        self.node = i;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

fn to_bvh((index, b): (usize, &Aabb)) -> BvhShape {
    let p = |v: Vec3| nalgebra::Point3::new(v.x, v.y, v.z);
    BvhShape {
        aabb: bvh::aabb::Aabb::with_bounds(p(b.min), p(b.max)),
        index,
        node: 0,
    }
}

/// bvh 0.13: no refit, no self query: rebuild the movers' tree each frame and query
/// it (and the statics' tree, built once) with every mover's box.
struct BvhCrate {
    statics: Vec<BvhShape>,
    static_tree: bvh::bvh::Bvh<f32, 3>,
}

impl BvhCrate {
    fn new(statics: &[Aabb]) -> BvhCrate {
        use bvh::bounding_hierarchy::BoundingHierarchy;
        let mut shapes: Vec<BvhShape> = statics.iter().enumerate().map(to_bvh).collect();
        let static_tree = bvh::bvh::Bvh::build_par(&mut shapes);
        BvhCrate {
            statics: shapes,
            static_tree,
        }
    }

    fn frame(&self, movers: &MovingBoxes) -> usize {
        use bvh::bounding_hierarchy::BoundingHierarchy;
        use rayon::prelude::*;
        let mut shapes: Vec<BvhShape> = movers.boxes.iter().enumerate().map(to_bvh).collect();
        let tree = bvh::bvh::Bvh::build_par(&mut shapes);
        let counts: Vec<usize> = shapes
            .par_iter()
            .enumerate()
            .map(|(i, s)| {
                let dyn_hits = tree
                    .traverse(&s.aabb, &shapes)
                    .into_iter()
                    .filter(|h| h.index > i)
                    .count();
                let static_hits = if self.statics.is_empty() {
                    0
                } else {
                    self.static_tree.traverse(&s.aabb, &self.statics).len()
                };
                dyn_hits + static_hits
            })
            .collect();
        counts.iter().sum()
    }
}

struct Brute {
    bf: BruteForce,
    ids: Vec<ProxyId>,
}

impl Brute {
    fn new(movers: &MovingBoxes) -> Brute {
        let mut bf = BruteForce::new();
        let ids = (0..movers.boxes.len() as u32).map(ProxyId).collect();
        for (&id, b) in std::iter::zip(&ids, &movers.boxes) {
            bf.insert(id, *b, ProxyKind::Dynamic).unwrap();
        }
        Brute { bf, ids }
    }

    fn frame(&mut self, movers: &MovingBoxes) -> usize {
        for (id, b) in self.ids.iter().zip(&movers.boxes) {
            self.bf.update(*id, *b).unwrap();
        }
        self.bf.update_pairs();
        self.bf.pairs().len()
    }
}

// ---------------------------------------------------------------- groups

/// Checks that the contenders agree on the pair count of the first frame, so that the
/// timings compare the same work.
fn same_work(name: &str, counts: &[(&str, usize)]) {
    let first = counts[0].1;
    for (who, c) in counts {
        assert_eq!(*c, first, "{name}: {who} found {c} pairs, sepax {first}");
    }
}

fn moving_group(c: &mut Criterion, label: &str, n: usize, make: fn(usize, u64) -> MovingBoxes) {
    let name = format!("{label}_{n}");
    let mut group = c.benchmark_group(&name);
    if n >= 10_000 {
        group.sample_size(10);
    }
    let movers = make(n, 42);
    {
        let mut m = movers.clone();
        m.step();
        let mut sap = Sap::new(&[], &movers);
        let mut parry = Parry::new(&[], &movers, false);
        let bvh = BvhCrate::new(&[]);
        let counts = [
            ("sepax", sap.frame(&m)),
            ("parry", parry.frame(&m)),
            ("bvh", bvh.frame(&m)),
        ];
        same_work(&name, &counts);
        eprintln!("{name}: {} pairs per frame", counts[0].1);
    }
    group.bench_function(BenchmarkId::new("sepax_sap", n), |bch| {
        let mut m = movers.clone();
        let mut sap = Sap::new(&[], &m);
        bch.iter(|| {
            m.step();
            black_box(sap.frame(&m))
        })
    });
    for (id, parallel) in [("parry_bvh", false), ("parry_bvh_par", true)] {
        group.bench_function(BenchmarkId::new(id, n), |bch| {
            let mut m = movers.clone();
            let mut parry = Parry::new(&[], &m, parallel);
            bch.iter(|| {
                m.step();
                black_box(parry.frame(&m))
            })
        });
    }
    group.bench_function(BenchmarkId::new("bvh_crate", n), |bch| {
        let mut m = movers.clone();
        let bvh = BvhCrate::new(&[]);
        bch.iter(|| {
            m.step();
            black_box(bvh.frame(&m))
        })
    });
    if n <= 1000 {
        group.bench_function(BenchmarkId::new("brute_force", n), |bch| {
            let mut m = movers.clone();
            let mut bf = Brute::new(&m);
            bch.iter(|| {
                m.step();
                black_box(bf.frame(&m))
            })
        });
    }
    group.finish();
}

fn coherent(c: &mut Criterion) {
    for n in [1_000, 10_000, 100_000] {
        moving_group(c, "coherent", n, MovingBoxes::coherent);
    }
}

fn teleport(c: &mut Criterion) {
    for n in [1_000, 10_000, 100_000] {
        moving_group(c, "teleport", n, MovingBoxes::teleport);
    }
}

fn static_heavy(c: &mut Criterion) {
    let tiles = floor_tiles();
    let movers = floor_movers();
    {
        let mut m = movers.clone();
        m.step();
        let mut with = Sap::new(&tiles, &movers);
        let mut alone = Sap::new(&[], &movers);
        let mut bf = BruteForce::new();
        for (i, t) in tiles.iter().enumerate() {
            bf.insert(ProxyId(i as u32), *t, ProxyKind::Static).unwrap();
        }
        // The oracle on the first frame, for the record (O(n²) over the movers only
        // would be enough, but BruteForce skips static pairs cheaply).
        let pairs = with.frame(&m);
        eprintln!(
            "static_heavy: {pairs} pairs with the floor, {} without",
            alone.frame(&m)
        );
        let bvh = BvhCrate::new(&tiles);
        assert_eq!(bvh.frame(&m), pairs, "bvh crate and sepax disagree");
    }
    let mut group = c.benchmark_group("static_heavy");
    group.sample_size(20);
    for (id, statics) in [
        ("sepax_sap_50k_static_1k_moving", &tiles[..]),
        ("sepax_sap_1k_moving_alone", &[][..]),
    ] {
        group.bench_function(id, |bch| {
            let mut m = movers.clone();
            let mut sap = Sap::new(statics, &m);
            bch.iter(|| {
                m.step();
                black_box(sap.frame(&m))
            })
        });
    }
    for (id, statics, parallel) in [
        ("parry_bvh_50k_static_1k_moving", &tiles[..], false),
        ("parry_bvh_par_50k_static_1k_moving", &tiles[..], true),
        ("parry_bvh_1k_moving_alone", &[][..], false),
    ] {
        group.bench_function(id, |bch| {
            let mut m = movers.clone();
            let mut parry = Parry::new(statics, &m, parallel);
            bch.iter(|| {
                m.step();
                black_box(parry.frame(&m))
            })
        });
    }
    group.bench_function("bvh_crate_50k_static_1k_moving", |bch| {
        let mut m = movers.clone();
        let bvh = BvhCrate::new(&tiles);
        bch.iter(|| {
            m.step();
            black_box(bvh.frame(&m))
        })
    });
    group.finish();
}

criterion_group!(benches, coherent, teleport, static_heavy);
criterion_main!(benches);
