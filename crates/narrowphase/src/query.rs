//! The entry points: [`collide`], [`contact`], [`intersects`] for every pair of 3D shapes.
//!
//! Each query brings b into a's frame, runs the separating-axis test that fits the pair
//! (box–box: 15 axes; anything with a hull: the polytope test with the box as a
//! polytope; anything with a sphere: a point query; a capsule with a box or hull: the
//! segment–polytope query; two capsules: their segments' closest points, as manifolds
//! in a world-aligned frame, see `capsule_pair`; a sphere and a hull: the hull's
//! closest feature to the centre, in the hull's frame, see `sphere_pair`), and maps the
//! answer back to the world.

use crate::ManifoldPoints;
use crate::PairCache;
use crate::cache::SupportHints;
use crate::capsule_pair::{collide_capsules, contact_capsules};
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::distance::Core;
use crate::frame::Frame;
use crate::kept_feature::{Warm, warm_polytope_pair};
use crate::manifold::CLIP_TOLERANCE;
use crate::manifold::capsule::{capsule_points, deepest_endpoint};
use crate::manifold::deepest::{keep_deepest, support_point};
use crate::manifold::manifold_points;
use crate::manifold::reduce::Candidate;
use crate::math::sanitize_margin;
use crate::mesh::{collide_mesh, contact_mesh, with_thread_scratch};
use crate::sat::box_box::box_box;
use crate::sat::capsule::{CapsuleOutcome, capsule_query};
use crate::sat::hull_hull::{Remembered, SupportMode, hull_hull};
use crate::sat::sphere::{shape_sphere, sphere_shape, sphere_sphere};
use crate::sat::{Axis, SatOutcome};
use crate::solid::{Solid, with_polytopes};
use crate::speculative::{
    Cores, apart_within_margin, is_polytope_pair, speculative_contact, speculative_manifold,
};
use crate::sphere_pair::{
    collide_sphere, contact_sphere, sphere_and_target, sphere_intersect, two_spheres,
};
use glam::{Mat3A, Vec3, Vec3A};
use sepax_geometry::{Capsule, OrientedBox, Pose, Shape, TriMesh};

/// The support evaluation used by default in hull queries: the plain scan.
///
/// Measured (criterion medians, 256 touching hull pairs per batch, cold caches,
/// `cargo bench -p sepax-benches --bench narrowphase -- hull_hull`, 2-core machine,
/// November 2026): 8-point hulls scan 344 µs / walk 402 µs, 24-point 928 / 947 µs,
/// 64-point 1.364 / 1.362 ms. The bound-based pruning leaves only a handful of faces
/// whose support is needed, so the walk's cheaper updates do not pay for its start-up;
/// there is no crossover up to 64 points and the scan stays the default everywhere.
/// By instructions (the `seed003` bench's pairs, see the crate docs' "Seed 003's claim,
/// measured", with the 8-lane support scan) the walk takes 1.07× the scan's at 8
/// points, 1.04× at 24, 1.01× at 64 and 0.97× at 256.
pub const DEFAULT_SUPPORT_MODE: SupportMode = SupportMode::Scan;

/// `pose` with its rotation normalised: accepted rotations are unit within 1e-3, and
/// glam's rotation scales by `|q|²`, which would leave world normals that far off unit.
#[inline]
pub(crate) fn unit_rotation(pose: &Pose) -> Pose {
    Pose::new(pose.translation, pose.rotation.normalize())
}

/// The canonical order of a pair: true when `(b, pose_b)` comes before `(a, pose_a)`.
///
/// Every query computes in this order and mirrors the answer when the caller's order
/// is the other one, so `contact(b, a)` is `contact(a, b)` mirrored bit for bit (the
/// same depth, the normal negated, the features swapped), and likewise `collide` and
/// `intersects`. The order compares, as plain bit patterns: the shape kind, the
/// shape's size (radius, half extents, a hull's vertex count and first vertex, a
/// capsule's half height and radius), then the pose; kinds come in the order sphere,
/// box, hull, capsule. It depends only on the inputs, so it is deterministic; two
/// identical shapes at the same pose are the one case left in the caller's order.
#[inline]
pub(crate) fn canonical_swap(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    // The kind leads the key: two kinds decide it alone (most mixed pairs), without
    // building the whole keys.
    let (kind_a, kind_b) = (kind_rank(a), kind_rank(b));
    if kind_a != kind_b {
        return kind_b < kind_a;
    }
    order_key(b, pose_b) < order_key(a, pose_a)
}

/// [`canonical_swap`] for two boxes of half extents `ha` and `hb`, without building
/// `Shape`s: the same comparison, as the kind (and the size key's unused fourth entry)
/// is equal for two boxes, so the half extents' bits, then the poses', decide.
#[inline]
pub(crate) fn canonical_swap_boxes(ha: Vec3, pose_a: &Pose, hb: Vec3, pose_b: &Pose) -> bool {
    let key = |h: Vec3, pose: &Pose| {
        let (t, q) = (pose.translation, pose.rotation);
        [h.x, h.y, h.z, t.x, t.y, t.z, q.x, q.y, q.z, q.w].map(f32::to_bits)
    };
    key(hb, pose_b) < key(ha, pose_a)
}

/// [`canonical_swap`] for two capsules, without building `Shape` keys: the same
/// comparison, as the kind (and the size key's unused entries) is equal for two
/// capsules, so the half heights' and radii's bits, then the poses', decide.
#[inline]
pub(crate) fn canonical_swap_capsules(
    ca: &Capsule,
    pose_a: &Pose,
    cb: &Capsule,
    pose_b: &Pose,
) -> bool {
    let key = |c: &Capsule, pose: &Pose| {
        let (t, q) = (pose.translation, pose.rotation);
        [
            c.half_height(),
            c.radius(),
            t.x,
            t.y,
            t.z,
            q.x,
            q.y,
            q.z,
            q.w,
        ]
        .map(f32::to_bits)
    };
    key(cb, pose_b) < key(ca, pose_a)
}

/// The first entry of [`order_key`]: sphere, box, hull, capsule, mesh.
#[inline]
fn kind_rank(shape: &Shape) -> u32 {
    match shape {
        Shape::Sphere(_) => 0,
        Shape::Cuboid(_) => 1,
        Shape::ConvexHull(_) => 2,
        Shape::Capsule(_) => 3,
        Shape::TriMesh(_) => 4,
    }
}

/// Runs `f` when one of the shapes is a triangle mesh: `f(mesh, true)` when a is the
/// mesh, `f(mesh, false)` when b is; `None` (take the convex path) when neither is.
///
/// A pair with a mesh always computes with the mesh first and mirrors the answer when
/// the caller gave it second, so both orders agree bit for bit, as for convex pairs.
/// Two meshes never collide: the mesh path answers `None` / `false` for them. The pair
/// cache is not used (a mesh pair has one per body pair, not per triangle).
#[inline]
fn mesh_pair<R>(a: &Shape, b: &Shape, f: impl FnOnce(&TriMesh, bool) -> R) -> Option<R> {
    match (a, b) {
        (Shape::TriMesh(m), _) => Some(f(m, true)),
        (_, Shape::TriMesh(m)) => Some(f(m, false)),
        _ => None,
    }
}

#[inline]
fn order_key(shape: &Shape, pose: &Pose) -> [u32; 12] {
    let bits = |v: f32| v.to_bits();
    let kind = kind_rank(shape);
    let size = match shape {
        Shape::Sphere(s) => [bits(s.radius()), 0, 0, 0],
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            [bits(h.x), bits(h.y), bits(h.z), 0]
        }
        Shape::ConvexHull(h) => {
            let v = h.vertices()[0];
            [h.vertices().len() as u32, bits(v.x), bits(v.y), bits(v.z)]
        }
        // Capsules rank after every other kind: against a box or hull the polytope is
        // a, so the query runs in its frame.
        Shape::Capsule(c) => [bits(c.half_height()), bits(c.radius()), 0, 0],
        // Meshes never reach the SAT (see `mesh_pair`); a key for completeness.
        Shape::TriMesh(m) => {
            let v = m.vertices()[0];
            [m.triangle_count() as u32, bits(v.x), bits(v.y), bits(v.z)]
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

/// The separating-axis test that fits the pair. `cached` is last query's feature;
/// `remembered` that feature measured already by the warm path (hull pairs only), so
/// that the test does not measure it again.
#[allow(clippy::too_many_arguments)]
fn run_sat(
    a: &Solid,
    b: &Solid,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
    remembered: Option<Remembered>,
    mode: SupportMode,
    hints: &mut SupportHints,
) -> SatOutcome {
    match (a, b) {
        (Solid::Sphere(ra), Solid::Sphere(rb)) => sphere_sphere(*ra, *rb, frame, margin),
        (Solid::Sphere(ra), _) => sphere_shape(*ra, frame, margin, |p| b.point_query(p)),
        (_, Solid::Sphere(rb)) => shape_sphere(*rb, frame, margin, |p| a.point_query(p)),
        (Solid::Capsule(..), _) | (_, Solid::Capsule(..)) => {
            capsule_query(a, b, frame, margin).outcome
        }
        (Solid::Box(ha), Solid::Box(hb)) => box_box(*ha, *hb, frame, margin, cached),
        _ => with_polytopes(a, b, |pa, pb| {
            hull_hull(pa, pb, frame, margin, cached, remembered, mode, hints)
        })
        .expect("spheres are handled above"),
    }
}

/// Translations further apart than this along some axis are apart for every query:
/// their offset (at most `√3` times this long otherwise), turned into either shape's
/// frame, could overflow f32.
pub(crate) const FAR_APART: f32 = 5e37;

/// True when the translations are more than [`FAR_APART`] apart along some axis (their
/// difference, in f32, is `+∞` where it overflows): every query answers such a pair as
/// apart before it takes it into one frame.
#[inline(always)]
pub(crate) fn far_apart(pose_a: &Pose, pose_b: &Pose) -> bool {
    (pose_a.translation - pose_b.translation)
        .abs()
        .max_element()
        > FAR_APART
}

/// The normal and depth of a pair along its minimum-penetration axis.
///
/// Returns `None` when the shapes are apart by more than `margin`; otherwise a
/// [`Contact`] whose normal points from a to b (world frame) and whose depth is positive
/// for penetration and negative (down to `−margin`) for a gap. Touching shapes
/// (depth 0) give a contact. For a gap the depth is minus the true distance and the
/// normal the direction from a's closest point to b's (for two polytopes, the
/// separating axis when it is that direction, else GJK's; see [`collide`]). A pose that
/// is not [`Pose::is_valid`] (NaN, infinite, non-unit rotation) gives `None`, and so do
/// two poses more than 5e37 apart along an axis (see [`collide`]); a
/// negative or NaN margin counts as 0.
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
    if !(pose_a.is_valid() && pose_b.is_valid()) || far_apart(pose_a, pose_b) {
        return None;
    }
    if let (Shape::Capsule(ca), Shape::Capsule(cb)) = (a, b) {
        return two_capsules_contact((ca, pose_a), (cb, pose_b), sanitize_margin(margin));
    }
    if let Some(two) = two_spheres(a, pose_a, b, pose_b) {
        return two.contact(sanitize_margin(margin));
    }
    if let Some(pair) = sphere_and_target(a, pose_a, b, pose_b) {
        return contact_sphere(pair, sanitize_margin(margin));
    }
    if let Some(answer) = mesh_pair(a, b, |mesh, mesh_first| {
        with_thread_scratch(|scratch| match mesh_first {
            true => contact_mesh(mesh, pose_a, b, pose_b, margin, scratch),
            false => contact_mesh(mesh, pose_b, a, pose_a, margin, scratch).map(|c| c.flipped()),
        })
    }) {
        return answer;
    }
    contact_convex(a, pose_a, b, pose_b, margin, DEFAULT_SUPPORT_MODE)
}

/// [`contact`] with an explicit support evaluation for hull queries (for benchmarks that
/// compare the two, like [`collide_with`]). Meshes take [`contact`]'s way.
#[doc(hidden)]
pub fn contact_with(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    mode: SupportMode,
) -> Option<Contact> {
    // The mode matters to polytope pairs only: the others take `contact`'s way (a
    // sphere pair its own path, a mesh pair the mesh's, bad poses `None`).
    if !(pose_a.is_valid() && pose_b.is_valid())
        || far_apart(pose_a, pose_b)
        || mesh_pair(a, b, |_, _| ()).is_some()
        || matches!((a, b), (Shape::Sphere(_), Shape::Sphere(_)))
        || matches!((a, b), (Shape::Capsule(_), Shape::Capsule(_)))
        || sphere_and_target(a, pose_a, b, pose_b).is_some()
    {
        return contact(a, pose_a, b, pose_b, margin);
    }
    contact_convex(a, pose_a, b, pose_b, margin, mode)
}

/// [`contact`] of two convex shapes (valid poses): in the canonical order, flipped back.
#[inline(always)]
fn contact_convex(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    mode: SupportMode,
) -> Option<Contact> {
    if canonical_swap(a, pose_a, b, pose_b) {
        return contact_in_order(b, pose_b, a, pose_a, margin, mode).map(|c| c.flipped());
    }
    contact_in_order(a, pose_a, b, pose_b, margin, mode)
}

/// [`contact`] with the pair in the given order.
#[inline(always)]
fn contact_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    mode: SupportMode,
) -> Option<Contact> {
    let frame = Frame::new(pose_a, pose_b);
    let outcome = run_sat(
        &Solid::new(a),
        &Solid::new(b),
        &frame,
        sanitize_margin(margin),
        None,
        None,
        mode,
        &mut SupportHints::default(),
    );
    if let Some((exact, _)) = apart_within_margin(&outcome)
        && let Some(answer) = shapes_speculative_contact(a, pose_a, b, &frame, margin, &exact)
    {
        return answer;
    }
    contact_from_outcome(pose_a, outcome)
}

/// [`speculative_contact`] for two shapes, when both are polytopes (else `None`: the
/// SAT's answer stands).
#[cold]
#[inline(never)]
fn shapes_speculative_contact(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    frame: &Frame,
    margin: f32,
    exact: &Axis,
) -> Option<Option<Contact>> {
    let (solid_a, solid_b) = (Solid::new(a), Solid::new(b));
    if !is_polytope_pair(&solid_a, &solid_b) {
        return None;
    }
    let margin = sanitize_margin(margin);
    speculative_contact(
        &solid_a,
        &solid_b,
        cores(a, b),
        pose_a,
        frame,
        margin,
        exact,
    )
}

/// Both shapes' GJK cores (neither is a mesh: meshes take the mesh path first).
fn cores<'s>(a: &'s Shape, b: &'s Shape) -> Cores<'s> {
    let core = |s: &'s Shape| Core::of(s).expect("meshes take the mesh path").0;
    (core(a), core(b))
}

/// The contact of a pair (in the order the SAT ran) from its SAT outcome: the exact
/// axis. (A polytope pair apart within the margin is answered by
/// `speculative::speculative_contact` first.)
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
/// first separating axis. An invalid pose gives `false`, and so do two poses more than
/// 5e37 apart along an axis (see [`collide`]).
pub fn intersects(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    if !(pose_a.is_valid() && pose_b.is_valid()) || far_apart(pose_a, pose_b) {
        return false;
    }
    if let (Shape::Capsule(ca), Shape::Capsule(cb)) = (a, b) {
        return two_capsules_contact((ca, pose_a), (cb, pose_b), 0.0).is_some();
    }
    if let Some(two) = two_spheres(a, pose_a, b, pose_b) {
        return two.intersects();
    }
    if let Some(pair) = sphere_and_target(a, pose_a, b, pose_b) {
        return sphere_intersect(pair);
    }
    if let Some(answer) = mesh_pair(a, b, |mesh, mesh_first| {
        let (shape, pose, mesh_pose) = match mesh_first {
            true => (b, pose_b, pose_a),
            false => (a, pose_a, pose_b),
        };
        // A mesh contact at margin 0 is never apart (see `collide_mesh`).
        with_thread_scratch(|scratch| contact_mesh(mesh, mesh_pose, shape, pose, 0.0, scratch))
            .is_some()
    }) {
        return answer;
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
            None,
            DEFAULT_SUPPORT_MODE,
            &mut SupportHints::default(),
        ),
        SatOutcome::Overlap { .. }
    )
}

/// The contact manifold of a pair, using and updating its frame-to-frame `cache`.
///
/// Returns `None` when the shapes are apart by more than `margin` (the cache then holds
/// the separating axis, tried first next time). Otherwise a [`Manifold`] with a normal
/// from a to b and 1 to 4 points, each with a world position, a depth (negative: a gap
/// within the margin, a speculative contact), a feature id and the anchors on both
/// shapes. The cache's remembered feature is kept as the reference while it is within
/// the [`FEATURE_SLOP`](crate::FEATURE_SLOP) of the exact axis (see [`PairCache`] for
/// what that guarantees); use one cache per pair, and a default cache for a cold answer.
/// An invalid pose gives `None` and leaves the cache as it was, and so do two valid poses
/// whose translations are more than 5e37 apart along an axis: the pair is answered as
/// apart, which it is unless the shapes are about 5e37 across; f32 arithmetic cannot
/// place them otherwise (their offset, turned into a shape's frame, can overflow: the
/// capsule and hull paths turned that into a deep contact). A negative or NaN margin
/// counts as 0.
///
/// **Speculative contacts** (`margin > 0`, shapes apart by a distance `d ≤ margin`):
/// the deepest point has depth `−d`, at the closest points, and the normal is the
/// direction from a's closest point to b's. Spheres and capsules measure `d` exactly. For
/// two polytopes (boxes, hulls) the separating axis only bounds the gap from below (two
/// boxes corner to corner are further apart than along any face or edge axis), so a
/// pair the axis test finds apart within the margin is measured again by GJK, warm from
/// the cache: beyond the margin it gets no manifold; when the separating axis is the
/// closest direction (a face over a vertex or a face, crossing edges) the manifold
/// clipped on it stands; otherwise the manifold is built on the closest features — one
/// point halfway between the closest points, or the two ends of the overlap of two
/// (nearly) parallel edges, each with its own depth — with the feature
/// [`Feature::Closest`]. Within [`SPECULATIVE_TOLERANCE`](crate::SPECULATIVE_TOLERANCE)
/// of the size and [`SPECULATIVE_ANGLE`](crate::SPECULATIVE_ANGLE), the depth is `−d`
/// and the normal the closest direction either way.
///
/// **Warm hull pairs.** A hull–hull or box–hull pair first measures the cache's feature.
/// When the pair overlaps along it, and a point lies deep enough inside the shapes,
/// every other axis is provably within the slop of it: the feature is kept and its
/// manifold built without the rest of the test ([`QueryPath::Kept`]). The answer and
/// the remembered feature are those of the full test ([`collide_full`]), bit for bit;
/// only the time differs. Resting and shallow contacts (a hull on the ground, a box on
/// a hull, edges crossing a few percent deep) take this path; deep contacts take the
/// full test. The proof and its round-off allowance are in the
/// narrow phase's `sat::hull_hull::warm` module docs (in the source).
///
/// **Replayed face contacts.** When a kept face's pair moves slowly (less than 0.4 % of
/// the incident shape's radius since its clip before), the clip records which
/// features its points lie on and how far the incident shape may move before a fresh
/// clip could name other points (the signs that decide the clip, with their margins).
/// While the pair stays within that reach, later queries work the points out straight
/// from those features instead of clipping and reducing again ([`QueryPath::Replayed`]):
/// the verdict, feature and normal are the full test's bit for bit; each point is the
/// full test's point of the same id within round-off (its place, depth and anchors;
/// on a hull face merged from nearly coplanar ones, within that face's flatness);
/// but the choice of at most four points is the clip's, where a fresh reduction may
/// pick others among near ties (each within the clip tolerance of the one kept), and
/// points that came within the margin since are not added. The deepest-point rule is
/// checked every time. A query whose poses are those of the clip clips again, so the
/// same poses and the cache a query left give the same answer. Tested against the full
/// test on resting sequences, and against the clipper on random poses within the reach
/// (the narrow phase's `manifold::replay` module docs, in the source). The hull pile of
/// the `stress` example, 2,000 resting 12-gon face contacts, spends 40 % less time in
/// the step with it.
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
    // Straight to the body: a `Manifold` is a few hundred bytes, and a tuple around it
    // would be copied on the way out.
    let mut path = QueryPath::Full;
    collide_on(a, pose_a, b, pose_b, margin, cache, (mode, true), &mut path)
}

/// Which way [`collide`] answered a pair (see [`collide_path`]). More ways may come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryPath {
    /// The full query: every candidate axis that can win was measured (or the first
    /// that separates). Every pair but the warm hull pairs below.
    Full,
    /// A hull–hull or box–hull pair whose reference feature from last query (the pair
    /// cache's face or edge pair) was proven to stay: only that feature and the planes
    /// around a point or two were read, then the manifold was built on it. The answer
    /// is the full query's, bit for bit (see "Warm hull pairs" in the docs of
    /// [`collide`]).
    Kept,
    /// As [`Kept`](QueryPath::Kept), with the face contact's points worked out from the
    /// features a clip made on an earlier query named, without clipping: the same
    /// feature and normal as the full query's, each point the full query's point of the
    /// same id within round-off, except that the choice of at most four points is the
    /// earlier clip's (see "Replayed face contacts" in the docs of [`collide`]).
    Replayed,
}

impl QueryPath {
    /// True when the warm path kept last query's feature ([`Kept`](QueryPath::Kept) or
    /// [`Replayed`](QueryPath::Replayed)).
    pub fn kept_feature(self) -> bool {
        matches!(self, QueryPath::Kept | QueryPath::Replayed)
    }
}

/// [`collide`], also saying which way it answered: for tests and profiling (how many
/// pairs of a scene take the warm path). The same answer and cache as `collide`.
///
/// ```
/// use sepax_geometry::{ConvexHull, Pose, Shape};
/// use sepax_narrowphase::{PairCache, QueryPath, collide_path};
/// use glam::Vec3;
///
/// let slab = Shape::from(ConvexHull::cuboid(Vec3::new(5.0, 0.5, 5.0)).unwrap());
/// let cube = Shape::from(ConvexHull::cuboid(Vec3::splat(0.5)).unwrap());
/// let resting = Pose::from_translation(Vec3::new(0.0, 0.99, 0.0));
/// let mut cache = PairCache::default();
/// // The first query has no feature to keep; the second keeps the slab's top face.
/// let (_, first) = collide_path(&slab, &Pose::IDENTITY, &cube, &resting, 0.0, &mut cache);
/// let (m, second) = collide_path(&slab, &Pose::IDENTITY, &cube, &resting, 0.0, &mut cache);
/// assert_eq!((first, second), (QueryPath::Full, QueryPath::Kept));
/// assert_eq!(m.unwrap().points.len(), 4);
/// ```
pub fn collide_path(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
) -> (Option<Manifold>, QueryPath) {
    let mut path = QueryPath::Full;
    let how = (DEFAULT_SUPPORT_MODE, true);
    let answer = collide_on(a, pose_a, b, pose_b, margin, cache, how, &mut path);
    (answer, path)
}

/// [`collide`] writing its answer into `out`, and saying which way it answered: what a
/// pipeline that counts its warm pairs calls. The same answer and cache as `collide`.
/// A polytope or capsule pair's manifold (a few hundred bytes) is built straight in
/// `out`, with no copy on the way out; the sphere and mesh pairs' are moved in.
///
/// ```
/// use sepax_geometry::{ConvexHull, Pose, Shape};
/// use sepax_narrowphase::{PairCache, QueryPath, collide_into};
/// use glam::Vec3;
///
/// let ground = Shape::from(ConvexHull::cuboid(Vec3::new(5.0, 0.5, 5.0)).unwrap());
/// let cube = Shape::from(ConvexHull::cuboid(Vec3::splat(0.5)).unwrap());
/// let resting = Pose::from_translation(Vec3::new(0.0, 0.99, 0.0));
/// let (mut cache, mut out) = (PairCache::default(), None);
/// assert_eq!(collide_into(&ground, &Pose::IDENTITY, &cube, &resting, 0.0, &mut cache, &mut out), QueryPath::Full);
/// assert_eq!(collide_into(&ground, &Pose::IDENTITY, &cube, &resting, 0.0, &mut cache, &mut out), QueryPath::Kept);
/// assert_eq!(out.unwrap().points.len(), 4);
/// ```
pub fn collide_into(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    out: &mut Option<Manifold>,
) -> QueryPath {
    let mut path = QueryPath::Full;
    let how = (DEFAULT_SUPPORT_MODE, true);
    if !takes_convex_pair(a, b) {
        *out = collide_on(a, pose_a, b, pose_b, margin, cache, how, &mut path);
        return path;
    }
    // A polytope or capsule pair: straight into `out`, where `collide_on` would build
    // it in its own slot and this copy it over (a memcpy a pair).
    if !(pose_a.is_valid() && pose_b.is_valid()) || far_apart(pose_a, pose_b) {
        *out = None;
        return path;
    }
    let manifold = out.insert(empty_manifold());
    if !convex_pair(
        a, pose_a, b, pose_b, margin, cache, how, &mut path, manifold,
    ) {
        *out = None;
    }
    path
}

/// [`collide`] without its warm path: every pair takes the full query
/// ([`QueryPath::Full`]). The same answer and the same cached feature as `collide`, bit
/// for bit (only the support vertices the cache keeps as hints may differ): the twin
/// the warm path is tested against, and the cold side of the benchmarks.
pub fn collide_full(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
) -> Option<Manifold> {
    let mut path = QueryPath::Full;
    let how = (DEFAULT_SUPPORT_MODE, false);
    collide_on(a, pose_a, b, pose_b, margin, cache, how, &mut path)
}

/// The body of [`collide_with`], [`collide_path`] and [`collide_full`], and of
/// [`collide_into`] for the pairs it does not build in place: `how` is the support mode
/// and whether the warm path may answer; `path` is set when it does.
#[allow(clippy::too_many_arguments)]
fn collide_on(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    how: (SupportMode, bool),
    path: &mut QueryPath,
) -> Option<Manifold> {
    if !(pose_a.is_valid() && pose_b.is_valid()) || far_apart(pose_a, pose_b) {
        return None;
    }
    if let (Shape::Capsule(ca), Shape::Capsule(cb)) = (a, b) {
        return two_capsules((ca, pose_a), (cb, pose_b), margin, cache);
    }
    if let Some(two) = two_spheres(a, pose_a, b, pose_b) {
        return two.manifold(sanitize_margin(margin), cache);
    }
    if let Some(pair) = sphere_and_target(a, pose_a, b, pose_b) {
        return collide_sphere(pair, sanitize_margin(margin), cache);
    }
    if let Some(answer) = mesh_pair(a, b, |mesh, mesh_first| {
        with_thread_scratch(|scratch| match mesh_first {
            true => collide_mesh(mesh, pose_a, b, pose_b, margin, scratch),
            false => collide_mesh(mesh, pose_b, a, pose_a, margin, scratch).map(|mut m| {
                m.flip();
                m
            }),
        })
    }) {
        return answer;
    }
    // The manifold is written once, in place (a `Manifold` is a few hundred bytes:
    // moving it through every layer costs more than building it), mirrored there when
    // the pair runs in the other order.
    let mut answer = Some(empty_manifold());
    let Some(manifold) = &mut answer else {
        unreachable!("just made")
    };
    if !convex_pair(a, pose_a, b, pose_b, margin, cache, how, path, manifold) {
        answer = None;
    }
    answer
}

/// Whether [`collide_on`] sends the pair to [`convex_pair`] (once the poses pass): not
/// two capsules, two spheres, a sphere and a box or hull, or a mesh.
fn takes_convex_pair(a: &Shape, b: &Shape) -> bool {
    let sphere_and_target = |s: &Shape, t: &Shape| {
        matches!(s, Shape::Sphere(_))
            && matches!(
                t,
                Shape::Sphere(_) | Shape::Cuboid(_) | Shape::ConvexHull(_)
            )
    };
    !(matches!((a, b), (Shape::Capsule(_), Shape::Capsule(_)))
        || sphere_and_target(a, b)
        || sphere_and_target(b, a)
        || matches!(a, Shape::TriMesh(_))
        || matches!(b, Shape::TriMesh(_)))
}

/// The polytope and capsule pairs of [`collide_on`] (poses checked): the pair in its
/// canonical order, the manifold written to `manifold`; true when they touch.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn convex_pair(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    how: (SupportMode, bool),
    path: &mut QueryPath,
    manifold: &mut Manifold,
) -> bool {
    if canonical_swap(a, pose_a, b, pose_b) {
        // The cache speaks the caller's order; the computation runs in the other.
        let mut inner = cache.flipped();
        let found = collide_in_order(
            b, pose_b, a, pose_a, margin, &mut inner, how, path, true, manifold,
        );
        *cache = inner.flipped();
        found
    } else {
        collide_in_order(
            a, pose_a, b, pose_b, margin, cache, how, path, false, manifold,
        )
    }
}

/// Two capsules (poses checked): [`collide_capsules`] in the canonical order, first of
/// the convex pairs. The other order needs no flipped cache: the capsule query reads
/// nothing of the cache and remembers only `EdgeEdge(0, 0)`, which is its own mirror,
/// so the cache comes out as the flip, the query and the flip back would leave it.
fn two_capsules(
    (ca, pose_a): (&Capsule, &Pose),
    (cb, pose_b): (&Capsule, &Pose),
    margin: f32,
    cache: &mut PairCache,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    // Built in place, as in `collide_on`.
    let mut answer = Some(empty_manifold());
    let Some(manifold) = &mut answer else {
        unreachable!("just made")
    };
    let found = if canonical_swap_capsules(ca, pose_a, cb, pose_b) {
        collide_capsules(cb, pose_b, ca, pose_a, margin, cache, true, manifold)
    } else {
        collide_capsules(ca, pose_a, cb, pose_b, margin, cache, false, manifold)
    };
    if !found {
        answer = None;
    }
    answer
}

/// [`contact`] of two capsules (poses checked, margin sanitised): [`contact_capsules`]
/// in the canonical order, the query [`two_capsules`] runs, so `collide`, `contact` and
/// `intersects` agree bit for bit on a capsule pair.
fn two_capsules_contact(
    (ca, pose_a): (&Capsule, &Pose),
    (cb, pose_b): (&Capsule, &Pose),
    margin: f32,
) -> Option<Contact> {
    if canonical_swap_capsules(ca, pose_a, cb, pose_b) {
        contact_capsules(cb, pose_b, ca, pose_a, margin, true)
    } else {
        contact_capsules(ca, pose_a, cb, pose_b, margin, false)
    }
}

/// A placeholder for a manifold the query writes.
#[inline(always)]
fn empty_manifold() -> Manifold {
    Manifold {
        normal: Vec3::ZERO,
        points: ManifoldPoints::new(),
        feature: Feature::Sphere,
    }
}

/// [`collide_with`] with the pair in the given order (poses already checked): true when
/// the pair touches, its manifold written to `out`, [`Manifold::flip`]ped when
/// `mirrored` (the caller gave the other order).
#[allow(clippy::too_many_arguments)]
fn collide_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    (mode, warm): (SupportMode, bool),
    path: &mut QueryPath,
    mirrored: bool,
    out: &mut Manifold,
) -> bool {
    let margin = sanitize_margin(margin);
    let frame = Frame::new(pose_a, pose_b);
    let (solid_a, solid_b) = (Solid::new(a), Solid::new(b));
    let sphere = |s: &Solid| matches!(s, Solid::Sphere(_));
    if (solid_a.is_capsule() || solid_b.is_capsule()) && !(sphere(&solid_a) || sphere(&solid_b)) {
        let query = capsule_query(&solid_a, &solid_b, &frame, margin);
        return capsule_manifold(
            &solid_a, &solid_b, pose_a, &frame, margin, cache, query, mirrored, out,
        );
    }
    let cached = cache.last.map(|c| c.feature);
    // The warm path of a hull–hull or box–hull pair (`kept_feature`).
    let mut remembered = None;
    let box_pair = matches!((&solid_a, &solid_b), (Solid::Box(_), Solid::Box(_)));
    if warm && !box_pair && is_polytope_pair(&solid_a, &solid_b) {
        match warm_polytope_pair(
            &solid_a, &solid_b, pose_a, &frame, margin, cache, mode, mirrored, out,
        ) {
            Warm::Separated => return false,
            Warm::Kept { replayed } => {
                *path = if replayed {
                    QueryPath::Replayed
                } else {
                    QueryPath::Kept
                };
                return true;
            }
            Warm::Full(measured) => remembered = measured,
        }
    }
    let outcome = run_sat(
        &solid_a,
        &solid_b,
        &frame,
        margin,
        cached,
        remembered,
        mode,
        &mut cache.support,
    );
    if let Some(axes) = apart_within_margin(&outcome)
        && is_polytope_pair(&solid_a, &solid_b)
        && let Some(found) = speculative_manifold(
            &solid_a,
            &solid_b,
            cores(a, b),
            pose_a,
            &frame,
            margin,
            cache,
            axes,
            mirrored,
            out,
        )
    {
        return found;
    }
    manifold_from_outcome(
        &solid_a, &solid_b, pose_a, &frame, margin, cache, &outcome, mirrored, out,
    )
}

/// A box pair's manifold (in the order the SAT ran, `margin` sanitised) from its
/// box–box SAT outcome, written to `out` ([`Manifold::flip`]ped when `mirrored`: the
/// caller gave the other order), or `None` there when the pair does not touch: the
/// batched queries' way into the clipping `collide` runs. Built in place: an
/// `Option<Manifold>` is 224 bytes, copied at every move.
#[allow(clippy::too_many_arguments)]
pub(crate) fn box_manifold_into(
    ha: Vec3,
    hb: Vec3,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    outcome: &SatOutcome,
    mirrored: bool,
    out: &mut Option<Manifold>,
) {
    let (solid_a, solid_b) = (Solid::Box(ha), Solid::Box(hb));
    let manifold = out.insert(empty_manifold());
    if let Some(axes) = apart_within_margin(outcome) {
        let cores = (Core::Box(ha), Core::Box(hb));
        if let Some(found) = speculative_manifold(
            &solid_a, &solid_b, cores, pose_a, frame, margin, cache, axes, mirrored, manifold,
        ) {
            if !found {
                *out = None;
            }
            return;
        }
    }
    let found = manifold_from_outcome(
        &solid_a, &solid_b, pose_a, frame, margin, cache, outcome, mirrored, manifold,
    );
    if !found {
        *out = None;
    }
}

/// Everything [`collide`] does after the SAT: the cache, the clipping, the world frame
/// (mirrored when `mirrored`); true when the pair touches, its manifold in `out`. (A
/// polytope pair apart within the margin goes to `speculative::speculative_manifold`
/// first, which comes back here only when GJK finds it touching after all.)
#[allow(clippy::too_many_arguments)]
fn manifold_from_outcome(
    solid_a: &Solid,
    solid_b: &Solid,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    outcome: &SatOutcome,
    mirrored: bool,
    out: &mut Manifold,
) -> bool {
    // By reference, read field by field: a copy of the outcome's axes read them back
    // with wider loads than the stores that wrote them (a failed store forward).
    let (exact, preferred) = match outcome {
        SatOutcome::Separated(axis) => {
            cache.remember(axis.feature, true);
            return false;
        }
        SatOutcome::Overlap { exact, preferred } => (exact, preferred),
    };
    let clip_tolerance = CLIP_TOLERANCE * solid_a.inner_radius().min(solid_b.inner_radius());
    let build =
        |axis: &Axis| manifold_points(solid_a, solid_b, frame, axis, margin, clip_tolerance);
    let mut points = build(preferred);
    let mut axis = preferred;
    if points.is_empty() && exact != preferred {
        points = build(exact);
        axis = exact;
    }
    if points.is_empty() {
        if exact.separation > 0.0 {
            // A gap within the margin along the axis, but the facing features do not
            // overlap side by side: nothing is within the margin after all.
            cache.remember(preferred.feature, false);
            return false;
        }
        points.push(support_point(
            solid_a,
            solid_b,
            frame,
            exact,
            clip_tolerance,
        ));
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
        axis,
        exact,
        clip_tolerance,
    );
    to_world(pose_a, frame, axis, &points, mirrored, out);
    true
}

/// A pair with a capsule (and no sphere): [`manifold_from_outcome`] for the capsule
/// queries, whose manifolds come from the closest points they found (see
/// `manifold::capsule`).
#[allow(clippy::too_many_arguments)]
fn capsule_manifold(
    solid_a: &Solid,
    solid_b: &Solid,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    query: CapsuleOutcome,
    mirrored: bool,
    out: &mut Manifold,
) -> bool {
    let (exact, preferred) = match query.outcome {
        SatOutcome::Separated(axis) => {
            cache.remember(axis.feature, true);
            return false;
        }
        SatOutcome::Overlap { exact, preferred } => (exact, preferred),
    };
    cache.remember(preferred.feature, false);
    let clip_tolerance = CLIP_TOLERANCE * solid_a.inner_radius().min(solid_b.inner_radius());
    let build = |axis: &Axis| {
        let witness = (axis == &exact).then_some(query.witness).flatten();
        capsule_points(
            solid_a,
            solid_b,
            frame,
            axis,
            witness,
            margin,
            clip_tolerance,
        )
    };
    let mut axis = preferred;
    let mut points = build(&preferred);
    // The deepest-point rule: a preferred face whose points fall short of the exact
    // depth gives way to the exact axis, whose points reach it.
    let deepest = points
        .iter()
        .map(|c| c.depth)
        .fold(f32::NEG_INFINITY, f32::max);
    if exact != preferred && deepest < -exact.separation - clip_tolerance {
        axis = exact;
        points = build(&exact);
    }
    if points.is_empty() {
        if exact.separation > 0.0 {
            return false;
        }
        axis = exact;
        points.push(deepest_endpoint(solid_a, solid_b, frame, &exact));
    }
    to_world(pose_a, frame, &axis, &points, mirrored, out);
    true
}

/// The manifold in the world from its points in a's frame, written to `manifold`,
/// [`Manifold::flip`]ped when `mirrored` (the same bits, written straight into place).
///
/// Computed in `Vec3A` (one SIMD register a vector) with the operations, and their
/// order, of `Pose::transform_point` and `Frame::point_to_b` on `Vec3`, so the bits
/// are theirs (tested against that form, `to_world_vec3`): in `Vec3` each operation
/// was three scalar ones, and each point was read and written field by field.
/// Measured with callgrind: `prof boxbatch touching` 240 → 163 instructions a call
/// (the whole batch −4.2%), the narrow stage of `stress --scene soup --bodies 10000
/// --frames 12 --threads 1` −3.3%.
pub(crate) fn to_world(
    pose_a: &Pose,
    frame: &Frame,
    axis: &Axis,
    points: &[Candidate],
    mirrored: bool,
    manifold: &mut Manifold,
) {
    let world = unit_rotation(pose_a);
    let (rotation, translation) = (world.rotation, Vec3A::from(world.translation));
    let normal = rotation.mul_vec3a(axis.normal.into());
    manifold.normal = Vec3::from(if mirrored { -normal } else { normal });
    manifold.feature = if mirrored {
        axis.feature.flipped()
    } else {
        axis.feature
    };
    let (to_b, b_origin) = (Mat3A::from(frame.rot_t), Vec3A::from(frame.trans));
    let axis_normal = Vec3A::from(axis.normal);
    // Anchors: a's surface point is `c + n·d/2` (already in a's frame), b's is
    // `c − n·d/2`, taken to b's frame. (The reduction keeps at most four points, all
    // the manifold holds: a fifth would be dropped rather than fail.)
    manifold.points.overwrite_with(points.len(), |i| {
        let c = &points[i];
        let at = Vec3A::from(c.point);
        let half = axis_normal * (0.5 * c.depth);
        let point = ManifoldPoint {
            position: (rotation.mul_vec3a(at) + translation).into(),
            depth: c.depth,
            id: c.id,
            anchor_a: (at + half).into(),
            anchor_b: (to_b * (at - half - b_origin)).into(),
        };
        if mirrored {
            point.mirrored(axis.feature)
        } else {
            point
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_geometry::rng::Rng;

    /// [`to_world`] in `Vec3`, the form its bits are tested against (the function as
    /// it was before it moved to `Vec3A`), returning the manifold.
    fn to_world_vec3(
        pose_a: &Pose,
        frame: &Frame,
        axis: &Axis,
        (points, mirrored): (&[Candidate], bool),
    ) -> Manifold {
        let world = unit_rotation(pose_a);
        let normal = world.transform_vector(axis.normal);
        let mut manifold = empty_manifold();
        manifold.normal = if mirrored { -normal } else { normal };
        manifold.feature = if mirrored {
            axis.feature.flipped()
        } else {
            axis.feature
        };
        manifold.points.overwrite_with(points.len(), |i| {
            let c = &points[i];
            let half = axis.normal * (0.5 * c.depth);
            let point = ManifoldPoint {
                position: world.transform_point(c.point),
                depth: c.depth,
                id: c.id,
                anchor_a: c.point + half,
                anchor_b: frame.point_to_b(c.point - half),
            };
            if mirrored {
                point.mirrored(axis.feature)
            } else {
                point
            }
        });
        manifold
    }

    /// The bits of a manifold's every field.
    fn manifold_bits(m: &Manifold) -> Vec<u64> {
        let mut bits = m.normal.to_array().map(|x| x.to_bits() as u64).to_vec();
        bits.push(m.points.len() as u64);
        for p in m.points.iter() {
            for v in [p.position, p.anchor_a, p.anchor_b] {
                bits.extend(v.to_array().map(|x| x.to_bits() as u64));
            }
            bits.extend([p.depth.to_bits() as u64, p.id]);
        }
        bits
    }

    /// `to_world` in `Vec3A` gives the bits of its `Vec3` form: random poses (not
    /// quite unit rotations, as accepted; far from the origin too), normals, 1–4
    /// points with any depth, both orders.
    #[test]
    fn to_world_gives_the_bits_of_its_vec3_form() {
        let mut rng = Rng::new(20261203);
        let features = [
            Feature::FaceA(3),
            Feature::FaceB(1),
            Feature::EdgeEdge(2, 7),
        ];
        for round in 0..200_000 {
            let reach = if round % 4 == 0 { 1e4 } else { 10.0 };
            let mut pose = || {
                let q = rng.rotation() * rng.range(0.9995, 1.0005);
                Pose::new(rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)), q)
            };
            let (pose_a, pose_b) = (pose(), pose());
            let frame = Frame::new(&pose_a, &pose_b);
            let axis = Axis {
                separation: rng.range(-1.0, 0.1),
                normal: rng.unit_vec3(),
                feature: features[rng.below(features.len())],
            };
            let points: Vec<Candidate> = (0..1 + rng.below(4))
                .map(|_| Candidate {
                    point: rng.vec3(Vec3::splat(-2.0), Vec3::splat(2.0)),
                    depth: rng.range(-0.1, 0.5),
                    id: rng.next_u64(),
                })
                .collect();
            let mirrored = rng.below(2) == 1;
            let mut simd = empty_manifold();
            to_world(&pose_a, &frame, &axis, &points, mirrored, &mut simd);
            let plain = to_world_vec3(&pose_a, &frame, &axis, (&points, mirrored));
            assert_eq!(manifold_bits(&simd), manifold_bits(&plain), "round {round}");
            assert_eq!(simd.feature, plain.feature);
        }
    }

    /// The capsules' own order key gives the general order on every pair: sizes and
    /// poses drawn from small sets, so that equal sizes, equal translations and equal
    /// rotations (the ties the key must break as `order_key` does) come often.
    #[test]
    fn capsule_order_is_the_general_order() {
        let mut rng = Rng::new(20261202);
        let sizes = [(0.5, 0.25), (0.5, 0.3), (1.0, 0.25), (0.0, 0.4)];
        let translations = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, -2.0, 0.5)];
        let rotations = [glam::Quat::IDENTITY, rng.rotation(), rng.rotation()];
        let pick = |rng: &mut Rng| {
            let (h, r) = sizes[rng.below(sizes.len())];
            let capsule = Capsule::try_new(h, r).expect("valid sizes");
            let pose = Pose::new(
                translations[rng.below(translations.len())],
                rotations[rng.below(rotations.len())],
            );
            (capsule, pose)
        };
        let (mut swapped, mut kept) = (0, 0);
        for _ in 0..20_000 {
            let ((ca, pa), (cb, pb)) = (pick(&mut rng), pick(&mut rng));
            let (a, b) = (Shape::from(ca), Shape::from(cb));
            let general = canonical_swap(&a, &pa, &b, &pb);
            assert_eq!(canonical_swap_capsules(&ca, &pa, &cb, &pb), general);
            if general { swapped += 1 } else { kept += 1 }
        }
        // Both answers came up often (the test compares something).
        assert!(swapped > 5_000 && kept > 5_000, "{swapped} / {kept}");
    }
}

#[cfg(test)]
mod collide_into_tests {
    use super::*;
    use glam::Quat;
    use sepax_geometry::rng::Rng;
    use sepax_geometry::{Capsule, ConvexHull, Cuboid, Sphere, TriMesh};

    /// `collide_into` takes polytope and capsule pairs straight into its slot
    /// (`takes_convex_pair`) and the rest through `collide_on`: the same answer, path and
    /// cache as `collide_path` for every kind of pair, warm or cold, bad poses and far
    /// ones included, and whatever the slot held before.
    #[test]
    fn collide_into_answers_as_collide_path_for_every_kind() {
        let shapes: Vec<Shape> = vec![
            Sphere::try_new(0.6).unwrap().into(),
            Cuboid::try_from_half_extents(Vec3::new(0.5, 0.7, 0.4))
                .unwrap()
                .into(),
            ConvexHull::cuboid(Vec3::new(0.6, 0.4, 0.5)).unwrap().into(),
            Capsule::try_new(0.5, 0.3).unwrap().into(),
            TriMesh::try_new(
                vec![
                    Vec3::new(-2.0, 0.0, -2.0),
                    Vec3::new(2.0, 0.0, -2.0),
                    Vec3::new(0.0, 0.0, 2.0),
                ],
                vec![[0, 1, 2]],
            )
            .unwrap()
            .into(),
        ];
        let mut rng = Rng::new(35);
        let (mut compared, mut touching) = (0, 0);
        for round in 0..1_400 {
            for a in &shapes {
                for b in &shapes {
                    if matches!((a, b), (Shape::TriMesh(_), Shape::TriMesh(_))) {
                        continue;
                    }
                    let pose = |rng: &mut Rng| {
                        let turn = Quat::from_axis_angle(rng.unit_vec3(), rng.range(0.0, 3.0));
                        Pose::new(rng.vec3(Vec3::splat(-0.8), Vec3::splat(0.8)), turn)
                    };
                    let (pa, mut pb) = (pose(&mut rng), pose(&mut rng));
                    match round % 10 {
                        0 => pb.translation.x = f32::NAN,
                        1 => pb.translation.x = 1e38,
                        _ => {}
                    }
                    let (mut cache, mut twin) = (PairCache::default(), PairCache::default());
                    // A slot holding an old answer, as a pipeline's scratch may.
                    let mut out = collide(
                        &shapes[1],
                        &Pose::IDENTITY,
                        &shapes[1],
                        &Pose::IDENTITY,
                        0.0,
                        &mut PairCache::default(),
                    );
                    for step in 0..3 {
                        let nudge = Vec3::splat(0.01 * step as f32);
                        let pb = Pose::new(pb.translation + nudge, pb.rotation);
                        let path = collide_into(a, &pa, b, &pb, 0.02, &mut cache, &mut out);
                        let (want, want_path) = collide_path(a, &pa, b, &pb, 0.02, &mut twin);
                        assert_eq!(format!("{out:?}"), format!("{want:?}"), "{a:?} {b:?}");
                        assert_eq!((path, cache), (want_path, twin));
                        compared += 1;
                        touching += want.is_some() as usize;
                    }
                }
            }
        }
        assert!(
            compared >= 100_000 && touching > 20_000,
            "{compared} / {touching}"
        );
    }
}
