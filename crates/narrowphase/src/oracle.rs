//! The slow, obviously-correct twin of the SAT queries: the seeds' own method.
//!
//! Project **every vertex** of both shapes, in `f64`, on **every** candidate axis: each
//! face normal of a and of b, and the cross product of every edge direction of a with
//! every edge direction of b (no Gauss-map pruning, so the set is a superset of what
//! the fast test looks at). For each axis the gap is
//! `max(min_b − max_a, min_a − max_b)`; the shapes are apart iff some gap is positive,
//! and otherwise the penetration depth is `−max gap`. Used by the tests, by
//! `stress --check` and by anyone who doubts an answer. Spheres have no vertices and are
//! not covered.

use glam::{DVec3, Vec3};
use sepax_geometry::{Pose, Shape};

/// What the oracle found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleContact {
    /// The largest gap over all axes: positive = apart, negative = penetration depth.
    pub separation: f64,
    /// The axis of that gap, unit, world frame, pointing from a to b.
    pub normal: DVec3,
}

/// Cross products shorter than this fraction of `|e1||e2|` are skipped as degenerate
/// (parallel edges have no cross-product axis).
pub const DEGENERATE_CROSS: f64 = 1e-6;

struct Solid {
    vertices: Vec<DVec3>,
    normals: Vec<DVec3>,
    edges: Vec<DVec3>,
}

fn world(v: Vec3, pose: &Pose) -> DVec3 {
    let q = pose.rotation.as_dquat();
    q * v.as_dvec3() + pose.translation.as_dvec3()
}

fn solid(shape: &Shape, pose: &Pose) -> Option<Solid> {
    let q = pose.rotation.as_dquat();
    match shape {
        Shape::Sphere(_) => None,
        Shape::Cuboid(c) => {
            let axes = [DVec3::X, DVec3::Y, DVec3::Z].map(|a| q * a);
            Some(Solid {
                vertices: c.vertices().iter().map(|v| world(*v, pose)).collect(),
                normals: axes.to_vec(),
                edges: axes.to_vec(),
            })
        }
        Shape::ConvexHull(h) => Some(Solid {
            vertices: h.vertices().iter().map(|v| world(*v, pose)).collect(),
            normals: h.planes().iter().map(|p| q * p.normal.as_dvec3()).collect(),
            edges: h
                .edges()
                .iter()
                .map(|e| {
                    q * (h.vertices()[e.vertices[1] as usize]
                        - h.vertices()[e.vertices[0] as usize])
                        .as_dvec3()
                })
                .collect(),
        }),
    }
}

fn interval(vertices: &[DVec3], axis: DVec3) -> (f64, f64) {
    vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = v.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// The vertex-projection SAT of two boxes or hulls; `None` when either is a sphere or a
/// pose is invalid.
pub fn vertex_projection_sat(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
) -> Option<OracleContact> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    let (sa, sb) = (solid(a, pose_a)?, solid(b, pose_b)?);
    let mut best = OracleContact {
        separation: f64::NEG_INFINITY,
        normal: DVec3::X,
    };
    let mut consider = |axis: DVec3| {
        let (min_a, max_a) = interval(&sa.vertices, axis);
        let (min_b, max_b) = interval(&sb.vertices, axis);
        let (gap, normal) = if min_b - max_a >= min_a - max_b {
            (min_b - max_a, axis)
        } else {
            (min_a - max_b, -axis)
        };
        if gap > best.separation {
            best = OracleContact {
                separation: gap,
                normal,
            };
        }
    };
    for n in sa.normals.iter().chain(&sb.normals) {
        consider(n.normalize());
    }
    for ea in &sa.edges {
        for eb in &sb.edges {
            let c = ea.cross(*eb);
            if c.length() > DEGENERATE_CROSS * ea.length() * eb.length() {
                consider(c.normalize());
            }
        }
    }
    Some(best)
}
