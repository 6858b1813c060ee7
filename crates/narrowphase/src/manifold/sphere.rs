//! Contact with a sphere: one point, halfway between the sphere's surface and the other
//! shape's along the axis.
//!
//! The axis runs through the sphere's centre, so the sphere's surface point is
//! `centre ± n·r` and the other surface lies `s` (the separation) further along `n`:
//! the point is the sphere's surface point moved by `n · s / 2` towards the other, with
//! depth `−s` and id 0 (a sphere has one feature).

use super::reduce::Candidate;
use glam::Vec3;
use smallvec::SmallVec;

/// The point when a is the sphere (radius `radius`, at a's origin): its surface point is
/// `n·r`, b's surface lies further along `n`.
pub(crate) fn sphere_a_point(radius: f32, n: Vec3, separation: f32) -> SmallVec<[Candidate; 4]> {
    let on_a = n * radius;
    SmallVec::from_elem(
        Candidate {
            point: on_a + n * (0.5 * separation),
            depth: -separation,
            id: 0,
        },
        1,
    )
}

/// The point when b is the sphere (radius `radius`, centre `centre` in a's frame): its
/// surface point is `centre − n·r`, a's surface lies further along `−n`.
pub(crate) fn sphere_b_point(
    radius: f32,
    centre: Vec3,
    n: Vec3,
    separation: f32,
) -> SmallVec<[Candidate; 4]> {
    let on_b = centre - n * radius;
    SmallVec::from_elem(
        Candidate {
            point: on_b - n * (0.5 * separation),
            depth: -separation,
            id: 0,
        },
        1,
    )
}
