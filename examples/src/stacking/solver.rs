//! One step of the dynamics: the soft-step sequential-impulse solver over one
//! collision step's contacts, warm-started from the previous step's impulses through
//! the report's `previous` / `previous_points` indices.
//!
//! ```text
//! v += g dt ─► constraints at the current poses ─► warm start
//!           ─► `iterations` passes with bias (soft push-out)
//!           ─► x += v dt, q += ½ (ω,0) q dt ─► separations at the new poses
//!           ─► `relax_iterations` passes without bias ─► impulses kept for the next step
//! ```
//!
//! **Warm starting without a map.** The accumulated impulses live in a `Vec` parallel
//! to `report.contacts`. At the next step, pair `i` with `previous = Some(p)` reads
//! point `j`'s starting impulse at `impulses[p][k]` with `k = previous_points[j]`;
//! a pair or point that is new starts at zero. The old vector is then replaced by the
//! new one. Nothing is hashed, and nothing is looked up by body.
//!
//! Why it matters: in a resting stack of `n` bodies the bottom contact carries the
//! weight of all `n`; starting from zero, 10 passes hand that weight down only
//! partly each step, and the stack sinks and sways. A point whose match is lost
//! starts from zero, which at that point is the same as no warm starting.
//!
//! **Why soft contacts.** With rigid rows and Baumgarte (β = 0.2, 5 mm slop) this
//! solver lets even the alternating tower (no equal faces, 100 % of points
//! persisting) rock, driven by friction impulses warm-started from a step that moved
//! the other way, until its top box has moved half a metre after 10 s; at 100
//! passes it still rocks at 0.2 m/s. The soft normal row (30 Hz, ζ = 10, Box2D v3's
//! defaults) leaks 1.4 % of the impulse per pass and holds it within millimetres at
//! 10 passes.

use super::body::Body;
use super::constraint::{ContactConstraint, PointImpulse, RowParams, Softness};
use glam::Vec3;
use sepax_pipeline::ContactPair;

/// Solver settings. The defaults are those of the stacking scenes: 60 Hz, 10
/// iterations and 2 relax passes, soft contacts of 30 Hz and damping ratio 10, slop
/// 5 mm, μ = 0.6, restitution 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverConfig {
    /// Time step, s.
    pub dt: f32,
    /// Velocity passes with push-out, per step.
    pub iterations: usize,
    /// Velocity passes without push-out, after the positions moved.
    pub relax_iterations: usize,
    /// Gravity, m/s².
    pub gravity: Vec3,
    /// Stiffness of the soft contact, Hz; 0 makes the rows rigid with no push-out.
    pub contact_hertz: f32,
    /// Damping ratio of the soft contact.
    pub contact_damping: f32,
    /// Penetration left uncorrected, m.
    pub slop: f32,
    /// Largest separating speed asked by the push-out, m/s.
    pub max_push: f32,
    /// Coulomb friction coefficient of every contact.
    pub friction: f32,
    /// Warm-start from last step's impulses (off only to show what it is worth).
    pub warm_start: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            dt: 1.0 / 60.0,
            iterations: 10,
            relax_iterations: 2,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            contact_hertz: 30.0,
            contact_damping: 10.0,
            slop: 0.005,
            max_push: 3.0,
            friction: 0.6,
            warm_start: true,
        }
    }
}

impl SolverConfig {
    fn row_params(&self) -> RowParams {
        RowParams {
            dt: self.dt,
            softness: Softness::new(self.contact_hertz, self.contact_damping, self.dt),
            slop: self.slop,
            max_push: self.max_push,
            friction: self.friction,
        }
    }
}

/// The solver and the impulses it carries from step to step.
#[derive(Debug, Default)]
pub struct Solver {
    /// Settings.
    pub config: SolverConfig,
    /// Accumulated impulses of last step, parallel to last step's `contacts`.
    impulses: Vec<[PointImpulse; 4]>,
    /// This step's constraints (kept to reuse the allocation).
    constraints: Vec<ContactConstraint>,
}

impl Solver {
    /// A solver with `config` and no history.
    pub fn new(config: SolverConfig) -> Solver {
        Solver {
            config,
            ..Solver::default()
        }
    }

    /// Advances `bodies` by one step against this step's `contacts` (see the module
    /// docs). A pair's `user_data` are the indices of its bodies in `bodies`.
    pub fn step(&mut self, bodies: &mut [Body], contacts: &[ContactPair]) {
        let cfg = self.config;
        let params = cfg.row_params();
        for b in bodies.iter_mut() {
            b.apply_gravity(cfg.gravity, cfg.dt);
        }
        self.constraints.clear();
        for pair in contacts {
            let warm = self.start_values(pair);
            let ab = (pair.user_data[0] as usize, pair.user_data[1] as usize);
            let c = ContactConstraint::new(pair, ab, bodies, &warm, cfg.friction);
            self.constraints.push(c);
        }
        for c in &self.constraints {
            c.warm_start(bodies);
        }
        for _ in 0..cfg.iterations {
            for c in &mut self.constraints {
                c.solve(bodies, &params, true);
            }
        }
        for b in bodies.iter_mut() {
            b.integrate_position(cfg.dt);
        }
        for c in &mut self.constraints {
            c.update_separation(bodies);
        }
        for _ in 0..cfg.relax_iterations {
            for c in &mut self.constraints {
                c.solve(bodies, &params, false);
            }
        }
        self.impulses.clear();
        self.impulses
            .extend(self.constraints.iter().map(ContactConstraint::impulses));
    }

    /// The impulses a pair's points start from: the point each continues in last
    /// step's manifold of the same pair, or zero.
    fn start_values(&self, pair: &ContactPair) -> [PointImpulse; 4] {
        let mut warm = [PointImpulse::default(); 4];
        let Some(prev) = pair.previous.filter(|_| self.config.warm_start) else {
            return warm;
        };
        let Some(old) = self.impulses.get(prev as usize) else {
            return warm;
        };
        for (w, matched) in warm.iter_mut().zip(pair.previous_points) {
            if let Some(k) = matched {
                *w = old[k as usize];
            }
        }
        warm
    }
}
