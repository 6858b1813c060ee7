//! Patching the candidate cache for the few movers that left their fat box.
//!
//! A mover whose box left its fat box `F` gets a new fat box; its candidates are
//! dropped and the fat boxes overlapping the new one are found:
//!
//! * among the boxes of the last full sweep (`sorted`, by `min_a`): those with
//!   `min_a` in `[F.min_a − max extent, F.max_a]`, found by binary search, tested with
//!   the 4-wide compare; entries of movers re-fattened since (*stale*) are skipped;
//! * among the re-fattened ones (few): every one, directly.
//!
//! A pair of two movers escaping in the same frame is added once, from the smaller id.
//! Too many escapes (in one frame, or since the last full sweep) make a full sweep
//! cheaper; `update_pairs` decides (see [`super::MAX_PATCHED_ESCAPES`]).

use super::SweepAndPrune;
use super::movers::dynamic_fat;
use crate::pairs::pack;
use crate::sweep::{pack_bc, probe};

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
    /// Per id: the mover is among this frame's escapes (set while they are patched,
    /// cleared after), so that dropping their candidates is one lookup per candidate.
    pub escaping: Vec<bool>,
}

impl Escapes {
    /// Makes room for ids below `bound`.
    pub fn grow_ids(&mut self, bound: usize) {
        if self.stale.len() < bound {
            self.stale.resize(bound, false);
            self.escaping.resize(bound, false);
        }
    }

    /// After a full sweep every entry is fresh again.
    pub fn clear_stale(&mut self) {
        for &id in &self.stale_ids {
            self.stale[id as usize] = false;
        }
        self.stale_ids.clear();
    }
}

impl SweepAndPrune {
    /// Dense indices of the movers whose box left its fat box, into `escapes.escaped`.
    pub(super) fn find_escaped(&mut self) {
        let escaped = &mut self.escapes.escaped;
        escaped.clear();
        let slots = &self.store.slots;
        let movers = &self.movers;
        for (d, (fat, &id)) in movers.fat.iter().zip(&movers.ids).enumerate() {
            if !fat.contains(&slots[id as usize].aabb()) {
                escaped.push(d as u32);
            }
        }
    }

    /// Regrows the escaped movers' fat boxes and patches their candidates (see the
    /// module docs). Returns false, leaving the candidates for a full sweep to
    /// rebuild, when the candidates would pass `limit`.
    pub(super) fn patch_candidates(&mut self, limit: usize) -> bool {
        self.stats.escaped = self.escapes.escaped.len();
        let ids = self.refatten_escaped();
        let escaping = &mut self.escapes.escaping;
        for &id in &ids {
            escaping[id as usize] = true;
        }
        // Both flags read and or-ed: no branch to mispredict per candidate.
        let touches = |k: u64| escaping[(k >> 32) as usize] | escaping[k as u32 as usize];
        self.candidates.keys.retain(|&k| !touches(k));
        let room = limit.saturating_sub(self.candidates.keys.len());
        let fresh = self.escaped_pairs(&ids, room);
        for &id in &ids {
            self.escapes.escaping[id as usize] = false;
        }
        let Some(mut fresh) = fresh else {
            return false;
        };
        fresh.sort_unstable();
        let old = std::mem::take(&mut self.candidates.keys);
        self.candidates.keys = merge_sorted(&old, &fresh);
        true
    }

    /// New fat boxes for the escaped movers, which become stale; returns their ids,
    /// sorted.
    fn refatten_escaped(&mut self) -> Vec<u32> {
        let slots = &self.store.slots;
        let (movers, escapes) = (&mut self.movers, &mut self.escapes);
        let mut ids: Vec<u32> = escapes
            .escaped
            .iter()
            .map(|&d| movers.ids[d as usize])
            .collect();
        ids.sort_unstable();
        for &d in &escapes.escaped {
            let id = movers.ids[d as usize];
            movers.fat[d as usize] = dynamic_fat(&slots[id as usize].aabb());
            if !escapes.stale[id as usize] {
                escapes.stale[id as usize] = true;
                escapes.stale_ids.push(id);
            }
        }
        ids
    }

    /// The candidate pairs of the re-fattened movers `ids` (sorted), unsorted; `None`
    /// when there are more than `room`.
    fn escaped_pairs(&self, ids: &[u32], room: usize) -> Option<Vec<u64>> {
        let (a, b, c) = (
            self.order.axis,
            (self.order.axis + 1) % 3,
            (self.order.axis + 2) % 3,
        );
        let sorted = &self.order.sorted;
        let entries = &sorted[..sorted.len() - 1];
        let max_extent_a = self.order.max_extent_a;
        let (stale, escaping) = (&self.escapes.stale, &self.escapes.escaping);
        let mut fresh = Vec::new();
        for &id in ids {
            let keep = |other: u32| other != id && (other > id || !escaping[other as usize]);
            let fat = *self.movers.fat_of(id);
            let pr = probe(pack_bc(fat.min[b], fat.max[b], fat.min[c], fat.max[c]));
            // Any box reaching fat.min_a starts at most max_extent_a before it; the
            // slack covers the rounding of the extents (it only widens the scan).
            let slack = (fat.min[a].abs() + max_extent_a) * 1e-6;
            let lo = fat.min[a] - max_extent_a - slack;
            let start = entries.partition_point(|e| e.min_a < lo);
            let end = entries.partition_point(|e| e.min_a <= fat.max[a]);
            for e in &entries[start.min(end)..end] {
                if e.max_a >= fat.min[a]
                    && e.bc.cmple(pr).all()
                    && !stale[e.id as usize]
                    && keep(e.id)
                {
                    fresh.push(pack(id, e.id));
                    if fresh.len() > room {
                        return None;
                    }
                }
            }
            for &other in &self.escapes.stale_ids {
                if keep(other) && fat.overlaps(self.movers.fat_of(other)) {
                    fresh.push(pack(id, other));
                    if fresh.len() > room {
                        return None;
                    }
                }
            }
        }
        Some(fresh)
    }
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
