//! The oracle: every pair of live proxies tested directly, O(n²).
//!
//! Same API as [`SweepAndPrune`](crate::SweepAndPrune), so a test can drive both with
//! the same calls and compare the results.

use crate::pairs::{PairFrame, pack};
use crate::proxy::ProxyStore;
use crate::{BroadPhaseError, ProxyId, ProxyKind};
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
    pub fn update_pairs(&mut self) {
        let slots = &self.store.slots;
        let mut keys = Vec::new();
        for (i, a) in slots.iter().enumerate() {
            if !a.alive {
                continue;
            }
            for (j, b) in slots.iter().enumerate().skip(i + 1) {
                if b.alive && a.kind.pairs_with(b.kind) && a.aabb.overlaps(&b.aabb) {
                    keys.push(pack(i as u32, j as u32));
                }
            }
        }
        // Generated in (i, j) order with i < j: already sorted.
        self.frame.publish(&keys);
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
}
