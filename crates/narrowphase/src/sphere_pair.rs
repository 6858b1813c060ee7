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
//!   the face of the least `h_k − |c_k|` inside.
//!
//! Then, with `r` the radius:
//! * the separation is `s = δ − r` (`s > margin`: apart);
//! * the normal from the sphere to the other shape, in the world, is `m = −(q_b n)`;
//! * the one point (as `manifold::sphere` places it) is the sphere's surface point
//!   moved halfway to the other's: `t_a + m r + m s/2`, with depth `−s` and id 0;
//!   its anchors are the sphere's surface point in the sphere's frame, `q̄_a (m r)`, and
//!   the other shape's closest point in its frame, `c − n δ`.
//!
//! Two spheres need no frame at all: with `d = t_b − t_a`, the normal is `d / |d|` and
//! the separation `|d| − (r_a + r_b)`, in the world ([`TwoSpheres`]). Every formula is
//! symmetric in the pair (`d` turns into exactly `−d` the other way round, the point is
//! the halfway sum of the two surface points), so both orders mirror each other bit for
//! bit without first putting the pair in the canonical order; only coincident centres
//! (`d = 0`) ask it, for the side of the fixed normal `±z`. Skipping the order test
//! halved the time of a sphere–sphere `collide` (`sphere_sphere_manifold`, 25.9 → 13.1
//! µs per 256 pairs): it compared pose bits, a branch that random pairs mispredict
//! half of the time.
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
//! through the general query. Sphere–sphere (`prof sphere-sphere`): 336 against
//! parry3d's 625 (476 when the second sphere was a point query in its own frame, 1,192
//! through the general query). Sphere–hull at the same date: 955; at the end of that
//! day, sphere–box 434 and sphere–hull 967 (two spheres are now told apart first).
//!
//! [`point_polytope`]: crate::sat::point_polytope
//! [`point_box`]: crate::sat::sphere::point_box

use crate::ManifoldPoints;
use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::query::canonical_swap;
use crate::sat::point_polytope::point_hull;
use crate::sat::sphere::point_box;
use glam::{Quat, Vec3};
use sepax_geometry::{ConvexHull, Pose, Shape, Sphere};

/// The shape a sphere meets on this path, by what its point query reads.
#[derive(Clone, Copy)]
pub(crate) enum Target<'s> {
    Hull(&'s ConvexHull),
    /// A box by its half extents.
    Box(Vec3),
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
            Target::Hull(hull) => Self::with(
                sphere,
                pose_a,
                pose_b,
                #[inline(always)]
                |p| point_hull(hull, p),
            ),
            Target::Box(h) => Self::with(sphere, pose_a, pose_b, |p| point_box(h, p)),
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

/// A sphere and a hull or a box in either order: the sphere, its pose, the other shape,
/// its pose, and whether the caller gave the other shape first (the answer is then
/// mirrored).
pub(crate) type SphereAnd<'s> = (&'s Sphere, &'s Pose, Target<'s>, &'s Pose, bool);

/// The pair as a sphere and a hull or a box, if it is one (the sphere first: the
/// canonical order puts spheres before boxes and hulls). Two spheres are
/// [`TwoSpheres`]' (see [`two_spheres`]).
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
        (Shape::Sphere(s), other) => Some((s, pose_a, target(other)?, pose_b, false)),
        (other, Shape::Sphere(s)) => Some((s, pose_b, target(other)?, pose_a, true)),
        _ => None,
    }
}

/// The pair as [`TwoSpheres`] when both shapes are spheres (poses checked).
#[inline]
pub(crate) fn two_spheres(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
) -> Option<TwoSpheres> {
    match (a, b) {
        (Shape::Sphere(sa), Shape::Sphere(sb)) => Some(TwoSpheres::new(
            (a, sa.radius(), pose_a),
            (b, sb.radius(), pose_b),
        )),
        _ => None,
    }
}

/// Two spheres, measured in the world with formulas that are symmetric in the pair, so
/// that the other order gives the mirrored answer bit for bit without putting the pair
/// in an order first (see the module docs): `d = t_b − t_a` (f32, exactly `−d` the other
/// way), `|d|` and `n = d / |d|` in f64 (no overflow up to the far-pose distance),
/// `s = |d| − (r_a + r_b)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TwoSpheres {
    /// The unit normal from a to b, in the world.
    normal: Vec3,
    /// `|d| − (r_a + r_b)`: positive apart.
    separation: f32,
    radii: [f32; 2],
    translations: [Vec3; 2],
    rotations: [Quat; 2],
}

impl TwoSpheres {
    /// Two spheres as (shape, radius, pose); the shapes only order coincident centres.
    #[inline]
    fn new(
        (a, ra, pose_a): (&Shape, f32, &Pose),
        (b, rb, pose_b): (&Shape, f32, &Pose),
    ) -> TwoSpheres {
        let offset = (pose_b.translation - pose_a.translation).as_dvec3();
        let length = offset.length();
        let normal = if length > 0.0 {
            (offset / length).as_vec3()
        } else if canonical_swap(a, pose_a, b, pose_b) {
            // Coincident centres: `+z` from the first sphere of the canonical order.
            Vec3::NEG_Z
        } else {
            Vec3::Z
        };
        TwoSpheres {
            normal,
            separation: (length - (ra as f64 + rb as f64)) as f32,
            radii: [ra, rb],
            translations: [pose_a.translation, pose_b.translation],
            rotations: [pose_a.rotation, pose_b.rotation],
        }
    }

    /// `collide`'s answer (margin sanitised; the cache keeps [`Feature::Sphere`]).
    #[inline]
    pub(crate) fn manifold(&self, margin: f32, cache: &mut PairCache) -> Option<Manifold> {
        let apart = self.separation > margin || self.separation.is_nan();
        cache.remember(Feature::Sphere, apart);
        if apart {
            return None;
        }
        let points = ManifoldPoints::from_elem(self.point(), 1);
        Some(Manifold {
            normal: self.normal,
            points,
            feature: Feature::Sphere,
        })
    }

    /// `contact`'s answer (margin sanitised).
    #[inline]
    pub(crate) fn contact(&self, margin: f32) -> Option<Contact> {
        (self.separation <= margin).then_some(Contact {
            normal: self.normal,
            depth: -self.separation,
            feature: Feature::Sphere,
        })
    }

    /// `intersects`' answer.
    #[inline]
    pub(crate) fn intersects(&self) -> bool {
        self.separation <= 0.0
    }

    /// The one manifold point: halfway between the surface points `t_a + n r_a` and
    /// `t_b − n r_b` (their sum is the same either way round), depth `−s`, id 0, each
    /// anchor its sphere's surface point toward the other in its own frame.
    ///
    /// The sum of two points beyond `f32::MAX / 2` overflows (two spheres at
    /// `x = −1.76e38` got a point at `−∞`): then it is taken in f64 and halved there,
    /// still symmetric in the pair. Any other sum keeps its f32 bits.
    #[inline]
    fn point(&self) -> ManifoldPoint {
        let n = self.normal;
        let [ra, rb] = self.radii;
        let [ta, tb] = self.translations;
        let (on_a, on_b) = (n * ra, -n * rb);
        let local = |rotation: Quat, v: Vec3| rotation.normalize().conjugate() * v;
        let mut position = ((ta + on_a) + (tb + on_b)) * 0.5;
        if !position.is_finite() {
            let surface = |t: Vec3, on: Vec3| t.as_dvec3() + on.as_dvec3();
            position = ((surface(ta, on_a) + surface(tb, on_b)) * 0.5).as_vec3();
        }
        ManifoldPoint {
            position,
            depth: -self.separation,
            id: 0,
            anchor_a: local(self.rotations[0], on_a),
            anchor_b: local(self.rotations[1], on_b),
        }
    }
}

/// [`collide`](crate::collide) for a sphere and a hull or a box (poses checked, margin
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
    let points = ManifoldPoints::from_elem(point, 1);
    Some(Manifold {
        normal,
        points,
        feature: Feature::Sphere,
    })
}

/// [`contact`](fn@crate::contact) for a sphere and a hull or a box (poses checked, margin
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

/// [`intersects`](crate::intersects) for a sphere and a hull or a box, poses checked.
pub(crate) fn sphere_intersect((sphere, pose_a, target, pose_b, _): SphereAnd) -> bool {
    SphereQuery::new(sphere, pose_a, target, pose_b).separation <= 0.0
}
