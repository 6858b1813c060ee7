//! Proxies: an AABB with a stable id and a kind, kept in slots with a free list.
//!
//! A [`ProxyId`] is the index of its slot. Removing a proxy puts the slot on a free
//! list and the next insert reuses it (last freed, first reused), so ids stay small and
//! dense and every operation is O(1). Between the removal and the reuse the id is
//! unknown: `update`, `remove` and `aabb` answer [`BroadPhaseError::UnknownProxy`].

use crate::BroadPhaseError;
use sepax_geometry::Aabb;

/// The stable handle of a proxy. Pairs are reported as `(a, b)` with `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId(pub u32);

/// Static proxies never move (moving one is allowed but rebuilds the static
/// structures); pairs of two static proxies are never produced nor examined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyKind {
    /// Does not move; never paired with another static proxy.
    Static,
    /// Moves every frame; paired with every proxy it overlaps.
    Dynamic,
}

/// One slot of the store.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub aabb: Aabb,
    pub kind: ProxyKind,
    pub alive: bool,
}

/// Slots plus a free list: the id bookkeeping shared by every broad phase here.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxyStore {
    pub slots: Vec<Slot>,
    free: Vec<u32>,
    alive: usize,
}

impl ProxyStore {
    /// Validates the box, then takes a free slot or a new one.
    pub fn insert(&mut self, aabb: Aabb, kind: ProxyKind) -> Result<ProxyId, BroadPhaseError> {
        aabb.validate()?;
        let slot = Slot {
            aabb: normalize_zeros(aabb),
            kind,
            alive: true,
        };
        let id = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = slot;
                i
            }
            None => {
                let i =
                    u32::try_from(self.slots.len()).map_err(|_| BroadPhaseError::TooManyProxies)?;
                self.slots.push(slot);
                i
            }
        };
        self.alive += 1;
        Ok(ProxyId(id))
    }

    /// The live slot of `id`, or `UnknownProxy`.
    pub fn get(&self, id: ProxyId) -> Result<&Slot, BroadPhaseError> {
        match self.slots.get(id.0 as usize) {
            Some(s) if s.alive => Ok(s),
            _ => Err(BroadPhaseError::UnknownProxy(id)),
        }
    }

    /// Validates the box and stores it; returns the kind of the proxy.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<ProxyKind, BroadPhaseError> {
        self.get(id)?;
        aabb.validate()?;
        let slot = &mut self.slots[id.0 as usize];
        slot.aabb = normalize_zeros(aabb);
        Ok(slot.kind)
    }

    /// Frees the slot; returns the kind the proxy had.
    pub fn remove(&mut self, id: ProxyId) -> Result<ProxyKind, BroadPhaseError> {
        self.get(id)?;
        let slot = &mut self.slots[id.0 as usize];
        slot.alive = false;
        self.free.push(id.0);
        self.alive -= 1;
        Ok(slot.kind)
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.alive
    }
}

/// `-0.0` becomes `+0.0`, so that the bit-pattern sort keys agree with `<=` on floats.
fn normalize_zeros(aabb: Aabb) -> Aabb {
    Aabb::new(aabb.min + 0.0, aabb.max + 0.0)
}
