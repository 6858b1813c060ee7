//! Per-thread buffers for the lists whose length follows the shapes: the edges of a
//! hull that reach the other shape, the masks of their Minkowski-face tests, a clipped
//! face polygon and its points. Each is a `SmallVec`, inline up to a size that covers
//! the common hulls; past it a `SmallVec` moves to the heap, and a hull of 256 points or
//! a prism whose caps have 12 sides or more then allocated and freed on every query
//! (2.7–3.6 allocations a call over `tests/hull_no_allocation.rs`'s pairs). So where
//! such a list is made, its length is bounded first (the reaching edges counted from
//! their masks, a polygon's vertices plus its clipping planes) and [`reserve`]d: within
//! the inline room nothing happens; past it the list moves onto its thread's buffer,
//! grown to the bound once, and [`give_back`] returns the buffer when the list is done.
//! Each buffer so grows to the largest query its thread has seen and is reused from
//! then on: no allocation per pair once a thread is warm.
//!
//! (Lists that are always the pooled buffers, or a wrapper that owns the list and gives
//! it back on drop, cost the 24-point box–hull pairs 4–10 % — the wrapper's list was
//! copied whole, inline room included, when it was returned — so the common lists stay
//! plain inline `SmallVec`s, made in place, and only the large ones touch the pools.)
//!
//! Each pool is a `thread_local!` `Cell<Vec<T>>`, declared next to the code that uses it
//! with `pools!`; taking swaps the buffer out and leaves an empty vector behind, so a
//! nested list of the same pool (none happens today) just gets a fresh vector, which
//! allocates as a local one would — never a panic. A bound that is too low, or a list
//! not given back (an early return), is no error either: the list then spills, or its
//! buffer is freed, as a `SmallVec`'s is.

use smallvec::{Array, SmallVec};
use std::cell::Cell;
use std::thread::LocalKey;

/// A thread's reusable buffer for lists of `T` (declared with `pools!`).
pub(crate) type Pool<T> = LocalKey<Cell<Vec<T>>>;

/// Gives `list` room for `bound` items: nothing to do while they fit (the inline room,
/// or a buffer it holds already); else the list moves onto its thread's buffer of
/// `pool` (grown to `bound` if it is smaller: once per thread, not per pair).
#[inline(always)]
pub(crate) fn reserve<A: Array>(list: &mut SmallVec<A>, pool: &'static Pool<A::Item>, bound: usize)
where
    A::Item: 'static,
{
    if bound > list.capacity() {
        adopt(list, pool, bound);
    }
}

/// Moves `list` onto the thread's buffer of `pool`, with room for `bound` items.
#[cold]
#[inline(never)]
fn adopt<A: Array>(list: &mut SmallVec<A>, pool: &'static Pool<A::Item>, bound: usize)
where
    A::Item: 'static,
{
    // The buffer is out already (a nested list) or the thread is being torn down: a
    // new vector, which allocates as the list would have.
    let mut buffer = pool.try_with(Cell::take).unwrap_or_default();
    buffer.clear();
    buffer.extend(list.drain(..));
    buffer.reserve(bound.saturating_sub(buffer.len()));
    // Room beyond the inline size, so the buffer is kept as it is (no copy).
    *list = SmallVec::from_vec(buffer);
}

/// Hands the buffer of a `list` that left its inline room back to `pool`, for the
/// next list of the thread (the list is left empty and inline).
#[inline(always)]
pub(crate) fn give_back<A: Array>(list: &mut SmallVec<A>, pool: &'static Pool<A::Item>)
where
    A::Item: 'static,
{
    if list.spilled() {
        release(list, pool);
    }
}

#[cold]
#[inline(never)]
fn release<A: Array>(list: &mut SmallVec<A>, pool: &'static Pool<A::Item>)
where
    A::Item: 'static,
{
    let buffer = std::mem::take(list).into_vec();
    // During the thread's teardown the pool may be gone: the buffer is then freed.
    let _ = pool.try_with(|cell| cell.set(buffer));
}

/// Declares per-thread pools for [`reserve`] and [`give_back`]: `pools! { NAME: Type, ... }`.
macro_rules! pools {
    ($($(#[$meta:meta])* $vis:vis $name:ident: $t:ty),* $(,)?) => {
        thread_local! {
            $($(#[$meta])* $vis static $name: std::cell::Cell<Vec<$t>> =
                const { std::cell::Cell::new(Vec::new()) };)*
        }
    };
}
pub(crate) use pools;

#[cfg(test)]
mod tests {
    use super::*;

    pools! { NUMBERS: u32 }

    #[test]
    fn a_small_list_stays_inline_and_a_large_one_reuses_the_buffer() {
        let mut small: SmallVec<[u32; 8]> = SmallVec::new();
        reserve(&mut small, &NUMBERS, 8);
        assert!(!small.spilled());
        let mut large: SmallVec<[u32; 8]> = SmallVec::new();
        reserve(&mut large, &NUMBERS, 1000);
        assert!(large.spilled() && large.capacity() >= 1000);
        large.extend(0..1000);
        let buffer = large.as_ptr();
        give_back(&mut large, &NUMBERS);
        assert!(large.is_empty() && !large.spilled());
        // The next large list is built on the same buffer, empty.
        let mut again: SmallVec<[u32; 8]> = SmallVec::new();
        reserve(&mut again, &NUMBERS, 500);
        assert!(again.is_empty());
        assert_eq!(again.as_ptr(), buffer);
        give_back(&mut again, &NUMBERS);
    }

    #[test]
    fn items_already_in_the_list_are_kept() {
        let mut list: SmallVec<[u32; 4]> = (0..3).collect();
        reserve(&mut list, &NUMBERS, 100);
        assert_eq!(&list[..], &[0, 1, 2]);
        list.extend(3..100);
        assert_eq!(list.iter().sum::<u32>(), 4950);
        give_back(&mut list, &NUMBERS);
    }

    #[test]
    fn a_nested_list_gets_a_buffer_of_its_own() {
        let mut outer: SmallVec<[u32; 4]> = SmallVec::new();
        reserve(&mut outer, &NUMBERS, 100);
        outer.extend(0..10);
        let mut inner: SmallVec<[u32; 4]> = SmallVec::new();
        reserve(&mut inner, &NUMBERS, 100);
        assert!(inner.is_empty());
        inner.push(7);
        give_back(&mut inner, &NUMBERS);
        assert_eq!(outer.len(), 10);
        assert_eq!(outer[9], 9);
        give_back(&mut outer, &NUMBERS);
    }
}
