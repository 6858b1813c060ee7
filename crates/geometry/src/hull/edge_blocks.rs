//! A hull's edges for the edge query of the hull SAT, in two layouts by how the query
//! reads them: the Gauss arcs in blocks of 8 (structure of arrays, [`EdgeBlock`]), all
//! of which are tested to find the edges that can reach a cone of directions, and each
//! edge's data (its faces' normals, a point, its direction) as one 64-byte
//! [`EdgeRecord`], read only for the edges that reach.
//!
//! **Why two layouts.** The edge query tests every arc but reads the data of only the
//! edges whose arcs reach: with the data inside the blocks (544 bytes a block) a query
//! read all of it. A reaching edge adds one line.
//!
//! **The reach test.** An edge's Gauss arc lies in the cap of half angle θ about its
//! `mid` direction. For a vector `w` at angle φ from `mid`, the largest `n·w` over the
//! cap is `|w|` when φ ≤ θ (w points into the cap) and `|w| cos(φ − θ) =
//! (mid·w) cos θ + |w| sin φ sin θ` otherwise, with `|w| sin φ = √(|w|² − (mid·w)²)`. The
//! edge query asks, for a point `q` and a bound `b`, whether some direction `n` of the
//! arc has `n·(q − p) ≥ b`, `p` the edge's first vertex ([`ReachTarget`]): an upper
//! bound on the separation along every direction the edge supports (see
//! `sepax-narrowphase`'s hull SAT). [`arc_may_reach`] is that test on the exact cap.
//!
//! **Blocks in 16-bit fixed point.** The query reads every block of both hulls on every
//! touching pair, so the blocks are small: 8 rows of 8 `i16`, 128 bytes (two cache
//! lines) where `f32` rows took 256. The cap's direction, cosine and sine are in units
//! of [`DIRECTION_UNIT`] (2⁻¹⁴), the points in units of the hull's [`point_unit`], a
//! power of two (so a unit cube's corners, and a box's scaled from them, are exact).
//! The test stays conservative, an edge that may reach is never dropped:
//! * rounding moves the direction by at most `√3 · 2⁻¹⁵` and its length off 1 by as
//!   much; the angle the test then sees moves by at most `√(2 · 5.3e-5) + 5.3e-5 <
//!   0.0104` rad, so the stored cap is widened by [`CAP_WIDENING`];
//! * the rounded cosine and sine move the value by at most `|w| · √2 · 2⁻¹⁵`: the test
//!   adds [`REACH_SLACK`]` · |w|`;
//! * a point moves by at most `√3/2` units, which moves the value as much: the test
//!   lowers the bound by `0.87 ·` the largest scaled unit.
//!
//! [`EdgeBlock::may_reach`] evaluates it on 8 lanes (`wide`, separate multiplies and
//! adds in the order of its scalar twin [`EdgeBlock::lane_may_reach`], so every lane
//! decides as the twin does, bit for bit); the unit tests check that an edge sampled
//! to reach the exact cap always reaches the block's.

use super::{GaussArc, HullEdge, Plane};
use crate::hull::blocks::BLOCK;
use glam::Vec3;
use wide::{f32x8, i16x8, i32x8};

/// The unit of the blocks' directions, cosines and sines: 2⁻¹⁴ (see the
/// [module docs](self)).
pub const DIRECTION_UNIT: f32 = 1.0 / 16384.0;

/// How much wider than the edge's arc the stored cap is, in radians: it covers the
/// rounding of the cap's direction (see the [module docs](self)).
pub const CAP_WIDENING: f64 = 0.0105;

/// The reach test's slack for the rounded cosine and sine, times `|w|`.
pub const REACH_SLACK: f32 = 5e-5;

/// `cos_half` of a padding lane: no arc (a real cap's cosine is at least −1, 16,384
/// units).
const PADDING: i16 = i16::MIN;

/// The Gauss arcs of up to 8 edges as caps, one component per row, in 16-bit fixed
/// point (see the [module docs](self)). Lanes past the last edge are padding: their
/// arcs never reach (`cos_half` is `i16::MIN`).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
pub struct EdgeBlock {
    /// The cap's middle direction (x, y, z), see [`GaussArc::mid`], in
    /// [`DIRECTION_UNIT`]s.
    pub mid: [[i16; BLOCK]; 3],
    /// Cosine of the cap's half angle ([`GaussArc`]'s widened by [`CAP_WIDENING`]).
    pub cos_half: [i16; BLOCK],
    /// Sine of the cap's half angle.
    pub sin_half: [i16; BLOCK],
    /// The edge's first vertex, `vertices[0]`, in the hull's point units.
    pub point: [[i16; BLOCK]; 3],
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

/// One edge's data for pairing, in one cache line (64-byte aligned).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
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
    /// The normal of the edge's Gauss-arc plane, `−direction / max|direction_k|`, and
    /// `|direction|`: [`scaled_direction`] of the direction, negated, computed once
    /// here (the edge query of a hull in its own frame reads them instead of dividing
    /// for every reaching edge).
    pub cross: Vec3,
    /// See [`EdgeRecord::cross`].
    pub length: f32,
}

/// `(d / max|d_k|, |d|)` for an edge direction `d`, the length taken on the scaled
/// vector so that it neither underflows nor overflows; zeros for a zero or non-finite
/// `d`. The hull SAT's edge query uses the first, negated, as the normal of the edge's
/// Gauss-arc plane (see `sepax-narrowphase`'s `sat::hull_hull::edges`).
#[inline(always)]
pub fn scaled_direction(d: Vec3) -> (Vec3, f32) {
    let scale = d.abs().max_element();
    if !(scale > 0.0 && scale.is_finite()) {
        return (Vec3::ZERO, 0.0);
    }
    let scaled = d / scale;
    (scaled, scaled.length() * scale)
}

impl EdgeBlock {
    /// Bit `l` set when lane `l`'s cap may reach every target: [`Self::lane_may_reach`]
    /// on 8 lanes. `point_scale` is the hull's point unit, times a box's half extents
    /// for the unit cube's blocks (see `sepax-narrowphase`'s `Polytope`). Padding lanes
    /// never reach; a lane whose value is not a number does. The targets are tested in
    /// order, and none after one that no lane reaches.
    #[inline]
    pub fn may_reach(&self, point_scale: Vec3, targets: &[ReachTarget]) -> u32 {
        let row = |r: [i16; BLOCK]| f32x8::from_i32x8(i32x8::from_i16x8(i16x8::new(r)));
        let unit = f32x8::splat(DIRECTION_UNIT);
        let p = [
            row(self.point[0]) * f32x8::splat(point_scale.x),
            row(self.point[1]) * f32x8::splat(point_scale.y),
            row(self.point[2]) * f32x8::splat(point_scale.z),
        ];
        let mid = [
            row(self.mid[0]) * unit,
            row(self.mid[1]) * unit,
            row(self.mid[2]) * unit,
        ];
        let (cos_half, sin_half) = (row(self.cos_half) * unit, row(self.sin_half) * unit);
        // Padding lanes (−2) never reach; an edge whose value is NaN does.
        let mut reach = cos_half.simd_ge(f32x8::splat(-1.5)).to_bitmask();
        let lowered = point_slack(point_scale);
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
            let value = largest + length * f32x8::splat(REACH_SLACK);
            let bound = f32x8::splat(target.bound - lowered);
            reach &= (!value.simd_lt(bound)).to_bitmask();
            if reach == 0 {
                break;
            }
        }
        reach
    }

    /// The scalar twin of [`Self::may_reach`] for lane `lane` and one target: may the
    /// lane's edge, whose true arc and first vertex the block rounds, hold a direction
    /// `n` with `n·(target.point − p) ≥ target.bound`? Conservative: when the exact
    /// test ([`arc_may_reach`]) says yes, so does this one (see the
    /// [module docs](self)). A value that is not a number answers yes.
    #[inline]
    pub fn lane_may_reach(&self, lane: usize, point_scale: Vec3, target: &ReachTarget) -> bool {
        let unit = |v: i16| v as f32 * DIRECTION_UNIT;
        let cos_half = unit(self.cos_half[lane]);
        if cos_half < -1.5 {
            return false;
        }
        let sin_half = unit(self.sin_half[lane]);
        let mid = Vec3::new(
            unit(self.mid[0][lane]),
            unit(self.mid[1][lane]),
            unit(self.mid[2][lane]),
        );
        let point = Vec3::new(
            self.point[0][lane] as f32 * point_scale.x,
            self.point[1][lane] as f32 * point_scale.y,
            self.point[2][lane] as f32 * point_scale.z,
        );
        let w = target.point - point;
        let along = mid.x * w.x + mid.y * w.y + mid.z * w.z;
        let squared = w.x * w.x + w.y * w.y + w.z * w.z;
        let length = squared.sqrt();
        let largest = if along >= length * cos_half {
            length
        } else {
            let across = (squared - along * along).max(0.0).sqrt();
            along * cos_half + across * sin_half
        };
        let value = largest + length * REACH_SLACK;
        let bound = target.bound - point_slack(point_scale);
        // Not below: a NaN on either side reaches (as the lanes' not-less-than compare).
        value.partial_cmp(&bound) != Some(std::cmp::Ordering::Less)
    }
}

/// How far a rounded point may lie from the true one, `√3/2` units, rounded up: the
/// reach test lowers every bound by it.
#[inline]
pub fn point_slack(point_scale: Vec3) -> f32 {
    0.87 * point_scale.abs().max_element()
}

/// The unit of a hull's block points: the smallest power of two (a normal `f32`) in
/// which every vertex coordinate fits an `i16`.
pub fn point_unit(vertices: &[Vec3]) -> f32 {
    let largest = vertices
        .iter()
        .map(|v| v.abs().max_element() as f64)
        .fold(0.0f64, f64::max);
    let mut exponent = (largest / 32767.0).log2().ceil().clamp(-126.0, 127.0) as i32;
    while exponent < 127 && largest / 2f64.powi(exponent) > 32767.0 {
        exponent += 1;
    }
    2f64.powi(exponent) as f32
}

/// The reach test on an exact cap, the oracle of the blocks' rounded one: may `arc`, of
/// an edge from `point`, hold a direction `n` with `n·(target.point − point) ≥
/// target.bound`?
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

/// The arc blocks of a hull's edges (empty for no edges), their points in units of
/// `point_unit` (the hull's [`point_unit`]).
pub(crate) fn edge_blocks(
    vertices: &[Vec3],
    edges: &[HullEdge],
    arcs: &[GaussArc],
    point_unit: f32,
) -> Vec<EdgeBlock> {
    let fixed = |v: f64| (v.round() as i32).clamp(-32767, 32767) as i16;
    let direction = |v: f64| fixed(v / DIRECTION_UNIT as f64);
    edges
        .chunks(BLOCK)
        .zip(arcs.chunks(BLOCK))
        .map(|(edges, arcs)| {
            let mut block = EdgeBlock {
                mid: [[0; BLOCK]; 3],
                cos_half: [PADDING; BLOCK],
                sin_half: [0; BLOCK],
                point: [[0; BLOCK]; 3],
            };
            for (l, (edge, arc)) in edges.iter().zip(arcs).enumerate() {
                let point = vertices[edge.vertices[0] as usize];
                let half = (arc.sin_half as f64).atan2(arc.cos_half as f64);
                let widened = (half + CAP_WIDENING).min(std::f64::consts::PI);
                for k in 0..3 {
                    block.mid[k][l] = direction(arc.mid[k] as f64);
                    block.point[k][l] = fixed(point[k] as f64 / point_unit as f64);
                }
                block.cos_half[l] = direction(widened.cos());
                block.sin_half[l] = direction(widened.sin());
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
            let direction = vertices[e.vertices[1] as usize] - point;
            let (scaled, length) = scaled_direction(direction);
            EdgeRecord {
                n0: planes[e.faces[0] as usize].normal,
                n1: planes[e.faces[1] as usize].normal,
                point,
                direction,
                cross: -scaled,
                length,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::ConvexHull;
    use crate::rng::Rng;

    /// Every lane's reach bit equals its scalar twin, over random hulls, scales,
    /// targets and bounds, padding lanes never reach, and the rounded test keeps every
    /// edge the exact one keeps.
    #[test]
    fn lanes_reach_as_the_scalar_test() {
        let mut rng = Rng::new(0xa5c5);
        let (mut reached, mut missed, mut extra) = (0, 0, 0);
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
            let point_scale = scale * hull.edge_point_unit();
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
                let near = targets.iter().all(|t| t.point.abs().max_element() < 1e20);
                for (k, block) in hull.edge_blocks().iter().enumerate() {
                    let mask = block.may_reach(point_scale, &targets);
                    for l in 0..BLOCK {
                        let e = k * BLOCK + l;
                        let twin = targets
                            .iter()
                            .all(|t| block.lane_may_reach(l, point_scale, t));
                        assert_eq!(mask >> l & 1 == 1, twin);
                        let Some(arc) = hull.gauss_arcs().get(e) else {
                            assert!(!twin, "a padding lane reached");
                            continue;
                        };
                        let point = hull.edge_records()[e].point * scale;
                        let exact = targets.iter().all(|t| arc_may_reach(arc, point, t));
                        assert!(twin || !exact, "the rounded test dropped edge {e}");
                        reached += twin as usize;
                        missed += !twin as usize;
                        // (Far out, `|w|` overflows and the slack makes every lane reach.)
                        extra += (near && twin && !exact) as usize;
                    }
                }
            }
        }
        assert!(reached > 10_000 && missed > 10_000, "{reached} {missed}");
        // The rounding keeps the test sharp: it lets few more edges through.
        assert!(extra * 50 < reached, "{extra} of {reached}");
    }

    /// The rounded test is conservative at its sharpest: with the bound at the best
    /// value sampled on the true arc from the true vertex, every edge reaches, on hulls
    /// of every size (a point unit from 2⁻²⁰ to 2⁴⁰) and on scaled unit cubes.
    #[test]
    fn rounded_caps_reach_the_best_sampled_direction() {
        let mut rng = Rng::new(0x9c0d);
        let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
        let mut checked = 0;
        for trial in 0..200 {
            let size = 2f32.powi(-5 + (trial % 12) * 5);
            let n = 4 + (rng.next_u64() % 40) as usize;
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.vec3(Vec3::splat(0.05), Vec3::ONE) * size)
                .collect();
            let built = ConvexHull::try_from_points(&points).unwrap();
            let (hull, scale) = if trial % 5 == 0 {
                (&cube, rng.vec3(Vec3::splat(0.01), Vec3::splat(3.0)) * size)
            } else {
                (&built, Vec3::ONE)
            };
            let point_scale = scale * hull.edge_point_unit();
            for _ in 0..5 {
                let q = rng.vec3(Vec3::splat(-3.0), Vec3::splat(3.0)) * size;
                for (e, edge) in hull.edges().iter().enumerate() {
                    let [n0, n1] = edge.faces.map(|f| hull.planes()[f as usize].normal);
                    let p = hull.vertices()[edge.vertices[0] as usize] * scale;
                    // Normals of a scaled cube's faces are the cube's (axis-aligned).
                    let best = (0..=64)
                        .map(|i| n0.slerp(n1, i as f32 / 64.0).dot(q - p))
                        .fold(f32::NEG_INFINITY, f32::max);
                    let target = ReachTarget {
                        point: q,
                        bound: best,
                    };
                    let block = &hull.edge_blocks()[e / BLOCK];
                    assert!(
                        block.lane_may_reach(e % BLOCK, point_scale, &target),
                        "trial {trial}, edge {e}: {best}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Point units are powers of two in which the coordinates fit; a unit cube's are
    /// 2⁻¹⁴, so its corners (and a box's, scaled) are exact.
    #[test]
    fn point_units_fit_the_coordinates() {
        let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
        assert_eq!(cube.edge_point_unit(), DIRECTION_UNIT);
        for block in cube.edge_blocks() {
            for row in block.point {
                assert!(row.iter().all(|&v| v == 0 || v.abs() == 16384));
            }
        }
        for largest in [1e-30f32, 3e-3, 0.7, 1.0, 32767.0, 32768.0, 1e20] {
            let unit = point_unit(&[Vec3::new(-largest, 0.5 * largest, 0.0)]);
            assert_eq!(unit.log2().fract(), 0.0, "{unit}");
            assert!(largest / unit <= 32767.0, "{largest} {unit}");
            assert!(largest / unit > 16383.0, "{largest} {unit}");
        }
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
