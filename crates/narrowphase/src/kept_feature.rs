//! The warm path of [`collide`](crate::collide) for hull–hull and box–hull pairs: last
//! query's feature measured first, and a reference feature proven to stay answered
//! without the rest of the test.
//!
//! 1. The pair cache's feature is measured as the full test measures it first
//!    ([`remeasure`]). Beyond the margin it separates the pair: that is the full
//!    test's answer too, and the query ends.
//! 2. A feature the pair overlaps along is **kept** when a point lies deep enough inside
//!    the shapes (`sat::hull_hull::warm` has the bound and its proof). For a face: the
//!    other shape's support vertex under it; when that one does not prove it, and it
//!    lies outside (the other shape's face overhangs) or the pair is shallower than the
//!    slop, the incident points of the face's clipped manifold and their centroid. For
//!    an edge pair (kept only while it still forms a Minkowski face and its edges
//!    support its axis, as the edge query keeps it): the edges' closest points.
//! 3. A kept feature gives the full query's manifold when its points are there, and for
//!    a face when they reach its depth (less the clip tolerance): the exact depth is at
//!    most that, so the deepest-point rule has nothing to add (it never touches an edge
//!    pair's point). The manifold is the full query's, bit for bit, and so is the
//!    cache's feature; only the support vertices the cache keeps as hints can differ,
//!    and those never change an answer. The exception is a face whose points are
//!    worked out from last clip's features (`manifold::replay`, the pair within that
//!    clip's margin): its points are the full query's within round-off, chosen by the
//!    earlier clip's reduction.
//!
//! Anything else takes the full test, with the measured feature handed over so that it
//! is not measured twice. [`collide_full`](crate::collide_full) never takes this path:
//! the twin the tests compare it with.

use crate::Feature;
use crate::PairCache;
use crate::contact::Manifold;
use crate::frame::Frame;
use crate::manifold::CLIP_TOLERANCE;
use crate::manifold::reduce::Candidate;
use crate::manifold::replay::{FacePair, KeptClip, kept_face_contact};
use crate::manifold::{manifold_points, to_frame_a};
use crate::query::to_world;
use crate::sat::Axis;
use crate::sat::hull_hull::{Remembered, SupportMode, depth_below_planes, remeasure};
use crate::solid::{Solid, with_polytopes};
use glam::Vec3;
use sepax_geometry::Pose;
use smallvec::SmallVec;

/// What the warm path did with a pair.
pub(crate) enum Warm {
    /// Last query's feature separates the pair beyond the margin: no manifold, the
    /// cache remembers the axis (the full test's answer).
    Separated,
    /// The kept feature's manifold is written; `replayed` when its points were worked
    /// out from a clip's features (`manifold::replay`), not taken from the clip.
    Kept { replayed: bool },
    /// The full test must run; the remembered feature measured on this frame, when it
    /// could be.
    Full(Option<Remembered>),
}

/// The warm path of a polytope pair other than two boxes, in the order the test runs
/// (`margin` sanitised). See the [module docs](self).
#[allow(clippy::too_many_arguments)]
pub(crate) fn warm_polytope_pair(
    solid_a: &Solid,
    solid_b: &Solid,
    pose_a: &Pose,
    frame: &Frame,
    margin: f32,
    cache: &mut PairCache,
    mode: SupportMode,
    mirrored: bool,
    out: &mut Manifold,
) -> Warm {
    // Last clip's record goes back into the cache only when this query keeps a face.
    let mut record = cache.take_clip();
    let Some(cached) = cache.last else {
        return Warm::Full(None);
    };
    let measured = with_polytopes(solid_a, solid_b, |pa, pb| {
        remeasure(
            pa,
            pb,
            frame,
            cached.feature,
            margin,
            mode,
            &mut cache.support,
        )
    });
    let Some(Some(measured)) = measured else {
        return Warm::Full(None);
    };
    let remembered = measured.remembered.axis;
    if remembered.separation > margin {
        cache.remember(remembered.feature, true);
        return Warm::Separated;
    }
    let full = Warm::Full(Some(measured.remembered));
    let Some(axis) = measured.kept else {
        return full;
    };
    let face = measured.is_face();
    let proven = measured.proves_kept(measured.depth);
    // Whether a face's manifold points can still prove it (module docs, step 2).
    let shallow = -axis.separation <= measured.slop();
    if !(proven || face && (measured.depth < 0.0 || shallow)) {
        return full;
    }
    let clip_tolerance = CLIP_TOLERANCE * solid_a.inner_radius().min(solid_b.inner_radius());
    let (points, replayed) = if face {
        kept_face_points(
            solid_a,
            solid_b,
            frame,
            // The face's separation was measured with the other shape's support along
            // the face normal: the incident face's deepest vertex, the same bits (with
            // the scan; the climb may stop at another vertex of a tie).
            (
                &axis,
                (mode == SupportMode::Scan).then_some(measured.remembered.vertex as u32),
            ),
            margin,
            clip_tolerance,
            &mut record,
        )
    } else {
        let points = manifold_points(solid_a, solid_b, frame, &axis, margin, clip_tolerance);
        (points, false)
    };
    if points.is_empty() {
        return full;
    }
    if face {
        // A deepest point short of the face's depth: the full query decides.
        let deepest = points
            .iter()
            .map(|c| c.depth)
            .fold(f32::NEG_INFINITY, f32::max);
        let reaches = deepest >= -axis.separation - clip_tolerance;
        if !reaches {
            return full;
        }
    }
    if !proven {
        // The incident side of each point: `c − n·d/2` is on b for a face of a,
        // `c + n·d/2` on a for a face of b.
        let toward_incident = match axis.feature {
            crate::Feature::FaceA(_) => -0.5,
            _ => 0.5,
        };
        let deepest_inside = with_polytopes(solid_a, solid_b, |pa, pb| {
            let incident = |c: &Candidate| c.point + axis.normal * (toward_incident * c.depth);
            let depth = |p: Vec3| depth_below_planes(pa, pb, frame, axis.feature, p);
            // Their centroid too, a point of the same shape: on a flush face pair the
            // points sit on the reference face's border, the centroid in its middle.
            let centroid = points.iter().map(incident).sum::<Vec3>() / points.len() as f32;
            points
                .iter()
                .map(|c| depth(incident(c)))
                .fold(depth(centroid), f32::max)
        });
        if !deepest_inside.is_some_and(|depth| measured.proves_kept(depth)) {
            return full;
        }
    }
    cache.remember(axis.feature, false);
    if face {
        cache.keep_clip(record);
    }
    to_world(pose_a, frame, &axis, &points, mirrored, out);
    Warm::Kept { replayed }
}

/// The points of a kept face: last clip's features recomputed, or a fresh clip that
/// records them (`manifold::replay`), in a's frame. The flag says whether they are
/// recomputed ones. `deepest` is the incident shape's vertex deepest below the face
/// when the caller has it (see `FacePair::deepest`).
fn kept_face_points(
    solid_a: &Solid,
    solid_b: &Solid,
    frame: &Frame,
    (axis, deepest): (&Axis, Option<u32>),
    margin: f32,
    clip_tolerance: f32,
    record: &mut KeptClip,
) -> (SmallVec<[Candidate; 4]>, bool) {
    let found = with_polytopes(solid_a, solid_b, |pa, pb| match axis.feature {
        Feature::FaceA(i) => {
            let pair = FacePair {
                reference: pa,
                incident: pb,
                frame: *frame,
                reference_face: i as usize,
                reference_is_b: false,
                deepest,
            };
            kept_face_contact(&pair, margin, clip_tolerance, record)
        }
        Feature::FaceB(j) => {
            let pair = FacePair {
                reference: pb,
                incident: pa,
                frame: frame.inverse(),
                reference_face: j as usize,
                reference_is_b: true,
                deepest,
            };
            let (points, replayed) = kept_face_contact(&pair, margin, clip_tolerance, record);
            (to_frame_a(points, frame), replayed)
        }
        _ => (SmallVec::new(), false),
    });
    found.unwrap_or_default()
}
