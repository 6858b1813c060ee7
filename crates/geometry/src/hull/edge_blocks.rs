//! A hull's edges for the edge query of the hull SAT, in two layouts by how the query
//! reads them: the Gauss arcs in blocks of 8 (structure of arrays, [`EdgeBlock`]), all
//! of which are tested to find the edges that can reach a cone of directions, and each
//! edge's data (its faces' normals, a point, its direction) as one 64-byte
//! [`EdgeRecord`], read only for the edges that reach.
//!
//! **Why two layouts.** The edge query tests every arc but reads the data of only the
//! edges whose arcs reach: with the data inside the blocks (544 bytes a block) a query
//! read all of it. Arcs alone are 2.5 cache lines a block; a reaching edge adds one
//! line. On 256 touching pairs of distinct 24-point hulls (`prof hull 24`, cachegrind
//! with a 1 MB last-level cache) the SAT's data reads that miss it went from ~140 to
//! ~105 a pair; the time did not move measurably on the 2-core test machine, where
//! these pairs are bound by instructions, not memory (IPC ≈ 2).
//!
//! **The reach test.** An edge's Gauss arc lies in the cap of half angle θ about its
//! `mid` direction. For a vector `w` at angle φ from `mid`, the largest `n·w` over the
//! cap is `|w|` when φ ≤ θ (w points into the cap) and `|w| cos(φ − θ) =
//! (mid·w) cos θ + |w| sin φ sin θ` otherwise, with `|w| sin φ = √(|w|² − (mid·w)²)`. The
//! edge query asks, for a point `q` and a bound `b`, whether some direction `n` of the
//! arc has `n·(q − p) ≥ b`, `p` the edge's first vertex ([`ReachTarget`]): an upper
//! bound on the separation along every direction the edge supports (see
//! `sepax-narrowphase`'s hull SAT). [`EdgeBlock::may_reach`] evaluates it on 8 lanes
//! (`wide::f32x8`, separate multiplies and adds in the order of the scalar formula, so
//! every lane decides as [`arc_may_reach`] does, bit for bit).

use super::{GaussArc, HullEdge, Plane};
use crate::hull::blocks::BLOCK;
use glam::Vec3;
use wide::f32x8;

/// The Gauss arcs of up to 8 edges, one component per array. Lanes past the last edge
/// are padding: their arcs never reach (`cos_half` is +∞ and `mid` zero).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct EdgeBlock {
    /// The arc's middle direction (x, y, z), see [`GaussArc::mid`].
    pub mid: [[f32; BLOCK]; 3],
    /// [`GaussArc::cos_half`].
    pub cos_half: [f32; BLOCK],
    /// [`GaussArc::sin_half`].
    pub sin_half: [f32; BLOCK],
    /// The edge's first vertex, `vertices[0]` (as [`EdgeRecord::point`]).
    pub point: [[f32; BLOCK]; 3],
}

/// A point `q` and a bound `b` of the reach test (see the [module docs](self)): may the
/// arc hold a direction `n` with `n·(q − p) ≥ b`?
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReachTarget {
    /// `q`, in the hull's frame.
    pub point: Vec3,
    /// `b`, less whatever slack the caller allows for round-off.
    pub bound: f32,
}

/// One edge's data for pairing, in one cache line (64-byte aligned, 16 bytes spare).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct EdgeRecord {
    /// Normal of the edge's first face, `faces[0]`.
    pub n0: Vec3,
    /// Normal of the edge's second face, `faces[1]`.
    pub n1: Vec3,
    /// The edge's first vertex, `vertices[0]`.
    pub point: Vec3,
    /// `vertices[1] − vertices[0]`.
    pub direction: Vec3,
}

impl EdgeBlock {
    /// Lane `lane`'s value of a component.
    #[inline(always)]
    pub fn lane(component: &[[f32; BLOCK]; 3], lane: usize) -> Vec3 {
        Vec3::new(component[0][lane], component[1][lane], component[2][lane])
    }

    /// Bit `l` set when lane `l`'s arc may reach every target, the test of
    /// [`arc_may_reach`] on 8 lanes; the lanes' points are multiplied by `scale` first
    /// (a box's unit-cube blocks, see `sepax-narrowphase`'s `Polytope`). Padding lanes
    /// never reach; a lane whose value is not a number does (see [`arc_may_reach`]).
    /// The targets are tested in order, and none after one that no lane reaches.
    #[inline]
    pub fn may_reach(&self, scale: Vec3, targets: &[ReachTarget]) -> u32 {
        let p = [
            f32x8::new(self.point[0]) * f32x8::splat(scale.x),
            f32x8::new(self.point[1]) * f32x8::splat(scale.y),
            f32x8::new(self.point[2]) * f32x8::splat(scale.z),
        ];
        let mid = [
            f32x8::new(self.mid[0]),
            f32x8::new(self.mid[1]),
            f32x8::new(self.mid[2]),
        ];
        let (cos_half, sin_half) = (f32x8::new(self.cos_half), f32x8::new(self.sin_half));
        // Padding lanes (`cos_half` = +∞) never reach; an edge whose value is NaN does.
        let mut reach = cos_half.simd_le(f32x8::splat(1.0)).to_bitmask();
        for target in targets {
            let q = target.point;
            let w = [
                f32x8::splat(q.x) - p[0],
                f32x8::splat(q.y) - p[1],
                f32x8::splat(q.z) - p[2],
            ];
            let along = mid[0] * w[0] + mid[1] * w[1] + mid[2] * w[2];
            let squared = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
            let length = squared.sqrt();
            let inside = along.simd_ge(length * cos_half);
            let across = (squared - along * along).max(f32x8::splat(0.0)).sqrt();
            let largest = inside.select(length, along * cos_half + across * sin_half);
            reach &= (!largest.simd_lt(f32x8::splat(target.bound))).to_bitmask();
            if reach == 0 {
                break;
            }
        }
        reach
    }
}

/// The scalar twin of [`EdgeBlock::may_reach`] for one target: may `arc`, of an edge
/// from `point`, hold a direction `n` with `n·(target.point − point) ≥ target.bound`?
/// A value that is not a number (coordinates so large that `|w|²` overflows) answers
/// yes: the test only ever drops an edge it has proved cannot matter.
#[inline]
pub fn arc_may_reach(arc: &GaussArc, point: Vec3, target: &ReachTarget) -> bool {
    let w = target.point - point;
    let along = arc.mid.x * w.x + arc.mid.y * w.y + arc.mid.z * w.z;
    let squared = w.x * w.x + w.y * w.y + w.z * w.z;
    let length = squared.sqrt();
    let largest = if along >= length * arc.cos_half {
        length
    } else {
        let across = (squared - along * along).max(0.0).sqrt();
        along * arc.cos_half + across * arc.sin_half
    };
    // Not below: a NaN on either side reaches (as the lanes' not-less-than compare).
    largest.partial_cmp(&target.bound) != Some(std::cmp::Ordering::Less)
}

/// The arc blocks of a hull's edges (empty for no edges).
pub(crate) fn edge_blocks(
    vertices: &[Vec3],
    edges: &[HullEdge],
    arcs: &[GaussArc],
) -> Vec<EdgeBlock> {
    edges
        .chunks(BLOCK)
        .zip(arcs.chunks(BLOCK))
        .map(|(edges, arcs)| {
            let mut block = EdgeBlock {
                mid: [[0.0; BLOCK]; 3],
                cos_half: [f32::INFINITY; BLOCK],
                sin_half: [0.0; BLOCK],
                point: [[0.0; BLOCK]; 3],
            };
            for (l, (edge, arc)) in edges.iter().zip(arcs).enumerate() {
                let point = vertices[edge.vertices[0] as usize];
                for k in 0..3 {
                    block.mid[k][l] = arc.mid[k];
                    block.point[k][l] = point[k];
                }
                block.cos_half[l] = arc.cos_half;
                block.sin_half[l] = arc.sin_half;
            }
            block
        })
        .collect()
}

/// The records of a hull's edges, in `edges`' order.
pub(crate) fn edge_records(
    vertices: &[Vec3],
    planes: &[Plane],
    edges: &[HullEdge],
) -> Vec<EdgeRecord> {
    edges
        .iter()
        .map(|e| {
            let point = vertices[e.vertices[0] as usize];
            EdgeRecord {
                n0: planes[e.faces[0] as usize].normal,
                n1: planes[e.faces[1] as usize].normal,
                point,
                direction: vertices[e.vertices[1] as usize] - point,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::ConvexHull;
    use crate::rng::Rng;

    /// Every lane's reach bit equals the scalar test, over random hulls, scales,
    /// targets and bounds, and padding lanes never reach.
    #[test]
    fn lanes_reach_as_the_scalar_test() {
        let mut rng = Rng::new(0xa5c5);
        let (mut reached, mut missed) = (0, 0);
        for trial in 0..300 {
            let n = 4 + (rng.next_u64() % 60) as usize;
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.vec3(Vec3::splat(0.01), Vec3::ONE))
                .collect();
            let hull = ConvexHull::try_from_points(&points).unwrap();
            let scale = if trial % 2 == 0 {
                Vec3::ONE
            } else {
                rng.vec3(Vec3::splat(0.1), Vec3::splat(3.0))
            };
            for _ in 0..20 {
                // One target in eight so far out that `|w|²` overflows: NaN lanes.
                let mut target = || {
                    let reach = if rng.next_u64().is_multiple_of(8) {
                        1e30
                    } else {
                        2.0
                    };
                    ReachTarget {
                        point: rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)),
                        bound: rng.range(-1.0, 2.0),
                    }
                };
                let targets = [target(), target()];
                for (k, block) in hull.edge_blocks().iter().enumerate() {
                    let mask = block.may_reach(scale, &targets);
                    for l in 0..BLOCK {
                        let e = k * BLOCK + l;
                        let expected = hull.gauss_arcs().get(e).is_some_and(|arc| {
                            let point = hull.edge_records()[e].point * scale;
                            targets.iter().all(|t| arc_may_reach(arc, point, t))
                        });
                        assert_eq!(mask >> l & 1 == 1, expected);
                        reached += expected as usize;
                        missed += (!expected && e < hull.edges().len()) as usize;
                    }
                }
            }
        }
        assert!(reached > 10_000 && missed > 10_000, "{reached} {missed}");
    }

    /// The test is an upper bound: no direction sampled on an arc beats it.
    #[test]
    fn no_direction_on_the_arc_exceeds_the_reach() {
        let mut rng = Rng::new(0x5eac);
        for _ in 0..100 {
            let n = 4 + (rng.next_u64() % 40) as usize;
            let points: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3()).collect();
            let hull = ConvexHull::try_from_points(&points).unwrap();
            let q = rng.vec3(Vec3::splat(-3.0), Vec3::splat(3.0));
            for ((edge, arc), record) in hull
                .edges()
                .iter()
                .zip(hull.gauss_arcs())
                .zip(hull.edge_records())
            {
                let [n0, n1] = edge.faces.map(|f| hull.planes()[f as usize].normal);
                let best = (0..=64)
                    .map(|i| n0.slerp(n1, i as f32 / 64.0).dot(q - record.point))
                    .fold(f32::NEG_INFINITY, f32::max);
                // A bound just under the best sampled value must be reached.
                let target = ReachTarget {
                    point: q,
                    bound: best - 1e-4,
                };
                assert!(arc_may_reach(arc, record.point, &target), "{best}");
            }
        }
    }
}
