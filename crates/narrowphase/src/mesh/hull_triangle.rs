//! Hull against triangle, in the hull's frame: the triangle's front normal, the hull's
//! faces turned to the triangle, and every (triangle edge, hull edge) cross both ways.
//!
//! With the triangle's corners `t_i`, normal `n`, offset `d`:
//! * front face: `s = min_v n·v − d` over the hull's vertices;
//! * hull face `m · x = o`: the axis `−m`, `s = min_i m·t_i − o` (no vertex scan: the
//!   face is the hull's support along `m`);
//! * edge axis `L = (t_{i+1} − t_i) × g / |…|` for a hull edge `g`: one scan gives the
//!   hull's interval `[lo, hi]` along `L`; `up = lo − max_i L·t_i`,
//!   `down = min_i L·t_i − hi`; for edges within `EXACT_CROSS` of parallel `L` is
//!   taken in f64 from the triangle's exact edge (`ExactTriangle`), since the rounded
//!   corners' edge would turn it by their round-off over the angle.
//!
//! The edge query keeps every pair, the twin of the f64 oracle's candidate set (see
//! `sat` for why no Gauss-map pruning), and scans the hull only for the pairs that
//! can matter: the hull holds the ball of its inradius `r` about its centroid `c`, so
//! `up ≤ L·c − r − max_i L·t_i` and `down ≤ min_i L·t_i − L·c − r`; a pair whose two
//! bounds can neither exceed the margin, nor beat the best eligible axis so far, nor
//! a positive largest gap either way so far (an exact test, like the hull–hull test's)
//! is skipped. That largest gap (the two-sided verdict's) comes back with the outcome:
//! exact when positive (the hull apart from the triangle within the margin), else at
//! most 0.

use super::local::{ExactTriangle, LocalTriangle};
use super::sat::{Eligible, offer_line};
use crate::Feature;
use crate::math::unit_cross_f64;
use crate::polytope::Polytope;
use crate::sat::{Axis, EXACT_CROSS, FEATURE_SLOP, SatOutcome};
use glam::Vec3;

/// The test of hull `poly` against `tri`, whose plane has the hull's centroid in front.
/// Edge features name the triangle edge and the hull edge whose direction gave the
/// axis. Returns the outcome and the largest gap over every candidate either way (see
/// the module docs).
pub(crate) fn hull_triangle(
    poly: &Polytope,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    margin: f32,
) -> (SatOutcome, f32) {
    let n = tri.normal;
    let face_a = Axis {
        separation: -poly.support(-n).1 - tri.offset,
        normal: n,
        feature: Feature::FaceA(0),
    };
    if face_a.separation > margin {
        return (SatOutcome::Separated(face_a), face_a.separation);
    }
    // Only a margin needs the gap (without one an overlap's is at most 0).
    let axes = if margin > 0.0 {
        hull_axes::<true>(poly, tri, tri64, face_a.separation, margin)
    } else {
        hull_axes::<false>(poly, tri, tri64, face_a.separation, margin)
    };
    match axes {
        Ok((eligible, gap)) => (eligible.fold(face_a, FEATURE_SLOP * poly.inradius), gap),
        Err(axis) => (SatOutcome::Separated(axis), axis.separation),
    }
}

#[inline(always)]
fn hull_axes<const GAP: bool>(
    poly: &Polytope,
    tri: &LocalTriangle,
    tri64: &ExactTriangle,
    face_a: f32,
    margin: f32,
) -> Result<(Eligible, f32), Axis> {
    let (n, t) = (tri.normal, tri.vertices);
    let mut eligible = Eligible::new();
    // The largest gap either way so far (the verdict's).
    let mut gap = face_a;
    for (j, plane) in poly.planes.iter().enumerate() {
        let m = plane.normal;
        let separation = m.dot(t[0]).min(m.dot(t[1])).min(m.dot(t[2])) - plane.offset;
        let axis = Axis {
            separation,
            normal: -m,
            feature: Feature::FaceB(j as u32),
        };
        if separation > margin {
            return Err(axis);
        }
        if GAP {
            gap = gap.max(separation);
        }
        if m.dot(n) <= 0.0 {
            eligible.offer(false, separation, -m, axis.feature);
        }
    }
    for (j, edge) in poly.edges.iter().enumerate() {
        let g = poly.vertices[edge.vertices[1] as usize] - poly.vertices[edge.vertices[0] as usize];
        for i in 0..3 {
            let e = t[(i + 1) % 3] - t[i];
            let l = e.cross(g);
            let length_squared = l.length_squared();
            let l = if length_squared
                >= EXACT_CROSS * EXACT_CROSS * e.length_squared() * g.length_squared()
            {
                l / length_squared.sqrt()
            } else {
                // Nearly parallel: the f32 cross product loses its direction.
                match unit_cross_f64(tri64.edge(i), g.as_dvec3()) {
                    Some(l) => l,
                    None => continue,
                }
            };
            let (p, q) = (l.dot(t[i]), l.dot(t[(i + 2) % 3]));
            // The inner ball bounds both gaps from above: skip the scan when neither
            // orientation could separate, beat the best eligible axis so far, or widen
            // a positive largest gap (only an apart pair's gap is wanted exactly).
            let (centre, l_dot_n) = (l.dot(poly.centroid), l.dot(n));
            let best = eligible.best().max(face_a);
            let wider = gap.max(0.0);
            let could = |bound: f32, eligible: bool| {
                bound > margin || (GAP && bound > wider) || (eligible && bound > best)
            };
            if !could(centre - poly.inradius - p.max(q), l_dot_n >= 0.0)
                && !could(p.min(q) - centre - poly.inradius, l_dot_n <= 0.0)
            {
                continue;
            }
            let (lo, hi) = interval(poly.vertices, l);
            let feature = Feature::EdgeEdge(i as u32, j as u32);
            let (up, down) = (lo - p.max(q), p.min(q) - hi);
            offer_line(
                &mut eligible,
                true,
                l,
                l_dot_n,
                (up, down),
                (feature, feature),
                margin,
            )?;
            if GAP {
                gap = gap.max(up).max(down);
            }
        }
    }
    Ok((eligible, gap))
}

/// `(min, max)` of `l · v` over the vertices.
#[inline]
fn interval(vertices: &[Vec3], l: Vec3) -> (f32, f32) {
    vertices
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
            let d = l.dot(*v);
            (lo.min(d), hi.max(d))
        })
}
