//! A small sequential-impulse rigid-body solver on top of sepax, to show that its
//! contact manifolds hold up a stack: the `stacking` example and `tests/stacking.rs`.
//!
//! It is an example, not part of sepax, but a real solver of the kind games use
//! (Box2D, Bullet, Jolt): what it asks of the manifolds is what theirs ask.
//!
//! * [`body`]: pose, velocities, inverse mass and inertia (`I_world⁻¹ = R I⁻¹ Rᵀ`),
//!   semi-implicit Euler at 60 Hz; [`mass`]: mass and inertia of a shape.
//! * [`constraint`]: per manifold point, a normal row (accumulated impulse ≥ 0, a
//!   soft push-out beyond a 5 mm slop, speculative points allowed to close their
//!   gap) and two Coulomb friction rows (μ = 0.6), lever arms from the manifold's
//!   anchors, separations recomputed from the anchors at the current poses.
//! * [`solver`]: one step: gravity, 10 Gauss–Seidel iterations warm-started with the
//!   report's `previous` / `previous_points` indices and a `Vec` parallel to
//!   `contacts`, positions integrated, 2 relax passes (Box2D v3's soft step, one
//!   substep).
//! * [`simulation`]: one frame: poses into the [`CollisionWorld`](sepax_pipeline::CollisionWorld),
//!   `step`, the report into the solver.
//! * the scenes (tower, alternating tower, pyramid, pile, mixed) come from
//!   [`sepax_testkit::stacks`]; [`stats`]: point persistence, id persistence, normal
//!   turn; [`picture`]: side-view PNG frames.
//!
//! **What the manifolds must give a solver.** Points that persist from one frame to
//! the next while the same features touch (ids, or failing that anchors, that hold),
//! or warm starting is lost and a tower creeps and sinks; a normal that does not flip
//! between the two bodies' faces, or a box is pushed the long way; the deepest point
//! kept in the reduction, or the body sinks at that corner; anchors on both bodies, so
//! the solver can take lever arms and recompute the separation at the current poses.
//!
//! ```
//! use sepax_examples::stacking::{Simulation, SolverConfig};
//! use sepax_testkit::stacks;
//!
//! let mut sim = Simulation::new(&stacks::tower(1), SolverConfig::default(), 1).unwrap();
//! for _ in 0..60 {
//!     sim.step().unwrap();
//! }
//! let cube = sim.top();
//! assert!(sim.drift(cube) < 1e-3);
//! assert!(sim.max_speed() < 0.05); // resting on the ground after a second
//! ```

pub mod body;
pub mod constraint;
pub mod mass;
pub mod picture;
pub mod simulation;
pub mod solver;
pub mod stats;

pub use body::Body;
pub use simulation::{FrameStats, Simulation};
pub use solver::{Solver, SolverConfig};
