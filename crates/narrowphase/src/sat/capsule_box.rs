//! Box–capsule: the segment–polytope query of [`super::capsule`] written out for a box
//! of half extents `h` (the capsule's core `p₀ + t d` in the box's frame).
//!
//! * **Faces**: axis `k`, `s = min(p₀ₖ, p₁ₖ) − hₖ` on the `+k` face, `−max(p₀ₖ, p₁ₖ) − hₖ`
//!   on the `−k` face.
//! * **Edges**: every direction `m = d × eₖ / |d × eₖ|` is orthogonal to the box edges
//!   along `k`, so its support is one of them (`Σ hᵢ|mᵢ|` away) and both `±m` are
//!   Minkowski faces of box and core: `s = |m·p₀| − Σ hᵢ|mᵢ|`, oriented by the sign of
//!   `m·p₀`. `m`'s components are `d`'s, so the axis is exact for every angle; only a
//!   `d` parallel to `eₖ` (`|m|²` below `DEGENERATE_EDGE_AXIS`) gives none.
//! * **Distance** when the largest `s` is positive (the core is outside): `f(t) =
//!   |p(t) − clamp(p(t))|²` is convex and piecewise quadratic, so `f'(t) = 2 Σₖ dₖ
//!   φₖ(pₖ(t))` with `φ(x) = sign(x) max(|x| − hₖ, 0)` is nondecreasing and piecewise
//!   linear, its kinks where a coordinate crosses `±hₖ`. The minimum is where `f'`
//!   changes sign: between the last kink (or 0) where `f' ≤ 0` and the first (or 1)
//!   where `f' ≥ 0` it is linear, so one interpolation finds it exactly (in `f64`).
//!   Before that, the cheap case: when the core's endpoint nearest the best face lies
//!   over that face, the face's separation is the distance. The closest box point is
//!   the clamp; one clamped coordinate is a face (normal
//!   `±eₖ` exactly), two or three an edge (feature `4k + j` as the box–box test
//!   numbers edges, `k` the axis not clamped, or the one clamped least for a corner).
//!
//! Edge axes and the distance always come with their closest points (the witness the
//! manifold reuses); a face is clipped by the manifold.

use super::Axis;
use super::box_box::DEGENERATE_EDGE_AXIS;
use super::box_box::{box_edge_along, box_edge_segment};
use super::capsule::{CapsuleOutcome, Core, ROUND_OFF, finish_core};
use crate::Feature;
use crate::math::closest_points_on_segments_f64;
use glam::{DVec3, Vec3};

/// The box (shape a, half extents `h`) against a capsule whose core is in a's frame.
pub(crate) fn box_capsule(h: Vec3, core: Core, margin: f32, slop: f32) -> CapsuleOutcome {
    let Core { p0, p1, radius } = core;
    let d = p1 - p0;
    // Face 2k is the −k face, 2k + 1 the +k face (as `BoxPolytope`), first on ties.
    let minus = -p0.max(p1) - h;
    let plus = p0.min(p1) - h;
    let (mut face_s, mut face_f) = (f32::NEG_INFINITY, 0usize);
    for (k, (m, p)) in minus
        .to_array()
        .into_iter()
        .zip(plus.to_array())
        .enumerate()
    {
        if m > face_s {
            (face_s, face_f) = (m, 2 * k);
        }
        if p > face_s {
            (face_s, face_f) = (p, 2 * k + 1);
        }
    }
    let mut face_normal = [0.0; 3];
    face_normal[face_f / 2] = if face_f % 2 == 1 { 1.0 } else { -1.0 };
    let face = Axis {
        separation: face_s,
        normal: Vec3::from_array(face_normal),
        feature: Feature::FaceA(face_f as u32),
    };
    // d × e_k for k = x, y, z.
    let crosses = [
        Vec3::new(0.0, d.z, -d.y),
        Vec3::new(-d.z, 0.0, d.x),
        Vec3::new(d.y, -d.x, 0.0),
    ];
    // The components of each `m` are the core's own (f32) coordinates, so `m` is exact
    // and `s` is within a few ε of the size at any angle: no near-parallel bound is
    // needed (one cost a capsule lying nearly along a box edge 1e-3 of depth), only
    // one against squares that underflow.
    let floor = DEGENERATE_EDGE_AXIS.max(DEGENERATE_EDGE_AXIS * d.length_squared());
    let (mut edge_s, mut edge_k, mut edge_m) = (f32::NEG_INFINITY, usize::MAX, Vec3::ZERO);
    for (k, m) in crosses.into_iter().enumerate() {
        let m_squared = m.length_squared();
        let spans = m_squared > floor;
        if !spans {
            continue;
        }
        let m = m / m_squared.sqrt();
        let along = m.dot(p0);
        let s = along.abs() - h.dot(m.abs());
        if edge_k == usize::MAX || s > edge_s {
            (edge_s, edge_k, edge_m) = (s, k, if along < 0.0 { -m } else { m });
        }
    }
    let mut exact = if edge_k != usize::MAX && edge_s > face_s {
        Axis {
            separation: edge_s,
            normal: edge_m,
            feature: Feature::EdgeEdge(box_edge_along(edge_k, edge_m), 0),
        }
    } else {
        face
    };
    let mut witness = None;
    if face_s > 0.0 && exact.separation - radius <= margin && realised(h, face_f, p0, p1) {
        // The core's endpoint nearest the best face lies over it: that face's
        // separation is the distance (see the general query), no minimisation needed.
        exact = face;
    } else if exact.separation > 0.0 && exact.separation - radius <= margin {
        let (on_box, on_core, distance) = segment_box_distance(h, p0, p1);
        let tiny = ROUND_OFF * (h.length() as f64 + p0.length() as f64 + p1.length() as f64);
        if !distance.is_finite() {
            // Sizes beyond f32 (the core's direction overflows): the SAT's lower bound.
        } else if distance > tiny {
            let offset = (on_core - on_box).to_array();
            let outside = offset.map(|v| v != 0.0);
            let clamped = outside.iter().filter(|&&o| o).count();
            exact = if clamped == 1 {
                let k = outside.iter().position(|&o| o).unwrap_or(0);
                let sign = offset[k].signum();
                let mut normal = [0.0; 3];
                normal[k] = sign as f32;
                Axis {
                    separation: distance as f32,
                    normal: Vec3::from_array(normal),
                    feature: Feature::FaceA((2 * k + (sign > 0.0) as usize) as u32),
                }
            } else {
                // The edge along the axis not clamped (or clamped least, at a corner).
                let over = (on_core.abs() - h.as_dvec3()).to_array();
                let k = (0..3)
                    .min_by(|&i, &j| {
                        let key = |a: usize| {
                            if outside[a] {
                                over[a]
                            } else {
                                f64::NEG_INFINITY
                            }
                        };
                        key(i).total_cmp(&key(j))
                    })
                    .unwrap_or(0);
                let normal = ((on_core - on_box) / distance).as_vec3();
                Axis {
                    separation: distance as f32,
                    normal: normal.try_normalize().unwrap_or(exact.normal),
                    feature: Feature::EdgeEdge(box_edge_along(k, normal), 0),
                }
            };
        } else {
            exact.separation = distance as f32;
        }
        if distance.is_finite() {
            witness = Some((on_box.as_vec3(), on_core.as_vec3()));
        }
    } else if let Feature::EdgeEdge(e, _) = exact.feature
        && exact.separation <= margin + radius
    {
        // A penetrating edge axis: the closest points of that box edge and the core.
        let (e0, e1) = box_edge_segment(h, e);
        let (on_box, on_core) = closest_points_on_segments_f64(
            e0.as_dvec3(),
            (e1 - e0).as_dvec3(),
            p0.as_dvec3(),
            d.as_dvec3(),
        );
        witness = Some((on_box.as_vec3(), on_core.as_vec3()));
    }
    finish_core(exact, face, radius, slop, margin, witness)
}

/// Does the core's endpoint nearest face `f` (of positive separation) project inside
/// it: `|xᵢ| ≤ hᵢ` on the other two axes?
fn realised(h: Vec3, f: usize, p0: Vec3, p1: Vec3) -> bool {
    let k = f / 2;
    let (a, b) = (p0.to_array(), p1.to_array());
    let near = if (a[k] <= b[k]) == f.is_multiple_of(2) {
        b
    } else {
        a
    };
    let h = h.to_array();
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    near[i].abs() <= h[i] && near[j].abs() <= h[j]
}

/// The closest points of the segment `p₀ p₁` and the box `[−h, h]` and their distance,
/// in `f64`, by the sign change of `f'` (see the module docs). For a segment outside
/// the box.
fn segment_box_distance(h: Vec3, p0: Vec3, p1: Vec3) -> (DVec3, DVec3, f64) {
    let (h, p, d) = (h.as_dvec3(), p0.as_dvec3(), (p1 - p0).as_dvec3());
    let slope = |t: f64| {
        let x = p + d * t;
        let beyond = x - x.clamp(-h, h);
        d.dot(beyond)
    };
    let (mut t_low, mut t_high) = (0.0f64, 1.0f64);
    let (mut f_low, mut f_high) = (slope(0.0), slope(1.0));
    if f_low < 0.0 && f_high > 0.0 {
        let (pa, da, ha) = (p.to_array(), d.to_array(), h.to_array());
        for k in 0..3 {
            if da[k] == 0.0 {
                continue;
            }
            for bound in [-ha[k], ha[k]] {
                let t = (bound - pa[k]) / da[k];
                if t > t_low && t < t_high {
                    let f = slope(t);
                    if f <= 0.0 {
                        (t_low, f_low) = (t, f);
                    } else {
                        (t_high, f_high) = (t, f);
                    }
                }
            }
        }
    }
    let t = if f_low >= 0.0 {
        t_low
    } else if f_high <= 0.0 {
        t_high
    } else {
        t_low - f_low * (t_high - t_low) / (f_high - f_low)
    };
    let on_core = p + d * t;
    let on_box = on_core.clamp(-h, h);
    (on_box, on_core, (on_core - on_box).length())
}
