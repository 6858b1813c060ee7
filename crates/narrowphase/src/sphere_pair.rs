//! A sphere against a hull, a box or another sphere in one pass, without the relative
//! frame.
//!
//! A sphere has no orientation that matters: the query needs only its centre in the
//! other shape's frame, `c = q̄_b (t_a − t_b) q_b`, the difference taken in `f64` and
//! rounded once, then turned in f32 (the relative frame's accuracy: it rounds `t` the
//! same way and turns it by an f32 matrix; without its quaternion product and matrix).
//! The other shape's point query gives the outward unit normal `n` at the closest
//! feature, in its frame, and the signed distance `δ` of the centre:
//! * a hull: [`point_polytope`]'s closest-feature walk, from the face
//!   [`ConvexHull::face_in_front`] climbs to; the plane scan only for a centre inside
//!   the hull;
//! * a box of half extents `h`: [`point_box`], the clamp of `c` to `[−h, h]` outside,
//!   the face of the least `h_k − |c_k|` inside;
//! * a sphere of radius `r_b`: `n = c / |c|`, `δ = |c| − r_b` (at `c = 0`, `n = +z`).
//!   Of two spheres, the first in the canonical order plays the sphere, the other the
//!   shape it meets.
//!
//! Then, with `r` the radius:
//! * the separation is `s = δ − r` (`s > margin`: apart);
//! * the normal from the sphere to the other shape, in the world, is `m = −(q_b n)`;
//! * the one point (as `manifold::sphere` places it) is the sphere's surface point
//!   moved halfway to the other's: `t_a + m r + m s/2`, with depth `−s` and id 0;
//!   its anchors are the sphere's surface point in the sphere's frame, `q̄_a (m r)`, and
//!   the other shape's closest point in its frame, `c − n δ`.
//!
//! `collide`, `contact` and `intersects` all take this way for a sphere and a hull, a box
//! or a sphere, right after checking the poses (the sphere comes first in the canonical
//! order; the other order is mirrored as usual, bit for bit).
//! Capsules against a sphere still run in the sphere's frame.
//!
//! Cost (callgrind, instructions per pair inside `collide`, `prof sphere-hull 24` /
//! `prof parry-sphere-hull 24`, `N=10`): 936 against parry3d's 3,073 (3.28×); 1,060
//! when the walk started from a scan of every face plane, 5,873 before the walk.
//! Sphere–box (`prof sphere-box` / `prof parry-sphere-box`, 28 November 2026): 425
//! against parry3d's 917 (2.2×); 1,223 when it ran in the sphere's relative frame
//! through the general query. Sphere–sphere (`prof sphere-sphere`): 476 against
//! parry3d's 625; 1,192 before. Sphere–hull at the same date: 955.
//!
//! [`point_polytope`]: crate::sat::point_polytope
//! [`point_box`]: crate::sat::sphere::point_box

use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::query::canonical_swap;
use crate::sat::point_polytope::point_hull;
use crate::sat::sphere::point_box;
use crate::solid::Solid;
use glam::{Quat, Vec3};
use sepax_geometry::{ConvexHull, Pose, Shape, Sphere};
use smallvec::SmallVec;

/// The shape a sphere meets on this path, by what its point query reads.
#[derive(Clone, Copy)]
pub(crate) enum Target<'s> {
    Hull(&'s ConvexHull),
    /// A box by its half extents.
    Box(Vec3),
    /// A second sphere by its radius.
    Sphere(f32),
}

/// The sphere–hull, sphere–box or sphere–sphere query: everything the three entry
/// points read.
struct SphereQuery {
    /// The sphere's centre in the other shape's frame.
    centre: Vec3,
    /// The other shape's outward normal at its closest feature, in its frame.
    normal_b: Vec3,
    /// Signed distance of the centre from the other shape (negative inside).
    distance: f32,
    /// `δ − r`: positive apart.
    separation: f32,
    /// The other shape's rotation, unit.
    rotation_b: Quat,
}

impl SphereQuery {
    /// The query with the other shape's point query taken once per kind, so that each
    /// kind's query is compiled on its own (one match, not one per call).
    #[inline(always)]
    fn new(sphere: &Sphere, pose_a: &Pose, target: Target, pose_b: &Pose) -> SphereQuery {
        match target {
            Target::Hull(hull) => Self::with(sphere, pose_a, pose_b, |p| point_hull(hull, p)),
            Target::Box(h) => Self::with(sphere, pose_a, pose_b, |p| point_box(h, p)),
            // `(c / |c|, |c| − r)`, `+z` at the centre: the sphere's own point query.
            Target::Sphere(r) => {
                Self::with(sphere, pose_a, pose_b, |p| Solid::Sphere(r).point_query(p))
            }
        }
    }

    /// The query, given the other shape's point query: the outward unit normal at the
    /// closest feature to a point and the point's signed distance, in its frame.
    #[inline(always)]
    fn with(
        sphere: &Sphere,
        pose_a: &Pose,
        pose_b: &Pose,
        point_query: impl FnOnce(Vec3) -> (Vec3, f32),
    ) -> SphereQuery {
        // Accepted rotations are unit within 1e-3; glam's rotation scales by `|q|²`.
        let rotation_b = pose_b.rotation.normalize();
        let offset = (pose_a.translation.as_dvec3() - pose_b.translation.as_dvec3()).as_vec3();
        let centre = rotation_b.conjugate() * offset;
        // Finite: the callers answer poses further apart than `query::FAR_APART` along
        // an axis before they come here, so the offset is at most √3 · 5e37 long.
        let (normal_b, distance) = point_query(centre);
        SphereQuery {
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

/// A sphere and a hull, a box or a sphere in either order: the sphere, its pose, the
/// other shape, its pose, and whether the caller gave the other shape first (the answer
/// is then mirrored).
pub(crate) type SphereAnd<'s> = (&'s Sphere, &'s Pose, Target<'s>, &'s Pose, bool);

/// The pair as a sphere and a hull, a box or a sphere, if it is one (the sphere first:
/// the canonical order puts spheres before boxes and hulls, and decides between two
/// spheres).
#[inline]
pub(crate) fn sphere_and_target<'s>(
    a: &'s Shape,
    pose_a: &'s Pose,
    b: &'s Shape,
    pose_b: &'s Pose,
) -> Option<SphereAnd<'s>> {
    let target = |shape: &'s Shape| match shape {
        Shape::ConvexHull(hull) => Some(Target::Hull(hull)),
        Shape::Cuboid(cuboid) => Some(Target::Box(cuboid.half_extents())),
        _ => None,
    };
    match (a, b) {
        // Two spheres run in the canonical order, so that both orders mirror each
        // other bit for bit.
        (Shape::Sphere(sa), Shape::Sphere(sb)) => {
            Some(match canonical_swap(a, pose_a, b, pose_b) {
                false => (sa, pose_a, Target::Sphere(sb.radius()), pose_b, false),
                true => (sb, pose_b, Target::Sphere(sa.radius()), pose_a, true),
            })
        }
        (Shape::Sphere(s), other) => Some((s, pose_a, target(other)?, pose_b, false)),
        (other, Shape::Sphere(s)) => Some((s, pose_b, target(other)?, pose_a, true)),
        _ => None,
    }
}

/// [`collide`](crate::collide) for a sphere and a hull, a box or a sphere (poses checked, margin
/// sanitised): the manifold when they are within `margin`, [`Manifold::flip`]ped when
/// `mirrored` (built so in place). The cache only keeps [`Feature::Sphere`], the same
/// in both orders.
pub(crate) fn collide_sphere(
    (sphere, pose_a, target, pose_b, mirrored): SphereAnd,
    margin: f32,
    cache: &mut PairCache,
) -> Option<Manifold> {
    let query = SphereQuery::new(sphere, pose_a, target, pose_b);
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

/// [`contact`](crate::contact) for a sphere and a hull, a box or a sphere (poses checked, margin
/// sanitised), mirrored when `mirrored`.
pub(crate) fn contact_sphere(
    (sphere, pose_a, target, pose_b, mirrored): SphereAnd,
    margin: f32,
) -> Option<Contact> {
    let query = SphereQuery::new(sphere, pose_a, target, pose_b);
    (query.separation <= margin).then(|| {
        let normal = query.world_normal();
        Contact {
            normal: if mirrored { -normal } else { normal },
            depth: -query.separation,
            feature: Feature::Sphere,
        }
    })
}

/// [`intersects`](crate::intersects) for a sphere and a hull, a box or a sphere, poses
/// checked.
pub(crate) fn sphere_intersect((sphere, pose_a, target, pose_b, _): SphereAnd) -> bool {
    SphereQuery::new(sphere, pose_a, target, pose_b).separation <= 0.0
}
