//! What the 2D queries return: [`Contact2`], [`Manifold2`] and the feature names.

use glam::Vec2;
use smallvec::SmallVec;

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

/// A stable name for a manifold point, so a solver can match points between frames
/// and warm-start (Box2D's `b2ManifoldPoint.id`). Two points with equal ids in two
/// frames come from the same pair of features.
///
/// Layout of the `u32`:
/// * bits 0–11: the reference feature (edge of the reference polygon, or the polygon
///   vertex or edge against a circle);
/// * bits 12–23: the incident edge (polygon pairs);
/// * bits 24–25: where the point comes from: 0 the incident edge's first vertex,
///   1 its second vertex, 2 clipped at the reference edge's first vertex's side plane,
///   3 at its second vertex's side plane;
/// * bit 26: the reference face belongs to b;
/// * bits 27–28: the pair kind: 0 polygon–polygon, 1 circle on a polygon edge,
///   2 circle on a polygon vertex, 3 circle–circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub u32);

impl FeatureId {
    pub(crate) fn pack(
        reference: usize,
        incident: usize,
        origin: u32,
        ref_is_b: bool,
        kind: u32,
    ) -> FeatureId {
        debug_assert!(reference < 4096 && incident < 4096 && origin < 4 && kind < 4);
        FeatureId(
            reference as u32
                | (incident as u32) << 12
                | origin << 24
                | (ref_is_b as u32) << 26
                | kind << 27,
        )
    }

    /// The reference feature index (bits 0–11).
    pub fn reference(&self) -> usize {
        (self.0 & 0xfff) as usize
    }

    /// The incident edge index (bits 12–23).
    pub fn incident(&self) -> usize {
        ((self.0 >> 12) & 0xfff) as usize
    }
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
    /// Stable feature id.
    pub id: FeatureId,
}

/// A contact manifold: a normal (unit, world, from a to b), the depth along it, the
/// reference feature and at most 2 points.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifold2 {
    /// Unit normal, world frame, from a to b.
    pub normal: Vec2,
    /// Penetration depth along `normal` of the reference feature (the SAT depth).
    pub depth: f32,
    /// The reference feature.
    pub feature: Feature2,
    /// One or two points, in a fixed order.
    pub points: SmallVec<[ManifoldPoint2; 2]>,
}

impl Manifold2 {
    /// The normal and depth alone.
    pub fn contact(&self) -> Contact2 {
        Contact2 {
            normal: self.normal,
            depth: self.depth,
            feature: self.feature,
        }
    }
}
