//! A shape as the pair queries see it: what the separating-axis tests and the manifold
//! builders read, without copying a hull.

use crate::math::length_and_direction;
use crate::polytope::{BoxPolytope, Polytope};
use crate::sat::point_polytope::point_polytope;
use crate::sat::sphere::point_box;
use glam::Vec3;
use sepax_geometry::Shape;

/// A shape as the queries see it: spheres by radius, boxes by half extents (a box
/// polytope is built on the stack only when a hull query needs one), hulls as a
/// borrowed polytope, capsules by half height and radius.
pub(crate) enum Solid<'s> {
    Sphere(f32),
    Box(Vec3),
    Hull(Polytope<'s>),
    /// Half height (the core runs along the local y axis) and radius.
    Capsule(f32, f32),
}

impl<'s> Solid<'s> {
    /// The solid of `shape`. Always inlined, with `Polytope::from_hull`: a hull's view
    /// (about 240 bytes) is then built in the caller's place, where a call returned it
    /// through a `memcpy` (callgrind, the hull pile's narrow phase: 65 of 4,988
    /// instructions a pair; `stress --scene hull-pile --bodies 2001 --threads 1 --frames
    /// 200`, five alternated runs: narrow phase 0.868 → 0.827 ms).
    #[inline(always)]
    pub fn new(shape: &'s Shape) -> Solid<'s> {
        match shape {
            Shape::Sphere(s) => Solid::Sphere(s.radius()),
            Shape::Cuboid(c) => Solid::Box(c.half_extents()),
            Shape::ConvexHull(h) => Solid::Hull(Polytope::from_hull(h)),
            Shape::Capsule(c) => Solid::Capsule(c.half_height(), c.radius()),
            // The public queries send a pair with a mesh down the mesh path
            // (`query::mesh_pair`) before any solid is built.
            Shape::TriMesh(_) => unreachable!("a mesh is not a solid"),
        }
    }

    /// True for a capsule.
    #[inline]
    pub fn is_capsule(&self) -> bool {
        matches!(self, Solid::Capsule(..))
    }

    /// Runs `f` on the solid as a polytope (`None` for a sphere or a capsule).
    pub fn with_polytope<R>(&self, f: impl FnOnce(Option<&Polytope>) -> R) -> R {
        match self {
            Solid::Sphere(_) | Solid::Capsule(..) => f(None),
            Solid::Box(h) => f(Some(&BoxPolytope::new(*h).view())),
            Solid::Hull(p) => f(Some(p)),
        }
    }

    /// The radius of a ball about the shape's centre that lies inside it: sizes the
    /// feature slop and the clip tolerance.
    pub fn inner_radius(&self) -> f32 {
        match self {
            Solid::Sphere(r) => *r,
            Solid::Box(h) => h.min_element(),
            Solid::Hull(p) => p.inradius,
            Solid::Capsule(_, r) => *r,
        }
    }

    /// Outward normal and signed distance of a local point.
    #[inline]
    pub fn point_query(&self, p: Vec3) -> (Vec3, f32) {
        match self {
            Solid::Sphere(r) => {
                let (l, n) = length_and_direction(p).unwrap_or((0.0, Vec3::Z));
                (n, l - r)
            }
            Solid::Box(h) => point_box(*h, p),
            Solid::Hull(poly) => point_polytope(poly, p),
            // The core's closest point is `(0, clamp(y), 0)`; a point on the core gets
            // a normal across it.
            Solid::Capsule(h, r) => {
                let offset = p - Vec3::new(0.0, p.y.clamp(-h, *h), 0.0);
                let (l, n) = length_and_direction(offset).unwrap_or((0.0, Vec3::X));
                (n, l - r)
            }
        }
    }
}

/// Runs `f` on both solids as polytopes; `None` if either is a sphere or a capsule.
pub(crate) fn with_polytopes<R>(
    a: &Solid,
    b: &Solid,
    f: impl FnOnce(&Polytope, &Polytope) -> R,
) -> Option<R> {
    a.with_polytope(|pa| b.with_polytope(|pb| Some(f(pa?, pb?))))
}
