//! Convex polygons.

use super::{Aabb2, BoundingCircle, PolygonError, Pose2};
use glam::{DVec2, Vec2};

/// The most vertices a [`ConvexPolygon`] may have (feature ids pack an edge index in 12 bits).
pub const MAX_POLYGON_VERTICES: usize = 4096;

/// Relative tolerance of the polygon checks: two points closer than `REL_TOL · size`
/// are duplicates, a corner whose sine is below `REL_TOL` is straight.
pub(crate) const REL_TOL: f64 = 1e-6;

/// A strictly convex polygon with counter-clockwise vertices and outward unit edge
/// normals, in the body's local frame.
///
/// Edge `i` runs from `vertices[i]` to `vertices[(i + 1) % n]`; `normals[i]` is its
/// outward unit normal (the edge direction turned a quarter clockwise).
///
/// ```
/// use sepax_geometry::dim2::{ConvexPolygon, PolygonError};
/// use glam::Vec2;
/// let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
/// let p = ConvexPolygon::try_new(&square).unwrap();
/// assert_eq!(p.normals()[0], -Vec2::Y);
/// let clockwise = [Vec2::ZERO, Vec2::Y, Vec2::ONE, Vec2::X];
/// assert_eq!(ConvexPolygon::try_new(&clockwise), Err(PolygonError::Clockwise));
/// // The hull of a cloud: interior and collinear points are dropped.
/// let cloud = [Vec2::ZERO, Vec2::X, Vec2::new(0.5, 0.0), Vec2::ONE, Vec2::Y, Vec2::splat(0.5)];
/// assert_eq!(ConvexPolygon::try_hull(&cloud).unwrap().vertices().len(), 4);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    center: Vec2,
    radius: f32,
}

fn dv(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// Side of `p` relative to the directed line `a → b`, as a sine: positive to the
/// left. `cross(b − a, p − a) / (|b − a|·|p − a|)`, in f64; 0 for a zero-length leg.
pub(crate) fn turn_sine(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let (e, f) = (dv(b) - dv(a), dv(p) - dv(a));
    let den = e.length() * f.length();
    if den == 0.0 { 0.0 } else { e.perp_dot(f) / den }
}

impl ConvexPolygon {
    /// A polygon from its vertices, which must be counter-clockwise, strictly convex
    /// and free of repeated points. The data is checked, never trusted:
    ///
    /// * [`PolygonError::TooFewPoints`] / [`TooManyPoints`](PolygonError::TooManyPoints):
    ///   fewer than 3 or more than [`MAX_POLYGON_VERTICES`] points;
    /// * [`PolygonError::NonFinite`]: a NaN or infinite coordinate;
    /// * [`PolygonError::Collinear`]: no area (one point, or all on a line);
    /// * [`PolygonError::DuplicatePoint`]: a point equal to the next one (within
    ///   1e-6 of the polygon's size);
    /// * [`PolygonError::Clockwise`]: negative signed area;
    /// * [`PolygonError::StraightCorner`]: three consecutive points on a line
    ///   (corner sine below 1e-6);
    /// * [`PolygonError::NotConvex`]: a reflex corner, or an outline that winds twice.
    ///
    /// Extreme sizes: any finite extent of the points is accepted; the 2D queries never
    /// panic on it, and between 1e-18 and 1e18 their answers are finite with unit
    /// normals (beyond that squared lengths leave f32's range and answers can be
    /// infinite).
    pub fn try_new(points: &[Vec2]) -> Result<ConvexPolygon, PolygonError> {
        let n = points.len();
        if n < 3 {
            return Err(PolygonError::TooFewPoints(n));
        }
        if n > MAX_POLYGON_VERTICES {
            return Err(PolygonError::TooManyPoints(n));
        }
        if let Some(i) = points.iter().position(|p| !p.is_finite()) {
            return Err(PolygonError::NonFinite(i));
        }
        let bounds = Aabb2::from_points(points).expect("n >= 3");
        let size = dv(bounds.max - bounds.min).max_element();
        if size == 0.0 {
            return Err(PolygonError::Collinear);
        }
        // Twice the signed area (shoelace), in f64.
        let area2: f64 = (0..n)
            .map(|i| dv(points[i]).perp_dot(dv(points[(i + 1) % n])))
            .sum();
        if area2.abs() <= REL_TOL * size * size {
            return Err(PolygonError::Collinear);
        }
        for i in 0..n {
            if (dv(points[(i + 1) % n]) - dv(points[i])).length() <= REL_TOL * size {
                return Err(PolygonError::DuplicatePoint(i));
            }
        }
        if area2 < 0.0 {
            return Err(PolygonError::Clockwise);
        }
        for i in 0..n {
            let s = turn_sine(points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            if s < -REL_TOL {
                return Err(PolygonError::NotConvex(i));
            }
            if s <= REL_TOL {
                return Err(PolygonError::StraightCorner(i));
            }
        }
        // Local left turns do not exclude an outline that winds twice; strict
        // convexity is: every other vertex lies strictly left of every edge.
        for i in 0..n {
            let (a, b) = (points[i], points[(i + 1) % n]);
            for (k, p) in points.iter().enumerate() {
                if k != i && k != (i + 1) % n && turn_sine(a, b, *p) <= 0.0 {
                    return Err(PolygonError::NotConvex(k));
                }
            }
        }
        Ok(ConvexPolygon::from_checked(points.to_vec()))
    }

    /// The convex hull of a point cloud (Andrew's monotone chain), dropping interior,
    /// repeated and collinear points; the result is counter-clockwise.
    ///
    /// Errors: [`PolygonError::TooFewPoints`] for fewer than 3 points,
    /// [`PolygonError::NonFinite`] for a NaN or infinite coordinate,
    /// [`PolygonError::Collinear`] when the points span no area; otherwise the
    /// checks of [`ConvexPolygon::try_new`] on the hull.
    pub fn try_hull(points: &[Vec2]) -> Result<ConvexPolygon, PolygonError> {
        if points.len() < 3 {
            return Err(PolygonError::TooFewPoints(points.len()));
        }
        if let Some(i) = points.iter().position(|p| !p.is_finite()) {
            return Err(PolygonError::NonFinite(i));
        }
        let mut sorted = points.to_vec();
        sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        sorted.dedup();
        if sorted.len() < 3 {
            return Err(PolygonError::Collinear);
        }
        // Monotone chain: sweep left to right for the lower chain and right to left
        // for the upper one, popping the last point while it does not make a strict
        // left turn. Each chain ends where the other starts.
        let mut hull: Vec<Vec2> = Vec::with_capacity(sorted.len() + 1);
        for pass in 0..2 {
            let start = hull.len();
            let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
                Box::new(sorted.iter())
            } else {
                Box::new(sorted.iter().rev())
            };
            for &p in iter {
                while hull.len() >= start + 2
                    && turn_sine(hull[hull.len() - 2], hull[hull.len() - 1], p) <= REL_TOL
                {
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop();
        }
        // Near-duplicates survive the exact dedup; merge consecutive ones.
        let bounds = Aabb2::from_points(&hull).unwrap_or(Aabb2 {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        });
        let size = dv(bounds.max - bounds.min).max_element();
        let mut merged: Vec<Vec2> = Vec::with_capacity(hull.len());
        for p in hull {
            if merged
                .last()
                .is_none_or(|q| (dv(p) - dv(*q)).length() > REL_TOL * size)
            {
                merged.push(p);
            }
        }
        while merged.len() > 1
            && (dv(merged[0]) - dv(merged[merged.len() - 1])).length() <= REL_TOL * size
        {
            merged.pop();
        }
        if merged.len() < 3 {
            return Err(PolygonError::Collinear);
        }
        ConvexPolygon::try_new(&merged)
    }

    fn from_checked(vertices: Vec<Vec2>) -> ConvexPolygon {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                Vec2::new(e.y, -e.x).normalize()
            })
            .collect();
        let center = vertices.iter().copied().sum::<Vec2>() / n as f32;
        let radius = vertices
            .iter()
            .map(|v| (*v - center).length())
            .fold(0.0, f32::max);
        ConvexPolygon {
            vertices,
            normals,
            center,
            radius,
        }
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The outward unit normal of each edge.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// The mean of the vertices (inside the polygon), the center of its bounding circle.
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The largest distance from [`center`](Self::center) to a vertex.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The tight world AABB under `pose`.
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        let mut b = Aabb2::from_center_half(pose.transform_point(self.vertices[0]), Vec2::ZERO);
        for v in &self.vertices[1..] {
            let w = pose.transform_point(*v);
            b.min = b.min.min(w);
            b.max = b.max.max(w);
        }
        b
    }

    /// A circle holding the polygon, under `pose`.
    pub fn bounding_circle(&self, pose: &Pose2) -> BoundingCircle {
        BoundingCircle {
            center: pose.transform_point(self.center),
            radius: self.radius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn each_bad_polygon_has_its_error() {
        use PolygonError::*;
        let sq = [v(0., 0.), v(1., 0.), v(1., 1.), v(0., 1.)];
        assert!(ConvexPolygon::try_new(&sq).is_ok());
        assert_eq!(ConvexPolygon::try_new(&sq[..2]), Err(TooFewPoints(2)));
        assert_eq!(ConvexPolygon::try_new(&[]), Err(TooFewPoints(0)));
        let many = vec![v(0., 0.); MAX_POLYGON_VERTICES + 1];
        assert_eq!(ConvexPolygon::try_new(&many), Err(TooManyPoints(4097)));
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(1., f32::NAN), v(0., 1.)]),
            Err(NonFinite(1))
        );
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(1., 0.), v(f32::INFINITY, 1.)]),
            Err(NonFinite(2))
        );
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(1., 1.), v(2., 2.)]),
            Err(Collinear)
        );
        assert_eq!(ConvexPolygon::try_new(&[v(1., 1.); 3]), Err(Collinear));
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(1., 0.), v(1., 0.), v(0., 1.)]),
            Err(DuplicatePoint(1))
        );
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(0., 1.), v(1., 1.), v(1., 0.)]),
            Err(Clockwise)
        );
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(0.5, 0.), v(1., 0.), v(0., 1.)]),
            Err(StraightCorner(1))
        );
        // An arrow head: reflex corner at point 2.
        assert_eq!(
            ConvexPolygon::try_new(&[v(0., 0.), v(2., 0.), v(1., 0.5), v(2., 2.), v(0., 2.)]),
            Err(NotConvex(2))
        );
        // A pentagram traced as a 5-gon: every corner turns left, the outline winds twice.
        let star: Vec<Vec2> = (0..5)
            .map(|k| {
                let a = (k as f32) * 4.0 * std::f32::consts::PI / 5.0;
                v(a.cos(), a.sin())
            })
            .collect();
        assert!(matches!(ConvexPolygon::try_new(&star), Err(NotConvex(_))));
    }

    #[test]
    fn hull_errors_and_cleanup() {
        use PolygonError::*;
        assert_eq!(
            ConvexPolygon::try_hull(&[v(0., 0.), v(1., 0.)]),
            Err(TooFewPoints(2))
        );
        assert_eq!(
            ConvexPolygon::try_hull(&[v(0., 0.), v(1., 0.), v(f32::NAN, 0.)]),
            Err(NonFinite(2))
        );
        assert_eq!(
            ConvexPolygon::try_hull(&[v(0., 0.), v(1., 1.), v(2., 2.), v(3., 3.)]),
            Err(Collinear)
        );
        assert_eq!(ConvexPolygon::try_hull(&[v(2., 2.); 5]), Err(Collinear));
        // Clockwise input, repeated points, an interior point and a collinear point.
        let pts = [
            v(0., 0.),
            v(0., 2.),
            v(2., 2.),
            v(2., 2.),
            v(2., 0.),
            v(1., 0.),
            v(1., 1.),
        ];
        let h = ConvexPolygon::try_hull(&pts).unwrap();
        assert_eq!(h.vertices(), &[v(0., 0.), v(2., 0.), v(2., 2.), v(0., 2.)]);
        assert_eq!(h.normals(), &[-Vec2::Y, Vec2::X, Vec2::Y, -Vec2::X]);
        assert_eq!(h.center(), v(1., 1.));
    }

    #[test]
    fn hull_of_random_clouds_holds_every_point() {
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..500 {
            let n = 3 + rng.below(30);
            let pts: Vec<Vec2> = (0..n)
                .map(|_| v(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
                .collect();
            let Ok(h) = ConvexPolygon::try_hull(&pts) else {
                continue;
            };
            for p in &pts {
                for (q, m) in h.vertices().iter().zip(h.normals()) {
                    assert!(m.dot(*p - *q) <= 1e-5);
                }
            }
            for q in h.vertices() {
                assert!(pts.contains(q));
            }
        }
    }
}
