//! Patching the candidate cache for the few movers that left their fat box.
//!
//! A mover whose box left its fat box `F` gets a new fat box, and the fat boxes
//! overlapping the new one are found and merged into the candidates (its old
//! candidates stay until the next full sweep: a superset is still right):
//!
//! * among the boxes of the last full sweep (`sorted`, by `min_a`): those with
//!   `min_a` in `[F.min_a − max extent, F.max_a]`, found by binary search, tested with
//!   the 4-wide compare; entries of movers re-fattened since (*stale*) are skipped.
//!   When that sweep had a grid, the search runs in each cell the new box touches (each
//!   cell's boxes are sorted by `min_a` too), keeping a pair only in the cell of its
//!   overlap's lower corner as the sweep does, then over the big boxes; a box too big
//!   for the grid scans the whole window. At 50,000 boxes (`stress --scene soup`, 1
//!   thread, 150 frames, 2,788 escapes) 8.8 → 5.4 µs an escape;
//! * among the re-fattened ones (few): every one, directly, from a compact copy of
//!   their fat boxes (5.4 → 4.6 µs an escape, 163 → 86 µs a frame at 50,000 with both).
//!
//! A pair of two movers escaping in the same frame is added once, from the smaller id.
//! Too many escapes (in one frame, or since the last full sweep) make a full sweep
//! cheaper; `update_pairs` decides (see [`super::MAX_PATCHED_ESCAPES`]).

use super::movers::dynamic_fat;
use super::tasks::TASK_ENTRIES;
use super::{PARALLEL_MIN_SWEEP, SweepAndPrune};
use crate::grid::MAX_SPAN;
use crate::pairs::pack;
use crate::sweep::{Entry, pack_bc, probe};
use rayon::prelude::*;
use sepax_geometry::Aabb;

/// Movers out of their fat box this frame, and those re-fattened since the last full
/// sweep.
#[derive(Debug, Default)]
pub(super) struct Escapes {
    /// Dense indices of the movers that left their fat box this frame.
    pub escaped: Vec<u32>,
    /// Per id: the mover got a new fat box since the last full sweep, so its entry in
    /// the sweep's sorted boxes is stale.
    pub stale: Vec<bool>,
    /// Ids with `stale` set.
    pub stale_ids: Vec<u32>,
    /// Their fat boxes, parallel to `stale_ids`: each patch tests every one, and read
    /// through the movers' index they were a cache miss each (at 50,000 boxes, with
    /// hundreds stale late in a sweep's life, most of a patch's time).
    pub stale_fats: Vec<Aabb>,
    /// Per id: its place in `stale_ids` while `stale` is set.
    stale_at: Vec<u32>,
    /// Per id: the mover is among this frame's escapes (set while they are patched,
    /// cleared after), so that dropping their candidates is one lookup per candidate.
    pub escaping: Vec<bool>,
    /// A patch's lists, kept so that a patch allocates nothing once they have grown:
    /// the escaped movers' ids and their new candidate pairs.
    patch_ids: Vec<u32>,
    patch_pairs: Vec<u64>,
}

impl Escapes {
    /// Makes room for ids below `bound`.
    pub fn grow_ids(&mut self, bound: usize) {
        if self.stale.len() < bound {
            self.stale.resize(bound, false);
            self.stale_at.resize(bound, 0);
            self.escaping.resize(bound, false);
        }
    }

    /// After a full sweep every entry is fresh again.
    pub fn clear_stale(&mut self) {
        for &id in &self.stale_ids {
            self.stale[id as usize] = false;
        }
        self.stale_ids.clear();
        self.stale_fats.clear();
    }

    /// Records mover `id`'s new fat box: it becomes stale, or its stale box is
    /// replaced.
    fn refattened(&mut self, id: u32, fat: Aabb) {
        let i = id as usize;
        if self.stale[i] {
            self.stale_fats[self.stale_at[i] as usize] = fat;
        } else {
            self.stale[i] = true;
            self.stale_at[i] = self.stale_ids.len() as u32;
            self.stale_ids.push(id);
            self.stale_fats.push(fat);
        }
    }
}

impl SweepAndPrune {
    /// Dense indices of the movers whose box left its fat box, into `escapes.escaped`,
    /// in increasing order. From [`PARALLEL_MIN_SWEEP`] movers in tasks of
    /// `TASK_ENTRIES` on the rayon pool (when the broad phase may split), joined in
    /// task order: the same list. Timed alone on `stress --scene soup --bodies 10000`,
    /// 200 frames (3 December 2026): 2 threads, median 24.8 µs a frame on one
    /// thread, 16.3 in tasks; 1 thread 20.4 (the calling thread's loop either way).
    pub(super) fn find_escaped(&mut self) {
        let parallel = self.split(self.movers.len() >= PARALLEL_MIN_SWEEP);
        let escaped = &mut self.escapes.escaped;
        escaped.clear();
        let slots = &self.store.slots;
        let movers = &self.movers;
        let scan = |first: usize, fats: &[Aabb], ids: &[u32], out: &mut Vec<u32>| {
            for (d, (fat, &id)) in fats.iter().zip(ids).enumerate() {
                if !fat.contains(&slots[id as usize].aabb()) {
                    out.push((first + d) as u32);
                }
            }
        };
        if !parallel {
            scan(0, &movers.fat, &movers.ids, escaped);
            return;
        }
        let parts: Vec<Vec<u32>> = (movers.fat.par_chunks(TASK_ENTRIES).enumerate())
            .zip(movers.ids.par_chunks(TASK_ENTRIES))
            .map(|((task, fats), ids)| {
                let mut out = Vec::new();
                scan(task * TASK_ENTRIES, fats, ids, &mut out);
                out
            })
            .collect();
        for part in parts {
            escaped.extend(part);
        }
    }

    /// Regrows the escaped movers' fat boxes and patches their candidates (see the
    /// module docs). Returns false, leaving the candidates for a full sweep to
    /// rebuild, when the candidates would pass `limit`.
    pub(super) fn patch_candidates(&mut self, limit: usize) -> bool {
        self.stats.escaped = self.escapes.escaped.len();
        let parallel =
            self.split(self.movers.len() >= PARALLEL_MIN_SWEEP) && rayon::current_num_threads() > 1;
        let ids = self.refatten_escaped();
        let escaping = &mut self.escapes.escaping;
        for &id in &ids {
            escaping[id as usize] = true;
        }
        let room = limit.saturating_sub(self.candidates.keys.len());
        let buffer = std::mem::take(&mut self.escapes.patch_pairs);
        let fresh = self.escaped_pairs(&ids, room, parallel, buffer);
        for &id in &ids {
            self.escapes.escaping[id as usize] = false;
        }
        self.escapes.patch_ids = ids;
        let Some(mut fresh) = fresh else {
            return false;
        };
        fresh.sort_unstable();
        // The escaped movers' old candidates stay: candidates may be a superset of the
        // fat-box pairs (the exact test drops the rest), and dropping them cost a pass
        // over the whole list. So the patch is one merge, in which a fresh pair that is
        // a candidate already is kept once. Measured on `stress --scene soup --bodies
        // 10000` (27,000 candidates): one escape cost 31 µs (1 thread) and 54 µs (2)
        // with the dropping pass.
        let candidates = &mut self.candidates;
        merge_sorted_dedup(&candidates.keys, &fresh, &mut candidates.spare);
        std::mem::swap(&mut candidates.keys, &mut candidates.spare);
        self.escapes.patch_pairs = fresh;
        true
    }

    /// New fat boxes for the escaped movers, which become stale; returns their ids,
    /// sorted (in the patch's kept list).
    fn refatten_escaped(&mut self) -> Vec<u32> {
        let slots = &self.store.slots;
        let (movers, escapes) = (&mut self.movers, &mut self.escapes);
        let mut ids = std::mem::take(&mut escapes.patch_ids);
        ids.clear();
        ids.extend(escapes.escaped.iter().map(|&d| movers.ids[d as usize]));
        ids.sort_unstable();
        for k in 0..escapes.escaped.len() {
            let d = escapes.escaped[k] as usize;
            let id = movers.ids[d];
            let fat = dynamic_fat(&slots[id as usize].aabb());
            movers.fat[d] = fat;
            escapes.refattened(id, fat);
        }
        ids
    }

    /// The candidate pairs of the re-fattened movers `ids` (sorted), unsorted, in
    /// `fresh` (emptied first); `None` when there are more than `room`. With
    /// `parallel`, in tasks of a few movers on the rayon pool (each mover's search
    /// reads memory the narrow phase has evicted: two threads wait for it side by
    /// side), joined in task order: the same list.
    fn escaped_pairs(
        &self,
        ids: &[u32],
        room: usize,
        parallel: bool,
        mut fresh: Vec<u64>,
    ) -> Option<Vec<u64>> {
        const TASK_MOVERS: usize = 4;
        fresh.clear();
        if !parallel || ids.len() <= TASK_MOVERS {
            return self
                .pairs_of_escaped(ids, room, &mut fresh)
                .then_some(fresh);
        }
        let parts: Vec<Option<Vec<u64>>> = ids
            .par_chunks(TASK_MOVERS)
            .map(|chunk| {
                let mut fresh = Vec::new();
                self.pairs_of_escaped(chunk, room, &mut fresh)
                    .then_some(fresh)
            })
            .collect();
        for part in parts {
            fresh.extend(part?);
            if fresh.len() > room {
                return None;
            }
        }
        Some(fresh)
    }

    /// Appends to `fresh` the candidate pairs of the re-fattened movers `ids` (see
    /// [`escaped_pairs`](Self::escaped_pairs)); false as soon as `fresh` holds more
    /// than `room`.
    fn pairs_of_escaped(&self, ids: &[u32], room: usize, fresh: &mut Vec<u64>) -> bool {
        let (a, b, c) = (
            self.order.axis,
            (self.order.axis + 1) % 3,
            (self.order.axis + 2) % 3,
        );
        let sorted = &self.order.sorted;
        let entries = &sorted[..sorted.len() - 1];
        let max_extent_a = self.order.max_extent_a;
        let (stale, escaping) = (&self.escapes.stale, &self.escapes.escaping);
        for &id in ids {
            let keep = |other: u32| other != id && (other > id || !escaping[other as usize]);
            let fat = *self.movers.fat_of(id);
            let bc = pack_bc(fat.min[b], fat.max[b], fat.min[c], fat.max[c]);
            let pr = probe(bc);
            // Any box reaching fat.min_a starts at most max_extent_a before it; the
            // slack covers the rounding of the extents (it only widens the scan).
            let slack = (fat.min[a].abs() + max_extent_a) * 1e-6;
            let lo = fat.min[a] - max_extent_a - slack;
            let reach = fat.max[a];
            // The box's cells in the last sweep's grid, when it has one and the box is
            // not big there.
            let cells = (self.order.grid)
                .map(|grid| grid.span(bc))
                .filter(|&(b0, b1, c0, c1)| (b1 - b0 + 1) * (c1 - c0 + 1) <= MAX_SPAN);
            // A sorted run of last sweep's boxes (positions `run` into `entries`, or all
            // of them), from its first box that may reach `fat.min_a` to its last that
            // starts before `fat.max_a`. In cell `at` of the grid a pair is kept only
            // if the lower corner of its overlap lies there (see `crate::grid`): the
            // larger of the two boxes' lower cells on each axis. False when `fresh`
            // holds more than `room`.
            let lower = cells.map_or([0, 0], |(b0, _, c0, _)| [b0, c0]);
            let mut scan = |run: Option<&[u32]>, at: Option<[u32; 2]>| {
                let found = |e: &Entry| {
                    e.max_a >= fat.min[a]
                        && e.bc.cmple(pr).all()
                        && at.is_none_or(|at| {
                            (e.cell[0] as u32).max(lower[0]) == at[0]
                                && (e.cell[1] as u32).max(lower[1]) == at[1]
                        })
                        && !stale[e.id as usize]
                        && keep(e.id)
                };
                let mut visit = |e: &Entry| {
                    if found(e) {
                        fresh.push(pack(id, e.id));
                    }
                    fresh.len() <= room
                };
                match run {
                    Some(run) => {
                        let start = run.partition_point(|&p| entries[p as usize].min_a < lo);
                        (run[start..].iter().map(|&p| &entries[p as usize]))
                            .take_while(|e| e.min_a <= reach)
                            .all(&mut visit)
                    }
                    // One binary search: the scan stops at the first entry past
                    // `fat.max_a`.
                    None => {
                        let start = entries.partition_point(|e| e.min_a < lo);
                        (entries[start..].iter())
                            .take_while(|e| e.min_a <= reach)
                            .all(&mut visit)
                    }
                }
            };
            let within_budget = match cells {
                // Each cell the box touches (its sorted run, less the sentinel), then
                // the big boxes, which no cell lists.
                Some((b0, b1, c0, c1)) => {
                    let buckets = &self.order.buckets;
                    let gb = self.order.grid.map_or(1, |grid| grid.dims.0);
                    let mut ok = true;
                    for cc in c0..c1 + 1 {
                        for cb in b0..b1 + 1 {
                            let k = (cc * gb + cb) as usize;
                            let run =
                                buckets.offsets[k] as usize..buckets.offsets[k + 1] as usize - 1;
                            ok = ok && scan(Some(&buckets.cells[run]), Some([cb, cc]));
                        }
                    }
                    ok && scan(Some(&buckets.big), None)
                }
                None => scan(None, None),
            };
            if !within_budget {
                return false;
            }
            let stale_boxes = self.escapes.stale_ids.iter().zip(&self.escapes.stale_fats);
            for (&other, other_fat) in stale_boxes {
                if keep(other) && fat.overlaps(other_fat) {
                    fresh.push(pack(id, other));
                    if fresh.len() > room {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Merge of two sorted lists, each without repeats, into `out` (cleared first): a key
/// in both is kept once. Made for a long `a` and a short `b`: the runs of `a` between
/// two keys of `b` are found by binary search and copied whole. (An element-wise
/// branch-free merge ran at about 2.6 ns a key here, latency-bound on the index
/// updates: 70 µs for 27,000 candidates.)
fn merge_sorted_dedup(a: &[u64], b: &[u64], out: &mut Vec<u64>) {
    out.clear();
    // With room for the next patches: growing a list of a full sweep's size costs
    // its page faults.
    let need = a.len() + b.len();
    if out.capacity() < need {
        out.reserve_exact(need + need / 4);
    }
    let mut rest = a;
    for &key in b {
        let run = rest.partition_point(|&k| k < key);
        out.extend_from_slice(&rest[..run]);
        rest = &rest[run..];
        if rest.first() == Some(&key) {
            rest = &rest[1..];
        }
        out.push(key);
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::merge_sorted_dedup;

    #[test]
    fn merge_keeps_shared_keys_once() {
        let mut out = vec![99];
        merge_sorted_dedup(&[1, 3, 5, 7], &[2, 3, 8], &mut out);
        assert_eq!(out, [1, 2, 3, 5, 7, 8]);
        merge_sorted_dedup(&[], &[4], &mut out);
        assert_eq!(out, [4]);
        merge_sorted_dedup(&[4, 6], &[4, 6], &mut out);
        assert_eq!(out, [4, 6]);
        merge_sorted_dedup(&[4, 6], &[], &mut out);
        assert_eq!(out, [4, 6]);
        merge_sorted_dedup(&[1, 2], &[0, 9], &mut out);
        assert_eq!(out, [0, 1, 2, 9]);
    }
}
