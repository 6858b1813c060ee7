//! The signed distance of a point to a convex polytope and the outward normal at its
//! closest feature: a sphere's query against a hull, found by walking the hull's
//! features from the face the point lies furthest in front of.
//!
//! **Inside** (no face plane has `p` in front) the distance is the largest plane
//! distance `max_f (n_f·p − o_f) ≤ 0`, at that face; the planes are scanned 8 at a time
//! (`Polytope::furthest_plane`).
//!
//! **Outside**, the closest point `q` is the one where `p − q` lies in the polytope's
//! normal cone at `q`, which each kind of feature checks locally:
//! * a face `f`: `p` projects into its polygon (behind the side plane of every step of
//!   its loop, `ConvexHull::side_planes`); then
//!   `d_f = n_f·p − o_f > 0` is the distance, since the whole polytope lies behind the
//!   plane;
//! * an edge `v0 → v1` between faces `f0`, `f1`: the closest point of the segment is
//!   inside it and `p` is outside both faces' side planes through the edge;
//! * a vertex `v`: `(p − v)·(w − v) ≤ 0` for every neighbour `w` (no edge leads closer).
//!
//! The walk starts at a face `p` is in front of: the one the hull's polar climb ends
//! on ([`ConvexHull::face_in_front`], the face the ray from the centroid through `p`
//! leaves by; no plane scan), or, when the climb gives none or its walk does not
//! settle, the face of the largest plane distance. From a face whose polygon
//! `p` does not project into, it goes to the polygon's closest boundary point (an edge's
//! interior or a vertex; only edges whose side plane `p` is outside of can hold it);
//! from an edge or a vertex, to a neighbouring feature strictly closer to `p`: an end
//! vertex the segment's closest point is at, a face `p` projects into the inner side of,
//! an edge that leads closer. It keeps to the part of the surface `p` sees (features
//! with a face that has `p` in front): there every local minimum of the distance is the
//! global one (a closer point of the polytope would be seen from `p` through a visible
//! point closer still, nearby), and at an edge or vertex of that part which is not the
//! answer a visible neighbour leads closer. The distance falls at every step but the
//! first out of a face, so no feature comes twice and the walk ends at the closest
//! feature, typically after one to three steps on a hull of 24 points. The answer's
//! normal is checked against the feature's cone of normals: a vertex's, `p − v`, passed
//! the cone's test itself (no edge leads closer); an edge's is kept in the wedge of its
//! faces' normals when `p` is a hair from the edge and round-off turns it out.
//!
//! Round-off can make two features each find the other closer when `p` is a hair from
//! the surface, and huge coordinates overflow f32 products: a step cap and a finiteness
//! check send those rare cases to [`point_polytope_scan`], the slow twin that measures
//! every face in front of `p` and every edge of those (with the start face's normal
//! when the distance it finds is round-off).

use crate::math::{closest_points_on_segments, length_and_unit};
use crate::polytope::{Polytope, next_in_loop};
use glam::{Vec3, Vec4};
use sepax_geometry::ConvexHull;

/// Outward unit normal and signed distance of `p` to a convex polytope: the walk of
/// the [module docs](self).
pub(crate) fn point_polytope(poly: &Polytope, p: Vec3) -> (Vec3, f32) {
    match poly.hull {
        Some(hull) => point_hull(hull, p),
        // A box view (only tests ask): no tables to walk with.
        None => point_polytope_scan(poly, p),
    }
}

/// [`point_polytope`] on a hull, read straight from its arrays. Inlined into the sphere
/// query, with the walk's steps inlined into the walk: as calls, their `(Vec3, f32)` and
/// `Step` answers came back through memory and were read back wider than they were
/// written (failed store forwards; `prof sphere-hull` task clock −5%, the same bits).
#[inline(always)]
pub(crate) fn point_hull(hull: &ConvexHull, p: Vec3) -> (Vec3, f32) {
    // Outside: the walk from the face the polar climb finds, no plane scan.
    if let Some(start) = hull.face_in_front(p)
        && let Some(answer) = walk(hull, p, start)
    {
        return (answer.truncate(), answer.w);
    }
    point_hull_scanned(hull, p)
}

/// [`point_hull`] from the plane scan: inside, on the surface, where the climb stops
/// short, or where its walk does not settle.
#[cold]
#[inline(never)]
fn point_hull_scanned(hull: &ConvexHull, p: Vec3) -> (Vec3, f32) {
    let (start, largest) = hull.furthest_plane(p);
    let start_normal = hull.planes()[start].normal;
    if largest <= 0.0 {
        return (start_normal, largest);
    }
    walk(hull, p, start).map_or_else(
        || {
            let (normal, distance) = point_polytope_scan(&Polytope::from_hull(hull), p);
            // A walk that does not settle has `p` on the surface within round-off, as a
            // rule: the direction from the closest point is then noise, while the face `p`
            // is furthest in front of passes within `distance` of it.
            if distance <= ON_SURFACE * (p.abs().max_element() + hull.bounding_radius()) {
                (start_normal, distance)
            } else {
                (normal, distance)
            }
        },
        |answer| (answer.truncate(), answer.w),
    )
}

/// A distance this small relative to the coordinates (a few hundred f32 ulps) puts a
/// point on the surface as far as its closest point's direction can tell.
const ON_SURFACE: f32 = 1e-5;

/// More steps than any walk takes: a longer one is caught in round-off.
const MAX_STEPS: usize = 64;

/// A feature of the polytope, by index.
#[derive(Clone, Copy, Debug)]
enum Place {
    Face(usize),
    Edge(usize),
    Vertex(usize),
}

/// What one step finds: the answer (normal, distance), or a closer feature.
enum Step {
    /// The normal in `xyz`, the distance in `w`: one register, where a `(Vec3, f32)`
    /// was stored field by field and read back whole (a failed store forward, seen in
    /// `perf annotate` of `prof sphere-hull`).
    Found(Vec4),
    Go(Place),
}

impl Step {
    #[inline(always)]
    fn found(normal: Vec3, distance: f32) -> Step {
        Step::Found(normal.extend(distance))
    }
}

/// The walk from face `start` (`p` in front of it); `None` when it does not settle.
#[inline(always)]
fn walk(hull: &ConvexHull, p: Vec3, start: usize) -> Option<Vec4> {
    let mut place = Place::Face(start);
    for _ in 0..MAX_STEPS {
        let step = match place {
            Place::Face(f) => face_step(hull, p, f)?,
            Place::Edge(e) => edge_step(hull, p, e)?,
            Place::Vertex(v) => vertex_step(hull, p, v)?,
        };
        match step {
            Step::Found(answer) => return Some(answer),
            Step::Go(next) => place = next,
        }
    }
    None
}

/// How far `p` lies outside the side plane of loop step `j` (an index into the face
/// loops): positive when its projection on the face's plane is outside the polygon
/// across that step. The face and edge steps read the same stored plane, so they agree
/// on the sign bit for bit.
#[inline(always)]
fn beyond_side(hull: &ConvexHull, j: usize, p: Vec3) -> f32 {
    hull.side_planes()[j].signed_distance(p)
}

/// True when `p` is strictly in front of face `f`'s plane.
#[inline(always)]
fn sees(hull: &ConvexHull, p: Vec3, f: u32) -> bool {
    hull.planes()[f as usize].signed_distance(p) > 0.0
}

/// The normal and distance of `p` from its closest point `q`, given `p − q`; `None`
/// when that is zero or not finite (the scan decides).
#[inline]
fn found(offset: Vec3) -> Option<Step> {
    let (distance, normal) = length_and_unit(offset)?;
    Some(Step::found(normal, distance))
}

/// A face `p` is in front of: the answer when `p` projects into its polygon, else the
/// closest point of its boundary over the edges `p` is beyond.
#[inline(always)]
fn face_step(hull: &ConvexHull, p: Vec3, f: usize) -> Option<Step> {
    let range = hull.face_starts()[f] as usize..hull.face_starts()[f + 1] as usize;
    let face = &hull.face_indices()[range.clone()];
    let sides = &hull.side_planes()[range.clone()];
    let edges = &hull.face_edges()[range];
    let mut closest = f32::INFINITY;
    let mut place = None;
    for (k, ((side, &i0), &edge)) in sides.iter().zip(face).zip(edges).enumerate() {
        if side.signed_distance(p) <= 0.0 {
            continue;
        }
        let i1 = next_in_loop(face, k);
        let (v0, v1) = (hull.vertices()[i0 as usize], hull.vertices()[i1 as usize]);
        // The segment's closest point: an end when `p` lies behind it along the
        // segment (the tests the edge and vertex steps make), else `v0 + t(v1 − v0)`.
        let (w0, along) = (p - v0, v1 - v0);
        let reach = w0.dot(along);
        let (squared, next) = if reach <= 0.0 {
            (w0.length_squared(), Place::Vertex(i0 as usize))
        } else if (p - v1).dot(v0 - v1) <= 0.0 {
            ((p - v1).length_squared(), Place::Vertex(i1 as usize))
        } else {
            let t = reach / along.length_squared();
            (
                (w0 - along * t).length_squared(),
                Place::Edge(edge as usize),
            )
        };
        if !squared.is_finite() {
            return None;
        }
        if squared < closest {
            closest = squared;
            place = Some(next);
        }
    }
    Some(match place {
        None => {
            let plane = hull.planes()[f];
            Step::found(plane.normal, plane.signed_distance(p))
        }
        Some(place) => Step::Go(place),
    })
}

/// An edge of the visible part: an end vertex when the segment's closest point is
/// there, a face that has `p` in front and on the inner side of the edge, else the
/// answer at the segment's closest point.
#[inline(always)]
fn edge_step(hull: &ConvexHull, p: Vec3, e: usize) -> Option<Step> {
    let edge = hull.edges()[e];
    let [i0, i1] = edge.vertices;
    let (v0, v1) = (hull.vertices()[i0 as usize], hull.vertices()[i1 as usize]);
    let (w0, along) = (p - v0, v1 - v0);
    let reach = w0.dot(along);
    if reach <= 0.0 {
        return Some(Step::Go(Place::Vertex(i0 as usize)));
    }
    if (p - v1).dot(v0 - v1) <= 0.0 {
        return Some(Step::Go(Place::Vertex(i1 as usize)));
    }
    let [f0, f1] = edge.faces;
    let [j0, j1] = hull.edge_steps()[e];
    if beyond_side(hull, j0 as usize, p) < 0.0 && sees(hull, p, f0) {
        return Some(Step::Go(Place::Face(f0 as usize)));
    }
    if beyond_side(hull, j1 as usize, p) < 0.0 && sees(hull, p, f1) {
        return Some(Step::Go(Place::Face(f1 as usize)));
    }
    let squared = along.length_squared();
    let offset = w0 - along * (reach / squared);
    // A hair from the edge, round-off in `offset` can turn its direction along the
    // edge or out of the wedge of the faces' normals (`n·s0 ≥ 0` and `n·s1 ≥ 0` with
    // `s0`, `s1` the side planes' normals): the part along the edge (zero but for
    // round-off) is taken out, and a direction past a face's normal is that normal.
    let across = offset - along * (offset.dot(along) / squared);
    // On the edge (`p` on the surface): any normal of the wedge, the first face's.
    let Some((distance, normal)) = length_and_unit(across) else {
        return Some(Step::found(hull.planes()[f0 as usize].normal, 0.0));
    };
    let normal = if hull.side_planes()[j0 as usize].normal.dot(normal) < 0.0 {
        hull.planes()[f0 as usize].normal
    } else if hull.side_planes()[j1 as usize].normal.dot(normal) < 0.0 {
        hull.planes()[f1 as usize].normal
    } else {
        normal
    };
    Some(Step::found(normal, distance))
}

/// A vertex of the visible part: the answer unless an edge leads closer
/// (`(p − v)·(w − v) > 0`); then the steepest such edge with a face that has `p` in
/// front, or, when round-off leaves none (`p` a hair from the surface), the steepest.
#[inline(always)]
fn vertex_step(hull: &ConvexHull, p: Vec3, v: usize) -> Option<Step> {
    let at = hull.vertices()[v];
    let offset = p - at;
    let range = hull.neighbor_starts()[v] as usize..hull.neighbor_starts()[v + 1] as usize;
    let edges = &hull.neighbor_edges()[range.clone()];
    // The steepest edge leading closer with a face that has `p` in front, and the
    // steepest of those without: (slope, edge), slope 0 for none.
    let (mut steepest, mut hidden) = ((0.0f32, 0usize), (0.0f32, 0usize));
    for (&w, &e) in hull.neighbor_indices()[range].iter().zip(edges) {
        let along = hull.vertices()[w as usize] - at;
        let reach = offset.dot(along);
        if reach <= 0.0 {
            continue;
        }
        if reach.is_nan() {
            return None;
        }
        let [f0, f1] = hull.edges()[e as usize].faces;
        // The rate of approach along the edge, squared: reach² / |w − v|².
        let slope = reach * reach / along.length_squared();
        let kept = if sees(hull, p, f0) || sees(hull, p, f1) {
            &mut steepest
        } else {
            &mut hidden
        };
        if slope > kept.0 {
            *kept = (slope, e as usize);
        }
    }
    if steepest.0 > 0.0 {
        return Some(Step::Go(Place::Edge(steepest.1)));
    }
    if hidden.0 > 0.0 {
        return Some(Step::Go(Place::Edge(hidden.1)));
    }
    if offset == Vec3::ZERO {
        // At the vertex (`p` on the surface): any normal of its cone, a face's.
        let e = edges.first().copied().unwrap_or(0) as usize;
        return Some(Step::found(
            hull.planes()[hull.edges()[e].faces[0] as usize].normal,
            0.0,
        ));
    }
    found(offset)
}

/// The slow twin of [`point_polytope`]: every face plane; outside, the face `p` is
/// furthest in front of if `p` projects into it, else every face in front of `p` and
/// each of its edges that `p` is beyond, the segments' closest points in f64.
pub(crate) fn point_polytope_scan(poly: &Polytope, p: Vec3) -> (Vec3, f32) {
    let mut deepest = 0;
    let mut largest = f32::NEG_INFINITY;
    for (f, plane) in poly.planes.iter().enumerate() {
        let d = plane.signed_distance(p);
        if d > largest {
            largest = d;
            deepest = f;
        }
    }
    if largest <= 0.0 {
        return (poly.planes[deepest].normal, largest);
    }
    // The whole polytope lies behind every face plane, so if p projects into the polygon
    // of the face it is furthest in front of, that projection is the closest point.
    if poly.projects_inside(deepest, p - poly.planes[deepest].normal * largest) {
        return (poly.planes[deepest].normal, largest);
    }
    // The closest point is on a face in front of p, inside that face's polygon or on
    // its boundary.
    let mut best_distance_squared = f32::INFINITY;
    let mut best_point = p;
    for (f, plane) in poly.planes.iter().enumerate() {
        let d = plane.signed_distance(p);
        if d <= 0.0 {
            continue;
        }
        let projected = p - plane.normal * d;
        let face = poly.face(f);
        let mut inside = true;
        for k in 0..face.len() {
            let v0 = poly.vertices[face[k] as usize];
            let v1 = poly.vertices[face[(k + 1) % face.len()] as usize];
            if (v1 - v0).cross(plane.normal).dot(projected - v0) > 0.0 {
                inside = false;
                let (on_edge, _) = closest_points_on_segments(v0, v1 - v0, p, Vec3::ZERO);
                let ds = (p - on_edge).length_squared();
                if ds < best_distance_squared {
                    best_distance_squared = ds;
                    best_point = on_edge;
                }
            }
        }
        if inside && d * d < best_distance_squared {
            best_distance_squared = d * d;
            best_point = projected;
        }
    }
    let distance = best_distance_squared.sqrt();
    let normal = ((p - best_point) / distance)
        .try_normalize()
        .unwrap_or(poly.planes[deepest].normal);
    (normal, distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_geometry::ConvexHull;
    use sepax_geometry::rng::Rng;

    /// The walk from the polar climb's face against the walk from the furthest plane
    /// (the path before the climb, kept for the cases the climb does not answer): the
    /// same bits on random hulls and points around them, inside, near and far.
    #[test]
    fn climb_start_gives_the_scan_start_bits() {
        let mut rng = Rng::new(0x5c1b);
        let mut outside = 0;
        for _ in 0..400 {
            let n = 4 + rng.below(60);
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.range(0.3, 1.0) * Vec3::new(1.0, 0.2, 0.7))
                .collect();
            let Ok(hull) = ConvexHull::try_from_points(&points) else {
                continue;
            };
            for _ in 0..100 {
                let p = rng.unit_vec3() * rng.range(0.0, 2.0) + hull.centroid();
                let climbed = point_hull(&hull, p);
                let scanned = point_hull_scanned(&hull, p);
                assert_eq!(
                    (climbed.0.to_array().map(f32::to_bits), climbed.1.to_bits()),
                    (scanned.0.to_array().map(f32::to_bits), scanned.1.to_bits()),
                    "{p}"
                );
                outside += usize::from(scanned.1 > 0.0);
            }
        }
        assert!(outside > 10_000, "{outside} points outside");
    }

    /// The walk against its slow twin on random hulls and points, inside, near and far:
    /// the same distance (to round-off).
    #[test]
    fn walk_agrees_with_the_scan() {
        let mut rng = Rng::new(0x3a1c);
        for _ in 0..200 {
            let n = 4 + rng.below(40);
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.range(0.3, 1.0))
                .collect();
            let Ok(hull) = ConvexHull::try_from_points(&points) else {
                continue;
            };
            let poly = Polytope::from_hull(&hull);
            for _ in 0..100 {
                let p = rng.unit_vec3() * rng.range(0.0, 3.0);
                let (_, walked) = point_polytope(&poly, p);
                let (_, scanned) = point_polytope_scan(&poly, p);
                assert!(
                    (walked - scanned).abs() < 1e-5,
                    "{p}: {walked} vs {scanned}"
                );
            }
        }
    }
}
