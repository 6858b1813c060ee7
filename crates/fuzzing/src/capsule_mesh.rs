//! Target `capsule_mesh`: [`collide`], [`contact`] and [`intersects`] on a capsule or a
//! triangle mesh against any shape (sphere, box, hull, capsule, mesh) at any poses,
//! decoded from bytes ([`CapsuleMeshCase`]).
//!
//! The `narrow_phase` target builds spheres, boxes and hulls only (its decoder stays as
//! it is, so that its corpus keeps decoding to the same cases); this one covers the
//! pair paths it never reaches: capsule–capsule, capsule–box, capsule–hull,
//! capsule–sphere, and every shape against a mesh (the one-sided triangle tests, the
//! internal-edge corrections and the merge of the triangles' patches).
//!
//! **Checked** (tolerances as in [`narrow`](crate::narrow): `size` the sum of the
//! bounding radii, `round` the f32 rounding of b's position seen from a):
//! * nothing panics; an invalid pose gives `None` / `false` everywhere; two meshes
//!   never touch (documented: the mesh path answers `None` / `false` for them);
//! * every output is finite while the answer is representable; a manifold has 1 to 4
//!   points and a unit normal;
//! * `intersects(a, b) == contact(a, b, margin 0).is_some()`, in both orders;
//! * `collide` agrees with `contact` (a manifold needs a contact, a touching contact
//!   gives a manifold), and a second `collide` with the cache the first left gives the
//!   same manifold, as does `collide_full`;
//! * **order symmetry**: `contact(b, a)` is `contact(a, b)` mirrored bit for bit (every
//!   pair is computed in one order), or only one sees a contact within the verdict band;
//! * **the f64 oracles**, for poses with unit rotations: a capsule against a convex
//!   shape by [`capsule_separation`] (verdict outside the band, depth within
//!   `1e-4 · size + round`); a convex shape against a mesh by [`mesh_verdict_gap`],
//!   the verdict only (the mesh path corrects normals and depths on internal edges by
//!   design; the twin reports the raw per-triangle values), and not where a triangle's
//!   plane passes within the band of the shape's centre (the one-sided rule is
//!   undecided there, see `centre_on_a_plane`).
//!
//! [`capsule_separation`]: sepax_narrowphase::oracle::capsule_separation
//! [`mesh_verdict_gap`]: sepax_narrowphase::oracle::mesh::mesh_verdict_gap

use crate::bytes::{Bytes, Mode};
use crate::decode::{self, ShapeSpec, rust_f32, rust_pose};
use crate::known::{Skips, Tolerance};
use crate::pair::{Tolerances, check_contact_finite, check_manifold, check_symmetry};
use glam::Vec3;
use sepax_geometry::{Pose, Shape, TriMesh};
use sepax_narrowphase::oracle::capsule_separation;
use sepax_narrowphase::oracle::mesh::mesh_verdict_gap;
use sepax_narrowphase::{Contact, PairCache, collide, contact, intersects};

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    let case = CapsuleMeshCase::decode(data);
    if let Some((a, b)) = case.shapes() {
        case.check(&a, &b, allowed);
    }
}

/// One decoded pair query: a capsule or a mesh, and any shape.
#[derive(Clone, Debug, PartialEq)]
pub struct CapsuleMeshCase {
    /// Which values the decoder used.
    pub mode: Mode,
    /// Shape a (a capsule or a mesh) as passed to its constructor.
    pub a: ShapeSpec,
    /// Pose of a.
    pub pose_a: Pose,
    /// Shape b (any shape) as passed to its constructor.
    pub b: ShapeSpec,
    /// Pose of b.
    pub pose_b: Pose,
    /// The contact margin.
    pub margin: f32,
}

impl CapsuleMeshCase {
    /// Byte 0: bit 0 picks [`Mode::Wild`], bit 1 makes a a mesh
    /// ([`ShapeSpec::decode_mesh`]) instead of a capsule, bits 2–3 pick the margin (0
    /// three times out of four). Then shape a, pose a, shape b
    /// ([`ShapeSpec::decode_any`]), pose b, margin.
    pub fn decode(data: &[u8]) -> CapsuleMeshCase {
        let mut b = Bytes::new(data);
        let flags = b.u8();
        let mode = if flags & 1 == 0 {
            Mode::Ordinary
        } else {
            Mode::Wild
        };
        let a = if flags & 2 == 0 {
            ShapeSpec::decode_capsule(&mut b, mode)
        } else {
            ShapeSpec::decode_mesh(&mut b, mode)
        };
        let pose_a = decode::pose(&mut b, mode);
        let spec_b = ShapeSpec::decode_any(&mut b, mode);
        let pose_b = decode::pose(&mut b, mode);
        let margin = if flags & 12 == 12 { b.value(mode) } else { 0.0 };
        CapsuleMeshCase {
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
        check_oracles(a, pa, b, pb, ab0, &t);
    }
}

/// The capsule oracle (verdict and depth) or the mesh twin (verdict) on the margin-0
/// contact `c` of a at `pa` and b at `pb`.
fn check_oracles(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, c: Option<Contact>, t: &Tolerances) {
    let unit = |p: &Pose| (p.rotation.length_squared() - 1.0).abs() < 1e-5;
    if !(t.representable && unit(pa) && unit(pb)) {
        return;
    }
    // About a's position, so that far from the origin f64 keeps its precision (b's
    // offset rounds to f32 within `t.round`).
    let offset = (pb.translation.as_dvec3() - pa.translation.as_dvec3()).as_vec3();
    let (qa, qb) = (
        Pose::new(Vec3::ZERO, pa.rotation),
        Pose::new(offset, pb.rotation),
    );
    // A mesh pair is judged by the twin on its verdict only, and not where the
    // one-sided rule itself is undecided.
    let mesh_verdict = |mesh: &TriMesh, mesh_pose: &Pose, other: &Shape, pose: &Pose| {
        if !centre_on_a_plane(mesh, mesh_pose, other, pose, t.band()) {
            let gap = mesh_verdict_gap(mesh, mesh_pose, other, pose);
            check_verdict(gap, c, t, "mesh twin");
        }
    };
    match (a, b) {
        (Shape::TriMesh(m), other) => mesh_verdict(m, &qa, other, &qb),
        (other, Shape::TriMesh(m)) => mesh_verdict(m, &qb, other, &qa),
        (Shape::Capsule(capsule), other) => {
            let separation = capsule_separation(capsule, &qa, other, &qb);
            check_verdict(Some(separation), c, t, "capsule oracle");
            if let Some(c) = c {
                let error = (c.depth as f64 + separation).abs();
                assert!(
                    error <= t.depth(),
                    "capsule oracle: depth {} but the oracle says {} (tolerance {})",
                    c.depth,
                    -separation,
                    t.depth()
                );
            }
        }
        _ => {}
    }
}

/// True when the shape's centre (a hull's centroid) lies within `band`, plus `1e-5` of
/// its distance to the triangle, of the plane of a triangle whose box meets the
/// shape's (grown by that much; f64, world frame).
///
/// There the one-sided rule is undecided: the centre is in front of the triangle or
/// behind it by round-off alone (the mesh path decides it in f32 in the shape's frame,
/// the twin in f64 in the world's), and with it whether the triangle counts at all. A
/// sphere whose centre lies exactly on a floor is half sunk: both answers, a contact
/// as deep as its radius and none, follow the documented rule. (Lattice inputs put
/// centres on planes often: without this the mutation run stopped at such inputs
/// only.)
fn centre_on_a_plane(
    mesh: &TriMesh,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    band: f64,
) -> bool {
    let world = |p: &Pose, v: Vec3| {
        p.rotation.as_dquat().normalize() * v.as_dvec3() + p.translation.as_dvec3()
    };
    let local_centre = match shape {
        Shape::ConvexHull(h) => h.centroid(),
        _ => Vec3::ZERO,
    };
    let centre = world(pose, local_centre);
    let inverse = mesh_pose.inverse();
    let relative = Pose::new(
        inverse.transform_point(pose.translation),
        (inverse.rotation * pose.rotation).normalize(),
    );
    let region = shape.aabb(&relative);
    (0..mesh.triangle_count() as u32).any(|i| {
        let corners = mesh.triangle(i).vertices.map(|v| world(mesh_pose, v));
        let reach = corners
            .iter()
            .map(|v| (*v - centre).length())
            .fold(0.0, f64::max);
        let slack = band + 1e-5 * reach;
        let normal = (corners[1] - corners[0])
            .cross(corners[2] - corners[0])
            .normalize();
        mesh.triangle_aabb(i)
            .overlaps(&region.expanded(slack as f32))
            && normal.dot(centre - corners[0]).abs() <= slack
    })
}

/// Apart by more than the band: no contact; overlapping by more: a contact. A mesh twin
/// that cannot judge the pair (`None`: no triangle near the shape has its centre in
/// front) means no contact.
fn check_verdict(separation: Option<f64>, c: Option<Contact>, t: &Tolerances, oracle: &str) {
    let Some(separation) = separation else {
        assert!(
            c.is_none(),
            "{oracle}: no triangle faces the shape, but a contact {c:?}"
        );
        return;
    };
    if separation > t.band() {
        assert!(
            c.is_none(),
            "{oracle}: apart by {separation}, but a contact {c:?} (band {})",
            t.band()
        );
    } else if separation < -t.band() {
        assert!(
            c.is_some(),
            "{oracle}: {} deep, but no contact",
            -separation
        );
    }
}
