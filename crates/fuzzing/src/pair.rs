//! The pair checks of the `narrow_phase` target: tolerances, order symmetry and the
//! f64 oracle (see [`narrow`](crate::narrow) for what each one states).

use crate::known::Skips;
use glam::Vec3;
use sepax_geometry::{Pose, Shape, TriMesh};
use sepax_narrowphase::oracle::mesh::mesh_verdict_gap;
use sepax_narrowphase::oracle::{
    capsule_separation, gap_along, sphere_separation, vertex_projection_sat,
};
use sepax_narrowphase::{Contact, Manifold, PairCache, collide, collide_full};

/// Below this, squared lengths fit in f32 (`1e36 < f32::MAX`), so every answer is
/// expected finite; above it the queries' f32 arithmetic may overflow, and only
/// "no panic" and the f64-free checks apply.
pub const REPRESENTABLE: f64 = 1e18;

/// The scales every comparison is relative to.
pub(crate) struct Tolerances {
    /// Sum of the bounding radii.
    pub size: f64,
    /// `4 ε |t_b − t_a|`.
    pub round: f64,
    /// Sizes, the centres' distance and the margin are below [`REPRESENTABLE`].
    pub representable: bool,
    /// How far a normal's length may be from 1.
    pub unit: f32,
}

impl Tolerances {
    pub fn new(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, margin: f32) -> Tolerances {
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
    pub fn band(&self) -> f64 {
        1e-5 * self.size + self.round
    }

    /// How far two depths of one pair may differ.
    pub fn depth(&self) -> f64 {
        1e-4 * self.size + self.round
    }
}

pub(crate) fn check_contact_finite(c: &Contact, t: &Tolerances) {
    assert!(
        c.normal.is_finite() && (c.normal.length() - 1.0).abs() < t.unit && c.depth.is_finite(),
        "non-finite or non-unit contact {c:?}"
    );
}

/// A posed shape.
pub(crate) type Posed<'a> = (&'a Shape, &'a Pose);

/// `collide`'s manifold against `contact`'s answer `exact` (a manifold needs a contact,
/// a touching contact gives one), 1 to 4 finite points, and a second `collide` with the
/// cache the first left: the same as `collide_full` with that cache (answer and
/// remembered feature) and, unless skipped, the same as the first.
pub(crate) fn check_manifold(
    ((a, pa), (b, pb)): (Posed, Posed),
    margin: f32,
    manifold: &Option<Manifold>,
    exact: Option<Contact>,
    cache: &mut PairCache,
    t: &Tolerances,
    skip: &Skips,
) {
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
        if t.representable && !skip.finite {
            assert!(
                m.normal.is_finite() && (m.normal.length() - 1.0).abs() < t.unit,
                "manifold normal {} is not unit",
                m.normal
            );
        }
        if t.representable && !skip.finite {
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
    let mut full_cache = *cache;
    let again = collide(a, pa, b, pb, margin, cache);
    // The warm path (a kept feature) gives the full test's answer bit for bit, with
    // the same remembered feature, whatever the input.
    let full = collide_full(a, pa, b, pb, margin, &mut full_cache);
    assert_eq!(
        format!("{again:?}"),
        format!("{full:?}"),
        "the kept-feature path differs from the full test"
    );
    assert_eq!(
        cache.last(),
        full_cache.last(),
        "the kept-feature path's cache"
    );
    if skip.warm {
        return;
    }
    assert_eq!(
        format!("{again:?}"),
        format!("{manifold:?}"),
        "the warm query differs from the one before"
    );
}

/// Same verdict, same depth, mirrored normal (or a tie of two minimum axes).
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_symmetry(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    ab: Option<Contact>,
    ba: Option<Contact>,
    margin: f32,
    t: &Tolerances,
    skip_normals: bool,
) {
    if !t.representable {
        return;
    }
    // The documented exception: the same shape at the same pose twice. The two calls
    // are then the same computation and give the same normal, not mirrored ones.
    let bits = |p: &Pose| {
        (
            p.translation.to_array().map(f32::to_bits),
            p.rotation.to_array().map(f32::to_bits),
        )
    };
    if format!("{a:?}") == format!("{b:?}") && bits(pa) == bits(pb) {
        return;
    }
    // Every other pair is computed in one canonical order and mirrored: bit for bit.
    if let (Some(x), Some(y)) = (ab, ba) {
        assert_eq!(y, x.flipped(), "order symmetry: not mirrored bit for bit");
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
            let minimum = |n: Vec3, depth: f32| {
                (gap_along(a, pa, b, pb, n.as_dvec3()) + depth as f64).abs() <= tol
            };
            let tie = minimum(ab.normal, ab.depth) && minimum(-ba.normal, ba.depth);
            assert!(
                mirrored || tie || skip_normals,
                "order symmetry: normal {} for (a, b) but {} for (b, a), and not a tie",
                ab.normal,
                ba.normal
            );
        }
    }
}

/// The f64 oracles on the margin-0 contact `c` of a at `pa` and b at `pb`, for poses
/// with unit rotations: a pair with a mesh by the mesh twin's verdict gap
/// ([`mesh_verdict_gap`]; the verdict only, and not where the one-sided rule is
/// undecided, see [`centre_on_a_plane`]), a pair with a capsule by
/// [`capsule_separation`], a pair with a sphere (and no capsule) by
/// [`sphere_separation`], boxes and hulls by [`vertex_projection_sat`] (verdict outside
/// the band, depth within tolerance).
pub(crate) fn check_oracle(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    c: Option<Contact>,
    t: &Tolerances,
) {
    let unit = |p: &Pose| (p.rotation.length_squared() - 1.0).abs() < 1e-5;
    if !(t.representable && unit(pa) && unit(pb)) {
        return;
    }
    // About a's position: the oracle's f64 keeps its precision far from the origin
    // (b's offset rounds to f32 within `t.round`).
    let offset = (pb.translation.as_dvec3() - pa.translation.as_dvec3()).as_vec3();
    let (qa, qb) = (
        Pose::new(Vec3::ZERO, pa.rotation),
        Pose::new(offset, pb.rotation),
    );
    let mesh_verdict = |mesh: &TriMesh, mesh_pose: &Pose, other: &Shape, pose: &Pose| {
        if !centre_on_a_plane(mesh, mesh_pose, other, pose, t.band()) {
            let gap = mesh_verdict_gap(mesh, mesh_pose, other, pose);
            check_verdict(gap, c, t, "mesh twin");
        }
    };
    let (separation, oracle) = match (a, b) {
        (Shape::TriMesh(m), other) => return mesh_verdict(m, &qa, other, &qb),
        (other, Shape::TriMesh(m)) => return mesh_verdict(m, &qb, other, &qa),
        (Shape::Capsule(capsule), other) => {
            let separation = capsule_separation(capsule, &qa, other, &qb);
            (separation, "capsule oracle")
        }
        (other, Shape::Capsule(capsule)) => {
            let separation = capsule_separation(capsule, &qb, other, &qa);
            (separation, "capsule oracle")
        }
        (Shape::Sphere(sphere), other) => {
            let separation = sphere_separation(sphere.radius(), &qa, other, &qb);
            (separation, "sphere oracle")
        }
        (other, Shape::Sphere(sphere)) => {
            let separation = sphere_separation(sphere.radius(), &qb, other, &qa);
            (separation, "sphere oracle")
        }
        _ => match vertex_projection_sat(a, &qa, b, &qb) {
            Some(o) => (o.separation, "oracle"),
            None => return,
        },
    };
    check_verdict(Some(separation), c, t, oracle);
    if let Some(c) = c {
        let error = (c.depth as f64 + separation).abs();
        assert!(
            error <= t.depth(),
            "{oracle}: depth {} but the oracle says {} (tolerance {})",
            c.depth,
            -separation,
            t.depth()
        );
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
