//! A sphere against a hull in one pass, without the relative frame.
//!
//! A sphere has no orientation that matters: the query needs only its centre in the
//! hull's frame, `c = q̄_b (t_a − t_b) q_b`, the difference taken in `f64` and rounded
//! once, then turned in f32 (the relative frame's accuracy: it rounds `t` the same way
//! and turns it by an f32 matrix; without its quaternion product and matrix). The hull's
//! point query ([`point_polytope`]: the closest-feature walk, from the face
//! [`ConvexHull::face_in_front`] climbs to; the plane scan only for a centre inside
//! the hull) gives the outward unit
//! normal `n` at the closest feature, in the hull's frame, and the signed distance `δ`
//! of the centre; then, with `r` the radius:
//! * the separation is `s = δ − r` (`s > margin`: apart);
//! * the normal from the sphere to the hull, in the world, is `m = −(q_b n)`;
//! * the one point (as `manifold::sphere` places it) is the sphere's surface point
//!   moved halfway to the hull's: `t_a + m r + m s/2`, with depth `−s` and id 0;
//!   its anchors are the sphere's surface point in the sphere's frame, `q̄_a (m r)`, and
//!   the hull's closest point in the hull's frame, `c − n δ`.
//!
//! `collide`, `contact` and `intersects` all take this way for a sphere and a hull, right
//! after checking the poses (the sphere comes first in the canonical order; the other
//! order is mirrored as usual, bit for bit).
//! Boxes and capsules against a sphere still run in the sphere's frame.
//!
//! Cost (callgrind, instructions per pair inside `collide`, `prof sphere-hull 24` /
//! `prof parry-sphere-hull 24`, `N=10`): 936 against parry3d's 3,073 (3.28×); 1,060
//! when the walk started from a scan of every face plane, 5,873 before the walk.

use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::sat::point_polytope::point_hull;
use glam::{Quat, Vec3};
use sepax_geometry::{ConvexHull, Pose, Shape, Sphere};
use smallvec::SmallVec;

/// The sphere–hull query: everything the three entry points read.
struct SphereHull {
    /// The sphere's centre in the hull's frame.
    centre: Vec3,
    /// The hull's outward normal at its closest feature, in the hull's frame.
    normal_b: Vec3,
    /// Signed distance of the centre from the hull (negative inside).
    distance: f32,
    /// `δ − r`: positive apart.
    separation: f32,
    /// The hull's rotation, unit.
    rotation_b: Quat,
}

impl SphereHull {
    fn new(sphere: &Sphere, pose_a: &Pose, hull: &ConvexHull, pose_b: &Pose) -> SphereHull {
        // Accepted rotations are unit within 1e-3; glam's rotation scales by `|q|²`.
        let rotation_b = pose_b.rotation.normalize();
        let offset = (pose_a.translation.as_dvec3() - pose_b.translation.as_dvec3()).as_vec3();
        let centre = rotation_b.conjugate() * offset;
        let (normal_b, distance) = point_hull(hull, centre);
        SphereHull {
            centre,
            normal_b,
            distance,
            separation: distance - sphere.radius(),
            rotation_b,
        }
    }

    /// The world normal from the sphere to the hull.
    #[inline]
    fn world_normal(&self) -> Vec3 {
        -(self.rotation_b * self.normal_b)
    }
}

/// A sphere and a hull in either order: the sphere, its pose, the hull, its pose, and
/// whether the caller gave the hull first (the answer is then mirrored).
pub(crate) type SphereAndHull<'s> = (&'s Sphere, &'s Pose, &'s ConvexHull, &'s Pose, bool);

/// The pair as a sphere and a hull, if it is one (the sphere first: the canonical order
/// puts spheres before hulls).
#[inline]
pub(crate) fn sphere_and_hull<'s>(
    a: &'s Shape,
    pose_a: &'s Pose,
    b: &'s Shape,
    pose_b: &'s Pose,
) -> Option<SphereAndHull<'s>> {
    match (a, b) {
        (Shape::Sphere(s), Shape::ConvexHull(h)) => Some((s, pose_a, h, pose_b, false)),
        (Shape::ConvexHull(h), Shape::Sphere(s)) => Some((s, pose_b, h, pose_a, true)),
        _ => None,
    }
}

/// [`collide`](crate::collide) for a sphere and a hull (poses checked, margin
/// sanitised): the manifold when they are within `margin`, [`Manifold::flip`]ped when
/// `mirrored` (built so in place). The cache only keeps [`Feature::Sphere`], the same
/// in both orders.
pub(crate) fn collide_sphere_hull(
    (sphere, pose_a, hull, pose_b, mirrored): SphereAndHull,
    margin: f32,
    cache: &mut PairCache,
) -> Option<Manifold> {
    let query = SphereHull::new(sphere, pose_a, hull, pose_b);
    let s = query.separation;
    if s > margin || s.is_nan() {
        cache.remember(Feature::Sphere, true);
        return None;
    }
    cache.remember(Feature::Sphere, false);
    let m = query.world_normal();
    let on_sphere = m * sphere.radius();
    let point = ManifoldPoint {
        position: pose_a.translation + (on_sphere + m * (0.5 * s)),
        depth: -s,
        id: 0,
        anchor_a: pose_a.rotation.normalize().conjugate() * on_sphere,
        anchor_b: query.centre - query.normal_b * query.distance,
    };
    let (normal, point) = if mirrored {
        (-m, point.mirrored(Feature::Sphere))
    } else {
        (m, point)
    };
    let mut points = SmallVec::new();
    points.push(point);
    Some(Manifold {
        normal,
        points,
        feature: Feature::Sphere,
    })
}

/// [`contact`](crate::contact) for a sphere and a hull (poses checked, margin
/// sanitised), mirrored when `mirrored`.
pub(crate) fn contact_sphere_hull(
    (sphere, pose_a, hull, pose_b, mirrored): SphereAndHull,
    margin: f32,
) -> Option<Contact> {
    let query = SphereHull::new(sphere, pose_a, hull, pose_b);
    (query.separation <= margin).then(|| {
        let normal = query.world_normal();
        Contact {
            normal: if mirrored { -normal } else { normal },
            depth: -query.separation,
            feature: Feature::Sphere,
        }
    })
}

/// [`intersects`](crate::intersects) for a sphere and a hull, poses checked.
pub(crate) fn sphere_hull_intersect((sphere, pose_a, hull, pose_b, _): SphereAndHull) -> bool {
    SphereHull::new(sphere, pose_a, hull, pose_b).separation <= 0.0
}
