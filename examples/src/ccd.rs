//! `stress --scene ccd`: did every fast body that went through a wall get reported?
//!
//! After each step, every CCD body's motion in that step (from its pose before the
//! frame's poses were set to its pose now) is judged against every static body:
//!
//! * **Crossings**, always: the body's origin passes through the wall
//!   ([`centre_crosses`]: a ray from the start origin to the end origin hits it) and
//!   the two do not overlap at the start. The body then overlaps the wall in the step
//!   for sure, so the step must report the pair: a [`CcdHit`](sepax_pipeline::CcdHit)
//!   or a touching contact. One that is neither is *missed*.
//! * **Fine stepping**, with `--check`: [`first_overlap`] at [`SUB_STEPS`] sub-steps
//!   (pairs whose boxes over the whole motion are apart are skipped): every pair that
//!   overlaps at a sub-step but not at the start must be reported, and a hit's time
//!   must not come after that sub-step's; the first failure is an error.

use rayon::prelude::*;
use sepax_pipeline::geometry::{Aabb, Pose, Shape};
use sepax_pipeline::narrowphase::intersects;
use sepax_pipeline::{BodyHandle, BodyKind, CollisionWorld};
use sepax_testkit::ccd::{SUB_STEPS, centre_crosses, first_overlap};
use std::collections::HashSet;

/// A hit may come this much after the first overlapping sub-step (the round-off of
/// `intersects` on a contact the cast stops just short of).
pub const TIME_SLACK: f32 = 1e-5;

/// Counts over the steps judged so far.
#[derive(Debug, Default)]
pub struct CcdTally {
    /// CCD body–static pairs whose body's origin went through the static body.
    pub crossings: u64,
    /// Of those, reported by a hit and by a touching contact.
    pub by_hit: u64,
    pub by_contact: u64,
    /// Crossings reported neither way.
    pub missed: u64,
    /// With `--check`: pairs that overlapped at a sub-step but not at the start (all
    /// reported, or the check failed).
    pub fine_overlaps: u64,
    /// Hits over all steps.
    pub hits: u64,
}

/// The CCD bodies and the static bodies of a world, and each CCD body's pose before
/// the frame's poses are set.
pub struct CcdJudge {
    movers: Vec<BodyHandle>,
    statics: Vec<BodyHandle>,
    before: Vec<Pose>,
    fine: bool,
    pub tally: CcdTally,
}

impl CcdJudge {
    /// The judge of `world`'s CCD bodies against its static ones (`fine`: also the
    /// fine-stepping twin); `None` when the world has no CCD body.
    pub fn new(world: &CollisionWorld, fine: bool) -> Option<CcdJudge> {
        let movers: Vec<BodyHandle> = world
            .handles()
            .filter(|&h| world.ccd(h) == Ok(true) && world.kind(h) != Ok(BodyKind::Static))
            .collect();
        if movers.is_empty() {
            return None;
        }
        let statics = world
            .handles()
            .filter(|&h| world.kind(h) == Ok(BodyKind::Static))
            .collect();
        Some(CcdJudge {
            movers,
            statics,
            before: Vec::new(),
            fine,
            tally: CcdTally::default(),
        })
    }

    /// Remembers the CCD bodies' poses: call before setting a frame's poses.
    pub fn before_frame(&mut self, world: &CollisionWorld) {
        self.before.clear();
        self.before.extend(
            self.movers
                .iter()
                .map(|&h| world.pose(h).unwrap_or(Pose::IDENTITY)),
        );
    }

    /// Judges the step just taken (see the module docs); `Err` describes the first
    /// failure of the fine-stepping check.
    pub fn after_step(&mut self, world: &CollisionWorld) -> Result<(), String> {
        let report = world.report();
        self.tally.hits += report.ccd_hits.len() as u64;
        let hits: std::collections::HashMap<(BodyHandle, BodyHandle), f32> = report
            .ccd_hits
            .iter()
            .map(|h| ((h.a, h.b), h.time))
            .collect();
        let touching: HashSet<(BodyHandle, BodyHandle)> = report
            .contacts
            .iter()
            .filter(|c| c.touching)
            .map(|c| (c.a, c.b))
            .collect();
        let statics = &self.statics;
        let fine = self.fine;
        let verdicts: Vec<Result<[u64; 5], String>> = self
            .movers
            .par_iter()
            .zip(&self.before)
            .map(|(&m, from)| {
                let shape = world.shape(m).map_err(|e| e.to_string())?;
                let to = world.pose(m).map_err(|e| e.to_string())?;
                let mut counts = [0u64; 5];
                if !(from.is_valid() && to.is_valid()) || *from == to {
                    return Ok(counts);
                }
                let reach = swept_sphere_box(shape, from, &to);
                for &s in statics {
                    let (wall, pose) = (world.shape(s).unwrap(), world.pose(s).unwrap());
                    let key = (m.min(s), m.max(s));
                    let reported = hits.get(&key).copied();
                    let touches = touching.contains(&key);
                    if !reach.overlaps(&wall.aabb(&pose)) || intersects(shape, from, wall, &pose) {
                        continue;
                    }
                    if centre_crosses(from, &to, wall, &pose) {
                        counts[0] += 1;
                        match (reported, touches) {
                            (Some(_), _) => counts[1] += 1,
                            (None, true) => counts[2] += 1,
                            (None, false) => counts[3] += 1,
                        }
                    }
                    if fine
                        && let Some(k) = first_overlap(shape, from, &to, wall, &pose, &pose, SUB_STEPS)
                    {
                        counts[4] += 1;
                        let first = k as f32 / SUB_STEPS as f32;
                        match (reported, touches) {
                            (Some(t), _) if t > first + TIME_SLACK => {
                                return Err(format!(
                                    "body {} and wall {}: hit at {t}, after the first overlap at {first}",
                                    m.index(),
                                    s.index()
                                ));
                            }
                            (None, false) => {
                                return Err(format!(
                                    "body {} went into wall {} at sub-step {k} unreported",
                                    m.index(),
                                    s.index()
                                ));
                            }
                            _ => {}
                        }
                    }
                }
                Ok(counts)
            })
            .collect();
        for v in verdicts {
            let [crossings, by_hit, by_contact, missed, fine_overlaps] = v?;
            self.tally.crossings += crossings;
            self.tally.by_hit += by_hit;
            self.tally.by_contact += by_contact;
            self.tally.missed += missed;
            self.tally.fine_overlaps += fine_overlaps;
        }
        Ok(())
    }
}

/// A box holding `shape` at every pose between `from` and `to`: the box of the
/// origin's segment grown by the bounding radius (plus a hair for round-off).
fn swept_sphere_box(shape: &Shape, from: &Pose, to: &Pose) -> Aabb {
    let r = glam::Vec3::splat(shape.bounding_radius() * 1.001 + 1e-4);
    let (a, b) = (from.translation, to.translation);
    Aabb::new(a.min(b) - r, a.max(b) + r)
}
