//! The f64 oracle of distances: the exact gap and closest points of two convex shapes
//! by enumerating their features, the twin of GJK ([`closest_points`](crate::closest_points)).
//!
//! Every shape is a **core** grown by a radius: a sphere is its centre grown by its
//! radius, a capsule its core segment grown by its radius, a box or hull its polytope
//! (radius 0). The distance of the shapes is the distance of the cores minus both radii,
//! along the same normal, and the closest points move out from the cores' by the radii.
//!
//! **Core distance.** The closest points of two separated convex polytopes can always be
//! taken as a vertex of one and a point of the other, or as points of an edge of each.
//! So the oracle takes the smallest of
//! * every core vertex of a against the whole core of b (its closest point: on a
//!   triangle of a face, a segment or the single point),
//! * every core vertex of b against the core of a,
//! * every edge of a against every edge of b (segment–segment closest points).
//!
//! A polytope's "triangles" are **all** triangles of three vertices of one face and its
//! "edges" **all** segments between two vertices of one face. Each of them lies in the
//! hull of the vertices (the set GJK measures), so every candidate pair is a pair of
//! points of the two shapes and its length bounds the distance from above; together
//! they cover the hull's boundary even where a merged face of a hull is slightly bent
//! (its vertices within the builder's tolerance of a plane, so that the true facets
//! are some other triangulation of them). The answer is thus exact, and the oracle
//! proves it on every call: [`ExactDistance::lower_bound`] is the gap of the two vertex
//! sets along the found normal (`min_b n·x − max_a n·x`, minus the radii), a lower
//! bound of the distance by the separating-plane argument, and equal to
//! [`separation`](ExactDistance::separation) up to round-off when the enumeration found
//! the closest features. The normal is the direction between the closest points or,
//! when it bounds the gap more tightly, the normal of the features they lie on (a
//! triangle's plane, two edges' cross product): for gaps near round-off the direction
//! between the points is poorly conditioned, the features' normal is not.
//!
//! **Touching and overlapping.** A vertex inside the other core or an edge through a
//! face gives no zero in the enumeration, so when the bound along the found normal does
//! not separate the cores, the vertex-projection SAT decides: every triangle normal of
//! both cores and every cross product of an edge of a with an edge of b (the face
//! normals of the Minkowski difference of two polytopes, or of a segment and a
//! polytope). A largest gap `g ≤ 0` means the cores meet and `−g` is their penetration;
//! the shapes' separation is then `g` minus both radii. Pairs of points and segments
//! need no SAT: their enumeration is exact (zero when they meet).
//!
//! Everything runs in world coordinates measured from a's position, so that pairs far
//! from the origin keep `f64`'s precision; rotations are normalized in `f64`, as GJK
//! does. Written for obviousness first; the only speed-ups are exact: a candidate is
//! skipped when a bounding-sphere bound shows it cannot beat the best so far.

use super::DEGENERATE_CROSS;
use super::capsule::{closest_points_of_segments, point_on_segment};
use super::triangle::closest_on;
use glam::{DVec3, Vec3};
use sepax_geometry::{Pose, Shape};

/// What the distance oracle found for a pair (a, b).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactDistance {
    /// The gap between the surfaces when positive (the shapes are apart); otherwise
    /// minus the penetration depth (`0`: touching).
    pub separation: f64,
    /// Unit normal from a to b: the direction from a's closest point to b's when apart,
    /// the SAT axis of the penetration otherwise (`+x` when two point or segment cores
    /// meet, where no direction is defined).
    pub normal: DVec3,
    /// The closest points of a and b (world frame, on their surfaces) when apart.
    pub points: Option<(DVec3, DVec3)>,
    /// A lower bound of `separation` proven independently of the enumeration: when
    /// apart, the gap of the cores' vertex sets along `normal` minus the radii (equal to
    /// `separation` up to round-off when the oracle is exact); otherwise `separation`.
    pub lower_bound: f64,
}

/// A triangle of a core, with a bounding sphere for pruning.
struct Triangle {
    corners: [DVec3; 3],
    /// Unit normal, or zero for a sliver (its sides still count, as edges).
    normal: DVec3,
    centre: DVec3,
    reach: f64,
}

/// A segment of a core, with a bounding sphere for pruning.
struct Segment {
    ends: [DVec3; 2],
    centre: DVec3,
    reach: f64,
}

/// A shape's core in world coordinates measured from the pair's origin, and its radius.
struct Core {
    vertices: Vec<DVec3>,
    segments: Vec<Segment>,
    triangles: Vec<Triangle>,
    radius: f64,
    /// A sphere around the core (for pruning): centre and radius.
    centre: DVec3,
    reach: f64,
}

impl Core {
    fn new(
        vertices: Vec<DVec3>,
        segments: Vec<Segment>,
        triangles: Vec<Triangle>,
        radius: f64,
    ) -> Core {
        let centre = vertices.iter().sum::<DVec3>() / vertices.len() as f64;
        let reach = vertices
            .iter()
            .map(|x| (*x - centre).length())
            .fold(0.0, f64::max);
        Core {
            vertices,
            segments,
            triangles,
            radius,
            centre,
            reach,
        }
    }

    /// A box or hull has faces; a point or segment core has none.
    fn is_solid(&self) -> bool {
        !self.triangles.is_empty()
    }

    /// A lower bound of the distance from `p` to the core.
    fn bound_from(&self, p: DVec3) -> f64 {
        (p - self.centre).length() - self.reach
    }
}

/// A box's face loops (CCW seen from outside), corner `i` at `+` on axis `k` when bit
/// `k` of `i` is set (as `ConvexHull::cuboid`).
const BOX_FACES: [[u32; 4]; 6] = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
];

fn segment(p: DVec3, q: DVec3) -> Segment {
    Segment {
        ends: [p, q],
        centre: (p + q) * 0.5,
        reach: (q - p).length() * 0.5,
    }
}

fn triangle(corners: [DVec3; 3]) -> Triangle {
    let [a, b, c] = corners;
    let cross = (b - a).cross(c - a);
    let length = cross.length();
    let centre = (a + b + c) / 3.0;
    Triangle {
        corners,
        normal: if length > 0.0 {
            cross / length
        } else {
            DVec3::ZERO
        },
        centre,
        reach: corners
            .iter()
            .map(|x| (*x - centre).length())
            .fold(0.0, f64::max),
    }
}

/// The core of a posed convex shape, measured from `origin`; `None` for a mesh.
fn core(shape: &Shape, pose: &Pose, origin: DVec3) -> Option<Core> {
    let q = pose.rotation.as_dquat().normalize();
    let shift = pose.translation.as_dvec3() - origin;
    let to_world = |v: Vec3| q * v.as_dvec3() + shift;
    let polytope = |points: &[Vec3], faces: &mut dyn Iterator<Item = &[u32]>| {
        let vertices: Vec<DVec3> = points.iter().map(|v| to_world(*v)).collect();
        let mut pairs = Vec::new();
        let mut triangles = Vec::new();
        for face in faces {
            for (i, &x) in face.iter().enumerate() {
                for (j, &y) in face.iter().enumerate().skip(i + 1) {
                    pairs.push((x.min(y), x.max(y)));
                    // Corners in the face's loop order: CCW seen from outside.
                    for &z in &face[j + 1..] {
                        let [x, y, z] = [x, y, z].map(|k| vertices[k as usize]);
                        triangles.push(triangle([x, y, z]));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let segments = pairs
            .iter()
            .map(|&(i, j)| segment(vertices[i as usize], vertices[j as usize]))
            .collect();
        Core::new(vertices, segments, triangles, 0.0)
    };
    Some(match shape {
        Shape::Sphere(s) => Core::new(
            vec![to_world(Vec3::ZERO)],
            Vec::new(),
            Vec::new(),
            s.radius() as f64,
        ),
        Shape::Capsule(c) => {
            let (bottom, top) = c.segment();
            let (p, q) = (to_world(bottom), to_world(top));
            Core::new(
                vec![p, q],
                vec![segment(p, q)],
                Vec::new(),
                c.radius() as f64,
            )
        }
        Shape::Cuboid(c) => polytope(&c.vertices(), &mut BOX_FACES.iter().map(|f| f.as_slice())),
        Shape::ConvexHull(h) => polytope(h.vertices(), &mut (0..h.face_count()).map(|f| h.face(f))),
        Shape::TriMesh(_) => return None,
    })
}

/// A pair of points, one of each core, and their distance; `axis` is the normal of the
/// features they came from (a triangle's plane, two segments' cross product; zero for
/// vertex pairs), a second candidate for the direction of the gap: better conditioned
/// than `b − a` when the gap is tiny.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    a: DVec3,
    b: DVec3,
    distance: f64,
    axis: DVec3,
}

/// The point of `core` nearest `p`, if nearer than `best` (a distance): the nearest of
/// its triangles' closest points (a solid), else of its segments, else its one vertex.
/// Returns the point, its distance and its feature's axis.
fn nearest_on(core: &Core, p: DVec3, best: f64) -> Option<(DVec3, f64, DVec3)> {
    let mut found: Option<(DVec3, f64, DVec3)> = None;
    let consider = |x: DVec3, axis: DVec3, found: &mut Option<(DVec3, f64, DVec3)>| {
        let d = (x - p).length();
        if d < found.map_or(best, |f| f.1) {
            *found = Some((x, d, axis));
        }
    };
    if core.is_solid() {
        for t in &core.triangles {
            if (t.centre - p).length() - t.reach >= found.map_or(best, |f| f.1) {
                continue;
            }
            let x = if t.normal == DVec3::ZERO {
                let [a, b, c] = t.corners;
                [(a, b), (b, c), (c, a)]
                    .map(|(u, v)| point_on_segment(p, u, v))
                    .into_iter()
                    .min_by(|x, y| (*x - p).length().total_cmp(&(*y - p).length()))
                    .unwrap_or(a)
            } else {
                closest_on(&t.corners, t.normal, p)
            };
            consider(x, t.normal, &mut found);
        }
    } else if !core.segments.is_empty() {
        for s in &core.segments {
            consider(
                point_on_segment(p, s.ends[0], s.ends[1]),
                DVec3::ZERO,
                &mut found,
            );
        }
    } else {
        consider(core.vertices[0], DVec3::ZERO, &mut found);
    }
    found
}

/// The closest candidate pair of the two cores.
///
/// Two exact prunings skip candidates that cannot beat the best pair so far (distance
/// `δ`): a triangle or segment whose bounding sphere is `δ` or more away, and a slab
/// bound. For any unit `n`, a point `x` of a is at least `m_b − n·x` from b (`m_b` the
/// least `n·y` over b's vertices), and a point `y` of b at least `n·y − M_a` from a
/// (`M_a` the greatest `n·x` over a's): with `n` the direction of the best pair, only
/// the features near the two supporting planes survive.
fn closest_candidates(a: &Core, b: &Core) -> Candidate {
    // Start from the closest vertex pair: a cheap, usually good bound for the pruning.
    let mut best = Candidate {
        a: a.vertices[0],
        b: b.vertices[0],
        distance: f64::INFINITY,
        axis: DVec3::ZERO,
    };
    for &x in &a.vertices {
        for &y in &b.vertices {
            let distance = (y - x).length();
            if distance < best.distance {
                best = Candidate {
                    a: x,
                    b: y,
                    distance,
                    axis: DVec3::ZERO,
                };
            }
        }
    }
    // `(n, M_a, m_b)` of the slab bound (all zero for a zero distance: nothing beats it).
    let slab = |best: &Candidate| {
        if best.distance > 0.0 {
            let n = (best.b - best.a) / best.distance;
            (n, extent(a, n).1, extent(b, n).0)
        } else {
            (DVec3::ZERO, 0.0, 0.0)
        }
    };
    let (n, max_a, min_b) = slab(&best);
    for &x in &a.vertices {
        if min_b - n.dot(x) < best.distance
            && b.bound_from(x) < best.distance
            && let Some((y, distance, axis)) = nearest_on(b, x, best.distance)
        {
            best = Candidate {
                a: x,
                b: y,
                distance,
                axis,
            };
        }
    }
    for &y in &b.vertices {
        if n.dot(y) - max_a < best.distance
            && a.bound_from(y) < best.distance
            && let Some((x, distance, axis)) = nearest_on(a, y, best.distance)
        {
            best = Candidate {
                a: x,
                b: y,
                distance,
                axis,
            };
        }
    }
    let (n, max_a, min_b) = slab(&best);
    let near_a: Vec<&Segment> = a
        .segments
        .iter()
        .filter(|s| {
            min_b - n.dot(s.ends[0]).max(n.dot(s.ends[1])) < best.distance
                && b.bound_from(point_on_segment(b.centre, s.ends[0], s.ends[1])) < best.distance
        })
        .collect();
    let near_b: Vec<&Segment> = b
        .segments
        .iter()
        .filter(|s| {
            n.dot(s.ends[0]).min(n.dot(s.ends[1])) - max_a < best.distance
                && a.bound_from(point_on_segment(a.centre, s.ends[0], s.ends[1])) < best.distance
        })
        .collect();
    for sa in &near_a {
        for sb in &near_b {
            if (sb.centre - sa.centre).length() - sa.reach - sb.reach >= best.distance {
                continue;
            }
            let [a0, a1] = sa.ends;
            let [b0, b1] = sb.ends;
            let (x, y, distance) = closest_points_of_segments(a0, a1, b0, b1);
            if distance < best.distance {
                let cross = (a1 - a0).cross(b1 - b0);
                let length = cross.length();
                best = Candidate {
                    a: x,
                    b: y,
                    distance,
                    axis: if length > 0.0 {
                        cross / length
                    } else {
                        DVec3::ZERO
                    },
                };
            }
        }
    }
    best
}

/// `(min, max)` of `u·x` over a core's vertices.
fn extent(core: &Core, u: DVec3) -> (f64, f64) {
    core.vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            let d = u.dot(*x);
            (lo.min(d), hi.max(d))
        })
}

/// `min_b u·x − max_a u·x` over the cores' vertices: their gap along `u` (a → b).
fn gap_along(a: &Core, b: &Core, u: DVec3) -> f64 {
    extent(b, u).0 - extent(a, u).1
}

/// The vertex-projection SAT of two cores, at least one of them solid: the largest gap
/// over every triangle normal and every edge × edge cross product, and its axis (a → b).
fn core_sat(a: &Core, b: &Core, first: DVec3) -> (f64, DVec3) {
    let mut best = (f64::NEG_INFINITY, first);
    let mut consider = |axis: DVec3| {
        let ((min_a, max_a), (min_b, max_b)) = (extent(a, axis), extent(b, axis));
        for (gap, u) in [(min_b - max_a, axis), (min_a - max_b, -axis)] {
            if gap > best.0 {
                best = (gap, u);
            }
        }
    };
    consider(first);
    for t in a.triangles.iter().chain(&b.triangles) {
        if t.normal != DVec3::ZERO {
            consider(t.normal);
        }
    }
    for sa in &a.segments {
        let da = sa.ends[1] - sa.ends[0];
        for sb in &b.segments {
            let db = sb.ends[1] - sb.ends[0];
            let c = da.cross(db);
            if c.length() > DEGENERATE_CROSS * da.length() * db.length() {
                consider(c.normalize());
            }
        }
    }
    best
}

/// The exact distance (or penetration) and closest points of two posed convex shapes
/// (see the [module docs](self)); `None` for an invalid pose or a triangle mesh.
///
/// ```
/// use glam::{DVec3, Vec3};
/// use sepax_geometry::{Cuboid, Pose, Shape, Sphere};
/// use sepax_narrowphase::oracle::distance::exact_distance;
///
/// let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::ONE).unwrap());
/// let ball = Shape::from(Sphere::try_new(0.5).unwrap());
/// let at = Pose::from_translation(Vec3::new(3.0, 3.0, 0.0));
/// let d = exact_distance(&cube, &Pose::IDENTITY, &ball, &at).unwrap();
/// // The nearest point of the cube is its edge at (1, 1, 0).
/// assert!((d.separation - (8f64.sqrt() - 0.5)).abs() < 1e-12);
/// let (on_cube, _) = d.points.unwrap();
/// assert!((on_cube - DVec3::new(1.0, 1.0, 0.0)).length() < 1e-12);
/// ```
pub fn exact_distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<ExactDistance> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    let origin = pose_a.translation.as_dvec3();
    let (ca, cb) = (core(a, pose_a, origin)?, core(b, pose_b, origin)?);
    Some(distance_of_cores(&ca, &cb, origin))
}

/// [`exact_distance`] from a posed convex shape to a triangle given by its world
/// corners, two-sided (a flat polytope: its plane is a face both ways, its sides are
/// edges): the oracle of casts against meshes. `None` for an invalid pose or a mesh.
pub fn exact_distance_to_triangle(
    a: &Shape,
    pose_a: &Pose,
    corners: [DVec3; 3],
) -> Option<ExactDistance> {
    if !pose_a.is_valid() {
        return None;
    }
    let origin = pose_a.translation.as_dvec3();
    let ca = core(a, pose_a, origin)?;
    let c = corners.map(|x| x - origin);
    let sides = vec![
        segment(c[0], c[1]),
        segment(c[1], c[2]),
        segment(c[2], c[0]),
    ];
    let cb = Core::new(c.to_vec(), sides, vec![triangle(c)], 0.0);
    Some(distance_of_cores(&ca, &cb, origin))
}

/// The exact answer for two cores measured from `origin`.
fn distance_of_cores(ca: &Core, cb: &Core, origin: DVec3) -> ExactDistance {
    let radii = ca.radius + cb.radius;
    let Candidate {
        a: pa,
        b: pb,
        distance: d,
        axis,
    } = closest_candidates(ca, cb);
    // The direction of the gap: `b − a`, or the features' axis turned the same way when
    // that bounds the gap more tightly (it does when the closest points are inside a
    // face or on two crossing edges, and it is exact even for a tiny gap).
    let (normal, lower) = if d > 0.0 {
        let along_points = (pb - pa) / d;
        let along_axis = if axis.dot(along_points) < 0.0 {
            -axis
        } else {
            axis
        };
        [along_points, along_axis]
            .map(|u| (u, gap_along(ca, cb, u)))
            .into_iter()
            .filter(|(u, _)| *u != DVec3::ZERO)
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap_or((along_points, f64::NEG_INFINITY))
    } else {
        (DVec3::X, 0.0)
    };
    // Apart for sure: the bound along the found normal separates the cores, or both
    // cores are points and segments (their enumeration is exact, zero when they meet).
    let solid = ca.is_solid() || cb.is_solid();
    if d > 0.0 && (lower > 0.0 || !solid) {
        return apart(pa, pb, d, normal, lower, ca, cb, origin);
    }
    if !solid {
        return ExactDistance {
            separation: -radii,
            normal,
            points: None,
            lower_bound: -radii,
        };
    }
    let (gap, axis) = core_sat(ca, cb, normal);
    if gap > 0.0 && d > 0.0 {
        // The SAT separates what the enumeration did not: not expected, but reported
        // honestly through the weaker bound.
        let mut found = apart(pa, pb, d, normal, lower, ca, cb, origin);
        found.lower_bound = gap - radii;
        return found;
    }
    let separation = gap.min(0.0) - radii;
    ExactDistance {
        separation,
        normal: axis,
        points: None,
        lower_bound: separation,
    }
}

/// The answer for cores apart by `d` between `pa` and `pb` (measured from `origin`).
#[allow(clippy::too_many_arguments)]
fn apart(
    pa: DVec3,
    pb: DVec3,
    d: f64,
    normal: DVec3,
    lower: f64,
    a: &Core,
    b: &Core,
    origin: DVec3,
) -> ExactDistance {
    let separation = d - a.radius - b.radius;
    ExactDistance {
        separation,
        normal,
        points: (separation > 0.0).then(|| {
            (
                pa + normal * a.radius + origin,
                pb - normal * b.radius + origin,
            )
        }),
        lower_bound: lower - a.radius - b.radius,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use sepax_geometry::{Capsule, ConvexHull, Cuboid, Sphere};
    use std::f32::consts::FRAC_PI_4;

    fn cube(h: f32) -> Shape {
        Shape::from(Cuboid::try_from_half_extents(Vec3::splat(h)).unwrap())
    }

    fn at(x: f32, y: f32, z: f32) -> Pose {
        Pose::from_translation(Vec3::new(x, y, z))
    }

    fn check(found: ExactDistance, separation: f64, points: Option<(DVec3, DVec3)>) {
        assert!(
            (found.separation - separation).abs() < 1e-6,
            "{found:?} vs {separation}"
        );
        assert!(
            (found.lower_bound - found.separation).abs() < 1e-6,
            "{found:?}"
        );
        match (found.points, points) {
            (Some((a, b)), Some((x, y))) => {
                assert!(
                    (a - x).length() < 1e-6 && (b - y).length() < 1e-6,
                    "{found:?}"
                )
            }
            (None, None) => {}
            _ => panic!("{found:?} vs {points:?}"),
        }
    }

    #[test]
    fn spheres_and_capsules_have_closed_forms() {
        let ball = Shape::from(Sphere::try_new(0.5).unwrap());
        let found = exact_distance(&ball, &at(10.0, 0.0, 0.0), &ball, &at(10.0, 3.0, 4.0));
        let points = (DVec3::new(10.0, 0.3, 0.4), DVec3::new(10.0, 2.7, 3.6));
        check(found.unwrap(), 4.0, Some(points));
        // Crossed capsules (cores along y and x), 2 apart along z: gap 2 − 0.25 − 0.5.
        let thin = Shape::from(Capsule::try_new(1.0, 0.25).unwrap());
        let fat = Shape::from(Capsule::try_new(1.0, 0.5).unwrap());
        let lying = Pose::new(
            Vec3::new(0.2, 0.3, 2.0),
            Quat::from_rotation_z(FRAC_PI_4 * 2.0),
        );
        let found = exact_distance(&thin, &at(0.0, 0.0, 0.0), &fat, &lying).unwrap();
        let points = (DVec3::new(0.0, 0.3, 0.25), DVec3::new(0.0, 0.3, 1.5));
        check(found, 1.25, Some(points));
        // Overlapping capsules: cores cross at a point, depth = the radii.
        let crossing = Pose::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4 * 2.0));
        let found = exact_distance(&thin, &Pose::IDENTITY, &fat, &crossing).unwrap();
        check(found, -0.75, None);
    }

    #[test]
    fn boxes_face_edge_and_vertex() {
        // Faces parallel, offset sideways: gap 0.5 along x, points on the facing faces.
        let found = exact_distance(
            &cube(1.0),
            &at(0.0, 0.0, 0.0),
            &cube(1.0),
            &at(2.5, 1.5, 0.0),
        );
        let found = found.unwrap();
        check(found, 0.5, found.points);
        assert!((found.normal - DVec3::X).length() < 1e-12);
        let (pa, pb) = found.points.unwrap();
        assert!((pa.x - 1.0).abs() < 1e-12 && (pb.x - 1.5).abs() < 1e-12);
        assert!((0.5..=1.0).contains(&pa.y) && (pa.y - pb.y).abs() < 1e-12);
        // Edge on edge: a turned 45° about z, b 45° about y, 3 apart along x.
        let s = 2f64.sqrt();
        let ra = Pose::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4));
        let rb = Pose::new(Vec3::new(3.0, 0.0, 0.0), Quat::from_rotation_y(FRAC_PI_4));
        let found = exact_distance(&cube(1.0), &ra, &cube(1.0), &rb).unwrap();
        // a's +x extreme is its edge x = √2 (all z); b's −x extreme its edge x = 3 − √2
        // (all y): they cross at (·, 0, 0).
        let points = (DVec3::new(s, 0.0, 0.0), DVec3::new(3.0 - s, 0.0, 0.0));
        check(found, 3.0 - 2.0 * s, Some(points));
        // Vertex against face: a cube corner-first towards a big box's face.
        let corner = Quat::from_rotation_arc(Vec3::ONE.normalize(), -Vec3::Y);
        let found = exact_distance(
            &cube(5.0),
            &at(0.0, 0.0, 0.0),
            &cube(1.0),
            &Pose::new(Vec3::new(1.0, 7.0, 2.0), corner),
        );
        let points = (
            DVec3::new(1.0, 5.0, 2.0),
            DVec3::new(1.0, 7.0 - 3f64.sqrt(), 2.0),
        );
        check(found.unwrap(), 2.0 - 3f64.sqrt(), Some(points));
    }

    #[test]
    fn overlap_without_a_vertex_inside_is_found() {
        // Two long thin bars crossing like a plus sign: no vertex of one inside the
        // other, yet they overlap by the bars' thickness.
        let bar = Shape::from(Cuboid::try_from_half_extents(Vec3::new(3.0, 0.1, 0.1)).unwrap());
        let across = Pose::new(
            Vec3::new(0.0, 0.0, 0.05),
            Quat::from_rotation_z(FRAC_PI_4 * 2.0),
        );
        let found = exact_distance(&bar, &Pose::IDENTITY, &bar, &across).unwrap();
        check(found, -0.15, None);
        // Apart by 0.1 along z: the edge pair gives it.
        let over = Pose::new(
            Vec3::new(0.0, 0.0, 0.3),
            Quat::from_rotation_z(FRAC_PI_4 * 2.0),
        );
        let found = exact_distance(&bar, &Pose::IDENTITY, &bar, &over).unwrap();
        assert!((found.separation - 0.1).abs() < 1e-6, "{found:?}");
    }

    #[test]
    fn hulls_and_spheres_inside_and_out() {
        let tetra = Shape::from(
            ConvexHull::try_from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap(),
        );
        // A ball over the slanted face x + y + z = 1, on its normal through the centroid.
        let n = Vec3::ONE.normalize();
        let centre = Vec3::splat(1.0 / 3.0) + n * 2.0;
        let ball = Shape::from(Sphere::try_new(0.5).unwrap());
        let found = exact_distance(
            &tetra,
            &at(0.0, 0.0, 0.0),
            &ball,
            &Pose::from_translation(centre),
        )
        .unwrap();
        let c = DVec3::splat(1.0 / 3.0);
        let nd = n.as_dvec3();
        check(found, 1.5, Some((c, c + nd * 1.5)));
        // A ball centred inside: depth = its radius plus the centre's depth.
        let found = exact_distance(&tetra, &Pose::IDENTITY, &ball, &at(0.1, 0.1, 0.1)).unwrap();
        check(found, -0.6, None);
        // Far from the origin the same answer.
        let far = Vec3::splat(1000.0);
        let found = exact_distance(
            &tetra,
            &Pose::from_translation(far),
            &ball,
            &Pose::from_translation(far + centre),
        )
        .unwrap();
        assert!((found.separation - 1.5).abs() < 1e-4, "{found:?}");
    }

    #[test]
    fn refuses_bad_poses() {
        let bad = at(f32::NAN, 0.0, 0.0);
        assert!(exact_distance(&cube(1.0), &bad, &cube(1.0), &Pose::IDENTITY).is_none());
    }
}
