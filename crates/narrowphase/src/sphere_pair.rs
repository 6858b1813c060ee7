//! A sphere against a hull in one pass, without the relative frame.
//!
//! A sphere has no orientation that matters: the query needs only its centre in the
//! hull's frame, `c = q̄_b (t_a − t_b) q_b`, computed in `f64` and rounded once (the
//! relative frame's rounding, without its quaternion product and matrix). The hull's
//! point query ([`point_polytope`]: the closest-feature walk) gives the outward unit
//! normal `n` at the closest feature, in the hull's frame, and the signed distance `δ`
//! of the centre; then, with `r` the radius:
//! * the separation is `s = δ − r` (`s > margin`: apart);
//! * the normal from the sphere to the hull, in the world, is `m = −(q_b n)`;
//! * the one point (as `manifold::sphere` places it) is the sphere's surface point
//!   moved halfway to the hull's: `t_a + m r + m s/2`, with depth `−s` and id 0;
//!   its anchors are the sphere's surface point in the sphere's frame, `q̄_a (m r)`, and
//!   the hull's closest point in the hull's frame, `c − n δ`.
//!
//! `collide`, `contact` and `intersects` all take this way for a sphere and a hull (the
//! sphere comes first in the canonical order; the other order is mirrored as usual).
//! Boxes and capsules against a sphere still run in the sphere's frame.

use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::polytope::Polytope;
use crate::sat::point_polytope::point_polytope;
use glam::{Quat, Vec3};
use sepax_geometry::{ConvexHull, Pose, Sphere};

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
        let q = pose_b.rotation.as_dquat();
        let offset = pose_a.translation.as_dvec3() - pose_b.translation.as_dvec3();
        // Accepted rotations are unit within 1e-3: rotating by the conjugate scales by
        // `|q|²`, which the division undoes.
        let centre = ((q.conjugate() * offset) / q.length_squared()).as_vec3();
        let (normal_b, distance) = point_polytope(&Polytope::from_hull(hull), centre);
        SphereHull {
            centre,
            normal_b,
            distance,
            separation: distance - sphere.radius(),
            rotation_b: pose_b.rotation.normalize(),
        }
    }

    /// The world normal from the sphere to the hull.
    #[inline]
    fn world_normal(&self) -> Vec3 {
        -(self.rotation_b * self.normal_b)
    }
}

/// [`collide`](crate::collide) for a sphere (a) and a hull (b), poses checked: true when
/// they are within `margin`, the manifold written to `out`, [`Manifold::flip`]ped when
/// `mirrored` (built so in place).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_sphere_hull(
    sphere: &Sphere,
    pose_a: &Pose,
    hull: &ConvexHull,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    mirrored: bool,
    out: &mut Manifold,
) -> bool {
    let query = SphereHull::new(sphere, pose_a, hull, pose_b);
    let s = query.separation;
    if !(s <= margin) {
        cache.remember(Feature::Sphere, true);
        return false;
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
    out.feature = Feature::Sphere;
    out.points.clear();
    if mirrored {
        out.normal = -m;
        out.points.push(point.mirrored(Feature::Sphere));
    } else {
        out.normal = m;
        out.points.push(point);
    }
    true
}

/// [`contact`](crate::contact) for a sphere (a) and a hull (b), poses checked, margin
/// sanitised.
pub(crate) fn contact_sphere_hull(
    sphere: &Sphere,
    pose_a: &Pose,
    hull: &ConvexHull,
    pose_b: &Pose,
    margin: f32,
) -> Option<Contact> {
    let query = SphereHull::new(sphere, pose_a, hull, pose_b);
    (query.separation <= margin).then(|| Contact {
        normal: query.world_normal(),
        depth: -query.separation,
        feature: Feature::Sphere,
    })
}

/// [`intersects`](crate::intersects) for a sphere and a hull, poses checked.
pub(crate) fn sphere_hull_intersect(
    sphere: &Sphere,
    pose_a: &Pose,
    hull: &ConvexHull,
    pose_b: &Pose,
) -> bool {
    SphereHull::new(sphere, pose_a, hull, pose_b).separation <= 0.0
}
