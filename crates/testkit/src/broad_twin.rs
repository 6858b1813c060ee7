//! The broad phase beside its oracle: a harness that drives
//! [`SweepAndPrune`] and [`BruteForce`] with the same calls and asserts, frame by frame,
//! the same sorted pairs and the same added/removed diffs.

use sepax_broadphase::{BruteForce, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::Aabb;

/// A [`SweepAndPrune`] and its oracle [`BruteForce`], fed the same calls: every frame
/// must give the same pairs and the same diffs.
pub struct BroadPhaseTwin {
    /// The fast broad phase.
    pub sap: SweepAndPrune,
    /// Its brute-force twin.
    pub oracle: BruteForce,
    /// Ids of the live proxies, in insertion order.
    pub ids: Vec<ProxyId>,
    kinds: Vec<ProxyKind>,
    /// Ids free for reuse, last removed on top.
    free: Vec<ProxyId>,
}

impl Default for BroadPhaseTwin {
    fn default() -> Self {
        Self::new()
    }
}

impl BroadPhaseTwin {
    /// Two empty broad phases.
    pub fn new() -> Self {
        BroadPhaseTwin {
            sap: SweepAndPrune::new(),
            oracle: BruteForce::new(),
            ids: Vec::new(),
            kinds: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Inserts a box into both under the same id, handed out as a caller with a slot
    /// array would: the last removed id first, else the next new one.
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

    /// Moves a proxy in both.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) {
        self.sap.update(id, aabb).unwrap();
        self.oracle.update(id, aabb).unwrap();
    }

    /// The kind a proxy was inserted with.
    pub fn oracle_kind(&self, id: ProxyId) -> ProxyKind {
        self.kinds[id.0 as usize]
    }

    /// Removes a proxy from both.
    pub fn remove(&mut self, id: ProxyId) {
        self.sap.remove(id).unwrap();
        self.oracle.remove(id).unwrap();
        self.ids.retain(|&x| x != id);
        self.free.push(id);
    }

    /// Runs a frame on both and asserts equal pair lists and diffs. Returns the pair count.
    pub fn check(&mut self, what: &str) -> usize {
        let previous = self.sap.pairs().to_vec();
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
        // The diff's indices: each added pair where it is now, each removed one where
        // it was; the oracle's the same.
        let (added_at, removed_at) = (self.sap.pairs_added_at(), self.sap.pairs_removed_at());
        assert_eq!(added_at.len(), self.sap.pairs_added().len(), "{what}");
        assert_eq!(removed_at.len(), self.sap.pairs_removed().len(), "{what}");
        for (&j, pair) in added_at.iter().zip(self.sap.pairs_added()) {
            assert_eq!(
                self.sap.pairs().get(j as usize),
                Some(pair),
                "added at: {what}"
            );
        }
        for (&i, pair) in removed_at.iter().zip(self.sap.pairs_removed()) {
            assert_eq!(previous.get(i as usize), Some(pair), "removed at: {what}");
        }
        assert_eq!(added_at, self.oracle.pairs_added_at(), "added at: {what}");
        assert_eq!(
            removed_at,
            self.oracle.pairs_removed_at(),
            "removed at: {what}"
        );
        self.sap.pairs().len()
    }
}

/// Panics unless every pair is `(a, b)` with `a < b` and the list is strictly sorted.
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
    let mut pair = BroadPhaseTwin::new();
    for (i, b) in boxes.iter().enumerate() {
        pair.insert(*b, kind(i));
    }
    pair.check(what)
}
