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
//! support is computed; an edge whose Gauss arc cannot reach the cone of directions
//! where the bound beats the best face is dropped before pairing. On touching pairs
//! this removes most of the `E_a × E_b` edge pairs.
//!
//! **Support evaluation.** [`SupportMode::Scan`] reads every vertex; [`SupportMode::Walk`]
//! (seed 003's Gauss-map walk) evaluates the support once and then follows the vertex
//! adjacency from the previous face's support vertex, which on a convex polytope ends
//! at the same maximum. Both give the same answers (tested on every randomized hull
//! pair); the scan is the default, see
//! [`DEFAULT_SUPPORT_MODE`](crate::DEFAULT_SUPPORT_MODE) for the measurements.

use super::{
    Axis, FEATURE_SLOP, Frame, PARALLEL_EDGES, SatOutcome, fold_candidates, length_and_direction,
};
use crate::Feature;
use crate::polytope::Polytope;
use glam::Vec3;
use sepax_geometry::GaussArc;
use smallvec::SmallVec;

/// How support distances are evaluated during the face queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportMode {
    /// Scan every vertex for every face.
    Scan,
    /// Hill-climb along the vertex adjacency from the previous support vertex.
    Walk,
}

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

/// Slack on the arc pruning test, against round-off in the precomputed arcs.
const ARC_SLACK: f32 = 1e-5;

/// A support oracle that remembers where it last ended (for the walk).
struct Support<'p> {
    poly: &'p Polytope<'p>,
    mode: SupportMode,
    last: usize,
}

impl Support<'_> {
    #[inline]
    fn distance(&mut self, dir: Vec3) -> f32 {
        match self.mode {
            SupportMode::Scan => self.poly.support_distance(dir),
            SupportMode::Walk => {
                let (index, d) = self.poly.climb_support(dir, self.last);
                self.last = index;
                d
            }
        }
    }
}

/// Can the arc hold a direction `n` with `n·u ≥ c`? The arc lies in the cap of half
/// angle θ about `mid`, so `max n·u ≤ cos(max(0, φ − θ))` with `cos φ = mid·u`.
#[inline]
fn arc_may_reach(arc: &GaussArc, u: Vec3, c: f32) -> bool {
    let cos_phi = arc.mid.dot(u);
    if cos_phi >= arc.cos_half {
        return true;
    }
    // sin φ ≤ 1 gives a cheaper upper bound that already rejects most far arcs.
    if cos_phi * arc.cos_half + arc.sin_half < c - ARC_SLACK {
        return false;
    }
    let sin_phi = (1.0 - cos_phi * cos_phi).max(0.0).sqrt();
    cos_phi * arc.cos_half + sin_phi * arc.sin_half >= c - ARC_SLACK
}

/// Gregorius' Minkowski-face test: do arc `a→b` (of shape a) and arc `c→d` (of −b, i.e.
/// b's normals negated) cross on the unit sphere? `bxa = b × a`, `dxc = d × c`.
#[inline]
fn arcs_cross(a: Vec3, b: Vec3, bxa: Vec3, c: Vec3, d: Vec3, dxc: Vec3) -> bool {
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
struct EdgeData {
    index: u32,
    /// Face normals at both ends of its Gauss arc (for b: negated).
    n0: Vec3,
    n1: Vec3,
    cross: Vec3,
    point: Vec3,
    direction: Vec3,
    /// `|direction|`, on the scaled vector (see `length_and_direction`).
    length: f32,
}

struct Query<'p> {
    a: &'p Polytope<'p>,
    b: &'p Polytope<'p>,
    frame: &'p Frame,
    /// `c_b − c_a` in a's frame.
    centroid_offset: Vec3,
    inner_radii: f32,
}

impl Query<'_> {
    #[inline]
    fn face_a(&self, i: usize, support_b: &mut Support) -> Axis {
        let plane = self.a.planes[i];
        let n = plane.normal;
        let s = n.dot(self.frame.trans) - plane.offset - support_b.distance(self.frame.rot_t * -n);
        Axis {
            separation: s,
            normal: n,
            feature: Feature::FaceA(i as u32),
        }
    }

    #[inline]
    fn face_b(&self, j: usize, support_a: &mut Support) -> Axis {
        let plane = self.b.planes[j];
        let n = -(self.frame.rot * plane.normal);
        let s = n.dot(self.frame.trans) - plane.offset - support_a.distance(n);
        Axis {
            separation: s,
            normal: n,
            feature: Feature::FaceB(j as u32),
        }
    }

    fn edge_a(&self, i: usize) -> EdgeData {
        let e = self.a.edges[i];
        let (n0, n1) = (
            self.a.planes[e.faces[0] as usize].normal,
            self.a.planes[e.faces[1] as usize].normal,
        );
        let p = self.a.vertices[e.vertices[0] as usize];
        let direction = self.a.vertices[e.vertices[1] as usize] - p;
        EdgeData {
            index: i as u32,
            n0,
            n1,
            cross: n1.cross(n0),
            point: p,
            direction,
            length: scaled_length(direction),
        }
    }

    fn edge_b(&self, j: usize) -> EdgeData {
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
            * (self.b.vertices[e.vertices[1] as usize] - self.b.vertices[e.vertices[0] as usize]);
        EdgeData {
            index: j as u32,
            n0,
            n1,
            cross: n1.cross(n0),
            point: p,
            direction,
            length: scaled_length(direction),
        }
    }

    /// The axis of an edge pair, oriented into a's Gauss arc of the edge; `None` when
    /// the edges are near-parallel.
    ///
    /// The edge pair passed the Minkowski-face test, so the axis direction lies on a's
    /// arc `n0 → n1` (shorter than a half circle), where `n · (n0 + n1) > 0`. Only on an
    /// arc close to a half circle (a knife edge) is that product too small to trust;
    /// there the edge is far from a's centroid along the arc's middle and the sign of
    /// `n · (p_a − c_a)` decides. (Orienting by the centroid alone fails on thin shapes:
    /// on a 0.002 × 0.002 × 2 needle an end edge lies 0.0014 off the long axis, and an
    /// axis tilted by 0.0016 towards that axis flipped, turning a 0.6 deep contact into
    /// a 2.5 gap.)
    #[inline]
    fn edge_axis(&self, ea: &EdgeData, eb: &EdgeData) -> Option<Axis> {
        // Lengths on scaled vectors: the squares of a 1e16-long box edge's cross
        // products overflow f32 (and gave a zero normal).
        let (length_axis, mut n) = length_and_direction(ea.direction.cross(eb.direction))?;
        if length_axis <= PARALLEL_EDGES * ea.length * eb.length {
            return None;
        }
        let toward_arc = n.dot(ea.n0 + ea.n1);
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

    /// The true separation of an edge axis, and whether the pair's edges support it:
    /// its edge-to-edge value is the true one within `SUPPORT_SLACK · scale`. A pair
    /// that supports its axis is done; otherwise both senses of the axis are measured
    /// (both are valid SAT directions, and an axis mis-oriented on a knife edge may
    /// separate the other way) and the larger counts.
    fn verify(&self, axis: &Axis, scale: f32, sa: &mut Support, sb: &mut Support) -> (Axis, bool) {
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

/// The hull–hull test. See the [module docs](self).
pub(crate) fn hull_hull(
    a: &Polytope,
    b: &Polytope,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
    mode: SupportMode,
) -> SatOutcome {
    let query = Query {
        a,
        b,
        frame,
        centroid_offset: frame.point_to_a(b.centroid) - a.centroid,
        inner_radii: a.inradius + b.inradius,
    };
    let d = query.centroid_offset;
    let mut support_a = Support {
        poly: a,
        mode,
        last: 0,
    };
    let mut support_b = Support {
        poly: b,
        mode,
        last: 0,
    };

    // Last query's feature: a separating axis ends the test at once; a face is also
    // the candidate the preference may keep (an edge pair is kept only if it still
    // forms a Minkowski face, checked in the edge query below).
    let mut kept = None;
    if let Some(feature) = cached
        && let Some(axis) = query.cached_axis(feature, &mut support_a, &mut support_b)
    {
        if axis.separation > margin {
            return SatOutcome::Separated(axis);
        }
        if !matches!(feature, Feature::EdgeEdge(..)) {
            kept = Some(axis);
        }
    }

    // Face query of a: start from the face most facing b (or the cached one).
    let seed_a = match cached {
        Some(Feature::FaceA(i)) if (i as usize) < a.planes.len() => i as usize,
        _ => argmax(a.planes.iter().map(|p| p.normal.dot(d))),
    };
    let mut best_a = query.face_a(seed_a, &mut support_b);
    let mut best_a_index = seed_a;
    if best_a.separation > margin {
        return SatOutcome::Separated(best_a);
    }
    for (i, plane) in a.planes.iter().enumerate() {
        if i == seed_a || plane.normal.dot(d) - query.inner_radii < best_a.separation {
            continue;
        }
        let axis = query.face_a(i, &mut support_b);
        if axis.separation > margin {
            return SatOutcome::Separated(axis);
        }
        if better(&axis, &best_a, i, best_a_index) {
            best_a = axis;
            best_a_index = i;
        }
    }

    // Face query of b; the bound of face j along n = −R m_j is −m_j·(Rᵀ d) − r.
    let d_in_b = frame.rot_t * d;
    let seed_b = match cached {
        Some(Feature::FaceB(j)) if (j as usize) < b.planes.len() => j as usize,
        _ => argmax(b.planes.iter().map(|p| -p.normal.dot(d_in_b))),
    };
    let mut best_b = query.face_b(seed_b, &mut support_a);
    let mut best_b_index = seed_b;
    if best_b.separation > margin {
        return SatOutcome::Separated(best_b);
    }
    for (j, plane) in b.planes.iter().enumerate() {
        if j == seed_b || -plane.normal.dot(d_in_b) - query.inner_radii < best_b.separation {
            continue;
        }
        let axis = query.face_b(j, &mut support_a);
        if axis.separation > margin {
            return SatOutcome::Separated(axis);
        }
        if better(&axis, &best_b, j, best_b_index) {
            best_b = axis;
            best_b_index = j;
        }
    }

    // Edge query, on the edges whose arcs can reach the cone where the bound comes
    // within the slop of the best face: n·d ≥ T − slop + r, i.e. n·d̂ ≥ c. An edge pair
    // further below the best face can change neither the exact axis nor the preferred
    // one (a kept edge must be within the slop of the exact axis, a cold edge better
    // than every face).
    let slop = FEATURE_SLOP * a.inradius.min(b.inradius);
    let best_face = best_a.separation.max(best_b.separation);
    let threshold = best_face - slop + query.inner_radii;
    let distance = d.length();
    // The best edge pair whose edges support its axis (it may carry a manifold), and
    // the best edge axis of any pair by its true separation (it may set the depth).
    let mut best_edge: Option<Axis> = None;
    let mut any_edge: Option<Axis> = None;
    if distance >= threshold || threshold <= 0.0 {
        let (u, c) = if distance > 0.0 {
            (d / distance, threshold / distance)
        } else {
            (Vec3::Z, -2.0)
        };
        let u_b = frame.rot_t * -u;
        // Filled in place: returning a 2 KB inline vector by value would copy it.
        let mut edges_a: SmallVec<[EdgeData; 32]> = SmallVec::new();
        for (i, arc) in a.arcs.iter().enumerate() {
            if arc_may_reach(arc, u, c) {
                edges_a.push(query.edge_a(i));
            }
        }
        if !edges_a.is_empty() {
            let mut edges_b: SmallVec<[EdgeData; 32]> = SmallVec::new();
            for (j, arc) in b.arcs.iter().enumerate() {
                if arc_may_reach(arc, u_b, c) {
                    edges_b.push(query.edge_b(j));
                }
            }
            // The edge-to-edge value `n·(p_b − p_a)` bounds the true separation along
            // `n` from above (p_a, p_b lie in the shapes) and equals it when the edges
            // support the axis. On nearly coplanar faces of a thin hull a pair can pass
            // the Minkowski test without supporting its axis, and then the value means
            // nothing. So every value that would end the test is checked against the
            // true separation ([`Query::verify`]), and so is the winner: one scan keeps
            // the `CONTENDERS` best values (ties in scan order), which are verified best
            // first until one supports its axis. One that fails gives its true value to
            // the exact axis only (a valid SAT direction all the same).
            let mut contenders: SmallVec<[(Axis, f32); CONTENDERS]> = SmallVec::new();
            let mut cached_raw: Option<(Axis, f32)> = None;
            for ea in &edges_a {
                for eb in &edges_b {
                    if !arcs_cross(ea.n0, ea.n1, ea.cross, eb.n0, eb.n1, eb.cross) {
                        continue;
                    }
                    let Some(axis) = query.edge_axis(ea, eb) else {
                        continue;
                    };
                    // The pair's extent, for the support check (only when needed).
                    let scale = || {
                        frame.trans.length() + ea.point.length() + (eb.point - frame.trans).length()
                    };
                    if axis.separation > margin {
                        let (true_axis, _) =
                            query.verify(&axis, scale(), &mut support_a, &mut support_b);
                        if true_axis.separation > margin {
                            return SatOutcome::Separated(true_axis);
                        }
                        // The gap was an artefact: the pair counts by its true value.
                        any_edge = better_of(any_edge, true_axis);
                        continue;
                    }
                    if cached == Some(axis.feature) {
                        cached_raw = Some((axis, scale()));
                    }
                    let full = contenders.len() == CONTENDERS;
                    if full && contenders[CONTENDERS - 1].0.separation >= axis.separation {
                        continue;
                    }
                    let at = contenders
                        .iter()
                        .position(|(c, _)| axis.separation > c.separation)
                        .unwrap_or(contenders.len());
                    if full {
                        contenders.pop();
                    }
                    contenders.insert(at, (axis, scale()));
                }
            }
            if let Some((axis, scale)) = cached_raw {
                let (true_axis, supports) =
                    query.verify(&axis, scale, &mut support_a, &mut support_b);
                if supports {
                    kept = Some(true_axis);
                }
            }
            for (axis, scale) in &contenders {
                let (true_axis, supports) =
                    query.verify(axis, *scale, &mut support_a, &mut support_b);
                any_edge = better_of(any_edge, true_axis);
                if supports {
                    best_edge = Some(true_axis);
                    break;
                }
            }
        }
    }

    fold_candidates(best_a, Some(best_b), best_edge, any_edge, slop, kept)
}

/// `|v|` on the scaled vector (0 for a zero or non-finite one).
fn scaled_length(v: Vec3) -> f32 {
    length_and_direction(v).map_or(0.0, |(l, _)| l)
}

/// The candidate with the larger separation (the earlier on a tie).
fn better_of(best: Option<Axis>, candidate: Axis) -> Option<Axis> {
    match best {
        Some(b) if b.separation >= candidate.separation => Some(b),
        _ => Some(candidate),
    }
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
