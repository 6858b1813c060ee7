//! Boxes, hulls and bent blocks resting on a flat floor of 2,048 triangles, against an
//! f64 account of the floor: 100,000 shapes set face, edge or corner down, tilted by
//! 1e-9 to 1e-2 rad, anywhere over the floor (across its seams), sunk by 1e-6 to 3e-2 of
//! their size.
//!
//! On a flat floor the exact contact is known: the normal is up and the depth is the
//! depth of the shape's lowest vertex below the plane. The checks, with `r` the f32
//! round-off of the pair (`8 ε (|position| + size)`):
//! * the manifold's normal is up within 1e-5 rad;
//! * `contact`'s depth is at most the lowest vertex's and at least the depth of every
//!   vertex over a triangle the shape touches (the f64 triangle twin's verdict), within
//!   `r`: the deepest point before the reduction to four;
//! * the manifold's depth is at most `contact`'s and at least it minus the clip
//!   tolerance (each reduction to four keeps a point within it of its deepest, for ids
//!   that stay: a triangle's, then the merge's, which gathers what the first dropped);
//! * fewer than 1 in 50,000 `contact`s (none on these seeds) fall more than 1e-6 of the
//!   size short of the lowest vertex.
//!
//! Before 5 December 2026 `contact` on a mesh was the manifold's deepest point, so the
//! reduction's tolerance left it up to the clip tolerance short: 3,759 of these pairs
//! were more than 1e-6 of the size short, by up to 3.8e-3 of it (the test fails before
//! at case 70). A sharp corner can also enter the floor through one triangle and reach
//! under the next from the side, its slanted faces crossing the plane on this side of
//! the seam, so that the next triangle is not touched and no triangle's clip held the
//! corner: 23 of 88,356 pairs were more than 1e-6 of the size short, by up to 9.7e-3 of
//! it (17–29 on seeds xor 1–4), until the merge took such a corner under the neighbour
//! across the edge or corner it passed (`merge::corner_past_a_seam`, 5 December 2026):
//! none now on this seed, and 1 on seed xor 2, 1.6e-4 of the size short: a corner two
//! or more triangles away from every touched one (as under the lens-shaped bottom of a
//! wide hull), until the merge walked across the untouched triangles to the one over
//! the corner: none on either.

use glam::{DVec3, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{MeshTriangle, Pose, Shape};
use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles, contact_mesh_triangles};
use sepax_narrowphase::oracle::triangle::triangle_verdict_gap;
use sepax_narrowphase::{CLIP_TOLERANCE, Manifold};
use sepax_testkit::shapes::{box_hull_or_bent_block, resting_rotation};
use sepax_testkit::terrain::{flat_floor, triangles_with_flags};

/// The shape's vertices in its own frame.
fn vertices(shape: &Shape) -> Vec<DVec3> {
    match shape {
        Shape::ConvexHull(h) => h.vertices().iter().map(|v| v.as_dvec3()).collect(),
        Shape::Cuboid(c) => c.vertices().iter().map(|v| v.as_dvec3()).collect(),
        _ => unreachable!("boxes and hulls"),
    }
}

/// A box's least half extent, a hull's inradius: what the clip tolerance scales with.
fn inner_radius(shape: &Shape) -> f32 {
    match shape {
        Shape::Cuboid(c) => c.half_extents().min_element(),
        Shape::ConvexHull(h) => h.inradius(),
        _ => unreachable!("boxes and hulls"),
    }
}

/// Whether `p`'s floor position `(x, z)` lies in triangle `t` (on the floor `y = 0`).
fn over(t: &MeshTriangle, p: DVec3) -> bool {
    let [a, b, c] = t.vertices.map(|v| v.as_dvec3());
    let side = |u: DVec3, v: DVec3| (v.z - u.z) * (p.x - u.x) - (v.x - u.x) * (p.z - u.z);
    let (s0, s1, s2) = (side(a, b), side(b, c), side(c, a));
    (s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0)
}

/// A pose for `shape` resting on the floor `y = 0` (see the module docs).
fn resting(rng: &mut Rng, shape: &Shape) -> Pose {
    let rotation = resting_rotation(rng, shape, DVec3::Y, DVec3::X);
    let lowest = vertices(shape)
        .iter()
        .map(|v| (rotation.as_dquat() * *v).y)
        .fold(f64::INFINITY, f64::min);
    let sink = f64::from(shape.bounding_radius()) * 10f64.powf(f64::from(rng.range(-6.0, -1.5)));
    let (x, z) = (rng.range(-4.5, 4.5), rng.range(-4.5, 4.5));
    Pose::new(Vec3::new(x, (-lowest - sink) as f32, z), rotation)
}

#[test]
fn shapes_resting_on_a_floor_get_its_normal_and_their_depth() {
    floor_run(0xF100);
}

/// The same on seed xor 2, where a triangle's reduction to four dropped its deepest
/// point and the merge's kept one within the clip tolerance of what was left: a box's
/// manifold was 1.4 clip tolerances short of `contact` (case 88,854). The merge now
/// gathers each triangle's dropped deepest point too.
#[test]
fn a_mesh_manifold_keeps_its_deepest_point_within_one_clip_tolerance() {
    floor_run(0xF100 ^ 2);
}

/// [`shapes_resting_on_a_floor_get_its_normal_and_their_depth`] on `seed`.
fn floor_run(seed: u64) {
    // 16 × 16 m at y = 0: a shape within 4.5 of the middle (reach at most 3.5) is on it.
    let triangles = triangles_with_flags(&flat_floor(32, 0.5));
    let bounds: Vec<(Vec3, Vec3)> = (triangles.iter())
        .map(|t| {
            let [a, b, c] = t.vertices;
            (a.min(b).min(c), a.max(b).max(c))
        })
        .collect();
    let mut rng = Rng::new(seed);
    let mut scratch = MeshScratch::default();
    let (mut pairs, mut short_of_lowest) = (0, 0);
    let mut worst_short = 0.0f64;
    for i in 0..100_000 {
        let shape = box_hull_or_bent_block(&mut rng, i);
        let pose = resting(&mut rng, &shape);
        let size = f64::from(shape.bounding_radius());
        let rotation = pose.rotation.as_dquat().normalize();
        let world: Vec<DVec3> = (vertices(&shape).iter())
            .map(|v| rotation * *v + pose.translation.as_dvec3())
            .collect();
        let lowest = -world.iter().map(|v| v.y).fold(f64::INFINITY, f64::min);
        let round_off =
            8.0 * f64::from(f32::EPSILON) * (pose.translation.as_dvec3().length() + size);
        if lowest < round_off {
            continue;
        }
        let aabb = shape.aabb(&pose);
        let (lo, hi) = (aabb.min - Vec3::splat(0.01), aabb.max + Vec3::splat(0.01));
        let under = || {
            (bounds.iter().enumerate())
                .filter(move |(_, (tlo, thi))| tlo.cmple(hi).all() && thi.cmpge(lo).all())
                .map(|(k, _)| (k as u32, triangles[k]))
        };
        // The depth of every vertex over a triangle the shape touches.
        let seen = under()
            .map(|(_, t)| {
                let over_it = world.iter().filter(|v| over(&t, **v)).map(|v| -v.y);
                let deepest = over_it.fold(f64::NEG_INFINITY, f64::max);
                let touched = deepest > f64::NEG_INFINITY
                    && triangle_verdict_gap(&t, &Pose::IDENTITY, &shape, &pose)
                        .is_some_and(|gap| gap < -round_off);
                if touched { deepest } else { f64::NEG_INFINITY }
            })
            .fold(f64::NEG_INFINITY, f64::max);
        let label = format!("case {i}: {shape:?} at {pose:?}");
        let m: Manifold =
            collide_mesh_triangles(under(), &Pose::IDENTITY, &shape, &pose, 0.0, &mut scratch)
                .unwrap_or_else(|| panic!("{label}: no manifold, {lowest} deep"));
        let c = contact_mesh_triangles(under(), &Pose::IDENTITY, &shape, &pose, 0.0, &mut scratch)
            .unwrap_or_else(|| panic!("{label}: no contact"));
        let off_up = m.normal.as_dvec3().cross(DVec3::Y).length();
        assert!(
            m.normal.y > 0.0 && off_up < 1e-5,
            "{label}: normal {}",
            m.normal
        );
        assert_eq!(c.normal, m.normal, "{label}");
        let depth = f64::from(c.depth);
        assert!(
            depth <= lowest + round_off,
            "{label}: contact {depth}, the lowest vertex {lowest}"
        );
        assert!(
            depth >= seen - round_off,
            "{label}: contact {depth}, a vertex over a touched triangle {seen}"
        );
        let clip = CLIP_TOLERANCE * inner_radius(&shape);
        assert!(
            m.depth() <= c.depth && m.depth() >= c.depth - clip - round_off as f32,
            "{label}: manifold {}, contact {}",
            m.depth(),
            c.depth
        );
        pairs += 1;
        if depth < lowest - round_off - 1e-6 * size {
            short_of_lowest += 1;
            worst_short = worst_short.max((lowest - depth) / size);
        }
    }
    eprintln!(
        "{pairs} pairs; {short_of_lowest} short of the lowest vertex by more than 1e-6 of the size, by at most {worst_short:.2e} of it"
    );
    assert!(
        pairs > 80_000 && short_of_lowest < pairs / 50_000,
        "{pairs} {short_of_lowest}"
    );
}
