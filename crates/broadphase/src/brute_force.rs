//! The oracle: every pair of live proxies tested directly, O(n²) (or O(d · n) with d
//! dynamic proxies, when they are few).
//!
//! Same API as [`SweepAndPrune`](crate::SweepAndPrune), so a test can drive both with
//! the same calls and compare the results.

use crate::pairs::{PairFrame, pack};
use crate::proxy::{ProxyStore, Slot};
use crate::{BroadPhaseError, ProxyId, ProxyKind};
use rayon::prelude::*;
use sepax_geometry::Aabb;

/// All-pairs broad phase: closed intervals (touching boxes pair), pairs that
/// [`ProxyKind::pairs_with`] forbids skipped. Slow and obviously correct; the
/// reference for every test.
///
/// ```
/// use sepax_broadphase::{BruteForce, ProxyId, ProxyKind};
/// use sepax_geometry::Aabb;
/// use glam::Vec3;
///
/// let mut bf = BruteForce::new();
/// let (a, b) = (ProxyId(3), ProxyId(7));
/// bf.insert(a, Aabb::new(Vec3::ZERO, Vec3::ONE), ProxyKind::Dynamic).unwrap();
/// bf.insert(b, Aabb::new(Vec3::ONE, Vec3::splat(2.0)), ProxyKind::Static).unwrap();
/// bf.update_pairs();
/// assert_eq!(bf.pairs(), &[(a, b)]); // touching at a corner
/// ```
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    store: ProxyStore,
    frame: PairFrame,
}

impl BruteForce {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a proxy under the caller's id. Errors: `NonFiniteAabb`, `InvertedAabb`,
    /// `ProxyExists`, `TooManyProxies`.
    pub fn insert(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        kind: ProxyKind,
    ) -> Result<(), BroadPhaseError> {
        self.store.insert(id, aabb, kind)
    }

    /// Moves a proxy. Errors: `UnknownProxy`, `NonFiniteAabb`, `InvertedAabb`
    /// (the stored box is left unchanged on error).
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        self.store.update(id, aabb).map(|_| ())
    }

    /// Removes a proxy. Errors: `UnknownProxy`.
    pub fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        self.store.remove(id).map(|_| ())
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

    /// Tests every pair of live proxies that [`ProxyKind::pairs_with`] allows with
    /// [`Aabb::overlaps`] (closed intervals).
    ///
    /// Two loops, the cheaper one for the scene: every pair `i < j` (n²/2 tests), or,
    /// when dynamic proxies are few, every dynamic proxy against every other proxy
    /// (d · n tests: a world of a million statics and a hundred movers). The second
    /// finds every allowed pair since each has a dynamic member; a pair of two dynamic
    /// proxies is kept from its smaller id only. Both give the same sorted pairs.
    pub fn update_pairs(&mut self) {
        let slots = &self.store.slots;
        let dynamic: Vec<usize> = (0..slots.len())
            .filter(|&i| slots[i].alive() && slots[i].kind() == ProxyKind::Dynamic)
            .collect();
        let n = self.store.len();
        let mut keys = if dynamic.len().saturating_mul(2) < n {
            dynamic_against_all(slots, &dynamic)
        } else {
            all_pairs(slots)
        };
        self.frame.publish(&mut keys);
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
}

/// Every pair `i < j` of live proxies that may pair and overlap, in `(i, j)` order
/// (so already sorted).
fn all_pairs(slots: &[Slot]) -> Vec<u64> {
    let mut keys = Vec::new();
    for (i, a) in slots.iter().enumerate() {
        if !a.alive() {
            continue;
        }
        for (j, b) in slots.iter().enumerate().skip(i + 1) {
            if b.alive() && a.kind().pairs_with(b.kind()) && a.aabb().overlaps(&b.aabb()) {
                keys.push(pack(i as u32, j as u32));
            }
        }
    }
    keys
}

/// Every overlapping pair of a dynamic proxy (ids in `dynamic`) with any other live
/// proxy, once each (a dynamic–dynamic pair from its smaller id), sorted. One task
/// per dynamic proxy on the rayon pool; the keys are sorted after, so the result does
/// not depend on the thread count.
fn dynamic_against_all(slots: &[Slot], dynamic: &[usize]) -> Vec<u64> {
    let found: Vec<Vec<u64>> = dynamic
        .par_iter()
        .map(|&d| {
            let a = &slots[d];
            slots
                .iter()
                .enumerate()
                .filter(|&(j, b)| {
                    let twice = b.kind() == ProxyKind::Dynamic && j < d;
                    j != d && b.alive() && !twice && a.aabb().overlaps(&b.aabb())
                })
                .map(|(j, _)| pack(d as u32, j as u32))
                .collect()
        })
        .collect();
    let mut keys: Vec<u64> = found.into_iter().flatten().collect();
    keys.sort_unstable();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use sepax_geometry::rng::Rng;

    /// The two loops of `update_pairs` find the same pairs, on every mix of kinds.
    #[test]
    fn both_loops_agree() {
        let mut rng = Rng::new(5);
        let kinds = [ProxyKind::Static, ProxyKind::Dynamic, ProxyKind::Kinematic];
        let mut store = ProxyStore::default();
        for i in 0..600u32 {
            let min = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
            let aabb = Aabb::new(min, min + rng.vec3(Vec3::splat(0.1), Vec3::splat(3.0)));
            store.insert(ProxyId(i), aabb, kinds[rng.below(3)]).unwrap();
        }
        for i in (0..600).step_by(7) {
            store.remove(ProxyId(i)).unwrap();
        }
        let slots = &store.slots;
        let dynamic: Vec<usize> = (0..slots.len())
            .filter(|&i| slots[i].alive() && slots[i].kind() == ProxyKind::Dynamic)
            .collect();
        let all = all_pairs(slots);
        assert!(all.len() > 100);
        assert_eq!(dynamic_against_all(slots, &dynamic), all);
    }
}
