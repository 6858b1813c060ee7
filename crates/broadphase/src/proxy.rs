//! Proxies: an AABB and a kind under the caller's own key.
//!
//! A [`ProxyId`] is chosen by the caller, typically the index of the body the box
//! belongs to, and pairs come back in those ids: no id map on either side (Box2D's
//! proxies carry their shape id the same way). The store is an array indexed by the
//! id, so ids should be small and dense (memory is O(largest id)); `u32::MAX` is
//! reserved. An id is free until inserted and again after its removal; `update`,
//! `remove` and `aabb` on a free id answer [`BroadPhaseError::UnknownProxy`], and
//! inserting a live id answers [`BroadPhaseError::ProxyExists`].

use crate::BroadPhaseError;
use glam::Vec3;
use rayon::prelude::*;
use sepax_geometry::Aabb;

/// Ids per part of [`ProxyStore::update_sorted`]: a few microseconds of work each, so
/// that the rayon pool's cost of a task stays small beside it.
pub(crate) const UPDATE_PART: usize = 2048;

/// The caller's key of a proxy (a body index, say). Pairs are reported as `(a, b)`
/// with `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId(pub u32);

/// How a proxy moves, and so which proxies it is paired with: a pair needs at least
/// one [`Dynamic`](ProxyKind::Dynamic) proxy ([`ProxyKind::pairs_with`]).
///
/// | | Static | Kinematic | Dynamic |
/// |---|---|---|---|
/// | **Static** | never | never | paired |
/// | **Kinematic** | never | never | paired |
/// | **Dynamic** | paired | paired | paired |
///
/// Pairs that the rule forbids are never produced, and static–static and
/// kinematic–static pairs are not even looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyKind {
    /// Does not move (moving one is allowed but rebuilds the static BVH). Paired with
    /// dynamic proxies only.
    Static,
    /// Expected to move every frame; paired with every proxy it overlaps.
    Dynamic,
    /// Moved by its owner every frame, like a dynamic proxy (it sits among the dynamic
    /// proxies of the sweep), but paired with dynamic proxies only: never with a
    /// static or another kinematic proxy.
    Kinematic,
}

impl ProxyKind {
    /// True when proxies of these two kinds may form a pair: at least one is dynamic.
    /// (Symmetric.)
    ///
    /// ```
    /// use sepax_broadphase::ProxyKind::{Dynamic, Kinematic, Static};
    /// assert!(Kinematic.pairs_with(Dynamic) && Static.pairs_with(Dynamic));
    /// assert!(!Kinematic.pairs_with(Static) && !Kinematic.pairs_with(Kinematic));
    /// ```
    #[inline]
    pub fn pairs_with(self, other: ProxyKind) -> bool {
        self == ProxyKind::Dynamic || other == ProxyKind::Dynamic
    }

    /// True for the kinds that move every frame (dynamic and kinematic): they take part
    /// in the sweep; statics live in the static BVH.
    #[inline]
    pub fn moves(self) -> bool {
        self != ProxyKind::Static
    }
}

/// One slot of the store.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub aabb: Aabb,
    pub kind: ProxyKind,
    pub alive: bool,
}

impl Slot {
    const FREE: Slot = Slot {
        aabb: Aabb {
            min: Vec3::ZERO,
            max: Vec3::ZERO,
        },
        kind: ProxyKind::Static,
        alive: false,
    };
}

/// Slots indexed by the caller's ids: the bookkeeping shared by every broad phase
/// here.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxyStore {
    pub slots: Vec<Slot>,
    alive: usize,
}

impl ProxyStore {
    /// Validates the box, then fills the slot of `id` (growing the array as needed).
    pub fn insert(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        kind: ProxyKind,
    ) -> Result<(), BroadPhaseError> {
        aabb.validate()?;
        if id.0 == u32::MAX {
            return Err(BroadPhaseError::TooManyProxies);
        }
        let i = id.0 as usize;
        if self.slots.len() <= i {
            self.slots.resize(i + 1, Slot::FREE);
        }
        if self.slots[i].alive {
            return Err(BroadPhaseError::ProxyExists(id));
        }
        self.slots[i] = Slot {
            aabb: normalize_zeros(aabb),
            kind,
            alive: true,
        };
        self.alive += 1;
        Ok(())
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

    /// [`update`](Self::update) of `ids[k]` with `aabb_of(k)` for every `k`; `ids` must
    /// be strictly increasing. Checked first (nothing changes on an error, which is the
    /// first failing entry's, as `update` gives it), then written in parts of
    /// [`UPDATE_PART`] ids, on the rayon pool when there is more than one. Increasing ids
    /// let the slots be cut into disjoint ranges, one per part, so each part writes only
    /// its own. Returns whether a static proxy was among them.
    pub fn update_sorted(
        &mut self,
        ids: &[ProxyId],
        aabb_of: &(impl Fn(usize) -> Aabb + Sync),
    ) -> Result<bool, BroadPhaseError> {
        debug_assert!(ids.windows(2).all(|w| w[0].0 < w[1].0));
        // Check: per part, its first error (or whether it holds a static proxy).
        let check = |(part, chunk): (usize, &[ProxyId])| -> Result<bool, BroadPhaseError> {
            let mut any_static = false;
            for (k, &id) in chunk.iter().enumerate() {
                let slot = self.get(id)?;
                aabb_of(part * UPDATE_PART + k).validate()?;
                any_static |= slot.kind == ProxyKind::Static;
            }
            Ok(any_static)
        };
        let checked: Vec<Result<bool, BroadPhaseError>> = if ids.len() > UPDATE_PART {
            ids.par_chunks(UPDATE_PART).enumerate().map(check).collect()
        } else {
            ids.chunks(UPDATE_PART).enumerate().map(check).collect()
        };
        let mut any_static = false;
        for result in checked {
            any_static |= result?;
        }
        // Write: part `p` owns the slots from the end of part `p − 1`'s last id to its
        // own last id, which hold all of its ids.
        let mut parts = Vec::with_capacity(ids.len().div_ceil(UPDATE_PART));
        let (mut rest, mut offset) = (&mut self.slots[..], 0usize);
        for (part, chunk) in ids.chunks(UPDATE_PART).enumerate() {
            let end = chunk[chunk.len() - 1].0 as usize + 1;
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(end - offset);
            parts.push((part, chunk, head, offset));
            (rest, offset) = (tail, end);
        }
        let write = |(part, chunk, slots, offset): (usize, &[ProxyId], &mut [Slot], usize)| {
            for (k, &id) in chunk.iter().enumerate() {
                slots[id.0 as usize - offset].aabb =
                    normalize_zeros(aabb_of(part * UPDATE_PART + k));
            }
        };
        if ids.len() > UPDATE_PART {
            parts.into_par_iter().for_each(write);
        } else {
            parts.into_iter().for_each(write);
        }
        Ok(any_static)
    }

    /// Frees the slot; returns the kind the proxy had.
    pub fn remove(&mut self, id: ProxyId) -> Result<ProxyKind, BroadPhaseError> {
        self.get(id)?;
        let slot = &mut self.slots[id.0 as usize];
        slot.alive = false;
        self.alive -= 1;
        Ok(slot.kind)
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.alive
    }

    /// One more than the largest id ever inserted: every id is below it.
    pub fn id_bound(&self) -> u32 {
        self.slots.len() as u32
    }
}

/// `-0.0` becomes `+0.0`, so that the bit-pattern sort keys agree with `<=` on floats.
fn normalize_zeros(aabb: Aabb) -> Aabb {
    Aabb::new(aabb.min + 0.0, aabb.max + 0.0)
}
