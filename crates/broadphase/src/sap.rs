//! [`SweepAndPrune`]: the persistent broad phase.

use crate::budget::{self, Budget, PairLimit, Sink};
use crate::fat::fat_box;
use crate::grid::{AxisStats, Buckets, GridSpec};
use crate::order::{choose_axis, order_bits, repair_or_sort};
use crate::pairs::{PairFrame, pack};
use crate::proxy::ProxyStore;
use crate::radix::sort_pair_keys;
use crate::static_bvh::StaticBvh;
use crate::sweep::{Entry, big_against_all, pack_bc, probe, sweep, sweep_cell};
use crate::{BroadPhaseError, ProxyId, ProxyKind};
use rayon::prelude::*;
use sepax_geometry::Aabb;
use smallvec::SmallVec;

/// Below this many dynamic proxies the sweep uses one cell (no grid).
pub const GRID_MIN_PROXIES: usize = 256;
/// The grid is used only when a single sorted list would give each box more than
/// this many candidates on average.
pub const GRID_MIN_CANDIDATES: f32 = 16.0;
/// Below this many dynamic proxies everything runs on the calling thread.
pub const PARALLEL_MIN_PROXIES: usize = 16_384;
/// A dynamic proxy's cached static candidates are those overlapping its box grown
/// by this fraction of its largest extent on every side.
pub const FAT_MARGIN: f32 = 0.5;
/// Dynamic–dynamic candidates are the pairs whose boxes grown by this fraction of
/// their largest extent overlap.
pub const DYNAMIC_FAT_MARGIN: f32 = 0.25;
/// Up to `MAX_PATCHED_ESCAPES + n / 256` dynamic proxies leaving their fat box in
/// one frame are patched into the candidate list one by one (and up to
/// `4 · MAX_PATCHED_ESCAPES + n / 64` since the last full sweep); more trigger a
/// full sweep.
pub const MAX_PATCHED_ESCAPES: usize = 16;
/// The pair budget of a new broad phase: 4,194,304 candidate pairs (32 MiB per pair
/// list). See [`SweepAndPrune::set_pair_budget`].
pub const DEFAULT_PAIR_BUDGET: usize = 1 << 22;
/// Boxes larger than this many times the median box are left out of the grid's
/// estimates (they are tested as big boxes).
const OUTLIER_SIZE: f32 = 64.0;
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
    /// True when the dynamic candidates were rebuilt by a full sweep this frame
    /// (otherwise the order, axis and grid fields above are those of the last sweep
    /// and were not recomputed).
    pub full_sweep: bool,
    /// Dynamic proxies that left their fat box this frame.
    pub escaped: usize,
    /// True when this frame found more candidate pairs than the pair budget allows,
    /// so [`SweepAndPrune::pairs`] holds only the first ones (see
    /// [`SweepAndPrune::set_pair_budget`]).
    pub pair_budget_exceeded: bool,
}

/// Cached static candidates of one dynamic proxy.
#[derive(Clone, Debug)]
struct DynEntry {
    id: u32,
    /// Statics overlapping `fat` are in `candidates`; valid while the box stays in `fat`.
    fat: Option<Aabb>,
    candidates: SmallVec<[(u32, Aabb); 8]>,
}

/// Incremental sweep-and-prune with grid buckets, plus a BVH over static proxies.
///
/// See the crate docs for the algorithm. Pairs are `(a, b)` with `a < b`, sorted, and
/// identical for any rayon thread count.
///
/// ```
/// use sepax_broadphase::{ProxyId, ProxyKind, SweepAndPrune};
/// use sepax_geometry::Aabb;
/// use glam::Vec3;
///
/// let mut sap = SweepAndPrune::new();
/// // The ids are the caller's: here the indices of its bodies.
/// let (ground, ball) = (ProxyId(0), ProxyId(1));
/// sap.insert(ground, Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0)), ProxyKind::Static).unwrap();
/// sap.insert(ball, Aabb::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(1.0, 1.5, 1.0)), ProxyKind::Dynamic).unwrap();
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
    /// Per slot: true while the id sits in `order`.
    in_order: Vec<bool>,
    /// Dynamic ids inserted since the last frame.
    pending: Vec<u32>,
    /// True when a dynamic proxy was removed since the last frame.
    removed_dynamic: bool,
    /// Dynamic ids in last frame's sorted order.
    order: Vec<u32>,
    order_scratch: Vec<u32>,
    /// This frame's boxes, in last frame's order.
    frame_boxes: Vec<Aabb>,
    /// Sort keys: `order_bits(min_a) << 32 | position in order`.
    keys: Vec<u64>,
    key_scratch: Vec<u64>,
    axis: usize,
    /// Centre variance per axis measured at the last gather.
    variance: Option<[f64; 3]>,
    /// The dynamic boxes sorted on the sweep axis, then a sentinel.
    sorted: Vec<Entry>,
    buckets: Buckets,
    statics: Option<StaticBvh>,
    static_dirty: bool,
    /// Fat boxes of the dynamic proxies, parallel to `dense`.
    dyn_fat: Vec<Aabb>,
    /// Ids of the dynamic proxies, parallel to `dense` (a compact copy of
    /// `dense[i].id` for the passes that only need the id).
    dyn_ids: Vec<u32>,
    /// Dynamic pairs whose fat boxes overlap, sorted keys.
    candidates: Vec<u64>,
    /// False when `candidates` no longer matches the dynamic proxies.
    candidates_valid: bool,
    /// Dense indices of the proxies that left their fat box this frame.
    escaped: Vec<u32>,
    /// Per slot: the proxy got a new fat box since the last full sweep, so its entry
    /// in `sorted` is stale.
    stale: Vec<bool>,
    /// Ids with `stale` set.
    stale_ids: Vec<u32>,
    /// Largest fat extent on the sweep axis at the last full sweep.
    max_extent_a: f32,
    pair_keys: Vec<u64>,
    pair_scratch: Vec<u64>,
    frame: PairFrame,
    stats: FrameStats,
    /// Most candidate pairs a frame keeps.
    pair_limit: PairLimit,
}

impl SweepAndPrune {
    /// An empty broad phase with the [`DEFAULT_PAIR_BUDGET`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the most candidate pairs one [`update_pairs`](Self::update_pairs) may
    /// collect, which bounds the memory of every pair list of the broad phase (8 bytes
    /// per pair and list: the candidates, the pairs, their sort scratch, last frame's
    /// pairs and the diffs).
    ///
    /// Counted against it: the dynamic–dynamic candidates (fat boxes overlapping), and
    /// then, against what is left, the cached static candidates of each dynamic proxy
    /// (statics overlapping its static fat box). When a frame would find more, it keeps
    /// the first ones in the sweep's order (the same for any thread count, see the
    /// crate's `budget` module), sets [`FrameStats::pair_budget_exceeded`], and runs a
    /// full sweep again at the next frame. The time spent is then about that of finding
    /// the budget's worth of pairs (boxes all at one point stop early).
    ///
    /// Extreme values: 0 keeps no pair; `usize::MAX` means no limit. The brute-force
    /// oracle [`BruteForce`](crate::BruteForce) has no budget.
    ///
    /// ```
    /// use sepax_broadphase::{ProxyId, ProxyKind, SweepAndPrune};
    /// use sepax_geometry::Aabb;
    /// use glam::Vec3;
    ///
    /// let mut sap = SweepAndPrune::new();
    /// sap.set_pair_budget(10);
    /// for i in 0..100 {
    ///     sap.insert(ProxyId(i), Aabb::new(Vec3::ZERO, Vec3::ONE), ProxyKind::Dynamic).unwrap();
    /// }
    /// sap.update_pairs(); // 4,950 overlapping pairs
    /// assert!(sap.stats().pair_budget_exceeded);
    /// assert_eq!(sap.pairs().len(), 10);
    /// ```
    pub fn set_pair_budget(&mut self, pairs: usize) {
        if pairs != self.pair_limit.0 {
            // The cached candidates were collected under the old budget.
            self.candidates_valid = false;
        }
        self.pair_limit = PairLimit(pairs);
    }

    /// The most candidate pairs a frame keeps (see [`set_pair_budget`](Self::set_pair_budget)).
    pub fn pair_budget(&self) -> usize {
        self.pair_limit.0
    }

    /// Adds a proxy under the caller's id (see [`ProxyId`]: ids index arrays, so keep
    /// them small and dense; a removed id may be inserted again).
    ///
    /// Errors: `NonFiniteAabb`, `InvertedAabb`, `ProxyExists` (nothing is added),
    /// `TooManyProxies` (the id `u32::MAX`). Adding a static proxy rebuilds the static
    /// BVH at the next `update_pairs`.
    pub fn insert(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        kind: ProxyKind,
    ) -> Result<(), BroadPhaseError> {
        self.store.insert(id, aabb, kind)?;
        let bound = self.store.id_bound() as usize;
        if self.dense_index.len() < bound {
            self.dense_index.resize(bound, u32::MAX);
            self.in_order.resize(bound, false);
            self.stale.resize(bound, false);
        }
        let i = id.0 as usize;
        match kind {
            ProxyKind::Dynamic | ProxyKind::Kinematic => {
                self.dense_index[i] = self.dense.len() as u32;
                self.dense.push(DynEntry {
                    id: id.0,
                    fat: None,
                    candidates: SmallVec::new(),
                });
                self.dyn_fat.push(dynamic_fat(&aabb));
                self.dyn_ids.push(id.0);
                self.candidates_valid = false;
                self.pending.push(id.0);
            }
            ProxyKind::Static => self.static_dirty = true,
        }
        Ok(())
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
            ProxyKind::Dynamic | ProxyKind::Kinematic => {
                let d = self.dense_index[id.0 as usize] as usize;
                self.dense.swap_remove(d);
                self.dyn_fat.swap_remove(d);
                self.dyn_ids.swap_remove(d);
                self.candidates_valid = false;
                if let Some(moved) = self.dense.get(d) {
                    self.dense_index[moved.id as usize] = d as u32;
                }
                self.dense_index[id.0 as usize] = u32::MAX;
                self.removed_dynamic = true;
            }
            ProxyKind::Static => self.static_dirty = true,
        }
        Ok(())
    }

    /// The box of a live proxy. Errors: `UnknownProxy`.
    pub fn aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        self.store.get(id).map(|s| s.aabb)
    }

    /// True when a proxy lives under `id`.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.store.get(id).is_ok()
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

    /// The pairs of the last [`update_pairs`](Self::update_pairs) in the callers' ids,
    /// sorted, `a < b`.
    pub fn pairs(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.pairs
    }

    /// Pairs present now but not at the previous `update_pairs`, sorted: a
    /// subsequence of [`pairs`](Self::pairs).
    pub fn pairs_added(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.added
    }

    /// Pairs present at the previous `update_pairs` but not now, sorted: a
    /// subsequence of the previous frame's pairs. A caller keeping state per pair in
    /// pair order walks it in step with `pairs_added` and `pairs_removed` (no search,
    /// no second diff).
    pub fn pairs_removed(&self) -> &[(ProxyId, ProxyId)] {
        &self.frame.removed
    }

    /// Finds every overlapping pair that [`ProxyKind::pairs_with`] allows, and the
    /// diffs against the previous call.
    ///
    /// 1. rebuild the static BVH if statics changed;
    /// 2. find the dynamic proxies that left their fat box; if proxies were added or
    ///    removed, or too many left, run the full sweep: bring the sort keys up to
    ///    date, pick the axis, repair the order (or sort from scratch), gather the fat
    ///    boxes into 32-byte entries, bucket them on the other two axes and sweep each
    ///    bucket, giving the candidate pairs; otherwise patch the few that left;
    /// 3. keep the candidates whose real boxes overlap;
    /// 4. pair each dynamic proxy with its cached static candidates;
    /// 5. sort the pairs and diff them against the last frame.
    ///
    /// Steps 2 and 4 stop at the pair budget (see
    /// [`set_pair_budget`](Self::set_pair_budget)); a patch that would pass it turns
    /// into a full sweep. Steps run on the rayon pool from [`PARALLEL_MIN_PROXIES`]
    /// dynamic proxies on. Never fails and never panics: every stored box was
    /// validated on the way in, and fat boxes are kept finite.
    pub fn update_pairs(&mut self) {
        self.stats = FrameStats::default();
        self.rebuild_statics();
        let parallel = self.dense.len() >= PARALLEL_MIN_PROXIES;
        let n = self.dense.len();
        let limit = self.pair_limit.0;
        let full = !self.candidates_valid || {
            self.find_escaped();
            self.escaped.len() > MAX_PATCHED_ESCAPES + n / 256
                || self.stale_ids.len() + self.escaped.len() > 4 * MAX_PATCHED_ESCAPES + n / 64
        };
        let mut exceeded = false;
        if full || (!self.escaped.is_empty() && !self.patch_candidates(limit)) {
            exceeded = self.full_sweep(limit);
        }
        // Exact test of the candidates: every overlapping dynamic pair is one, since
        // each box lies inside its fat box.
        let slots = &self.store.slots;
        // Kinematic proxies sweep with the dynamic ones; the kind rule drops their
        // pairs with each other here.
        let exact = |&k: &u64| {
            let (a, b) = (&slots[(k >> 32) as usize], &slots[k as u32 as usize]);
            a.aabb.overlaps(&b.aabb) && a.kind.pairs_with(b.kind)
        };
        self.pair_keys.clear();
        if parallel {
            let kept: Vec<u64> = self.candidates.par_iter().copied().filter(exact).collect();
            self.pair_keys.extend(kept);
        } else {
            self.pair_keys
                .extend(self.candidates.iter().copied().filter(exact));
        }
        let room = limit.saturating_sub(self.pair_keys.len());
        exceeded |= self.pair_statics(parallel, room);
        self.stats.pair_budget_exceeded = exceeded;

        let id_bound = self.store.id_bound();
        sort_pair_keys(&mut self.pair_keys, &mut self.pair_scratch, id_bound);
        self.frame.publish(&self.pair_keys);
    }

    /// Sort-and-sweep of every dynamic fat box into `candidates`, at most `limit` of
    /// them. Returns true when the budget was exceeded: `candidates` then misses pairs,
    /// so it is marked invalid and the next frame sweeps again.
    fn full_sweep(&mut self, limit: usize) -> bool {
        self.stats.full_sweep = true;
        self.stats.escaped = self.escaped.len();
        let force_full = self.refresh_keys();
        let n = self.keys.len();
        let parallel = n >= PARALLEL_MIN_PROXIES;
        self.stats.full_sort = repair_or_sort(&mut self.keys, &mut self.key_scratch, force_full);
        self.stats.axis = self.axis;
        let (b_stats, c_stats) = self.gather();
        self.candidates = Vec::new(); // freed before the sweep fills the new list
        let (mut candidates, exceeded) = self.sweep_dynamic(b_stats, c_stats, parallel, limit);
        let id_bound = self.store.id_bound();
        sort_pair_keys(&mut candidates, &mut self.pair_scratch, id_bound);
        self.candidates = candidates;
        let slots = &self.store.slots;
        for (fat, &id) in self.dyn_fat.iter_mut().zip(&self.dyn_ids) {
            *fat = dynamic_fat(&slots[id as usize].aabb);
        }
        self.max_extent_a = self.sorted[..n]
            .iter()
            .map(|e| e.max_a - e.min_a)
            .fold(0.0, f32::max);
        for &id in &self.stale_ids {
            self.stale[id as usize] = false;
        }
        self.stale_ids.clear();
        self.candidates_valid = !exceeded;
        exceeded
    }

    /// Dense indices of the dynamic proxies whose box left its fat box.
    fn find_escaped(&mut self) {
        self.escaped.clear();
        let slots = &self.store.slots;
        for (d, (fat, &id)) in self.dyn_fat.iter().zip(&self.dyn_ids).enumerate() {
            if !fat.contains(&slots[id as usize].aabb) {
                self.escaped.push(d as u32);
            }
        }
    }

    /// Few proxies escaped: regrow their fat boxes, drop their candidate pairs and
    /// find the fat boxes overlapping each new one:
    ///
    /// * among the boxes of the last full sweep (`sorted`, by `min_a`): those with
    ///   `min_a` in `[F.min_a − max extent, F.max_a]`, found by binary search, tested
    ///   with the 4-wide compare; entries of proxies re-fattened since (stale) skipped;
    /// * among the re-fattened ones (`stale_ids`, few): every one, directly.
    ///
    /// A pair of two proxies escaping in the same frame is added once, from the
    /// smaller id. Returns false, leaving the candidates for a full sweep to rebuild,
    /// when the candidates would pass `limit`.
    fn patch_candidates(&mut self, limit: usize) -> bool {
        self.stats.escaped = self.escaped.len();
        let slots = &self.store.slots;
        let mut ids: Vec<u32> = self
            .escaped
            .iter()
            .map(|&d| self.dyn_ids[d as usize])
            .collect();
        ids.sort_unstable();
        for &d in &self.escaped {
            let id = self.dyn_ids[d as usize];
            self.dyn_fat[d as usize] = dynamic_fat(&slots[id as usize].aabb);
            if !self.stale[id as usize] {
                self.stale[id as usize] = true;
                self.stale_ids.push(id);
            }
        }
        let touches = |k: u64| {
            ids.binary_search(&((k >> 32) as u32)).is_ok() || ids.binary_search(&(k as u32)).is_ok()
        };
        self.candidates.retain(|&k| !touches(k));
        let room = limit.saturating_sub(self.candidates.len());
        let (a, b, c) = (self.axis, (self.axis + 1) % 3, (self.axis + 2) % 3);
        let entries = &self.sorted[..self.sorted.len() - 1];
        let mut fresh = Vec::new();
        for &id in &ids {
            let keep =
                |other: u32| other != id && (other > id || ids.binary_search(&other).is_err());
            let fat = self.dyn_fat[self.dense_index[id as usize] as usize];
            let pr = probe(pack_bc(fat.min[b], fat.max[b], fat.min[c], fat.max[c]));
            // Any box reaching fat.min_a starts at most max_extent_a before it; the
            // slack covers the rounding of the extents (it only widens the scan).
            let slack = (fat.min[a].abs() + self.max_extent_a) * 1e-6;
            let lo = fat.min[a] - self.max_extent_a - slack;
            let start = entries.partition_point(|e| e.min_a < lo);
            let end = entries.partition_point(|e| e.min_a <= fat.max[a]);
            for e in &entries[start.min(end)..end] {
                if e.max_a >= fat.min[a]
                    && e.bc.cmple(pr).all()
                    && !self.stale[e.id as usize]
                    && keep(e.id)
                {
                    fresh.push(pack(id, e.id));
                    if fresh.len() > room {
                        return false;
                    }
                }
            }
            for &other in &self.stale_ids {
                let other_fat = &self.dyn_fat[self.dense_index[other as usize] as usize];
                if keep(other) && fat.overlaps(other_fat) {
                    fresh.push(pack(id, other));
                    if fresh.len() > room {
                        return false;
                    }
                }
            }
        }
        fresh.sort_unstable();
        let old = std::mem::take(&mut self.candidates);
        self.candidates = merge_sorted(&old, &fresh);
        true
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

    /// Drops dead ids from the order, appends new ones, picks the axis, and reads
    /// every dynamic box once (in last frame's order), grown into its fat box, into
    /// `frame_boxes` and `keys`.
    /// Returns true if the order must be sorted from scratch (new axis or no previous
    /// order).
    fn refresh_keys(&mut self) -> bool {
        let slots = &self.store.slots;
        let in_order = &mut self.in_order;
        if self.removed_dynamic {
            self.removed_dynamic = false;
            self.order.retain(|&id| {
                let s = &slots[id as usize];
                let keep = s.alive && s.kind.moves();
                if !keep {
                    in_order[id as usize] = false;
                }
                keep
            });
        }
        let had_order = !self.order.is_empty();
        for &id in &self.pending {
            let s = &slots[id as usize];
            if s.alive && s.kind.moves() && !in_order[id as usize] {
                in_order[id as usize] = true;
                self.order.push(id);
            }
        }
        self.pending.clear();
        let variance = match self.variance {
            Some(v) => v,
            None => centre_variance(self.order.iter().map(|&id| &slots[id as usize].aabb)),
        };
        let axis = choose_axis(self.axis, variance);
        let new_axis = axis != self.axis;
        self.axis = axis;
        // The one pass in id-random order: everything later reads frame_boxes.
        let read = |(i, &id): (usize, &u32)| {
            let aabb = dynamic_fat(&slots[id as usize].aabb);
            (aabb, ((order_bits(aabb.min[axis]) as u64) << 32) | i as u64)
        };
        let parallel = self.order.len() >= PARALLEL_MIN_PROXIES;
        if parallel {
            let (boxes, keys): (Vec<Aabb>, Vec<u64>) =
                self.order.par_iter().enumerate().map(read).unzip();
            self.frame_boxes = boxes;
            self.keys = keys;
        } else {
            self.frame_boxes.clear();
            self.keys.clear();
            for (aabb, key) in self.order.iter().enumerate().map(read) {
                self.frame_boxes.push(aabb);
                self.keys.push(key);
            }
        }
        new_axis || !had_order
    }

    /// Builds `sorted` (and the new `order`) in key order, axis `a` first, measuring
    /// the centre variance for the next frame's axis choice and the other axes' stats.
    fn gather(&mut self) -> (AxisStats, AxisStats) {
        let (a, b, c) = (self.axis, (self.axis + 1) % 3, (self.axis + 2) % 3);
        let n = self.keys.len();
        let (boxes, order) = (&self.frame_boxes, &self.order);
        let entry = |&k: &u64| {
            let i = k as u32 as usize;
            let aabb = &boxes[i];
            Entry {
                bc: pack_bc(aabb.min[b], aabb.max[b], aabb.min[c], aabb.max[c]),
                min_a: aabb.min[a],
                max_a: aabb.max[a],
                cell: [0, 0],
                id: order[i],
            }
        };
        let parallel = n >= PARALLEL_MIN_PROXIES;
        if parallel {
            self.keys
                .par_iter()
                .map(entry)
                .collect_into_vec(&mut self.sorted);
        } else {
            self.sorted.clear();
            self.sorted.extend(self.keys.iter().map(entry));
        }
        self.order_scratch.clear();
        self.order_scratch.extend(self.sorted.iter().map(|e| e.id));
        self.sorted.push(Entry::SENTINEL);
        std::mem::swap(&mut self.order, &mut self.order_scratch);

        // The axis choice and the grid size only need estimates: sample at most
        // about 1,024 boxes at a fixed stride (deterministic, and exact bounds are not
        // needed because cell indices are clamped). Boxes more than `OUTLIER_SIZE`
        // times the median sampled size are left out: they are "big" boxes for the
        // grid anyway, and one box as wide as f32::MAX would otherwise stretch the
        // grid over ±f32::MAX and leave every other box in one cell (issue 9).
        let stride = (n / 1024).max(1);
        let cap = outlier_cap(&self.frame_boxes, stride);
        let mut m = Moments::default();
        let mut samples = 0usize;
        for aabb in self.frame_boxes.iter().step_by(stride) {
            if aabb.size().max_element() <= cap {
                m.add(aabb);
                samples += 1;
            }
        }
        let inv_n = 1.0 / samples.max(1) as f64;
        let variance: [f64; 3] =
            std::array::from_fn(|ax| (m.sum2[ax] * inv_n - (m.sum[ax] * inv_n).powi(2)).max(0.0));
        self.variance = (n > 0).then_some(variance);
        let stats = |ax: usize| AxisStats {
            lo: m.lo[ax],
            hi: m.hi[ax],
            mean_extent: (m.ext[ax] * inv_n) as f32,
        };
        (stats(b), stats(c))
    }

    /// Expected candidates per box of a single sorted list: a box meets the boxes
    /// whose `min_a` lies within its own extent, about `density · extent`. Both are
    /// taken so that a few huge or far boxes do not skew them (issue 9): the density
    /// of `min_a` between the sorted positions `n/64` and `n − 1 − n/64`, and the
    /// median extent of about 64 boxes at a fixed stride.
    fn sweep_candidates(&self, n: usize) -> f32 {
        let (lo, hi) = (n / 64, n - 1 - n / 64);
        let range = self.sorted[hi].min_a - self.sorted[lo].min_a;
        let step = (n / 64).max(1);
        let mut ext: Vec<f32> = self.sorted[..n]
            .iter()
            .step_by(step)
            .map(|e| e.max_a - e.min_a)
            .collect();
        let mid = ext.len() / 2;
        let (_, median, _) = ext.select_nth_unstable_by(mid, f32::total_cmp);
        if range > 0.0 {
            (hi - lo) as f32 * *median / range
        } else {
            n as f32
        }
    }

    /// Dynamic–dynamic pairs of the gathered boxes: bucket, then sweep every bucket;
    /// at most `limit` of them, and true when there were more (see [`budget`]).
    fn sweep_dynamic(
        &mut self,
        b: AxisStats,
        c: AxisStats,
        parallel: bool,
        limit: usize,
    ) -> (Vec<u64>, bool) {
        let n = self.keys.len();
        if n < 2 {
            return (Vec::new(), false);
        }
        let spec = if n >= GRID_MIN_PROXIES && self.sweep_candidates(n) > GRID_MIN_CANDIDATES {
            GridSpec::fit(n, b, c)
        } else {
            GridSpec::single()
        };
        self.stats.grid = spec.dims;
        if spec.dims == (1, 1) {
            // One cell: sweep the sorted arrays in place, no reporting rule.
            let view = &self.sorted[..];
            let tasks = split_evenly(n, if parallel { TASK_ENTRIES } else { n });
            return budget::collect(&tasks, parallel, limit, |r, sink| {
                sweep(view, r.clone(), sink);
            });
        }
        self.buckets.fill(&spec, &mut self.sorted);
        self.stats.big = self.buckets.big.len();
        let gb = spec.dims.0;
        let offsets = &self.buckets.offsets;
        let cells = &self.buckets.cells;
        let all = &self.sorted[..];
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
        let (mut pairs, exceeded) = budget::collect(&tasks, parallel, limit, |r, sink| {
            for k in r.clone() {
                let seg = offsets[k] as usize..offsets[k + 1] as usize;
                // Each run ends with its sentinel: fewer than 2 boxes, no pair.
                if seg.len() < 3 {
                    continue;
                }
                let cell = [(k as u32 % gb) as u16, (k as u32 / gb) as u16];
                if !sweep_cell(all, &cells[seg], cell, sink) {
                    return;
                }
            }
        });
        if exceeded {
            return (pairs, true);
        }
        let is_big = &self.buckets.is_big;
        let big = &self.buckets.big;
        let (big_pairs, exceeded) =
            budget::collect(big, parallel, limit - pairs.len(), |&p, sink| {
                big_against_all(all, is_big, p as usize, sink);
            });
        pairs.extend(big_pairs);
        (pairs, exceeded)
    }

    /// Dynamic–static pairs through each dynamic proxy's cached candidates; true when
    /// the cached candidates would pass `limit` (see [`budget`]).
    ///
    /// Invariant: `candidates` = statics overlapping `fat`, and the current box lies
    /// in `fat`, so every static overlapping the box is a candidate. When the box
    /// leaves `fat` (or statics changed), `fat` is regrown around the box by
    /// [`FAT_MARGIN`] of its largest extent and the BVH is queried again.
    ///
    /// Budget: each proxy's cached candidates are counted, in dense order. The proxy
    /// at which the count passes `limit` and every later one lose their cache (freed,
    /// so it is queried again next frame) and give no pair this frame.
    fn pair_statics(&mut self, parallel: bool, limit: usize) -> bool {
        let Some(bvh) = self.statics.as_ref() else {
            return false;
        };
        let slots = &self.store.slots;
        let work = |entries: &mut [DynEntry], budget: &Budget| -> (Vec<u64>, usize) {
            let mut meter = Sink::new(budget);
            let mut out = Vec::new();
            let mut queries = 0;
            let mut found = Vec::new();
            let mut stack = Vec::new();
            for i in 0..entries.len() {
                let e = &mut entries[i];
                let slot = &slots[e.id as usize];
                if slot.kind == ProxyKind::Kinematic {
                    continue; // never paired with statics
                }
                let aabb = slot.aabb;
                if !meter.over() && !e.fat.is_some_and(|f| f.contains(&aabb)) {
                    let fat = fat_box(&aabb, FAT_MARGIN);
                    found.clear();
                    bvh.query_unchecked(&fat, &mut found, &mut stack, meter.room());
                    found.sort_unstable();
                    e.candidates.clear();
                    e.candidates
                        .extend(found.iter().map(|s| (s.0, slots[s.0 as usize].aabb)));
                    e.fat = Some(fat);
                    queries += 1;
                }
                if meter.over() || !meter.charge(e.candidates.len()) {
                    for e in &mut entries[i..] {
                        e.fat = None;
                        e.candidates = SmallVec::new();
                    }
                    break;
                }
                for &(s, ref sbox) in &e.candidates {
                    if sbox.overlaps(&aabb) {
                        out.push(pack(e.id, s));
                    }
                }
            }
            meter.finish();
            (out, queries)
        };
        let budget = Budget::new(limit);
        let mut results: Vec<(Vec<u64>, usize)> = if parallel {
            self.dense
                .par_chunks_mut(TASK_ENTRIES / 4)
                .map(|chunk| work(chunk, &budget))
                .collect()
        } else {
            vec![work(&mut self.dense, &budget)]
        };
        let mut exceeded = budget.exceeded();
        if exceeded && parallel {
            // Where each chunk stopped depended on timing: redo it in order.
            let budget = Budget::new(limit);
            results = vec![work(&mut self.dense, &budget)];
            exceeded = budget.exceeded();
        }
        for (out, q) in results {
            self.pair_keys.extend(out);
            self.stats.static_queries += q;
        }
        exceeded
    }
}

/// Sums of centres, squared centres and extents, and bounds, per axis.
#[derive(Clone, Copy)]
struct Moments {
    sum: [f64; 3],
    sum2: [f64; 3],
    ext: [f64; 3],
    lo: [f32; 3],
    hi: [f32; 3],
}

impl Default for Moments {
    fn default() -> Self {
        Moments {
            sum: [0.0; 3],
            sum2: [0.0; 3],
            ext: [0.0; 3],
            lo: [f32::INFINITY; 3],
            hi: [f32::NEG_INFINITY; 3],
        }
    }
}

impl Moments {
    fn add(&mut self, aabb: &Aabb) {
        for ax in 0..3 {
            let centre = 0.5 * (aabb.min[ax] as f64 + aabb.max[ax] as f64);
            self.sum[ax] += centre;
            self.sum2[ax] += centre * centre;
            self.ext[ax] += aabb.max[ax] as f64 - aabb.min[ax] as f64;
            self.lo[ax] = self.lo[ax].min(aabb.min[ax]);
            self.hi[ax] = self.hi[ax].max(aabb.max[ax]);
        }
    }
}

/// Size above which a sampled box is an outlier for the grid's estimates:
/// [`OUTLIER_SIZE`] times the median of the sampled boxes' largest extents (no limit
/// when that median is 0, e.g. mostly points).
fn outlier_cap(boxes: &[Aabb], stride: usize) -> f32 {
    let mut sizes: Vec<f32> = boxes
        .iter()
        .step_by(stride)
        .map(|b| b.size().max_element())
        .collect();
    if sizes.is_empty() {
        return f32::INFINITY;
    }
    let mid = sizes.len() / 2;
    let (_, median, _) = sizes.select_nth_unstable_by(mid, f32::total_cmp);
    if *median > 0.0 {
        OUTLIER_SIZE * *median
    } else {
        f32::INFINITY
    }
}

/// The fat box of a dynamic proxy for the dynamic–dynamic candidates.
fn dynamic_fat(aabb: &Aabb) -> Aabb {
    fat_box(aabb, DYNAMIC_FAT_MARGIN)
}

/// Merge of two sorted, disjoint key lists.
fn merge_sorted(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Consecutive ranges of about `chunk` items covering `0..n`.
fn split_evenly(n: usize, chunk: usize) -> Vec<std::ops::Range<usize>> {
    let chunk = chunk.max(1);
    (0..n.div_ceil(chunk))
        .map(|i| i * chunk..((i + 1) * chunk).min(n))
        .collect()
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
