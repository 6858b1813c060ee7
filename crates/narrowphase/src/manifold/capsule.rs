//! Contact with a capsule: one point, or two where a capsule lies along a face or along
//! another capsule.
//!
//! Every point is placed as for the other pairs, halfway between the surfaces: with `x`
//! a point of the capsule's core, `n` the normal (a → b) and `depth` the point's depth,
//! b's surface point is `x − n·r` (when the capsule is b) and the point is
//! `x − n·r + n·depth/2`.
//!
//! * **Polytope face** `(n, o)` (the preferred axis is a face of the polytope): the core
//!   `p₀ + t d`, `t ∈ [0, 1]`, is clipped against the face's side planes (edge
//!   `v_k → v_{k+1}` of the loop gives the outward normal `s_k = (v_{k+1} − v_k) × n`,
//!   pushed out by the clip tolerance as in [`super::face`]): each plane bounds `t`
//!   from one side. Both ends of what is left become points, each with its own depth
//!   `r − (n·x − o)`, kept within the margin. When the face is the exact axis, the
//!   deepest of them has the exact depth: the Minkowski face `f − core` holds the
//!   closest point to the origin, so a point of the core at that depth lies over the
//!   face. When the face is only preferred (within the slop) and its points come out
//!   shallower than the exact depth by more than the clip tolerance, the query takes
//!   the exact axis instead (the deepest-point rule of the [module docs](super)).
//!   Ids: the face, incident feature 0 (the core), lines `[end, cut]` where `end` is 0
//!   for the end towards `p₀`, 1 for the other, and `cut` the face edge whose side plane
//!   cut it (`0xfffe` when the core's own endpoint).
//! * **Capsule along capsule** (cores within `PARALLEL_CORES` of parallel): b's core is
//!   clipped to the span of a's (`|y| ≤ h_a`, a's core is its y axis), and both ends
//!   become points, each at depth `r_a + r_b − |x_b − x_a|` with `x_a` the point of
//!   a's core level with `x_b`, placed halfway between the surfaces along `x_b − x_a`
//!   (the cores' own gap there: along the normal instead, slightly skew cores' sideways
//!   offset left a point up to 0.006 beyond half its depth from a capsule); the closest
//!   points join when deeper by more than the clip tolerance. Ids: reference 0, incident 0, lines `[end, 1 if cut by a's end
//!   else 0]`.
//! * **Otherwise** one point from the closest points `(y, x)` of the axis (a point of
//!   the polytope's surface or of a's core, and a point of b's core): depth `−s`, id the
//!   edge–edge form (a's edge or core 0, b's core 0, both lines `0xffff`).

use super::pack_id;
use super::reduce::Candidate;
use crate::Feature;
use crate::frame::Frame;
use crate::math::closest_points_on_segments_f64;
use crate::polytope::{Polytope, next_in_loop};
use crate::sat::Axis;
use crate::sat::capsule::{Core, flip_axis};
use crate::solid::Solid;
use glam::Vec3;
use smallvec::SmallVec;

/// Manifold points of a pair with a capsule (and no sphere) for `axis`, in a's frame;
/// `witness` holds the exact axis' closest points in a's frame (a's side first).
pub(crate) fn capsule_points(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    witness: Option<(Vec3, Vec3)>,
    margin: f32,
    clip_tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    match (a, b) {
        (Solid::Capsule(ha, ra), Solid::Capsule(hb, rb)) => {
            let core = Core::of_b(frame, *hb, *rb);
            let witness = witness.unwrap_or((Vec3::ZERO, (core.p0 + core.p1) * 0.5));
            capsule_points_on_axis(
                Vec3::Y,
                *ha,
                *ra,
                core,
                axis,
                witness,
                margin,
                clip_tolerance,
            )
        }
        (_, Solid::Capsule(h, r)) => {
            let core = Core::of_b(frame, *h, *r);
            solid_capsule_points(a, core, axis, witness, margin, clip_tolerance, false)
        }
        (Solid::Capsule(h, r), _) => {
            // Built in b's frame with b as the reference, then brought over.
            let inverse = frame.inverse();
            let core = Core::of_b(&inverse, *h, *r);
            let axis_b = flip_axis(axis, &inverse);
            let witness_b =
                witness.map(|(on_a, on_b)| (inverse.point_to_a(on_b), inverse.point_to_a(on_a)));
            let mut points =
                solid_capsule_points(b, core, &axis_b, witness_b, margin, clip_tolerance, true);
            for c in &mut points {
                c.point = frame.point_to_a(c.point);
            }
            points
        }
        _ => SmallVec::new(),
    }
}

/// The last resort of a touching pair whose axes gave no point (round-off at the rim of
/// a face): the capsule core's deepest endpoint along `axis`, with the axis' depth. Ids:
/// no reference feature, lines `[end, 0xfffd]`.
pub(crate) fn deepest_endpoint(a: &Solid, b: &Solid, frame: &Frame, axis: &Axis) -> Candidate {
    let n = axis.normal;
    let depth = -axis.separation;
    let (point, end, reference_is_b) = match (a, b) {
        (_, Solid::Capsule(h, r)) => {
            let core = Core::of_b(frame, *h, *r);
            let (end, x) = if n.dot(core.p0) <= n.dot(core.p1) {
                (0, core.p0)
            } else {
                (1, core.p1)
            };
            (x - n * *r + n * (0.5 * depth), end, false)
        }
        (Solid::Capsule(h, r), _) => {
            let core = Core::local(*h, *r);
            let (end, x) = if n.dot(core.p0) >= n.dot(core.p1) {
                (0, core.p0)
            } else {
                (1, core.p1)
            };
            (x + n * *r - n * (0.5 * depth), end, true)
        }
        _ => (Vec3::ZERO, 0, false),
    };
    Candidate {
        point,
        depth,
        id: pack_id(reference_is_b, u32::MAX, 0, [end, u16::MAX - 2]),
    }
}

/// Cores closer to parallel than this (`|d_a × d_b| ≤ k|d_a||d_b|`, about 3°) lie along
/// each other: two points.
const PARALLEL_CORES: f32 = 0.05;

/// The one point of an axis from its closest points: `on_a` on a's surface or core
/// (`radius_a` is 0 for a polytope), `on_b` on b's core.
fn single(on_b: Vec3, radius_b: f32, axis: &Axis, id: u64) -> Candidate {
    let n = axis.normal;
    let depth = -axis.separation;
    Candidate {
        point: on_b - n * radius_b + n * (0.5 * depth),
        depth,
        id,
    }
}

/// Points of a box or hull (the reference, in whose frame `core` is given) and a
/// capsule: [`polytope_capsule_points`], with a box's face clipped by its slabs.
fn solid_capsule_points(
    solid: &Solid,
    core: Core,
    axis: &Axis,
    witness: Option<(Vec3, Vec3)>,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    match (solid, axis.feature) {
        (Solid::Box(h), Feature::FaceA(f)) => {
            box_face_points(*h, core, f as usize, margin, clip_tolerance, reference_is_b)
        }
        // A box's edge axes always come with their closest points.
        (Solid::Box(_), Feature::EdgeEdge(e, _)) => {
            let Some((_, on_core)) = witness else {
                return SmallVec::new();
            };
            let point = single(
                on_core,
                core.radius,
                axis,
                pack_id(reference_is_b, e, 0, [u16::MAX; 2]),
            );
            if point.depth >= -margin {
                SmallVec::from_elem(point, 1)
            } else {
                SmallVec::new()
            }
        }
        _ => solid
            .with_polytope(|poly| {
                poly.map(|poly| {
                    polytope_capsule_points(
                        poly,
                        core,
                        axis,
                        witness,
                        margin,
                        clip_tolerance,
                        reference_is_b,
                    )
                })
            })
            .unwrap_or_default(),
    }
}

/// The face points of [`face_points`] for face `f` of a box of half extents `h` (`2k`
/// the −k face, `2k + 1` the +k face): its side planes are the slabs `|xᵢ| ≤ hᵢ` of
/// the other two axes, pushed out by the clip tolerance. The line a cut end lies on is
/// `2i` (the −i side) or `2i + 1` (the +i side).
fn box_face_points(
    h: Vec3,
    core: Core,
    f: usize,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    const ENDPOINT: u16 = u16::MAX - 1;
    let k = f / 2;
    let sign = if f % 2 == 1 { 1.0 } else { -1.0 };
    let (p0, d) = (core.p0.to_array(), (core.p1 - core.p0).to_array());
    let ha = h.to_array();
    let mut ends = [(0.0f32, ENDPOINT), (1.0f32, ENDPOINT)];
    for i in [(k + 1) % 3, (k + 2) % 3] {
        let reach = ha[i] + clip_tolerance;
        if d[i] == 0.0 {
            if p0[i].abs() > reach {
                ends = [(1.0, ENDPOINT), (0.0, ENDPOINT)];
            }
            continue;
        }
        let (t_minus, t_plus) = ((-reach - p0[i]) / d[i], (reach - p0[i]) / d[i]);
        let ((t_in, side_in), (t_out, side_out)) = if d[i] > 0.0 {
            ((t_minus, 2 * i), (t_plus, 2 * i + 1))
        } else {
            ((t_plus, 2 * i + 1), (t_minus, 2 * i))
        };
        if t_in > ends[0].0 {
            ends[0] = (t_in, side_in as u16);
        }
        if t_out < ends[1].0 {
            ends[1] = (t_out, side_out as u16);
        }
    }
    let d = Vec3::from_array(d);
    let mut normal = [0.0; 3];
    normal[k] = sign;
    let n = Vec3::from_array(normal);
    let depth_at = |x: Vec3| core.radius - (sign * x.to_array()[k] - ha[k]);
    let point = |x: Vec3, depth: f32, lines: [u16; 2]| Candidate {
        point: x - n * core.radius + n * (0.5 * depth),
        depth,
        id: pack_id(reference_is_b, f as u32, 0, lines),
    };
    if ends[0].0 > ends[1].0 {
        return SmallVec::new();
    }
    // One point when what is left is shorter than the clip tolerance: the deeper end.
    let chosen: SmallVec<[usize; 2]> = if (ends[1].0 - ends[0].0) * d.length() <= clip_tolerance {
        let [a, b] = ends.map(|(t, _)| depth_at(core.p0 + d * t));
        SmallVec::from_elem(if b > a { 1 } else { 0 }, 1)
    } else {
        SmallVec::from_slice(&[0, 1])
    };
    let mut points = SmallVec::new();
    for end in chosen {
        let (t, cut) = ends[end];
        let x = core.p0 + d * t;
        let depth = depth_at(x);
        if depth >= -margin {
            points.push(point(x, depth, [end as u16, cut]));
        }
    }
    points
}

/// Points of two capsules in a frame centred on a's centre, a's core along the unit
/// `axis_a` (`Vec3::Y` in a's own frame), b's `core` in the same frame, for the exact
/// axis and its closest points `(on_a, on_b)`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn capsule_points_on_axis(
    axis_a: Vec3,
    ha: f32,
    ra: f32,
    core: Core,
    axis: &Axis,
    (_, on_b): (Vec3, Vec3),
    margin: f32,
    clip_tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    let closest = single(on_b, core.radius, axis, pack_id(false, 0, 0, [u16::MAX; 2]));
    let db = core.p1 - core.p0;
    let parallel =
        db.cross(axis_a).length_squared() <= PARALLEL_CORES * PARALLEL_CORES * db.length_squared();
    let rate = axis_a.dot(db);
    let mut points = SmallVec::new();
    if !(parallel && ha > 0.0 && rate != 0.0) {
        points.push(closest);
        return points;
    }
    // b's core `p₀ + t d` meets the planes `axis_a · x = ∓h_a` at these t.
    let start = axis_a.dot(core.p0);
    let (t_low, t_high) = ((-ha - start) / rate, (ha - start) / rate);
    let (t_in, t_out) = if t_low <= t_high {
        (t_low, t_high)
    } else {
        (t_high, t_low)
    };
    let ends = [(t_in.max(0.0), t_in > 0.0), (t_out.min(1.0), t_out < 1.0)];
    if ends[0].0 > ends[1].0 {
        points.push(closest);
        return points;
    }
    let n = axis.normal;
    let radii = ra + core.radius;
    let mut deepest = f32::NEG_INFINITY;
    for (end, (t, cut)) in ends.into_iter().enumerate() {
        let x_b = core.p0 + db * t;
        let x_a = axis_a * axis_a.dot(x_b).clamp(-ha, ha);
        // The cores' own gap at this station, along their offset `u`: not quite `n`
        // when the cores are not exactly parallel.
        let offset = x_b - x_a;
        let distance = offset.length();
        let u = if distance > 0.0 { offset / distance } else { n };
        let depth = radii - distance;
        if depth >= -margin {
            deepest = deepest.max(depth);
            points.push(Candidate {
                point: x_b - u * core.radius + u * (0.5 * depth),
                depth,
                id: pack_id(false, 0, 0, [end as u16, cut as u16]),
            });
        }
    }
    if deepest < closest.depth - clip_tolerance {
        points.push(closest);
    }
    points
}

/// Points of a polytope (the reference shape, in whose frame `core` is given) and a
/// capsule for `axis` (the preferred or the exact one); `witness` holds the exact
/// axis' closest points (on the polytope, on the core) when the query found them.
/// Empty when nothing lies within the margin along `axis`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn polytope_capsule_points(
    poly: &Polytope,
    core: Core,
    axis: &Axis,
    witness: Option<(Vec3, Vec3)>,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    match axis.feature {
        Feature::FaceA(f) => face_points(
            poly,
            core,
            f as usize,
            margin,
            clip_tolerance,
            reference_is_b,
        ),
        Feature::EdgeEdge(e, _) => {
            let on_core = match witness {
                Some((_, on_core)) => on_core,
                None => {
                    let edge = poly.edges[e as usize];
                    let v0 = poly.vertices[edge.vertices[0] as usize].as_dvec3();
                    let v1 = poly.vertices[edge.vertices[1] as usize].as_dvec3();
                    let c0 = core.p0.as_dvec3();
                    let (_, on_core) =
                        closest_points_on_segments_f64(v0, v1 - v0, c0, core.p1.as_dvec3() - c0);
                    on_core.as_vec3()
                }
            };
            let id = pack_id(reference_is_b, e, 0, [u16::MAX; 2]);
            let point = single(on_core, core.radius, axis, id);
            if point.depth >= -margin {
                SmallVec::from_elem(point, 1)
            } else {
                SmallVec::new()
            }
        }
        _ => SmallVec::new(),
    }
}

/// The core clipped against the side planes of face `f` (see the module docs).
fn face_points(
    poly: &Polytope,
    core: Core,
    f: usize,
    margin: f32,
    clip_tolerance: f32,
    reference_is_b: bool,
) -> SmallVec<[Candidate; 4]> {
    const ENDPOINT: u16 = u16::MAX - 1;
    let plane = poly.planes[f];
    let n = plane.normal;
    let d = core.p1 - core.p0;
    let loop_ = poly.face(f);
    let mut ends = [(0.0f32, ENDPOINT), (1.0f32, ENDPOINT)];
    let mut empty = false;
    for k in 0..loop_.len() {
        let v0 = poly.vertices[loop_[k] as usize];
        let v1 = poly.vertices[next_in_loop(loop_, k) as usize];
        let side = (v1 - v0).cross(n);
        let start = side.dot(core.p0 - v0) - clip_tolerance * side.length();
        let rate = side.dot(d);
        if rate == 0.0 {
            empty |= start > 0.0;
            continue;
        }
        let t = -start / rate;
        if rate > 0.0 {
            if t < ends[1].0 {
                ends[1] = (t, k as u16);
            }
        } else if t > ends[0].0 {
            ends[0] = (t, k as u16);
        }
    }
    let mut points = SmallVec::new();
    let depth_at = |x: Vec3| core.radius - (n.dot(x) - plane.offset);
    let point = |x: Vec3, depth: f32, lines: [u16; 2]| Candidate {
        point: x - n * core.radius + n * (0.5 * depth),
        depth,
        id: pack_id(reference_is_b, f as u32, 0, lines),
    };
    if !empty && ends[0].0 <= ends[1].0 {
        // One point when what is left is shorter than the clip tolerance.
        let one = (ends[1].0 - ends[0].0) * d.length() <= clip_tolerance;
        let candidates: SmallVec<[(usize, (f32, u16)); 2]> = if one {
            let [a, b] = ends.map(|(t, _)| depth_at(core.p0 + d * t));
            let end = if b > a { 1 } else { 0 };
            SmallVec::from_elem((end, ends[end]), 1)
        } else {
            ends.into_iter().enumerate().collect()
        };
        for (end, (t, cut)) in candidates {
            let x = core.p0 + d * t;
            let depth = depth_at(x);
            if depth >= -margin {
                points.push(point(x, depth, [end as u16, cut]));
            }
        }
    }
    points
}
