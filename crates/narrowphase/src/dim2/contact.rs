//! What the 2D queries return: [`Contact2`], [`Manifold2`] and the feature names.

use crate::manifold_points::PointList;
use glam::Vec2;

/// The feature that fixes the contact normal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature2 {
    /// Edge `i` of shape a is the reference face; the normal is its outward normal.
    EdgeA(u16),
    /// Edge `i` of shape b is the reference face; the normal is minus its outward normal.
    EdgeB(u16),
    /// Vertex `i` of polygon a against circle b; the normal runs from the vertex to
    /// the circle's center.
    VertexA(u16),
    /// Vertex `i` of polygon b against circle a; the normal runs from the circle's
    /// center to the vertex.
    VertexB(u16),
    /// Two circles; the normal runs from center to center (`+x` when they coincide).
    Centers,
}

/// A contact without points: the normal (unit, from a to b), the depth (`> 0`
/// penetrating, `< 0` separated by less than the margin, `0` touching) and the feature.
///
/// Moving b by `depth · normal` brings the pair to touching along that feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact2 {
    /// Unit normal, world frame, from a to b.
    pub normal: Vec2,
    /// Penetration depth along `normal` (negative: separation).
    pub depth: f32,
    /// The feature the normal comes from.
    pub feature: Feature2,
}

/// Packs a manifold point's feature id (layout in [`ManifoldPoint2::id`]).
#[inline]
pub(crate) fn pack_id(
    reference: usize,
    incident: usize,
    origin: u32,
    ref_is_b: bool,
    kind: u32,
) -> u32 {
    debug_assert!(reference < 4096 && incident < 4096 && origin < 4 && kind < 4);
    reference as u32 | (incident as u32) << 12 | origin << 24 | (ref_is_b as u32) << 26 | kind << 27
}

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint2 {
    /// World position: midway between the two surfaces along the normal; for a
    /// penetrating point, the middle of the part of that segment inside both shapes,
    /// so the point lies in both.
    pub position: Vec2,
    /// Penetration depth at this point along the manifold normal (negative: a
    /// speculative point, separated by less than the margin).
    pub depth: f32,
    /// A feature id that stays the same while the same features touch, so a solver can
    /// match points between frames and warm-start (Box2D's `b2ManifoldPoint.id`): two
    /// points with equal ids in two frames come from the same pair of features. A plain
    /// integer, as [`ManifoldPoint::id`](crate::ManifoldPoint::id) in 3D; 32 bits hold
    /// the plane's features:
    /// * bits 0–11: the reference feature (edge of the reference polygon, or the polygon
    ///   vertex or edge against a circle);
    /// * bits 12–23: the incident edge (polygon pairs);
    /// * bits 24–25: where the point comes from: 0 the incident edge's first vertex,
    ///   1 its second vertex, 2 clipped at the reference edge's first vertex's side
    ///   plane, 3 at its second vertex's side plane;
    /// * bit 26: the reference face belongs to b;
    /// * bits 27–28: the pair kind: 0 polygon–polygon, 1 circle on a polygon edge,
    ///   2 circle on a polygon vertex, 3 circle–circle.
    pub id: u32,
}

/// At most two points in the plane, inline (a [`PointList`], as a 3D manifold's
/// [`ManifoldPoints`](crate::ManifoldPoints)): the points of a [`Manifold2`], which is so
/// plain data (`Copy`).
pub type ManifoldPoints2 = PointList<ManifoldPoint2, 2>;

/// A contact manifold: a normal (unit, world, from a to b), the reference feature and at
/// most 2 points; [`depth`](Manifold2::depth) is its penetration. Plain data (`Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold2 {
    /// Unit normal, world frame, from a to b.
    pub normal: Vec2,
    /// One or two points, in a fixed order.
    pub points: ManifoldPoints2,
    /// The reference feature.
    pub feature: Feature2,
    /// The separating-axis depth of the reference feature.
    depth: f32,
}

impl Manifold2 {
    /// A manifold along `contact`'s normal and feature.
    pub(crate) fn new(contact: Contact2, points: ManifoldPoints2) -> Manifold2 {
        Manifold2 {
            normal: contact.normal,
            points,
            feature: contact.feature,
            depth: contact.depth,
        }
    }

    /// The manifold's penetration depth along the normal (negative: a gap within the
    /// margin), as [`Manifold::depth`](crate::Manifold::depth) in 3D. In the plane it is
    /// the separating-axis depth of the reference feature, which equals the deepest
    /// point's depth unless clipping cut the incident shape's deepest vertex away (then
    /// it is larger), and is the same in both argument orders.
    pub fn depth(&self) -> f32 {
        self.depth
    }

    /// True when some point has `depth >= 0`: the shapes touch or penetrate (as
    /// [`Manifold::is_touching`](crate::Manifold::is_touching)).
    pub fn is_touching(&self) -> bool {
        self.points.iter().any(|p| p.depth >= 0.0)
    }

    /// The normal and depth alone.
    pub fn contact(&self) -> Contact2 {
        Contact2 {
            normal: self.normal,
            depth: self.depth,
            feature: self.feature,
        }
    }
}
