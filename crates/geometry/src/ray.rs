//! The ray convention every sepax crate follows, and the one check of a ray.
//!
//! A ray is `origin + t * dir`, `t` in `[0, max_t]`; `dir` need not be unit length and
//! `t` is in its units. [`Aabb::ray_entry`](crate::Aabb::ray_entry) casts one against a
//! box, the broad phase's BVH against many boxes, the narrow phase's `ray` module against
//! a shape.
//!
//! **Valid rays** ([`is_valid_ray`]): a finite origin, `max_t` not NaN and `>= 0`
//! (`+inf` allowed), and a direction whose squared length is a normal `f32`, so
//! `|dir|` lies between about `1.1e-19` and `1.8e19`. Shorter directions (a denormal
//! one, say) underflow `|dir|²` to 0 or a denormal, and an entry parameter
//! `distance / |dir|` overflows: such a ray used to hit at `t = inf` with NaN
//! coordinates (issue 9). Longer ones overflow `|dir|²`.

use glam::Vec3;

/// True when the ray `origin + t * dir`, `t` in `[0, max_t]`, can be cast: a finite
/// origin, a direction whose squared length is a normal `f32` (see the
/// [module docs](self)), and `max_t >= 0` (`+inf` allowed, NaN not).
///
/// ```
/// use sepax_geometry::is_valid_ray;
/// use glam::Vec3;
/// assert!(is_valid_ray(Vec3::ZERO, Vec3::X * 1e-10, f32::INFINITY));
/// assert!(!is_valid_ray(Vec3::ZERO, Vec3::X * 1e-45, 1.0)); // denormal direction
/// assert!(!is_valid_ray(Vec3::ZERO, Vec3::ZERO, 1.0));
/// assert!(!is_valid_ray(Vec3::ZERO, Vec3::X, f32::NAN));
/// ```
pub fn is_valid_ray(origin: Vec3, dir: Vec3, max_t: f32) -> bool {
    origin.is_finite() && dir.length_squared().is_normal() && max_t >= 0.0
}
