//! Speculative contacts of polytope pairs: the true gap of a pair the separating-axis
//! test found apart within the margin, and the manifold of its closest features.
//!
//! With a margin `m > 0`, a pair apart by less than `m` gets a speculative contact
//! (negative depth = the gap). For box–box, box–hull and hull–hull the SAT's best
//! separation `s` is only a **lower bound** of the distance `d`: two boxes corner to
//! corner are further apart than along any of their 15 axes, so the gap along the
//! SAT's axis understates the true one and that axis is not the direction the shapes
//! close along. So when the SAT finds `0 < s ≤ m`, the pair is measured again by GJK
//! (`distance`), warm-started from the pair's cache (the simplex it ended with last
//! time), on the same frame the SAT used:
//!
//! * `d > m`: nothing is within reach; no manifold (the cache keeps the SAT's
//!   preferred feature, as for any pair within the margin).
//! * the SAT axis the manifold would be built on is the closest direction: `d − s ≤ ε`
//!   (`ε` = [`SPECULATIVE_TOLERANCE`] × the pair's size, b's offset plus both bounding
//!   radii) and its normal within [`SPECULATIVE_ANGLE`] of GJK's direction. The closest
//!   features are then a face and a vertex, two parallel faces, or two crossing edges,
//!   and the manifold clipped on that axis is already right (each point's depth is its
//!   gap along the normal): it is kept, bit for bit what it was before this module
//!   existed — when its deepest point reaches `−d` within `ε`; when it reaches it only
//!   within the clip tolerance (plus `ε`: a corner cut at a side plane), with the
//!   closest points added as its deepest point ([`with_the_gap`]); else the closest
//!   features' manifold below is taken (see [`reaches_the_gap`]). Both tests are
//!   needed: near a small gap the depth hardly moves as the normal turns (`d cos θ`),
//!   while a face's separation drops with the angle times the face's size.
//! * otherwise the manifold comes from the **closest features** ([`closest_manifold`]):
//!   the normal is the direction from a's closest point to b's, and the point is
//!   halfway between them with depth `−d`; when the closest features hold an edge of
//!   each shape lying across the normal (within [`PARALLEL_EDGES`] of the contact
//!   plane) and parallel to each other (within the same), the two ends of their
//!   overlap instead (a box over a box, edge over edge), each with its own depth
//!   `−n · (p_b − p_a)` measured between the two edges — plus the closest points when
//!   neither end comes within `ε` of `−d`.
//!
//! Such a manifold names [`Feature::Closest`] with both shapes' feature codes (the two
//! edges for an overlap), and its point ids pack them (see [`closest_manifold`]): they
//! stay the same while the same features are closest, and mirror like any other id.
//! `contact` follows the same rule with the SAT's exact axis: its answer stands when
//! it is the closest direction, else the GJK normal and depth `−d`.
//!
//! So a speculative contact of any pair has depth `−d` at its deepest point, within
//! `ε`, and, within the tolerances above, the closest direction as its normal.
//!
//! **Determinism.** GJK's simplex is solved as a function of its vertex set
//! (`Simplex::solve_settled`), so a query repeated with the cache it left retraces
//! GJK's last round and gives the same bits; the batched box path runs this same code
//! on the same frame, so it stays bit for bit the scalar answer. Pairs with `s ≤ 0`
//! (touching, penetrating) never come here: their answers are unchanged.
//!
//! **Cost.** Only pairs with `0 < s ≤ m` run any of this (the check is one comparison
//! after the SAT): touching and penetrating pairs cost what they did (callgrind,
//! `prof box` / `prof hull 24`, within ±0.2%). A cold box pair corner to corner costs
//! about 3,500 instructions per `collide` (a touching pair about 2,500), two parallel
//! edges about 5,000 cold and 4,700 warm (November 2026).
//!
//! Spheres and capsules need none of this: their queries measure the exact distance
//! already (a point or a segment against the other shape, see `sat::sphere` and
//! `sat::capsule`).

use crate::distance::{Core, Frame64, Pair, Simplex, Witness, run_gjk, witness};
use crate::frame::Frame;
use crate::manifold::reduce::{Candidate, reduce};
use crate::manifold::{CLIP_TOLERANCE, manifold_points, pack_id};
use crate::math::length_and_direction;
use crate::polytope::Polytope;
use crate::query::{to_world, unit_rotation};
use crate::sat::{Axis, PARALLEL_EDGES, SatOutcome};
use crate::solid::{Solid, with_polytopes};
use crate::{Contact, Feature, Manifold, PairCache};
use glam::Vec3;
use sepax_geometry::Pose;
use smallvec::SmallVec;

/// How close (relative to the pair's size) the SAT's separation must come to the true
/// distance for its axis to count as the closest direction. Far above the round-off of
/// either (a few 1e-7 of the size in f32), far below any gap a solver could tell apart.
pub const SPECULATIVE_TOLERANCE: f32 = 1e-5;

/// How far (radians, about) the SAT's normal may turn from the closest direction and
/// still count as it. Above the round-off of an edge-pair axis near the parallel
/// threshold (`1e-7 / PARALLEL_EDGES`), below anything a solver would see.
pub const SPECULATIVE_ANGLE: f32 = 1e-3;

/// The reference field of a closest-feature point's id (see [`closest_manifold`]):
/// no face has this index.
const CLOSEST_ID: u32 = 0x7ffd;

/// Feature code kinds of [`Feature::Closest`]: a vertex index as is, an edge index or a
/// face index tagged in the two top bits.
const EDGE_CODE: u32 = 1 << 30;
const FACE_CODE: u32 = 2 << 30;

/// Both shapes of a pair as GJK sees them.
pub(crate) type Cores<'s> = (Core<'s>, Core<'s>);

/// What GJK found for a polytope pair the SAT found apart within the margin.
pub(crate) enum Gap {
    /// The cores touch within GJK's round-off after all: the SAT's answer stands.
    Touching,
    /// Apart by more than the margin.
    Beyond,
    /// Apart by at most the margin.
    Within(Closest),
}

/// The closest points of two polytopes apart within the margin, in a's frame.
pub(crate) struct Closest {
    /// The distance `d > 0`.
    pub distance: f32,
    /// Unit direction from a's closest point to b's.
    pub normal: Vec3,
    on_a: Vec3,
    on_b: Vec3,
    witness_a: Witness,
    witness_b: Witness,
}

impl Closest {
    /// True when `axis` is the closest direction (see the module docs): its
    /// separation within `SPECULATIVE_TOLERANCE × size` of the distance and its normal
    /// within `SPECULATIVE_ANGLE` of the closest points' direction.
    pub fn is_along(&self, axis: &Axis, size: f32) -> bool {
        self.distance - axis.separation <= SPECULATIVE_TOLERANCE * size
            && (axis.normal - self.normal).length_squared() <= SPECULATIVE_ANGLE * SPECULATIVE_ANGLE
    }
}

/// The SAT's exact and preferred axes when it found the pair apart within the margin
/// (`0 < s ≤ margin`): the pairs this module answers, when they are polytopes.
#[inline(always)]
pub(crate) fn apart_within_margin(outcome: &SatOutcome) -> Option<(Axis, Axis)> {
    match outcome {
        SatOutcome::Overlap { exact, preferred } if exact.separation > 0.0 => {
            Some((*exact, *preferred))
        }
        _ => None,
    }
}

/// `collide`'s answer for a polytope pair the SAT found apart within the margin, with
/// its `(exact, preferred)` axes (in the order the SAT ran, `margin` sanitised): `None`
/// when GJK finds the cores touching after all (the SAT's manifold stands, see
/// `query::manifold_from_outcome`), else whether the pair has a manifold, written to
/// `out` ([`Manifold::flip`]ped when `mirrored`).
///
/// The preferred axis, then the exact one, keeps its clipped manifold when it is the
/// closest direction ([`Closest::is_along`]) and its points reach the gap
/// ([`reaches_the_gap`]); otherwise the manifold is the closest
/// features' ([`closest_manifold`]). The cache remembers the preferred feature, as for
/// any pair within the margin, and GJK's simplex.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn speculative_manifold(
    solid_a: &Solid,
    solid_b: &Solid,
    cores: Cores,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    (exact, preferred): (Axis, Axis),
    mirrored: bool,
    out: &mut Manifold,
) -> Option<bool> {
    let size = pair_size(solid_a, solid_b, frame);
    let closest = match measure(cores, frame, size, margin, cache) {
        Gap::Touching => return None,
        Gap::Beyond => {
            cache.remember(preferred.feature, false);
            return Some(false);
        }
        Gap::Within(closest) => closest,
    };
    cache.remember(preferred.feature, false);
    let clip_tolerance = CLIP_TOLERANCE * solid_a.inner_radius().min(solid_b.inner_radius());
    let exact = (exact != preferred).then_some(exact);
    for axis in [Some(preferred), exact].into_iter().flatten() {
        if closest.is_along(&axis, size) {
            let reach = clip_tolerance + SPECULATIVE_TOLERANCE * size;
            let points = manifold_points(solid_a, solid_b, frame, &axis, margin, clip_tolerance);
            if reaches_the_gap(&points, closest.distance, reach) {
                let points = with_the_gap(
                    points,
                    (solid_a, solid_b),
                    &closest,
                    &axis,
                    (clip_tolerance, SPECULATIVE_TOLERANCE * size),
                );
                to_world(pose_a, frame, &axis, &points, mirrored, out);
                return Some(true);
            }
        }
    }
    let (points, feature) = closest_manifold(
        solid_a,
        solid_b,
        frame,
        &closest,
        margin,
        clip_tolerance,
        SPECULATIVE_TOLERANCE * size,
    );
    let axis = Axis {
        separation: closest.distance,
        normal: closest.normal,
        feature,
    };
    to_world(pose_a, frame, &axis, &points, mirrored, out);
    Some(true)
}

/// True when the points clipped on an axis along the closest direction hold the
/// closest points: their deepest point's depth is `−d` within `tolerance` (the clip
/// tolerance, as a face clip may keep a corner that far beyond a side plane, plus the
/// speculative one). An edge pair whose lines are `d` apart can have segments further
/// apart than that (the lines' closest points beyond an edge's end) while other
/// features, tied with the edges along the axis, are the ones `d` apart: the clip then
/// names the wrong points (found by a sweep of random hull pairs within the margin:
/// 0.077 deep where the gap was 0.0012), and the closest features' manifold is taken
/// instead.
fn reaches_the_gap(points: &[Candidate], distance: f32, tolerance: f32) -> bool {
    let deepest = points
        .iter()
        .map(|c| c.depth)
        .fold(f32::NEG_INFINITY, f32::max);
    deepest >= -distance - tolerance
}

/// The points clipped on an axis along the closest direction, with the closest points
/// added when none of them comes within `depth_tolerance` of the gap `−d` (they reach
/// it only within the clip tolerance, [`reaches_the_gap`]): a corner kept up to the
/// clip tolerance beyond a side plane is cut there, and on a slope the cut point sits
/// higher than the corner by the slope times that (1.2e-4 above the gap beside a thin
/// hull's face: `tests/speculative.rs` with its seeds xor 41; 2e-4 on nearly parallel
/// box edges with xor 777). The added point lies halfway between the closest points,
/// its depth their gap along the axis' normal and its id their features' (as in
/// [`closest_manifold`]); it goes first, so the reduction keeps it as the deepest
/// (`tolerance`: the clip tolerance, as for the clipped points).
fn with_the_gap(
    points: SmallVec<[Candidate; 4]>,
    (a, b): (&Solid, &Solid),
    closest: &Closest,
    axis: &Axis,
    (tolerance, depth_tolerance): (f32, f32),
) -> SmallVec<[Candidate; 4]> {
    if reaches_the_gap(&points, closest.distance, depth_tolerance) {
        return points;
    }
    let n = axis.normal;
    let Some(single) = with_polytopes(a, b, |pa, pb| Candidate {
        point: (closest.on_a + closest.on_b) * 0.5,
        depth: -n.dot(closest.on_b - closest.on_a),
        id: point_id(
            feature_code(a, pa, closest.witness_a),
            feature_code(b, pb, closest.witness_b),
            0,
        ),
    }) else {
        return points;
    };
    let mut candidates: SmallVec<[Candidate; 5]> = SmallVec::new();
    candidates.push(single);
    candidates.extend(points);
    reduce(&candidates, n, tolerance)
}

/// `contact`'s answer for a polytope pair the SAT found apart within the margin along
/// its `exact` axis (in the order the SAT ran): `None` when the SAT's answer stands
/// (GJK finds the cores touching, or the exact axis is the closest direction), else
/// the closest points' normal and depth `−d`, or no contact when `d` exceeds the margin.
#[cold]
#[inline(never)]
pub(crate) fn speculative_contact(
    solid_a: &Solid,
    solid_b: &Solid,
    cores: Cores,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    exact: &Axis,
) -> Option<Option<Contact>> {
    let size = pair_size(solid_a, solid_b, frame);
    match measure(cores, frame, size, margin, &mut PairCache::default()) {
        Gap::Touching => None,
        Gap::Beyond => Some(None),
        Gap::Within(closest) if closest.is_along(exact, size) => None,
        Gap::Within(closest) => Some(Some(Contact {
            normal: unit_rotation(pose_a).transform_vector(closest.normal),
            depth: -closest.distance,
            feature: closest_feature(solid_a, solid_b, &closest),
        })),
    }
}

/// True when both shapes are polytopes (boxes or hulls): the pairs whose SAT gap is
/// only a lower bound.
#[inline]
pub(crate) fn is_polytope_pair(a: &Solid, b: &Solid) -> bool {
    let polytope = |s: &Solid| matches!(s, Solid::Box(_) | Solid::Hull(_));
    polytope(a) && polytope(b)
}

/// The pair's size: b's offset plus both bounding radii (the scale of the coordinates
/// the query computes with, so of their round-off).
pub(crate) fn pair_size(a: &Solid, b: &Solid, frame: &Frame) -> f32 {
    let radius = |s: &Solid| match s {
        Solid::Box(h) => h.length(),
        Solid::Hull(p) => p.radius,
        Solid::Sphere(r) => *r,
        Solid::Capsule(h, r) => h + r,
    };
    frame.trans.length() + radius(a) + radius(b)
}

/// The distance and closest points of a pair by GJK, on the SAT's frame (rounded to
/// f32 and widened: the SAT and GJK see the same shapes), warm-started from `cache`'s
/// simplex and leaving the new one there (unless the cores touch: then the cache keeps
/// the simplex it had, so that the same query again takes the same path).
pub(crate) fn measure(
    cores: Cores,
    frame: &Frame,
    size: f32,
    margin: f32,
    cache: &mut PairCache,
) -> Gap {
    let (core_a, core_b) = cores;
    let rot = frame.rot.as_dmat3();
    let frame64 = Frame64 {
        rot,
        rot_t: rot.transpose(),
        trans: frame.trans.as_dvec3(),
    };
    let mut simplex = Simplex::default();
    let Some(v) = run_gjk(&core_a, &core_b, &frame64, cache, size as f64, &mut simplex) else {
        return Gap::Touching;
    };
    let hint = simplex.hint();
    cache.set_simplex(hint);
    let d = v.length();
    if d > margin as f64 {
        return Gap::Beyond;
    }
    let normal = v / d;
    let pair = Pair {
        a: &core_a,
        b: &core_b,
        frame: &frame64,
    };
    let on_a = pair.witness_a(&simplex);
    let on_b = on_a + v;
    let b_outward = frame64.rot_t * -normal;
    Gap::Within(Closest {
        distance: d as f32,
        normal: normal.as_vec3(),
        on_a: on_a.as_vec3(),
        on_b: on_b.as_vec3(),
        witness_a: witness(&core_a, &hint, |[i, _]| i, normal),
        witness_b: witness(&core_b, &hint, |[_, j]| j, b_outward),
    })
}

/// The feature pair of the closest points, for a [`Contact`].
pub(crate) fn closest_feature(a: &Solid, b: &Solid, closest: &Closest) -> Feature {
    with_polytopes(a, b, |pa, pb| {
        Feature::Closest(
            feature_code(a, pa, closest.witness_a),
            feature_code(b, pb, closest.witness_b),
        )
    })
    .expect("a polytope pair")
}

/// The manifold of a pair apart within the margin along its closest features, in a's
/// frame (see the module docs), and the feature pair it names: the two parallel edges
/// when their overlap gives the points, else the closest points' features.
///
/// Ids: the reference field holds `CLOSEST_ID`, the incident field a's feature code
/// and the first line b's (14 bits of index under a 2-bit kind: vertex, edge, face),
/// the second line `0` for the closest points, `1` and `2` for the overlap's ends
/// along a's edge. `tolerance` is the shortest overlap worth two points (the clip
/// tolerance), `depth_tolerance` how far above `−d` an end's depth may stay.
pub(crate) fn closest_manifold(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    closest: &Closest,
    margin: f32,
    tolerance: f32,
    depth_tolerance: f32,
) -> (SmallVec<[Candidate; 4]>, Feature) {
    with_polytopes(a, b, |pa, pb| {
        let n = closest.normal;
        let code_a = feature_code(a, pa, closest.witness_a);
        let code_b = feature_code(b, pb, closest.witness_b);
        let single = Candidate {
            point: (closest.on_a + closest.on_b) * 0.5,
            depth: -closest.distance,
            id: point_id(code_a, code_b, 0),
        };
        let edges_a = edges_on(a, pa, closest.witness_a, n, |p| p);
        let edges_b = if edges_a.is_empty() {
            SmallVec::new()
        } else {
            let n_b = frame.rot_t * n;
            edges_on(b, pb, closest.witness_b, n_b, |p| frame.point_to_a(p))
        };
        let Some((ea, eb, lo, hi)) = longest_overlap(&edges_a, &edges_b, tolerance) else {
            return (
                SmallVec::from_elem(single, 1),
                Feature::Closest(code_a, code_b),
            );
        };
        let (code_a, code_b) = (EDGE_CODE | ea.index, EDGE_CODE | eb.index);
        let mut points: SmallVec<[Candidate; 4]> = [(lo, 1), (hi, 2)]
            .into_iter()
            .map(|(t, end)| overlap_point(ea, eb, n, t, point_id(code_a, code_b, end)))
            .filter(|c| c.depth >= -margin)
            .collect();
        let deepest = points.iter().fold(f32::NEG_INFINITY, |m, c| m.max(c.depth));
        if deepest < -closest.distance - depth_tolerance {
            points.push(single);
        }
        (points, Feature::Closest(code_a, code_b))
    })
    .expect("a polytope pair")
}

/// A closest-feature point's id (see [`closest_manifold`]).
fn point_id(code_a: u32, code_b: u32, which: u16) -> u64 {
    let short = |code: u32| ((code >> 16) & 0xc000) as u16 | (code & 0x3fff) as u16;
    pack_id(
        false,
        CLOSEST_ID,
        short(code_a) as u32,
        [short(code_b), which],
    )
}

/// A feature's code in [`Feature::Closest`]: a vertex's index, `EDGE_CODE |` an edge's
/// index (numbered as in [`Feature::EdgeEdge`]), `FACE_CODE |` a face's.
fn feature_code(solid: &Solid, poly: &Polytope, witness: Witness) -> u32 {
    match witness {
        Witness::Vertex(i) => i,
        Witness::Edge(i, j) => edge_between(solid, poly, i, j).map_or(i, |(e, _)| EDGE_CODE | e),
        Witness::Face(f) => FACE_CODE | f,
    }
}

/// The edge between vertices `i` and `j`: its index as [`Feature::EdgeEdge`] numbers
/// it (a box's `4k + j` along axis `k`, a hull's place in its edge list) and its ends in
/// that numbering's direction (a box edge from `−` to `+` along its axis, a hull edge as
/// stored); `None` when they span no edge.
fn edge_between(solid: &Solid, poly: &Polytope, i: u32, j: u32) -> Option<(u32, [u32; 2])> {
    match solid {
        Solid::Box(_) => {
            let differ = i ^ j;
            if differ.count_ones() != 1 {
                return None;
            }
            let k = differ.trailing_zeros();
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            let along = ((i >> k1) & 1) | (((i >> k2) & 1) << 1);
            Some((4 * k + along, [i.min(j), i.max(j)]))
        }
        _ => poly
            .edges
            .iter()
            .position(|e| e.vertices == [i, j] || e.vertices == [j, i])
            .map(|e| (e as u32, poly.edges[e].vertices)),
    }
}

/// An edge of one shape in a's frame, with its index.
struct Edge {
    index: u32,
    p0: Vec3,
    p1: Vec3,
}

/// The edges at a closest feature that lie across the normal (within
/// [`PARALLEL_EDGES`] of the contact plane), in a's frame: the edge itself, or every
/// edge at a closest vertex (the closest points of two parallel edges are not unique,
/// and GJK may name a vertex of either); none for a face (its normal is the SAT's
/// axis). `n_local` is the normal in the shape's own frame, `to_a` brings its points to
/// a's frame.
fn edges_on(
    solid: &Solid,
    poly: &Polytope,
    witness: Witness,
    n_local: Vec3,
    to_a: impl Fn(Vec3) -> Vec3,
) -> SmallVec<[Edge; 8]> {
    let mut edges = SmallVec::new();
    let mut consider = |i: u32, j: u32| {
        let d = poly.vertices[j as usize] - poly.vertices[i as usize];
        if n_local.dot(d).abs() > PARALLEL_EDGES * d.length() {
            return;
        }
        if let Some((index, [e0, e1])) = edge_between(solid, poly, i, j) {
            edges.push(Edge {
                index,
                p0: to_a(poly.vertices[e0 as usize]),
                p1: to_a(poly.vertices[e1 as usize]),
            });
        }
    };
    match witness {
        Witness::Vertex(i) => {
            let (start, end) = (
                poly.neighbor_starts[i as usize] as usize,
                poly.neighbor_starts[i as usize + 1] as usize,
            );
            for &k in &poly.neighbors[start..end] {
                consider(i, k);
            }
        }
        Witness::Edge(i, j) => consider(i, j),
        Witness::Face(_) => {}
    }
    edges
}

/// The parallel pair (within [`PARALLEL_EDGES`]) of an edge of a and an edge of b with
/// the longest overlap along a's edge, longer than `tolerance`: the edges and the
/// overlap `[lo, hi]` as distances from a's `p0` along it (the first pair on ties).
fn longest_overlap<'e>(
    edges_a: &'e [Edge],
    edges_b: &'e [Edge],
    tolerance: f32,
) -> Option<(&'e Edge, &'e Edge, f32, f32)> {
    let mut best = None;
    let mut longest = tolerance;
    for ea in edges_a {
        let Some((length_a, u)) = length_and_direction(ea.p1 - ea.p0) else {
            continue;
        };
        for eb in edges_b {
            let db = eb.p1 - eb.p0;
            if u.cross(db).length() > PARALLEL_EDGES * db.length() {
                continue;
            }
            let (t0, t1) = (u.dot(eb.p0 - ea.p0), u.dot(eb.p1 - ea.p0));
            let (lo, hi) = (t0.min(t1).max(0.0), t0.max(t1).min(length_a));
            if hi - lo > longest {
                longest = hi - lo;
                best = Some((ea, eb, lo, hi));
            }
        }
    }
    best
}

/// The point of two parallel edges at distance `t` along a's edge: a's point there, b's
/// point with the same projection on a's edge, halfway between them, with depth
/// `−n · (p_b − p_a)`.
fn overlap_point(ea: &Edge, eb: &Edge, n: Vec3, t: f32, id: u64) -> Candidate {
    let u = length_and_direction(ea.p1 - ea.p0).map_or(Vec3::ZERO, |(_, u)| u);
    let on_a = ea.p0 + u * t;
    let (t0, t1) = (u.dot(eb.p0 - ea.p0), u.dot(eb.p1 - ea.p0));
    let along_b = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
    let on_b = eb.p0 + (eb.p1 - eb.p0) * along_b;
    Candidate {
        point: (on_a + on_b) * 0.5,
        depth: -n.dot(on_b - on_a),
        id,
    }
}
