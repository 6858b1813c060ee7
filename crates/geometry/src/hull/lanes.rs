//! The Gauss-map arcs of a hull in structure-of-arrays chunks of 8, for the narrow
//! phase's SIMD arc pruning: each field of [`GaussArc`] as an array of 8 floats, one arc
//! per lane, so that one test runs on 8 arcs at once with the same operations, in the
//! same order, as on one.

use super::GaussArc;

/// Arcs per chunk.
pub const ARC_LANES: usize = 8;

/// Eight [`GaussArc`]s, one per lane; the lanes of the last chunk past the hull's arc
/// count repeat its first arc (a caller masks them out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub struct ArcLanes {
    /// `mid.x`, `mid.y`, `mid.z` of each lane's arc.
    pub mid: [[f32; ARC_LANES]; 3],
    /// Cosine of each arc's half opening angle.
    pub cos_half: [f32; ARC_LANES],
    /// Sine of each arc's half opening angle.
    pub sin_half: [f32; ARC_LANES],
}

/// `arcs` in chunks of [`ARC_LANES`] (none for no arcs).
pub(super) fn arc_lanes(arcs: &[GaussArc]) -> Vec<ArcLanes> {
    arcs.chunks(ARC_LANES)
        .map(|chunk| {
            let arc = |lane: usize| chunk.get(lane).unwrap_or(&chunk[0]);
            let mut lanes = ArcLanes::default();
            for lane in 0..ARC_LANES {
                let a = arc(lane);
                lanes.mid[0][lane] = a.mid.x;
                lanes.mid[1][lane] = a.mid.y;
                lanes.mid[2][lane] = a.mid.z;
                lanes.cos_half[lane] = a.cos_half;
                lanes.sin_half[lane] = a.sin_half;
            }
            lanes
        })
        .collect()
}
