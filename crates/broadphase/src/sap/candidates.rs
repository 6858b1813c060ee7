//! The candidate cache and the full sort-and-sweep that rebuilds it.
//!
//! Candidates are the dynamic pairs whose fat boxes overlap (see the crate docs); a
//! frame's dynamic pairs are the candidates whose real boxes overlap. A full sweep
//! rebuilds them all:
//!
//! 1. bring the order of the movers on the sweep axis up to date ([`SweepOrder`]):
//!    drop removed movers, append new ones, pick the axis, read every fat box once,
//!    build the sort keys and repair the order (or sort it from scratch);
//! 2. gather the fat boxes, in order, into 32-byte sweep entries, and estimate the
//!    statistics of the boxes for the next axis choice and the grid;
//! 3. bucket the entries on the other two axes (when one sorted list would give too
//!    many candidates per box) and sweep each bucket, then the big boxes;
//! 4. sort the candidate keys.

use super::movers::dynamic_fat;
use super::tasks::{TASK_ENTRIES, cell_tasks, split_evenly};
use super::{
    GRID_MIN_CANDIDATES, GRID_MIN_PROXIES, PARALLEL_MIN_PROXIES, PARALLEL_MIN_SWEEP, SweepAndPrune,
};
use crate::budget;
use crate::cell_sweep::sweep_gathered_cell;
use crate::grid::{AxisStats, Buckets, GridSpec};
use crate::moments::Moments;
use crate::order::{choose_axis, order_bits, repair_or_sort};
use crate::radix::sort_pair_keys;
use crate::sweep::{Entry, big_against_all, pack_bc, sweep};
use rayon::prelude::*;
use sepax_geometry::Aabb;
use smallvec::SmallVec;

/// Dynamic pairs whose fat boxes overlap, as sorted keys.
#[derive(Debug, Default)]
pub(super) struct CandidateCache {
    pub keys: Vec<u64>,
    /// The buffer a patch merges into, then swaps with `keys`.
    pub spare: Vec<u64>,
    /// False when `keys` no longer matches the movers (added, removed, or cut at the
    /// pair budget): the next frame sweeps again.
    pub valid: bool,
}

/// The movers' order on the sweep axis, kept from one full sweep to the next, and
/// what the sweep built from it.
#[derive(Debug, Default)]
pub(super) struct SweepOrder {
    /// Per id: true while the id sits in `ids`.
    pub in_order: Vec<bool>,
    /// Movers inserted since the last full sweep.
    pub pending: Vec<u32>,
    /// A mover was removed since the last full sweep.
    pub removed: bool,
    /// Mover ids in the last sweep's sorted order.
    ids: Vec<u32>,
    ids_scratch: Vec<u32>,
    /// This sweep's fat boxes, in the last sweep's order.
    boxes: Vec<Aabb>,
    /// Sort keys: `order_bits(min_a) << 32 | position in ids`.
    keys: Vec<u64>,
    key_scratch: Vec<u64>,
    pub axis: usize,
    /// Centre variance per axis measured at the last gather.
    variance: Option<[f64; 3]>,
    /// The fat boxes sorted on the sweep axis, then a sentinel.
    pub sorted: Vec<Entry>,
    /// The last full sweep's grid (one cell: no buckets) and its buckets, which the
    /// patches search until the next full sweep.
    pub grid: Option<GridSpec>,
    pub buckets: Buckets,
    /// Largest fat extent on the sweep axis at the last full sweep.
    pub max_extent_a: f32,
    /// The sweep's tasks (kept: a sweep allocates nothing once its lists have grown).
    tasks: Vec<std::ops::Range<usize>>,
}

impl SweepOrder {
    /// Makes room for ids below `bound`.
    pub fn grow_ids(&mut self, bound: usize) {
        if self.in_order.len() < bound {
            self.in_order.resize(bound, false);
        }
    }
}

impl SweepAndPrune {
    /// Sort-and-sweep of every dynamic fat box into the candidates, at most `limit` of
    /// them. Returns true when the budget was exceeded: the candidates then miss pairs,
    /// so they are marked invalid and the next frame sweeps again.
    pub(super) fn full_sweep(&mut self, limit: usize) -> bool {
        self.stats.full_sweep = true;
        self.stats.escaped = self.escapes.escaped.len();
        let force_full = self.refresh_keys();
        let n = self.order.keys.len();
        let parallel = self.split(n >= PARALLEL_MIN_SWEEP);
        let order = &mut self.order;
        self.stats.full_sort = repair_or_sort(&mut order.keys, &mut order.key_scratch, force_full);
        self.stats.axis = order.axis;
        let (b_stats, c_stats) = self.gather();
        let (mut keys, exceeded) = self.sweep_dynamic(b_stats, c_stats, parallel, limit);
        sort_pair_keys(&mut keys, &mut self.pair_scratch, self.store.id_bound());
        self.candidates.keys = keys;
        self.refresh_fat(parallel);
        self.escapes.clear_stale();
        self.candidates.valid = !exceeded;
        exceeded
    }

    /// Every mover's fat box grown anew from its box, and the largest extent on the
    /// sweep axis of the sorted boxes (both elementwise, then a maximum: the same bits
    /// in tasks). In tasks on 2 threads (`stress --scene soup`): 10,000 boxes 35–37 →
    /// 22–23 µs a sweep, 50,000 boxes 180–260 → 150–166.
    fn refresh_fat(&mut self, parallel: bool) {
        let slots = &self.store.slots;
        let refresh =
            |(fat, &id): (&mut Aabb, &u32)| *fat = dynamic_fat(&slots[id as usize].aabb());
        let extent = |e: &Entry| e.max_a - e.min_a;
        let (fats, ids) = (&mut self.movers.fat, &self.movers.ids);
        let sorted = &self.order.sorted[..self.order.sorted.len().saturating_sub(1)];
        self.order.max_extent_a = if parallel {
            let fats = fats.par_iter_mut().with_min_len(TASK_ENTRIES);
            fats.zip(ids).for_each(refresh);
            let extents = sorted.par_iter().with_min_len(TASK_ENTRIES).map(extent);
            extents.reduce(|| 0.0, f32::max)
        } else {
            fats.iter_mut().zip(ids).for_each(refresh);
            sorted.iter().map(extent).fold(0.0, f32::max)
        };
    }

    /// Drops dead ids from the order, appends new ones, picks the axis, and reads
    /// every mover's box once (in last sweep's order), grown into its fat box, into
    /// `boxes` and `keys`. Returns true if the order must be sorted from scratch (new
    /// axis or no previous order).
    fn refresh_keys(&mut self) -> bool {
        let may_split = self.split(true);
        let slots = &self.store.slots;
        let order = &mut self.order;
        let in_order = &mut order.in_order;
        if order.removed {
            order.removed = false;
            order.ids.retain(|&id| {
                let s = &slots[id as usize];
                let keep = s.alive() && s.kind().moves();
                if !keep {
                    in_order[id as usize] = false;
                }
                keep
            });
        }
        let had_order = !order.ids.is_empty();
        for &id in &order.pending {
            let s = &slots[id as usize];
            if s.alive() && s.kind().moves() && !in_order[id as usize] {
                in_order[id as usize] = true;
                order.ids.push(id);
            }
        }
        order.pending.clear();
        let variance = order.variance.unwrap_or_else(|| {
            Moments::of(order.ids.iter().map(|&id| slots[id as usize].aabb())).variance()
        });
        let axis = choose_axis(order.axis, variance);
        let new_axis = axis != order.axis;
        order.axis = axis;
        // The one pass in id-random order: everything later reads `boxes`.
        let read = |(i, &id): (usize, &u32)| {
            let aabb = dynamic_fat(&slots[id as usize].aabb());
            (aabb, ((order_bits(aabb.min[axis]) as u64) << 32) | i as u64)
        };
        if may_split && order.ids.len() >= PARALLEL_MIN_PROXIES {
            // Into last sweep's buffers, in tasks of `TASK_ENTRIES` ids: fresh vectors
            // (an `unzip`) cost their page faults every sweep. Measured on the soup of
            // 50,000 boxes, 2 threads (`stress`, this pass timed alone, 16 sweeps): 488–939
            // µs a sweep with fresh vectors, 302–432 into the buffers. At 10,000 boxes
            // the tasks lose: 105–122 µs a sweep against 63–74 on the calling thread
            // (2 threads; 1 thread 48–51), hence the higher threshold.
            let n = order.ids.len();
            let zero = Aabb::new(glam::Vec3::ZERO, glam::Vec3::ZERO);
            order.boxes.resize(n, zero);
            order.keys.resize(n, 0);
            let outputs = order.boxes.par_chunks_mut(TASK_ENTRIES);
            let outputs = outputs.zip(order.keys.par_chunks_mut(TASK_ENTRIES));
            (order.ids.par_chunks(TASK_ENTRIES).enumerate())
                .zip(outputs)
                .for_each(|((task, ids), (boxes, keys))| {
                    let first = task * TASK_ENTRIES;
                    let read = ids.iter().enumerate().map(|(i, id)| read((first + i, id)));
                    for ((aabb, key), (b, k)) in read.zip(boxes.iter_mut().zip(keys)) {
                        (*b, *k) = (aabb, key);
                    }
                });
        } else {
            order.boxes.clear();
            order.keys.clear();
            for (aabb, key) in order.ids.iter().enumerate().map(read) {
                order.boxes.push(aabb);
                order.keys.push(key);
            }
        }
        new_axis || !had_order
    }

    /// Builds `sorted` (and the new order) in key order, axis `a` first, measuring
    /// the centre variance for the next axis choice and the other axes' stats.
    fn gather(&mut self) -> (AxisStats, AxisStats) {
        let may_split = self.split(true);
        let order = &mut self.order;
        let (a, b, c) = (order.axis, (order.axis + 1) % 3, (order.axis + 2) % 3);
        let n = order.keys.len();
        let (boxes, ids) = (&order.boxes, &order.ids);
        let entry = |&k: &u64| {
            let i = k as u32 as usize;
            let aabb = &boxes[i];
            Entry {
                bc: pack_bc(aabb.min[b], aabb.max[b], aabb.min[c], aabb.max[c]),
                min_a: aabb.min[a],
                max_a: aabb.max[a],
                cell: [0, 0],
                id: ids[i],
            }
        };
        if may_split && n >= PARALLEL_MIN_SWEEP {
            order
                .keys
                .par_iter()
                .map(entry)
                .collect_into_vec(&mut order.sorted);
        } else {
            order.sorted.clear();
            order.sorted.extend(order.keys.iter().map(entry));
        }
        order.ids_scratch.clear();
        order.ids_scratch.extend(order.sorted.iter().map(|e| e.id));
        order.sorted.push(Entry::SENTINEL);
        std::mem::swap(&mut order.ids, &mut order.ids_scratch);

        // The axis choice and the grid size only need estimates: sample at most
        // about 1,024 boxes at a fixed stride (deterministic, and exact bounds are not
        // needed because cell indices are clamped), outliers left out.
        let m = Moments::sampled(&order.boxes, (n / 1024).max(1));
        order.variance = (n > 0).then_some(m.variance());
        let stats = |ax: usize| AxisStats {
            lo: m.lo[ax],
            hi: m.hi[ax],
            mean_extent: m.mean_extent(ax),
        };
        (stats(b), stats(c))
    }

    /// Expected candidates per box of a single sorted list: a box meets the boxes
    /// whose `min_a` lies within its own extent, about `density · extent`. Both are
    /// taken so that a few huge or far boxes do not skew them (issue 9): the density
    /// of `min_a` between the sorted positions `n/64` and `n − 1 − n/64`, and the
    /// median extent of about 64 boxes at a fixed stride.
    fn sweep_candidates(&self, n: usize) -> f32 {
        let sorted = &self.order.sorted;
        let (lo, hi) = (n / 64, n - 1 - n / 64);
        let range = sorted[hi].min_a - sorted[lo].min_a;
        let step = (n / 64).max(1);
        // At most 127 extents (`n / (n / 64)` is below 128 from 64 boxes on): on the stack.
        let mut ext: SmallVec<[f32; 128]> = sorted[..n]
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

    /// Dynamic–dynamic candidates of the gathered boxes: bucket, then sweep every
    /// bucket, then the big boxes; at most `limit` of them, and true when there were
    /// more (see [`budget`]).
    fn sweep_dynamic(
        &mut self,
        b: AxisStats,
        c: AxisStats,
        parallel: bool,
        limit: usize,
    ) -> (Vec<u64>, bool) {
        let n = self.order.keys.len();
        // The new list goes into the old one's buffer.
        let mut reused = std::mem::take(&mut self.candidates.keys);
        reused.clear();
        self.order.grid = None;
        if n < 2 {
            return (reused, false);
        }
        let spec = if n >= GRID_MIN_PROXIES && self.sweep_candidates(n) > GRID_MIN_CANDIDATES {
            GridSpec::fit(n, b, c)
        } else {
            GridSpec::single()
        };
        self.stats.grid = spec.dims;
        let order = &mut self.order;
        if spec.dims == (1, 1) {
            // One cell: sweep the sorted arrays in place, no reporting rule.
            let view = &order.sorted[..];
            split_evenly(n, if parallel { TASK_ENTRIES } else { n }, &mut order.tasks);
            return budget::collect(&order.tasks, parallel, limit, reused, |r, sink| {
                sweep(view, r.clone(), sink);
            });
        }
        order.buckets.fill(&spec, &mut order.sorted);
        order.grid = Some(spec);
        self.stats.big = order.buckets.big.len();
        let gb = spec.dims.0;
        let (offsets, cells) = (&order.buckets.offsets, &order.buckets.cells);
        let all = &order.sorted[..];
        cell_tasks(offsets, &mut order.tasks);
        let (mut pairs, exceeded) =
            budget::collect(&order.tasks, parallel, limit, reused, |r, sink| {
                for k in r.clone() {
                    let seg = offsets[k] as usize..offsets[k + 1] as usize;
                    // Each run ends with its sentinel: fewer than 2 boxes, no pair.
                    if seg.len() < 3 {
                        continue;
                    }
                    let cell = [(k as u32 % gb) as u16, (k as u32 / gb) as u16];
                    if !sweep_gathered_cell(all, &cells[seg], cell, sink) {
                        return;
                    }
                }
            });
        if exceeded {
            return (pairs, true);
        }
        let (is_big, big) = (&order.buckets.is_big, &order.buckets.big);
        let room = limit - pairs.len();
        let (big_pairs, exceeded) = budget::collect(big, parallel, room, Vec::new(), |&p, sink| {
            big_against_all(all, is_big, p as usize, sink);
        });
        pairs.extend(big_pairs);
        (pairs, exceeded)
    }
}
