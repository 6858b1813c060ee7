//! The edge query of the hull–hull test: edge pairs whose Gauss-map arcs cross (a
//! Minkowski face of `a − b`, seed 003), pruned to the cone of directions where the
//! inner-sphere bound can come within the slop of the best face, each pair's axis
//! `±(e_a × e_b)` oriented into a's arc and checked against the true separation.

use super::arc_reach::{ReachMasks, for_each_reaching, reach_masks};
use super::edge_lanes::EdgeLanesOfB;
use super::{Query, Separating, Support};
use crate::Feature;
use crate::math::unit_cross_f64;
use crate::polytope::Polytope;
use crate::sat::{Axis, EXACT_CROSS, length_and_direction};
use crate::scratch::{give_back, pools, reserve};
use glam::Vec3;
use sepax_geometry::hull::blocks::BLOCK;
use sepax_geometry::hull::edge_blocks::{ReachTarget, scaled_direction};
use smallvec::SmallVec;

/// Below this `|n · (n0 + n1)|` an edge's arc is too close to a half circle to orient
/// an edge axis by (see `Query::edge_axis`).
const KNIFE_EDGE: f32 = 1e-3;

/// An edge pair whose edge-to-edge value exceeds the true separation along its axis by
/// more than this fraction of the pair's extent does not support the axis: it gives the
/// depth but no manifold (see the edge query).
const SUPPORT_SLACK: f32 = 1e-3;

/// How many of the best edge-pair values the edge query keeps for the support check
/// (the faces and the true values still give the depth if every one fails).
const CONTENDERS: usize = 16;

/// Gregorius' Minkowski-face test, the scalar twin of
/// [`EdgeLanesOfB::crossing`]: do arc `a→b` (of shape a) and arc `c→d` (of −b, i.e.
/// b's normals negated) cross on the unit sphere? `bxa = b × a`, `dxc = d × c`. (The
/// warm path asks it of one cached pair.)
pub(super) fn arcs_cross(a: Vec3, b: Vec3, bxa: Vec3, c: Vec3, d: Vec3, dxc: Vec3) -> bool {
    let cba = c.dot(bxa);
    let dba = d.dot(bxa);
    if cba * dba >= 0.0 {
        return false;
    }
    let adc = a.dot(dxc);
    let bdc = b.dot(dxc);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

/// One edge, ready for pairing, in a's frame.
pub(super) struct EdgeData {
    pub index: u32,
    /// Face normals at both ends of its Gauss arc (for b: negated).
    pub n0: Vec3,
    pub n1: Vec3,
    /// The normal of the arc's plane, along `n1 × n0`: `−d / max|d_k|` (see
    /// [`scaled_direction`]).
    pub cross: Vec3,
    pub point: Vec3,
    pub direction: Vec3,
    /// `|direction|`, on the scaled vector (see `length_and_direction`).
    pub length: f32,
}

impl EdgeData {
    /// Edge `index` from `point` along `direction`, between the faces of normals `n0`
    /// and `n1` (a's frame).
    #[inline(always)]
    fn new(index: usize, n0: Vec3, n1: Vec3, point: Vec3, direction: Vec3) -> EdgeData {
        let (scaled, length) = scaled_direction(direction);
        EdgeData {
            index: index as u32,
            n0,
            n1,
            cross: -scaled,
            point,
            direction,
            length,
        }
    }
}

/// A direction along the middle of an edge's Gauss arc (not unit): `n0 + n1` for an
/// acute edge, and for an obtuse one `(n0 − n1) × cross`, which is `d × (n0 − n1)` up
/// to a positive factor and points the same way (see [`scaled_direction`]) but stays
/// long on a knife edge, where `n0 + n1` is short and mostly round-off.
#[inline]
fn arc_middle(e: &EdgeData) -> Vec3 {
    if e.n0.dot(e.n1) >= 0.0 {
        e.n0 + e.n1
    } else {
        (e.n0 - e.n1).cross(e.cross)
    }
}

// `scaled_direction(d)` (the geometry crate's, which a hull's edge records hold
// already for its own frame) is `(d / max|d_k|, |d|)`. Its first part, negated, is the
// edge's `EdgeData::cross`: the normal of its Gauss-arc plane on the side of `n1 × n0`.
// Both face normals are perpendicular to the edge, and with the faces' winding
// (`faces[0]` runs `vertices[0] → vertices[1]`) `n1 × n0 = −sin θ · d/|d|`. The
// Minkowski-face test reads only the signs of dot products with it, so its length does
// not matter, and scaled so it neither underflows nor overflows. Taken from `n1 × n0`
// itself it would be mostly round-off on a knife edge (`θ` near π) and on a fold (`θ`
// near 0), where `sin θ` is tiny: the test then paired edges at random, and a slab
// 2e-4 thick was reported 0.0017 deep against a sliver 0.0128 away.

/// What the edge query found when no edge pair separates.
pub(super) struct EdgeAxes {
    /// The best edge pair whose edges support its axis (it may carry a manifold).
    pub best: Option<Axis>,
    /// The best edge axis of any pair by its true separation (it may set the depth).
    pub any: Option<Axis>,
    /// The cached edge pair, measured, when it still forms a Minkowski face and its
    /// edges support its axis (the preference may keep it).
    pub kept: Option<Axis>,
}

impl Query<'_> {
    pub(super) fn edge_a(&self, i: usize) -> EdgeData {
        let e = self.a.edges[i];
        let (n0, n1) = (
            self.a.planes[e.faces[0] as usize].normal,
            self.a.planes[e.faces[1] as usize].normal,
        );
        let p = self.a.vertices[e.vertices[0] as usize];
        let direction = (self.a.vertices[e.vertices[1] as usize] - p) * self.direction_scale;
        EdgeData::new(i, n0, n1, p, direction)
    }

    pub(super) fn edge_b(&self, j: usize) -> EdgeData {
        let e = self.b.edges[j];
        let rot = self.frame.rot;
        let (n0, n1) = (
            -(rot * self.b.planes[e.faces[0] as usize].normal),
            -(rot * self.b.planes[e.faces[1] as usize].normal),
        );
        let p = self
            .frame
            .point_to_a(self.b.vertices[e.vertices[0] as usize]);
        let direction = rot
            * ((self.b.vertices[e.vertices[1] as usize] - self.b.vertices[e.vertices[0] as usize])
                * self.direction_scale);
        EdgeData::new(j, n0, n1, p, direction)
    }

    /// The axis of an edge pair, oriented into a's Gauss arc of the edge; `None` when
    /// the edges are parallel.
    ///
    /// Within `EXACT_CROSS` of parallel the f32 cross product of the two edge
    /// directions loses precision (b's direction is rounded once more by the rotation
    /// into a's frame: a direction error of ε becomes ε / sin φ in the axis, and the
    /// depth along it is off by that times the size; within `PARALLEL_EDGES` it is
    /// mostly round-off). There the axis is taken in f64
    /// ([`Query::parallel_edge_normal`]) instead of being skipped: long thin shapes
    /// lying nearly parallel touch along such an axis, and the face axes alone made
    /// them several times too deep.
    ///
    /// The edge pair passed the Minkowski-face test, so the axis direction lies on a's
    /// arc `n0 → n1` (shorter than a half circle), where `n` points along the arc's
    /// middle ([`arc_middle`]). Only near an end of an arc close to a half circle (a
    /// knife edge) is that product too small to trust; there the edge is far from a's
    /// centroid along the arc's middle and the sign of `n · (p_a − c_a)` decides. (Orienting by the centroid alone fails on thin shapes:
    /// on a 0.002 × 0.002 × 2 needle an end edge lies 0.0014 off the long axis, and an
    /// axis tilted by 0.0016 towards that axis flipped, turning a 0.6 deep contact into
    /// a 2.5 gap.)
    ///
    /// Always inlined: as a call, the edge query's loop read the returned axis back
    /// whole from the stores that wrote it field by field (a failed store forward, seen
    /// in `perf annotate` of `prof hull`).
    #[inline(always)]
    pub(super) fn edge_axis(&self, ea: &EdgeData, eb: &EdgeData) -> Option<Axis> {
        // Lengths on scaled vectors: the squares of a 1e16-long box edge's cross
        // products overflow f32 (and gave a zero normal).
        let cross = ea.direction.cross(eb.direction);
        let mut n = match length_and_direction(cross) {
            Some((length_axis, n)) if length_axis > EXACT_CROSS * ea.length * eb.length => n,
            _ => self.parallel_edge_normal(ea.index, eb.index)?,
        };
        let toward_arc = n.dot(arc_middle(ea));
        let flip = if toward_arc.abs() > KNIFE_EDGE {
            toward_arc < 0.0
        } else {
            n.dot(ea.point - self.a.centroid) < 0.0
        };
        if flip {
            n = -n;
        }
        Some(Axis {
            separation: n.dot(eb.point - ea.point),
            normal: n,
            feature: Feature::EdgeEdge(ea.index, eb.index),
        })
    }

    /// The unit axis `e_a × e_b` of edges `i` of a and `j` of b, in a's frame, computed
    /// in f64 from the hulls' vertices and the frame's rotation: a product of two f32
    /// values is exact in f64, so the direction is exact for the frame to about 1e-16
    /// of the edges' lengths, whatever the angle between them. `None` when the edges
    /// are parallel to that precision (the face axes cover that configuration).
    #[cold]
    pub(super) fn parallel_edge_normal(&self, i: u32, j: u32) -> Option<Vec3> {
        let direction = |p: &Polytope, e: u32| {
            let [v0, v1] = p.edges[e as usize].vertices;
            p.vertices[v1 as usize].as_dvec3() - p.vertices[v0 as usize].as_dvec3()
        };
        let on_b = self.frame.rot.as_dmat3() * direction(self.b, j);
        unit_cross_f64(direction(self.a, i), on_b)
    }

    /// The true separation of an edge axis, and whether the pair's edges support it:
    /// its edge-to-edge value is the true one within `SUPPORT_SLACK · scale`. A pair
    /// that supports its axis is done; otherwise both senses of the axis are measured
    /// (both are valid SAT directions, and an axis mis-oriented on a knife edge may
    /// separate the other way) and the larger counts.
    pub(super) fn verify(
        &self,
        axis: &Axis,
        scale: f32,
        sa: &mut Support,
        sb: &mut Support,
    ) -> (Axis, bool) {
        let n = axis.normal;
        let slack = SUPPORT_SLACK * scale;
        let forward = self.separation_along(n, sa, sb);
        if axis.separation - forward <= slack {
            let true_axis = Axis {
                separation: forward,
                ..*axis
            };
            return (true_axis, true);
        }
        let backward = self.separation_along(-n, sa, sb);
        let (normal, separation, deviation) = if forward >= backward {
            (n, forward, axis.separation - forward)
        } else {
            (-n, backward, -axis.separation - backward)
        };
        let true_axis = Axis {
            separation,
            normal,
            ..*axis
        };
        (true_axis, deviation <= slack)
    }

    /// The edge query, given the best face separation of either shape and a vertex of
    /// each shape (`witness_a`: a vertex of a in b's frame; `witness_b`: of b in a's).
    ///
    /// **Pruning.** Only an edge pair whose true separation can come within the slop of
    /// the best face matters: one further below can change neither the exact axis nor
    /// the preferred one (a kept edge must be within the slop of the exact axis, a cold
    /// edge better than every face). For a direction `n` (a→b) on the Gauss arc of an
    /// edge of a through `p`, `p` is a's support point, so the separation along `n` is at
    /// most `n·(x − p)` for any point `x` of b: its inner ball gives `n·(c_b − p) − r_b`,
    /// a vertex `w` of b gives `n·(w − p)`. An edge of a is paired only when its arc
    /// may reach both bounds up to `T = best − slop` (less a round-off slack), 8 arcs
    /// at a time ([`reach_masks`]). The same holds for b's edges with
    /// b's outward normals `m = −Rᵀn`: `m·(c_a − p) − r_a` and `m·(v − p)` for a vertex
    /// `v` of a, in b's frame. These per-edge bounds are below the inner-sphere bound
    /// `n·(c_b − c_a) − r_a − r_b` everywhere on the arc (`n·p ≥ n·c_a + r_a` as `p`
    /// supports `n`), and the witness, a vertex under the best face, closes in on the
    /// contact: on touching 24-point hulls about half as many edges reach.
    ///
    /// The edge-to-edge value `n·(p_b − p_a)` bounds the true separation along `n` from
    /// above (p_a, p_b lie in the shapes) and equals it when the edges support the
    /// axis. On nearly coplanar faces of a thin hull a pair can pass the Minkowski test
    /// without supporting its axis, and then the value means nothing. So every value
    /// that would end the test is checked against the true separation
    /// ([`Query::verify`]), and so is the winner: the `CONTENDERS` best values (ties in
    /// scan order) are verified best first until the next raw value is no better than
    /// the best true value of a pair that supports its axis (a raw value bounds its true
    /// one, so no later pair can win). "Supports" allows `SUPPORT_SLACK` of the pair's
    /// size between the two, which on a large hull with a short edge let a pair whose
    /// true value was 0.0125 below its raw one stop the search before a pair better by
    /// 0.008 (`fuzz/artifacts-found/narrow_phase/short-hull-edge-contender-depth`).
    /// One that fails gives its true value to the exact axis only (a valid SAT
    /// direction all the same).
    /// A true value past the margin ends the test whatever the raw one said (round-off
    /// on shapes that touch exactly), as it does when the warm test measures that pair
    /// first: cold and warm give the same verdict.
    ///
    /// b's edges are paired with each edge of a 8 at a time ([`EdgeLanesOfB`]); pairs
    /// are visited in the order of a's edges, then b's, as a scalar double loop would.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn edge_query(
        &self,
        best_face: f32,
        slop: f32,
        margin: f32,
        cached: Option<Feature>,
        support_a: &mut Support,
        support_b: &mut Support,
        witness_a: Option<Vec3>,
        witness_b: Option<Vec3>,
    ) -> Result<EdgeAxes, Separating> {
        let mut found = EdgeAxes {
            best: None,
            any: None,
            kept: None,
        };
        // No direction's inner-sphere bound reaches the threshold: no edge can.
        let threshold = best_face - slop + self.inner_radii;
        let distance = self.centroid_offset.length();
        if !(distance >= threshold || threshold <= 0.0) {
            return Ok(found);
        }
        let bound = best_face - slop - self.witness_slack;
        let targets = |centroid: Vec3, inradius: f32, witness: Option<Vec3>| {
            let ball = ReachTarget {
                point: centroid,
                bound: bound + inradius,
            };
            let vertex = witness.map_or(ball, |w| ReachTarget { point: w, bound });
            [ball, vertex]
        };
        let targets_a = targets(
            self.frame.point_to_a(self.b.centroid),
            self.b.inradius,
            witness_b,
        );
        let targets_b = targets(
            self.frame.point_to_b(self.a.centroid),
            self.a.inradius,
            witness_a,
        );
        // Filled in place: returning a 2 KB inline vector by value would copy it. Each
        // list is inline within its bound (the reaching edges counted from the masks),
        // else on the thread's pooled buffer, given back below (no allocation per pair:
        // `crate::scratch`).
        let mut edges_a: SmallVec<[EdgeData; 32]> = SmallVec::new();
        let mut masks = ReachMasks::new();
        let mut edges_b = EdgeLanesOfB::new();
        let mut crossings: SmallVec<[u8; 256]> = SmallVec::new();
        let mut pairs: SmallVec<[RankedPair; 32]> = SmallVec::new();
        let reaching = |masks: &[u8]| masks.iter().map(|m| m.count_ones() as usize).sum();
        let result = 'query: {
            let blocks = self.a.edge_blocks.len().max(self.b.edge_blocks.len());
            reserve(&mut masks, &REACH_MASKS, blocks);
            reach_masks(
                self.a.edge_blocks,
                self.a.edge_scale * self.a.point_unit,
                &targets_a,
                &mut masks,
            );
            reserve(&mut edges_a, &EDGES_A, reaching(&masks));
            for_each_reaching(&masks, |i| edges_a.push(self.edge_a_record(i)));
            if edges_a.is_empty() {
                break 'query Ok(found);
            }
            reach_masks(
                self.b.edge_blocks,
                self.b.edge_scale * self.b.point_unit,
                &targets_b,
                &mut masks,
            );
            edges_b.reserve(reaching(&masks));
            for_each_reaching(&masks, |j| {
                edges_b.push(
                    &self.b.edge_records[j],
                    j,
                    self.b.edge_scale,
                    self.direction_scale,
                )
            });
            edges_b.move_to_a(self.frame);
            // One mask per (edge of a, block of b): inline up to 256 (64-point hulls use ~60).
            reserve(&mut crossings, &CROSSINGS, edges_a.len() * edges_b.blocks());
            edges_b.crossing_masks(&edges_a, &mut crossings);
            // At most one pair per crossing bit (counted only when the lanes could hold more
            // than the inline room).
            let most = match edges_a.len() * edges_b.len() {
                lanes if lanes <= 32 => lanes,
                _ => crossings.iter().map(|m| m.count_ones() as usize).sum(),
            };
            reserve(&mut pairs, &RANKED_PAIRS, most);
            let mut cached_raw: Option<(Axis, f32)> = None;
            // Edge `i`'s masks are the `i`-th run of `blocks` (the slice and the count
            // taken once: through the small vectors, every read checked where their
            // items live).
            let blocks = edges_b.blocks();
            let masks_of_a = crossings.chunks_exact(blocks.max(1));
            for (i, (ea, masks)) in edges_a.iter().zip(masks_of_a).enumerate() {
                for (k, &mask) in masks.iter().enumerate() {
                    let mut crossing = mask as u32;
                    while crossing != 0 {
                        let l = crossing.trailing_zeros() as usize;
                        crossing &= crossing - 1;
                        let eb = edges_b.edge(k, l);
                        let Some(axis) = self.edge_axis(ea, &eb) else {
                            continue;
                        };
                        if axis.separation > margin {
                            let scale = self.pair_scale(ea, &eb);
                            let (true_axis, _) = self.verify(&axis, scale, support_a, support_b);
                            if true_axis.separation > margin {
                                break 'query Err(Separating(true_axis));
                            }
                            // The gap was an artefact: the pair counts by its true value.
                            found.any = better_of(found.any, true_axis);
                            continue;
                        }
                        if cached == Some(axis.feature) {
                            cached_raw = Some((axis, self.pair_scale(ea, &eb)));
                        }
                        pairs.push(RankedPair {
                            axis,
                            a: i as u32,
                            b: (k * BLOCK + l) as u32,
                        });
                    }
                }
            }
            if let Some((axis, scale)) = cached_raw {
                let (true_axis, supports) = self.verify(&axis, scale, support_a, support_b);
                if supports {
                    found.kept = Some(true_axis);
                }
            }
            // The contenders, best first (the earliest among equal values), up to CONTENDERS.
            for _ in 0..CONTENDERS.min(pairs.len()) {
                let mut top = usize::MAX;
                for (n, pair) in pairs.iter().enumerate() {
                    if !pair.axis.separation.is_nan()
                        && (top == usize::MAX || pair.axis.separation > pairs[top].axis.separation)
                    {
                        top = n;
                    }
                }
                if top == usize::MAX {
                    break;
                }
                // A raw value bounds its true one from above: once the best supported true
                // value reaches the next raw one, no later pair can beat it.
                if found
                    .best
                    .is_some_and(|best| pairs[top].axis.separation <= best.separation)
                {
                    break;
                }
                let pair = &mut pairs[top];
                let (k, l) = (pair.b as usize / BLOCK, pair.b as usize % BLOCK);
                let scale = self.pair_scale(&edges_a[pair.a as usize], &edges_b.edge(k, l));
                let (true_axis, supports) = self.verify(&pair.axis, scale, support_a, support_b);
                // The raw value bounds the true one from above, but round-off can put the
                // measured true value past the margin when the raw one is not (shapes that
                // touch exactly): the measured axis separates, as it does when the warm test
                // measures this pair first from the cache, so the verdict is the same cold
                // and warm.
                if true_axis.separation > margin {
                    break 'query Err(Separating(true_axis));
                }
                pair.axis.separation = f32::NAN;
                found.any = better_of(found.any, true_axis);
                if supports {
                    found.best = better_of(found.best, true_axis);
                }
            }
            Ok(found)
        };
        give_back(&mut edges_a, &EDGES_A);
        give_back(&mut masks, &REACH_MASKS);
        edges_b.give_back();
        give_back(&mut crossings, &CROSSINGS);
        give_back(&mut pairs, &RANKED_PAIRS);
        result
    }

    /// Edge `index` of a from its record (a's frame is its own). A hull's record
    /// (no scale: `edge_scale` one, `direction_scale` one) holds the arc plane's
    /// normal and the length already, `scaled_direction` of the very direction
    /// `EdgeData::new` would scale (multiplying by one is exact): the same bits without
    /// the three divisions and the square root per reaching edge (tested against
    /// `EdgeData::new`). Measured with callgrind, `prof hull 24` (`N=10`, inside
    /// `collide`): 37.21 → 36.64 million instructions (64 points: 51.16 → 50.49).
    #[inline(always)]
    pub(super) fn edge_a_record(&self, index: usize) -> EdgeData {
        let (record, scale) = (&self.a.edge_records[index], self.a.edge_scale);
        if scale == Vec3::ONE && self.direction_scale == 1.0 {
            return EdgeData {
                index: index as u32,
                n0: record.n0,
                n1: record.n1,
                cross: record.cross,
                point: record.point,
                direction: record.direction,
                length: record.length,
            };
        }
        EdgeData::new(
            index,
            record.n0,
            record.n1,
            record.point * scale,
            record.direction * (scale * self.direction_scale),
        )
    }

    /// An edge pair's extent, for the support check.
    #[inline]
    pub(super) fn pair_scale(&self, ea: &EdgeData, eb: &EdgeData) -> f32 {
        length(self.frame.trans) + length(ea.point) + length(eb.point - self.frame.trans)
    }
}

pools! {
    EDGES_A: EdgeData,
    REACH_MASKS: u8,
    CROSSINGS: u8,
    RANKED_PAIRS: RankedPair,
}

/// An edge pair that forms a Minkowski face, by its raw value: `a` indexes the query's
/// edges of a, `b` b's gathered lanes.
struct RankedPair {
    axis: Axis,
    a: u32,
    b: u32,
}

/// `|v|` on the scaled vector (0 for a zero or non-finite one).
fn scaled_length(v: Vec3) -> f32 {
    length_and_direction(v).map_or(0.0, |(l, _)| l)
}

/// `|v|`, on the scaled vector only when `|v|²` overflows (coordinates near 2⁶⁴): the
/// plain length's bits everywhere else, at its cost. Sizes the round-off slacks.
#[inline]
pub(super) fn length(v: Vec3) -> f32 {
    let plain = v.length();
    if plain.is_finite() {
        plain
    } else {
        scaled_length(v)
    }
}

/// The candidate with the larger separation (the earlier on a tie).
fn better_of(best: Option<Axis>, candidate: Axis) -> Option<Axis> {
    match best {
        Some(b) if b.separation >= candidate.separation => Some(b),
        _ => Some(candidate),
    }
}
