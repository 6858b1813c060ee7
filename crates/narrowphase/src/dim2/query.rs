//! The public 2D entry points: dispatch on the shape pair, work in a's frame,
//! map the answer back to the world.

use super::contact::{Contact2, Feature2, Manifold2, ManifoldPoint2, ManifoldPoints2};
use super::convex::{Convex, PolyRef};
use super::manifold::box_box::box_manifold;
use super::manifold::polygon::clip_points;
use super::sat::box_box::box_pair;
use super::sat::circle::{RoundContact, circle_circle, polygon_circle};
use super::sat::polygon::{Moved, sat_polygons};
use super::sat::{EdgeSat, REFERENCE_TOLERANCE};
use crate::math::sanitize_margin;
use glam::Vec2;
use sepax_geometry::dim2::{Pose2, Shape2};
use smallvec::SmallVec;

/// A shape ready for a pair query: a circle in the world, or a polygon-like shape
/// with the frame its data lives in.
enum Prepared<'a> {
    Round { center: Vec2, radius: f32 },
    Convex { frame: Pose2, shape: Convex<'a> },
}

fn prepare<'a>(shape: &'a Shape2, pose: &Pose2) -> Prepared<'a> {
    match shape {
        Shape2::Circle(c) => Prepared::Round {
            center: pose.transform_point(c.center()),
            radius: c.radius(),
        },
        Shape2::Obb2(b) => {
            let (frame, shape) = Convex::from_box(b, pose);
            Prepared::Convex { frame, shape }
        }
        Shape2::Polygon(p) => Prepared::Convex {
            frame: *pose,
            shape: Convex::Polygon(p),
        },
    }
}

/// What a convex–convex SAT found, with both polygons in a's frame.
struct ConvexPair<'a> {
    sat: EdgeSat,
    frame_a: Pose2,
    a: PolyRef<'a>,
    b_verts: SmallVec<[Vec2; 8]>,
    b_normals: SmallVec<[Vec2; 8]>,
}

impl ConvexPair<'_> {
    fn b(&self) -> PolyRef<'_> {
        PolyRef {
            verts: &self.b_verts,
            normals: &self.b_normals,
        }
    }

    /// The contact along the exact axis (the largest separation).
    fn contact(&self) -> Contact2 {
        let sat = &self.sat;
        self.contact_along(sat.exact_edge, sat.exact_is_b, sat.exact_sep)
    }

    /// The contact along the reference edge (the manifold's).
    fn reference_contact(&self) -> Contact2 {
        self.contact_along(self.sat.edge, self.sat.ref_is_b, self.sat.sep)
    }

    fn contact_along(&self, e: usize, of_b: bool, sep: f32) -> Contact2 {
        let (n, feature) = if of_b {
            (-self.b_normals[e], Feature2::EdgeB(e as u16))
        } else {
            (self.a.normals[e], Feature2::EdgeA(e as u16))
        };
        Contact2 {
            normal: self.frame_a.transform_vector(n),
            depth: -sep,
            feature,
        }
    }

    fn manifold(&self, margin: f32) -> Option<Manifold2> {
        let (reference, incident) = if self.sat.ref_is_b {
            (self.b(), self.a)
        } else {
            (self.a, self.b())
        };
        let mut points = clip_points(
            reference,
            incident,
            self.sat.edge,
            margin,
            self.sat.ref_is_b,
        );
        if points.is_empty() {
            return None;
        }
        for p in &mut points {
            p.position = self.frame_a.transform_point(p.position);
        }
        Some(Manifold2::new(self.reference_contact(), points))
    }
}

/// SAT between two polygon-like shapes, b moved into a's frame.
#[inline(always)]
fn convex_pair<'a>(
    frame_a: Pose2,
    a: &'a Convex<'a>,
    frame_b: Pose2,
    b: &Convex<'_>,
    margin: f32,
) -> Option<ConvexPair<'a>> {
    let rel = frame_a.inv_mul(&frame_b);
    let tol = REFERENCE_TOLERANCE * (a.size() + b.size());
    // Seed 001's coarse filter: bounding circles first.
    let (ca, cb) = (a.center(), rel.transform_point(b.center()));
    let reach = a.size() + b.size() + margin;
    if (cb - ca).length_squared() > reach * reach {
        return None;
    }
    let moved = Moved::new(b.view(), &rel);
    let sat = sat_polygons(a.view(), moved.view(), margin, tol)?;
    Some(ConvexPair {
        sat,
        frame_a,
        a: a.view(),
        b_verts: moved.verts,
        b_normals: moved.normals,
    })
}

/// A circle–polygon contact in world terms; `polygon_is_a` says which side the polygon is.
fn round_to_world(rc: RoundContact, frame: &Pose2, polygon_is_a: bool) -> (Contact2, Vec2) {
    let n = frame.transform_vector(rc.normal);
    let contact = Contact2 {
        normal: if polygon_is_a { n } else { -n },
        depth: rc.depth,
        feature: rc.feature(Some(polygon_is_a)),
    };
    (contact, frame.transform_point(rc.point))
}

/// The contact (normal, depth, feature) between `a` at `pose_a` and `b` at `pose_b`,
/// or `None` when they are farther apart than `margin`.
///
/// * Normal: unit, world frame, **from a to b**. Depth: `> 0` penetrating, `0`
///   exactly touching (reported), `< 0` separated by less than `margin`.
/// * Polygon pairs (boxes included) run SAT on the edge normals of both shapes
///   (boxes: 4 axes), with an early exit on the first axis separating by more than
///   `margin`. The normal and depth are the exact SAT answer: the edge normal of the
///   largest separation over both shapes, whoever's it is (the manifold of
///   [`collide2d`] may keep a's edge when b's is better by less than
///   [`REFERENCE_TOLERANCE`]; this never does). For separated pairs the depth is minus
///   that separation, which is at most the true distance. Pairs with a polygon first
///   test bounding circles (seed 001's coarse filter) and return `None` when those
///   are farther apart than `margin`, which proves the shapes are too.
/// * Bad input: a pose failing [`Pose2::is_valid`] (NaN, infinite, non-unit rotation)
///   gives `None`; a negative or NaN margin counts as 0; shapes are valid by
///   construction. Never panics.
///
/// ```
/// use sepax_geometry::dim2::{Obb2, Pose2, Shape2};
/// use sepax_narrowphase::dim2::contact2d;
/// use glam::Vec2;
/// let unit = Shape2::from(Obb2::try_from_half_extents(Vec2::splat(0.5)).unwrap());
/// let c = contact2d(&unit, &Pose2::IDENTITY, &unit, &Pose2::new(Vec2::new(0.9, 0.0), 0.0), 0.0)
///     .unwrap();
/// assert!((c.normal - Vec2::X).length() < 1e-6 && (c.depth - 0.1).abs() < 1e-6);
/// ```
pub fn contact2d(
    a: &Shape2,
    pose_a: &Pose2,
    b: &Shape2,
    pose_b: &Pose2,
    margin: f32,
) -> Option<Contact2> {
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return None;
    }
    let margin = sanitize_margin(margin);
    if let (Shape2::Obb2(ba), Shape2::Obb2(bb)) = (a, b) {
        return box_pair(ba, pose_a, bb, pose_b, margin).map(|p| p.contact());
    }
    match (prepare(a, pose_a), prepare(b, pose_b)) {
        (
            Prepared::Round {
                center: ca,
                radius: ra,
            },
            Prepared::Round {
                center: cb,
                radius: rb,
            },
        ) => {
            let rc = circle_circle(ca, ra, cb, rb, margin)?;
            Some(Contact2 {
                normal: rc.normal,
                depth: rc.depth,
                feature: Feature2::Centers,
            })
        }
        (Prepared::Convex { frame, shape }, Prepared::Round { center, radius }) => {
            let rc = polygon_circle(
                shape.view(),
                frame.inverse_transform_point(center),
                radius,
                margin,
            )?;
            Some(round_to_world(rc, &frame, true).0)
        }
        (Prepared::Round { center, radius }, Prepared::Convex { frame, shape }) => {
            let rc = polygon_circle(
                shape.view(),
                frame.inverse_transform_point(center),
                radius,
                margin,
            )?;
            Some(round_to_world(rc, &frame, false).0)
        }
        (
            Prepared::Convex {
                frame: fa,
                shape: sa,
            },
            Prepared::Convex {
                frame: fb,
                shape: sb,
            },
        ) => Some(convex_pair(fa, &sa, fb, &sb, margin)?.contact()),
    }
}

/// The contact manifold between `a` at `pose_a` and `b` at `pose_b`: a normal, the
/// reference feature and its depth, plus 1 or 2 points, each with a world position, a
/// depth and a stable feature id ([`ManifoldPoint2::id`]). `None` when the pair is
/// farther apart than `margin` or no point lies within it (a pair with a
/// [`ConvexPolygon`](sepax_geometry::dim2::ConvexPolygon) that [`contact2d`] finds
/// touching or penetrating always has one: the incident shape's deepest vertex at
/// least).
///
/// Polygon pairs: the reference edge is the one of least penetration (a's unless
/// b's beats it by [`REFERENCE_TOLERANCE`] of the pair's size, so the normal and
/// feature are [`contact2d`]'s unless b's edge is better by less than that, and the
/// depth then at most that much above the exact one); the incident edge is
/// the other shape's edge most anti-parallel to it; the incident edge is clipped to
/// the reference edge's side planes and points separated by more than `margin` are
/// dropped (see the clipping module for the math). Everything is computed in a's
/// frame and mapped back. Circle pairs give one point midway between the surfaces.
/// Bad input as [`contact2d`].
///
/// ```
/// use sepax_geometry::dim2::{Obb2, Pose2, Shape2};
/// use sepax_narrowphase::dim2::collide2d;
/// use glam::Vec2;
/// let ground = Shape2::from(Obb2::try_from_half_extents(Vec2::new(5.0, 0.5)).unwrap());
/// let crate_ = Shape2::from(Obb2::try_from_half_extents(Vec2::splat(0.5)).unwrap());
/// let m = collide2d(&ground, &Pose2::IDENTITY, &crate_, &Pose2::new(Vec2::new(0.0, 0.99), 0.0), 0.0)
///     .unwrap();
/// assert_eq!(m.points.len(), 2);
/// assert!((m.normal - Vec2::Y).length() < 1e-6);
/// assert!(m.points.iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
/// ```
pub fn collide2d(
    a: &Shape2,
    pose_a: &Pose2,
    b: &Shape2,
    pose_b: &Pose2,
    margin: f32,
) -> Option<Manifold2> {
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return None;
    }
    let margin = sanitize_margin(margin);
    if let (Shape2::Obb2(ba), Shape2::Obb2(bb)) = (a, b) {
        return box_manifold(&box_pair(ba, pose_a, bb, pose_b, margin)?, margin);
    }
    let round = |rc: RoundContact, frame: &Pose2, polygon_is_a: Option<bool>| {
        let (contact, point) = match polygon_is_a {
            Some(a_side) => round_to_world(rc, frame, a_side),
            None => (
                Contact2 {
                    normal: rc.normal,
                    depth: rc.depth,
                    feature: Feature2::Centers,
                },
                rc.point,
            ),
        };
        Manifold2::new(
            contact,
            ManifoldPoints2::from_elem(
                ManifoldPoint2 {
                    position: point,
                    depth: contact.depth,
                    id: rc.id(polygon_is_a),
                },
                1,
            ),
        )
    };
    match (prepare(a, pose_a), prepare(b, pose_b)) {
        (
            Prepared::Round {
                center: ca,
                radius: ra,
            },
            Prepared::Round {
                center: cb,
                radius: rb,
            },
        ) => {
            let rc = circle_circle(ca, ra, cb, rb, margin)?;
            Some(round(rc, &Pose2::IDENTITY, None))
        }
        (Prepared::Convex { frame, shape }, Prepared::Round { center, radius }) => {
            let rc = polygon_circle(
                shape.view(),
                frame.inverse_transform_point(center),
                radius,
                margin,
            )?;
            Some(round(rc, &frame, Some(true)))
        }
        (Prepared::Round { center, radius }, Prepared::Convex { frame, shape }) => {
            let rc = polygon_circle(
                shape.view(),
                frame.inverse_transform_point(center),
                radius,
                margin,
            )?;
            Some(round(rc, &frame, Some(false)))
        }
        (
            Prepared::Convex {
                frame: fa,
                shape: sa,
            },
            Prepared::Convex {
                frame: fb,
                shape: sb,
            },
        ) => convex_pair(fa, &sa, fb, &sb, margin)?.manifold(margin),
    }
}

/// True when `a` at `pose_a` and `b` at `pose_b` overlap or touch (SAT with margin 0,
/// early exit on the first separating axis). Bad poses give `false`.
///
/// ```
/// use sepax_geometry::dim2::{Circle, Pose2, Shape2};
/// use sepax_narrowphase::dim2::intersects2d;
/// use glam::Vec2;
/// let c = Shape2::from(Circle::try_new(Vec2::ZERO, 1.0).unwrap());
/// assert!(intersects2d(&c, &Pose2::IDENTITY, &c, &Pose2::new(Vec2::new(2.0, 0.0), 0.0)));
/// assert!(!intersects2d(&c, &Pose2::IDENTITY, &c, &Pose2::new(Vec2::new(2.01, 0.0), 0.0)));
/// ```
pub fn intersects2d(a: &Shape2, pose_a: &Pose2, b: &Shape2, pose_b: &Pose2) -> bool {
    contact2d(a, pose_a, b, pose_b, 0.0).is_some()
}
