//! [`SweepAndPrune`]: the persistent broad phase, one concept per file.
//!
//! * this file: the proxies' public API and the frame ([`SweepAndPrune::update_pairs`]);
//! * [`movers`]: the moving (dynamic and kinematic) proxies, densely;
//! * [`candidates`]: the candidate cache (dynamic pairs whose fat boxes overlap) and
//!   the full sort-and-sweep that rebuilds it;
//! * [`escapes`]: patching the candidates for the few proxies that left their fat box;
//! * [`statics`]: the static BVH and each mover's cached static candidates;
//! * [`tasks`]: how a pass is cut into parallel tasks.
//!
//! The algorithm is described in the crate docs.

mod candidates;
mod escapes;
mod movers;
mod statics;
mod tasks;

use crate::budget::PairLimit;
use crate::pairs::PairFrame;
use crate::proxy::ProxyStore;
use crate::radix::sort_pair_keys;
use crate::static_bvh::StaticBvh;
use crate::{BroadPhaseError, ProxyId, ProxyKind};
use candidates::{CandidateCache, SweepOrder};
use escapes::Escapes;
use movers::Movers;
use rayon::prelude::*;
use sepax_geometry::Aabb;
use statics::StaticCache;

/// Below this many dynamic proxies the sweep uses one cell (no grid).
pub const GRID_MIN_PROXIES: usize = 256;
/// The grid is used only when a single sorted list would give each box more than
/// this many candidates on average.
pub const GRID_MIN_CANDIDATES: f32 = 16.0;
/// Below this many dynamic proxies everything runs on the calling thread (but see
/// [`PARALLEL_MIN_CANDIDATES`]).
pub const PARALLEL_MIN_PROXIES: usize = 16_384;
/// From this many candidate pairs on, the exact overlap test of the candidates runs
/// on the rayon pool whatever the proxy count: it reads two random boxes per
/// candidate, the largest sequential cost of a coherent frame at 10,000 boxes.
pub const PARALLEL_MIN_CANDIDATES: usize = 8_192;
/// From this many dynamic proxies on, the full sweep (the movers' keys, the gather,
/// the bucketed sweep) and the patch of the movers that left their fat boxes run on
/// the rayon pool whatever [`PARALLEL_MIN_PROXIES`] says. Both run on one frame's
/// movers alone, one frame in a few (the sweep) or with a few dozen escapes (the
/// patch), so they were the sequential part of a 10,000-box frame that the second
/// thread never helped: see the crate docs for the figures.
pub const PARALLEL_MIN_SWEEP: usize = 4_096;
/// From this many dynamic proxies on, the static pairs (each mover against its cached
/// static candidates, and the BVH queries of the movers that left theirs) run on the
/// rayon pool whatever [`PARALLEL_MIN_PROXIES`] says: in tasks of 512 movers, so from
/// two tasks on. With many statics that pass is most of the broad phase and reads
/// scattered memory: on the static-heavy scene (50,000 statics, 1,000 movers, 2
/// threads) it took the broad phase from about 0.27 to 0.20 ms a step.
pub const PARALLEL_MIN_STATIC_MOVERS: usize = 512;
/// A dynamic proxy's cached static candidates are those overlapping its box grown
/// by this fraction of its largest extent on every side.
pub const FAT_MARGIN: f32 = 0.5;
/// Dynamic–dynamic candidates are the pairs whose boxes grown by this fraction of
/// their largest extent overlap.
pub const DYNAMIC_FAT_MARGIN: f32 = 0.1;
/// Up to `MAX_PATCHED_ESCAPES + n / 256` dynamic proxies leaving their fat box in
/// one frame are patched into the candidate list one by one (and up to
/// `4 · MAX_PATCHED_ESCAPES + n / 64` since the last full sweep); more trigger a
/// full sweep.
pub const MAX_PATCHED_ESCAPES: usize = 16;
/// The pair budget of a new broad phase: 4,194,304 candidate pairs (32 MiB per pair
/// list). See [`SweepAndPrune::set_pair_budget`].
pub const DEFAULT_PAIR_BUDGET: usize = 1 << 22;

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
    /// (otherwise nothing was sorted and the `axis`, `full_sort` and `grid` fields
    /// above are left at their defaults: the stats describe this frame only).
    pub full_sweep: bool,
    /// Dynamic proxies that left their fat box this frame.
    pub escaped: usize,
    /// True when this frame found more candidate pairs than the pair budget allows,
    /// so [`SweepAndPrune::pairs`] holds only the first ones (see
    /// [`SweepAndPrune::set_pair_budget`]).
    pub pair_budget_exceeded: bool,
    /// True when no proxy was inserted, moved or removed since the last frame (and
    /// that frame kept every pair): the pairs were kept as they were, nothing was
    /// swept or tested, and the diffs are empty.
    pub unchanged: bool,
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
    /// Every proxy's box and kind, indexed by the caller's id.
    store: ProxyStore,
    /// The moving proxies, densely, with their fat boxes and static caches.
    movers: Movers,
    /// The movers' order on the sweep axis, kept between full sweeps.
    order: SweepOrder,
    /// Dynamic pairs whose fat boxes overlap.
    candidates: CandidateCache,
    /// Movers that left their fat box, and those re-fattened since the last sweep.
    escapes: Escapes,
    /// The BVH over the static proxies.
    statics: StaticCache,
    /// This frame's pair keys and their sort scratch, and the kept count of each task
    /// of the candidate test (kept, so that a frame allocates nothing).
    pair_keys: Vec<u64>,
    pair_scratch: Vec<u64>,
    kept_counts: Vec<usize>,
    /// The published pairs and diffs.
    frame: PairFrame,
    stats: FrameStats,
    /// Most candidate pairs a frame keeps.
    pair_limit: PairLimit,
    /// A proxy was inserted, updated or removed (or the budget changed) since the last
    /// `update_pairs`.
    changed: bool,
    /// Every pass runs on the calling thread ([`set_parallel`](Self::set_parallel)).
    sequential: bool,
}

impl SweepAndPrune {
    /// An empty broad phase with the [`DEFAULT_PAIR_BUDGET`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the large passes of [`update_pairs`](Self::update_pairs) and
    /// [`update_sorted`](Self::update_sorted) may run on the current rayon pool (the
    /// default; outside any pool that is rayon's global pool). With `false` every pass
    /// runs on the calling thread and no rayon pool is touched, as a world stepped on
    /// one thread wants. The pairs are the same either way, bit for bit: the passes are
    /// cut into the same tasks and joined in the same order.
    ///
    /// ```
    /// use sepax_broadphase::{ProxyId, ProxyKind, SweepAndPrune};
    /// use sepax_geometry::Aabb;
    /// use glam::Vec3;
    ///
    /// let mut sap = SweepAndPrune::new();
    /// sap.set_parallel(false);
    /// for i in 0..3 {
    ///     let at = Vec3::X * i as f32;
    ///     sap.insert(ProxyId(i), Aabb::new(at, at + Vec3::splat(1.5)), ProxyKind::Dynamic).unwrap();
    /// }
    /// sap.update_pairs();
    /// assert_eq!(sap.pairs(), &[(ProxyId(0), ProxyId(1)), (ProxyId(1), ProxyId(2))]);
    /// ```
    pub fn set_parallel(&mut self, parallel: bool) {
        self.sequential = !parallel;
    }

    /// `wanted` unless the passes must stay on the calling thread
    /// ([`set_parallel`](Self::set_parallel)).
    #[inline]
    fn split(&self, wanted: bool) -> bool {
        wanted && !self.sequential
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
            self.candidates.valid = false;
            self.changed = true;
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
        self.changed = true;
        let bound = self.store.id_bound() as usize;
        self.movers.grow_ids(bound);
        self.order.grow_ids(bound);
        self.escapes.grow_ids(bound);
        if kind.moves() {
            self.movers.push(id.0, &aabb, kind);
            self.candidates.valid = false;
            self.order.pending.push(id.0);
        } else {
            self.statics.dirty = true;
        }
        Ok(())
    }

    /// Replaces the box of a proxy. O(1); the order is repaired at `update_pairs`.
    ///
    /// Errors: `UnknownProxy`, `NonFiniteAabb`, `InvertedAabb` (the stored box is
    /// kept). Moving a static proxy rebuilds the static BVH at the next `update_pairs`.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        if self.store.update(id, aabb)? == ProxyKind::Static {
            self.statics.dirty = true;
        }
        self.changed = true;
        Ok(())
    }

    /// Replaces the boxes of many proxies at once: [`update`](Self::update) of every
    /// `entry(k) = (id, box)` for `k < count`, when the ids strictly increase with `k`
    /// (each proxy once, in id order, as a caller walking its bodies in order has
    /// them). The entries are checked, then written, in parallel parts on the rayon
    /// pool; the same result on any thread count.
    ///
    /// All or nothing: `Ok(true)` when every box was replaced; `Ok(false)`, with nothing
    /// changed, when the ids do not strictly increase (call `update` for each instead);
    /// `Err` with nothing changed for the first failing entry's `UnknownProxy`,
    /// `NonFiniteAabb` or `InvertedAabb` (as `update` gives it).
    ///
    /// ```
    /// use sepax_broadphase::{ProxyId, ProxyKind, SweepAndPrune};
    /// use sepax_geometry::Aabb;
    /// use glam::Vec3;
    ///
    /// let mut sap = SweepAndPrune::new();
    /// let unit = |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0));
    /// for i in 0..3 {
    ///     sap.insert(ProxyId(i), unit(3.0 * i as f32), ProxyKind::Dynamic).unwrap();
    /// }
    /// // Proxies 0 and 2 move; 2 goes to x = 10.
    /// let moved = sap.update_sorted(2, |k| (ProxyId(2 * k as u32), unit(10.0 * k as f32)));
    /// assert_eq!(moved, Ok(true));
    /// sap.update_pairs();
    /// assert_eq!(sap.pairs().len(), 0);
    /// assert_eq!(sap.update_sorted(1, |_| (ProxyId(2), unit(0.5))), Ok(true));
    /// sap.update_pairs();
    /// assert_eq!(sap.pairs(), [(ProxyId(0), ProxyId(2))]);
    /// // Out of order: refused, nothing changed.
    /// let ids = [ProxyId(2), ProxyId(0)];
    /// assert_eq!(sap.update_sorted(2, |k| (ids[k], unit(20.0))), Ok(false));
    /// ```
    pub fn update_sorted(
        &mut self,
        count: usize,
        entry: impl Fn(usize) -> (ProxyId, Aabb) + Sync,
    ) -> Result<bool, BroadPhaseError> {
        let parallel = self.split(true);
        let Some(any_static) = self.store.update_sorted(count, &entry, parallel)? else {
            return Ok(false);
        };
        self.statics.dirty |= any_static;
        self.changed |= count > 0;
        Ok(true)
    }

    /// Removes a proxy; its pairs are gone at the next `update_pairs`.
    ///
    /// Errors: `UnknownProxy` (never inserted, or already removed).
    pub fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let kind = self.store.remove(id)?;
        self.changed = true;
        if kind.moves() {
            self.movers.swap_remove(id.0, kind);
            self.candidates.valid = false;
            self.order.removed = true;
        } else {
            self.statics.dirty = true;
        }
        Ok(())
    }

    /// The box of a live proxy. Errors: `UnknownProxy`.
    pub fn aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        self.store.get(id).map(|s| s.aabb())
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
        self.statics.bvh.as_ref()
    }

    /// What the last `update_pairs` did.
    pub fn stats(&self) -> FrameStats {
        self.stats
    }

    /// True when the next [`update_pairs`](Self::update_pairs) will keep the pairs as
    /// they are, in O(1): no proxy was inserted, updated or removed since the last call
    /// (and the pair budget was not changed), and that call kept every pair (it was
    /// within the budget). Its diffs will be empty.
    pub fn keeps_pairs(&self) -> bool {
        !self.changed && self.candidates.valid && !self.stats.pair_budget_exceeded
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

    /// The index in [`pairs`](Self::pairs) of each pair of
    /// [`pairs_added`](Self::pairs_added), in the same order: found by the diff itself,
    /// so a caller keeping state per pair needs no search.
    pub fn pairs_added_at(&self) -> &[u32] {
        &self.frame.added_at
    }

    /// The index in the previous frame's [`pairs`](Self::pairs) of each pair of
    /// [`pairs_removed`](Self::pairs_removed), in the same order.
    pub fn pairs_removed_at(&self) -> &[u32] {
        &self.frame.removed_at
    }

    /// Finds every overlapping pair that [`ProxyKind::pairs_with`] allows, and the
    /// diffs against the previous call.
    ///
    /// 0. if no proxy was inserted, moved or removed since the last call (and that
    ///    call kept every pair), keep the pairs and publish empty diffs: O(1);
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
        // 0. Nothing changed since a frame that kept every pair: the same boxes give
        // the same pairs, so keep them (a resting scene costs nothing here).
        if self.keeps_pairs() {
            self.stats = FrameStats {
                unchanged: true,
                ..FrameStats::default()
            };
            self.frame.keep();
            return;
        }
        self.changed = false;
        self.stats = FrameStats::default();
        self.rebuild_statics();
        let n = self.movers.len();
        let parallel = self.split(n >= PARALLEL_MIN_PROXIES);
        let limit = self.pair_limit.0;
        let full = !self.candidates.valid || {
            self.find_escaped();
            let (escaped, stale) = (self.escapes.escaped.len(), self.escapes.stale_ids.len());
            escaped > MAX_PATCHED_ESCAPES + n / 256
                || stale + escaped > 4 * MAX_PATCHED_ESCAPES + n / 64
        };
        let mut exceeded = false;
        if full || (!self.escapes.escaped.is_empty() && !self.patch_candidates(limit)) {
            exceeded = self.full_sweep(limit);
        }
        self.keep_overlapping(parallel);
        let dynamic = self.pair_keys.len();
        let room = limit.saturating_sub(dynamic);
        let statics_parallel = self.split(parallel || n >= PARALLEL_MIN_STATIC_MOVERS);
        exceeded |= self.pair_statics(statics_parallel, room);
        self.stats.pair_budget_exceeded = exceeded;

        // The dynamic pairs come sorted from the sorted candidates: only static pairs
        // call for the sort.
        if self.pair_keys.len() > dynamic {
            let id_bound = self.store.id_bound();
            sort_pair_keys(&mut self.pair_keys, &mut self.pair_scratch, id_bound);
        }
        debug_assert!(self.pair_keys.is_sorted());
        self.frame.publish(&mut self.pair_keys);
    }

    /// Step 3: the exact test of the candidates into `pair_keys`. Every overlapping
    /// dynamic pair is a candidate, since each box lies inside its fat box. Kinematic
    /// proxies sweep with the dynamic ones; the kind rule drops their pairs with each
    /// other here (a second, plain filter while there is no kinematic proxy).
    ///
    /// The candidates are sorted, so the kept pairs are too. From
    /// [`PARALLEL_MIN_CANDIDATES`] candidates on (or with `parallel`), the tests run on
    /// the rayon pool (see `keep_candidates`).
    fn keep_overlapping(&mut self, parallel: bool) {
        let slots = &self.store.slots[..];
        // `Slot::overlaps`: the six comparisons as two 4-wide compares and-ed, with no
        // branch to mispredict (about half the candidates overlap; with the branch-free
        // `pack`, the stage ran in half the time).
        let overlap = |&k: &u64| slots[(k >> 32) as usize].overlaps(&slots[k as u32 as usize]);
        let overlap_and_kind = |&k: &u64| {
            let (a, b) = (&slots[(k >> 32) as usize], &slots[k as u32 as usize]);
            a.overlaps(b) & a.kind().pairs_with(b.kind())
        };
        let candidates = &self.candidates.keys;
        self.pair_keys.clear();
        let parallel = self.split(parallel || candidates.len() >= PARALLEL_MIN_CANDIDATES);
        let lists = (&mut self.pair_scratch, &mut self.kept_counts);
        let kept = &mut self.pair_keys;
        match self.movers.kinematic > 0 {
            false => keep_candidates(candidates, overlap, parallel, lists, kept),
            true => keep_candidates(candidates, overlap_and_kind, parallel, lists, kept),
        }
    }
}

/// Appends to `kept` the candidates that `keep` accepts, in order. In tasks of 4,096
/// candidates (on the rayon pool when `parallel`): each task packs its kept ones at
/// the start of its own part of `scratch` and counts them into `counts`; the parts
/// are then joined in task order (one copy each). The same list on any thread count.
/// Both lists are buffers kept from frame to frame.
fn keep_candidates(
    candidates: &[u64],
    keep: impl Fn(&u64) -> bool + Sync + Send,
    parallel: bool,
    (scratch, counts): (&mut Vec<u64>, &mut Vec<usize>),
    kept: &mut Vec<u64>,
) {
    const TASK: usize = 4096;
    // Every part is written before it is read: only the length matters.
    if scratch.len() < candidates.len() {
        scratch.resize(candidates.len(), 0);
    }
    if parallel {
        let parts = candidates
            .par_chunks(TASK)
            .zip(scratch[..candidates.len()].par_chunks_mut(TASK));
        parts
            .map(|(c, out)| pack(c, &keep, out))
            .collect_into_vec(counts);
    } else {
        let parts = candidates.chunks(TASK).zip(scratch.chunks_mut(TASK));
        counts.clear();
        counts.extend(parts.map(|(c, out)| pack(c, &keep, out)));
    }
    for (part, &n) in scratch.chunks(TASK).zip(counts.iter()) {
        kept.extend_from_slice(&part[..n]);
    }
}

/// Packs the candidates that `keep` accepts at the start of `out` (as long as
/// `candidates`), in order; returns how many. Branch-free: every candidate is written
/// at the next free place, which moves on only if it is kept (about half are, so a
/// branch here mispredicted half the time: it cost half of the broad phase's frame).
fn pack(candidates: &[u64], keep: &impl Fn(&u64) -> bool, out: &mut [u64]) -> usize {
    let mut n = 0;
    for (k, i) in candidates.iter().zip(0..) {
        debug_assert!(n <= i);
        out[n] = *k;
        n += usize::from(keep(k));
    }
    n
}
