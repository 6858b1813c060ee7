//! The slow, obviously-correct twins the tests judge the fast paths by, in f64.
//!
//! [`sat_oracle`] is seed 001's method word for word: take every edge normal of both
//! polygons as an axis, project **all** vertices of both on it, compare the
//! intervals; the pair is separated when some axis shows a gap, and the penetration
//! is the smallest interval overlap. No early exit, no frames, no caching.
//!
//! ```
//! use sepax_narrowphase::dim2::oracle::sat_oracle;
//! use glam::DVec2;
//! let sq = |x: f64| [DVec2::new(x, 0.0), DVec2::new(x + 1.0, 0.0), DVec2::new(x + 1.0, 1.0), DVec2::new(x, 1.0)];
//! let r = sat_oracle(&sq(0.0), &sq(0.75));
//! assert!((r.depth - 0.25).abs() < 1e-12 && r.axis == DVec2::X);
//! ```

use glam::DVec2;
use sepax_geometry::dim2::{Pose2, Shape2};

/// The oracle's verdict on a polygon pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleSat {
    /// The smallest interval overlap over all axes (`≥ 0`: touching or penetrating;
    /// `< 0`: minus the largest gap).
    pub depth: f64,
    /// The axis of that overlap, unit, oriented from a to b.
    pub axis: DVec2,
    /// The largest directed separation `min_b n·(w − v_i)` over a's outward edge
    /// normals and `min_a n·(v − w_i)` over b's: what a SAT on face normals reports.
    /// Equals `−depth` when the pair overlaps; for separated pairs it is the largest
    /// face-normal gap (it can be smaller than the largest gap over both directions).
    pub directed: f64,
}

/// Seed 001 on two counter-clockwise convex polygons given by their world vertices.
pub fn sat_oracle(a: &[DVec2], b: &[DVec2]) -> OracleSat {
    let mut best = OracleSat {
        depth: f64::INFINITY,
        axis: DVec2::X,
        directed: f64::NEG_INFINITY,
    };
    for (owner, other) in [(a, b), (b, a)] {
        for i in 0..owner.len() {
            let e = owner[(i + 1) % owner.len()] - owner[i];
            let n = DVec2::new(e.y, -e.x).normalize();
            let (min_a, max_a) = project(a, n);
            let (min_b, max_b) = project(b, n);
            let (b_above, a_above) = (max_a - min_b, max_b - min_a);
            let overlap = b_above.min(a_above);
            if overlap < best.depth {
                best.depth = overlap;
                best.axis = if b_above <= a_above { n } else { -n };
            }
            let face = n.dot(owner[i]);
            let (min_other, _) = project(other, n);
            best.directed = best.directed.max(min_other - face);
        }
    }
    best
}

fn project(points: &[DVec2], n: DVec2) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let d = n.dot(*p);
            (lo.min(d), hi.max(d))
        })
}

/// Signed distance from `p` to a counter-clockwise convex polygon: negative inside
/// (minus the distance to the nearest edge line), else the distance to the nearest
/// edge segment. The twin of the circle–polygon query.
pub fn point_polygon_distance(p: DVec2, poly: &[DVec2]) -> f64 {
    let n = poly.len();
    let mut inside = f64::NEG_INFINITY;
    let mut outside = f64::INFINITY;
    for i in 0..n {
        let (v, w) = (poly[i], poly[(i + 1) % n]);
        let e = w - v;
        let normal = DVec2::new(e.y, -e.x).normalize();
        inside = inside.max(normal.dot(p - v));
        let t = ((p - v).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        outside = outside.min((p - (v + t * e)).length());
    }
    if inside <= 0.0 { inside } else { outside }
}

/// World vertices of a box or polygon in f64, counter-clockwise, numbered as the
/// shape numbers them (`None` for a circle).
pub fn world_vertices(shape: &Shape2, pose: &Pose2) -> Option<Vec<DVec2>> {
    let (c, s) = (pose.rotation.cos() as f64, pose.rotation.sin() as f64);
    let t = pose.translation.as_dvec2();
    let place = |v: DVec2| DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + t;
    match shape {
        Shape2::Circle(_) => None,
        Shape2::Obb2(b) => {
            let (ctr, ax, ay) = (
                b.center().as_dvec2(),
                b.axis_x().as_dvec2(),
                b.axis_y().as_dvec2(),
            );
            let h = b.size().as_dvec2() * 0.5;
            let local = [
                ctr - ax * h.x - ay * h.y,
                ctr + ax * h.x - ay * h.y,
                ctr + ax * h.x + ay * h.y,
                ctr - ax * h.x + ay * h.y,
            ];
            Some(local.iter().map(|v| place(*v)).collect())
        }
        Shape2::Polygon(p) => Some(p.vertices().iter().map(|v| place(v.as_dvec2())).collect()),
    }
}
