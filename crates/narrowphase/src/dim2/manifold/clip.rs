//! The 2D clipper: one segment (the incident edge) against one half-plane (a side
//! plane of the reference edge), with feature tracking.
//!
//! Every end of the segment carries where it comes from: `0` or `1` for the incident
//! edge's first or second vertex, or the side plane that cut it (`2` at the reference
//! edge's first vertex, `3` at its second). The pair (reference edge, incident edge,
//! origin) names the point, and stays the same while the same features touch.

use glam::Vec2;

/// A segment's two ends, each with its feature origin.
pub(crate) type ClipSegment = [(Vec2, u32); 2];

/// Keeps the part of the segment where `distance(p) ≤ 0` (`distance`: the signed
/// distance to the side plane, or any positive multiple of it); an end that is cut
/// becomes the crossing `p0 + (p1 − p0) · d0 / (d0 − d1)` with `origin` as its feature.
/// False when the whole segment is outside.
///
/// The polygon clip ([`super::polygon`]) passes `side · p − offset`, the box clip
/// ([`super::box_box`]) `±x − w` in the reference box's turned frame.
#[inline(always)]
pub(crate) fn clip_segment(
    segment: &mut ClipSegment,
    distance: impl Fn(Vec2) -> f32,
    origin: u32,
) -> bool {
    let d0 = distance(segment[0].0);
    let d1 = distance(segment[1].0);
    match (d0 > 0.0, d1 > 0.0) {
        (false, false) => true,
        (true, true) => false,
        (out0, _) => {
            let x = segment[0].0 + (d0 / (d0 - d1)) * (segment[1].0 - segment[0].0);
            segment[if out0 { 0 } else { 1 }] = (x, origin);
            true
        }
    }
}
