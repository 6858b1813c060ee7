//! A counting global allocator for tests that a code path allocates nothing: wrap the
//! system allocator in [`Counting`] as the test binary's `#[global_allocator]`, mark the
//! thread to watch with [`count_this_thread`], and read [`allocations`] before and after.
//!
//! Only allocations made on a marked thread are counted: the test harness's own threads
//! may allocate at any moment (CI once saw four such allocations land inside a measured
//! window), and they are not the code under test's.
//!
//! ```
//! use sepax_testkit::counting_alloc::{Counting, allocations, count_this_thread};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! fn main() {
//!     count_this_thread();
//!     let before = allocations();
//!     let list = vec![0u8; 64];
//!     assert_eq!(allocations() - before, 1);
//!     let sum: u32 = list.iter().map(|&b| b as u32).sum();
//!     assert_eq!((sum, allocations() - before), (0, 1));
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the allocations of marked threads.
pub struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Set only on the threads whose allocations are counted. A `const` thread-local
    // without a destructor needs no allocation to reach, so the allocator may read it.
    static COUNTED_THREAD: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: forwards to the system allocator unchanged; only counts the calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED_THREAD.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Counts the allocations the calling thread makes from now on.
pub fn count_this_thread() {
    COUNTED_THREAD.with(|counted| counted.set(true));
}

/// The allocations counted so far (over every marked thread).
pub fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::Relaxed)
}
