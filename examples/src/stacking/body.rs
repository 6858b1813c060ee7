//! A rigid body as the solver sees it: pose, velocities, inverse mass and inertia,
//! and the semi-implicit Euler step that moves it.
//!
//! The body's local origin is its centre of mass, so the pose's translation is the
//! centre of mass and lever arms are measured from it. A static body has inverse mass
//! and inverse inertia zero: impulses do not move it, and it is never integrated.

use super::mass::mass_properties;
use glam::{Mat3, Quat, Vec3};
use sepax_pipeline::BodyHandle;
use sepax_pipeline::geometry::{Pose, Shape};

/// One body of the simulation.
#[derive(Clone, Debug)]
pub struct Body {
    /// Its handle in the collision world.
    pub handle: BodyHandle,
    /// Centre of mass and orientation.
    pub pose: Pose,
    /// Velocity of the centre of mass, m/s.
    pub linear_velocity: Vec3,
    /// Angular velocity, rad/s, world frame.
    pub angular_velocity: Vec3,
    /// `1/m`, 0 for a static body.
    pub inv_mass: f32,
    /// `I⁻¹` in the body frame, zero for a static body.
    pub inv_inertia_local: Mat3,
}

impl Body {
    /// A body at `pose`, at rest. `density` 0 (or a static body), or a shape whose
    /// mass cannot be represented, gives an immovable body; otherwise the mass and
    /// inertia come from [`mass_properties`].
    pub fn new(handle: BodyHandle, shape: &Shape, pose: Pose, density: f32) -> Body {
        let (inv_mass, inv_inertia_local) = match mass_properties(shape, density) {
            Some((m, inertia)) if density > 0.0 => (1.0 / m, inertia.inverse()),
            _ => (0.0, Mat3::ZERO),
        };
        Body {
            handle,
            pose,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            inv_mass,
            inv_inertia_local,
        }
    }

    /// True when impulses move this body.
    pub fn is_dynamic(&self) -> bool {
        self.inv_mass > 0.0
    }

    /// World inverse inertia `R I⁻¹ Rᵀ` (R the body's rotation): an angular impulse
    /// `L` (world) changes the angular velocity by `R I⁻¹ Rᵀ L`.
    pub fn inv_inertia_world(&self) -> Mat3 {
        let r = Mat3::from_quat(self.pose.rotation);
        r * self.inv_inertia_local * r.transpose()
    }

    /// Semi-implicit Euler, first half: `v += g dt` (external forces into velocity,
    /// before the contacts see it).
    pub fn apply_gravity(&mut self, gravity: Vec3, dt: f32) {
        if self.is_dynamic() {
            self.linear_velocity += gravity * dt;
        }
    }

    /// Semi-implicit Euler, second half, with the solved velocities:
    /// `x += v dt`, `q += ½ (ω, 0) q dt`, then `q` renormalised. The gyroscopic
    /// term `ω × Iω` is left out, as most game solvers do.
    pub fn integrate_position(&mut self, dt: f32) {
        if !self.is_dynamic() {
            return;
        }
        self.pose.translation += self.linear_velocity * dt;
        let w = self.angular_velocity;
        let q = self.pose.rotation;
        let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * q * (0.5 * dt);
        self.pose.rotation =
            Quat::from_xyzw(q.x + dq.x, q.y + dq.y, q.z + dq.z, q.w + dq.w).normalize();
    }

    /// Velocity of the body's material point at world offset `r` from its centre of
    /// mass: `v + ω × r`.
    pub fn point_velocity(&self, r: Vec3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_pipeline::geometry::Cuboid;
    use sepax_pipeline::{BodyDesc, CollisionWorld, Config};

    #[test]
    fn spinning_box_turns_at_its_angular_velocity() {
        let cube = Shape::from(Cuboid::try_from_size(Vec3::new(2.0, 1.0, 1.0)).unwrap());
        let mut world = CollisionWorld::new(Config::default()).unwrap();
        let h = world
            .insert(BodyDesc::dynamic(cube.clone(), Pose::IDENTITY))
            .unwrap();
        let mut body = Body::new(h, &cube, Pose::IDENTITY, 1.0);
        body.angular_velocity = Vec3::Y * 1.0;
        for _ in 0..600 {
            body.integrate_position(1.0 / 600.0);
        }
        let angle = body.pose.rotation.angle_between(Quat::IDENTITY);
        assert!((angle - 1.0).abs() < 1e-3, "{angle}");
        // World inverse inertia of a box turned 90° about y swaps x and z.
        body.pose.rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let w = body.inv_inertia_world();
        assert!((w.x_axis.x - body.inv_inertia_local.z_axis.z).abs() < 1e-4);
    }
}
