//! The determinism twin of the `world_script` target.
//!
//! sepax promises a report that is bit-identical for any thread count and any chunk
//! size. The twin runs the same script on a second world with two threads and chunks
//! of one (every pair and every body its own task), and after each step its report
//! (contacts, events, quarantined bodies, candidate count, CCD hits; not the timings) must print
//! exactly as the first world's. Printing compares NaN with NaN and keeps every bit
//! that `{:?}` shows of an f32 (the shortest round-trip form).

use crate::script::{Op, ccd_of};
use sepax_pipeline::{BodyDesc, BodyHandle, CollisionWorld, Config, StepReport};

/// A second world that follows the script.
pub(crate) struct Twin {
    world: CollisionWorld,
    issued: Vec<Option<BodyHandle>>,
}

/// Everything of a report but its timings, printed.
pub(crate) fn fingerprint(r: &StepReport) -> String {
    let text = format!(
        "{:?}\n{:?}\n{:?}\n{}\n{:?}\n{}",
        r.contacts, r.events, r.quarantined, r.candidate_pairs, r.ccd_hits, r.ccd_skipped
    );
    without_world_ids(&text)
}

/// The text with every `, world: N` of a printed handle removed: handles name the
/// world that issued them, and the twin is another world.
fn without_world_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(", world: ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + ", world: ".len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

impl Twin {
    pub fn new(config: Config) -> Twin {
        let config = Config {
            threads: 2,
            narrow_chunk: 1,
            aabb_chunk: 1,
            ..config
        };
        Twin {
            world: CollisionWorld::new(config).expect("a two-thread pool"),
            issued: Vec::new(),
        }
    }

    /// Applies `op` (errors are the first world's business); after a step, returns
    /// the report's fingerprint.
    pub fn apply(&mut self, op: &Op) -> Option<String> {
        let handle = |h: &crate::script::Handle| self.issued.get(h.0).copied().flatten();
        match op {
            Op::Insert {
                shape,
                pose,
                kind,
                groups,
                user_data,
            } => {
                // A mesh on a body that is not static is refused (the model checks it).
                let h = shape.build().and_then(|shape| {
                    let desc = BodyDesc {
                        shape,
                        pose: *pose,
                        kind: *kind,
                        groups: *groups,
                        user_data: *user_data,
                        ccd: ccd_of(*user_data),
                    };
                    self.world.insert(desc).ok()
                });
                self.issued.push(h);
            }
            Op::Remove(h) => {
                if let Some(h) = handle(h) {
                    let _ = self.world.remove(h);
                }
            }
            Op::SetPose(h, pose) => {
                if let Some(h) = handle(h) {
                    let _ = self.world.set_pose(h, *pose);
                }
            }
            Op::SetShape(h, spec) => {
                if let (Some(h), Some(shape)) = (handle(h), spec.build()) {
                    let _ = self.world.set_shape(h, shape);
                }
            }
            Op::SetGroups(h, groups) => {
                if let Some(h) = handle(h) {
                    let _ = self.world.set_groups(h, *groups);
                }
            }
            Op::Step => return Some(fingerprint(self.world.step())),
            Op::QueryAabb(..) | Op::CastRay(..) => {}
        }
        None
    }
}
