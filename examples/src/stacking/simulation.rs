//! One frame of a rigid-body simulation on top of a [`CollisionWorld`]:
//!
//! ```text
//! body poses ─► world.set_pose (dynamic bodies) ─► world.step() ─► world.report()
//!            ─► solver step: v += g dt, warm start, passes, x += v dt, relax passes
//! ```
//!
//! Each body's `user_data` in the world is its index in [`Simulation::bodies`], so a
//! contact names its two bodies directly. The report is read through a shared borrow
//! of the world while the bodies and the solver, separate fields, are borrowed
//! mutably.

use super::body::Body;
use super::solver::{Solver, SolverConfig};
use super::stats::{ManifoldStats, ManifoldTracker};
use glam::{Vec2, Vec3};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, StepReport, WorldError};
use sepax_testkit::stacks::StackScene;
use std::time::{Duration, Instant};

/// Density of every body, kg/m³ (water; the solver only sees mass ratios).
pub const DENSITY: f32 = 1000.0;

/// The contact margin of the stacking world, m. Pairs closer than this get
/// speculative points: a contact that opens by a hair for a frame keeps its pair, its
/// ids and its warm-start impulses, and a body approaching at up to
/// `margin/dt = 1.2 m/s` is stopped at the surface instead of after it sank in (a
/// resting body falls `g·dt² = 2.7 mm` per frame before its contacts act). A much
/// larger margin only adds speculative pairs that do nothing.
pub const MARGIN: f32 = 0.02;

/// What one frame cost and what its manifolds looked like.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameStats {
    /// `report.timings.total` of the collision step.
    pub collision: Duration,
    /// The solver step: gravity, constraints, passes, integration.
    pub solver: Duration,
    /// The frame's manifolds against the previous frame's.
    pub manifolds: ManifoldStats,
}

/// A scene in motion.
#[derive(Debug)]
pub struct Simulation {
    /// The collision world; body `i`'s `user_data` is `i`.
    pub world: CollisionWorld,
    /// The bodies, in the scene's order (the ground first).
    pub bodies: Vec<Body>,
    /// The velocity solver and its warm-start impulses.
    pub solver: Solver,
    tracker: ManifoldTracker,
    start: Vec<Vec3>,
    frame: usize,
}

impl Simulation {
    /// The bodies of `scene` at rest in a world of `threads` threads (0: one per core)
    /// with the [`MARGIN`].
    pub fn new(
        scene: &StackScene,
        solver: SolverConfig,
        threads: usize,
    ) -> Result<Self, WorldError> {
        let config = Config {
            threads,
            margin: MARGIN,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config)?;
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for (i, b) in scene.bodies.iter().enumerate() {
            let desc = if b.fixed {
                BodyDesc::fixed(b.shape.clone(), b.pose)
            } else {
                BodyDesc::dynamic(b.shape.clone(), b.pose)
            };
            let handle = world.insert(BodyDesc {
                user_data: i as u64,
                ..desc
            })?;
            let density = if b.fixed { 0.0 } else { DENSITY };
            bodies.push(Body::new(handle, &b.shape, b.pose, density));
        }
        Ok(Simulation {
            world,
            start: bodies.iter().map(|b| b.pose.translation).collect(),
            bodies,
            solver: Solver::new(solver),
            tracker: ManifoldTracker::default(),
            frame: 0,
        })
    }

    /// Runs one frame (see the module docs).
    pub fn step(&mut self) -> Result<FrameStats, WorldError> {
        for b in self.bodies.iter().filter(|b| b.is_dynamic()) {
            self.world.set_pose(b.handle, b.pose)?;
        }
        self.world.step();
        let report = self.world.report();
        let manifolds = self.tracker.observe(&report.contacts);

        let start = Instant::now();
        self.solver.step(&mut self.bodies, &report.contacts);
        self.frame += 1;
        Ok(FrameStats {
            collision: report.timings.total,
            solver: start.elapsed(),
            manifolds,
        })
    }

    /// Frames run so far.
    pub fn frame(&self) -> usize {
        self.frame
    }

    /// The last collision step's report (the contacts the last frame solved).
    pub fn report(&self) -> &StepReport {
        self.world.report()
    }

    /// The dynamic body that started highest (the top of a tower or pyramid).
    pub fn top(&self) -> usize {
        (0..self.bodies.len())
            .filter(|&i| self.bodies[i].is_dynamic())
            .max_by(|&i, &j| self.start[i].y.total_cmp(&self.start[j].y))
            .unwrap_or(0)
    }

    /// Horizontal (x-z) distance of body `i` from where it started, m.
    pub fn drift(&self, i: usize) -> f32 {
        let d = self.bodies[i].pose.translation - self.start[i];
        Vec2::new(d.x, d.z).length()
    }

    /// How far body `i` sank or rose since the start, m (positive: down).
    pub fn sink(&self, i: usize) -> f32 {
        self.start[i].y - self.bodies[i].pose.translation.y
    }

    /// The largest linear speed of a dynamic body, m/s.
    pub fn max_speed(&self) -> f32 {
        self.bodies
            .iter()
            .map(|b| b.linear_velocity.length())
            .fold(0.0, f32::max)
    }

    /// The largest angular speed of a dynamic body, rad/s.
    pub fn max_angular_speed(&self) -> f32 {
        self.bodies
            .iter()
            .map(|b| b.angular_velocity.length())
            .fold(0.0, f32::max)
    }
}
