//! Target `world_script`: a [`CollisionWorld`] driven by a decoded [`Script`], checked
//! against a plain model of what the world should hold.
//!
//! The model is a map from live handles to what was set (shape, pose, kind, groups,
//! user data), the handles removed since the last step, and the pairs that touched at
//! the last step. After every call it is compared with the world:
//! * a call on a live handle succeeds, a call on a stale one is `StaleHandle`;
//!   `len`, `contains` and `handles` match the model;
//! * every `step()` report passes the report checks (`report.rs`):
//!   sorted contacts and events with live handles, the right bodies quarantined for the
//!   right reasons, events that follow the touching pairs, every deep pair reported;
//! * queries succeed on valid arguments and name only live bodies;
//! * a twin world with two threads and chunks of one gives the same reports, bit for
//!   bit (`twin.rs`).
//!
//! Nothing may panic, whatever the values: NaN, infinite and huge poses and margins,
//! degenerate shapes (refused by their constructors, so never inserted), stale handles.

use crate::known::{OpenBug, Tolerance};
use crate::report::{ModelBody, check_report};
use crate::script::{Handle, Op, Script, ccd_of};
use crate::twin::{Twin, fingerprint};
use sepax_geometry::{Aabb, Pose, Shape};
use sepax_pipeline::{BodyDesc, BodyHandle, BodyKind, CollisionWorld, WorldError};
use std::collections::{BTreeMap, BTreeSet};

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    run_script(&Script::decode(data), allowed);
}

/// Target `world_all_shapes`: the same runner and checks on scripts whose shapes are
/// of every kind, capsules and triangle meshes included ([`Script::decode_all_shapes`]).
/// A mesh is inserted like any body (static or not: a dynamic mesh is accepted and
/// collides with convex bodies only); its pairs are checked against `contact`, as
/// every pair is.
pub fn run_all_shapes(data: &[u8], allowed: Tolerance) {
    run_script(&Script::decode_all_shapes(data), allowed);
}

/// Runs a script with every check. A script with a value above
/// [`HUGE`](crate::known::HUGE) is not run at all when [`OpenBug::HugeWorld`] is
/// tolerated: that bug is a panic inside the step, which no check can step around.
pub fn run_script(script: &Script, allowed: Tolerance) {
    if allowed.allows(OpenBug::HugeWorld) && script.has_huge_value() {
        return;
    }
    let mut world = match CollisionWorld::new(script.config) {
        Ok(world) => world,
        Err(WorldError::NonFiniteMargin) => {
            assert!(!script.config.margin.is_finite(), "a finite margin refused");
            return;
        }
        Err(e) => panic!("a one-thread world with a finite margin: {e}"),
    };
    let mut model = Model {
        allowed,
        ..Model::default()
    };
    let mut twin = Twin::new(script.config);
    for op in script.ops.iter().chain([&Op::Step]) {
        model.apply(&mut world, op);
        if let Some(theirs) = twin.apply(op) {
            assert_eq!(
                fingerprint(world.report()),
                theirs,
                "the report depends on the thread count or the chunk sizes"
            );
        }
    }
}

/// What the world should hold.
#[derive(Default)]
pub(crate) struct Model {
    /// Per insert: the handle it gave (`None` when the shape was refused).
    issued: Vec<Option<BodyHandle>>,
    /// Live bodies.
    pub bodies: BTreeMap<BodyHandle, ModelBody>,
    /// Handles removed since the last step.
    pub removed: BTreeSet<BodyHandle>,
    /// Pairs touching at the last step, and the last step's contacts `(a, b, points)`.
    pub touching: BTreeSet<(BodyHandle, BodyHandle)>,
    pub contacts: Vec<(BodyHandle, BodyHandle, usize)>,
    /// Open bugs tolerated.
    pub allowed: Tolerance,
}

impl Model {
    fn handle(&self, h: Handle) -> Option<BodyHandle> {
        self.issued.get(h.0).copied().flatten()
    }

    /// `Ok` for a live handle, `StaleHandle` for a removed one.
    fn expect_result(&self, h: BodyHandle, result: Result<(), WorldError>, call: &str) {
        if self.bodies.contains_key(&h) {
            assert_eq!(result, Ok(()), "{call} on live {h:?}");
        } else {
            assert_eq!(
                result,
                Err(WorldError::StaleHandle(h)),
                "{call} on stale {h:?}"
            );
        }
    }

    fn apply(&mut self, world: &mut CollisionWorld, op: &Op) {
        match op {
            Op::Insert {
                shape,
                pose,
                kind,
                groups,
                user_data,
            } => {
                let Some(shape) = shape.build() else {
                    self.issued.push(None);
                    return;
                };
                let refused = is_mesh(&shape) && *kind != BodyKind::Static;
                let desc = BodyDesc {
                    shape: shape.clone(),
                    pose: *pose,
                    kind: *kind,
                    groups: *groups,
                    user_data: *user_data,
                    ccd: ccd_of(*user_data),
                };
                let result = world.insert(desc);
                if refused {
                    assert_eq!(
                        result,
                        Err(WorldError::MeshNotStatic),
                        "a mesh on a {kind:?} body"
                    );
                    self.issued.push(None);
                    self.compare_bodies(world);
                    return;
                }
                let h = result.expect("insert");
                assert!(!self.bodies.contains_key(&h), "{h:?} issued twice");
                self.issued.push(Some(h));
                let body = ModelBody {
                    shape,
                    pose: *pose,
                    kind: *kind,
                    groups: *groups,
                    user_data: *user_data,
                };
                self.bodies.insert(h, body);
            }
            Op::Remove(h) => {
                let Some(h) = self.handle(*h) else { return };
                self.expect_result(h, world.remove(h), "remove");
                if self.bodies.remove(&h).is_some() {
                    self.removed.insert(h);
                }
            }
            Op::SetPose(h, pose) => {
                let Some(h) = self.handle(*h) else { return };
                self.expect_result(h, world.set_pose(h, *pose), "set_pose");
                if let Some(body) = self.bodies.get_mut(&h) {
                    body.pose = *pose;
                    let got = world.pose(h).expect("live");
                    assert!(
                        same_bits(&got, pose),
                        "pose {got:?} after set_pose({pose:?})"
                    );
                }
            }
            Op::SetShape(h, spec) => {
                let (Some(h), Some(shape)) = (self.handle(*h), spec.build()) else {
                    return;
                };
                let result = world.set_shape(h, shape.clone());
                match self.bodies.get_mut(&h) {
                    Some(body) if is_mesh(&shape) && body.kind != BodyKind::Static => {
                        assert_eq!(result, Err(WorldError::MeshNotStatic), "set_shape(mesh)");
                    }
                    Some(body) => {
                        assert_eq!(result, Ok(()), "set_shape on live {h:?}");
                        body.shape = shape;
                    }
                    None => self.expect_result(h, result, "set_shape"),
                }
            }
            Op::SetGroups(h, groups) => {
                let Some(h) = self.handle(*h) else { return };
                self.expect_result(h, world.set_groups(h, *groups), "set_groups");
                if let Some(body) = self.bodies.get_mut(&h) {
                    body.groups = *groups;
                }
            }
            Op::Step => {
                let report = world.step().clone();
                check_report(self, world.config().margin, &report);
                self.removed.clear();
                self.touching = report
                    .contacts
                    .iter()
                    .filter(|c| c.touching)
                    .map(|c| (c.a, c.b))
                    .collect();
                self.contacts = report
                    .contacts
                    .iter()
                    .map(|c| (c.a, c.b, c.manifold.points.len()))
                    .collect();
            }
            Op::QueryAabb(lo, hi) => {
                let region = Aabb::new(*lo, *hi);
                let result = world.query_aabb(&region);
                assert_eq!(result.is_ok(), region.is_valid(), "query_aabb({region:?})");
                for h in result.unwrap_or_default() {
                    assert!(self.bodies.contains_key(&h), "query_aabb names {h:?}");
                }
            }
            Op::CastRay(origin, dir, max_t) => {
                // The documented rule: a finite origin, a direction whose squared
                // length is a normal f32 (neither denormal nor overflowing), max_t ≥ 0.
                let valid = origin.is_finite() && dir.length_squared().is_normal() && *max_t >= 0.0;
                let result = world.cast_ray(*origin, *dir, *max_t);
                assert_eq!(result.is_ok(), valid, "cast_ray({origin}, {dir}, {max_t})");
                if let Ok(Some((body, _))) = result {
                    assert!(self.bodies.contains_key(&body), "cast_ray hits {body:?}");
                }
            }
        }
        self.compare_bodies(world);
    }

    fn compare_bodies(&self, world: &CollisionWorld) {
        assert_eq!(world.len(), self.bodies.len(), "len");
        let live: Vec<BodyHandle> = world.handles().collect();
        let expected: Vec<BodyHandle> = self.bodies.keys().copied().collect();
        assert_eq!(live, expected, "handles()");
        for h in &self.removed {
            assert!(!world.contains(*h), "removed {h:?} is still there");
        }
    }
}

fn is_mesh(shape: &Shape) -> bool {
    matches!(shape, Shape::TriMesh(_))
}

/// Bit-for-bit equality of two poses (NaN included).
fn same_bits(a: &Pose, b: &Pose) -> bool {
    let bits = |p: &Pose| {
        let mut v = p.translation.to_array().map(f32::to_bits).to_vec();
        v.extend(p.rotation.to_array().map(f32::to_bits));
        v
    };
    bits(a) == bits(b)
}
