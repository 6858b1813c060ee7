//! # sepax-pipeline
//!
//! The collision world a physics engine steps every frame: hand it bodies (a convex
//! shape and a pose each), call [`CollisionWorld::step`], read back every touching
//! pair with a contact manifold, the pairs that started or stopped touching, and the
//! bodies whose poses were unusable. This crate re-exports the three crates below it
//! ([`geometry`], [`broadphase`], [`narrowphase`]), so it is the one dependency a user
//! needs.
//!
//! ## Conventions (the same in every sepax crate)
//! * A pair is `(a, b)` with `a.index() < b.index()`; the contact **normal points from
//!   a to b**; **`depth > 0` means penetrating**.
//! * Contacts and events come sorted by `(a.index(), b.index())`.
//! * The output is bit-identical for any thread count: parallel stages compute one
//!   result per item in fixed chunks and collect them in order.
//! * Nothing panics on user data: every shape, pose and [`Config`] a constructor
//!   accepts can be stepped, down to shapes as wide as `f32::MAX`; a
//!   [`BodyHandle`] works only in the world that issued it.
//!
//! ## One step
//! 1. **AABBs** of the bodies moved since the last step, in parallel. A body with a
//!    non-finite pose, a non-unit rotation or an overflowing AABB is *quarantined*: it
//!    leaves the broad phase for this step and is listed in
//!    [`StepReport::quarantined`]; no other body's result changes.
//! 2. **Broad phase**: incremental sweep-and-prune
//!    ([`SweepAndPrune`](broadphase::SweepAndPrune)) keyed by the bodies' slot
//!    indices, so its pairs and their added/removed lists against the last step come
//!    back in body keys, sorted, and the world carries its per-pair state over beside
//!    them, chunk by chunk in the narrow pass (no id map, no second diff). A pair needs a dynamic body
//!    ([`BodyKind`]): the broad phase never pairs two statics, and kinematic bodies
//!    (moved by the user, like platforms) sweep with the dynamic ones but never pair
//!    with static or other kinematic bodies. Candidate pairs are filtered by
//!    [`Groups`] in the narrow pass. At most
//!    [`Config::pair_budget`] candidates are kept; a step that finds more says so in
//!    [`StepReport::pair_budget_exceeded`] and goes on with the first ones (the same
//!    for any thread count).
//! 3. **Narrow phase** in parallel: [`collide`](narrowphase::collide) with the pair's
//!    own [`PairCache`](narrowphase::PairCache), which lives as long as the pair stays a
//!    candidate, so last frame's separating axis or contact feature is tried first.
//!    With [`Config::batch_box_pairs`] (the default), box–box pairs are batched
//!    within each chunk through
//!    [`collide_box_pairs_scattered`](narrowphase::collide_box_pairs_scattered) (8 pairs per
//!    SIMD bundle), which gives each pair bit for bit the answer of `collide` (a
//!    little faster in the step, see the field's docs).
//!    Pairs whose two bodies did not change since the last step (a pose set again to
//!    the same bits counts as no change) copy last step's answer instead: resting
//!    piles cost almost nothing. Pairs whose bounding spheres are apart skip the SAT.
//! 4. **Contacts and events** (in parallel over the narrow phase's chunks, output in
//!    key order): every pair in contact with its manifold (points with
//!    anchors on both bodies); `Started` when a pair begins to touch (a point at
//!    `depth >= 0`), `Ended` (with a cause: separated, removed, filtered, quarantined)
//!    when it stops. Speculative pairs (all points within the margin but apart) are in
//!    the contacts with [`touching`](ContactPair::touching) false and start no event;
//!    their deepest depth is minus the true distance (the narrow phase measures polytope
//!    pairs within the margin by GJK, see `sepax_narrowphase::collide`).
//!    Each contact names its index in last step's contacts and, per point, the point it
//!    continues ([`ContactPair::previous_points`]), so a solver warm-starts without a map.
//!
//! 5. **CCD** (only while some body has the [CCD flag](BodyDesc::ccd)): every
//!    candidate pair of a CCD body that does not touch at the end of the step is cast
//!    along both bodies' motions since the last step, and each first touch is a
//!    [`CcdHit`] in [`StepReport::ccd_hits`] (see below).
//!
//! A step in which nothing changed since the last one (poses set again with the same
//! bits, or not set; no insert, remove or setter call) skips all of that: the broad
//! phase keeps its pairs in O(1) and the report is the last one, each contact
//! continuing itself, computed on the calling thread.
//!
//! ```
//! use sepax_pipeline::{BodyDesc, CollisionWorld, Config, EventKind};
//! use sepax_pipeline::geometry::{Cuboid, Pose, Sphere};
//! use glam::Vec3;
//!
//! let mut world = CollisionWorld::new(Config { threads: 2, ..Config::default() }).unwrap();
//! let ground = Cuboid::try_from_half_extents(Vec3::new(10.0, 0.5, 10.0)).unwrap();
//! world.insert(BodyDesc::fixed(ground, Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)))).unwrap();
//! let ball = world
//!     .insert(BodyDesc::dynamic(Sphere::try_new(0.5).unwrap(), Pose::from_translation(Vec3::Y * 0.45)))
//!     .unwrap();
//!
//! let report = world.step();
//! assert_eq!(report.events[0].kind, EventKind::Started);
//! let contact = &report.contacts[0];
//! assert_eq!(contact.b, ball);
//! assert!((contact.manifold.normal - Vec3::Y).length() < 1e-6); // ground → ball
//! assert!((contact.manifold.points[0].depth - 0.05).abs() < 1e-5);
//!
//! world.set_pose(ball, Pose::from_translation(Vec3::Y * 0.44)).unwrap();
//! let report = world.step();
//! assert!(report.events.is_empty());
//! assert_eq!(report.contacts[0].previous_points[0], Some(0)); // warm-start from point 0
//! ```
//!
//! ## Fast bodies
//! The world gets poses, not velocities: between two steps a body jumps. A small, fast
//! body can jump over a thin wall and no step sees it touch. Flag it for continuous
//! collision detection ([`BodyDesc::ccd`], [`CollisionWorld::set_ccd`]) and each step
//! treats its jump as a motion, the straight path from its pose at the last step to
//! its new one ([`Motion::between`](narrowphase::Motion::between)): its broad-phase box
//! holds the whole path, and every pair it passed through without touching at the
//! end is reported with its time of impact within the step ([`CcdHit`]: time in
//! `[0, 1]`, normal a → b, the two points), never after the first contact, so a solver
//! can move the body back to it. Pairs touching at the end are contacts as usual.
//! [`CollisionWorld::teleport`] moves a body without a motion. A CCD body passing
//! through a static triangle mesh is cast against the triangles its sweep reaches
//! (two-sided).
//!
//! ## Many bodies, an engine's own threads
//! [`CollisionWorld::set_poses`] sets a batch of poses without a `Result` per body
//! (stale handles are skipped and counted in a [`PoseBatch`]);
//! [`CollisionWorld::step_in`] runs the step on a rayon pool of the caller's (this
//! crate re-exports [`rayon`]), with the same report bit for bit. While a step runs,
//! the pool's other threads do not sleep between its stages: they wait for the next
//! stage's work spinning ([`Config::keep_threads_awake`], on by default), because
//! waking a sleeping thread cost more than many stages take; and the first pose that
//! moves a body after a step wakes the world's own pool, so that its threads are up
//! when the step begins. A world of one thread
//! ([`Config::threads`] 1) has no pool at all: it spawns no thread, and its steps run
//! on the thread that calls them, the same chunks in order, without touching rayon.
//!
//! ## No allocation per step
//! Every list a step fills (pair states, staged contacts and events, the broad phase's
//! pair keys, candidates, sweep and patch lists, the narrow pass's batch and manifold
//! scratch) is a buffer the world keeps from step to step, and the narrow phase's
//! per-pair lists live on the stack or in per-thread pools. So once the lists have
//! grown to a scene's size, a step of a one-thread world allocates nothing, but when a
//! list must grow past every earlier step's length or a static body's cached
//! neighbour list spills past its inline room (`tests/no_allocation.rs`: at most 7
//! allocations in 60 steps of five scenes, against 1,475 in 60 steps of a 2,000-box
//! soup before 3 December 2026). A step on a pool makes a few more: a few for the
//! helpers that keep the pool awake (a shared flag block and one job per thread), one
//! list of the contacts' parts in the event
//! stage, and, in the steps that patch or rebuild the broad phase's candidates, one
//! list per parallel task. The report's lists are reused too: the `contacts` and
//! `events` a step returns are overwritten by the next one.

mod aabbs;
mod awake;
mod body;
mod carry;
mod ccd;
mod config;
mod error;
mod events;
mod join;
mod narrow;
mod pairs;
mod poses;
mod prefetch;
mod query;
mod report;
mod resting;
mod step;
mod store;
mod sweep;
mod world;

pub use body::{BodyDesc, BodyHandle, BodyKind, Groups};
pub use ccd::CcdHit;
pub use config::Config;
pub use error::WorldError;
pub use poses::PoseBatch;
pub use report::{
    ContactEvent, ContactPair, EndCause, EventKind, MATCH_DISTANCE, QuarantineReason, Quarantined,
    StepReport, StepTimings,
};
pub use world::CollisionWorld;

pub use glam;
/// The rayon this crate runs its parallel stages on, for
/// [`CollisionWorld::step_in`] with a pool of the caller's.
pub use rayon;
pub use sepax_broadphase as broadphase;
pub use sepax_geometry as geometry;
pub use sepax_narrowphase as narrowphase;
/// Ray casts against one shape (the narrow phase's `ray` module re-exported);
/// [`CollisionWorld::cast_ray`] casts against the world.
pub use sepax_narrowphase::ray;
pub use sepax_narrowphase::ray::RayHit;
