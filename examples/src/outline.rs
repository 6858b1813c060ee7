//! The 2D outline of a body seen along a world axis, for pictures: the body's world
//! vertices projected on a plane, wrapped in their convex hull. Used by the `render`
//! example (view from above, plane x-z) and by the stacking pictures (side view,
//! plane x-y).
//!
//! ```
//! use glam::{Vec2, Vec3};
//! use sepax_examples::outline::{SIDE, outline};
//! use sepax_pipeline::geometry::{Cuboid, Pose, Shape};
//!
//! let cube = Shape::from(Cuboid::try_from_size(Vec3::ONE).unwrap());
//! let square = outline(&cube, &Pose::IDENTITY, SIDE);
//! assert_eq!(square.len(), 4); // the 8 corners project on a square
//! assert!(square.contains(&Vec2::new(0.5, 0.5)));
//! ```

use glam::{Vec2, Vec3};
use sepax_pipeline::geometry::{Pose, Shape};

/// A viewing plane: the world directions drawn as the picture's u and v axes.
pub type Plane = [Vec3; 2];

/// Seen from above: u = x, v = z.
pub const TOP: Plane = [Vec3::X, Vec3::Z];

/// Seen from the side (looking along −z): u = x, v = y (up).
pub const SIDE: Plane = [Vec3::X, Vec3::Y];

/// Number of segments of a sphere's outline.
const CIRCLE_SEGMENTS: usize = 32;

/// The outline of `shape` at `pose` projected on `plane`, counter-clockwise.
///
/// Boxes and hulls: every world vertex `w = pose · v` maps to `(u·w, v·w)`, then the
/// 2D convex hull of those points. A sphere's outline is the circle of its radius about
/// the projected centre, whatever its rotation; a capsule's the hull of the circles
/// about its core's projected ends; a mesh's the hull of its projected vertices (its
/// footprint).
pub fn outline(shape: &Shape, pose: &Pose, plane: Plane) -> Vec<Vec2> {
    let project = |w: Vec3| Vec2::new(plane[0].dot(w), plane[1].dot(w));
    let points: Vec<Vec2> = match shape {
        Shape::Sphere(s) => {
            let c = project(pose.translation);
            return (0..CIRCLE_SEGMENTS)
                .map(|k| {
                    let a = k as f32 / CIRCLE_SEGMENTS as f32 * std::f32::consts::TAU;
                    c + Vec2::from_angle(a) * s.radius()
                })
                .collect();
        }
        Shape::Cuboid(c) => c
            .vertices()
            .iter()
            .map(|&v| project(pose.transform_point(v)))
            .collect(),
        Shape::ConvexHull(h) => h
            .vertices()
            .iter()
            .map(|&v| project(pose.transform_point(v)))
            .collect(),
        // A mesh's footprint: the hull of every projected vertex.
        Shape::TriMesh(m) => m
            .vertices()
            .iter()
            .map(|&v| project(pose.transform_point(v)))
            .collect(),
        // The circles about both ends of the core, wrapped.
        Shape::Capsule(c) => {
            let (bottom, top) = c.segment();
            [bottom, top]
                .into_iter()
                .flat_map(|end| {
                    let centre = project(pose.transform_point(end));
                    (0..CIRCLE_SEGMENTS).map(move |k| {
                        let a = k as f32 / CIRCLE_SEGMENTS as f32 * std::f32::consts::TAU;
                        centre + Vec2::from_angle(a) * c.radius()
                    })
                })
                .collect()
        }
    };
    convex_hull_2d(points)
}

/// Andrew's monotone chain: sort the points by (x, y), build the lower hull left to
/// right and the upper hull right to left, popping every point that does not make a
/// left turn (`cross <= 0`, so collinear points are dropped). Counter-clockwise, no
/// repeated first point. O(n log n).
pub fn convex_hull_2d(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let mut push = |p: Vec2| {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        };
        if pass == 0 {
            pts.iter().for_each(|&p| push(p));
        } else {
            pts.iter().rev().for_each(|&p| push(p));
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_with_inner_and_edge_points() {
        let pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.0), // on an edge: dropped
            Vec2::new(0.5, 0.5), // inside: dropped
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        let hull = convex_hull_2d(pts);
        assert_eq!(hull.len(), 4);
        let area: f32 = (0..4).map(|i| hull[i].perp_dot(hull[(i + 1) % 4])).sum();
        assert!((area - 2.0).abs() < 1e-6); // twice the area, positive: counter-clockwise
    }
}
