//! Boxes: the local [`Cuboid`] shape and the seeds' [`OrientedBox`].

use crate::{Pose, ShapeError};
use glam::{Quat, Vec3};

/// A box centred on its local origin, axis-aligned in its local frame.
///
/// Built from half extents, or from the full **size** (width, height, depth) as the
/// seed documents give it. Every extent must be finite and positive.
///
/// ```
/// use sepax_geometry::Cuboid;
/// use glam::Vec3;
/// let a = Cuboid::try_from_size(Vec3::new(2.0, 4.0, 6.0)).unwrap();
/// assert_eq!(a.half_extents(), Vec3::new(1.0, 2.0, 3.0));
/// assert!(Cuboid::try_from_half_extents(Vec3::new(1.0, 0.0, 1.0)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// A box with the given half extents; [`ShapeError::NonFinite`] or
    /// [`ShapeError::NonPositiveExtent`] for a bad one.
    ///
    /// **Extreme values.** Every finite positive value is accepted, from the smallest
    /// denormal up to `f32::MAX`. A shape that large is stepped without a panic: the
    /// broad phase keeps its fat boxes finite, and a collision world quarantines a
    /// body whose world AABB passes `±f32::MAX` (`NonFiniteAabb`) until it fits again.
    pub fn try_from_half_extents(half_extents: Vec3) -> Result<Cuboid, ShapeError> {
        if !half_extents.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        let smallest = half_extents.min_element();
        if smallest <= 0.0 {
            return Err(ShapeError::NonPositiveExtent(smallest));
        }
        Ok(Cuboid { half_extents })
    }

    /// A box with the given full size (twice the half extents). Errors and extreme
    /// values as [`Cuboid::try_from_half_extents`] on `size / 2` (so a size up to
    /// `f32::MAX` is accepted; `+inf` is not finite).
    pub fn try_from_size(size: Vec3) -> Result<Cuboid, ShapeError> {
        Cuboid::try_from_half_extents(size * 0.5)
    }

    /// Half the size on each local axis.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }

    /// The 8 corners in the local frame; corner `i` has sign `+` on axis `k` when
    /// bit `k` of `i` is set.
    pub fn vertices(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
    }
}

/// The box of the seed documents: a **center**, a full **size** and a rotation.
///
/// It is a [`Cuboid`] (the shape) plus a [`Pose`] (where it is); [`OrientedBox::split`]
/// gives both for the narrow phase.
///
/// ```
/// use sepax_geometry::OrientedBox;
/// use glam::{Quat, Vec3};
/// let b = OrientedBox::try_new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 2.0, 2.0), Quat::IDENTITY)
///     .unwrap();
/// let v = b.vertices();
/// assert!(v.contains(&Vec3::new(2.0, 1.0, 1.0)));
/// assert!(v.contains(&Vec3::new(0.0, -1.0, -1.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedBox {
    /// The local box.
    pub cuboid: Cuboid,
    /// Its center and rotation.
    pub pose: Pose,
}

impl OrientedBox {
    /// A box from center, full size and rotation. The rotation is normalized; a zero
    /// or non-finite quaternion, a non-finite center or a non-positive size is an error.
    /// Any finite center and any size [`Cuboid::try_from_size`] accepts are accepted.
    pub fn try_new(center: Vec3, size: Vec3, rotation: Quat) -> Result<OrientedBox, ShapeError> {
        if !center.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        let cuboid = Cuboid::try_from_size(size)?;
        if !rotation.is_finite() || rotation.length_squared() < 1e-12 {
            return Err(ShapeError::InvalidRotation);
        }
        Ok(OrientedBox {
            cuboid,
            pose: Pose::new(center, rotation.normalize()),
        })
    }

    /// The center.
    pub fn center(&self) -> Vec3 {
        self.pose.translation
    }

    /// The full size.
    pub fn size(&self) -> Vec3 {
        self.cuboid.half_extents() * 2.0
    }

    /// The 8 world-space corners: center ± size/2, rotated about the center
    /// (`v' = q v q̄`, as seed 000 writes it).
    pub fn vertices(&self) -> [Vec3; 8] {
        self.cuboid.vertices().map(|v| self.pose.transform_point(v))
    }

    /// The shape and its pose, as the narrow phase takes them.
    pub fn split(&self) -> (Cuboid, Pose) {
        (self.cuboid, self.pose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_sizes() {
        assert_eq!(
            Cuboid::try_from_size(Vec3::new(1.0, -1.0, 1.0)),
            Err(ShapeError::NonPositiveExtent(-0.5))
        );
        assert_eq!(
            Cuboid::try_from_size(Vec3::new(1.0, f32::NAN, 1.0)),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            OrientedBox::try_new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            Err(ShapeError::InvalidRotation)
        );
        assert_eq!(
            OrientedBox::try_new(Vec3::splat(f32::INFINITY), Vec3::ONE, Quat::IDENTITY),
            Err(ShapeError::NonFinite)
        );
    }

    #[test]
    fn rotated_vertices_keep_distance_to_center() {
        let b = OrientedBox::try_new(
            Vec3::new(3.0, -2.0, 1.0),
            Vec3::new(2.0, 4.0, 6.0),
            Quat::from_xyzw(0.3, 0.1, -0.4, 0.8),
        )
        .unwrap();
        let half_diagonal = Vec3::new(1.0, 2.0, 3.0).length();
        for v in b.vertices() {
            assert!(((v - b.center()).length() - half_diagonal).abs() < 1e-5);
        }
    }
}
