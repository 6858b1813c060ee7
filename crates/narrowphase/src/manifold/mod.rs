//! Contact manifolds: from the preferred axis of a separating-axis test to at most four
//! points with depths, feature ids and anchors a solver can use.
//!
//! * **Face contact** ([`face`], [`box_face`] for two boxes): the reference face is the
//!   face whose normal is the axis; the incident face is, among the other shape's faces
//!   around its deepest vertex, the most anti-parallel one. The incident polygon is
//!   clipped (Sutherland–Hodgman, [`clip`]) against the side planes of the reference
//!   face; clipped points within the margin below the reference plane are kept and
//!   [`reduce`]d to at most four.
//! * **Edge contact** ([`edge`]): one point halfway between the closest points of the two
//!   edge segments.
//! * **Sphere contact** ([`sphere`]): one point on the axis through the sphere's centre.
//! * **Capsule contact** ([`capsule`]): the core clipped against a polytope face, or
//!   against the other capsule's span, for up to two points; else one point.
//! * **Deepest point** ([`deepest`]): the incident shape's deepest vertex, the fallback
//!   when clipping gave nothing and the deepest-point rule below.
//! * **Replayed face contact** ([`replay`]): a kept face's points worked out from the
//!   features its last clip named, while the pair stays within that clip's margin (the
//!   warm path of `kept_feature` only).
//!
//! [`manifold_points`] picks the builder for the pair and the axis' feature. The
//! separating-axis tests ([`crate::sat`]) never call in here; the pair's frame and the
//! segment math both read live in base modules (`frame`, `math`).
//!
//! Points are placed halfway between the two surfaces: `incident point + n · depth / 2`;
//! the query adds the surface point of each shape in its own frame (the anchors).
//!
//! ## The rules that make a manifold solver-grade
//! With `r` the smaller shape's inner radius (a box's smallest half extent, a hull's
//! inradius):
//! * **Preference** (in [`crate::sat`]): the reference feature is the exact
//!   minimum-penetration axis, except that a face of a is kept over a face of b, and
//!   faces over edge pairs, unless the other is better by more than the **slop**
//!   `FEATURE_SLOP · r` (5e-3 · r); and last frame's reference feature (the pair's
//!   cache) is kept while it is within the slop of the exact axis. So the manifold's
//!   depth is at most `slop` above the exact depth, and a resting pair does not flip
//!   between a's and b's face.
//! * **Clip tolerance** `CLIP_TOLERANCE · r` (2e-3 · r): the side planes are pushed out
//!   by it, so an incident vertex within it of a side plane is kept whole, with its
//!   vertex id, instead of being cut into a crossing point whose id and place along an
//!   edge lying in that plane are decided by round-off (equal flush faces: every corner
//!   lies on a side plane). A point may thus lie up to the tolerance outside the
//!   reference face.
//! * **Stable reduction**: near ties (within the clip tolerance) go to the earlier
//!   candidate in the clipper's feature order, so noise does not pick other points.
//! * **Deepest point**: the incident face is taken around the incident shape's deepest
//!   vertex, so the deepest point is among the clipped candidates whenever it lies over
//!   the reference face, and the reduction keeps it within the clip tolerance. When it
//!   does not lie over the face (deep inside, coincident centres) and no clipped point
//!   comes within the clip tolerance of the exact depth, that vertex is added with the
//!   axis' depth before the reduction. Tested against the f64 oracle on random box,
//!   box–hull and hull pairs: the deepest point is never shallower than the exact depth
//!   minus the clip tolerance.
//! * **Ids** follow features: the reference feature, the incident feature and the two
//!   lines (incident edges or reference side planes) a point lies on.

/// The clip tolerance, as a fraction of the smaller shape's inner radius: side planes of
/// the reference face are pushed out by it (see the module docs).
pub const CLIP_TOLERANCE: f32 = 2e-3;

pub(crate) mod box_face;
pub(crate) mod capsule;
pub(crate) mod clip;
pub(crate) mod deepest;
pub(crate) mod edge;
pub(crate) mod face;
pub(crate) mod reduce;
pub(crate) mod replay;
pub(crate) mod sphere;

use crate::Feature;
use crate::frame::Frame;
use crate::sat::Axis;
use crate::sat::box_box::box_edge_segment;
use crate::solid::{Solid, with_polytopes};
use box_face::box_face_contact;
use edge::{edge_contact, polytope_edge};
use face::face_contact;
use reduce::Candidate;
use smallvec::SmallVec;

/// Packs a feature id: bit 63 says the reference face is b's, then the reference
/// feature, the incident feature and the two "lines" the point lies on (an incident edge
/// or a side plane of the reference face, see [`clip`]).
#[inline]
pub(crate) fn pack_id(reference_is_b: bool, reference: u32, incident: u32, lines: [u16; 2]) -> u64 {
    ((reference_is_b as u64) << 63)
        | ((reference as u64 & 0x7fff) << 48)
        | ((incident as u64 & 0xffff) << 32)
        | ((lines[0] as u64) << 16)
        | lines[1] as u64
}

/// Manifold points for an axis of the separating-axis test, in a's frame: the builder
/// that fits the pair and the axis' feature. A face of b is built in b's frame (b is the
/// reference there) and its points brought to a's. Empty when nothing lies within the
/// margin (or the axis cannot carry a manifold).
pub(crate) fn manifold_points(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    margin: f32,
    clip_tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    let n = axis.normal;
    let s = axis.separation;
    match (a, b, axis.feature) {
        (Solid::Sphere(ra), _, _) => sphere::sphere_a_point(*ra, n, s),
        (_, Solid::Sphere(rb), _) => sphere::sphere_b_point(*rb, frame.trans, n, s),
        (Solid::Box(ha), Solid::Box(hb), Feature::FaceA(i)) => {
            box_face_contact(*ha, *hb, frame, i as usize, margin, clip_tolerance, None)
        }
        (Solid::Box(ha), Solid::Box(hb), Feature::FaceB(j)) => box_face_contact(
            *hb,
            *ha,
            &frame.inverse(),
            j as usize,
            margin,
            clip_tolerance,
            Some(frame),
        ),
        (_, _, Feature::FaceA(i)) => with_polytopes(a, b, |pa, pb| {
            face_contact(pa, pb, frame, i as usize, margin, clip_tolerance, false)
        })
        .unwrap_or_default(),
        (_, _, Feature::FaceB(j)) => with_polytopes(a, b, |pa, pb| {
            let points = face_contact(
                pb,
                pa,
                &frame.inverse(),
                j as usize,
                margin,
                clip_tolerance,
                true,
            );
            to_frame_a(points, frame)
        })
        .unwrap_or_default(),
        (_, _, Feature::EdgeEdge(ea, eb)) => {
            if let (Solid::Box(ha), Solid::Box(hb)) = (a, b) {
                let (b0, b1) = box_edge_segment(*hb, eb);
                let on_b = (frame.point_to_a(b0), frame.point_to_a(b1));
                let on_a = box_edge_segment(*ha, ea);
                return edge::edge_contact_inlined(on_a, on_b, n, s, margin, (ea, eb));
            }
            let segments = with_polytopes(a, b, |pa, pb| {
                (polytope_edge(pa, ea), polytope_edge(pb, eb))
            });
            let Some((on_a, (b0, b1))) = segments else {
                return SmallVec::new();
            };
            let on_b = (frame.point_to_a(b0), frame.point_to_a(b1));
            edge_contact(on_a, on_b, n, s, margin, (ea, eb))
        }
        // No SAT axis names closest features (see `speculative`).
        (_, _, Feature::Sphere | Feature::Closest(..)) => SmallVec::new(),
    }
}

/// Points found in b's frame (b's face as the reference), moved to a's.
pub(crate) fn to_frame_a(
    mut points: SmallVec<[Candidate; 4]>,
    frame: &Frame,
) -> SmallVec<[Candidate; 4]> {
    for c in &mut points {
        c.point = frame.point_to_a(c.point);
    }
    points
}
