//! Broad phase: sepax's sweep-and-prune against parry3d's BVH, the bvh crate and
//! brute force, on the same reproducible scenes (`sepax_geometry::rng::Rng`).
//!
//! Every iteration is one frame: move the boxes, hand the new boxes to the broad
//! phase, get the full list of overlapping pairs.
//!
//! * `coherent_N`: N boxes (sizes 0.5–1.5) in a cube sized for about one neighbour
//!   each, moving about 1% of their size per frame, bouncing off the walls.
//! * `teleport_N`: the same boxes, every box jumping to a fresh random place every
//!   frame (two precomputed layouts, alternated).
//! * `static_heavy`: 50,000 static floor tiles + 1,000 moving boxes above and on the
//!   floor, next to the same 1,000 moving boxes alone.
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

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::partitioning::{Bvh as ParryBvh, BvhBuildStrategy, BvhWorkspace};
use sepax_broadphase::{BruteForce, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::{Aabb, rng::Rng};
use std::hint::black_box;

/// Boxes that move: current boxes and per-box velocity inside `[lo, hi]`.
#[derive(Clone)]
struct Movers {
    boxes: Vec<Aabb>,
    vel: Vec<Vec3>,
    lo: Vec3,
    hi: Vec3,
    /// Teleport layouts, alternated each frame when present.
    layouts: Option<[Vec<Aabb>; 2]>,
    frame: usize,
}

impl Movers {
    fn random_boxes(rng: &mut Rng, n: usize, lo: Vec3, hi: Vec3) -> Vec<Aabb> {
        (0..n)
            .map(|_| {
                let c = rng.vec3(lo, hi);
                let h = 0.5 * rng.vec3(Vec3::splat(0.5), Vec3::splat(1.5));
                Aabb::new(c - h, c + h)
            })
            .collect()
    }

    /// N boxes in a cube of side 2.5·N^(1/3) (about one overlap per box).
    fn coherent(n: usize, seed: u64) -> Movers {
        let side = 2.5 * (n as f32).cbrt();
        Self::in_region(n, seed, Vec3::ZERO, Vec3::splat(side))
    }

    fn in_region(n: usize, seed: u64, lo: Vec3, hi: Vec3) -> Movers {
        let mut rng = Rng::new(seed);
        let boxes = Self::random_boxes(&mut rng, n, lo, hi);
        let vel = boxes
            .iter()
            .map(|b| rng.unit_vec3() * 0.01 * b.size().max_element())
            .collect();
        Movers {
            boxes,
            vel,
            lo,
            hi,
            layouts: None,
            frame: 0,
        }
    }

    fn teleport(n: usize, seed: u64) -> Movers {
        let mut m = Self::coherent(n, seed);
        let mut rng = Rng::new(seed ^ 0xABCD);
        let a = Self::random_boxes(&mut rng, n, m.lo, m.hi);
        let b = Self::random_boxes(&mut rng, n, m.lo, m.hi);
        m.layouts = Some([a, b]);
        m
    }

    /// One frame of motion.
    fn step(&mut self) {
        self.frame += 1;
        if let Some(layouts) = &self.layouts {
            self.boxes.copy_from_slice(&layouts[self.frame % 2]);
            return;
        }
        for (b, v) in self.boxes.iter_mut().zip(self.vel.iter_mut()) {
            let c = b.center() + *v;
            let flip = c.cmplt(self.lo) | c.cmpgt(self.hi);
            *v = Vec3::select(flip, -*v, *v);
            b.min += *v;
            b.max += *v;
        }
    }
}

/// 50,000 floor tiles (250 × 200, 1 × 1, tops jittered by ±0.05) under the region
/// where the movers live.
fn floor_tiles() -> Vec<Aabb> {
    let mut rng = Rng::new(99);
    let mut tiles = Vec::with_capacity(50_000);
    for i in 0..250 {
        for k in 0..200 {
            let top = rng.range(-0.05, 0.05);
            let min = Vec3::new(i as f32, -1.0, k as f32);
            tiles.push(Aabb::new(
                min,
                Vec3::new(i as f32 + 1.0, top, k as f32 + 1.0),
            ));
        }
    }
    tiles
}

fn floor_movers() -> Movers {
    Movers::in_region(
        1000,
        7,
        Vec3::new(0.0, -0.2, 0.0),
        Vec3::new(250.0, 6.0, 200.0),
    )
}

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
    fn new(statics: &[Aabb], movers: &Movers) -> Sap {
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

    fn frame(&mut self, movers: &Movers) -> usize {
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
    fn new(statics: &[Aabb], movers: &Movers, parallel: bool) -> Parry {
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

    fn frame(&mut self, movers: &Movers) -> usize {
        if movers.layouts.is_some() {
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

    fn frame(&self, movers: &Movers) -> usize {
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
    fn new(movers: &Movers) -> Brute {
        let mut bf = BruteForce::new();
        let ids = (0..movers.boxes.len() as u32).map(ProxyId).collect();
        for (&id, b) in std::iter::zip(&ids, &movers.boxes) {
            bf.insert(id, *b, ProxyKind::Dynamic).unwrap();
        }
        Brute { bf, ids }
    }

    fn frame(&mut self, movers: &Movers) -> usize {
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

fn moving_group(c: &mut Criterion, label: &str, n: usize, make: fn(usize, u64) -> Movers) {
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
        moving_group(c, "coherent", n, Movers::coherent);
    }
}

fn teleport(c: &mut Criterion) {
    for n in [1_000, 10_000, 100_000] {
        moving_group(c, "teleport", n, Movers::teleport);
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
