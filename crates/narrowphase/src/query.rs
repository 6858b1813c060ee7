//! The entry points: [`collide`], [`contact`], [`intersects`] for every pair of 3D shapes.
//!
//! Each query brings b into a's frame, runs the separating-axis test that fits the pair
//! (box–box: 15 axes; anything with a hull: the polytope test with the box as a
//! polytope; anything with a sphere: a point query), and maps the answer back to the world.

use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::manifold::CLIP_TOLERANCE;
use crate::manifold::box_face::box_face_contact;
use crate::manifold::edge::closest_points_on_segments;
use crate::manifold::face::face_contact;
use crate::manifold::pack_id;
use crate::manifold::reduce::{Candidate, reduce};
use crate::polytope::{BoxPolytope, Polytope};
use crate::sat::box_box::{box_box, box_edge_segment};
use crate::sat::hull_hull::{SupportMode, hull_hull};
use crate::sat::sphere::{point_box, point_polytope, shape_sphere, sphere_shape, sphere_sphere};
use crate::sat::{Axis, Frame, SatOutcome, length_and_direction};
use glam::Vec3;
use sepax_geometry::{OrientedBox, Pose, Shape};
use smallvec::SmallVec;

/// The support evaluation used by default in hull queries: the plain scan.
///
/// Measured (criterion medians, 256 touching hull pairs per batch, cold caches,
/// `cargo bench -p sepax-benches --bench narrowphase -- hull_hull`, 2-core machine,
/// November 2026): 8-point hulls scan 344 µs / walk 402 µs, 24-point 928 / 947 µs,
/// 64-point 1.364 / 1.362 ms. The bound-based pruning leaves only a handful of faces
/// whose support is needed, so the walk's cheaper updates do not pay for its start-up;
/// there is no crossover up to 64 points and the scan stays the default everywhere.
pub const DEFAULT_SUPPORT_MODE: SupportMode = SupportMode::Scan;

/// A shape as the queries see it: spheres by radius, boxes by half extents (a box
/// polytope is built on the stack only when a hull query needs one), hulls as a
/// borrowed polytope.
enum Solid<'s> {
    Sphere(f32),
    Box(Vec3),
    Hull(Polytope<'s>),
}

impl<'s> Solid<'s> {
    fn new(shape: &'s Shape) -> Solid<'s> {
        match shape {
            Shape::Sphere(s) => Solid::Sphere(s.radius()),
            Shape::Cuboid(c) => Solid::Box(c.half_extents()),
            Shape::ConvexHull(h) => Solid::Hull(Polytope::from_hull(h)),
        }
    }

    /// Runs `f` on the solid as a polytope (`None` for a sphere).
    fn with_polytope<R>(&self, f: impl FnOnce(Option<&Polytope>) -> R) -> R {
        match self {
            Solid::Sphere(_) => f(None),
            Solid::Box(h) => f(Some(&BoxPolytope::new(*h).view())),
            Solid::Hull(p) => f(Some(p)),
        }
    }

    /// The radius of a ball about the shape's centre that lies inside it: sizes the
    /// feature slop and the clip tolerance.
    fn inner_radius(&self) -> f32 {
        match self {
            Solid::Sphere(r) => *r,
            Solid::Box(h) => h.min_element(),
            Solid::Hull(p) => p.inradius,
        }
    }

    /// Outward normal and signed distance of a local point.
    fn point_query(&self, p: Vec3) -> (Vec3, f32) {
        match self {
            Solid::Sphere(r) => {
                let (l, n) = length_and_direction(p).unwrap_or((0.0, Vec3::Z));
                (n, l - r)
            }
            Solid::Box(h) => point_box(*h, p),
            Solid::Hull(poly) => point_polytope(poly, p),
        }
    }
}

/// Runs `f` on both solids as polytopes; `None` if either is a sphere.
fn with_polytopes<R>(a: &Solid, b: &Solid, f: impl FnOnce(&Polytope, &Polytope) -> R) -> Option<R> {
    a.with_polytope(|pa| b.with_polytope(|pb| Some(f(pa?, pb?))))
}

/// `pose` with its rotation normalised: accepted rotations are unit within 1e-3, and
/// glam's rotation scales by `|q|²`, which would leave world normals that far off unit.
#[inline]
fn unit_rotation(pose: &Pose) -> Pose {
    Pose::new(pose.translation, pose.rotation.normalize())
}

/// The canonical order of a pair: true when `(b, pose_b)` comes before `(a, pose_a)`.
///
/// Every query computes in this order and mirrors the answer when the caller's order
/// is the other one, so `contact(b, a)` is `contact(a, b)` mirrored bit for bit (the
/// same depth, the normal negated, the features swapped), and likewise `collide` and
/// `intersects`. The order compares, as plain bit patterns: the shape kind, the
/// shape's size (radius, half extents, a hull's vertex count and first vertex), then
/// the pose. It depends only on the inputs, so it is deterministic; two identical
/// shapes at the same pose are the one case left in the caller's order.
pub(crate) fn canonical_swap(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    order_key(b, pose_b) < order_key(a, pose_a)
}

fn order_key(shape: &Shape, pose: &Pose) -> [u32; 12] {
    let bits = |v: f32| v.to_bits();
    let (kind, size) = match shape {
        Shape::Sphere(s) => (0, [bits(s.radius()), 0, 0, 0]),
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            (1, [bits(h.x), bits(h.y), bits(h.z), 0])
        }
        Shape::ConvexHull(h) => {
            let v = h.vertices()[0];
            (
                2,
                [h.vertices().len() as u32, bits(v.x), bits(v.y), bits(v.z)],
            )
        }
    };
    let (t, q) = (pose.translation, pose.rotation);
    [
        kind,
        size[0],
        size[1],
        size[2],
        size[3],
        bits(t.x),
        bits(t.y),
        bits(t.z),
        bits(q.x),
        bits(q.y),
        bits(q.z),
        bits(q.w),
    ]
}

fn run_sat(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
    mode: SupportMode,
) -> SatOutcome {
    match (a, b) {
        (Solid::Sphere(ra), Solid::Sphere(rb)) => sphere_sphere(*ra, *rb, frame, margin),
        (Solid::Sphere(ra), _) => sphere_shape(*ra, frame, margin, |p| b.point_query(p)),
        (_, Solid::Sphere(rb)) => shape_sphere(*rb, frame, margin, |p| a.point_query(p)),
        (Solid::Box(ha), Solid::Box(hb)) => box_box(*ha, *hb, frame, margin, cached),
        _ => with_polytopes(a, b, |pa, pb| {
            hull_hull(pa, pb, frame, margin, cached, mode)
        })
        .expect("spheres are handled above"),
    }
}

/// A margin that is negative or not a number behaves as 0.
#[inline]
pub(crate) fn sanitize_margin(margin: f32) -> f32 {
    if margin > 0.0 { margin } else { 0.0 }
}

/// The normal and depth of a pair along its minimum-penetration axis.
///
/// Returns `None` when the shapes are apart by more than `margin`; otherwise a
/// [`Contact`] whose normal points from a to b (world frame) and whose depth is positive
/// for penetration and negative (down to `−margin`) for a gap. Touching shapes
/// (depth 0) give a contact. A pose that is not [`Pose::is_valid`] (NaN, infinite,
/// non-unit rotation) gives `None`; a negative or NaN margin counts as 0.
///
/// ```
/// use sepax_geometry::{Cuboid, Pose, Shape};
/// use sepax_narrowphase::contact;
/// use glam::Vec3;
///
/// let unit = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
/// let c = contact(&unit, &Pose::IDENTITY, &unit, &Pose::from_translation(Vec3::new(0.9, 0.0, 0.0)), 0.0)
///     .unwrap();
/// assert!((c.normal - Vec3::X).length() < 1e-6);
/// assert!((c.depth - 0.1).abs() < 1e-5);
/// ```
pub fn contact(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, margin: f32) -> Option<Contact> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    if canonical_swap(a, pose_a, b, pose_b) {
        return contact_in_order(b, pose_b, a, pose_a, margin).map(|c| c.flipped());
    }
    contact_in_order(a, pose_a, b, pose_b, margin)
}

/// [`contact`] with the pair in the given order.
fn contact_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Option<Contact> {
    let frame = Frame::new(pose_a, pose_b);
    let outcome = run_sat(
        &Solid::new(a),
        &Solid::new(b),
        &frame,
        sanitize_margin(margin),
        None,
        DEFAULT_SUPPORT_MODE,
    );
    contact_from_outcome(pose_a, outcome)
}

/// The contact of a pair (in the order the SAT ran) from its SAT outcome.
pub(crate) fn contact_from_outcome(pose_a: &Pose, outcome: SatOutcome) -> Option<Contact> {
    match outcome {
        SatOutcome::Separated(_) => None,
        SatOutcome::Overlap { exact, .. } => Some(Contact {
            normal: unit_rotation(pose_a).transform_vector(exact.normal),
            depth: -exact.separation,
            feature: exact.feature,
        }),
    }
}

/// Seed 000's answer for two boxes given by centre, size and rotation: the minimum
/// translation vector `normal · depth` that moves `b` out of `a`, or the zero vector
/// when they do not penetrate (touching boxes give zero too, as there is nothing to
/// move). The normal points from a to b.
///
/// ```
/// use sepax_geometry::OrientedBox;
/// use sepax_narrowphase::minimum_translation;
/// use glam::{Quat, Vec3};
///
/// let a = OrientedBox::try_new(Vec3::ZERO, Vec3::splat(2.0), Quat::IDENTITY).unwrap();
/// let b = OrientedBox::try_new(Vec3::new(0.0, 1.5, 0.0), Vec3::splat(2.0), Quat::IDENTITY).unwrap();
/// assert!((minimum_translation(&a, &b) - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-5);
/// let far = OrientedBox::try_new(Vec3::new(5.0, 0.0, 0.0), Vec3::ONE, Quat::IDENTITY).unwrap();
/// assert_eq!(minimum_translation(&a, &far), Vec3::ZERO);
/// ```
pub fn minimum_translation(a: &OrientedBox, b: &OrientedBox) -> Vec3 {
    let (shape_a, pose_a) = a.split();
    let (shape_b, pose_b) = b.split();
    contact(&shape_a.into(), &pose_a, &shape_b.into(), &pose_b, 0.0)
        .map_or(Vec3::ZERO, |c| c.translation_vector())
}

/// True when the shapes touch or overlap (closed sets: touching counts). Stops at the
/// first separating axis. An invalid pose gives `false`.
pub fn intersects(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return false;
    }
    let ((a, pose_a), (b, pose_b)) = if canonical_swap(a, pose_a, b, pose_b) {
        ((b, pose_b), (a, pose_a))
    } else {
        ((a, pose_a), (b, pose_b))
    };
    let frame = Frame::new(pose_a, pose_b);
    matches!(
        run_sat(
            &Solid::new(a),
            &Solid::new(b),
            &frame,
            0.0,
            None,
            DEFAULT_SUPPORT_MODE
        ),
        SatOutcome::Overlap { .. }
    )
}

/// The contact manifold of a pair, using and updating its frame-to-frame `cache`.
///
/// Returns `None` when the shapes are apart by more than `margin` (the cache then holds
/// the separating axis, tried first next time). For a gap within the margin, a
/// manifold is returned only when some clipped point lies within the margin: the SAT
/// separation is a lower bound on the distance, so two boxes whose parallel faces are
/// offset corner to corner may pass the axis test and still have nothing within reach. Otherwise a [`Manifold`] with a normal
/// from a to b and 1 to 4 points, each with a world position, a depth (negative: a gap
/// within the margin, a speculative contact), a feature id and the anchors on both
/// shapes. The cache's remembered feature is kept as the reference while it is within
/// the [`FEATURE_SLOP`](crate::FEATURE_SLOP) of the exact axis (see [`PairCache`] for
/// what that guarantees); use one cache per pair, and a default cache for a cold answer.
/// An invalid pose gives `None` and leaves the cache as it was; a negative or NaN margin
/// counts as 0.
///
/// ```
/// use sepax_geometry::{Cuboid, Pose, Shape};
/// use sepax_narrowphase::{collide, PairCache};
/// use glam::Vec3;
///
/// let slab = Shape::from(Cuboid::try_from_half_extents(Vec3::new(5.0, 0.5, 5.0)).unwrap());
/// let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
/// let resting = Pose::from_translation(Vec3::new(0.0, 0.99, 0.0));
/// let mut cache = PairCache::default();
/// let m = collide(&slab, &Pose::IDENTITY, &cube, &resting, 0.0, &mut cache).unwrap();
/// assert_eq!(m.points.len(), 4);
/// assert!((m.normal - Vec3::Y).length() < 1e-6);
/// for p in &m.points {
///     assert!((p.depth - 0.01).abs() < 1e-5);
/// }
/// ```
pub fn collide(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
) -> Option<Manifold> {
    collide_with(a, pose_a, b, pose_b, margin, cache, DEFAULT_SUPPORT_MODE)
}

/// [`collide`] with an explicit support evaluation for hull queries (for benchmarks and
/// for tests that compare the two).
pub fn collide_with(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    mode: SupportMode,
) -> Option<Manifold> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return None;
    }
    if canonical_swap(a, pose_a, b, pose_b) {
        // The cache speaks the caller's order; the computation runs in the other.
        let mut inner = cache.flipped();
        let manifold = collide_in_order(b, pose_b, a, pose_a, margin, &mut inner, mode);
        *cache = inner.flipped();
        return manifold.map(Manifold::flipped);
    }
    collide_in_order(a, pose_a, b, pose_b, margin, cache, mode)
}

/// [`collide_with`] with the pair in the given order (poses already checked).
fn collide_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    mode: SupportMode,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let frame = Frame::new(pose_a, pose_b);
    let (solid_a, solid_b) = (Solid::new(a), Solid::new(b));
    let cached = cache.last.map(|c| c.feature);
    let outcome = run_sat(&solid_a, &solid_b, &frame, margin, cached, mode);
    manifold_from_outcome(&solid_a, &solid_b, pose_a, &frame, margin, cache, outcome)
}

/// A box pair's manifold (in the order the SAT ran, `margin` sanitised) from its
/// box–box SAT outcome: the batched queries' way into the clipping `collide` runs.
pub(crate) fn box_manifold_from_outcome(
    ha: Vec3,
    hb: Vec3,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    outcome: SatOutcome,
) -> Option<Manifold> {
    let (solid_a, solid_b) = (Solid::Box(ha), Solid::Box(hb));
    manifold_from_outcome(&solid_a, &solid_b, pose_a, frame, margin, cache, outcome)
}

/// Everything [`collide`] does after the SAT: the cache, the clipping, the world frame.
fn manifold_from_outcome(
    solid_a: &Solid,
    solid_b: &Solid,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    outcome: SatOutcome,
) -> Option<Manifold> {
    let (exact, preferred) = match outcome {
        SatOutcome::Separated(axis) => {
            cache.remember(axis.feature, true);
            return None;
        }
        SatOutcome::Overlap { exact, preferred } => (exact, preferred),
    };
    let clip_tolerance = CLIP_TOLERANCE * solid_a.inner_radius().min(solid_b.inner_radius());
    let build =
        |axis: &Axis| manifold_points(solid_a, solid_b, frame, axis, margin, clip_tolerance);
    let mut points = build(&preferred);
    let mut axis = preferred;
    if points.is_empty() && exact != preferred {
        points = build(&exact);
        axis = exact;
    }
    if points.is_empty() {
        if exact.separation > 0.0 {
            // A gap within the margin along the axis, but the facing features do not
            // overlap side by side: nothing is within the margin after all.
            cache.remember(preferred.feature, false);
            return None;
        }
        points.push(support_point(solid_a, solid_b, frame, &exact));
        axis = exact;
    }
    // The reference feature the preference keeps next time (see `sat`): the preferred
    // one even when it gave no points, so that the same poses with this cache take the
    // same path again (the pipeline reuses the answers of resting pairs on that ground).
    cache.remember(preferred.feature, false);
    keep_deepest(
        &mut points,
        solid_a,
        solid_b,
        frame,
        &axis,
        &exact,
        clip_tolerance,
    );
    let world = unit_rotation(pose_a);
    // Anchors: a's surface point is `c + n·d/2` (already in a's frame), b's is
    // `c − n·d/2`, taken to b's frame.
    let mut world_points: SmallVec<[ManifoldPoint; 4]> = SmallVec::new();
    for c in &points {
        let half = axis.normal * (0.5 * c.depth);
        world_points.push(ManifoldPoint {
            position: world.transform_point(c.point),
            depth: c.depth,
            id: c.id,
            anchor_a: c.point + half,
            anchor_b: frame.point_to_b(c.point - half),
        });
    }
    Some(Manifold {
        normal: world.transform_vector(axis.normal),
        points: world_points,
        feature: axis.feature,
    })
}

/// Manifold points for an axis, in a's frame.
fn manifold_points(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    margin: f32,
    clip_tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    let n = axis.normal;
    let s = axis.separation;
    match (a, b, axis.feature) {
        (Solid::Sphere(ra), _, _) => {
            let on_a = n * *ra;
            SmallVec::from_elem(
                Candidate {
                    point: on_a + n * (0.5 * s),
                    depth: -s,
                    id: 0,
                },
                1,
            )
        }
        (_, Solid::Sphere(rb), _) => {
            let on_b = frame.trans - n * *rb;
            SmallVec::from_elem(
                Candidate {
                    point: on_b - n * (0.5 * s),
                    depth: -s,
                    id: 0,
                },
                1,
            )
        }
        (Solid::Box(ha), Solid::Box(hb), Feature::FaceA(i)) => {
            box_face_contact(*ha, *hb, frame, i as usize, margin, clip_tolerance, false)
        }
        (Solid::Box(ha), Solid::Box(hb), Feature::FaceB(j)) => {
            let mut points = box_face_contact(
                *hb,
                *ha,
                &frame.inverse(),
                j as usize,
                margin,
                clip_tolerance,
                true,
            );
            for c in &mut points {
                c.point = frame.point_to_a(c.point);
            }
            points
        }
        (_, _, Feature::FaceA(i)) => with_polytopes(a, b, |pa, pb| {
            face_contact(pa, pb, frame, i as usize, margin, clip_tolerance, false)
        })
        .unwrap_or_default(),
        (_, _, Feature::FaceB(j)) => with_polytopes(a, b, |pa, pb| {
            let mut points = face_contact(
                pb,
                pa,
                &frame.inverse(),
                j as usize,
                margin,
                clip_tolerance,
                true,
            );
            for c in &mut points {
                c.point = frame.point_to_a(c.point);
            }
            points
        })
        .unwrap_or_default(),
        (_, _, Feature::EdgeEdge(ea, eb)) => {
            let segments = match (a, b) {
                (Solid::Box(ha), Solid::Box(hb)) => {
                    Some((box_edge_segment(*ha, ea), box_edge_segment(*hb, eb)))
                }
                _ => with_polytopes(a, b, |pa, pb| {
                    let segment = |p: &Polytope, e: u32| {
                        let edge = p.edges[e as usize];
                        (
                            p.vertices[edge.vertices[0] as usize],
                            p.vertices[edge.vertices[1] as usize],
                        )
                    };
                    (segment(pa, ea), segment(pb, eb))
                }),
            };
            let Some(((a0, a1), (b0, b1))) = segments else {
                return SmallVec::new();
            };
            let (b0, b1) = (frame.point_to_a(b0), frame.point_to_a(b1));
            let (on_a, on_b) = closest_points_on_segments(a0, a1 - a0, b0, b1 - b0);
            // A gap is measured between the segments, which can be wider than between
            // their lines (the axis separation); beyond the margin there is no point.
            let depth = if s > 0.0 { -(on_b - on_a).length() } else { -s };
            if depth < -margin {
                return SmallVec::new();
            }
            // Penetrating edges that support the axis cross it face to face: their
            // closest points are `s` apart along `n`. Otherwise (an axis from a pair
            // that only sets the depth, see `hull_hull`) the segments say nothing about
            // where the contact is, and the caller falls back to the deepest vertex.
            let reach = (a1 - a0).length() + (b1 - b0).length();
            if s <= 0.0 && ((on_b - on_a).dot(n) - s).abs() > 1e-3 * reach {
                return SmallVec::new();
            }
            SmallVec::from_elem(
                Candidate {
                    point: (on_a + on_b) * 0.5,
                    depth,
                    id: pack_id(false, ea, eb, [u16::MAX, u16::MAX]),
                },
                1,
            )
        }
        (_, _, Feature::Sphere) => SmallVec::new(),
    }
}

/// The incident shape's deepest vertex along the axis (b's along `−n` when a holds the
/// reference feature, a's along `n` when b does), moved halfway towards the other
/// surface, with the axis' depth. Its id names the vertex, so it stays the same while
/// that vertex is the deepest.
fn support_point(a: &Solid, b: &Solid, frame: &Frame, axis: &Axis) -> Candidate {
    let n = axis.normal;
    let depth = -axis.separation;
    let deepest = |solid: &Solid, dir: Vec3| {
        solid.with_polytope(|poly| {
            poly.map_or((Vec3::ZERO, u32::MAX), |p| {
                let i = p.support_index(dir);
                (p.vertices[i], i as u32)
            })
        })
    };
    let reference_is_b = matches!(axis.feature, Feature::FaceB(_));
    let (point, vertex) = if reference_is_b {
        let (v, i) = deepest(a, n);
        (v - n * (0.5 * depth), i)
    } else {
        let (v, i) = deepest(b, frame.rot_t * -n);
        (frame.point_to_a(v) + n * (0.5 * depth), i)
    };
    Candidate {
        point,
        depth,
        id: pack_id(
            reference_is_b,
            u32::MAX,
            u32::MAX,
            [u16::MAX - 1, vertex as u16],
        ),
    }
}

/// The deepest-point rule (see the `manifold` module docs): when clipping a penetrating
/// face contact left no point within the clip tolerance of the exact depth (the
/// incident shape's deepest vertex lies beyond the reference face's side planes, as
/// happens deep inside), that vertex joins the candidates with the depth of the axis and
/// the four are chosen again (the reduction keeps the deepest first).
fn keep_deepest(
    points: &mut SmallVec<[Candidate; 4]>,
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    axis: &Axis,
    exact: &Axis,
    clip_tolerance: f32,
) {
    let deepest = points
        .iter()
        .map(|c| c.depth)
        .fold(f32::NEG_INFINITY, f32::max);
    let wanted = -exact.separation;
    let face = matches!(axis.feature, Feature::FaceA(_) | Feature::FaceB(_));
    if !face || wanted <= 0.0 || deepest >= wanted - clip_tolerance {
        return;
    }
    let mut candidates: SmallVec<[Candidate; 5]> = SmallVec::from_slice(points);
    candidates.push(support_point(a, b, frame, axis));
    *points = reduce(&candidates, axis.normal, clip_tolerance);
}
