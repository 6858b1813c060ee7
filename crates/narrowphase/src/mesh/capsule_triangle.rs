//! Capsule against triangle, in the capsule's frame: the distance from the core segment
//! to the triangle, a separating-axis test when the core crosses it, and up to two
//! points where the capsule lies along the face.
//!
//! The capsule is its core `p₀ p₁` (along its local y, `p₀ = −h y`, `p₁ = h y`) swept by
//! a ball of radius `r`, so every separation is the core's minus `r`. With the triangle's
//! corners `t_i`, front normal `n`, offset `o`, its edges `e_i = t_{i+1} − t_i`:
//! * **one-sided**: the capsule's centre (the origin) behind the plane (`o > 0`) gives
//!   no contact;
//! * **verdict**: the exact distance `D` between the core and the triangle (Ericson,
//!   *Real-Time Collision Detection* §5.1.10: when the core does not cross the triangle,
//!   the closest pair is an endpoint and its closest point of the triangle
//!   (`sphere_triangle`), or the core and an edge): apart when `D − r > margin`;
//! * **exact axis**, apart (`D > 0`): the closest points' direction `u` (triangle →
//!   core; the front normal on the face), separation `D − r`, when `u · n ≥ 0`; an
//!   edge's points closer than 1 % of the scale are measured again from the triangle's
//!   exact corners, in f64, since a short offset's direction is otherwise mostly the
//!   rounded corners' round-off;
//! * **exact axis**, the core crossing the triangle, or its closest points pointing
//!   behind the plane (an endpoint below the plane, beside an edge): the largest gap
//!   over the eligible axes (`L · n ≥ 0`) of the core–triangle Minkowski difference,
//!   whose faces are `±n` and `±(d × e_i)` (`d = p₁ − p₀`; the triangle's flat faces
//!   make no difference to the capsule's single edge, as for the polytope test). Along
//!   `l = (d × e_i)/|…|` the core is one value `c = l · p₀` and edge `i` one value
//!   `l · t_i`, so `up = c − max(l·t_i, l·t_{i+2})`, `down = min(…) − c`; along `n`,
//!   `min(n·p₀, n·p₁) − o`. A line within `EXACT_CROSS` of the core takes its
//!   direction in f64 from the triangle's exact edge (`ExactTriangle`);
//! * **preferred**: the face (`n`) when its separation is within the feature slop of
//!   the exact one, else the exact axis (the rule of `sat::capsule`).
//!
//! Points: for the face, the core clipped by the triangle's side planes (outward
//! `s_i = e_i × n`, pushed out by the clip tolerance), both ends kept within the margin,
//! each with its own depth `r − (n·x − o)`; the exact axis takes over when that leaves
//! nothing, or only points shallower than the exact depth by more than the tolerance.
//! Otherwise one point, from the core point `x` of the exact axis: halfway between the
//! surfaces, `x − L (r − depth/2)`. An inactive edge or corner gives the face's points
//! (depths along `n`, the part over this triangle); with nothing over the triangle, the
//! core point nearest the triangle, its depth along `n`, as a sphere keeps its point.

use super::internal_edges::{is_active, support_feature};
use super::local::{ExactTriangle, LocalTriangle};
use super::patch::Patch;
use super::sphere_triangle::{TriangleFeature, closest_point};
use crate::Feature;
use crate::manifold::reduce::Candidate;
use crate::math::{closest_points_on_segments_f64, unit_cross_f64};
use crate::sat::capsule::{Core, ROUND_OFF};
use crate::sat::{Axis, EXACT_CROSS, FEATURE_SLOP};
use glam::{DVec3, Vec3};
use smallvec::SmallVec;

/// The one-sided test of a capsule's core (its own frame) against a triangle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CapsuleTriangle {
    /// The exact axis (separation `D − r` apart, minus the depth in contact).
    pub exact: Axis,
    /// The triangle's feature the exact axis lies on.
    pub on: TriangleFeature,
    /// The core point behind the exact axis.
    pub on_core: Vec3,
    /// The front normal's axis: `min(n·p₀, n·p₁) − o − r`.
    pub face: Axis,
    /// The verdict's gap `D − r`: positive when the capsule is apart from the triangle
    /// (within the margin), even where the eligible axes read as an overlap.
    pub gap: f32,
}

/// The test (see the module docs): `None` with the centre behind the plane or apart
/// beyond `margin`.
pub(crate) fn capsule_triangle(
    core: &Core,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
) -> Option<CapsuleTriangle> {
    let (n, o) = (tri.normal, tri.offset);
    if o > 0.0 {
        return None;
    }
    let Core { p0, p1, radius } = *core;
    let face = Axis {
        separation: n.dot(p0).min(n.dot(p1)) - o - radius,
        normal: n,
        feature: Feature::FaceA(0),
    };
    let tiny = ROUND_OFF as f32 * (tri.size() + tri.vertices[0].abs().max_element() + p1.length());
    let (on_core, feature, exact_offset) = closest_points(tri, tri64, (p0, p1), tiny as f64);
    let exact_distance = exact_offset.length();
    let (offset, distance) = (exact_offset.as_vec3(), exact_distance as f32);
    if distance - radius > margin {
        return None;
    }
    if feature == TriangleFeature::Face && distance > tiny {
        // Over the face: the distance is the endpoint's height.
        let exact = Axis {
            separation: distance - radius,
            ..face
        };
        return Some(CapsuleTriangle {
            exact,
            on: TriangleFeature::Face,
            on_core,
            face,
            gap: distance - radius,
        });
    }
    if distance > tiny && offset.dot(n) >= 0.0 {
        let exact = Axis {
            separation: distance - radius,
            normal: (exact_offset / exact_distance).as_vec3(),
            feature: edge_feature(feature),
        };
        return Some(CapsuleTriangle {
            exact,
            on: feature,
            on_core,
            face,
            gap: distance - radius,
        });
    }
    // Crossing (or closest points pointing behind the plane): the eligible SAT.
    let mut exact = face;
    let d = p1 - p0;
    let t = tri.vertices;
    for i in 0..3 {
        let e = t[(i + 1) % 3] - t[i];
        let l = d.cross(e);
        let length_squared = l.length_squared();
        // (Written so that a NaN length skips the line.) Below `f32::MIN_POSITIVE` the
        // square is subnormal and its root too coarse to normalise by (a core 4e-23
        // long gave a normal 1.001 long), and an infinite one (a core 1e13 long across
        // an edge 1e6 long) gave a zero normal: f64 takes both, as near-parallel lines.
        let spans = length_squared
            > EXACT_CROSS * EXACT_CROSS * d.length_squared() * e.length_squared()
            && (f32::MIN_POSITIVE..f32::INFINITY).contains(&length_squared);
        let l = if spans {
            l / length_squared.sqrt()
        } else {
            // Nearly parallel: the f32 cross product loses its direction.
            match unit_cross_f64(d.as_dvec3(), tri64.edge(i)) {
                Some(l) => l,
                None => continue,
            }
        };
        let (c, p, q) = (l.dot(p0), l.dot(t[i]), l.dot(t[(i + 2) % 3]));
        let l_dot_n = l.dot(n);
        if l_dot_n >= 0.0 && c - p.max(q) - radius > exact.separation {
            exact = Axis {
                separation: c - p.max(q) - radius,
                normal: l,
                feature: Feature::EdgeEdge(i as u32, 0),
            };
        }
        if l_dot_n <= 0.0 && p.min(q) - c - radius > exact.separation {
            exact = Axis {
                separation: p.min(q) - c - radius,
                normal: -l,
                feature: Feature::EdgeEdge(i as u32, 0),
            };
        }
    }
    if exact.feature == face.feature {
        // The deepest point of the core along the front normal.
        let low = if n.dot(p0) <= n.dot(p1) { p0 } else { p1 };
        return Some(CapsuleTriangle {
            exact,
            on: TriangleFeature::Face,
            on_core: low,
            face,
            gap: distance - radius,
        });
    }
    let on = support_feature(tri, exact.normal);
    exact.feature = edge_feature(on);
    let on_core = match on {
        TriangleFeature::Edge(i) => {
            let (a, b) = tri.edge(i as usize);
            closest_points_on_segments_f64(
                p0.as_dvec3(),
                d.as_dvec3(),
                a.as_dvec3(),
                (b - a).as_dvec3(),
            )
            .0
            .as_vec3()
        }
        TriangleFeature::Vertex(j) => {
            let v = t[j as usize];
            let s = ((v - p0).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            if s.is_finite() { p0 + d * s } else { p0 }
        }
        TriangleFeature::Face => on_core,
    };
    Some(CapsuleTriangle {
        exact,
        on,
        on_core,
        face,
        gap: distance - radius,
    })
}

/// Relative slack of [`boxes_apart`]: far above the round-off of the exact distance
/// (a few `1e-7` of the coordinates), so the early-out never decides a pair that the
/// distance would have kept.
const BOX_SLACK: f32 = 1e-4;

/// The cheap early-out of [`capsule_patch`] (before [`capsule_triangle`]): are the
/// triangle's box and the capsule's box (its core's, grown by the radius) apart along a
/// coordinate axis by more than `margin` plus [`BOX_SLACK`] of the largest coordinate?
/// Such a gap is a lower bound of the distance between the two sets, so the exact test
/// would find them apart too: the answer is the same, for a few dozen instructions
/// instead of about 1,000 (on the terrain scene, with lying capsules turned about the
/// vertical, a few triangles of each pair).
#[inline]
fn boxes_apart(core: &Core, tri: &LocalTriangle, margin: f32) -> bool {
    let [a, b, c] = tri.vertices;
    let (tri_lo, tri_hi) = (a.min(b).min(c), a.max(b).max(c));
    let r = Vec3::splat(core.radius);
    let (cap_lo, cap_hi) = (core.p0.min(core.p1) - r, core.p0.max(core.p1) + r);
    let gap = (tri_lo - cap_hi).max(cap_lo - tri_hi).max_element();
    // (The slack only when the gap is there: the common touching case skips it.)
    gap > margin && {
        let scale = tri_lo
            .abs()
            .max(tri_hi.abs())
            .max(cap_hi.abs())
            .max(cap_lo.abs());
        gap > margin + BOX_SLACK * scale.max_element()
    }
}

/// The feature a capsule's triangle axis reports: the face, or `EdgeEdge(edge, 0)` for
/// an edge or a corner (the edge leaving that corner).
fn edge_feature(on: TriangleFeature) -> Feature {
    match on {
        TriangleFeature::Face => Feature::FaceA(0),
        TriangleFeature::Edge(i) | TriangleFeature::Vertex(i) => Feature::EdgeEdge(i as u32, 0),
    }
}

/// The closest point of the core `p₀ p₁`, the triangle's feature and the offset from
/// the triangle's closest point to the core's, in f64 (see the module docs). A short
/// offset from an edge is measured from the triangle's exact corners: its direction is
/// the contact normal. `tiny` is the round-off of the distances (see below).
///
/// Near an edge, an endpoint over the face and the core's pair with the edge differ in
/// distance by `δ²/2h` (`δ` the endpoint's distance inside the edge, `h` its height)
/// while their directions differ by `δ/h`, and the winner's direction is the contact
/// normal. Measured on the triangle's corners as rounded to f32 in the core's frame,
/// the distances are good to a few 1e-7 of the scale, so a pair closer than `tiny`
/// there is measured again in the triangle's exact geometry (its corners placed in
/// f64, `ExactTriangle`), good to about 1e-15, and the face keeps only a tie within
/// `tiny · 1e-6`. (The rounded corners decided before: with a margin of `1e-6 h²` on
/// the squares, an edge pair 3e-4 rad off the face normal won by round-off at
/// `h = 0.09`, its gap 2e-4 short (triangle oracle, seed xor 90001); with a margin of
/// `tiny`, the face kept its place over an edge pair 1.4e-6 closer, and the gap along
/// the face normal fell 2.7e-5 short of the depth, the core being tilted off the face
/// (seed xor 1).)
fn closest_points(
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    (p0, p1): (Vec3, Vec3),
    tiny: f64,
) -> (Vec3, TriangleFeature, DVec3) {
    let (n, o) = (tri.normal, tri.offset);
    let (h0, h1) = (n.dot(p0) - o, n.dot(p1) - o);
    if (h0 <= 0.0) != (h1 <= 0.0) {
        // The core crosses the plane: does it cross inside the triangle?
        let q = p0 + (p1 - p0) * (h0 / (h0 - h1));
        let inside = (0..3).all(|i| {
            let (a, b) = tri.edge(i);
            (b - a).cross(n).dot(q - a) <= 0.0
        });
        if inside {
            return (q, TriangleFeature::Face, DVec3::ZERO);
        }
    }
    // An endpoint over the face; an endpoint closest to an edge or corner is also the
    // core's closest pair with that edge, found below.
    let mut face: Option<(Vec3, DVec3)> = None;
    for p in [p0, p1] {
        let (y, feature) = closest_point(tri, p);
        let offset = p.as_dvec3() - y.as_dvec3();
        if feature == TriangleFeature::Face
            && face.is_none_or(|(_, best)| offset.length_squared() < best.length_squared())
        {
            face = Some((p, offset));
        }
    }
    // The closest edge pair. (Differences in f64: an edge rounded to f32 moves its
    // points by more than the distances that decide a near tie.)
    let (c0, cd) = (p0.as_dvec3(), p1.as_dvec3() - p0.as_dvec3());
    let (mut x, mut y, mut i, mut edge_squared) = (DVec3::ZERO, DVec3::ZERO, 0, f64::INFINITY);
    for k in 0..3 {
        let (a, b) = tri.edge(k);
        let (a, e) = (a.as_dvec3(), b.as_dvec3() - a.as_dvec3());
        let (xk, yk) = segment_pair(c0, cd, a, e);
        if (xk - yk).length_squared() < edge_squared {
            (x, y, i, edge_squared) = (xk, yk, k, (xk - yk).length_squared());
        }
    }
    // The edge pair, its feature and its points again from the exact corners when
    // short.
    let edge = || {
        let (a, b) = tri.edge(i);
        let (a, e) = (a.as_dvec3(), b.as_dvec3() - a.as_dvec3());
        let feature = feature_at(a, e, y, i);
        short_offset_again(tri, tri64, (c0, cd), (x, feature, x - y, i))
    };
    let Some((p, over)) = face else {
        return edge();
    };
    let face_distance = over.length();
    let below = face_distance - tiny;
    if below > 0.0 && edge_squared < below * below {
        return edge();
    }
    let above = face_distance + tiny;
    if edge_squared > above * above {
        return (p, TriangleFeature::Face, over);
    }
    // A near tie: both again in the exact geometry.
    let corners = [0, 1, 2].map(|k| tri64.corner(k));
    let edges = [0, 1, 2].map(|k| tri64.edge(k));
    // (No exact plane on a triangle flat in f64, which a mesh refuses: the f32 face.)
    let Some(normal) = edges[0].cross(-edges[2]).try_normalize() else {
        return (p, TriangleFeature::Face, over);
    };
    let normal = if normal.dot(n.as_dvec3()) < 0.0 {
        -normal
    } else {
        normal
    };
    let over = normal * normal.dot(p.as_dvec3() - corners[0]);
    let mut best = (p, TriangleFeature::Face, over);
    let tie = tiny * 1e-6;
    let beat = over.length() - tie;
    let mut beat = if beat > 0.0 { beat * beat } else { -1.0 };
    for k in 0..3 {
        let (x, y) = segment_pair(c0, cd, corners[k], edges[k]);
        if (x - y).length_squared() < beat {
            beat = (x - y).length_squared();
            best = (x.as_vec3(), feature_at(corners[k], edges[k], y, k), x - y);
        }
    }
    best
}

/// The feature of edge `k` (from `a` along `e`) that its point `y` lies on: the edge,
/// or a corner at either end.
#[inline]
fn feature_at(a: DVec3, e: DVec3, y: DVec3, k: usize) -> TriangleFeature {
    let s = (y - a).dot(e) / e.length_squared();
    if s <= 0.0 {
        TriangleFeature::Vertex(k as u8)
    } else if s >= 1.0 {
        TriangleFeature::Vertex(((k + 1) % 3) as u8)
    } else {
        TriangleFeature::Edge(k as u8)
    }
}

/// An offset shorter than this fraction of the scale (the core's and the edge's
/// lengths) is measured again from the exact corners (see `closest_points`).
const SHORT_OFFSET: f64 = 1e-2;

/// The edge pair `(x, feature, offset)` of edge `i` found on the rounded corners, its
/// points measured again from the exact corners when the offset is short: the rounded
/// corners decide which edge (their distances are good to round-off) but turn a short
/// offset by their round-off over its length (above a hundredth of the scale, by less
/// than 1e-5 rad).
#[inline(always)]
fn short_offset_again(
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    (c0, cd): (DVec3, DVec3),
    (x, feature, offset, i): (DVec3, TriangleFeature, DVec3, usize),
) -> (Vec3, TriangleFeature, DVec3) {
    let scale = cd.length_squared() + tri.edge_length_squared(i);
    if offset.length_squared() < SHORT_OFFSET * SHORT_OFFSET * scale {
        let (x, y) = segment_pair(c0, cd, tri64.corner(i), tri64.edge(i));
        return (x.as_vec3(), feature, x - y);
    }
    (x.as_vec3(), feature, offset)
}

/// The closest points of segments `p + s d` and `q + t e`, `s, t ∈ [0, 1]`, in f64:
/// the lines' closest points when both parameters fall inside, else the best of the
/// four endpoint projections (the minimum of a convex function over the square lies on
/// its border when not inside). The caller passes differences taken in f64: with the
/// core nearly tangent to the circle an edge sweeps about it, the pair is a flat
/// minimum whose distances differ by less than an f32 edge's rounding while their
/// directions (which the contact normal takes) do not.
///
/// Inside, the points' places along the lines carry the round-off of `det = |d × e|²`
/// (`∝ sin² θ` for lines `θ` apart), and an error `δs` along the core turns the offset
/// `x − y` by `|d| δs / D` at a distance `D`: 6.5e-5 rad for a core 3.8 long 6e-5 rad
/// off an edge, 6e-4 from it (the gap along the normal 5.6e-5 short: the triangle
/// oracle's nearly parallel capsules, seeds xor 5151 and 90001). The offset of two
/// lines' closest points is `r`'s part along their common perpendicular `m = d × e`,
/// so it is taken so, good to f64 precision whatever `θ`; `y` is `x` less it.
#[inline(always)]
fn segment_pair(p: DVec3, d: DVec3, q: DVec3, e: DVec3) -> (DVec3, DVec3) {
    let r = p - q;
    let (dd, ee, de) = (d.dot(d), e.dot(e), d.dot(e));
    let (dr, er) = (d.dot(r), e.dot(r));
    let det = dd * ee - de * de;
    if det > 1e-12 * dd * ee {
        let s = (de * er - dr * ee) / det;
        let t = (dd * er - de * dr) / det;
        let m = d.cross(e);
        let m_squared = m.length_squared();
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) && m_squared > 0.0 {
            let x = p + d * s;
            return (x, x - m * (m.dot(r) / m_squared));
        }
    }
    let onto = |x: DVec3, start: DVec3, along: DVec3, length_squared: f64| {
        let u = if length_squared > 0.0 {
            ((x - start).dot(along) / length_squared).clamp(0.0, 1.0)
        } else {
            0.0
        };
        start + along * u
    };
    let pairs = [
        (p, onto(p, q, e, ee)),
        (p + d, onto(p + d, q, e, ee)),
        (onto(q, p, d, dd), q),
        (onto(q + e, p, d, dd), q + e),
    ];
    let mut best = pairs[0];
    for pair in &pairs[1..] {
        if (pair.0 - pair.1).length_squared() < (best.0 - best.1).length_squared() {
            best = *pair;
        }
    }
    best
}

/// The patch of a capsule against `tri` (see the module docs), its points' ids local to
/// the triangle.
#[inline]
pub(crate) fn capsule_patch(
    core: &Core,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> Option<Patch> {
    if boxes_apart(core, tri, margin) {
        return None;
    }
    let test = capsule_triangle(core, tri, tri64, margin)?;
    let gap = test.gap;
    let slop = FEATURE_SLOP * core.radius;
    let (n, exact) = (tri.normal, test.exact);
    if !is_active(tri, test.on) {
        // An internal edge or corner: the front normal, depths along it. With nothing
        // touching over the face, the core point nearest the triangle, when it is
        // deeper than the margin (or, touching, whatever the margin: a margin's
        // speculative face points do not stand in for it, see
        // `patch::face_points_touching`).
        let mut points = face_points(core, tri, margin, clip_tolerance);
        if points.iter().all(|c| c.depth < 0.0) {
            let depth = core.radius - (n.dot(test.on_core) - tri.offset);
            if points.is_empty() && depth < -margin {
                return None;
            }
            if points.is_empty() || depth >= 0.0 {
                points.clear();
                points.push(core_point(test.on_core, n, core.radius, depth, 0x20));
            }
        }
        return Some(face_patch(tri, points, gap));
    }
    if test.face.separation >= exact.separation - slop {
        let points = face_points(core, tri, margin, clip_tolerance);
        let deepest = points
            .iter()
            .map(|c| c.depth)
            .fold(f32::NEG_INFINITY, f32::max);
        if deepest >= -exact.separation - clip_tolerance {
            return Some(face_patch(tri, points, gap));
        }
    }
    let depth = -exact.separation;
    let code = match test.on {
        TriangleFeature::Face => 0x30,
        TriangleFeature::Edge(i) => 0x31 + i as u64,
        TriangleFeature::Vertex(j) => 0x34 + j as u64,
    };
    let mut patch = Patch {
        normal: exact.normal,
        feature: exact.feature,
        points: SmallVec::from_elem(
            core_point(test.on_core, exact.normal, core.radius, depth, code),
            1,
        ),
        on: test.on,
        tri: *tri,
        buried: false,
        gap: 0.0,
        dropped: None,
        exact: None,
    };
    // Apart with the core's end behind the plane beside an edge, the eligible axes can
    // read as an overlap.
    patch.keep_apart(gap);
    Some(patch)
}

/// The face's patch of `points`, the capsule `gap` apart from the triangle (see
/// `Patch::keep_apart`).
fn face_patch(tri: &LocalTriangle, points: SmallVec<[Candidate; 4]>, gap: f32) -> Patch {
    let mut patch = Patch {
        normal: tri.normal,
        feature: Feature::FaceA(0),
        points,
        on: TriangleFeature::Face,
        tri: *tri,
        buried: false,
        gap: 0.0,
        dropped: None,
        exact: None,
    };
    patch.keep_apart(gap);
    patch
}

/// A point of depth `depth` along `normal` from the core point `x`: halfway between the
/// surfaces.
#[inline]
fn core_point(x: Vec3, normal: Vec3, radius: f32, depth: f32, id: u64) -> Candidate {
    Candidate {
        point: x - normal * (radius - 0.5 * depth),
        depth,
        id,
    }
}

/// The core clipped by the triangle's side planes: its ends within the margin, each at
/// its own depth along the front normal. Ids `0x100 | end << 4 | cut` (`cut` the edge
/// whose side plane cut that end, 3 for the core's own endpoint).
pub(crate) fn face_points(
    core: &Core,
    tri: &LocalTriangle,
    margin: f32,
    clip_tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    let n = tri.normal;
    let d = core.p1 - core.p0;
    let mut ends = [(0.0f32, 3u64), (1.0f32, 3u64)];
    for i in 0..3 {
        let (a, b) = tri.edge(i);
        let side = (b - a).cross(n);
        let start = side.dot(core.p0 - a) - clip_tolerance * side.length();
        let rate = side.dot(d);
        if rate == 0.0 {
            if start > 0.0 {
                return SmallVec::new();
            }
            continue;
        }
        let t = -start / rate;
        if rate > 0.0 {
            if t < ends[1].0 {
                ends[1] = (t, i as u64);
            }
        } else if t > ends[0].0 {
            ends[0] = (t, i as u64);
        }
    }
    let mut points = SmallVec::new();
    if ends[0].0 > ends[1].0 || ends[0].0.is_nan() || ends[1].0.is_nan() {
        return points;
    }
    let depth_at = |t: f32| core.radius - (n.dot(core.p0 + d * t) - tri.offset);
    // One point when what is left is shorter than the clip tolerance: the deeper end.
    let one = (ends[1].0 - ends[0].0) * d.length() <= clip_tolerance;
    let first = if one && depth_at(ends[1].0) > depth_at(ends[0].0) {
        1
    } else {
        0
    };
    let last = if one { first } else { 1 };
    for (end, &(t, cut)) in ends.iter().enumerate().take(last + 1).skip(first) {
        let depth = depth_at(t);
        if depth >= -margin {
            let id = 0x100 | (end as u64) << 4 | cut;
            points.push(core_point(core.p0 + d * t, n, core.radius, depth, id));
        }
    }
    points
}
