//! What a query returns: [`Contact`] (normal + depth) and [`Manifold`] (clipped points).

use crate::ManifoldPoints;
use glam::Vec3;

/// The feature pair whose axis gave the contact normal.
///
/// Indices are local to each shape: face `i` of a hull is its `i`-th plane; a box's faces
/// are `2k` (−axis k) and `2k + 1` (+axis k); a hull edge is its index in
/// [`ConvexHull::edges`](sepax_geometry::ConvexHull::edges), a box edge `4k + j` runs
/// along local axis `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A face of shape a (its outward normal is the contact normal).
    FaceA(u32),
    /// A face of shape b (its outward normal is minus the contact normal).
    FaceB(u32),
    /// An edge of a against an edge of b.
    EdgeEdge(u32, u32),
    /// A sphere against anything: the axis runs through the sphere's centre.
    Sphere,
    /// The closest features of two polytopes apart within the margin, when no face or
    /// edge-pair axis is the direction between them (a speculative contact, see
    /// [`collide`](crate::collide)): the normal runs from a's closest point to b's.
    /// Each shape's feature is coded as a vertex index `i`, an edge `1 << 30 | e` (`e`
    /// numbered as in [`Feature::EdgeEdge`]) or a face `2 << 30 | f`.
    Closest(u32, u32),
}

impl Feature {
    /// The same feature pair seen from b: faces of a and b swapped, edge pair reversed.
    pub fn flipped(self) -> Feature {
        match self {
            Feature::FaceA(i) => Feature::FaceB(i),
            Feature::FaceB(i) => Feature::FaceA(i),
            Feature::EdgeEdge(i, j) => Feature::EdgeEdge(j, i),
            Feature::Sphere => Feature::Sphere,
            Feature::Closest(a, b) => Feature::Closest(b, a),
        }
    }
}

/// Normal and depth of a pair: the minimum-penetration axis of the separating-axis test.
///
/// `normal` is a unit world vector pointing **from a to b**. `depth > 0` means the shapes
/// overlap by that much along the normal; `depth < 0` means they are apart by `-depth`
/// (only reported within the contact margin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Unit world normal, from a to b.
    pub normal: Vec3,
    /// Penetration depth (negative: separation).
    pub depth: f32,
    /// The features whose axis this is.
    pub feature: Feature,
}

impl Contact {
    /// The minimum translation vector of the seed documents: move b by it (or a by its
    /// negation) to end the penetration. Zero when `depth <= 0`.
    pub fn translation_vector(&self) -> Vec3 {
        if self.depth > 0.0 {
            self.normal * self.depth
        } else {
            Vec3::ZERO
        }
    }

    /// The same contact seen from b: normal flipped, features swapped.
    pub fn flipped(&self) -> Contact {
        Contact {
            normal: -self.normal,
            depth: self.depth,
            feature: self.feature.flipped(),
        }
    }
}

/// One point of a contact manifold.
///
/// The point is given three ways: `position`, in the world, halfway between the two
/// surfaces; `anchor_a`, the point on a's surface in **a's local frame**; `anchor_b`,
/// the point on b's surface in **b's local frame**. With `n` the manifold normal (a → b)
/// and `d` the depth, the world surface points are
/// `pose_a · anchor_a = position + n·d/2` and `pose_b · anchor_b = position − n·d/2`
/// (a's surface lies further along `n` than b's while they penetrate). Anchors are
/// body-fixed, so a solver can recompute the separation after it moved the bodies:
/// `n · (pose_b · anchor_b − pose_a · anchor_a) = −depth` at the time of the query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint {
    /// World position, halfway between the two surfaces along the normal.
    pub position: Vec3,
    /// Penetration depth at this point along the manifold normal; negative for a gap
    /// within the contact margin (a speculative point, see [`ManifoldPoint::is_speculative`]).
    pub depth: f32,
    /// A feature id that stays the same while the same features touch: the reference
    /// feature, the incident feature and the clipping event that made the point, packed.
    /// Match it with last frame's to warm-start a solver.
    pub id: u64,
    /// The point on a's surface, in a's local frame.
    pub anchor_a: Vec3,
    /// The point on b's surface, in b's local frame.
    pub anchor_b: Vec3,
}

impl ManifoldPoint {
    /// True for a gap within the margin (`depth < 0`): the shapes do not touch at this
    /// point yet; a solver treats it as a speculative contact.
    pub fn is_speculative(&self) -> bool {
        self.depth < 0.0
    }

    /// The same point seen from b, in a manifold whose feature (seen from a) is
    /// `feature`: anchors swapped, the id relabelled by [`flipped_id`] (but for a
    /// sphere's single point, which has one id whatever the order).
    #[inline]
    pub(crate) fn mirrored(mut self, feature: Feature) -> ManifoldPoint {
        self.mirror(feature == Feature::Sphere);
        self
    }

    /// [`mirrored`](Self::mirrored) in place; `sphere` when the manifold's feature is
    /// [`Feature::Sphere`].
    #[inline]
    fn mirror(&mut self, sphere: bool) {
        std::mem::swap(&mut self.anchor_a, &mut self.anchor_b);
        if !sphere {
            self.id = flipped_id(self.id);
        }
    }
}

/// A contact manifold: a shared normal and up to 4 points.
///
/// The normal points from a to b. Points come in a fixed order for a given feature
/// pair, so the same input always gives the same manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold {
    /// Unit world normal, from a to b.
    pub normal: Vec3,
    /// At most 4 points, inline (so a manifold is plain data: `Copy`).
    pub points: ManifoldPoints,
    /// The feature pair that was used as reference.
    pub feature: Feature,
}

impl Manifold {
    /// The largest point depth (the manifold's penetration).
    pub fn depth(&self) -> f32 {
        self.points
            .iter()
            .map(|p| p.depth)
            .fold(f32::NEG_INFINITY, f32::max)
    }

    /// True when some point has `depth >= 0`: the shapes touch or penetrate. A manifold
    /// whose points are all speculative (gaps within the margin) is not touching.
    pub fn is_touching(&self) -> bool {
        self.points.iter().any(|p| p.depth >= 0.0)
    }

    /// The same manifold seen from b: normal flipped, features swapped, anchors swapped,
    /// ids re-labelled for the other order (see [`flipped_id`]; a sphere's id stays);
    /// positions, depths and the order of the points kept. `collide(b, a, cache)` equals
    /// `collide(a, b, cache')` flipped when `cache'` is the same memory seen from a, so
    /// with default caches; two identical shapes at the same pose are the exception
    /// (see the pair order in `collide`'s docs).
    pub fn flipped(mut self) -> Manifold {
        self.flip();
        self
    }

    /// [`flipped`](Self::flipped) in place.
    pub fn flip(&mut self) {
        let sphere = self.feature == Feature::Sphere;
        for p in &mut self.points {
            p.mirror(sphere);
        }
        self.normal = -self.normal;
        self.feature = self.feature.flipped();
    }
}

/// A manifold point's feature id for the pair in the other order. Ids pack (see
/// [`ManifoldPoint::id`]) the side of the reference feature in bit 63, the reference
/// feature, the incident feature and two lines; an edge–edge point (its two lines both
/// `0xffff`) packs a's edge and b's edge instead, which swap. So an id names the same
/// features whichever order the pair is queried in.
pub fn flipped_id(id: u64) -> u64 {
    if id & 0xffff_ffff == 0xffff_ffff {
        let (first, second) = ((id >> 48) & 0x7fff, (id >> 32) & 0xffff);
        (id & (1 << 63)) | ((second & 0x7fff) << 48) | (first << 32) | 0xffff_ffff
    } else {
        id ^ (1 << 63)
    }
}
