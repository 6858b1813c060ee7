//! [`SweepAndPrune`]: the persistent broad phase.

use crate::grid::{AxisStats, Buckets, GridSpec};
use crate::order::{choose_axis, order_bits, repair_or_sort};
use crate::pairs::{PairFrame, pack, sort_pair_keys};
use crate::proxy::ProxyStore;
use crate::static_bvh::StaticBvh;
use crate::sweep::{Soa, big_against_all, sweep};
use crate::{BroadPhaseError, ProxyId, ProxyKind};
use rayon::prelude::*;
use sepax_geometry::Aabb;

/// Below this many dynamic proxies the sweep uses one cell (no grid).
pub const GRID_MIN_PROXIES: usize = 1024;
/// Below this many dynamic proxies everything runs on the calling thread.
pub const PARALLEL_MIN_PROXIES: usize = 4096;
/// A dynamic proxy's cached static candidates are those overlapping its box grown
/// by this fraction of its largest extent on every side.
pub const FAT_MARGIN: f32 = 0.25;
/// Entries (box–cell incidences) per parallel task in the sweep.
const TASK_ENTRIES: usize = 2048;

/// What the last [`SweepAndPrune::update_pairs`] did, for tests and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameStats {
    /// Sweep axis (0 = x, 1 = y, 2 = z).
    pub axis: usize,
    /// True when the order was sorted from scratch instead of repaired.
    pub full_sort: bool,
    /// Grid cells on the two other axes.
    pub grid: (u32, u32),
    /// Dynamic boxes too large for the grid, tested against all.
    pub big: usize,
    /// Dynamic proxies that queried the static BVH (their cache was missed).
    pub static_queries: usize,
    /// True when the static BVH was rebuilt.
    pub static_rebuilt: bool,
}

/// Cached static candidates of one dynamic proxy.
#[derive(Clone, Debug)]
struct DynEntry {
    id: u32,
    /// Statics overlapping `fat` are in `candidates`; valid while the box stays in `fat`.
    fat: Option<Aabb>,
    candidates: Vec<(u32, Aabb)>,
}

/// Incremental sweep-and-prune with grid buckets, plus a BVH over static proxies.
///
/// See the crate docs for the algorithm. Pairs are `(a, b)` with `a < b`, sorted, and
/// identical for any rayon thread count.
///
/// ```
/// use sepax_broadphase::{ProxyKind, SweepAndPrune};
/// use sepax_geometry::Aabb;
/// use glam::Vec3;
///
/// let mut sap = SweepAndPrune::new();
/// let ground = sap.insert(Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0)), ProxyKind::Static).unwrap();
/// let ball = sap.insert(Aabb::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(1.0, 1.5, 1.0)), ProxyKind::Dynamic).unwrap();
/// sap.update_pairs();
/// assert!(sap.pairs().is_empty());
///
/// sap.update(ball, Aabb::new(Vec3::new(0.0, -0.1, 0.0), Vec3::new(1.0, 0.9, 1.0))).unwrap();
/// sap.update_pairs();
/// assert_eq!(sap.pairs(), &[(ground, ball)]);
/// assert_eq!(sap.pairs_added(), &[(ground, ball)]);
///
/// assert!(sap.update(ball, Aabb::new(Vec3::ONE, Vec3::ZERO)).is_err()); // inverted
/// sap.remove(ball).unwrap();
/// assert!(sap.remove(ball).is_err()); // already removed
/// ```
#[derive(Debug, Default)]
pub struct SweepAndPrune {
    store: ProxyStore,
    /// Per slot: index into `dense` for dynamic proxies.
    dense_index: Vec<u32>,
    dense: Vec<DynEntry>,
    /// Per slot: true while the id sits in `keys` (the sorted order).
    in_order: Vec<bool>,
    /// Dynamic ids inserted since the last frame.
    pending: Vec<u32>,
    /// Sort keys of the dynamic proxies, in last frame's order.
    keys: Vec<u64>,
    key_scratch: Vec<u64>,
    axis: usize,
    /// Centre variance per axis measured at the last gather.
    variance: Option<[f64; 3]>,
    sorted: Soa,
    buckets: Buckets,
    statics: Option<StaticBvh>,
    static_dirty: bool,
    pair_keys: Vec<u64>,
    pair_scratch: Vec<u64>,
    frame: PairFrame,
    stats: FrameStats,
}

impl SweepAndPrune {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a proxy and returns its id (a removed id may be reused).
    ///
    /// Errors: `NonFiniteAabb`, `InvertedAabb` (nothing is added), `TooManyProxies`.
    /// Adding a static proxy rebuilds the static BVH at the next `update_pairs`.
    pub fn insert(&mut self, aabb: Aabb, kind: ProxyKind) -> Result<ProxyId, BroadPhaseError> {
        let id = self.store.insert(aabb, kind)?;
        let i = id.0 as usize;
        if self.dense_index.len() <= i {
            self.dense_index.resize(i + 1, u32::MAX);
            self.in_order.resize(i + 1, false);
        }
        match kind {
            ProxyKind::Dynamic => {
                self.dense_index[i] = self.dense.len() as u32;
                self.dense.push(DynEntry {
                    id: id.0,
                    fat: None,
                    candidates: Vec::new(),
                });
                self.pending.push(id.0);
            }
            ProxyKind::Static => self.static_dirty = true,
        }
        Ok(id)
    }

    /// Replaces the box of a proxy. O(1); the order is repaired at `update_pairs`.
    ///
    /// Errors: `UnknownProxy`, `NonFiniteAabb`, `InvertedAabb` (the stored box is
    /// kept). Moving a static proxy rebuilds the static BVH at the next `update_pairs`.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        if self.store.update(id, aabb)? == ProxyKind::Static {
            self.static_dirty = true;
        }
        Ok(())
    }

    /// Removes a proxy; its pairs are gone at the next `update_pairs`.
    ///
    /// Errors: `UnknownProxy` (never inserted, or already removed).
    pub fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        match self.store.remove(id)? {
            ProxyKind::Dynamic => {
                let d = self.dense_index[id.0 as usize] as usize;
                self.dense.swap_remove(d);
                if let Some(moved) = self.dense.get(d) {
                    self.dense_index[moved.id as usize] = d as u32;
                }
                self.dense_index[id.0 as usize] = u32::MAX;
            }
            ProxyKind::Static => self.static_dirty = true,
        }
        Ok(())
    }

    /// The box of a live proxy. Errors: `UnknownProxy`.
    pub fn aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        self.store.get(id).map(|s| s.aabb)
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// True when no proxy is alive.
    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }

    /// The BVH over the static proxies as of the last `update_pairs` (`None` before
    /// the first call or when there are no statics), for region queries and rays.
    pub fn static_bvh(&self) -> Option<&StaticBvh> {
        self.statics.as_ref()
    }

    /// What the last `update_pairs` did.
    pub fn stats(&self) -> FrameStats {
        self.stats
    }

    /// The pairs of the last [`update_pairs`](Self::update_pairs), sorted, `a < b`.
    pub fn pairs(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.pairs
    }

    /// Pairs present now but not at the previous `update_pairs`, sorted.
    pub fn pairs_added(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.added
    }

    /// Pairs present at the previous `update_pairs` but not now, sorted.
    pub fn pairs_removed(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.removed
    }

    /// Finds every overlapping pair with at least one dynamic proxy, and the diffs
    /// against the previous call.
    ///
    /// 1. rebuild the static BVH if statics changed;
    /// 2. bring the sort keys up to date (drop removed, add inserted ids), pick the
    ///    axis, repair the order or sort it from scratch;
    /// 3. gather the boxes in order into SoA arrays, bucket them on the other two
    ///    axes and sweep each bucket (in parallel above [`PARALLEL_MIN_PROXIES`]);
    /// 4. pair each dynamic proxy with its cached static candidates;
    /// 5. radix-sort the pairs and diff them against the last frame.
    pub fn update_pairs(&mut self) {
        self.stats = FrameStats::default();
        self.rebuild_statics();
        let force_full = self.refresh_keys();
        let n = self.keys.len();
        let parallel = n >= PARALLEL_MIN_PROXIES;
        self.stats.full_sort = repair_or_sort(&mut self.keys, &mut self.key_scratch, force_full);
        self.stats.axis = self.axis;
        let (b_stats, c_stats) = self.gather();

        self.pair_keys.clear();
        self.sweep_dynamic(b_stats, c_stats, parallel);
        self.pair_statics(parallel);

        let id_bound = self.store.slots.len() as u32;
        sort_pair_keys(&mut self.pair_keys, &mut self.pair_scratch, id_bound);
        self.frame.publish(&self.pair_keys);
    }

    fn rebuild_statics(&mut self) {
        if !self.static_dirty {
            return;
        }
        self.static_dirty = false;
        self.stats.static_rebuilt = true;
        let items: Vec<(ProxyId, Aabb)> = self
            .store
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive && s.kind == ProxyKind::Static)
            .map(|(i, s)| (ProxyId(i as u32), s.aabb))
            .collect();
        // Every stored box passed `Aabb::validate`, so the build cannot fail.
        self.statics = StaticBvh::build(&items).ok().filter(|t| !t.is_empty());
        for entry in &mut self.dense {
            entry.fat = None;
        }
    }

    /// Drops dead ids from the keys, appends new ones, rewrites every key's high half
    /// from the current boxes on the (possibly new) axis. Returns true if the order
    /// must be sorted from scratch (new axis or no previous order).
    fn refresh_keys(&mut self) -> bool {
        let slots = &self.store.slots;
        let in_order = &mut self.in_order;
        self.keys.retain(|&k| {
            let id = k as u32 as usize;
            let keep = slots[id].alive && slots[id].kind == ProxyKind::Dynamic;
            if !keep {
                in_order[id] = false;
            }
            keep
        });
        let had_order = !self.keys.is_empty();
        for &id in &self.pending {
            let s = &slots[id as usize];
            if s.alive && s.kind == ProxyKind::Dynamic && !in_order[id as usize] {
                in_order[id as usize] = true;
                self.keys.push(id as u64);
            }
        }
        self.pending.clear();
        let variance = match self.variance {
            Some(v) => v,
            None => centre_variance(self.keys.iter().map(|&k| &slots[k as u32 as usize].aabb)),
        };
        let axis = choose_axis(self.axis, variance);
        let new_axis = axis != self.axis;
        self.axis = axis;
        for k in &mut self.keys {
            let id = *k as u32;
            let min = slots[id as usize].aabb.min[axis];
            *k = ((order_bits(min) as u64) << 32) | id as u64;
        }
        new_axis || !had_order
    }

    /// Copies the boxes into `sorted` in key order (axis `a` first), measuring the
    /// centre variance for the next frame's axis choice and the other axes' stats.
    fn gather(&mut self) -> (AxisStats, AxisStats) {
        let (a, b, c) = (self.axis, (self.axis + 1) % 3, (self.axis + 2) % 3);
        let n = self.keys.len();
        let s = &mut self.sorted;
        s.clear();
        s.resize(n);
        let mut sum = [0f64; 3];
        let mut sum2 = [0f64; 3];
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        let mut ext = [0f64; 3];
        for (p, &k) in self.keys.iter().enumerate() {
            let id = k as u32;
            let aabb = &self.store.slots[id as usize].aabb;
            s.min_a[p] = aabb.min[a];
            s.max_a[p] = aabb.max[a];
            s.min_b[p] = aabb.min[b];
            s.max_b[p] = aabb.max[b];
            s.min_c[p] = aabb.min[c];
            s.max_c[p] = aabb.max[c];
            s.id[p] = id;
            for ax in 0..3 {
                let centre = 0.5 * (aabb.min[ax] as f64 + aabb.max[ax] as f64);
                sum[ax] += centre;
                sum2[ax] += centre * centre;
                lo[ax] = lo[ax].min(aabb.min[ax]);
                hi[ax] = hi[ax].max(aabb.max[ax]);
                ext[ax] += aabb.max[ax] as f64 - aabb.min[ax] as f64;
            }
        }
        let inv_n = 1.0 / n.max(1) as f64;
        let variance: [f64; 3] =
            std::array::from_fn(|ax| (sum2[ax] * inv_n - (sum[ax] * inv_n).powi(2)).max(0.0));
        self.variance = (n > 0).then_some(variance);
        let stats = |ax: usize| AxisStats {
            lo: lo[ax],
            hi: hi[ax],
            mean_extent: (ext[ax] * inv_n) as f32,
        };
        (stats(b), stats(c))
    }

    /// Dynamic–dynamic pairs: bucket, then sweep every bucket.
    fn sweep_dynamic(&mut self, b: AxisStats, c: AxisStats, parallel: bool) {
        let n = self.sorted.len();
        if n < 2 {
            return;
        }
        let spec = if n >= GRID_MIN_PROXIES {
            GridSpec::fit(n, b, c)
        } else {
            GridSpec::single()
        };
        self.stats.grid = spec.dims;
        if spec.dims == (1, 1) {
            // One cell: sweep the sorted arrays in place (cells all 0).
            self.sorted.cell_b.fill(0);
            self.sorted.cell_c.fill(0);
            let view = self.sorted.view(0..n);
            let tasks = split_evenly(n, if parallel { TASK_ENTRIES } else { n });
            let out = run_tasks(&tasks, parallel, |r| {
                let mut out = Vec::new();
                sweep(&view, r.clone(), (0, 0), &mut out);
                out
            });
            self.pair_keys.extend(out.into_iter().flatten());
            return;
        }
        self.buckets.fill(&spec, &mut self.sorted);
        self.stats.big = self.buckets.big.len();
        let gb = spec.dims.0;
        let offsets = &self.buckets.offsets;
        let cells = &self.buckets.cells;
        // Group consecutive cells into tasks of about TASK_ENTRIES entries.
        let mut tasks = Vec::new();
        let mut start = 0usize;
        for k in 0..offsets.len() - 1 {
            if (offsets[k + 1] - offsets[start]) as usize >= TASK_ENTRIES {
                tasks.push(start..k + 1);
                start = k + 1;
            }
        }
        if start < offsets.len() - 1 {
            tasks.push(start..offsets.len() - 1);
        }
        let out = run_tasks(&tasks, parallel, |r| {
            let mut out = Vec::new();
            for k in r.clone() {
                let seg = offsets[k] as usize..offsets[k + 1] as usize;
                if seg.len() < 2 {
                    continue;
                }
                let view = cells.view(seg.clone());
                let cell = (k as u32 % gb, k as u32 / gb);
                sweep(&view, 0..seg.len(), cell, &mut out);
            }
            out
        });
        self.pair_keys.extend(out.into_iter().flatten());
        let all = self.sorted.view(0..n);
        let is_big = &self.buckets.is_big;
        let big_tasks: Vec<_> = self
            .buckets
            .big
            .iter()
            .map(|&p| p as usize..p as usize + 1)
            .collect();
        let out = run_tasks(&big_tasks, parallel, |r| {
            let mut out = Vec::new();
            big_against_all(&all, is_big, r.start, &mut out);
            out
        });
        self.pair_keys.extend(out.into_iter().flatten());
    }

    /// Dynamic–static pairs through each dynamic proxy's cached candidates.
    ///
    /// Invariant: `candidates` = statics overlapping `fat`, and the current box lies
    /// in `fat`, so every static overlapping the box is a candidate. When the box
    /// leaves `fat` (or statics changed), `fat` is regrown around the box by
    /// [`FAT_MARGIN`] of its largest extent and the BVH is queried again.
    fn pair_statics(&mut self, parallel: bool) {
        let Some(bvh) = self.statics.as_ref() else {
            return;
        };
        let slots = &self.store.slots;
        let work = |entries: &mut [DynEntry]| -> (Vec<u64>, usize) {
            let mut out = Vec::new();
            let mut queries = 0;
            let mut found = Vec::new();
            for e in entries {
                let aabb = slots[e.id as usize].aabb;
                if !e.fat.is_some_and(|f| f.contains(&aabb)) {
                    let fat = aabb.expanded(FAT_MARGIN * aabb.size().max_element());
                    found.clear();
                    bvh.query_unchecked(&fat, &mut found);
                    found.sort_unstable();
                    e.candidates.clear();
                    e.candidates
                        .extend(found.iter().map(|s| (s.0, slots[s.0 as usize].aabb)));
                    e.fat = Some(fat);
                    queries += 1;
                }
                for &(s, ref sbox) in &e.candidates {
                    if sbox.overlaps(&aabb) {
                        out.push(pack(e.id, s));
                    }
                }
            }
            (out, queries)
        };
        let results: Vec<(Vec<u64>, usize)> = if parallel {
            self.dense
                .par_chunks_mut(TASK_ENTRIES / 4)
                .map(work)
                .collect()
        } else {
            vec![work(&mut self.dense)]
        };
        for (out, q) in results {
            self.pair_keys.extend(out);
            self.stats.static_queries += q;
        }
    }
}

/// Consecutive ranges of about `chunk` items covering `0..n`.
fn split_evenly(n: usize, chunk: usize) -> Vec<std::ops::Range<usize>> {
    let chunk = chunk.max(1);
    (0..n.div_ceil(chunk))
        .map(|i| i * chunk..((i + 1) * chunk).min(n))
        .collect()
}

/// Runs `f` on every task, in parallel or not; results in task order either way.
fn run_tasks<T: Send>(
    tasks: &[std::ops::Range<usize>],
    parallel: bool,
    f: impl Fn(&std::ops::Range<usize>) -> T + Sync + Send,
) -> Vec<T> {
    if parallel {
        tasks.par_iter().map(f).collect()
    } else {
        tasks.iter().map(f).collect()
    }
}

/// Variance of the box centres on each axis (f64 sums).
fn centre_variance<'a>(boxes: impl Iterator<Item = &'a Aabb>) -> [f64; 3] {
    let (mut n, mut sum, mut sum2) = (0f64, [0f64; 3], [0f64; 3]);
    for aabb in boxes {
        n += 1.0;
        for ax in 0..3 {
            let c = 0.5 * (aabb.min[ax] as f64 + aabb.max[ax] as f64);
            sum[ax] += c;
            sum2[ax] += c * c;
        }
    }
    let n = n.max(1.0);
    std::array::from_fn(|ax| (sum2[ax] / n - (sum[ax] / n).powi(2)).max(0.0))
}
