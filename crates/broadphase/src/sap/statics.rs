//! Dynamic–static pairs: a BVH over the statics, and per mover a cache of the statics
//! near it.
//!
//! Invariant: a mover's `candidates` are the statics overlapping its static fat box
//! `fat` (its box grown by [`FAT_MARGIN`] of its largest extent), and its box lies in
//! `fat`, so every static overlapping the box is a candidate. While the box stays in
//! `fat`, its static pairs come from testing those few candidates; when it leaves (or
//! the statics changed), `fat` is regrown around the box and the BVH is queried
//! again. Static–static and kinematic–static pairs are never looked at: the work is
//! proportional to the dynamic proxies plus the re-queries, not to the statics.

use super::tasks::TASK_ENTRIES;
use super::{FAT_MARGIN, SweepAndPrune};
use crate::budget::{Budget, Sink};
use crate::fat::fat_box;
use crate::pairs::pack;
use crate::proxy::Slot;
use crate::static_bvh::StaticBvh;
use crate::{ProxyId, ProxyKind};
use rayon::prelude::*;
use sepax_geometry::Aabb;
use smallvec::SmallVec;

/// The BVH over the static proxies and whether it is out of date.
#[derive(Debug, Default)]
pub(super) struct StaticCache {
    /// `None` before the first frame and while there are no statics.
    pub bvh: Option<StaticBvh>,
    /// A static proxy was added, moved or removed since the last build.
    pub dirty: bool,
    /// The BVH queries' lists, kept from frame to frame (one thread's pass).
    query_lists: QueryLists,
}

/// The lists one run of [`static_pairs`] fills: a BVH query's hits and node stack.
#[derive(Debug, Default)]
struct QueryLists {
    found: Vec<ProxyId>,
    stack: Vec<usize>,
}

/// Cached static candidates of one mover.
#[derive(Clone, Debug)]
pub(super) struct StaticCandidates {
    id: u32,
    /// Statics overlapping `fat` are in `candidates`; valid while the box stays in `fat`.
    fat: Option<Aabb>,
    candidates: SmallVec<[(u32, Aabb); 8]>,
}

impl StaticCandidates {
    pub fn new(id: u32) -> Self {
        StaticCandidates {
            id,
            fat: None,
            candidates: SmallVec::new(),
        }
    }
}

impl SweepAndPrune {
    /// Step 1: rebuilds the BVH if a static proxy changed, and then forgets every
    /// mover's cache.
    pub(super) fn rebuild_statics(&mut self) {
        if !self.statics.dirty {
            return;
        }
        self.statics.dirty = false;
        self.stats.static_rebuilt = true;
        let items: Vec<(ProxyId, Aabb)> = self
            .store
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive() && s.kind() == ProxyKind::Static)
            .map(|(i, s)| (ProxyId(i as u32), s.aabb()))
            .collect();
        // Every stored box passed `Aabb::validate`, so the build cannot fail.
        self.statics.bvh = StaticBvh::build(&items).ok().filter(|t| !t.is_empty());
        for entry in &mut self.movers.statics {
            entry.fat = None;
        }
    }

    /// Step 4: dynamic–static pairs through each mover's cached candidates, appended
    /// to `pair_keys`; true when the cached candidates would pass `limit` (see
    /// [`crate::budget`]).
    ///
    /// Budget: each mover's cached candidates are counted, in dense order. The mover
    /// at which the count passes `limit` and every later one lose their cache (freed,
    /// so it is queried again next frame) and give no pair this frame.
    pub(super) fn pair_statics(&mut self, parallel: bool, limit: usize) -> bool {
        let Some(bvh) = self.statics.bvh.as_ref() else {
            return false;
        };
        let slots = &self.store.slots[..];
        let entries = &mut self.movers.statics;
        let lists = &mut self.statics.query_lists;
        let kept = self.pair_keys.len();
        // In order on the calling thread: straight into the pair keys, with the kept
        // query lists (nothing allocated once they have grown).
        let mut in_order = |entries: &mut [StaticCandidates], pairs: &mut Vec<u64>| {
            pairs.truncate(kept);
            let budget = Budget::new(limit);
            let queries = static_pairs(entries, slots, bvh, &budget, pairs, lists);
            (queries, budget.exceeded())
        };
        if !parallel {
            let (queries, exceeded) = in_order(entries, &mut self.pair_keys);
            self.stats.static_queries += queries;
            return exceeded;
        }
        let budget = Budget::new(limit);
        let results: Vec<(Vec<u64>, usize)> = entries
            .par_chunks_mut(TASK_ENTRIES / 4)
            .map(|chunk| {
                let (mut out, mut lists) = (Vec::new(), QueryLists::default());
                let queries = static_pairs(chunk, slots, bvh, &budget, &mut out, &mut lists);
                (out, queries)
            })
            .collect();
        if budget.exceeded() {
            // Where each chunk stopped depended on timing: redo it in order.
            let (queries, exceeded) = in_order(entries, &mut self.pair_keys);
            self.stats.static_queries += queries;
            return exceeded;
        }
        for (out, q) in results {
            self.pair_keys.extend(out);
            self.stats.static_queries += q;
        }
        false
    }
}

/// The static pairs of a run of movers under a shared budget, appended to `out`;
/// returns how many BVH queries it made.
fn static_pairs(
    entries: &mut [StaticCandidates],
    slots: &[Slot],
    bvh: &StaticBvh,
    budget: &Budget,
    out: &mut Vec<u64>,
    lists: &mut QueryLists,
) -> usize {
    let mut meter = Sink::new(budget);
    let mut queries = 0;
    let QueryLists { found, stack } = lists;
    for i in 0..entries.len() {
        let e = &mut entries[i];
        let slot = &slots[e.id as usize];
        if slot.kind() == ProxyKind::Kinematic {
            continue; // never paired with statics
        }
        let aabb = slot.aabb();
        if !meter.over() && !e.fat.is_some_and(|f| f.contains(&aabb)) {
            let fat = fat_box(&aabb, FAT_MARGIN);
            found.clear();
            bvh.query_unchecked(&fat, found, stack, meter.room());
            found.sort_unstable();
            e.candidates.clear();
            e.candidates
                .extend(found.iter().map(|s| (s.0, slots[s.0 as usize].aabb())));
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
    queries
}
