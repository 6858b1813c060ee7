//! Contact manifolds: from the preferred axis of a separating-axis test to at most four
//! points with depths and feature ids.
//!
//! * **Face contact** ([`face`]): the reference face is the face whose normal is the
//!   axis; the incident face is the other shape's face most anti-parallel to it. The
//!   incident polygon is clipped (Sutherland–Hodgman, [`clip`]) against the side planes
//!   of the reference face; clipped points within the margin below the reference plane
//!   are kept and [`reduce`]d to at most four.
//! * **Edge contact** ([`edge`]): one point halfway between the closest points of the two
//!   edge segments.
//!
//! Points are placed halfway between the two surfaces: `incident point + n · depth / 2`.

/// The clip tolerance, as a fraction of the smaller shape's inner radius: side planes of
/// the reference face are pushed out by it (see the module docs).
pub const CLIP_TOLERANCE: f32 = 2e-3;

pub(crate) mod box_face;
pub(crate) mod clip;
pub(crate) mod edge;
pub(crate) mod face;
pub(crate) mod reduce;

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
