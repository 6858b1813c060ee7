//! One contact manifold as a velocity constraint: per point, a non-penetration row
//! along the normal and two friction rows along tangents, solved by sequential
//! impulses with accumulated clamping (Catto, "Iterative Dynamics with Temporal
//! Coherence", GDC 2005), the normal row made soft as in Box2D v3's soft step.
//!
//! **Rows.** For a point with lever arms `r_a`, `r_b` (from each centre of mass to
//! the point) and a direction `d` (the normal `n`, a→b, or a tangent), the relative
//! velocity along `d` is
//! `v_d = d · ((v_b + ω_b × r_b) − (v_a + ω_a × r_a))`, positive when b moves away
//! along `d`. An impulse `λ d` at the point changes it by `λ k`, with the effective
//! inverse mass `k = 1/m_a + 1/m_b + (r_a×d)·I_a⁻¹(r_a×d) + (r_b×d)·I_b⁻¹(r_b×d)`.
//! One pass over a row: `Δλ = −(v_d − target)/k`, then clamp the **accumulated**
//! impulse (not `Δλ`): normal `λ_n ≥ 0` (contacts push, never pull), friction
//! `|(λ_t1, λ_t2)| ≤ μ λ_n` (Coulomb's cone, as a disc).
//!
//! **Separation** `s = n·(p_b − p_a)`, with the surface points `p = pose · anchor`
//! recomputed from the anchors at the current poses (at the collision step `s = −depth`;
//! after the positions moved, [`update_separation`](ContactConstraint::update_separation)).
//!
//! **Target normal velocity.**
//! * `s > 0`, a speculative point (a gap within the margin): `target = −s/dt`. The
//!   bodies may close the gap in this step but not pass it, so a contact about to
//!   happen is stopped on time and never missed. Rigid, in every pass.
//! * `s ≤ 0`, penetrating, in a pass *with bias*: a soft constraint, a spring of
//!   frequency `f` and damping ratio `ζ` solved implicitly (Catto, "Soft Step", 2024):
//!   with `ω = 2πf`, `a₁ = 2ζ + hω`, `a₂ = hω a₁`, `a₃ = 1/(1 + a₂)`,
//!   `target = ω/a₁ · max(−s − slop, 0)` (capped at `max_push`) and
//!   `Δλ = −a₂a₃ (v_n − target)/k − a₃ λ_n`. The last term leaks a little of the
//!   accumulated impulse each pass: it regularises the stack's ill-conditioned
//!   rocking modes, which rigid rows with plain Baumgarte (`target = β/dt · …`, no
//!   leak) let grow until a tall tower falls.
//! * `s ≤ 0` in a *relax* pass (after the positions moved): `target = 0`, rigid. The
//!   push-out moved the positions but leaves no velocity behind, so resolving a
//!   penetration adds no kinetic energy.
//!
//! The slop leaves resting bodies a little overlap, so they stay touching (and keep
//! their feature ids) instead of being pushed apart and falling back every frame.
//!
//! **Warm start.** Each row starts from last step's accumulated impulse for the same
//! point, applied to the bodies before the first pass. Friction is kept as a world
//! vector and projected on this step's tangents, so a tangent basis that turns with
//! the normal loses nothing.

use super::body::Body;
use glam::{Mat3, Vec3};
use sepax_pipeline::ContactPair;
use sepax_pipeline::narrowphase::ManifoldPoint;

/// The accumulated impulse of one manifold point, kept from one step to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointImpulse {
    /// Along the normal, N·s, ≥ 0.
    pub normal: f32,
    /// Friction, N·s, a world vector perpendicular to the normal.
    pub friction: Vec3,
}

/// The soft-constraint coefficients of a spring of `hertz` and damping ratio `zeta`
/// over a step `h` (see the module docs): `bias_rate = ω/a₁`, `mass_scale = a₂a₃`,
/// `impulse_scale = a₃`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// Target velocity per metre of penetration, 1/s.
    pub bias_rate: f32,
    /// Scales the effective mass.
    pub mass_scale: f32,
    /// Fraction of the accumulated impulse leaked per pass.
    pub impulse_scale: f32,
}

impl Softness {
    /// A rigid row: no push-out, full mass, no leak.
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// `ω = 2πf`, `a₁ = 2ζ + hω`, `a₂ = hω a₁`, `a₃ = 1/(1 + a₂)`; rigid for `f ≤ 0`.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz <= 0.0 {
            return Softness::RIGID;
        }
        let omega = std::f32::consts::TAU * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// The solver's knobs that shape a constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowParams {
    /// Time step, s.
    pub dt: f32,
    /// The soft normal row of a pass with bias.
    pub softness: Softness,
    /// Penetration left alone, m.
    pub slop: f32,
    /// Cap on the separating speed the push-out asks for, m/s.
    pub max_push: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
}

/// One point's rows.
#[derive(Clone, Copy, Debug, Default)]
struct PointRow {
    anchor_a: Vec3,
    anchor_b: Vec3,
    r_a: Vec3,
    r_b: Vec3,
    separation: f32,
    /// `1/k` along the normal and the two tangents.
    normal_mass: f32,
    tangent_mass: [f32; 2],
    normal: f32,
    tangent: [f32; 2],
}

/// The rows of one manifold, between bodies `a` and `b` (indices in the body slice).
#[derive(Clone, Debug)]
pub struct ContactConstraint {
    a: usize,
    b: usize,
    inv_mass: [f32; 2],
    inv_inertia: [Mat3; 2],
    normal: Vec3,
    tangents: [Vec3; 2],
    friction: f32,
    points: [PointRow; 4],
    len: usize,
}

impl ContactConstraint {
    /// The constraint of `pair` between `bodies[a]` and `bodies[b]`, its rows started
    /// from `warm` (last step's impulses, per point).
    ///
    /// The tangents are any orthonormal pair perpendicular to `n` (Duff et al.'s
    /// branchless basis); lever arms `r = R · anchor` are fixed for the step.
    pub fn new(
        pair: &ContactPair,
        (a, b): (usize, usize),
        bodies: &[Body],
        warm: &[PointImpulse; 4],
        friction: f32,
    ) -> ContactConstraint {
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let normal = pair.manifold.normal;
        let tangents = normal.any_orthonormal_pair();
        let mut c = ContactConstraint {
            a,
            b,
            inv_mass: [ba.inv_mass, bb.inv_mass],
            inv_inertia: [ba.inv_inertia_world(), bb.inv_inertia_world()],
            normal,
            tangents: [tangents.0, tangents.1],
            friction,
            points: [PointRow::default(); 4],
            len: pair.manifold.points.len().min(4),
        };
        for (i, p) in pair.manifold.points.iter().take(4).enumerate() {
            c.points[i] = c.row(p, ba, bb, &warm[i]);
        }
        c
    }

    fn row(&self, p: &ManifoldPoint, ba: &Body, bb: &Body, warm: &PointImpulse) -> PointRow {
        let r_a = ba.pose.rotation * p.anchor_a;
        let r_b = bb.pose.rotation * p.anchor_b;
        let mass = |d: Vec3| 1.0 / self.inverse_mass_along(r_a, r_b, d);
        let mut row = PointRow {
            anchor_a: p.anchor_a,
            anchor_b: p.anchor_b,
            r_a,
            r_b,
            separation: 0.0,
            normal_mass: mass(self.normal),
            tangent_mass: [mass(self.tangents[0]), mass(self.tangents[1])],
            normal: warm.normal,
            tangent: [
                warm.friction.dot(self.tangents[0]),
                warm.friction.dot(self.tangents[1]),
            ],
        };
        row.separation = self.separation(&row, ba, bb);
        row
    }

    /// `k = 1/m_a + 1/m_b + (r_a×d)·I_a⁻¹(r_a×d) + (r_b×d)·I_b⁻¹(r_b×d)`.
    fn inverse_mass_along(&self, r_a: Vec3, r_b: Vec3, d: Vec3) -> f32 {
        let (ca, cb) = (r_a.cross(d), r_b.cross(d));
        self.inv_mass[0]
            + self.inv_mass[1]
            + ca.dot(self.inv_inertia[0] * ca)
            + cb.dot(self.inv_inertia[1] * cb)
    }

    /// `s = n · (pose_b · anchor_b − pose_a · anchor_a)` at the bodies' current poses.
    fn separation(&self, p: &PointRow, ba: &Body, bb: &Body) -> f32 {
        let pa = ba.pose.transform_point(p.anchor_a);
        let pb = bb.pose.transform_point(p.anchor_b);
        self.normal.dot(pb - pa)
    }

    /// Recomputes every point's separation after the bodies moved.
    pub fn update_separation(&mut self, bodies: &[Body]) {
        let (ba, bb) = (&bodies[self.a], &bodies[self.b]);
        for i in 0..self.len {
            self.points[i].separation = self.separation(&self.points[i], ba, bb);
        }
    }

    /// `v_d` of the module docs for a point with lever arms `r_a`, `r_b`.
    fn relative_velocity(&self, bodies: &[Body], r_a: Vec3, r_b: Vec3) -> Vec3 {
        bodies[self.b].point_velocity(r_b) - bodies[self.a].point_velocity(r_a)
    }

    /// Applies `−P` at `r_a` on a and `+P` at `r_b` on b:
    /// `v_a −= P/m_a`, `ω_a −= I_a⁻¹ (r_a × P)`, and the opposite on b.
    fn apply(&self, bodies: &mut [Body], r_a: Vec3, r_b: Vec3, impulse: Vec3) {
        let ba = &mut bodies[self.a];
        ba.linear_velocity -= impulse * self.inv_mass[0];
        ba.angular_velocity -= self.inv_inertia[0] * r_a.cross(impulse);
        let bb = &mut bodies[self.b];
        bb.linear_velocity += impulse * self.inv_mass[1];
        bb.angular_velocity += self.inv_inertia[1] * r_b.cross(impulse);
    }

    /// Applies last step's impulses (the rows' starting values) to the bodies.
    pub fn warm_start(&self, bodies: &mut [Body]) {
        for p in &self.points[..self.len] {
            let impulse = self.normal * p.normal
                + self.tangents[0] * p.tangent[0]
                + self.tangents[1] * p.tangent[1];
            self.apply(bodies, p.r_a, p.r_b, impulse);
        }
    }

    /// One Gauss–Seidel pass over the rows: friction of every point (bounded by the
    /// current normal impulse), then the normal rows, soft with push-out when
    /// `use_bias`, rigid with target 0 otherwise (a relax pass).
    pub fn solve(&mut self, bodies: &mut [Body], params: &RowParams, use_bias: bool) {
        self.solve_friction(bodies);
        self.solve_normal(bodies, params, use_bias);
    }

    /// Both tangent rows of a point from the same relative velocity, then the
    /// accumulated pair clamped to the disc `|λ_t| ≤ μ λ_n`.
    fn solve_friction(&mut self, bodies: &mut [Body]) {
        for i in 0..self.len {
            let p = self.points[i];
            let v = self.relative_velocity(bodies, p.r_a, p.r_b);
            let mut t = p.tangent;
            for (k, tangent) in self.tangents.iter().enumerate() {
                t[k] -= v.dot(*tangent) * p.tangent_mass[k];
            }
            let limit = self.friction * p.normal;
            let len = (t[0] * t[0] + t[1] * t[1]).sqrt();
            if len > limit {
                t = [t[0] * limit / len, t[1] * limit / len];
            }
            self.points[i].tangent = t;
            let d = [t[0] - p.tangent[0], t[1] - p.tangent[1]];
            let impulse = self.tangents[0] * d[0] + self.tangents[1] * d[1];
            self.apply(bodies, p.r_a, p.r_b, impulse);
        }
    }

    /// `Δλ = −mass_scale (v_n − target)/k − impulse_scale λ_n`, `λ_n ← max(λ_n + Δλ, 0)`,
    /// with target and softness chosen from the separation (see the module docs).
    fn solve_normal(&mut self, bodies: &mut [Body], params: &RowParams, use_bias: bool) {
        for i in 0..self.len {
            let p = self.points[i];
            let s = p.separation;
            let (target, soft) = if s > 0.0 {
                (-s / params.dt, Softness::RIGID)
            } else if use_bias {
                let soft = params.softness;
                let push = soft.bias_rate * (-s - params.slop).max(0.0);
                (push.min(params.max_push), soft)
            } else {
                (0.0, Softness::RIGID)
            };
            let vn = self
                .relative_velocity(bodies, p.r_a, p.r_b)
                .dot(self.normal);
            let delta =
                -p.normal_mass * soft.mass_scale * (vn - target) - soft.impulse_scale * p.normal;
            let total = (p.normal + delta).max(0.0);
            self.points[i].normal = total;
            self.apply(bodies, p.r_a, p.r_b, self.normal * (total - p.normal));
        }
    }

    /// The accumulated impulses, per point, to warm-start the next step.
    pub fn impulses(&self) -> [PointImpulse; 4] {
        let mut out = [PointImpulse::default(); 4];
        for (o, p) in out.iter_mut().zip(&self.points[..self.len]) {
            *o = PointImpulse {
                normal: p.normal,
                friction: self.tangents[0] * p.tangent[0] + self.tangents[1] * p.tangent[1],
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Simulation, SolverConfig};
    use glam::Vec3;
    use sepax_testkit::stacks;

    /// Coulomb's law end to end: a cube sliding at `v₀` on the ground decelerates at
    /// `μg` and stops after `v₀²/(2μg)`, less `v₀ dt/2` (semi-implicit Euler moves with
    /// the velocity after each step's friction), without tipping or bouncing.
    #[test]
    fn friction_stops_a_sliding_box_after_v2_over_2_mu_g() {
        let config = SolverConfig::default();
        let mut sim = Simulation::new(&stacks::tower(1), config, 1).unwrap();
        for _ in 0..30 {
            sim.step().unwrap(); // settle
        }
        let v0 = 3.0;
        let start = sim.bodies[1].pose.translation;
        sim.bodies[1].linear_velocity = Vec3::X * v0;
        for _ in 0..120 {
            sim.step().unwrap();
        }
        let travelled = sim.bodies[1].pose.translation.x - start.x;
        let expected = v0 * v0 / (2.0 * config.friction * 9.81) - v0 * config.dt / 2.0;
        assert!(
            (travelled - expected).abs() < 0.01 * expected,
            "{travelled} m, expected {expected} m"
        );
        let (v, w) = (sim.max_speed(), sim.max_angular_speed());
        assert!(v < 1e-3 && w < 1e-3, "still moving: {v} m/s, {w} rad/s");
        // Friction's tipping torque loads the front edge while sliding; the overlap it
        // leaves stays within the slop, which is not pushed out.
        let dy = sim.bodies[1].pose.translation.y - start.y;
        assert!(
            dy < 1e-3 && -dy < config.slop + 1e-3,
            "height changed by {dy} m"
        );
    }
}
