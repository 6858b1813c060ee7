//! Convex hull–hull separating-axis test after Gregorius, "The Separating Axis Test
//! between Convex Polyhedra" (GDC 2013), with exact bound-based pruning.
//!
//! Candidate axes (all unit, a→b, in a's frame):
//! * **face query of a**: each face normal `n_i` of a, `s_i = n_i·t − d_i − h_b(−n_i)`
//!   where `h_b` is b's support distance and `d_i` the plane offset;
//! * **face query of b**: each face normal `m_j` of b gives the axis `n = −R m_j` and
//!   `s_j = n·t − e_j − h_a(n)`;
//! * **edge query**: `n = ±(e_a × e_b)` for the edge pairs whose Gauss-map arcs cross
//!   (a Minkowski face of `a − b`; seed 003): `s = n·(p_b − p_a)`, `n` oriented into
//!   a's arc of the edge; the values that decide (a gap, the winner) are checked
//!   against the true separation from both support functions.
//!
//! **Pruning** (exact, so it never changes the answer). With `c_a`, `c_b` the centroids
//! and `r_a`, `r_b` the inner radii about them, every direction obeys
//! `s(n) ≤ n·(c_b − c_a) − r_a − r_b` (the two inner balls lie inside the shapes).
//! A face whose bound cannot beat the best face of its kind is skipped before its
//! support is computed. An edge is paired only when some direction of its Gauss arc
//! can come within the slop of the best face by two bounds taken from the edge's own
//! point `p` (the shape's support point along every direction of the arc): the other
//! shape's inner ball, `n·(c_b − p) − r_b`, and the other shape's vertex under the best
//! face, `n·(w − p)` ([`edges`]). On touching pairs this removes most of the `E_a × E_b`
//! edge pairs: on the bench's 24-point pairs 7 of ~58 edges a hull reach, against 15
//! with one cone about the centroids (before 28 November 2026).
//!
//! **Lanes.** The edge query runs 8 edges at a time (`wide::f32x8`, stable Rust): the
//! arc reach test over each hull's edge blocks ([`arc_reach`], one AVX2 register a
//! block when the CPU has it), b's reaching edges gathered from their records and
//! moved into a's frame, and each edge of a tested against 8 of b ([`edge_lanes`]);
//! support scans read 8 vertices at a time. Every lane computes the
//! scalar formula with the same operations in the same order (no fused multiply-add),
//! so the answers are the scalar ones bit for bit whatever the SIMD level (the lane
//! unit tests and `tests/hull_fingerprint.rs` guard it). The Minkowski-face masks of
//! all pairs are one AVX2 function when the CPU has it (run-time detection, as for the
//! batched box pairs), the `wide` lanes otherwise. Callgrind, 24-point touching pairs
//! (`prof hull 24`, whole run): 32,202 instructions per pair with the scalar edge
//! query, 22,004 with the lanes, 20,600 with the AVX2 masks, 17,285 with the per-edge
//! reach bounds and 15,471 with their AVX2 masks, 15,513 with the NaN rule of the reach
//! test (parry3d `contact_manifolds`: 25,380), 15,958 with the arc blocks in 16-bit
//! fixed point (the conversion costs ~450 instructions a pair, but the blocks take half
//! the cache lines, and the hulls-2000 scene is bound by memory: by cachegrind with a
//! 512 KB L2, `stress --scene hulls --bodies 2000 --threads 1`, frames 13–24, its data
//! reads missing L2 went from 187k to 162k a frame, 205k before the hull header was
//! laid out for the pair). Tried and not kept (28 November 2026): face bounds 8 faces
//! at a time (again:
//! 15,471 → 16,289 instructions; the scalar inner-sphere test skips most faces after
//! one dot product); the seed face from the normal blocks (−580 instructions a pair,
//! but in the hulls-2000 scene 6 % more data reads missing a 512 KB L2, by cachegrind:
//! that scene is bound by memory, and a second copy of the normals costs more there
//! than the scalar argmax over the planes the walk reads anyway); a cone and a ball
//! per block of 8 edges to skip whole blocks (74–90 % of blocks passed, even with edges
//! grouped by direction).
//!
//! The face queries ([`faces`]) also skip faces by **witnesses**: vertices of the other
//! shape, which bound every face's separation from above; the pair cache's support
//! vertices from last frame are the first witnesses of a warm query. The edge query
//! lives in [`edges`].
//!
//! **The warm path** ([`warm`]): last query's reference feature, measured first, is
//! kept without the rest of the test when a point lies deep enough inside the shapes
//! to bound every other axis within the slop of it.
//!
//! **Support evaluation.** [`SupportMode::Scan`] reads every vertex; [`SupportMode::Walk`]
//! (seed 003's Gauss-map walk) evaluates the support once and then follows the vertex
//! adjacency from the previous face's support vertex (the first from last query's,
//! kept in the pair cache), which on a convex polytope ends at the same maximum. Both give the same answers (tested on every randomized hull
//! pair); the scan is the default, see
//! [`DEFAULT_SUPPORT_MODE`](crate::DEFAULT_SUPPORT_MODE) for the measurements.

mod arc_reach;
mod edge_lanes;
mod edges;
mod faces;
mod warm;

pub(crate) use warm::{depth_below_planes, remeasure};

use super::{Axis, FEATURE_SLOP, Frame, SatOutcome, fold_candidates};
use crate::Feature;
use crate::cache::SupportHints;
use crate::polytope::Polytope;
use glam::Vec3;

/// How support distances are evaluated during the face queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportMode {
    /// Scan every vertex for every face.
    Scan,
    /// Hill-climb along the vertex adjacency from the previous support vertex.
    Walk,
}

/// A support oracle that remembers the vertex it last returned (where the walk starts
/// next, and a witness for the face queries).
pub(super) struct Support<'p> {
    poly: &'p Polytope<'p>,
    mode: SupportMode,
    last: usize,
}

impl Support<'_> {
    #[inline]
    fn distance(&mut self, dir: Vec3) -> f32 {
        let (index, d) = match self.mode {
            SupportMode::Scan => self.poly.support(dir),
            SupportMode::Walk => self.poly.climb_support(dir, self.last),
        };
        self.last = index;
        d
    }
}

/// A separating axis beyond the margin: the test is over.
pub(super) struct Separating(Axis);

pub(super) struct Query<'p> {
    a: &'p Polytope<'p>,
    b: &'p Polytope<'p>,
    frame: &'p Frame,
    /// `c_b − c_a` in a's frame.
    centroid_offset: Vec3,
    inner_radii: f32,
    /// How far a witness bound must clear the best separation (see [`faces`]).
    witness_slack: f32,
    /// What edge directions are multiplied by: 1, or 2⁻⁶⁴ for shapes so large that the
    /// cross product of two edges could overflow `f32`. A power of two scales exactly,
    /// so the axes and the parallel test see the same values, only smaller.
    direction_scale: f32,
}

impl<'p> Query<'p> {
    fn new(a: &'p Polytope<'p>, b: &'p Polytope<'p>, frame: &'p Frame) -> Query<'p> {
        Query {
            a,
            b,
            frame,
            centroid_offset: frame.point_to_a(b.centroid) - a.centroid,
            inner_radii: a.inradius + b.inradius,
            witness_slack: faces::WITNESS_SLACK
                * (edges::length(frame.trans) + a.radius + b.radius),
            // Edges are at most two radii long: below this no product of two overflows.
            direction_scale: if a.radius * b.radius < 2.5e37 {
                1.0
            } else {
                2f32.powi(-64)
            },
        }
    }

    /// The true separation along a unit direction `n` (a→b, a's frame), from both
    /// support functions: `n·t − h_b(−Rᵀn) − h_a(n)`. Valid for any direction.
    #[inline]
    fn separation_along(&self, n: Vec3, sa: &mut Support, sb: &mut Support) -> f32 {
        n.dot(self.frame.trans) - sb.distance(self.frame.rot_t * -n) - sa.distance(n)
    }

    /// Separation along the axis of a remembered feature (any axis is a valid witness of
    /// separation, so no Minkowski test is needed here).
    fn cached_axis(&self, feature: Feature, sa: &mut Support, sb: &mut Support) -> Option<Axis> {
        match feature {
            Feature::FaceA(i) if (i as usize) < self.a.planes.len() => {
                Some(self.face_a(i as usize, sb))
            }
            Feature::FaceB(j) if (j as usize) < self.b.planes.len() => {
                Some(self.face_b(j as usize, sa))
            }
            Feature::EdgeEdge(i, j)
                if (i as usize) < self.a.edges.len() && (j as usize) < self.b.edges.len() =>
            {
                // The edges need not be supporting features any more: measure the gap along
                // the axis with both support functions, in both directions.
                let axis = self.edge_axis(&self.edge_a(i as usize), &self.edge_b(j as usize))?;
                let forward = self.separation_along(axis.normal, sa, sb);
                let backward = self.separation_along(-axis.normal, sa, sb);
                Some(if forward >= backward {
                    Axis {
                        separation: forward,
                        ..axis
                    }
                } else {
                    Axis {
                        separation: backward,
                        normal: -axis.normal,
                        ..axis
                    }
                })
            }
            _ => None,
        }
    }
}

/// Keeps the larger separation; on a tie the lower feature index (the caller visits
/// candidates so that this is deterministic).
#[inline]
fn better(candidate: &Axis, best: &Axis, candidate_index: usize, best_index: usize) -> bool {
    candidate.separation > best.separation
        || (candidate.separation == best.separation && candidate_index < best_index)
}

/// Last query's feature measured on this query's poses, as the test measures it first:
/// its axis, and for a face the other shape's support vertex under it (for an edge
/// pair, unused).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remembered {
    pub axis: Axis,
    pub vertex: usize,
}

impl Query<'_> {
    /// [`Query::cached_axis`] with the support vertex the face query reuses.
    fn remembered(
        &self,
        feature: Feature,
        sa: &mut Support,
        sb: &mut Support,
    ) -> Option<Remembered> {
        let axis = self.cached_axis(feature, sa, sb)?;
        let vertex = match feature {
            Feature::FaceA(_) => sb.last,
            Feature::FaceB(_) => sa.last,
            _ => usize::MAX,
        };
        Some(Remembered { axis, vertex })
    }
}

/// The hull–hull test. See the [module docs](self). `hints` holds the support vertices
/// of last query (the warm start of the face queries, stale or not) and gets this
/// query's; they never change the answer. `remembered`, when given, is `cached`
/// measured already ([`remeasure`]), which the test then does not measure again.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hull_hull(
    a: &Polytope,
    b: &Polytope,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
    remembered: Option<Remembered>,
    mode: SupportMode,
    hints: &mut SupportHints,
) -> SatOutcome {
    let query = Query::new(a, b, frame);
    let (mut support_a, mut support_b) = supports(a, b, mode, hints);
    match overlap(
        &query,
        margin,
        cached,
        remembered,
        &mut support_a,
        &mut support_b,
        hints,
    ) {
        Ok(outcome) => outcome,
        Err(Separating(axis)) => SatOutcome::Separated(axis),
    }
}

/// Both shapes' support oracles. The walk starts from last query's support vertices
/// (any start reaches the same maximum; the scan ignores it).
fn supports<'p>(
    a: &'p Polytope<'p>,
    b: &'p Polytope<'p>,
    mode: SupportMode,
    hints: &SupportHints,
) -> (Support<'p>, Support<'p>) {
    let start = |hint: u16, poly: &Polytope| {
        if (hint as usize) < poly.vertices.len() {
            hint as usize
        } else {
            0
        }
    };
    (
        Support {
            poly: a,
            mode,
            last: start(hints.a_under_face_b, a),
        },
        Support {
            poly: b,
            mode,
            last: start(hints.b_under_face_a, b),
        },
    )
}

/// The test once the supports are set up: `Err` as soon as an axis separates.
fn overlap(
    query: &Query,
    margin: f32,
    cached: Option<Feature>,
    remembered: Option<Remembered>,
    support_a: &mut Support,
    support_b: &mut Support,
    hints: &mut SupportHints,
) -> Result<SatOutcome, Separating> {
    // Last query's feature: a separating axis ends the test at once; a face is also
    // the candidate the preference may keep (an edge pair is kept only if it still
    // forms a Minkowski face, checked in the edge query).
    let mut kept = None;
    // The cached face's axis and support vertex, which its face query then reuses.
    let (mut measured_a, mut measured_b) = (None, None);
    if let Some(feature) = cached
        && let Some(Remembered { axis, vertex }) =
            remembered.or_else(|| query.remembered(feature, support_a, support_b))
    {
        if axis.separation > margin {
            return Err(Separating(axis));
        }
        match feature {
            Feature::FaceA(_) => measured_a = Some((axis, vertex)),
            Feature::FaceB(_) => measured_b = Some((axis, vertex)),
            _ => {}
        }
        if !matches!(feature, Feature::EdgeEdge(..)) {
            kept = Some(axis);
        }
    }
    let best_a = query.face_query_a(
        cached,
        measured_a,
        margin,
        support_b,
        &mut hints.b_under_face_a,
    )?;
    let best_b = query.face_query_b(
        cached,
        measured_b,
        margin,
        support_a,
        &mut hints.a_under_face_b,
    )?;
    let slop = FEATURE_SLOP * query.a.inradius.min(query.b.inradius);
    let best_face = best_a.separation.max(best_b.separation);
    // The support vertices under the best faces bound the edges' separations (witnesses).
    let witness = |hint: u16, poly: &Polytope| poly.vertices.get(hint as usize).copied();
    let witness_a = witness(hints.a_under_face_b, query.a).map(|v| query.frame.point_to_b(v));
    let witness_b = witness(hints.b_under_face_a, query.b).map(|v| query.frame.point_to_a(v));
    let edges = query.edge_query(
        best_face, slop, margin, cached, support_a, support_b, witness_a, witness_b,
    )?;
    if edges.kept.is_some() {
        kept = edges.kept;
    }
    Ok(fold_candidates(
        best_a,
        Some(best_b),
        edges.best,
        edges.any,
        slop,
        kept,
    ))
}

/// Index of the largest value (the first among ties).
fn argmax(values: impl Iterator<Item = f32>) -> usize {
    let mut best = 0;
    let mut best_value = f32::NEG_INFINITY;
    for (i, v) in values.enumerate() {
        if v > best_value {
            best_value = v;
            best = i;
        }
    }
    best
}
