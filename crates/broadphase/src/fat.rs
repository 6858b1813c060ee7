//! Fat boxes: a proxy's box grown by a fraction of its largest extent, kept finite.
//!
//! The sweep ends every run with a sentinel whose `min_a` is `+inf`, and the grid and
//! the static cache compare fat boxes with `<=`: all of that needs fat boxes that are
//! finite. A valid box is finite, but growing it can overflow: a box wider than
//! `f32::MAX / 2` (its size is already `+inf`), or one lying near `±f32::MAX`, would
//! grow to `±inf` and the sentinel would no longer stop the forward loop (issue 9).
//! So every fat box is clamped to `[−f32::MAX, f32::MAX]`. Clamping keeps the one
//! invariant the broad phase relies on: the box lies inside its fat box (a valid box
//! lies inside `[−f32::MAX, f32::MAX]`). A clamped fat box only means more candidates.

use glam::Vec3;
use sepax_geometry::Aabb;

/// `aabb` grown by `fraction` of its largest extent on every side, clamped to
/// `±f32::MAX` (always finite for a valid `aabb`, and always containing it).
#[inline]
pub(crate) fn fat_box(aabb: &Aabb, fraction: f32) -> Aabb {
    let grown = aabb.expanded(fraction * aabb.size().max_element());
    let limit = Vec3::splat(f32::MAX);
    Aabb::new(grown.min.max(-limit), grown.max.min(limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_9_fat_boxes_of_huge_boxes_stay_finite() {
        let cases = [
            Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX)),
            Aabb::new(Vec3::splat(-2e38), Vec3::splat(2e38)),
            Aabb::new(Vec3::splat(3.2e38), Vec3::splat(3.4e38)),
            Aabb::new(Vec3::splat(-3.4e38), Vec3::splat(-3.2e38)),
            Aabb::new(Vec3::ZERO, Vec3::ONE),
        ];
        for aabb in cases {
            let fat = fat_box(&aabb, 0.25);
            assert!(fat.is_valid(), "{aabb:?} -> {fat:?}");
            assert!(fat.contains(&aabb));
        }
        let unit = fat_box(&Aabb::new(Vec3::ZERO, Vec3::ONE), 0.5);
        assert_eq!(unit, Aabb::new(Vec3::splat(-0.5), Vec3::splat(1.5)));
    }
}
