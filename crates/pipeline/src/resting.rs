//! A resting step: nothing changed since the last step, so its report is the last one.
//!
//! When no body was inserted, removed, moved, reshaped or given new groups or user data
//! since the last step (poses set again with the same bits do not count), and the broad
//! phase kept every pair ([`FrameStats::unchanged`](sepax_broadphase::FrameStats)),
//! every pair sees the inputs it saw last step. The full step would then:
//!
//! * carry every pair state over unchanged (no pair added or removed);
//! * copy each pair's manifold from last step's contacts (both bodies rest);
//! * match each manifold's points to themselves: the first pass pairs point `i` with
//!   the lowest unused previous point of the same feature id, which is `i` itself
//!   (every earlier point with that id was taken by an earlier point), so the matches
//!   are the identity;
//! * raise no event (no touch state changes, no pair ends).
//!
//! So the contacts are last step's, each now continuing itself: `previous = Some(i)`
//! and `previous_points[k] = Some(k)`. Writing those two fields is all a resting step
//! does per contact; `tests/resting.rs` checks the result against the full step.

use crate::ContactPair;

/// Turns last step's contacts into this step's, for a step in which nothing changed.
pub(crate) fn repeat_contacts(contacts: &mut [ContactPair]) {
    for (i, c) in contacts.iter_mut().enumerate() {
        c.previous = Some(i as u32);
        let len = c.manifold.points.len();
        c.previous_points = std::array::from_fn(|k| (k < len).then_some(k as u8));
    }
}
