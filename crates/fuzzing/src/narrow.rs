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
//!   same manifold (what [`PairCache`] promises);
//! * **order symmetry**: `contact(a, b)` and `contact(b, a)` give the same verdict
//!   (outside a band of `1e-5 · size + round` around the margin), depths within
//!   `1e-4 · size + round`, and mirrored normals (within 1e-3; 5e-3 with a sphere,
//!   whose normal carries the centre's round-off) — or, when the normals differ, both
//!   are minimum axes: the f64 gap along each is the depth within the same tolerance
//!   (two faces of a box can tie exactly);
//! * **the f64 oracle** ([`vertex_projection_sat`]) for box and hull pairs with unit
//!   rotations: apart by more than the band means no contact, overlapping by more than
//!   the band means a contact, and the depth is the oracle's within
//!   `1e-4 · size + round`.

use crate::bytes::{Bytes, Mode};
use crate::decode::{self, ShapeSpec, rust_f32, rust_pose};
use crate::known::{FOLD, KNIFE, LONG, OpenBug, THIN, Tolerance};
use glam::{DVec3, Vec3};
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::oracle::vertex_projection_sat;
use sepax_narrowphase::{Contact, Manifold, PairCache, collide, contact, intersects};

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    let case = NarrowCase::decode(data);
    if let Some((a, b)) = case.shapes() {
        case.check(&a, &b, allowed);
    }
}

/// A hull with inradius below [`THIN`] × its radius, or with a fold or a knife edge
/// (the condition of [`OpenBug::ThinHullOrder`]).
pub fn is_near_degenerate(shape: &Shape) -> bool {
    let Shape::ConvexHull(h) = shape else {
        return false;
    };
    let radius = h
        .vertices()
        .iter()
        .map(|v| v.distance(h.centroid()))
        .fold(0.0, f32::max);
    let sharp = h.edges().iter().any(|e| {
        let [n0, n1] = e.faces.map(|f| h.planes()[f as usize].normal);
        let c = n0.dot(n1);
        !(KNIFE - 1.0..=1.0 - FOLD).contains(&c)
    });
    sharp || h.inradius() < THIN * radius
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
        let mut b = Bytes::new(data);
        let flags = b.u8();
        let mode = if flags & 1 == 0 {
            Mode::Ordinary
        } else {
            Mode::Wild
        };
        let shape = |b: &mut Bytes| {
            if flags & 2 == 0 {
                ShapeSpec::decode(b, mode)
            } else {
                ShapeSpec::decode_polytope(b, mode)
            }
        };
        let a = shape(&mut b);
        let pose_a = decode::pose(&mut b, mode);
        let spec_b = shape(&mut b);
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
        if !(pa.is_valid() && pb.is_valid()) {
            assert!(ab.is_none() && ba.is_none() && ab0.is_none() && manifold.is_none());
            return;
        }
        let mut t = Tolerances::new(a, pa, b, pb, margin);
        let skewed = |p: &Pose| (p.rotation.length_squared() - 1.0).abs() > 1e-6;
        if (skewed(pa) || skewed(pb)) && allowed.allows(OpenBug::NearUnitRotation) {
            t.unit = 3e-3;
        }
        if t.representable {
            for c in [ab, ba, ab0, ba0].iter().flatten() {
                check_contact_finite(c, &t);
            }
        }
        let long = a.bounding_radius().max(b.bounding_radius()) > LONG;
        let nan_points_ok = long && allowed.allows(OpenBug::LongBoxEdgeNan);
        self.check_manifold(a, b, &manifold, ab, &mut cache, &t, nan_points_ok);
        if (is_near_degenerate(a) || is_near_degenerate(b))
            && allowed.allows(OpenBug::ThinHullOrder)
        {
            return;
        }
        let m = if margin > 0.0 { margin } else { 0.0 };
        check_symmetry(a, pa, b, pb, ab, ba, m, &t);
        check_symmetry(a, pa, b, pb, ab0, ba0, 0.0, &t);
        check_oracle(a, pa, b, pb, ab0, &t);
    }

    #[allow(clippy::too_many_arguments)]
    fn check_manifold(
        &self,
        a: &Shape,
        b: &Shape,
        manifold: &Option<Manifold>,
        exact: Option<Contact>,
        cache: &mut PairCache,
        t: &Tolerances,
        nan_points_ok: bool,
    ) {
        let (pa, pb) = (&self.pose_a, &self.pose_b);
        assert!(
            manifold.is_none() || exact.is_some(),
            "a manifold without a contact: {manifold:?}"
        );
        assert!(
            exact.is_none_or(|c| c.depth < 0.0) || manifold.is_some(),
            "a touching contact without a manifold: {exact:?}"
        );
        if let Some(m) = manifold {
            assert!(
                (1..=4).contains(&m.points.len()),
                "{} points",
                m.points.len()
            );
            if t.representable {
                assert!(
                    m.normal.is_finite() && (m.normal.length() - 1.0).abs() < t.unit,
                    "manifold normal {} is not unit",
                    m.normal
                );
            }
            if t.representable && !nan_points_ok {
                for p in &m.points {
                    let finite = p.position.is_finite()
                        && p.depth.is_finite()
                        && p.anchor_a.is_finite()
                        && p.anchor_b.is_finite();
                    assert!(finite, "non-finite manifold point {p:?}");
                }
            }
        }
        // Compared as printed, so that NaN equals NaN (out of the representable range).
        let again = collide(a, pa, b, pb, self.margin, cache);
        assert_eq!(
            format!("{again:?}"),
            format!("{manifold:?}"),
            "the warm query differs from the one before"
        );
    }
}

/// Below this, squared lengths fit in f32 (`1e36 < f32::MAX`), so every answer is
/// expected finite; above it the queries' f32 arithmetic may overflow, and only
/// "no panic" and the f64-free checks apply.
pub const REPRESENTABLE: f64 = 1e18;

/// The scales every comparison is relative to.
struct Tolerances {
    /// Sum of the bounding radii.
    size: f64,
    /// `4 ε |t_b − t_a|`.
    round: f64,
    /// Sizes, the centres' distance and the margin are below [`REPRESENTABLE`].
    representable: bool,
    /// How far a normal's length may be from 1.
    unit: f32,
}

impl Tolerances {
    fn new(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, margin: f32) -> Tolerances {
        let size = (a.bounding_radius() as f64) + (b.bounding_radius() as f64);
        let distance = (pb.translation.as_dvec3() - pa.translation.as_dvec3()).length();
        Tolerances {
            size,
            round: 4.0 * f32::EPSILON as f64 * distance,
            representable: size < REPRESENTABLE
                && distance < REPRESENTABLE
                && (margin as f64) < REPRESENTABLE,
            unit: 1e-3,
        }
    }

    /// Half-width of the band around a verdict's boundary where either verdict is right.
    fn band(&self) -> f64 {
        1e-5 * self.size + self.round
    }

    /// How far two depths of one pair may differ.
    fn depth(&self) -> f64 {
        1e-4 * self.size + self.round
    }
}

fn check_contact_finite(c: &Contact, t: &Tolerances) {
    assert!(
        c.normal.is_finite() && (c.normal.length() - 1.0).abs() < t.unit && c.depth.is_finite(),
        "non-finite or non-unit contact {c:?}"
    );
}

/// `(min, max)` of `n · x` over a shape at a pose, in f64 (vertices, or centre ± radius).
fn extent(s: &Shape, p: &Pose, n: DVec3) -> (f64, f64) {
    let q = p.rotation.as_dquat().normalize();
    let to_world = |v: Vec3| q * v.as_dvec3() + p.translation.as_dvec3();
    let vertices: Vec<Vec3> = match s {
        Shape::Cuboid(c) => c.vertices().to_vec(),
        Shape::ConvexHull(h) => h.vertices().to_vec(),
        Shape::Sphere(sphere) => {
            let c = to_world(Vec3::ZERO).dot(n);
            let r = sphere.radius() as f64 * n.length();
            return (c - r, c + r);
        }
    };
    vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = to_world(*v).dot(n);
            (lo.min(d), hi.max(d))
        })
}

/// The gap of the pair along `normal` (a → b): `min_b − max_a`.
fn gap_along(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, normal: Vec3) -> f64 {
    let n = normal.as_dvec3();
    extent(b, pb, n).0 - extent(a, pa, n).1
}

/// Same verdict, same depth, mirrored normal (or a tie of two minimum axes).
#[allow(clippy::too_many_arguments)]
fn check_symmetry(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    ab: Option<Contact>,
    ba: Option<Contact>,
    margin: f32,
    t: &Tolerances,
) {
    if !t.representable {
        return;
    }
    match (ab, ba) {
        (None, None) => {}
        (Some(c), None) | (None, Some(c)) => {
            let from_boundary = (c.depth as f64 + margin as f64).abs();
            assert!(
                from_boundary <= t.band(),
                "order symmetry: only {} sees a contact, depth {} (margin {margin}, band {})",
                if ab.is_some() {
                    "contact(a, b)"
                } else {
                    "contact(b, a)"
                },
                c.depth,
                t.band()
            );
        }
        (Some(ab), Some(ba)) => {
            let tol = t.depth();
            assert!(
                ((ab.depth - ba.depth) as f64).abs() <= tol,
                "order symmetry: depth {} for (a, b) but {} for (b, a) (tolerance {tol})",
                ab.depth,
                ba.depth
            );
            let sphere = matches!(a, Shape::Sphere(_)) || matches!(b, Shape::Sphere(_));
            // A normal may be off unit by `t.unit`, the sum by twice that.
            let slack = if sphere { 5e-3 } else { 1e-3 } + 2.0 * (t.unit - 1e-3);
            let mirrored = (ab.normal + ba.normal).length() < slack;
            let minimum =
                |n: Vec3, depth: f32| (gap_along(a, pa, b, pb, n) + depth as f64).abs() <= tol;
            let tie = minimum(ab.normal, ab.depth) && minimum(-ba.normal, ba.depth);
            assert!(
                mirrored || tie,
                "order symmetry: normal {} for (a, b) but {} for (b, a), and not a tie",
                ab.normal,
                ba.normal
            );
        }
    }
}

/// The f64 vertex-projection oracle: verdict outside the band, depth within tolerance.
fn check_oracle(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, c: Option<Contact>, t: &Tolerances) {
    let unit = |p: &Pose| (p.rotation.length_squared() - 1.0).abs() < 1e-5;
    if !(t.representable && unit(pa) && unit(pb)) {
        return;
    }
    let Some(o) = vertex_projection_sat(a, pa, b, pb) else {
        return;
    };
    let separation = o.separation;
    if separation > t.band() {
        assert!(
            c.is_none(),
            "oracle: apart by {separation}, but a contact {c:?} (band {})",
            t.band()
        );
    } else if separation < -t.band() {
        assert!(c.is_some(), "oracle: {} deep, but no contact", -separation);
    }
    if let Some(c) = c {
        let error = (c.depth as f64 + separation).abs();
        assert!(
            error <= t.depth(),
            "oracle: depth {} but the oracle says {} (tolerance {})",
            c.depth,
            -separation,
            t.depth()
        );
    }
}
