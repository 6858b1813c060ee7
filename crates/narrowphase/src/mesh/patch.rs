//! One triangle's contact with the convex: the test, the points, the internal-edge
//! correction. What [`super::merge`] gathers.

use super::box_triangle::box_triangle;
use super::capsule_triangle::capsule_patch;
use super::hull_triangle::hull_triangle;
use super::internal_edges::{axis_feature, is_active};
use super::local::{Convex, ExactTriangle, LocalTriangle};
use super::points::{triangle_face_points, triangle_points};
use super::sphere_triangle::{TriangleFeature, closest_point};
use crate::Feature;
use crate::manifold::reduce::Candidate;
use crate::math::length_and_direction;
use crate::sat::capsule::Core;
use crate::sat::{Axis, SatOutcome};
use glam::Vec3;
use smallvec::SmallVec;

/// The shape against the mesh: a sphere by radius, a capsule by its core (own frame),
/// else a box or hull.
#[derive(Clone, Copy)]
pub(crate) enum Against<'a> {
    Sphere(f32),
    Capsule(Core),
    Convex(Convex<'a>),
}

/// One triangle's contact, in the convex's frame: its normal (triangle → convex), the
/// feature pair of its axis and its points (ids local to the triangle).
#[derive(Clone, Debug)]
pub(crate) struct Patch {
    pub normal: Vec3,
    pub feature: Feature,
    pub points: SmallVec<[Candidate; 4]>,
    /// The triangle's feature the normal came from: `Face` when the normal is the
    /// triangle's front normal (its face, or a corrected internal edge), else the active
    /// edge or corner.
    pub on: TriangleFeature,
    /// The triangle (convex frame).
    pub tri: LocalTriangle,
    /// A contact kept aside (a corrected one with nothing of the convex over its face,
    /// or the test's own where the correction gives nothing), used only when no
    /// triangle of the call gives a touching contact (see [`buried_patch`]).
    pub buried: bool,
    /// How far the triangle's test found the shape apart from the triangle (0 when they
    /// touch): no point of the patch is deeper than `−gap` (see [`Patch::keep_apart`]).
    pub gap: f32,
    /// The deepest clipped point when the reduction to four dropped it (it keeps one
    /// within the clip tolerance of the deepest, for stable ids). The merge gathers it
    /// with the points, so that its own reduction keeps a point within the tolerance of
    /// the deepest of all, and `contact` reports its depth (see `merge::merged_points`).
    pub dropped: Option<Candidate>,
    /// The test's exact axis when the patch is built on another one (the preferred: a
    /// face of the convex within the slop of it): what the cones fall back to when the
    /// preferred normal leaves its cone and the face it would move to has nothing of
    /// the convex over it (see `cone`).
    pub exact: Option<Axis>,
}

impl Patch {
    /// The patch kept aside (see [`buried_patch`]).
    pub fn buried(self) -> Patch {
        Patch {
            buried: true,
            ..self
        }
    }

    /// The patch of a triangle the shape is `gap` apart from (`gap ≤ 0`: touching,
    /// nothing changes): every point deeper than `−gap` gets depth `−gap`, moved along
    /// the normal so that its shape-side end stays (the point is halfway between the
    /// surfaces: `point − normal · depth/2` is on the shape).
    ///
    /// A triangle kept for the margin is apart from the shape, yet the depths of its
    /// points are measured along its front normal on an internal edge or corner, or on
    /// the face of a cone's end: with the shape past the triangle's edge and below its
    /// plane's extension (on a bent surface), they can read as a penetration the
    /// triangle does not have, and as the deepest patch it would set the manifold's
    /// normal and depth. Capped, a margin adds speculative points and changes no
    /// touching contact.
    pub fn keep_apart(&mut self, gap: f32) {
        if gap > 0.0 {
            let normal = self.normal;
            for c in self.points.iter_mut().chain(&mut self.dropped) {
                let depth = kept_apart(c.depth, gap);
                c.point += normal * (0.5 * (depth - c.depth));
                c.depth = depth;
            }
            self.gap = gap;
        }
    }

    /// The deepest point's depth.
    pub fn depth(&self) -> f32 {
        self.points
            .iter()
            .map(|c| c.depth)
            .fold(f32::NEG_INFINITY, f32::max)
    }
}

/// `depth` of a shape `gap` apart from a triangle: at most `−gap` when apart (`gap > 0`),
/// as it is otherwise (the rule of [`Patch::keep_apart`]).
#[inline]
pub(crate) fn kept_apart(depth: f32, gap: f32) -> f32 {
    if gap > 0.0 { depth.min(-gap) } else { depth }
}

/// The distance and unit direction from the closest point of a triangle's edge or
/// corner `on` to the origin (the sphere's centre), from the exact corners: the
/// direction of a short offset is mostly the rounded corners' round-off otherwise.
/// `None` at zero distance.
#[cold]
fn exact_offset(
    tri64: &ExactTriangle,
    on: TriangleFeature,
) -> Option<(f32, Vec3, TriangleFeature)> {
    let closest = match on {
        TriangleFeature::Vertex(j) => tri64.corner(j as usize),
        TriangleFeature::Edge(i) => {
            let (a, e) = (tri64.corner(i as usize), tri64.edge(i as usize));
            a + e * (-a.dot(e) / e.length_squared()).clamp(0.0, 1.0)
        }
        TriangleFeature::Face => return None,
    };
    let distance = closest.length();
    (distance > 0.0 && distance.is_finite())
        .then(|| (distance as f32, (-closest / distance).as_vec3(), on))
}

/// The contact of one triangle, or `None` when it gives none: apart beyond the margin,
/// the shape's centre behind the triangle's plane (one-sided), or a corrected contact
/// with nothing over the triangle.
pub(crate) fn triangle_patch(
    against: &Against,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    match against {
        Against::Sphere(radius) => sphere_patch(*radius, tri, tri64, margin),
        Against::Capsule(core) => capsule_patch(core, tri, tri64, margin, clip_tolerance),
        Against::Convex(convex) => convex_patch(convex, tri, tri64, margin, clip_tolerance),
    }
}

/// The test's outcome for a box or hull whose centre is in front of the plane, with the
/// largest gap of its lines either way (positive: apart within the margin; see
/// `box_triangle`).
#[inline]
pub(crate) fn convex_outcome(
    convex: &Convex,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
) -> Option<(SatOutcome, f32)> {
    if tri.normal.dot(convex.centre()) < tri.offset {
        return None;
    }
    Some(match convex {
        Convex::Box { half, .. } => box_triangle(*half, tri, margin),
        Convex::Hull(poly) => hull_triangle(poly, tri, tri64, margin),
    })
}

fn convex_patch(
    convex: &Convex,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    let (SatOutcome::Overlap { exact, preferred }, gap) =
        convex_outcome(convex, tri, tri64, margin)?
    else {
        return None;
    };
    let axes = (exact, preferred, gap <= 0.0);
    let mut patch = convex_axis_patch(convex, tri, axes, margin, clip_tolerance)?;
    patch.keep_apart(gap);
    Some(patch)
}

/// [`convex_patch`] for the test's exact and preferred axes, and whether its verdict
/// has the pair overlapping.
fn convex_axis_patch(
    convex: &Convex,
    tri: &LocalTriangle,
    (exact, preferred, overlapping): (Axis, Axis, bool),
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    // The axis is the preferred one, or the exact one when the preferred gives no
    // points; an axis on an internal edge or corner then drops its points for the
    // face's. When every axis it could be is internal, the face's points are the answer
    // whichever it is: the axis' own points are not computed (on a terrain most
    // triangles under a resting box end here) unless the face gives nothing at all.
    let axis_and_points = || {
        let axes = (exact, preferred, overlapping);
        axis_points(convex, tri, axes, margin, clip_tolerance)
    };
    let on_preferred = axis_feature(tri, &preferred);
    if !is_active(tri, on_preferred)
        && (exact == preferred || !is_active(tri, axis_feature(tri, &exact)))
    {
        return internal_patch(convex, tri, margin, clip_tolerance).or_else(|| {
            let (axis, points) = axis_and_points();
            axis_patch(convex, tri, exact, axis, points).map(Patch::buried)
        });
    }
    let (axis, points) = axis_and_points();
    if !is_active(tri, axis_feature(tri, &axis)) {
        return internal_patch(convex, tri, margin, clip_tolerance)
            .or_else(|| axis_patch(convex, tri, exact, axis, points).map(Patch::buried));
    }
    axis_patch(convex, tri, exact, axis, points)
}

/// The preferred axis and its points, or the exact axis and its points when the
/// preferred gives none (none touching, for a pair that overlaps: see
/// [`touching_only`]).
fn axis_points(
    convex: &Convex,
    tri: &LocalTriangle,
    (exact, preferred, overlapping): (Axis, Axis, bool),
    margin: f32,
    clip_tolerance: f32,
) -> (Axis, (SmallVec<[Candidate; 4]>, Option<Candidate>)) {
    let points_on = |axis: &Axis| {
        let points = triangle_points(convex, tri, axis, margin, clip_tolerance);
        touching_only(points, overlapping, margin)
    };
    let points = points_on(&preferred);
    if points.0.is_empty() && exact != preferred {
        (exact, points_on(&exact))
    } else {
        (preferred, points)
    }
}

/// An overlapping pair's points on an axis (`overlapping`: the test's verdict has no
/// gap) that all miss, kept for the margin above the surfaces, count as none: without
/// a margin the axis gives none, and the pair's contact comes from the exact axis or
/// the convex's deepest vertex. (A margin's speculative point on the preferred axis
/// stood in for a hull 0.23 into a triangle, its contact 0.49 deep without the margin.)
fn touching_only(
    (mut points, dropped): (SmallVec<[Candidate; 4]>, Option<Candidate>),
    overlapping: bool,
    margin: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    // (Without a margin every point kept touches.)
    if margin > 0.0 && overlapping && points.iter().all(|c| c.depth < 0.0) {
        points.clear();
        return (points, None);
    }
    (points, dropped)
}

/// The test's own contact on `axis`: its points, or the convex's deepest vertex when
/// clipping gave none and the pair overlaps (`None` when it does not).
fn axis_patch(
    convex: &Convex,
    tri: &LocalTriangle,
    exact: Axis,
    axis: Axis,
    (mut points, dropped): (SmallVec<[Candidate; 4]>, Option<Candidate>),
) -> Option<Patch> {
    if points.is_empty() {
        if exact.separation > 0.0 {
            return None;
        }
        points.push(deepest_vertex(convex, &axis));
    }
    Some(Patch {
        normal: axis.normal,
        feature: axis.feature,
        points,
        on: axis_feature(tri, &axis),
        tri: *tri,
        buried: false,
        gap: 0.0,
        dropped,
        exact: (axis != exact).then_some(exact),
    })
}

/// The test's own contact on its exact axis (see [`Patch::exact`]): `None` when that
/// axis lies on an internal edge or corner (the face's correction is its contact) or
/// gives no contact.
pub(crate) fn exact_patch(
    convex: &Convex,
    tri: &LocalTriangle,
    exact: Axis,
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    if !is_active(tri, axis_feature(tri, &exact)) {
        return None;
    }
    let points = triangle_points(convex, tri, &exact, margin, clip_tolerance);
    let points = touching_only(points, true, margin);
    axis_patch(convex, tri, exact, exact, points)
}

/// The patch of a contact on an internal edge or corner: the front normal, depths along
/// it, only the part over this triangle (see `internal_edges`); when nothing of the
/// convex touches over it, the [`buried_patch`] (`None` when it has no depth either).
fn internal_patch(
    convex: &Convex,
    tri: &LocalTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    let (points, dropped) = face_points_touching(convex, tri, margin, clip_tolerance);
    if points.is_empty() {
        return buried_patch(convex, tri, margin);
    }
    Some(Patch {
        normal: tri.normal,
        feature: Feature::FaceA(0),
        points,
        on: TriangleFeature::Face,
        tri: *tri,
        buried: false,
        gap: 0.0,
        dropped,
        exact: None,
    })
}

/// The convex's points over `tri`'s face ([`triangle_face_points`]), or none when none
/// of them touches (all deeper than `−margin` but above the plane) while the convex
/// reaches below the plane beside the face: what the margin 0 gives, so that a
/// margin's speculative points do not stand in for the [`buried_patch`] of an
/// overlapping pair (a touching contact would turn speculative).
pub(crate) fn face_points_touching(
    convex: &Convex,
    tri: &LocalTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Option<Candidate>) {
    let (mut points, dropped) = triangle_face_points(convex, tri, margin, clip_tolerance);
    // (Without a margin every point kept touches.)
    if margin > 0.0 && points.iter().all(|c| c.depth < 0.0) && reaches_below(convex, tri) {
        points.clear();
        return (points, None);
    }
    (points, dropped)
}

/// True when the convex's deepest vertex along `−n` is on or below the triangle's plane.
fn reaches_below(convex: &Convex, tri: &LocalTriangle) -> bool {
    let n = tri.normal;
    tri.offset + convex.polytope().support(-n).1 >= 0.0
}

/// The face contact of a triangle that the convex overlaps with nothing over its face:
/// the front normal `n`, one point at the convex's deepest vertex `p` along `−n`, depth
/// `offset − n·p`; `None` when that is below `−margin`.
///
/// The internal-edge and cone corrections dropped such a contact (a sliver of the
/// convex past a seam: the neighbour gives the contact). But the prism over a face is
/// tilted along its normal, and a convex sunk deep enough into a bump (a tall box
/// through the peak of a terrain) can lie outside every face's prism: each triangle
/// dropped its contact and the pair, overlapping by far, got none. So these patches are
/// kept aside (`buried`) and the deepest of them answers when no triangle of the call
/// gives a touching contact (it then joins the speculative ones of a margin, if it is
/// deeper); otherwise they change nothing. Where even this has no depth (the
/// convex does not reach below the face's plane: a corner's cone can move a contact to
/// a triangle the convex is apart from), the test's own contact is kept aside instead.
pub(crate) fn buried_patch(convex: &Convex, tri: &LocalTriangle, margin: f32) -> Option<Patch> {
    let poly = convex.polytope();
    let n = tri.normal;
    let k = poly.support_index(-n);
    let p = poly.vertices[k];
    let depth = tri.offset - n.dot(p);
    (depth >= -margin).then(|| Patch {
        normal: n,
        feature: Feature::FaceA(0),
        points: SmallVec::from_elem(
            Candidate {
                point: p + n * (0.5 * depth),
                depth,
                id: crate::manifold::pack_id(false, u32::MAX, u32::MAX, [u16::MAX - 2, k as u16]),
            },
            1,
        ),
        on: TriangleFeature::Face,
        tri: *tri,
        buried: true,
        gap: 0.0,
        dropped: None,
        exact: None,
    })
}

/// The convex's deepest vertex along the axis, with the axis' depth: the point when
/// clipping gave none (deep inside).
fn deepest_vertex(convex: &Convex, axis: &Axis) -> Candidate {
    let poly = convex.polytope();
    let k = poly.support_index(-axis.normal);
    let depth = -axis.separation;
    Candidate {
        point: poly.vertices[k] + axis.normal * (0.5 * depth),
        depth,
        id: crate::manifold::pack_id(false, u32::MAX, u32::MAX, [u16::MAX - 1, k as u16]),
    }
}

/// A sphere of `radius` at the origin against `tri`. The verdict is the true distance
/// to the triangle's closest point; the normal runs from that point to the centre, or
/// is the front normal, with the depth measured along it (the centre's height), on the
/// face and on an inactive edge or corner. (There the contact does not need the
/// centre over this triangle: near a flat or slightly convex inactive edge the centre
/// can lie past the edge of both triangles that share it.)
fn sphere_patch(
    radius: f32,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
) -> Option<Patch> {
    let n = tri.normal;
    // One-sided: the centre (the origin) must be in front; its height is `−offset`.
    let height = -tri.offset;
    if height < 0.0 {
        return None;
    }
    let (closest, feature) = closest_point(tri, Vec3::ZERO);
    let (true_distance, direction) = length_and_direction(-closest).unwrap_or((0.0, n));
    if true_distance - radius > margin {
        return None;
    }
    let (distance, normal, on) = if feature == TriangleFeature::Face || !is_active(tri, feature) {
        (height, n, TriangleFeature::Face)
    } else {
        exact_offset(tri64, feature).unwrap_or((true_distance, direction, feature))
    };
    // Within the margin the depth is at least `−margin` (`distance` is at most the
    // true one); a sphere apart from the triangle stays apart (`Patch::keep_apart`).
    let depth = radius - distance;
    if depth < -margin {
        return None;
    }
    let code = match feature {
        TriangleFeature::Face => 0,
        TriangleFeature::Edge(i) => 1 + i as u64,
        TriangleFeature::Vertex(j) => 4 + j as u64,
    };
    let mut patch = Patch {
        buried: false,
        normal,
        feature: Feature::Sphere,
        points: SmallVec::from_elem(
            Candidate {
                point: -normal * (radius - 0.5 * depth),
                depth,
                id: code,
            },
            1,
        ),
        on,
        tri: *tri,
        gap: 0.0,
        dropped: None,
        exact: None,
    };
    patch.keep_apart(true_distance - radius);
    Some(patch)
}
