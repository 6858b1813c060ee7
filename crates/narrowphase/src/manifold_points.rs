//! [`PointList`]: a manifold's few points, held inline as plain data —
//! [`ManifoldPoints`] (up to four 3D points) and
//! [`ManifoldPoints2`](crate::dim2::ManifoldPoints2) (up to two in the plane).
//!
//! A fixed array and a length, so a [`Manifold`](crate::Manifold) (and a
//! [`Manifold2`](crate::dim2::Manifold2)) is `Copy`: the pipeline moves contacts into
//! its output list with one `memcpy` per chunk of pairs (a move of a type with drop glue
//! had to swap, reading and writing both sides), and a solver can copy manifolds around
//! freely. It dereferences to a slice of the points, so `len`, `iter`, indexing,
//! `iter_mut` and `first` work as on any slice.

use crate::contact::ManifoldPoint;
use crate::dim2::ManifoldPoint2;
use glam::{Vec2, Vec3};

/// At most [`ManifoldPoints::CAPACITY`] (four) 3D manifold points, inline: the points
/// of a [`Manifold`](crate::Manifold), a [`PointList`]. Compares and prints as the slice
/// of its points (the unused slots are never read).
///
/// ```
/// use sepax_narrowphase::{ManifoldPoint, ManifoldPoints};
/// use glam::Vec3;
///
/// let point = |x: f32| ManifoldPoint {
///     position: Vec3::new(x, 0.0, 0.0),
///     depth: 0.01,
///     id: x as u64,
///     anchor_a: Vec3::ZERO,
///     anchor_b: Vec3::ZERO,
/// };
/// let mut points: ManifoldPoints = (0..3).map(|i| point(i as f32)).collect();
/// points.retain(|p| p.position.x != 1.0);
/// assert_eq!(points.len(), 2);
/// assert_eq!(points[1].id, 2);
/// // A fifth point does not fit: `try_push` hands it back.
/// points.push(point(3.0));
/// points.push(point(4.0));
/// assert!(points.try_push(point(5.0)).is_err());
/// ```
pub type ManifoldPoints = PointList<ManifoldPoint, 4>;

/// At most `N` points of type `T` (`N` ≤ 255), inline: the points of a manifold
/// ([`ManifoldPoints`], [`ManifoldPoints2`](crate::dim2::ManifoldPoints2)). Compares and
/// prints as the slice of its points (the unused slots are never read).
#[derive(Clone, Copy)]
pub struct PointList<T: PointSlot, const N: usize> {
    slots: [T; N],
    len: u8,
}

/// A type [`PointList`] holds: a manifold point, with the value its unused slots hold
/// (never read through the list's API). Implemented for [`ManifoldPoint`] and
/// [`ManifoldPoint2`]; sealed.
pub trait PointSlot: Copy + private::Sealed {
    /// What an unused slot holds.
    const UNUSED: Self;
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::ManifoldPoint {}
    impl Sealed for super::ManifoldPoint2 {}
}

impl PointSlot for ManifoldPoint {
    const UNUSED: Self = ManifoldPoint {
        position: Vec3::ZERO,
        depth: 0.0,
        id: 0,
        anchor_a: Vec3::ZERO,
        anchor_b: Vec3::ZERO,
    };
}

impl PointSlot for ManifoldPoint2 {
    const UNUSED: Self = ManifoldPoint2 {
        position: Vec2::ZERO,
        depth: 0.0,
        id: 0,
    };
}

impl<T: PointSlot, const N: usize> PointList<T, N> {
    /// The most points the list holds.
    pub const CAPACITY: usize = N;

    /// No points. (`N` above 255 does not compile: the length is a `u8`.)
    pub const fn new() -> Self {
        const {
            assert!(
                N <= u8::MAX as usize,
                "a PointList holds at most 255 points"
            )
        };
        PointList {
            slots: [T::UNUSED; N],
            len: 0,
        }
    }

    /// The first `len` points of `slots` (`len` is clamped to the capacity).
    #[inline]
    pub fn from_buf_and_len(slots: [T; N], len: usize) -> Self {
        const {
            assert!(
                N <= u8::MAX as usize,
                "a PointList holds at most 255 points"
            )
        };
        PointList {
            slots,
            len: len.min(Self::CAPACITY) as u8,
        }
    }

    /// One point `n` times (`n` clamped to the capacity).
    pub fn from_elem(point: T, n: usize) -> Self {
        Self::from_buf_and_len([point; N], n)
    }

    /// Appends a point; `Err` with the point when all four slots are taken.
    #[inline]
    pub fn try_push(&mut self, point: T) -> Result<(), T> {
        match self.slots.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = point;
                self.len += 1;
                Ok(())
            }
            None => Err(point),
        }
    }

    /// Appends a point.
    ///
    /// # Panics
    /// When the list is full (four 3D points, two 2D ones; use
    /// [`try_push`](Self::try_push) to get the point back instead). The narrow phase
    /// never makes more.
    #[inline]
    pub fn push(&mut self, point: T) {
        if self.try_push(point).is_err() {
            panic!("a manifold holds at most {} points", Self::CAPACITY);
        }
    }

    /// Keeps the first `len` points (nothing happens when there are not more).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len.min(Self::CAPACITY) as u8);
    }

    /// Replaces the points with `point(0), point(1), …, point(n − 1)` (`n` clamped to
    /// the capacity): each slot written in place, the length set once (the narrow
    /// phase's way to fill a manifold; an `extend` checked and stored the length per
    /// point).
    #[inline(always)]
    pub(crate) fn overwrite_with(&mut self, n: usize, mut point: impl FnMut(usize) -> T) {
        let n = n.min(Self::CAPACITY);
        for (i, slot) in self.slots[..n].iter_mut().enumerate() {
            *slot = point(i);
        }
        self.len = n as u8;
    }

    /// Removes every point.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the points for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            if keep(&self.slots[i]) {
                self.slots[kept] = self.slots[i];
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    /// The points as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.slots[..self.len as usize]
    }

    /// The points as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.slots[..self.len as usize]
    }
}

impl<T: PointSlot, const N: usize> Default for PointList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: PointSlot, const N: usize> std::ops::Deref for PointList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: PointSlot, const N: usize> std::ops::DerefMut for PointList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: PointSlot + PartialEq, const N: usize> PartialEq for PointList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PointSlot + std::fmt::Debug, const N: usize> std::fmt::Debug for PointList<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Collects at most `N` points: the first `N`, the rest are dropped.
impl<T: PointSlot, const N: usize> FromIterator<T> for PointList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut points = Self::new();
        points.extend(iter);
        points
    }
}

/// Appends points while there is room; the points past the `N`-th are dropped.
impl<T: PointSlot, const N: usize> Extend<T> for PointList<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for point in iter {
            if self.try_push(point).is_err() {
                break;
            }
        }
    }
}

impl<'a, T: PointSlot, const N: usize> IntoIterator for &'a PointList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: PointSlot, const N: usize> IntoIterator for &'a mut PointList<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

/// The points by value, in order.
impl<T: PointSlot, const N: usize> IntoIterator for PointList<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;

    fn into_iter(self) -> Self::IntoIter {
        self.slots.into_iter().take(self.len as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(k: u64) -> ManifoldPoint {
        ManifoldPoint {
            id: k,
            depth: k as f32,
            ..ManifoldPoint::UNUSED
        }
    }

    /// Every operation against a `Vec` doing the same, on random sequences.
    #[test]
    fn behaves_like_a_vec_capped_at_four() {
        let mut rng = sepax_geometry::rng::Rng::new(0x4d50);
        for _ in 0..10_000 {
            let mut points = ManifoldPoints::new();
            let mut model: Vec<ManifoldPoint> = Vec::new();
            for step in 0..12u64 {
                match rng.below(5) {
                    0 | 1 => {
                        let fits = model.len() < 4;
                        assert_eq!(points.try_push(point(step)).is_ok(), fits);
                        if fits {
                            model.push(point(step));
                        }
                    }
                    2 => {
                        let len = rng.below(6);
                        points.truncate(len);
                        model.truncate(len);
                    }
                    3 => {
                        let odd = rng.below(2) as u64;
                        points.retain(|p| p.id % 2 == odd);
                        model.retain(|p| p.id % 2 == odd);
                    }
                    4 if rng.below(2) == 0 => {
                        // Replaces whatever was there; past four, dropped.
                        let n = rng.below(7);
                        points.overwrite_with(n, |i| point(100 + i as u64));
                        model = (0..n.min(4) as u64).map(|i| point(100 + i)).collect();
                    }
                    _ => {
                        let more: Vec<_> = (0..rng.below(4) as u64).map(point).collect();
                        points.extend(more.iter().copied());
                        model.extend(more.iter().copied().take(4 - model.len()));
                    }
                }
                assert_eq!(points.as_slice(), &model[..]);
                assert_eq!(points.into_iter().collect::<Vec<_>>(), model);
            }
        }
    }

    /// The plane's list: two points, then full; its manifold is plain data.
    #[test]
    fn a_2d_list_holds_two_points() {
        fn plain_data<T: Copy>() {}
        plain_data::<crate::dim2::Manifold2>();
        let point = |id: u32| ManifoldPoint2 {
            id,
            ..ManifoldPoint2::UNUSED
        };
        let mut points = crate::dim2::ManifoldPoints2::new();
        assert_eq!(crate::dim2::ManifoldPoints2::CAPACITY, 2);
        assert!(points.try_push(point(1)).is_ok() && points.try_push(point(2)).is_ok());
        assert_eq!(points.try_push(point(3)), Err(point(3)));
        let collected: crate::dim2::ManifoldPoints2 = (1..6).map(point).collect();
        assert_eq!(collected, points);
        assert_eq!(collected.iter().map(|p| p.id).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn equality_ignores_unused_slots() {
        let mut a = ManifoldPoints::from_elem(point(1), 3);
        a.truncate(1);
        let b: ManifoldPoints = [point(1)].into_iter().collect();
        assert_eq!(a, b);
        assert_eq!(format!("{a:?}"), format!("{:?}", [point(1)]));
        assert_eq!(ManifoldPoints::from_buf_and_len([point(2); 4], 9).len(), 4);
    }

    #[test]
    #[should_panic(expected = "at most 4 points")]
    fn a_fifth_push_panics() {
        let mut points = ManifoldPoints::from_elem(point(0), 4);
        points.push(point(5));
    }
}
