//! Axis-aligned bounding boxes.

use crate::ShapeError;
use glam::Vec3;

/// A closed axis-aligned box `[min, max]`.
///
/// Intervals are closed: two boxes that share only a face, an edge or a corner
/// overlap, and a zero-size box (a point) is valid. [`Aabb::try_new`] refuses NaN,
/// infinities and `min > max`, so a box that passed it is safe to sort on.
///
/// ```
/// use sepax_geometry::Aabb;
/// use glam::Vec3;
///
/// let a = Aabb::try_new(Vec3::ZERO, Vec3::ONE).unwrap();
/// let b = Aabb::try_new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)).unwrap();
/// assert!(a.overlaps(&b)); // touching faces count
/// assert!(Aabb::try_new(Vec3::ONE, Vec3::ZERO).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Aabb {
    /// The box `[min, max]`, unchecked. Use [`Aabb::try_new`] for user data.
    #[inline]
    pub const fn new(min: Vec3, max: Vec3) -> Aabb {
        Aabb { min, max }
    }

    /// The box `[min, max]`; an error if a value is not finite or `min > max` on an axis.
    pub fn try_new(min: Vec3, max: Vec3) -> Result<Aabb, ShapeError> {
        let aabb = Aabb { min, max };
        aabb.validate()?;
        Ok(aabb)
    }

    /// `Ok` when finite and `min <= max` on every axis.
    #[inline]
    pub fn validate(&self) -> Result<(), ShapeError> {
        // The common case without a branch per coordinate: `0·x` is ±0 for a finite
        // `x` and NaN for ±∞ and NaN, so the sum below equals 0 on every axis exactly
        // when all six coordinates are finite (NaN compares false).
        let finite = (self.min * 0.0 + self.max * 0.0).cmpeq(Vec3::ZERO);
        if (finite & self.min.cmple(self.max)).all() {
            return Ok(());
        }
        if !(self.min.is_finite() && self.max.is_finite()) {
            return Err(ShapeError::NonFinite);
        }
        if self.min.cmpgt(self.max).any() {
            return Err(ShapeError::Inverted);
        }
        Ok(())
    }

    /// True when finite and `min <= max` on every axis.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.validate().is_ok()
    }

    /// The box around `center` with half extents `half_extents` (unchecked).
    #[inline]
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Aabb {
        Aabb::new(center - half_extents, center + half_extents)
    }

    /// The smallest box holding every point; `None` for an empty slice.
    pub fn from_points(points: &[Vec3]) -> Option<Aabb> {
        let (first, rest) = points.split_first()?;
        let mut aabb = Aabb::new(*first, *first);
        for p in rest {
            aabb.min = aabb.min.min(*p);
            aabb.max = aabb.max.max(*p);
        }
        Some(aabb)
    }

    /// Closed-interval overlap test: touching boxes overlap.
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// True when `p` is inside or on the boundary.
    #[inline]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// True when `other` lies entirely inside `self` (boundaries included).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin; the
    /// result may then be inverted, which [`Aabb::is_valid`] reports).
    #[inline]
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb::new(
            self.min - Vec3::splat(margin),
            self.max + Vec3::splat(margin),
        )
    }

    /// Center point.
    #[inline]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half the size on each axis.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }

    /// Full size on each axis.
    #[inline]
    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }

    /// Surface area (the SAH cost measure).
    pub fn surface_area(&self) -> f32 {
        let d = self.size();
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// Slab test for the ray `origin + t * dir`, `t` in `[0, max_t]`: the entry
    /// parameter if the ray hits the box (0 when it starts inside).
    pub fn ray_entry(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<f32> {
        let inv = dir.recip();
        let t0 = (self.min - origin) * inv;
        let t1 = (self.max - origin) * inv;
        let mut t_enter = 0.0f32;
        let mut t_exit = max_t;
        for axis in 0..3 {
            if dir[axis] == 0.0 {
                if origin[axis] < self.min[axis] || origin[axis] > self.max[axis] {
                    return None;
                }
                continue;
            }
            let (near, far) = if t0[axis] <= t1[axis] {
                (t0[axis], t1[axis])
            } else {
                (t1[axis], t0[axis])
            };
            t_enter = t_enter.max(near);
            t_exit = t_exit.min(far);
        }
        (t_enter <= t_exit).then_some(t_enter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `validate`'s branch-free fast path against the definition, coordinate by
    /// coordinate, on every placement of the special values in a box.
    #[test]
    fn validate_agrees_with_the_definition() {
        let values = [
            0.0,
            -0.0,
            1.0e-40,
            -1.0e-40,
            1.5,
            -2.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let definition = |b: &Aabb| {
            let (min, max) = (b.min.to_array(), b.max.to_array());
            if min.iter().chain(&max).any(|v| !v.is_finite()) {
                Err(ShapeError::NonFinite)
            } else if (0..3).any(|k| min[k] > max[k]) {
                Err(ShapeError::Inverted)
            } else {
                Ok(())
            }
        };
        let mut checked = 0;
        for (i, &u) in values.iter().enumerate() {
            for &v in &values {
                for axis in 0..3 {
                    // u and v on one axis, ordinary values on the others.
                    let (mut min, mut max) = ([-1.0f32; 3], [1.0f32; 3]);
                    (min[axis], max[axis]) = (u, v);
                    // And a second axis with a value from the list.
                    min[(axis + 1) % 3] = values[(i + 3) % values.len()].min(0.5);
                    let b = Aabb::new(Vec3::from_array(min), Vec3::from_array(max));
                    assert_eq!(b.validate(), definition(&b), "{b:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, values.len() * values.len() * 3);
    }

    #[test]
    fn refuses_bad_values() {
        assert_eq!(
            Aabb::try_new(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ONE),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            Aabb::try_new(Vec3::ZERO, Vec3::splat(f32::INFINITY)),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            Aabb::try_new(Vec3::ONE, Vec3::ZERO),
            Err(ShapeError::Inverted)
        );
        assert!(Aabb::try_new(Vec3::ONE, Vec3::ONE).is_ok());
    }

    #[test]
    fn touching_and_points_overlap() {
        let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let corner = Aabb::new(Vec3::ONE, Vec3::splat(2.0));
        assert!(a.overlaps(&corner));
        let point = Aabb::new(Vec3::splat(0.5), Vec3::splat(0.5));
        assert!(a.overlaps(&point) && point.overlaps(&a));
        let apart = Aabb::new(Vec3::new(1.0 + 1e-6, 0.0, 0.0), Vec3::splat(2.0));
        assert!(!a.overlaps(&apart));
    }

    #[test]
    fn ray_entry_hits_and_misses() {
        let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let t = a.ray_entry(Vec3::new(-1.0, 0.5, 0.5), Vec3::X, 10.0);
        assert_eq!(t, Some(1.0));
        assert_eq!(a.ray_entry(Vec3::new(-1.0, 2.0, 0.5), Vec3::X, 10.0), None);
        assert_eq!(a.ray_entry(Vec3::splat(0.5), Vec3::Y, 10.0), Some(0.0));
        assert_eq!(a.ray_entry(Vec3::new(-1.0, 0.5, 0.5), Vec3::X, 0.5), None);
    }
}
