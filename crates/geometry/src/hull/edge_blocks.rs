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
//! An edge's **Gauss arc** lies in the cap of half angle θ about its `mid` direction, so
//! the largest `n·u` over the arc is at most `cos(max(0, φ − θ))` with `cos φ = mid·u`:
//! the arc may hold a direction with `n·u ≥ c` only when `cos φ ≥ cos θ` (u is within
//! the cap) or `cos φ cos θ + sin φ sin θ ≥ c`. [`EdgeBlock::may_reach`] evaluates that
//! on 8 lanes (`wide::f32x8`, separate multiplies and adds in the order of the scalar
//! formula, so every lane decides as [`arc_may_reach`] does, bit for bit).

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

    /// Bit `l` set when lane `l`'s arc may hold a direction `n` with `n·u ≥ bound`, the
    /// test of [`arc_may_reach`] on 8 lanes (padding lanes never reach).
    #[inline]
    pub fn may_reach(&self, u: Vec3, bound: f32) -> u32 {
        let cos_phi = f32x8::new(self.mid[0]) * f32x8::splat(u.x)
            + f32x8::new(self.mid[1]) * f32x8::splat(u.y)
            + f32x8::new(self.mid[2]) * f32x8::splat(u.z);
        let (cos_half, sin_half) = (f32x8::new(self.cos_half), f32x8::new(self.sin_half));
        let inside = cos_phi.simd_ge(cos_half);
        let one = f32x8::splat(1.0);
        let sin_phi = (one - cos_phi * cos_phi).max(f32x8::splat(0.0)).sqrt();
        let within = (cos_phi * cos_half + sin_phi * sin_half).simd_ge(f32x8::splat(bound));
        (inside | within).to_bitmask()
    }
}

/// The scalar twin of [`EdgeBlock::may_reach`]: may `arc` hold a direction `n` with
/// `n·u ≥ bound`?
#[inline]
pub fn arc_may_reach(arc: &GaussArc, u: Vec3, bound: f32) -> bool {
    let cos_phi = arc.mid.dot(u);
    if cos_phi >= arc.cos_half {
        return true;
    }
    let sin_phi = (1.0 - cos_phi * cos_phi).max(0.0).sqrt();
    cos_phi * arc.cos_half + sin_phi * arc.sin_half >= bound
}

/// The arc blocks of a hull's edges (empty for no edges).
pub(crate) fn edge_blocks(arcs: &[GaussArc]) -> Vec<EdgeBlock> {
    arcs.chunks(BLOCK)
        .map(|arcs| {
            let mut block = EdgeBlock {
                mid: [[0.0; BLOCK]; 3],
                cos_half: [f32::INFINITY; BLOCK],
                sin_half: [0.0; BLOCK],
            };
            for (l, arc) in arcs.iter().enumerate() {
                for k in 0..3 {
                    block.mid[k][l] = arc.mid[k];
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

    /// Every lane's reach bit equals the scalar test, over random hulls, directions and
    /// bounds, and padding lanes never reach.
    #[test]
    fn lanes_reach_as_the_scalar_test() {
        let mut rng = Rng::new(0xa5c5);
        let mut reached = 0;
        for _ in 0..300 {
            let n = 4 + (rng.next_u64() % 60) as usize;
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.vec3(Vec3::splat(0.01), Vec3::ONE))
                .collect();
            let hull = ConvexHull::try_from_points(&points).unwrap();
            for _ in 0..20 {
                let u = rng.unit_vec3();
                let bound = rng.range(-1.2, 1.2);
                for (k, block) in hull.edge_blocks().iter().enumerate() {
                    let mask = block.may_reach(u, bound);
                    for l in 0..BLOCK {
                        let expected = hull
                            .gauss_arcs()
                            .get(k * BLOCK + l)
                            .is_some_and(|arc| arc_may_reach(arc, u, bound));
                        assert_eq!(mask >> l & 1 == 1, expected);
                        reached += expected as usize;
                    }
                }
            }
        }
        assert!(reached > 10_000, "{reached}");
    }
}
