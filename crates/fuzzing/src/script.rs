//! The scripts the `world_script` target runs: a [`Config`] and a list of [`Op`]s,
//! decoded from bytes and printable as Rust.
//!
//! A handle is named by its place in the list of every handle the script was given so
//! far (`Handle(k)`: the k-th insert), so a script can remove a body and keep using
//! its handle: stale handles come up as often as live ones.

use crate::bytes::{Bytes, Mode};
use crate::decode::{self, ShapeSpec, rust_f32, rust_pose, rust_vec3};
use crate::known::HUGE;
use glam::Vec3;
use sepax_geometry::Pose;
use sepax_pipeline::{BodyKind, Config, Groups};

/// Most operations in one script.
pub const MAX_OPS: usize = 48;

/// The k-th handle the script got back from an insert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(pub usize);

/// One call on the world.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `insert(BodyDesc { .. })`, with CCD on when [`ccd_of`] the user data says so.
    Insert {
        /// The shape's constructor input.
        shape: ShapeSpec,
        /// Any pose, bad ones included.
        pose: Pose,
        /// Static or dynamic.
        kind: BodyKind,
        /// Collision groups.
        groups: Groups,
        /// The caller's value.
        user_data: u64,
    },
    /// `remove(h)`.
    Remove(Handle),
    /// `set_pose(h, pose)`.
    SetPose(Handle, Pose),
    /// `set_shape(h, shape)`.
    SetShape(Handle, ShapeSpec),
    /// `set_groups(h, groups)`.
    SetGroups(Handle, Groups),
    /// `step()`.
    Step,
    /// `query_aabb(min..max)`.
    QueryAabb(Vec3, Vec3),
    /// `cast_ray(origin, dir, max_t)`.
    CastRay(Vec3, Vec3, f32),
}

/// Whether an inserted body has the CCD flag: when bit 7 of its user data (a byte
/// of the script) is set. Read from a byte every script already has, so the corpora
/// and past findings exercise CCD without a change of their decoding.
pub fn ccd_of(user_data: u64) -> bool {
    user_data & 0x80 != 0
}

/// A decoded script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The world's configuration (one thread: the machine is shared).
    pub config: Config,
    /// What to do, in order; the runner adds a final step.
    pub ops: Vec<Op>,
}

/// Groups from one byte: every group, none, or two small bit sets.
fn groups(b: &mut Bytes) -> Groups {
    match b.below(4) {
        0 | 1 => Groups::ALL,
        2 => Groups {
            memberships: 0,
            filter: u32::MAX,
        },
        _ => Groups {
            memberships: b.below(4) as u32,
            filter: b.below(4) as u32,
        },
    }
}

impl Script {
    /// Byte 0: bit 0 picks [`Mode::Wild`], bit 1 a decoded margin (else 0). Two bytes of
    /// chunk sizes (0 to 3: 0 is taken as 1), then operations until the bytes run out.
    /// Shapes are spheres, boxes and hulls ([`ShapeSpec::decode`]).
    pub fn decode(data: &[u8]) -> Script {
        Script::decode_with(data, ShapeSpec::decode)
    }

    /// [`Script::decode`] with every shape kind, capsules and meshes too
    /// ([`ShapeSpec::decode_any`], whose first three tags are `decode`'s): the
    /// `world_all_shapes` target.
    pub fn decode_all_shapes(data: &[u8]) -> Script {
        Script::decode_with(data, ShapeSpec::decode_any)
    }

    fn decode_with(data: &[u8], shape: fn(&mut Bytes, Mode) -> ShapeSpec) -> Script {
        let mut b = Bytes::new(data);
        let flags = b.u8();
        let mode = Mode::from_flags(flags);
        let margin = if flags & 2 != 0 { b.value(mode) } else { 0.0 };
        let config = Config {
            threads: 1,
            margin,
            narrow_chunk: b.below(4),
            aabb_chunk: b.below(4),
            ..Config::default()
        };
        let mut ops = Vec::new();
        let mut inserted = 0;
        while !b.is_empty() && ops.len() < MAX_OPS {
            let handle = |b: &mut Bytes| Handle(b.below(inserted.max(1)));
            let op = match b.below(12) {
                0..=2 => {
                    inserted += 1;
                    Op::Insert {
                        shape: shape(&mut b, mode),
                        pose: decode::pose(&mut b, mode),
                        kind: if b.below(4) == 0 {
                            BodyKind::Static
                        } else {
                            BodyKind::Dynamic
                        },
                        groups: groups(&mut b),
                        user_data: b.u8() as u64,
                    }
                }
                3 => Op::Remove(handle(&mut b)),
                4..=6 => Op::SetPose(handle(&mut b), decode::pose(&mut b, mode)),
                7 => Op::SetShape(handle(&mut b), shape(&mut b, mode)),
                8 => Op::SetGroups(handle(&mut b), groups(&mut b)),
                9 | 10 => Op::Step,
                _ if b.below(2) == 0 => Op::QueryAabb(b.vec3(mode), b.vec3(mode)),
                _ => Op::CastRay(b.vec3(mode), b.vec3(mode), b.value(mode)),
            };
            ops.push(op);
        }
        Script { config, ops }
    }

    /// True when some finite value of the script (margin, shape, pose, query) is above
    /// [`HUGE`] in magnitude.
    pub fn has_huge_value(&self) -> bool {
        let huge = |v: f32| v.is_finite() && v.abs() > HUGE;
        let vec = |v: &Vec3| v.to_array().into_iter().any(huge);
        let pose = |p: &Pose| vec(&p.translation) || p.rotation.to_array().into_iter().any(huge);
        let shape = |s: &ShapeSpec| match s {
            ShapeSpec::Sphere(r) => huge(*r),
            ShapeSpec::Cuboid(h) => vec(h),
            ShapeSpec::Hull(points) | ShapeSpec::Mesh(points, _) => points.iter().any(vec),
            ShapeSpec::Capsule(h, r) => huge(*h) || huge(*r),
            ShapeSpec::Heights(_, _, cell, heights) => {
                huge(cell.x) || huge(cell.y) || heights.iter().any(|v| huge(*v))
            }
        };
        huge(self.config.margin)
            || self.ops.iter().any(|op| match op {
                Op::Insert {
                    shape: s, pose: p, ..
                } => shape(s) || pose(p),
                Op::SetPose(_, p) => pose(p),
                Op::SetShape(_, s) => shape(s),
                Op::QueryAabb(lo, hi) => vec(lo) || vec(hi),
                Op::CastRay(o, d, t) => vec(o) || vec(d) || huge(*t),
                Op::Remove(_) | Op::SetGroups(..) | Op::Step => false,
            })
    }

    /// The script as Rust: a world, a `handles` vector (`None` where a constructor
    /// refused the shape, so the insert never happened), one statement per operation.
    pub fn rust(&self) -> String {
        let c = &self.config;
        let mut s = format!(
            "let mut world = CollisionWorld::new(Config {{ threads: 1, margin: {}, narrow_chunk: {}, aabb_chunk: {}, ..Config::default() }}).unwrap();\nlet mut handles: Vec<Option<BodyHandle>> = Vec::new();\n",
            rust_f32(c.margin),
            c.narrow_chunk,
            c.aabb_chunk
        );
        for op in &self.ops {
            let refused = |shape: &ShapeSpec| format!("// refused by its constructor: {shape:?}");
            s += &match op {
                Op::Insert { shape, .. } if shape.build().is_none() => {
                    format!("handles.push(None); {}", refused(shape))
                }
                Op::Insert {
                    shape,
                    pose,
                    kind,
                    groups,
                    user_data,
                } => format!(
                    "{{\n    {}\n    let desc = BodyDesc {{ kind: BodyKind::{kind:?}, groups: {groups:?}, user_data: {user_data}, ccd: {}, ..BodyDesc::dynamic(s, {}) }};\n    handles.push(world.insert(desc).ok()); // None: a mesh on a body that is not static\n}}",
                    shape.rust("s"),
                    ccd_of(*user_data),
                    rust_pose(pose)
                ),
                Op::Remove(h) => with(*h, "world.remove(h)".into()),
                Op::SetPose(h, p) => with(*h, format!("world.set_pose(h, {})", rust_pose(p))),
                Op::SetShape(_, shape) if shape.build().is_none() => refused(shape),
                Op::SetShape(h, shape) => with(
                    *h,
                    format!("{{ {} world.set_shape(h, s) }}", shape.rust("s")),
                ),
                Op::SetGroups(h, g) => with(*h, format!("world.set_groups(h, {g:?})")),
                Op::Step => "world.step();".into(),
                Op::QueryAabb(lo, hi) => format!(
                    "let _ = world.query_aabb(&Aabb::new({}, {}));",
                    rust_vec3(*lo),
                    rust_vec3(*hi)
                ),
                Op::CastRay(o, d, t) => format!(
                    "let _ = world.cast_ray({}, {}, {});",
                    rust_vec3(*o),
                    rust_vec3(*d),
                    rust_f32(*t)
                ),
            };
            s += "\n";
        }
        s + "world.step();"
    }
}

/// `if let Some(&Some(h)) = handles.get(k) { let _ = call; }`.
fn with(h: Handle, call: String) -> String {
    format!(
        "if let Some(&Some(h)) = handles.get({}) {{ let _ = {call}; }}",
        h.0
    )
}
