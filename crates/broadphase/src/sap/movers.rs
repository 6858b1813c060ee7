//! The moving proxies (dynamic and kinematic), densely: what every frame walks.
//!
//! A mover has a dense index into parallel arrays: its id, its dynamic fat box (for
//! the candidate cache) and its cached static candidates. Removal swaps the last
//! mover into the hole, so the arrays stay dense and O(1) to update.

use super::DYNAMIC_FAT_MARGIN;
use super::statics::StaticCandidates;
use crate::ProxyKind;
use crate::fat::fat_box;
use sepax_geometry::Aabb;

#[derive(Debug, Default)]
pub(super) struct Movers {
    /// Per id: the dense index of a mover, `u32::MAX` for other ids.
    pub index: Vec<u32>,
    /// Ids, parallel to the dense arrays: a compact copy of `statics[d].id` for the
    /// passes that only need the id (the static pass reads the id beside its cache;
    /// reading it from here instead cost 1% of the broad phase on the pile scene).
    pub ids: Vec<u32>,
    /// Dynamic fat boxes (see [`dynamic_fat`]), parallel.
    pub fat: Vec<Aabb>,
    /// Cached static candidates, parallel.
    pub statics: Vec<StaticCandidates>,
    /// Live kinematic proxies; while there are none the exact test skips the kind rule.
    pub kinematic: usize,
}

impl Movers {
    /// Number of movers.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Makes room for ids below `bound`.
    pub fn grow_ids(&mut self, bound: usize) {
        if self.index.len() < bound {
            self.index.resize(bound, u32::MAX);
        }
    }

    pub fn push(&mut self, id: u32, aabb: &Aabb, kind: ProxyKind) {
        self.index[id as usize] = self.ids.len() as u32;
        self.ids.push(id);
        self.fat.push(dynamic_fat(aabb));
        self.statics.push(StaticCandidates::new(id));
        self.kinematic += (kind == ProxyKind::Kinematic) as usize;
    }

    pub fn swap_remove(&mut self, id: u32, kind: ProxyKind) {
        let d = self.index[id as usize] as usize;
        self.ids.swap_remove(d);
        self.fat.swap_remove(d);
        self.statics.swap_remove(d);
        if let Some(&moved) = self.ids.get(d) {
            self.index[moved as usize] = d as u32;
        }
        self.index[id as usize] = u32::MAX;
        self.kinematic -= (kind == ProxyKind::Kinematic) as usize;
    }

    /// The dynamic fat box of mover `id`.
    pub fn fat_of(&self, id: u32) -> &Aabb {
        &self.fat[self.index[id as usize] as usize]
    }
}

/// The fat box of a dynamic proxy for the dynamic–dynamic candidates.
pub(super) fn dynamic_fat(aabb: &Aabb) -> Aabb {
    fat_box(aabb, DYNAMIC_FAT_MARGIN)
}
