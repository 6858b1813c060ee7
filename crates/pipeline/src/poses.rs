//! Setting many poses at once: what
//! [`CollisionWorld::set_poses`](crate::CollisionWorld::set_poses) answers.

use crate::BodyHandle;

/// What [`CollisionWorld::set_poses`](crate::CollisionWorld::set_poses) did with its
/// batch, and the rules it follows.
///
/// A physics engine sets the pose of every moving body once per frame. Doing that with
/// [`set_pose`](crate::CollisionWorld::set_pose) in a loop means one `Result` per body
/// to look at; the batch takes an iterator of `(handle, pose)` pairs and does the same
/// per-body work without a `Result` per body:
///
/// 1. check the handle (its world, slot and generation: three compares);
/// 2. compare the new pose with the stored one **bit for bit**: equal bits change
///    nothing, so the body counts as resting (its pairs with other resting bodies reuse
///    last step's manifold, and a step in which no body changed skips the broad phase);
/// 3. else store the pose and queue the body for the next step's AABB pass (once).
///
/// **Stale handles are skipped and counted, never fatal.** A batch is usually built
/// from the engine's own body list; one removed body should not stop every other body
/// from moving, and refusing the batch as a whole would need a second pass (or a
/// copy of the iterator's items) to check all handles first. So each stale entry is
/// left out, the others are applied in order, and [`PoseBatch::stale`] /
/// [`PoseBatch::first_stale`] say what was skipped. Nothing panics. A handle that
/// appears twice is applied twice: the last pose wins.
///
/// **Cost.** Per body: the handle check, the 7-float bit compare and, for a moved body,
/// a store and a queue push: about 76 instructions a moved body (callgrind, 10,000
/// moved bodies set from a slice in one batch). The `set_poses_10k` group of
/// `benches/benches/poses.rs` times it beside a `set_pose` loop: on the 2-core
/// machine of 4 December 2026, 4.6 ns a moved body, 3.8 ns a body given its pose
/// again (the loop: 5.1 ns a moved body); 10.6 and 11.4 ns before the bit compare
/// was written so that the compiler keeps it in registers. The AABB of a moved body is
/// computed later, at the step, in parallel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use = "stale handles in the batch were skipped; check `stale`"]
pub struct PoseBatch {
    /// Bodies whose pose changed: they get a new AABB at the next step.
    pub moved: usize,
    /// Bodies given the very same pose bits again: nothing changed (they rest).
    pub unchanged: usize,
    /// Entries skipped because their handle is stale (a removed body, or a handle of
    /// another world).
    pub stale: usize,
    /// The first stale handle of the batch, if any.
    pub first_stale: Option<BodyHandle>,
}

impl PoseBatch {
    /// True when every entry of the batch named a live body.
    pub fn all_applied(&self) -> bool {
        self.stale == 0
    }
}
