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
use glam::Vec4;
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

/// One slot of the store: the box as two 16-byte rows, `lo = (min, kind)` and
/// `hi = (max, alive)`, so that the overlap test of two slots ([`Slot::overlaps`]) is
/// four aligned loads and two 4-wide compares, and a slot never straddles a cache
/// line (32 bytes, aligned). The fourth lanes are codes, never compared as boxes:
/// the kind as 0, 1 or 2 ([`Slot::kind`]), the liveness as 0 or 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    lo: Vec4,
    hi: Vec4,
}

impl Slot {
    const FREE: Slot = Slot {
        lo: Vec4::ZERO,
        hi: Vec4::ZERO,
    };

    /// A live slot.
    fn live(aabb: Aabb, kind: ProxyKind) -> Slot {
        let code = match kind {
            ProxyKind::Static => 0.0,
            ProxyKind::Dynamic => 1.0,
            ProxyKind::Kinematic => 2.0,
        };
        Slot {
            lo: aabb.min.extend(code),
            hi: aabb.max.extend(1.0),
        }
    }

    /// The box, bit for bit as stored.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb {
            min: self.lo.truncate(),
            max: self.hi.truncate(),
        }
    }

    #[inline]
    pub fn kind(&self) -> ProxyKind {
        if self.lo.w == 1.0 {
            ProxyKind::Dynamic
        } else if self.lo.w == 2.0 {
            ProxyKind::Kinematic
        } else {
            ProxyKind::Static
        }
    }

    #[inline]
    pub fn alive(&self) -> bool {
        self.hi.w != 0.0
    }

    /// Marks the slot free, keeping its box and kind.
    fn free(&mut self) {
        self.hi.w = 0.0;
    }

    /// Replaces the box, keeping the kind and the liveness.
    #[inline]
    fn set_aabb(&mut self, aabb: Aabb) {
        // Lane by lane: a rebuilt row would shuffle the old fourth lane in.
        (self.lo.x, self.lo.y, self.lo.z) = (aabb.min.x, aabb.min.y, aabb.min.z);
        (self.hi.x, self.hi.y, self.hi.z) = (aabb.max.x, aabb.max.y, aabb.max.z);
    }

    /// `Aabb::overlaps` of the two boxes (closed boxes: touching counts), without a
    /// short circuit: `min_a ≤ max_b` and `min_b ≤ max_a` on the three axes, as two
    /// 4-wide compares whose fourth lanes are masked off.
    #[inline]
    pub fn overlaps(&self, other: &Slot) -> bool {
        (self.lo.cmple(other.hi) & other.lo.cmple(self.hi)).bitmask() & 0b111 == 0b111
    }
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
        if self.slots[i].alive() {
            return Err(BroadPhaseError::ProxyExists(id));
        }
        self.slots[i] = Slot::live(normalize_zeros(aabb), kind);
        self.alive += 1;
        Ok(())
    }

    /// The live slot of `id`, or `UnknownProxy`.
    pub fn get(&self, id: ProxyId) -> Result<&Slot, BroadPhaseError> {
        match self.slots.get(id.0 as usize) {
            Some(s) if s.alive() => Ok(s),
            _ => Err(BroadPhaseError::UnknownProxy(id)),
        }
    }

    /// Validates the box and stores it; returns the kind of the proxy.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<ProxyKind, BroadPhaseError> {
        self.get(id)?;
        aabb.validate()?;
        let slot = &mut self.slots[id.0 as usize];
        slot.set_aabb(normalize_zeros(aabb));
        Ok(slot.kind())
    }

    /// [`update`](Self::update) of every `entry(k) = (id, box)`, `k < count`, when the
    /// ids strictly increase with `k`: checked first, in parts of [`UPDATE_PART`]
    /// entries on the rayon pool when there is more than one (each part checks its own
    /// order, ids and boxes; the joins between parts are checked after), then written
    /// in the same parts. Increasing ids let the slots be cut into disjoint ranges, one
    /// per part, so each part writes only its own. Nothing changes unless every entry
    /// passes. `Ok(None)`: the ids do not increase (nothing done); `Ok(Some(s))`: done,
    /// `s` whether a static proxy was among them; `Err`: the first failing entry's
    /// error, as `update` gives it. Without `parallel` the parts run one after the
    /// other on the calling thread (the same outcome).
    pub fn update_sorted(
        &mut self,
        count: usize,
        entry: &(impl Fn(usize) -> (ProxyId, Aabb) + Sync),
        parallel: bool,
    ) -> Result<Option<bool>, BroadPhaseError> {
        if count == 0 {
            return Ok(Some(false));
        }
        let parts = count.div_ceil(UPDATE_PART);
        let range = |part: usize| part * UPDATE_PART..count.min((part + 1) * UPDATE_PART);
        // Check, per part: whether its ids increase, its first and last ids, its first
        // error, and whether it holds a static proxy; parts joined in order, so that
        // the whole is checked with no list of parts (nothing allocated).
        let check = |part: usize| -> Checked {
            let r = range(part);
            let first = entry(r.start).0.0;
            let mut c = Checked {
                ordered: true,
                first,
                last: first,
                error: None,
                any_static: false,
            };
            for k in r.clone() {
                let (id, aabb) = entry(k);
                c.ordered &= k == r.start || c.last < id.0;
                c.last = id.0;
                if c.error.is_some() {
                    continue;
                }
                let kind = self.get(id).and_then(|slot| {
                    aabb.validate()?;
                    Ok(slot.kind())
                });
                match kind {
                    Ok(kind) => c.any_static |= kind == ProxyKind::Static,
                    Err(e) => c.error = Some(e),
                }
            }
            c
        };
        let checked = if parallel && parts > 1 {
            (0..parts)
                .into_par_iter()
                .map(check)
                .reduce_with(Checked::then)
        } else {
            (0..parts).map(check).reduce(Checked::then)
        };
        let Some(checked) = checked else {
            return Ok(Some(false));
        };
        // Not increasing anywhere (within a part or across a join): nothing done, the
        // caller goes one by one. Else the first error, in entry order, wins.
        if !checked.ordered {
            return Ok(None);
        }
        if let Some(e) = checked.error {
            return Err(e);
        }
        // Write: part `p` owns the slots from the end of part `p − 1`'s last id to its
        // own last id, which hold all of its ids (the ids increase throughout).
        let part_end = |part: usize| entry(range(part).end - 1).0.0 as usize + 1;
        let write = |part: usize, slots: &mut [Slot], offset: usize| {
            for k in range(part) {
                let (id, aabb) = entry(k);
                slots[id.0 as usize - offset].set_aabb(normalize_zeros(aabb));
            }
        };
        write_parts(
            0..parts,
            &mut self.slots[..],
            0,
            parallel,
            &part_end,
            &write,
        );
        Ok(Some(checked.any_static))
    }

    /// Frees the slot; returns the kind the proxy had.
    pub fn remove(&mut self, id: ProxyId) -> Result<ProxyKind, BroadPhaseError> {
        self.get(id)?;
        let slot = &mut self.slots[id.0 as usize];
        slot.free();
        self.alive -= 1;
        Ok(slot.kind())
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

/// One part's check in [`ProxyStore::update_sorted`], or several parts' joined.
struct Checked {
    ordered: bool,
    first: u32,
    last: u32,
    error: Option<BroadPhaseError>,
    any_static: bool,
}

impl Checked {
    /// The check of `self`'s entries followed by `next`'s: ordered when both are and
    /// the ids increase across the join; the first error in entry order.
    fn then(self, next: Checked) -> Checked {
        Checked {
            ordered: self.ordered && next.ordered && self.last < next.first,
            first: self.first,
            last: next.last,
            error: self.error.or(next.error),
            any_static: self.any_static || next.any_static,
        }
    }
}

/// Writes the parts `parts` of [`ProxyStore::update_sorted`] into `slots` (the slots
/// from id `offset` on, up to the last part's end): halves in parallel when
/// `parallel`, each half owning the slots up to its last id (`part_end`), so no list
/// of the parts' slot ranges is built.
fn write_parts(
    parts: std::ops::Range<usize>,
    slots: &mut [Slot],
    offset: usize,
    parallel: bool,
    part_end: &(impl Fn(usize) -> usize + Sync),
    write: &(impl Fn(usize, &mut [Slot], usize) + Sync),
) {
    if parallel && parts.len() > 1 {
        let middle = parts.start + parts.len() / 2;
        let end = part_end(middle - 1);
        let (first, second) = slots.split_at_mut(end - offset);
        rayon::join(
            || write_parts(parts.start..middle, first, offset, true, part_end, write),
            || write_parts(middle..parts.end, second, end, true, part_end, write),
        );
        return;
    }
    for part in parts {
        write(part, slots, offset);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use sepax_geometry::rng::Rng;

    /// A slot keeps its box bit for bit, its kind and its liveness through box
    /// updates and `free`, and its 4-wide overlap test is `Aabb::overlaps` (closed
    /// boxes): on random boxes snapped to a coarse lattice, so that shared faces,
    /// edges and corners (touching boxes) come up often.
    #[test]
    fn slots_keep_their_box_and_test_overlap_like_aabbs() {
        let mut rng = Rng::new(0x51_07);
        let lattice_box = |rng: &mut Rng| {
            let corner = |rng: &mut Rng| (rng.below(8) as f32 - 4.0) * 0.5;
            let (a, b) = (
                Vec3::new(corner(rng), corner(rng), corner(rng)),
                Vec3::new(corner(rng), corner(rng), corner(rng)),
            );
            Aabb::new(a.min(b), a.max(b))
        };
        let kinds = [ProxyKind::Static, ProxyKind::Dynamic, ProxyKind::Kinematic];
        let (mut overlapping, mut apart) = (0, 0);
        for k in 0..20_000 {
            let (a, b) = (lattice_box(&mut rng), lattice_box(&mut rng));
            let kind = kinds[k % 3];
            let mut sa = Slot::live(a, kind);
            let sb = Slot::live(b, kinds[(k + 1) % 3]);
            assert_eq!(sa.overlaps(&sb), a.overlaps(&b), "{a:?} {b:?}");
            assert_eq!(sa.overlaps(&sb), sb.overlaps(&sa));
            if a.overlaps(&b) {
                overlapping += 1;
            } else {
                apart += 1;
            }
            assert_eq!((sa.aabb(), sa.kind(), sa.alive()), (a, kind, true));
            sa.set_aabb(b);
            assert_eq!((sa.aabb(), sa.kind(), sa.alive()), (b, kind, true));
            sa.free();
            assert_eq!((sa.aabb(), sa.kind(), sa.alive()), (b, kind, false));
        }
        assert!(
            overlapping > 2_000 && apart > 2_000,
            "{overlapping} {apart}"
        );
        assert!(!Slot::FREE.alive());
    }
}
