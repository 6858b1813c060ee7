//! Scenes and a harness that drives SweepAndPrune and BruteForce with the same calls.
#![allow(dead_code)]

use glam::Vec3;
use sepax_broadphase::{BruteForce, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::{Aabb, rng::Rng};

/// `n` boxes with centres uniform in a cube of half side `half` and sizes in `[lo, hi]`.
pub fn random_boxes(rng: &mut Rng, n: usize, half: f32, lo: f32, hi: f32) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c = rng.vec3(Vec3::splat(-half), Vec3::splat(half));
            let s = rng.vec3(Vec3::splat(lo), Vec3::splat(hi));
            Aabb::new(c - 0.5 * s, c + 0.5 * s)
        })
        .collect()
}

/// Both broad phases, fed identically. Ids are handed out as a caller with a slot
/// array would: the last removed id first, else the next new one.
pub struct Pair {
    pub sap: SweepAndPrune,
    pub oracle: BruteForce,
    pub ids: Vec<ProxyId>,
    kinds: Vec<ProxyKind>,
    free: Vec<ProxyId>,
}

impl Pair {
    pub fn new() -> Self {
        Pair {
            sap: SweepAndPrune::new(),
            oracle: BruteForce::new(),
            ids: Vec::new(),
            kinds: Vec::new(),
            free: Vec::new(),
        }
    }

    pub fn insert(&mut self, aabb: Aabb, kind: ProxyKind) -> ProxyId {
        let a = self.free.pop().unwrap_or(ProxyId(self.kinds.len() as u32));
        self.sap.insert(a, aabb, kind).unwrap();
        self.oracle.insert(a, aabb, kind).unwrap();
        self.ids.push(a);
        let i = a.0 as usize;
        if self.kinds.len() <= i {
            self.kinds.resize(i + 1, kind);
        }
        self.kinds[i] = kind;
        a
    }

    pub fn update(&mut self, id: ProxyId, aabb: Aabb) {
        self.sap.update(id, aabb).unwrap();
        self.oracle.update(id, aabb).unwrap();
    }

    pub fn oracle_kind(&self, id: ProxyId) -> ProxyKind {
        self.kinds[id.0 as usize]
    }

    pub fn remove(&mut self, id: ProxyId) {
        self.sap.remove(id).unwrap();
        self.oracle.remove(id).unwrap();
        self.ids.retain(|&x| x != id);
        self.free.push(id);
    }

    /// Runs a frame on both and asserts equal pair lists and diffs. Returns the pair count.
    pub fn check(&mut self, what: &str) -> usize {
        self.sap.update_pairs();
        self.oracle.update_pairs();
        assert_sorted_unique(self.sap.pairs(), what);
        assert_eq!(
            self.sap.pairs(),
            self.oracle.pairs(),
            "pairs differ: {what}"
        );
        assert_eq!(
            self.sap.pairs_added(),
            self.oracle.pairs_added(),
            "added differ: {what}"
        );
        assert_eq!(
            self.sap.pairs_removed(),
            self.oracle.pairs_removed(),
            "removed differ: {what}"
        );
        self.sap.pairs().len()
    }
}

pub fn assert_sorted_unique(pairs: &[(ProxyId, ProxyId)], what: &str) {
    for p in pairs {
        assert!(p.0 < p.1, "pair not ordered a < b: {p:?} ({what})");
    }
    for w in pairs.windows(2) {
        assert!(w[0] < w[1], "pairs not sorted or duplicated ({what})");
    }
}

/// Inserts every box with the given kind chooser and checks one frame.
pub fn check_scene(boxes: &[Aabb], kind: impl Fn(usize) -> ProxyKind, what: &str) -> usize {
    let mut pair = Pair::new();
    for (i, b) in boxes.iter().enumerate() {
        pair.insert(*b, kind(i));
    }
    pair.check(what)
}
