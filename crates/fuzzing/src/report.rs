//! What every [`StepReport`] of the `world_script` target must satisfy, given the
//! model of the world ([`Model`]).
//!
//! * **Quarantine**: exactly the bodies whose pose is not [`Pose::is_valid`] or whose
//!   AABB grown by the margin is not finite, sorted by slot, each with its reason.
//! * **Contacts**: strictly sorted by `(a.index(), b.index())` with `a < b`; both
//!   handles live; not both static; groups that interact; neither quarantined; the
//!   bodies' user data; 1 to 4 points, finite while the answer is representable;
//!   `touching` as the manifold says; `previous` and `previous_points` pointing into
//!   the last step's contacts of the same pair; a cold `contact` query agrees that the
//!   pair is within the margin.
//! * **Completeness**: every eligible pair penetrating by more than the narrow-phase
//!   band is in the contacts.
//! * **Events**: strictly sorted, at most one per pair; `Started` exactly for pairs
//!   touching now and not at the last step, `Ended` exactly for the reverse, with the
//!   cause the docs give (`Removed` when a body is gone, `Quarantined` when one is
//!   quarantined, `Filtered` only when the groups no longer interact).

use crate::known::{LONG, OpenBug};
use crate::narrow::REPRESENTABLE;
use crate::script::ccd_of;
use crate::world::Model;
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::contact;
use sepax_narrowphase::oracle::mesh::mesh_verdict_gap;
use sepax_pipeline::{
    BodyHandle, BodyKind, EndCause, EventKind, Groups, QuarantineReason, StepReport,
};
use std::collections::BTreeSet;

/// A live body as the script set it.
#[derive(Clone, Debug)]
pub(crate) struct ModelBody {
    pub shape: Shape,
    pub pose: Pose,
    pub kind: BodyKind,
    pub groups: Groups,
    pub user_data: u64,
}

impl ModelBody {
    /// Why the step must leave this body out, if it must.
    fn quarantine(&self, margin: f32) -> Option<QuarantineReason> {
        let p = &self.pose;
        if !(p.translation.is_finite() && p.rotation.is_finite()) {
            Some(QuarantineReason::NonFinitePose)
        } else if !p.is_valid() {
            Some(QuarantineReason::NonUnitRotation)
        } else if !self.shape.aabb(p).expanded(margin).is_valid() {
            Some(QuarantineReason::NonFiniteAabb)
        } else {
            None
        }
    }
}

type Pair = (BodyHandle, BodyHandle);

/// Every check of the [module docs](self).
pub(crate) fn check_report(model: &Model, margin: f32, report: &StepReport) {
    let quarantined = check_quarantine(model, margin, report);
    let body = |h: BodyHandle| {
        model
            .bodies
            .get(&h)
            .unwrap_or_else(|| panic!("report names {h:?}, which is not live"))
    };
    let key = |a: BodyHandle, b: BodyHandle| (a.index(), b.index());

    for w in report.contacts.windows(2) {
        assert!(
            key(w[0].a, w[0].b) < key(w[1].a, w[1].b),
            "contacts not sorted"
        );
    }
    let mut now_touching = BTreeSet::new();
    for c in &report.contacts {
        let (a, b) = (body(c.a), body(c.b));
        let pair = format!("contact {:?}–{:?}", c.a, c.b);
        assert!(c.a.index() < c.b.index(), "{pair}: a ≥ b");
        assert!(
            !(a.kind == BodyKind::Static && b.kind == BodyKind::Static),
            "{pair}: static"
        );
        assert!(
            a.groups.interacts(&b.groups),
            "{pair}: groups do not interact"
        );
        assert!(
            !quarantined.contains(&c.a) && !quarantined.contains(&c.b),
            "{pair}: quarantined body"
        );
        assert_eq!(c.user_data, [a.user_data, b.user_data], "{pair}: user data");
        let m = &c.manifold;
        assert!(
            (1..=4).contains(&m.points.len()),
            "{pair}: {} points",
            m.points.len()
        );
        assert_eq!(c.touching, m.is_touching(), "{pair}: touching flag");
        let long = a.shape.bounding_radius().max(b.shape.bounding_radius()) > LONG;
        let nan_points_ok = long && model.allowed.allows(OpenBug::LongBox);
        if representable(a, b, margin) && !nan_points_ok {
            let finite = m.normal.is_finite()
                && m.points.iter().all(|p| {
                    p.position.is_finite()
                        && p.depth.is_finite()
                        && p.anchor_a.is_finite()
                        && p.anchor_b.is_finite()
                });
            assert!(finite, "{pair}: non-finite manifold {m:?}");
        }
        match c.previous {
            Some(i) => {
                let &(pa, pb, n) = model
                    .contacts
                    .get(i as usize)
                    .unwrap_or_else(|| panic!("{pair}: previous {i} out of range"));
                assert_eq!((pa, pb), (c.a, c.b), "{pair}: previous names another pair");
                for (k, j) in c.previous_points.iter().enumerate() {
                    assert!(j.is_none_or(|j| k < m.points.len() && (j as usize) < n));
                }
            }
            None => assert_eq!(
                c.previous_points, [None; 4],
                "{pair}: matches without previous"
            ),
        }
        assert!(
            contact(&a.shape, &a.pose, &b.shape, &b.pose, margin).is_some(),
            "{pair}: reported, but a cold contact query says apart"
        );
        if c.touching {
            now_touching.insert((c.a, c.b));
        }
    }
    check_ccd_hits(model, report, &now_touching, &quarantined);
    check_complete(model, margin, report, &quarantined);
    check_events(model, report, &now_touching, &quarantined);
    assert!(
        report.candidate_pairs >= report.contacts.len(),
        "candidates < contacts"
    );
}

/// CCD hits: sorted and unique by key, between live, unquarantined bodies that the
/// kind rule and groups pair, at least one with the CCD flag, never a pair touching
/// at the end of the step, each at a time in `[0, 1]`.
fn check_ccd_hits(
    model: &Model,
    report: &StepReport,
    touching: &BTreeSet<Pair>,
    quarantined: &BTreeSet<BodyHandle>,
) {
    let key = |a: BodyHandle, b: BodyHandle| (a.index(), b.index());
    for w in report.ccd_hits.windows(2) {
        assert!(
            key(w[0].a, w[0].b) < key(w[1].a, w[1].b),
            "CCD hits not sorted"
        );
    }
    for h in &report.ccd_hits {
        let pair = format!("CCD hit {:?}–{:?}", h.a, h.b);
        let body = |x: BodyHandle| {
            model
                .bodies
                .get(&x)
                .unwrap_or_else(|| panic!("{pair}: names a body that is not live"))
        };
        let (a, b) = (body(h.a), body(h.b));
        assert!(h.a.index() < h.b.index(), "{pair}: a ≥ b");
        assert!(a.kind.pairs_with(b.kind), "{pair}: kinds");
        assert!(a.groups.interacts(&b.groups), "{pair}: groups");
        assert!(
            ccd_of(a.user_data) || ccd_of(b.user_data),
            "{pair}: no CCD body"
        );
        assert!(
            !quarantined.contains(&h.a) && !quarantined.contains(&h.b),
            "{pair}: quarantined"
        );
        assert!(
            !touching.contains(&(h.a, h.b)),
            "{pair}: touching at the end"
        );
        assert!((0.0..=1.0).contains(&h.time), "{pair}: time {}", h.time);
    }
}

/// Exactly the bodies that must be quarantined, sorted, with their reasons.
fn check_quarantine(model: &Model, margin: f32, report: &StepReport) -> BTreeSet<BodyHandle> {
    let expected: Vec<(BodyHandle, QuarantineReason)> = model
        .bodies
        .iter()
        .filter_map(|(h, b)| Some((*h, b.quarantine(margin)?)))
        .collect();
    let got: Vec<(BodyHandle, QuarantineReason)> = report
        .quarantined
        .iter()
        .map(|q| (q.body, q.reason))
        .collect();
    assert_eq!(got, expected, "quarantined bodies");
    got.into_iter().map(|(h, _)| h).collect()
}

/// Sizes, distance and margin below [`REPRESENTABLE`], as in the narrow-phase target.
fn representable(a: &ModelBody, b: &ModelBody, margin: f32) -> bool {
    let size = a.shape.bounding_radius() as f64 + b.shape.bounding_radius() as f64;
    let distance = (a.pose.translation.as_dvec3() - b.pose.translation.as_dvec3()).length();
    size < REPRESENTABLE && distance < REPRESENTABLE && (margin as f64) < REPRESENTABLE
}

/// Every eligible pair deeper than the narrow-phase band is reported.
fn check_complete(
    model: &Model,
    margin: f32,
    report: &StepReport,
    quarantined: &BTreeSet<BodyHandle>,
) {
    let reported: BTreeSet<Pair> = report.contacts.iter().map(|c| (c.a, c.b)).collect();
    let eligible: Vec<(&BodyHandle, &ModelBody)> = model
        .bodies
        .iter()
        .filter(|(h, _)| !quarantined.contains(h))
        .collect();
    for (i, &(ha, a)) in eligible.iter().enumerate() {
        for &(hb, b) in &eligible[i + 1..] {
            let both_static = a.kind == BodyKind::Static && b.kind == BodyKind::Static;
            if both_static || !a.groups.interacts(&b.groups) || !representable(a, b, margin) {
                continue;
            }
            let Some(c) = contact(&a.shape, &a.pose, &b.shape, &b.pose, margin) else {
                continue;
            };
            let size = a.shape.bounding_radius() as f64 + b.shape.bounding_radius() as f64;
            let distance = (a.pose.translation - b.pose.translation).length() as f64;
            let band = 1e-5 * size + 4.0 * f32::EPSILON as f64 * distance;
            // A mesh's depth is one-sided (along the axes that may carry the contact):
            // a box grazing the mesh's rim can be "0.5 deep" while the two only touch.
            // Whether they overlap is the twin's verdict gap.
            if !mesh_pair_overlaps(a, b, band) {
                continue;
            }
            assert!(
                c.depth as f64 <= band || reported.contains(&(*ha, *hb)),
                "{ha:?}–{hb:?} penetrate by {} but are not reported",
                c.depth
            );
        }
    }
}

/// False when one of the bodies is a mesh and the mesh twin does not see the pair
/// overlap by more than `band` ([`mesh_verdict_gap`]); true for every other pair.
fn mesh_pair_overlaps(a: &ModelBody, b: &ModelBody, band: f64) -> bool {
    let gap = match (&a.shape, &b.shape) {
        (Shape::TriMesh(m), other) => mesh_verdict_gap(m, &a.pose, other, &b.pose),
        (other, Shape::TriMesh(m)) => mesh_verdict_gap(m, &b.pose, other, &a.pose),
        _ => return true,
    };
    gap.is_some_and(|gap| gap < -band)
}

/// Events follow the touching pairs, with the documented causes.
fn check_events(
    model: &Model,
    report: &StepReport,
    now: &BTreeSet<Pair>,
    quarantined: &BTreeSet<BodyHandle>,
) {
    let key = |a: BodyHandle, b: BodyHandle| (a.index(), b.index());
    for w in report.events.windows(2) {
        assert!(
            key(w[0].a, w[0].b) < key(w[1].a, w[1].b),
            "events not sorted or doubled"
        );
    }
    let started: BTreeSet<Pair> = report
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Started)
        .map(|e| (e.a, e.b))
        .collect();
    let ended: BTreeSet<Pair> = report
        .events
        .iter()
        .filter(|e| e.kind != EventKind::Started)
        .map(|e| (e.a, e.b))
        .collect();
    let prev = &model.touching;
    assert_eq!(
        started,
        now.difference(prev).copied().collect(),
        "Started events"
    );
    assert_eq!(
        ended,
        prev.difference(now).copied().collect(),
        "Ended events"
    );
    for e in &report.events {
        let EventKind::Ended(cause) = e.kind else {
            continue;
        };
        let gone = model.removed.contains(&e.a) || model.removed.contains(&e.b);
        let out = quarantined.contains(&e.a) || quarantined.contains(&e.b);
        let expected = if gone {
            Some(EndCause::Removed)
        } else if out {
            Some(EndCause::Quarantined)
        } else {
            None
        };
        match expected {
            Some(x) => assert_eq!(cause, x, "{e:?}"),
            None => {
                let (a, b) = (&model.bodies[&e.a], &model.bodies[&e.b]);
                let filtered_ok = cause != EndCause::Filtered || !a.groups.interacts(&b.groups);
                let plausible = matches!(cause, EndCause::Separated | EndCause::Filtered);
                assert!(plausible && filtered_ok, "{e:?}");
            }
        }
    }
}
