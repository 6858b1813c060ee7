//! A resting step: nothing changed since the last step, so its report is the last one.
//!
//! When no body was inserted, removed, moved, reshaped or given new groups or user data
//! since the last step (poses set again with the same bits do not count), and the broad
//! phase kept every pair ([`FrameStats::unchanged`](sepax_broadphase::FrameStats)),
//! and no CCD body holds a swept box from the last step (it gets its plain box back
//! first),
//! every pair sees the inputs it saw last step. The full step would then:
//!
//! * carry every pair state over unchanged (no pair added or removed);
//! * copy each pair's manifold from last step's contacts (both bodies rest);
//! * match each manifold's points to themselves: the first pass pairs point `i` with
//!   the lowest unused previous point of the same feature id, which is `i` itself
//!   (every earlier point with that id was taken by an earlier point), so the matches
//!   are the identity;
//! * raise no event (no touch state changes, no pair ends);
//! * cast nothing for CCD (nothing moved), so there is no CCD hit.
//!
//! So the contacts are last step's, each now continuing itself: `previous = Some(i)`
//! and `previous_points[k] = Some(k)`. Writing those two fields is all a resting step
//! does per contact, on the calling thread (no pool hand-over); the pair states stay as
//! they are (the full step would leave them the same: last step's ids and anchors, and
//! `matches` is rewritten before it is next read). `tests/resting.rs` checks the
//! result against the full step.

use crate::step::StepFrame;
use crate::{ContactPair, StepReport};
use std::time::Instant;

impl StepFrame<'_> {
    /// True when nothing changed since the last step (see the module docs).
    pub fn is_resting(&self) -> bool {
        self.bodies.at_rest() && self.pairs.swept.is_empty() && self.broad.keeps_pairs()
    }

    /// A step where nothing changed, on the calling thread (no parallel work, so no
    /// hand-over to a pool): `report` holds last step's report and becomes this one.
    pub fn repeat(self, report: &mut StepReport) {
        let start = Instant::now();
        debug_assert!(self.is_resting() && report.quarantined.is_empty());
        // No body is queued: this only advances the step count.
        let queued = (self.bodies).begin_step(std::mem::take(&mut self.pairs.changed));
        debug_assert!(queued.is_empty());
        // Last step's changed list, emptied: the marks for the next step went into it.
        self.pairs.changed = queued;
        self.broad.update_pairs(); // O(1): keeps the pairs, empty diffs
        report.events.clear();
        report.pair_budget_exceeded = false;
        // Nothing moved: no time of impact.
        report.ccd_hits.clear();
        report.ccd_skipped = 0;
        repeat_contacts(&mut report.contacts);
        self.bodies.end_step();
        let t = start.elapsed();
        report.timings = crate::StepTimings {
            broad: t,
            total: t,
            ..Default::default()
        };
    }
}

/// Turns last step's contacts into this step's, for a step in which nothing changed.
fn repeat_contacts(contacts: &mut [ContactPair]) {
    for (i, c) in contacts.iter_mut().enumerate() {
        c.previous = Some(i as u32);
        let len = c.manifold.points.len();
        c.previous_points = std::array::from_fn(|k| (k < len).then_some(k as u8));
    }
}
