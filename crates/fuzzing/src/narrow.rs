//! Target `narrow_phase`: [`collide`], [`contact`] and [`intersects`] on any pair of
//! shapes (sphere, box, hull) at any poses, decoded from bytes ([`NarrowCase`]).
//!
//! **Checked** (`size` = the sum of the bounding radii; `round` = `4 ε |t_b − t_a|`,
//! the f32 rounding of where b is seen from a, which no f32 query can beat):
//! * nothing panics; an invalid pose gives `None` / `false` everywhere;
//! * every output is finite while the answer is representable (`size`, the distance
//!   of the centres and the margin below [`REPRESENTABLE`] = 1e18, where squared
//!   lengths still fit in f32): unit normals, finite depths, positions and anchors;
//!   a manifold has 1 to 4 points;
//! * `intersects(a, b) == contact(a, b, margin 0).is_some()`, in both orders;
//! * `collide` agrees with `contact`: a manifold needs a contact, a touching contact
//!   gives a manifold; a second `collide` with the cache the first one left gives the
//!   same manifold (what [`PairCache`] promises), and so does `collide_full` (the
//!   full test, never the kept-feature path) with that cache, with the same feature;
//! * **order symmetry**: `contact(a, b)` and `contact(b, a)` give the same verdict
//!   (outside a band of `1e-5 · size + round` around the margin), depths within
//!   `1e-4 · size + round`, and mirrored normals (within 1e-3; 5e-3 with a sphere,
//!   whose normal carries the centre's round-off) — or, when the normals differ, both
//!   are minimum axes: the f64 gap along each is the depth within the same tolerance
//!   (two faces of a box can tie exactly);
//! * **the f64 oracle** ([`vertex_projection_sat`]) for box and hull pairs with unit
//!   rotations: apart by more than the band means no contact, overlapping by more than
//!   the band means a contact, and the depth is the oracle's within
//!   `1e-4 · size + round`. Measured about a's position, so that far from the origin
//!   f64 keeps its precision. A pair with a sphere is judged the same way by
//!   [`sphere_separation`] (the centre's signed distance to the other shape, minus the
//!   radius).
//!
//! [`vertex_projection_sat`]: sepax_narrowphase::oracle::vertex_projection_sat
//! [`sphere_separation`]: sepax_narrowphase::oracle::sphere_separation

use crate::bytes::{Bytes, Mode};
use crate::decode::{self, ShapeSpec, rust_f32, rust_pose};
use crate::known::{Skips, Tolerance};
use crate::pair::{Tolerances, check_contact_finite, check_manifold, check_oracle, check_symmetry};
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::{PairCache, collide, contact, intersects};

pub use crate::pair::REPRESENTABLE;

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    let case = NarrowCase::decode(data);
    if let Some((a, b)) = case.shapes() {
        case.check(&a, &b, allowed);
    }
}

/// One decoded pair query.
#[derive(Clone, Debug, PartialEq)]
pub struct NarrowCase {
    /// Which values the decoder used.
    pub mode: Mode,
    /// Shape a as passed to its constructor.
    pub a: ShapeSpec,
    /// Pose of a.
    pub pose_a: Pose,
    /// Shape b as passed to its constructor.
    pub b: ShapeSpec,
    /// Pose of b.
    pub pose_b: Pose,
    /// The contact margin.
    pub margin: f32,
}

impl NarrowCase {
    /// Byte 0: bit 0 picks [`Mode::Wild`], bit 1 restricts the shapes to boxes and
    /// hulls (so that the oracle applies), bits 2–3 pick the margin (0 three times out
    /// of four). Then shape a, pose a, shape b, pose b, margin.
    pub fn decode(data: &[u8]) -> NarrowCase {
        let shape = |flags: u8, b: &mut Bytes, mode: Mode| {
            if flags & 2 == 0 {
                ShapeSpec::decode(b, mode)
            } else {
                ShapeSpec::decode_polytope(b, mode)
            }
        };
        NarrowCase::decode_with(data, shape, shape)
    }

    /// The layout every pair target shares: byte 0 (flags: bit 0 [`Mode::Wild`], bits
    /// 2–3 both set: a margin follows), shape a, pose a, shape b, pose b, margin; the
    /// shapes read by `shape_a` and `shape_b`, which see the flags.
    pub(crate) fn decode_with(
        data: &[u8],
        shape_a: impl Fn(u8, &mut Bytes, Mode) -> ShapeSpec,
        shape_b: impl Fn(u8, &mut Bytes, Mode) -> ShapeSpec,
    ) -> NarrowCase {
        let mut b = Bytes::new(data);
        let flags = b.u8();
        let mode = Mode::from_flags(flags);
        let a = shape_a(flags, &mut b, mode);
        let pose_a = decode::pose(&mut b, mode);
        let spec_b = shape_b(flags, &mut b, mode);
        let pose_b = decode::pose(&mut b, mode);
        let margin = if flags & 12 == 12 { b.value(mode) } else { 0.0 };
        NarrowCase {
            mode,
            a,
            pose_a,
            b: spec_b,
            pose_b,
            margin,
        }
    }

    /// Both shapes, or `None` when a constructor refuses its values.
    pub fn shapes(&self) -> Option<(Shape, Shape)> {
        Some((self.a.build()?, self.b.build()?))
    }

    /// Rust code that sets up the case.
    pub fn rust(&self) -> String {
        format!(
            "{}\n{}\nlet pose_a = {};\nlet pose_b = {};\nlet margin = {};",
            self.a.rust("a"),
            self.b.rust("b"),
            rust_pose(&self.pose_a),
            rust_pose(&self.pose_b),
            rust_f32(self.margin)
        )
    }

    /// Every check of the [module docs](self), but those of the open bugs `allowed`
    /// tolerates when their condition holds.
    pub fn check(&self, a: &Shape, b: &Shape, allowed: Tolerance) {
        let (pa, pb, margin) = (&self.pose_a, &self.pose_b, self.margin);
        let ab = contact(a, pa, b, pb, margin);
        let ba = contact(b, pb, a, pa, margin);
        let ab0 = contact(a, pa, b, pb, 0.0);
        let ba0 = contact(b, pb, a, pa, 0.0);
        assert_eq!(intersects(a, pa, b, pb), ab0.is_some(), "intersects(a, b)");
        assert_eq!(intersects(b, pb, a, pa), ba0.is_some(), "intersects(b, a)");
        let mut cache = PairCache::default();
        let manifold = collide(a, pa, b, pb, margin, &mut cache);
        let meshes = matches!(a, Shape::TriMesh(_)) && matches!(b, Shape::TriMesh(_));
        if !(pa.is_valid() && pb.is_valid()) || meshes {
            let why = if meshes {
                "two meshes"
            } else {
                "an invalid pose"
            };
            assert!(
                ab.is_none() && ba.is_none() && ab0.is_none() && manifold.is_none(),
                "{why} gave an answer"
            );
            return;
        }
        let mut t = Tolerances::new(a, pa, b, pb, margin);
        let skip = Skips::narrow(allowed, a, pa, b, pb, [ab0, ba0], t.band());
        t.unit = skip.unit;
        if t.representable && !skip.finite {
            for c in [ab, ba, ab0, ba0].iter().flatten() {
                check_contact_finite(c, &t);
            }
        }
        let posed = ((a, pa), (b, pb));
        check_manifold(posed, margin, &manifold, ab, &mut cache, &t, &skip);
        if skip.symmetry {
            return;
        }
        let m = if margin > 0.0 { margin } else { 0.0 };
        check_symmetry(a, pa, b, pb, ab, ba, m, &t, skip.normals);
        check_symmetry(a, pa, b, pb, ab0, ba0, 0.0, &t, skip.normals);
        check_oracle(a, pa, b, pb, ab0, &t);
    }
}
