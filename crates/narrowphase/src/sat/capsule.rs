//! Queries with a capsule: a core segment swept by a ball of radius `r`.
//!
//! Sweeping by a ball adds `r` to every support distance, so a capsule pair is its core
//! pair with the radii taken off: `s = s_core − r` (sum of both radii for two
//! capsules), along the same axis. Each query below finds the **exact** separation of
//! the core pair, so the depths are exact (no preference between axes but the one
//! described for polytopes).
//!
//! * **capsule–capsule**: the closest points `c_a`, `c_b` of the two segments
//!   (Ericson §5.1.9, in `f64`): `s = |c_b − c_a| − r_a − r_b` along
//!   `n = (c_b − c_a) / |c_b − c_a|`. Crossing segments (`|c_b − c_a| = 0`) have
//!   penetration `r_a + r_b` along the normal of the plane they span (`d_a × d_b`, or
//!   any direction across parallel ones), the sign towards b's centre. That is the
//!   only direction with so little overlap: tilted by `φ` out of it, b's core reaches
//!   across a's by up to `φ` times its length. So the cross product is taken in `f64`
//!   from the cores' directions worked out in `f64` from the rotations: the f32 core
//!   directions are off by a few `ε`, which turns `d_a × d_b` by a few `ε / sin θ` for
//!   cores `θ` apart (on two capsules 1e-3 rad apart crossing at their middles, lengths
//!   3.4 and 1.5, the depth along the f32 normal was 5.6e-4 short of the overlap
//!   along it; the properties sweep's k = 1,022,410).
//!
//!   Closest points within the f32 cores' round-off of each other (a few `1e-6` of the
//!   pair's extent) give no direction, yet cores that far apart need not cross: one
//!   core's end may stop that short of the other's side, and then the crossing normal
//!   is off by the whole distance. So such pairs are measured again on the cores
//!   worked out in `f64` from the poses ([`ExactCores`]): their closest points' direction
//!   and distance, down to `1e-8` of the extent, below which the cores are taken as
//!   crossing.
//! * **segment–polytope** (box or hull, the capsule's core brought into the polytope's
//!   frame): the core is a polytope with one edge and no faces, so the Minkowski
//!   difference of polytope and core has as faces the polytope's faces and, for each
//!   edge `e` whose Gauss arc `(n₁, n₂)` crosses the great circle orthogonal to the core
//!   direction `d` (`(n₁·d)(n₂·d) < 0`), the face `m = ±(d × e)`, oriented into the
//!   arc (`m·(n₁ + n₂) > 0`). Their separations:
//!   - face `(n, o)`: `s = min(n·p₀, n·p₁) − o`;
//!   - edge `e = v₀v₁`: `s = m·(p₀ − v₀)` (the polytope's support along `m` is the edge).
//!
//!   The largest is the signed distance of the core when it is not positive (the core
//!   meets the polytope: `−s` is its exact penetration). When it is positive it is only
//!   a lower bound, and the exact distance is found from the features that can carry
//!   the closest pair, a vertex against a face or an edge against an edge: the core's
//!   deepest endpoint against the best face (when it projects inside the face polygon,
//!   that face's separation *is* the distance), else against every face (a face split
//!   into nearly coplanar ones can lose the best place by round-off), else the core
//!   against every polytope edge next to a face the core is in front of (a closest
//!   point `y` on edge `e` has `x − y` in the normal cone of `e`, spanned by its two
//!   face normals, so `x` is in front of one of those faces). The normal is then the
//!   closest points' direction. An edge's value assumes the edge supports its axis; on
//!   a thin hull it may not, so the winning edge is checked against the polytope's
//!   support (`SUPPORT_SLACK`).
//!
//! The **preferred** axis of a polytope pair (the one the manifold is built on) is the
//! best face when it is within the feature slop of the exact axis (a capsule lying on a
//! face gets that face's two-point manifold), else the exact axis. Last frame's feature
//! is not used: a capsule query is the same warm or cold.

use super::capsule_box::box_capsule;
use super::{Axis, EXACT_CROSS, FEATURE_SLOP, Frame, SatOutcome, length_and_direction};
use crate::Feature;
use crate::math::{
    closest_point_on_triangle_f64, closest_points_on_segments_f64,
    closest_points_on_segments_f64_inlined, unit_cross_f64,
};
use crate::polytope::Polytope;
use crate::solid::Solid;
use glam::{DVec3, Vec3};

/// Edges whose direction is closer to the core's than this (`|d × e| ≤ k|d||e|`) are
/// measured by the polytope's support rather than by the edge (see `polytope_capsule`);
/// below [`EXACT_CROSS`] their axis is taken in f64 ([`unit_cross_f64`]), as the
/// polytope test's edges are.
const PARALLEL: f32 = crate::sat::PARALLEL_EDGES;

/// An edge axis whose edge value exceeds the polytope's support value along it by more
/// than this fraction of the pair's extent (round-off: the two are the same dot products
/// when the edge supports the axis) is not supported by its edge. Against a sliver hull
/// (a corner of it 24 out, the rest within 0.25 of a plane), an edge passed the arc test
/// with an axis along which the hull reaches 0.08 past the edge: a thin capsule 0.082
/// deep was reported 0.002 deep; beside a slab 0.0016 thin, by 0.001: a capsule standing
/// 6e-4 deep over it was reported apart. (The hull–hull query's check, in
/// `hull_hull::edges`, with a round-off threshold: one support scan, and only when an
/// edge axis beats every face.) The same slack bounds how far a closest pair's points
/// may be passed along their direction (`supports_its_points`).
///
/// `2e-7` is about three units of f32 round-off of the extent, the most two such dot
/// products of unit vectors with points inside it differ by. It was `1e-6` until
/// 5 December 2026, and that let a bent merged face through: a capsule lying across
/// the edge of a quad bent by 2.3e-6, its core 1.5e-7 rad off the quad's plane, got the
/// axis `core × edge`, along which the quad's far corner reached 4.3e-6 past the edge
/// (the tilt's lever over the quad's width), within the old slack of 4e-6 of that
/// pair's extent; the gap along the normal was 1.9 bends past the depth
/// (`tests/capsule_oracle.rs`, `capsules_lying_across_a_face_edge_get_the_exact_normal`).
/// A pair the lower slack turns away takes the exact paths (every edge by the support;
/// the closest pair over the faces' vertex triangles), which are right, and only slower:
/// the capsule bench pairs and the pinned capsule and mesh fingerprints do not change.
const SUPPORT_SLACK: f32 = 2e-7;

/// Distances below this fraction of the sizes and offsets involved are round-off of
/// the f32 inputs (a few ulps): their closest points give no direction.
pub(crate) const ROUND_OFF: f64 = 1e-6;

/// The round-off distance of a segment–polytope query (see [`ROUND_OFF`]).
fn tiny_distance(poly: &Polytope, core: Core) -> f64 {
    ROUND_OFF * (poly.radius as f64 + core.p0.length() as f64 + core.p1.length() as f64)
}

/// A capsule's core segment and radius, in the frame a query works in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    pub p0: Vec3,
    pub p1: Vec3,
    pub radius: f32,
}

impl Core {
    /// The core of a capsule of half height `h` and radius `r` in its own frame.
    pub fn local(h: f32, r: f32) -> Core {
        Core {
            p0: Vec3::new(0.0, -h, 0.0),
            p1: Vec3::new(0.0, h, 0.0),
            radius: r,
        }
    }

    /// The core of b's capsule (half height `h`, radius `r`) in a's frame.
    pub fn of_b(frame: &Frame, h: f32, r: f32) -> Core {
        let top = frame.rot.y_axis * h;
        Core {
            p0: frame.trans - top,
            p1: frame.trans + top,
            radius: r,
        }
    }
}

/// A capsule query's outcome, with the closest points behind the exact axis when they
/// were found (a's side: a's core or the polytope's surface; b's side: b's core), which
/// the manifold reuses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CapsuleOutcome {
    pub outcome: SatOutcome,
    pub witness: Option<(Vec3, Vec3)>,
}

/// The query of a pair with a capsule and no sphere, in a's frame.
pub(crate) fn capsule_query(a: &Solid, b: &Solid, frame: &Frame, margin: f32) -> CapsuleOutcome {
    let slop = FEATURE_SLOP * a.inner_radius().min(b.inner_radius());
    match (a, b) {
        (Solid::Capsule(ha, ra), Solid::Capsule(hb, rb)) => capsule_capsule(
            Core::local(*ha, *ra),
            Core::of_b(frame, *hb, *rb),
            margin,
            // a's core lies along its y axis; b's along the frame's (rounded) one: the
            // frame is all there is here.
            || ExactCores {
                a: (
                    DVec3::new(0.0, -*ha as f64, 0.0),
                    DVec3::new(0.0, 2.0 * *ha as f64, 0.0),
                ),
                b: {
                    let axis = frame.rot.y_axis.as_dvec3() * *hb as f64;
                    (frame.trans.as_dvec3() - axis, 2.0 * axis)
                },
            },
        ),
        (_, Solid::Capsule(h, r)) => solid_capsule(a, Core::of_b(frame, *h, *r), margin, slop),
        (Solid::Capsule(h, r), _) => {
            // The canonical pair order puts capsules after polytopes, so this runs only
            // when called out of that order: the query runs in b's frame and is mirrored.
            let inverse = frame.inverse();
            let q = solid_capsule(b, Core::of_b(&inverse, *h, *r), margin, slop);
            let outcome = match q.outcome {
                SatOutcome::Separated(axis) => SatOutcome::Separated(flip_axis(&axis, frame)),
                SatOutcome::Overlap { exact, preferred } => SatOutcome::Overlap {
                    exact: flip_axis(&exact, frame),
                    preferred: flip_axis(&preferred, frame),
                },
            };
            let witness = q
                .witness
                .map(|(on_b, on_a)| (frame.point_to_a(on_a), frame.point_to_a(on_b)));
            CapsuleOutcome { outcome, witness }
        }
        _ => unreachable!("a capsule query needs a capsule"),
    }
}

/// A box or hull (in its own frame) against a capsule's core in that frame.
fn solid_capsule(solid: &Solid, core: Core, margin: f32, slop: f32) -> CapsuleOutcome {
    match solid {
        Solid::Box(h) => box_capsule(*h, core, margin, slop),
        _ => solid.with_polytope(|poly| {
            let poly = poly.expect("spheres and capsules are handled before polytopes");
            polytope_capsule(poly, core, margin, slop)
        }),
    }
}

/// An axis of the pair seen from the other shape: `frame` takes the frame the axis is
/// in to the other one's (its `rot` maps the axis' frame into the target frame).
pub(crate) fn flip_axis(axis: &Axis, frame: &Frame) -> Axis {
    Axis {
        separation: axis.separation,
        normal: frame.rot * -axis.normal,
        feature: axis.feature.flipped(),
    }
}

fn finish(
    exact: Axis,
    preferred: Axis,
    margin: f32,
    witness: Option<(Vec3, Vec3)>,
) -> CapsuleOutcome {
    let outcome = if exact.separation > margin {
        SatOutcome::Separated(exact)
    } else {
        SatOutcome::Overlap { exact, preferred }
    };
    CapsuleOutcome { outcome, witness }
}

/// A polytope–capsule outcome from the core pair's `exact` axis and best `face` (their
/// separations of the core): the radius taken off both, and the face preferred when it
/// is within `slop` of the exact axis (see the module docs).
pub(crate) fn finish_core(
    mut exact: Axis,
    mut face: Axis,
    radius: f32,
    slop: f32,
    margin: f32,
    witness: Option<(Vec3, Vec3)>,
) -> CapsuleOutcome {
    exact.separation -= radius;
    face.separation -= radius;
    let preferred = if face.separation >= exact.separation - slop {
        face
    } else {
        exact
    };
    finish(exact, preferred, margin, witness)
}

/// Both cores of a capsule pair in `f64`, worked out from the poses as given rather
/// than from the rounded f32 cores: each as `(start, start to end)`, in the frame the
/// f32 cores are in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExactCores {
    pub a: (DVec3, DVec3),
    pub b: (DVec3, DVec3),
}

/// Closest points of the exact cores nearer than this fraction of the pair's extent
/// `E` give no direction either: `f64` closest points are good to about `1e-15 E`, so
/// their direction to `1e-15 E / D` at a distance `D`, and turned in the plane of the
/// cores by that it costs up to a core's length (`≤ E`) times it. From `D = 1e-8 E` on,
/// that is below the f32 inputs' own round-off (`1e-7 E`); below it, the crossing
/// normal is off by at most `D`.
const EXACT_ROUND_OFF: f64 = 1e-8;

/// Capsule a against capsule b, both cores in one frame centred on a's centre;
/// `exact` gives both cores in `f64` from the poses (see [`ExactCores`]), asked for
/// only when the f32 cores' closest points are within their round-off (see the module
/// docs).
#[inline(always)]
pub(crate) fn capsule_capsule(
    a: Core,
    b: Core,
    margin: f32,
    exact: impl FnOnce() -> ExactCores,
) -> CapsuleOutcome {
    let (on_a, on_b) = closest_points_on_segments_f64_inlined(
        a.p0.as_dvec3(),
        (a.p1 - a.p0).as_dvec3(),
        b.p0.as_dvec3(),
        (b.p1 - b.p0).as_dvec3(),
    );
    let radii = a.radius as f64 + b.radius as f64;
    let offset = on_b - on_a;
    let distance = offset.length();
    // Closest points nearer than the inputs' round-off say nothing about a direction.
    // (Sizes by their largest component: no square roots.)
    let size = |v: Vec3| v.abs().max_element() as f64;
    let extent = size(a.p1 - a.p0) + size(b.p1 - b.p0) + size(b.p0);
    // An f64 unit vector rounded to f32 is unit to f32 precision: no second
    // normalisation. (`extent ≥ 0`, so the division is by a positive length.)
    let (normal, distance, on_a, on_b) = if distance > ROUND_OFF * 2.0 * extent {
        ((offset * distance.recip()).as_vec3(), distance, on_a, on_b)
    } else {
        closest_of_exact_cores(exact(), extent, (b.p0 + b.p1) * 0.5)
    };
    let axis = Axis {
        separation: (distance - radii) as f32,
        normal,
        feature: Feature::EdgeEdge(0, 0),
    };
    finish(axis, axis, margin, Some((on_a.as_vec3(), on_b.as_vec3())))
}

/// The normal, distance and closest points of cores whose f32 closest points are
/// within round-off (see the module docs): measured again on the exact cores, the
/// direction of their closest points when those are more than [`EXACT_ROUND_OFF`] ×
/// `extent` apart, else the [`crossing_normal`]. (From the f32 cores, a pair whose
/// cores pass 7e-6 apart end to side, on capsules of size 2.5, got the crossing normal,
/// along which the depth was 7e-6 short: the capsule oracle's seed xor 5151.)
#[cold]
#[inline(never)]
fn closest_of_exact_cores(
    exact: ExactCores,
    extent: f64,
    towards: Vec3,
) -> (Vec3, f64, DVec3, DVec3) {
    let ((pa, da), (pb, db)) = (exact.a, exact.b);
    let (on_a, on_b) = closest_points_on_segments_f64(pa, da, pb, db);
    let offset = on_b - on_a;
    let distance = offset.length();
    let normal = if distance > EXACT_ROUND_OFF * extent {
        (offset / distance).as_vec3()
    } else {
        crossing_normal(da, db, towards)
    };
    (normal, distance, on_a, on_b)
}

/// The normal of two cores that meet, from their directions `da`, `db` in `f64`:
/// across the plane they span (their cross product in `f64`, rounded once), else,
/// parallel to `f64` precision, across the longer one, else any direction; the sign
/// towards b's centre `towards`.
fn crossing_normal(da: DVec3, db: DVec3, towards: Vec3) -> Vec3 {
    let n = unit_cross_f64(da, db)
        .or_else(|| {
            let along = if da.length_squared() >= db.length_squared() {
                da
            } else {
                db
            };
            length_and_direction(along.as_vec3().any_orthogonal_vector()).map(|(_, n)| n)
        })
        .unwrap_or(Vec3::X);
    if n.dot(towards) < 0.0 { -n } else { n }
}

/// The polytope `poly` (shape a) against a capsule whose core is given in a's frame.
/// `slop` is the feature slop of the preference (see the module docs).
pub(crate) fn polytope_capsule(
    poly: &Polytope,
    core: Core,
    margin: f32,
    slop: f32,
) -> CapsuleOutcome {
    let Core { p0, p1, radius } = core;
    // Faces of the polytope: the core's lowest endpoint against the plane.
    let mut face = Axis {
        separation: f32::NEG_INFINITY,
        normal: Vec3::Y,
        feature: Feature::FaceA(0),
    };
    for (f, plane) in poly.planes.iter().enumerate() {
        let s = plane.normal.dot(p0).min(plane.normal.dot(p1)) - plane.offset;
        if s > face.separation {
            face = Axis {
                separation: s,
                normal: plane.normal,
                feature: Feature::FaceA(f as u32),
            };
        }
    }
    // Edges whose arc crosses the core's great circle: Minkowski faces `±(d × e)`, each
    // by its edge's value. On a thin hull the winner's edge may not support its axis
    // (see `SUPPORT_SLACK`): then every edge is measured by the polytope's support.
    let mut edge = best_edge_axis(poly, core, false);
    if let Some(best) = edge
        && best.separation > face.separation
    {
        let m = best.normal;
        let measured = m.dot(p0).min(m.dot(p1)) - poly.support(m).1;
        let scale = poly.radius + p0.length() + p1.length();
        if best.separation - measured > SUPPORT_SLACK * scale {
            edge = best_edge_axis(poly, core, true);
        }
    }
    let mut exact = match edge {
        Some(e) if e.separation > face.separation => e,
        _ => face,
    };
    let mut witness = None;
    if exact.separation > 0.0 && exact.separation - radius <= margin {
        // The core is outside: the exact distance from the closest features.
        let Feature::FaceA(f) = face.feature else {
            unreachable!("the face axis is a face of a")
        };
        let n = face.normal;
        let low = if n.dot(p0) <= n.dot(p1) { p0 } else { p1 };
        let foot = low - n * face.separation;
        // A face the core's lowest endpoint is in front of and over: its separation is
        // the endpoint's distance, which no lower bound exceeds.
        if face.separation > 0.0 && poly.projects_inside(f as usize, foot) {
            exact = face;
            witness = Some((foot, low));
        } else if let Some((over, foot, low)) = face_over(poly, core) {
            exact = over;
            witness = Some((foot, low));
        } else if let Some((feature, on_poly, on_core, distance)) = closest_edge(poly, core)
            .filter(|c| supports_its_points(poly, core, c))
            .or_else(|| closest_on_faces(poly, core))
        {
            // The closest points' direction, unless they are so close that it is
            // round-off: then the SAT's axis, whose separation is within that distance.
            let direction = ((on_core - on_poly) / distance).as_vec3().try_normalize();
            if let Some(direction) = direction.filter(|_| distance > tiny_distance(poly, core)) {
                exact = Axis {
                    separation: distance as f32,
                    normal: direction,
                    feature,
                };
            } else {
                exact.separation = distance as f32;
            }
            witness = Some((on_poly.as_vec3(), on_core.as_vec3()));
        }
    }
    finish_core(exact, face, radius, slop, margin, witness)
}

/// The best Minkowski-face axis `m = ±(d × e)` of the core and the polytope's edges
/// whose Gauss arcs cross the core's great circle (see the module docs), each measured
/// by its edge, `m·(p₀ − v₀)`, or, with `by_support` (and always for an edge nearly
/// parallel to the core), by the polytope's support along `m`: `min(m·p₀, m·p₁) −
/// max m·v`. The edge's value bounds the support's from above and equals it when the
/// edge supports `m`.
#[inline]
fn best_edge_axis(poly: &Polytope, core: Core, by_support: bool) -> Option<Axis> {
    let Core { p0, p1, .. } = core;
    let d = p1 - p0;
    let mut edge: Option<Axis> = None;
    let d_length_squared = d.length_squared();
    for (e, hull_edge) in poly.edges.iter().enumerate() {
        let n1 = poly.planes[hull_edge.faces[0] as usize].normal;
        let n2 = poly.planes[hull_edge.faces[1] as usize].normal;
        if n1.dot(d) * n2.dot(d) >= 0.0 {
            continue;
        }
        let v0 = poly.vertices[hull_edge.vertices[0] as usize];
        let along = poly.vertices[hull_edge.vertices[1] as usize] - v0;
        let m = d.cross(along);
        let m_length_squared = m.length_squared();
        // (Written so that a NaN length skips the edge.)
        let scale = d_length_squared * along.length_squared();
        let spans = m_length_squared > (PARALLEL * PARALLEL) * scale;
        let Some(mut m) = (if m_length_squared > (EXACT_CROSS * EXACT_CROSS) * scale {
            Some(m / m_length_squared.sqrt())
        } else {
            unit_cross_f64(d.as_dvec3(), along.as_dvec3())
        }) else {
            continue;
        };
        // Out of the polytope: along the middle of the edge's Gauss arc (from the edge
        // on an obtuse one, where `n1 + n2` is short and mostly round-off).
        let middle = if n1.dot(n2) >= 0.0 {
            n1 + n2
        } else {
            along.cross(n1 - n2)
        };
        if m.dot(middle) < 0.0 {
            m = -m;
        }
        // The arc test's signs are round-off for a core nearly parallel to the edge,
        // so there the edge need not support `m`: the polytope's own support does.
        let s = if spans && !by_support {
            m.dot(p0 - v0)
        } else {
            m.dot(p0).min(m.dot(p1)) - poly.support(m).1
        };
        if edge.is_none_or(|best| s > best.separation) {
            edge = Some(Axis {
                separation: s,
                normal: m,
                feature: Feature::EdgeEdge(e as u32, 0),
            });
        }
    }
    edge
}

/// The best face whose plane the core's lowest endpoint along it is in front of (or on,
/// within round-off) and over (its foot inside the face polygon): `(axis, foot,
/// endpoint)`; `None` when no face has it.
///
/// Such a face's separation is the core's distance: the foot is a point of the
/// polytope `s` away, and no face axis exceeds the distance. The best face by
/// separation is that face whenever one exists, up to round-off: on a thin hull whose
/// side is split into nearly coplanar faces, a neighbour rounded a hair higher and the
/// endpoint lay over another, so the query fell to the edges and reported a capsule
/// 30.75 deep in a slab as 28.38 deep (its nearest edge 2.6 away). This scan, run only
/// when the best face fails, finds it.
fn face_over(poly: &Polytope, core: Core) -> Option<(Axis, Vec3, Vec3)> {
    // An endpoint within round-off behind the plane counts as on it: a core lying in the
    // face of a slab 0.0016 thin read 2e-5 inside it, while an edge's axis read 1e-4
    // outside, and the edges alone put it 2.3 away. The round-off of `n·p − offset` is
    // the plane's and the endpoint's, not the polytope's size: against a box 2e19 long,
    // a band of 1e-6 of its size took an endpoint 2.35 behind a face as on it.
    let round_off = ROUND_OFF as f32;
    let mut best: Option<(Axis, Vec3, Vec3)> = None;
    for (f, plane) in poly.planes.iter().enumerate() {
        let n = plane.normal;
        let low = if n.dot(core.p0) <= n.dot(core.p1) {
            core.p0
        } else {
            core.p1
        };
        let separation = n.dot(low) - plane.offset;
        let foot = low - n * separation;
        let on_plane = -round_off * (plane.offset.abs() + low.length());
        if separation > on_plane
            && best.is_none_or(|(b, _, _)| separation > b.separation)
            && poly.projects_inside(f, foot)
        {
            let axis = Axis {
                separation,
                normal: n,
                feature: Feature::FaceA(f as u32),
            };
            best = Some((axis, foot, low));
        }
    }
    best
}

/// A closest pair candidate: `(feature, point on the polytope, point on the core,
/// distance)`, in `f64`.
type Closest = (Feature, DVec3, DVec3, f64);

/// The polytope edge closest to the core, among the edges next to a face the core is in
/// front of (`Feature::EdgeEdge(edge, 0)`).
fn closest_edge(poly: &Polytope, core: Core) -> Option<Closest> {
    let in_front = |f: u32| {
        let plane = poly.planes[f as usize];
        plane
            .signed_distance(core.p0)
            .max(plane.signed_distance(core.p1))
            > 0.0
    };
    let (c0, cd) = (core.p0.as_dvec3(), (core.p1 - core.p0).as_dvec3());
    let mut best: Option<Closest> = None;
    for (e, hull_edge) in poly.edges.iter().enumerate() {
        if !(in_front(hull_edge.faces[0]) || in_front(hull_edge.faces[1])) {
            continue;
        }
        let v0 = poly.vertices[hull_edge.vertices[0] as usize].as_dvec3();
        let v1 = poly.vertices[hull_edge.vertices[1] as usize].as_dvec3();
        let (on_poly, on_core) = closest_points_on_segments_f64(v0, v1 - v0, c0, cd);
        let distance = (on_core - on_poly).length();
        if best.is_none_or(|b| distance < b.3) {
            best = Some((Feature::EdgeEdge(e as u32, 0), on_poly, on_core, distance));
        }
    }
    best.filter(|b| b.3 > 0.0)
}

/// Whether a closest pair candidate is the closest pair of the core and the polytope
/// as far as the support can tell: along the direction `u` from its polytope point to
/// its core point, no vertex reaches past the polytope point and no core endpoint falls
/// short of the core point, by more than round-off. Points closer than round-off give
/// no direction and pass.
///
/// In general position the edges next to the faces the core is in front of hold the
/// closest pair, and this holds. It fails on a hull whose merged faces bend: the planes
/// of a slab 0.0016 thin and 60 wide, each fitted to its vertices within the builder's
/// tolerance, put a capsule's core lying 7.5e-5 under the slab 2e-4 inside, so no face
/// had it in front and the nearest edge counted was 3.5 away: a capsule 0.4999 deep
/// was reported apart.
fn supports_its_points(poly: &Polytope, core: Core, closest: &Closest) -> bool {
    let &(_, on_poly, on_core, distance) = closest;
    if distance <= tiny_distance(poly, core) {
        return true;
    }
    let u = ((on_core - on_poly) / distance).as_vec3();
    let slack = SUPPORT_SLACK * (poly.radius + core.p0.length() + core.p1.length());
    let (on_poly, on_core) = (on_poly.as_vec3(), on_core.as_vec3());
    poly.support(u).1 - u.dot(on_poly) <= slack
        && u.dot(core.p0).min(u.dot(core.p1)) - u.dot(on_core) >= -slack
}

/// The closest pair of the core and the hull of the polytope's vertices, whichever way
/// its merged faces bend: each core endpoint against every triangle of three vertices
/// of a face (`Feature::FaceA(face)`), and the core against every segment between two
/// vertices of a face (`Feature::FaceA(face)` too: a diagonal is no edge of the hull's
/// tables). These pieces cover the true facets of a bent face (some triangulation of
/// its vertices), so the smallest is the distance. Cubic in a face's vertex count:
/// only for the pairs [`supports_its_points`] turns away.
fn closest_on_faces(poly: &Polytope, core: Core) -> Option<Closest> {
    let (c0, c1) = (core.p0.as_dvec3(), core.p1.as_dvec3());
    let vertex = |i: u32| poly.vertices[i as usize].as_dvec3();
    let mut best: Option<Closest> = None;
    let mut offer = |candidate: Closest| {
        if best.is_none_or(|b| candidate.3 < b.3) {
            best = Some(candidate);
        }
    };
    for f in 0..poly.planes.len() {
        let face = poly.face(f);
        let feature = Feature::FaceA(f as u32);
        for (i, &u) in face.iter().enumerate() {
            for (j, &v) in face.iter().enumerate().skip(i + 1) {
                let (on_poly, on_core) =
                    closest_points_on_segments_f64(vertex(u), vertex(v) - vertex(u), c0, c1 - c0);
                offer((feature, on_poly, on_core, (on_core - on_poly).length()));
                for &w in &face[j + 1..] {
                    let triangle = [vertex(u), vertex(v), vertex(w)];
                    for end in [c0, c1] {
                        let on_poly = closest_point_on_triangle_f64(end, triangle);
                        offer((feature, on_poly, end, (end - on_poly).length()));
                    }
                }
            }
        }
    }
    best.filter(|b| b.3 > 0.0)
}
