//! Capsule–capsule manifolds in one pass, without the relative frame.
//!
//! Two capsules need only their cores: each is its centre ± its local y axis times the
//! half height. So instead of b's full pose in a's frame (a quaternion product and a
//! matrix in `f64`, the bulk of a capsule pair's cost), the pair is put in the frame
//! with a's centre as origin and the **world's axes**: b's centre is the difference of
//! the translations (in `f64`, rounded once, as the relative frame does it) and both
//! core directions are the rotated y axes. The closest points (`sat::capsule`) and the
//! points (`manifold::capsule`) are the same functions as in a's frame; the normal is
//! already a world vector, positions are a's translation plus the point, and the anchors
//! are rotated back into each body's frame.
//!
//! `contact` and `intersects` take the same query ([`contact_capsules`], the exact axis
//! alone), so on a capsule pair the three agree bit for bit: `collide` has a manifold
//! exactly when `contact` has a contact, with the same normal (its deepest point has
//! the contact's depth to round-off, or within the clip tolerance when the cores lie
//! along each other), and `intersects` is `contact` with margin 0. (Until 2 December 2026 those two ran in
//! a's frame through the relative pose, agreeing with `collide` to round-off only, so
//! a pair touching within round-off could get a manifold and no contact.)
//!
//! `collide` takes two capsules right after the pose checks (`query::two_capsules`),
//! before the sphere and mesh dispatch, and runs the other order without flipping the
//! pair cache (this query reads nothing of it and remembers `EdgeEdge(0, 0)`, its own
//! mirror). `prof capsule-capsule`: 1,168 → 1,096 instructions a pair (parry3d's
//! `contact_manifolds` 958). `capsule_capsule_manifold` (µs per 256 pairs, sepax /
//! parry3d, same runs): 45.6 / 39.3 (0.86×) before; after, 49.1 / 48.5 (0.99×), 44.8 /
//! 42.4 (0.95×) and 47.6 / 43.7 (0.92×): still slower than parry3d, whose f32 segment
//! query is cheaper than the f64 closest points kept here for exact depths. Same
//! answers (the capsule fingerprint).
//!
//! Then (2 December 2026), 1,049 → 832 instructions a pair inside `collide` (the whole
//! pass 888 a pair, parry3d's 958): the order decided by the capsules' own key
//! (`query::canonical_swap_capsules`, −45: no `Shape` keys built), each rotation
//! turned into a matrix once for the core axis and both anchors (−17), the normal
//! taken as the f64 offset times its reciprocal length, rounded once, with no second
//! f32 normalisation (−28), and the query and the points inlined here (−126: their
//! outcome and candidates no longer pass through memory). `capsule_capsule_manifold`:
//! 31.5 / 33.4 µs and 30.5 / 33.1 µs (1.06×, 1.09×), two runs of `cargo bench -p
//! sepax-benches --bench narrowphase -- --warm-up-time 1 --measurement-time 4
//! capsule_capsule_manifold`. The normal's and the anchors' last bits changed (the
//! fingerprint was re-pinned); the oracle tests hold them to the same tolerances. Tried
//! and not kept: the other order by selects instead of a branch (more instructions,
//! and the compiler made branches of the selects anyway).

use crate::PairCache;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::manifold::CLIP_TOLERANCE;
use crate::manifold::capsule::capsule_points_on_axis;
use crate::sat::SatOutcome;
use crate::sat::capsule::{Core, ExactCores, capsule_capsule};
use glam::{DVec3, Mat3, Vec3};
use sepax_geometry::{Capsule, Pose};

/// Two capsules in the frame at a's centre with the world's axes: the rotations as
/// matrices, b's centre and both cores.
struct CorePair {
    rot_a: Mat3,
    rot_b: Mat3,
    centre_b: Vec3,
    core_a: Core,
    core_b: Core,
}

impl CorePair {
    /// The pair's cores (poses checked): b's centre from the translations' difference
    /// in `f64`, rounded once; each core along its rotated y axis.
    #[inline(always)]
    fn new(a: &Capsule, pose_a: &Pose, b: &Capsule, pose_b: &Pose) -> CorePair {
        let (qa, qb) = (pose_a.rotation.normalize(), pose_b.rotation.normalize());
        let (rot_a, rot_b) = (Mat3::from_quat(qa), Mat3::from_quat(qb));
        let (axis_a, axis_b) = (rot_a.y_axis, rot_b.y_axis);
        let centre_b = (pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3()).as_vec3();
        CorePair {
            rot_a,
            rot_b,
            centre_b,
            core_a: Core {
                p0: axis_a * -a.half_height(),
                p1: axis_a * a.half_height(),
                radius: a.radius(),
            },
            core_b: Core {
                p0: centre_b - axis_b * b.half_height(),
                p1: centre_b + axis_b * b.half_height(),
                radius: b.radius(),
            },
        }
    }
}

/// Both cores in `f64` in the frame at a's centre with the world's axes, worked out from
/// the poses as given (rotations normalised in `f64`, b's centre the translations'
/// difference unrounded): what cores within the f32 cores' round-off of each other are
/// measured again on (see `sat::capsule`).
#[cold]
fn exact_cores(a: &Capsule, pose_a: &Pose, b: &Capsule, pose_b: &Pose) -> ExactCores {
    let axis = |c: &Capsule, pose: &Pose| {
        pose.rotation.as_dquat().normalize() * DVec3::new(0.0, c.half_height() as f64, 0.0)
    };
    let (half_a, half_b) = (axis(a, pose_a), axis(b, pose_b));
    let centre_b = pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3();
    ExactCores {
        a: (-half_a, 2.0 * half_a),
        b: (centre_b - half_b, 2.0 * half_b),
    }
}

/// [`contact`](fn@crate::contact) (and, with margin 0, [`intersects`](crate::intersects))
/// for two capsules (poses checked, pair in canonical order): the exact axis of the
/// same query as [`collide_capsules`], so the three agree bit for bit on the verdict
/// and the normal; [`Contact::flipped`] when `mirrored`.
#[inline]
pub(crate) fn contact_capsules(
    a: &Capsule,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
    margin: f32,
    mirrored: bool,
) -> Option<Contact> {
    let pair = CorePair::new(a, pose_a, b, pose_b);
    match capsule_capsule(pair.core_a, pair.core_b, margin, || {
        exact_cores(a, pose_a, b, pose_b)
    })
    .outcome
    {
        SatOutcome::Separated(_) => None,
        SatOutcome::Overlap { exact, .. } => {
            let contact = Contact {
                normal: exact.normal,
                depth: -exact.separation,
                feature: exact.feature,
            };
            Some(if mirrored { contact.flipped() } else { contact })
        }
    }
}

/// [`collide`](crate::collide) for two capsules (poses checked, pair in canonical order):
/// true when they touch, the manifold written to `out`, [`Manifold::flip`]ped when
/// `mirrored` (built so in place).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_capsules(
    a: &Capsule,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
    margin: f32,
    cache: &mut PairCache,
    mirrored: bool,
    out: &mut Manifold,
) -> bool {
    let CorePair {
        rot_a,
        rot_b,
        centre_b,
        core_a,
        core_b,
    } = CorePair::new(a, pose_a, b, pose_b);
    let query = capsule_capsule(core_a, core_b, margin, || exact_cores(a, pose_a, b, pose_b));
    let axis = match query.outcome {
        SatOutcome::Separated(axis) => {
            cache.remember(axis.feature, true);
            return false;
        }
        SatOutcome::Overlap { exact, .. } => exact,
    };
    cache.remember(Feature::EdgeEdge(0, 0), false);
    let clip_tolerance = CLIP_TOLERANCE * a.radius().min(b.radius());
    let witness = query.witness.unwrap_or((Vec3::ZERO, centre_b));
    let candidates = capsule_points_on_axis(
        rot_a.y_axis,
        a.half_height(),
        a.radius(),
        core_b,
        &axis,
        witness,
        margin,
        clip_tolerance,
    );
    let n = axis.normal;
    let (inverse_a, inverse_b) = (rot_a.transpose(), rot_b.transpose());
    out.normal = if mirrored { -n } else { n };
    out.feature = if mirrored {
        axis.feature.flipped()
    } else {
        axis.feature
    };
    out.points.clear();
    out.points.extend(candidates.iter().map(|c| {
        let half = n * (0.5 * c.depth);
        let point = ManifoldPoint {
            position: pose_a.translation + c.point,
            depth: c.depth,
            id: c.id,
            anchor_a: inverse_a * (c.point + half),
            anchor_b: inverse_b * (c.point - half - centre_b),
        };
        if mirrored {
            point.mirrored(axis.feature)
        } else {
            point
        }
    }));
    !out.points.is_empty()
}
