//! Pairs of posed 3D shapes: the benches' pair sets by kind, and the oracle tests'
//! placements.
//!
//! * **Pair sets** ([`box_pairs`], [`hull_pairs`], [`hull_pairs_as`],
//!   [`sphere_hull_pairs`], [`box_hull_pairs`], [`capsule_box_pairs`], [`capsule_capsule_pairs`],
//!   [`apart_capsule_pairs`]): `count`
//!   pairs of one [`PairKind`] from a seed, what the narrow-phase benches time.
//! * **Placements** ([`place`] with a [`Placement`]): poses for a given pair of shapes
//!   that stress the separating-axis test (coincident centres, parallel faces, edge on
//!   edge, a gap within ±1e-3 of zero); the randomized oracle tests cycle through
//!   [`PLACEMENTS`].
//!
//! Gaps are measured by the f64 oracle
//! ([`vertex_projection_sat`]): a touching pair is moved along the oracle's axis to the
//! wanted gap.

use crate::shapes::{ball_hull, half_unit_sphere, pair_cuboid};
use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, MeshTriangle, Pose, Shape, Sphere};
use sepax_narrowphase::oracle::{
    OracleContact, capsule_separation, sphere_separation, vertex_projection_sat,
};

/// One pair of posed shapes.
#[derive(Clone, Debug)]
pub struct Pair {
    /// Shape a.
    pub a: Shape,
    /// Pose of a.
    pub pose_a: Pose,
    /// Shape b.
    pub b: Shape,
    /// Pose of b.
    pub pose_b: Pose,
}

impl Pair {
    /// The same pair in the other argument order: b first.
    pub fn swapped(&self) -> Pair {
        Pair {
            a: self.b.clone(),
            pose_a: self.pose_b,
            b: self.a.clone(),
            pose_b: self.pose_a,
        }
    }
}

/// How the pairs of a bench set touch.
#[derive(Clone, Copy, Debug)]
pub enum PairKind {
    /// b rests on a's top face, penetrating 1% of its size: a face contact.
    Resting,
    /// Centres 0.3 × size apart in a random direction.
    Deep,
    /// Centres 3 × size apart: the first axis separates.
    Separated,
    /// Random orientations, moved along the oracle's axis to a 1% penetration (a pair
    /// with a sphere: along the line of the centres, to its exact separation).
    Touching,
    /// Random orientations, moved along the oracle's axis to a gap of 5% of the size
    /// (the SAT gap: the distance is at least that): apart, within reach of a
    /// speculative margin, what a distance query meets.
    Apart,
}

/// A size for relative tolerances: the sum of the bounding radii.
pub fn scale(a: &Shape, b: &Shape) -> f64 {
    (a.bounding_radius() + b.bounding_radius()) as f64
}

/// The f64 vertex-projection oracle on two posed boxes or hulls. Panics on a sphere
/// (the oracle has no vertices to project; see `sepax_narrowphase::oracle` for the
/// sphere closed forms).
pub fn oracle(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> OracleContact {
    vertex_projection_sat(a, pa, b, pb).expect("boxes and hulls")
}

/// A box or hull pair grown by `factor` about the world origin: the shapes' sizes and
/// the poses' translations (rotations kept). A power of two scales `f32` exactly, so
/// the grown pair's true answer is the original's times `factor`. Panics on other
/// shapes.
pub fn grown(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, factor: f32) -> [(Shape, Pose); 2] {
    let shape = |s: &Shape| match s {
        Shape::ConvexHull(h) => {
            let points: Vec<Vec3> = h.vertices().iter().map(|v| *v * factor).collect();
            Shape::from(sepax_geometry::ConvexHull::try_from_points(&points).expect("a hull"))
        }
        Shape::Cuboid(c) => Shape::from(
            sepax_geometry::Cuboid::try_from_half_extents(c.half_extents() * factor)
                .expect("a box"),
        ),
        _ => panic!("boxes and hulls only"),
    };
    let pose = |p: &Pose| Pose::new(p.translation * factor, p.rotation);
    [(shape(a), pose(pa)), (shape(b), pose(pb))]
}

/// Checks `sepax_narrowphase::contact` on a box or hull pair against the oracle, within
/// `1e-5` of the pair's size: no contact where the oracle has a gap beyond it, the
/// oracle's depth where it has a depth beyond it (panics with `label` otherwise).
/// Returns `Some(true)` for a checked overlap, `Some(false)` for a checked gap, `None`
/// inside the band.
pub fn check_contact_against_oracle(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    label: &str,
) -> Option<bool> {
    let truth = oracle(a, pa, b, pb);
    let band = 1e-5 * scale(a, b);
    let ours = sepax_narrowphase::contact(a, pa, b, pb, 0.0);
    if truth.separation > band {
        assert!(ours.is_none(), "{label}: oracle gap, {ours:?}");
        Some(false)
    } else if truth.separation < -band {
        let c = ours.unwrap_or_else(|| panic!("{label}: oracle depth missed"));
        assert!(
            (c.depth as f64 + truth.separation).abs() <= band,
            "{label}: depth {} vs oracle {}",
            c.depth,
            -truth.separation
        );
        Some(true)
    } else {
        None
    }
}

/// Poses a pair as `kind` says, a at a random place within ±5 of the origin.
fn pose_as(rng: &mut Rng, a: Shape, b: Shape, kind: PairKind) -> Pair {
    let pose_a = Pose::new(
        rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)),
        rng.rotation(),
    );
    let size = a.bounding_radius() + b.bounding_radius();
    let pose_b = match kind {
        PairKind::Resting => {
            let (ha, hb) = match (&a, &b) {
                (Shape::Cuboid(x), Shape::Cuboid(y)) => (x.half_extents(), y.half_extents()),
                _ => (Vec3::splat(0.5), Vec3::splat(0.5)),
            };
            let local = Vec3::new(
                rng.range(-0.2, 0.2),
                ha.y + hb.y - 0.01,
                rng.range(-0.2, 0.2),
            );
            Pose::new(
                pose_a.transform_point(local),
                pose_a.rotation * Quat::from_rotation_y(rng.range(-0.5, 0.5)),
            )
        }
        PairKind::Deep => Pose::new(
            pose_a.translation + rng.unit_vec3() * 0.3 * size * 0.5,
            rng.rotation(),
        ),
        PairKind::Separated => Pose::new(
            pose_a.translation + rng.unit_vec3() * 3.0 * size,
            rng.rotation(),
        ),
        PairKind::Touching | PairKind::Apart => {
            // The gap wanted, as a fraction of the mean bounding radius.
            let gap = if matches!(kind, PairKind::Touching) {
                -0.01
            } else {
                0.1
            };
            let mut pose_b = Pose::new(
                pose_a.translation + rng.unit_vec3() * 0.8 * size,
                rng.rotation(),
            );
            let target = gap * size as f64 * 0.5;
            if let Some(o) = vertex_projection_sat(&a, &pose_a, &b, &pose_b) {
                pose_b.translation += ((target - o.separation) * o.normal).as_vec3();
            } else {
                // A sphere: its exact separation (the signed distance of its centre to
                // the other shape, minus its radius), brought to the target along the
                // line of the centres by secant steps.
                let separation = |pose_b: &Pose| match (&a, &b) {
                    (Shape::Sphere(s), _) => sphere_separation(s.radius(), &pose_a, &b, pose_b),
                    (_, Shape::Sphere(s)) => sphere_separation(s.radius(), pose_b, &a, &pose_a),
                    _ => unreachable!("the oracle measures every pair without a sphere"),
                };
                let dir = (pose_b.translation - pose_a.translation).normalize();
                pose_b.translation = along_to_gap(pose_b.translation, dir, target, |t| {
                    separation(&Pose::new(t, pose_b.rotation))
                });
            }
            pose_b
        }
    };
    Pair {
        a,
        pose_a,
        b,
        pose_b,
    }
}

/// `start` moved along the unit `dir` until `separation` (of the moved position) is
/// `target`: six secant steps on a finite-difference slope, stopping early where the
/// slope flattens.
fn along_to_gap(start: Vec3, dir: Vec3, target: f64, separation: impl Fn(Vec3) -> f64) -> Vec3 {
    let mut at = start;
    for _ in 0..6 {
        let s0 = separation(at);
        let slope = (separation(at + dir * 1e-3) - s0) / 1e-3;
        if slope.abs() < 1e-3 {
            break;
        }
        at += dir * ((target - s0) / slope) as f32;
    }
    at
}

/// `count` pairs of [`pair_cuboid`] boxes of one kind.
pub fn box_pairs(seed: u64, count: usize, kind: PairKind) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (pair_cuboid(&mut rng), pair_cuboid(&mut rng));
            pose_as(&mut rng, a, b, kind)
        })
        .collect()
}

/// A hull of `n` points at radius 0.45–0.55: the benches' "n-point hull".
pub fn bench_hull(rng: &mut Rng, n: usize) -> Shape {
    Shape::from(ball_hull(rng, n, 0.45, 0.55))
}

/// `count` touching pairs of [`bench_hull`]s of `n` points.
pub fn hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    hull_pairs_as(seed, count, n, PairKind::Touching)
}

/// `count` pairs of [`bench_hull`]s of `n` points, posed as `kind` says (the box-only
/// [`PairKind::Resting`] rests them as boxes of half extents 0.5).
pub fn hull_pairs_as(seed: u64, count: usize, n: usize, kind: PairKind) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (bench_hull(&mut rng, n), bench_hull(&mut rng, n));
            pose_as(&mut rng, a, b, kind)
        })
        .collect()
}

/// `count` pairs of [`bench_hull`]s of `n` points at rest on each other, as a body
/// settles on a face: b's largest face flush on a's largest face, centred over it and
/// turned about its normal at random, sunk 2% of b's bounding radius (more than the
/// benches' nudge moves it). Face contacts whose reference face stays from call to
/// call: what the warm path of `collide` is for.
pub fn resting_hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (
                ball_hull(&mut rng, n, 0.45, 0.55),
                ball_hull(&mut rng, n, 0.45, 0.55),
            );
            let pose_a = Pose::new(
                rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
                rng.rotation(),
            );
            let (normal_a, centre_a) = largest_face(&a);
            let (normal_b, centre_b) = largest_face(&b);
            // b's face normal turned onto −(a's), then spun about a's normal.
            let local = Quat::from_axis_angle(normal_a, rng.range(0.0, std::f32::consts::TAU))
                * Quat::from_rotation_arc(normal_b, -normal_a);
            let sink = 0.02 * b.bounding_radius();
            // b's face centre on a's face centre, then `sink` into a.
            let offset = centre_a - local * centre_b - normal_a * sink;
            let pose_b = Pose::new(
                pose_a.transform_point(offset),
                (pose_a.rotation * local).normalize(),
            );
            Pair {
                a: Shape::from(a),
                pose_a,
                b: Shape::from(b),
                pose_b,
            }
        })
        .collect()
}

/// The outward normal of a hull's largest face and the mean of its vertices.
fn largest_face(hull: &sepax_geometry::ConvexHull) -> (Vec3, Vec3) {
    let v = hull.vertices();
    let (mut best, mut best_area) = (0, -1.0);
    for f in 0..hull.planes().len() {
        let face = hull.face(f);
        let p0 = v[face[0] as usize];
        let area: f32 = (1..face.len() - 1)
            .map(|k| {
                (v[face[k] as usize] - p0)
                    .cross(v[face[k + 1] as usize] - p0)
                    .length()
            })
            .sum();
        if area > best_area {
            (best, best_area) = (f, area);
        }
    }
    let face = hull.face(best);
    let centre = face.iter().map(|&i| v[i as usize]).sum::<Vec3>() / face.len() as f32;
    (hull.planes()[best].normal, centre)
}

/// `count` touching pairs of a sphere of radius 0.5 and a [`bench_hull`] of `n` points.
pub fn sphere_hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let b = bench_hull(&mut rng, n);
            pose_as(&mut rng, half_unit_sphere(), b, PairKind::Touching)
        })
        .collect()
}

/// `count` touching pairs of spheres: radius 0.5 (a) and a random radius in
/// `[0.25, 0.75]` (b), 1% of the size into each other.
pub fn sphere_sphere_pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let radius = rng.range(0.25, 0.75);
            let b = Shape::from(Sphere::try_new(radius).unwrap_or_else(|_| unreachable!()));
            pose_as(&mut rng, half_unit_sphere(), b, PairKind::Touching)
        })
        .collect()
}

/// `count` touching pairs of a sphere of radius 0.5 (a) and a box like [`box_pairs`]'
/// ([`pair_cuboid`], b): random orientations, 1% of the size into each other.
pub fn sphere_box_pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let b = pair_cuboid(&mut rng);
            pose_as(&mut rng, half_unit_sphere(), b, PairKind::Touching)
        })
        .collect()
}

/// `count` touching pairs of a box like [`box_pairs`]' ([`pair_cuboid`], a) and a
/// [`bench_hull`] of `n` points (b), random orientations, 1% of the size into each other.
pub fn box_hull_pairs(seed: u64, count: usize, n: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (pair_cuboid(&mut rng), bench_hull(&mut rng, n));
            pose_as(&mut rng, a, b, PairKind::Touching)
        })
        .collect()
}

/// A capsule of half height 0.4–0.6 and radius 0.2–0.3: the benches' capsule.
pub fn bench_capsule(rng: &mut Rng) -> Shape {
    let capsule = sepax_geometry::Capsule::try_new(rng.range(0.4, 0.6), rng.range(0.2, 0.3));
    Shape::from(capsule.unwrap_or_else(|_| unreachable!()))
}

/// `count` touching pairs of a [`bench_capsule`] (a) and a box like [`box_pairs`]' (b):
/// random orientations, 1% of the size into each other (by the f64 capsule oracle).
pub fn capsule_box_pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (bench_capsule(&mut rng), pair_cuboid(&mut rng));
            touching_capsule_pair(&mut rng, a, b)
        })
        .collect()
}

/// `count` touching pairs of [`bench_capsule`]s, as [`capsule_box_pairs`].
pub fn capsule_capsule_pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (bench_capsule(&mut rng), bench_capsule(&mut rng));
            touching_capsule_pair(&mut rng, a, b)
        })
        .collect()
}

/// `count` pairs of [`bench_capsule`]s apart by 5% of the size (by the f64 capsule
/// oracle; [`PairKind::Apart`]), at random rotations.
pub fn apart_capsule_pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (a, b) = (bench_capsule(&mut rng), bench_capsule(&mut rng));
            capsule_pair_at(&mut rng, a, b, 0.1)
        })
        .collect()
}

/// Capsule `a` and any `b` at random rotations, b moved along the line of the centres
/// until the oracle's separation is `−0.5%` of the size (secant steps).
fn touching_capsule_pair(rng: &mut Rng, a: Shape, b: Shape) -> Pair {
    capsule_pair_at(rng, a, b, -0.01)
}

/// Capsule `a` and any `b` at random rotations, b moved along the line of the centres
/// until the oracle's separation is `gap / 2` of the size (secant steps).
fn capsule_pair_at(rng: &mut Rng, a: Shape, b: Shape, gap: f64) -> Pair {
    let Shape::Capsule(capsule) = &a else {
        unreachable!("a is the capsule")
    };
    let pose_a = Pose::new(
        rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)),
        rng.rotation(),
    );
    let size = a.bounding_radius() + b.bounding_radius();
    let dir = rng.unit_vec3();
    let mut pose_b = Pose::new(pose_a.translation + dir * 0.8 * size, rng.rotation());
    let target = gap * size as f64 * 0.5;
    pose_b.translation = along_to_gap(pose_b.translation, dir, target, |t| {
        capsule_separation(capsule, &pose_a, &b, &Pose::new(t, pose_b.rotation))
    });
    Pair {
        a,
        pose_a,
        b,
        pose_b,
    }
}

/// The placements every randomized oracle test cycles through.
#[derive(Clone, Copy, Debug)]
pub enum Placement {
    /// Random rotations, centres up to 1.2 × the sum of bounding radii apart.
    General,
    /// Both centres at the same point.
    CoincidentCentres,
    /// Rotations equal up to quarter turns: faces parallel.
    ParallelFaces,
    /// a turned 45° about x, b 45° about y: edges meet edges.
    EdgeOnEdge,
    /// Moved along the oracle's axis until the gap is within ±1e-3 of the size.
    NearTouching,
    /// Rotations equal up to quarter turns and a small turn (1e-7 to 0.03 rad, its
    /// logarithm uniform) about a random axis: edges within a hair of parallel, the
    /// configuration where an edge axis `a_i × b_j` is short and its f32 direction
    /// mostly round-off unless taken with care. Boxes and hulls are placed with such
    /// a pair of edges crossing, from 5 % of the size sunk to 1 % apart (two boxes by
    /// the quarter turns above, any other pair with b turned onto a random edge of a);
    /// other shapes at a random offset.
    NearParallelEdges,
}

/// Every [`Placement`], in the order the tests cycle through them.
pub const PLACEMENTS: [Placement; 6] = [
    Placement::General,
    Placement::CoincidentCentres,
    Placement::ParallelFaces,
    Placement::EdgeOnEdge,
    Placement::NearTouching,
    Placement::NearParallelEdges,
];

/// Up to three random quarter turns about the coordinate axes.
fn quarter_turns(rng: &mut Rng) -> Quat {
    let axes = [Vec3::X, Vec3::Y, Vec3::Z];
    let mut q = Quat::IDENTITY;
    for _ in 0..3 {
        let axis = axes[rng.below(3)];
        q = Quat::from_axis_angle(axis, std::f32::consts::FRAC_PI_2 * rng.below(4) as f32) * q;
    }
    q
}

/// A random sign.
fn sign(rng: &mut Rng) -> f32 {
    if rng.below(2) == 0 { -1.0 } else { 1.0 }
}

/// b's centre in a's frame (boxes of half extents `ha`, `hb`; b turned by `relative`)
/// such that an edge of a and the edge of b most nearly parallel to it cross at a
/// random place along both, `gap` apart along a's corner diagonal (negative: b's edge
/// sunk into a). Used by [`Placement::NearParallelEdges`], where it makes the short
/// edge axis `a_i × b_j` the one that decides.
fn edges_meeting(rng: &mut Rng, ha: Vec3, hb: Vec3, relative: Quat, gap: f32) -> Vec3 {
    let i = rng.below(3);
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let (s1, s2) = (sign(rng), sign(rng));
    // a's edge along axis i at the corner (s1 ha_i1, s2 ha_i2), and its outward diagonal.
    let mut corner_a = Vec3::ZERO;
    corner_a[i] = rng.range(-1.0, 1.0) * ha[i];
    corner_a[i1] = s1 * ha[i1];
    corner_a[i2] = s2 * ha[i2];
    let mut outward = Vec3::ZERO;
    outward[i1] = s1;
    outward[i2] = s2;
    let outward = outward.normalize();
    // b's axis closest to a_i, and b's edge along it whose corner faces a.
    let axes_b = [relative * Vec3::X, relative * Vec3::Y, relative * Vec3::Z];
    let j = (0..3)
        .max_by(|&p, &q| axes_b[p][i].abs().total_cmp(&axes_b[q][i].abs()))
        .unwrap_or(0);
    let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
    let facing = |k: usize| {
        if axes_b[k].dot(outward) > 0.0 {
            -1.0
        } else {
            1.0
        }
    };
    let mut corner_b = Vec3::ZERO;
    corner_b[j] = rng.range(-1.0, 1.0) * hb[j];
    corner_b[j1] = facing(j1) * hb[j1];
    corner_b[j2] = facing(j2) * hb[j2];
    corner_a + outward * gap - relative * corner_b
}

/// A box or hull as a hull (a box's eight corners), to pick edges of.
fn as_hull(shape: &Shape) -> Option<std::borrow::Cow<'_, ConvexHull>> {
    match shape {
        Shape::Cuboid(c) => ConvexHull::cuboid(c.half_extents())
            .ok()
            .map(std::borrow::Cow::Owned),
        Shape::ConvexHull(h) => Some(std::borrow::Cow::Borrowed(h)),
        _ => None,
    }
}

/// A random edge of `hull`: a point on it, its unit direction and its outward unit
/// direction (halfway between its faces' normals, square to the edge).
fn random_edge(rng: &mut Rng, hull: &ConvexHull) -> Option<(Vec3, Vec3, Vec3)> {
    let edge = hull.edges()[rng.below(hull.edges().len())];
    let [v0, v1] = edge.vertices.map(|v| hull.vertices()[v as usize]);
    let [n0, n1] = edge.faces.map(|f| hull.planes()[f as usize].normal);
    let direction = (v1 - v0).try_normalize()?;
    let outward = (n0 + n1)
        .reject_from_normalized(direction)
        .try_normalize()?;
    Some((v0 + (v1 - v0) * rng.unit(), direction, outward))
}

/// For two boxes or hulls (not two boxes: see `edges_meeting`), b's rotation and centre
/// in a's frame such that a random edge of b lies within a hair of parallel to a random
/// edge of a (a small turn of 1e-7 to 0.03 rad, its logarithm uniform) and the two
/// cross at random places along both, from 5 % of the size sunk to 1 % apart along a
/// direction in a's edge's wedge of normals. `None` for other shapes.
fn polytope_edges_crossing(rng: &mut Rng, a: &Shape, b: &Shape) -> Option<(Quat, Vec3)> {
    let (hull_a, hull_b) = (as_hull(a)?, as_hull(b)?);
    let (on_a, along_a, out_a) = random_edge(rng, &hull_a)?;
    let (on_b, along_b, out_b) = random_edge(rng, &hull_b)?;
    // The approach `w`: out of a's edge, between its faces (within ±40° of the middle).
    let tilt = rng.range(-0.7, 0.7);
    let w = Quat::from_axis_angle(along_a, tilt) * out_a;
    // b's edge along a's, b's outward facing a (−w), then the small turn.
    let from = glam::Mat3::from_cols(along_b, out_b, along_b.cross(out_b));
    let to = glam::Mat3::from_cols(along_a, -w, along_a.cross(-w));
    let aligned = Quat::from_mat3(&(to * from.transpose())).normalize();
    let angle = 10f32.powf(rng.range(-7.0, -1.5));
    let relative = Quat::from_axis_angle(rng.unit_vec3(), angle) * aligned;
    let gap = rng.range(-0.05, 0.01) * (a.bounding_radius() + b.bounding_radius());
    Some((relative, on_a + w * gap - relative * on_b))
}

/// Poses for a capsule and a box or hull with the capsule's core within a hair of
/// parallel to an edge of the other shape (a small turn of 1e-7 to 0.03 rad, its
/// logarithm uniform) and crossing it, from 5 % of the size sunk to 1 % apart: the
/// configuration where the axis `core × edge` is short and decides. `None` for other
/// shapes.
pub fn capsule_along_edge(rng: &mut Rng, capsule: &Capsule, other: &Shape) -> Option<(Pose, Pose)> {
    let (on_edge, direction, outward) = random_edge(rng, &*as_hull(other)?)?;
    let angle = 10f32.powf(rng.range(-7.0, -1.5));
    let turn = Quat::from_axis_angle(rng.unit_vec3(), angle);
    // The core runs along the capsule's y axis.
    let rotation = turn * Quat::from_rotation_arc(Vec3::Y, direction);
    let along = rng.range(-1.0, 1.0) * capsule.half_height();
    let reach = capsule.radius() + capsule.half_height() + other.bounding_radius();
    let gap = rng.range(-0.05, 0.01) * reach;
    let centre =
        on_edge + outward * (capsule.radius() + gap) - rotation * Vec3::new(0.0, along, 0.0);
    let pose_other = Pose::new(
        rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
        rng.rotation(),
    );
    Some((pose_other * Pose::new(centre, rotation), pose_other))
}

/// A pose of a box, hull or capsule with one of its edges (a capsule: its core) within a
/// hair of parallel to edge `edge` of triangle `t` (a small turn of 1e-7 to 0.03 rad, its
/// logarithm uniform), the two crossing from outside the triangle, approached at a
/// random angle between the triangle's normal and its outward side direction, from 5 %
/// of the size sunk to 1 % apart: the configuration where the axis `edge × edge` is
/// short and decides. The triangle is in the mesh frame `mesh_pose`; `None` for other
/// shapes or a degenerate triangle.
pub fn convex_along_triangle_edge(
    rng: &mut Rng,
    t: &MeshTriangle,
    edge: usize,
    mesh_pose: &Pose,
    shape: &Shape,
) -> Option<Pose> {
    // The shape's edge (in its frame): a point on it, its direction and outward.
    let (on_edge, edge_direction, outward, radius) = match shape {
        Shape::Capsule(c) => {
            let along = Vec3::Y * rng.range(-1.0, 1.0) * c.half_height();
            let around = rng.range(0.0, std::f32::consts::TAU);
            let outward = Vec3::new(around.cos(), 0.0, around.sin());
            (along, Vec3::Y, outward, c.radius())
        }
        _ => {
            let (on_edge, direction, outward) = random_edge(rng, &*as_hull(shape)?)?;
            (on_edge, direction, outward, 0.0)
        }
    };
    // The triangle's edge, its outward side direction `u` and the approach `w` between
    // the normal and `u` (the direction from the triangle's edge to the shape).
    let (p0, p1) = (t.vertices[edge], t.vertices[(edge + 1) % 3]);
    let d = (p1 - p0).try_normalize()?;
    let u = d.cross(t.normal).try_normalize()?;
    let u = if u.dot(t.vertices[(edge + 2) % 3] - p0) > 0.0 {
        -u
    } else {
        u
    };
    let theta = rng.range(0.05, 1.5);
    let w = t.normal * theta.cos() + u * theta.sin();
    // The rotation taking (edge, outward) of the shape to (d, −w), then the small turn.
    let from = glam::Mat3::from_cols(edge_direction, outward, edge_direction.cross(outward));
    let to = glam::Mat3::from_cols(d, -w, d.cross(-w));
    let aligned = Quat::from_mat3(&(to * from.transpose())).normalize();
    let angle = 10f32.powf(rng.range(-7.0, -1.5));
    let rotation = Quat::from_axis_angle(rng.unit_vec3(), angle) * aligned;
    let on_triangle = p0 + (p1 - p0) * rng.unit();
    let gap = rng.range(-0.05, 0.01) * shape.bounding_radius();
    let centre = on_triangle + w * (radius + gap) - rotation * on_edge;
    Some(*mesh_pose * Pose::new(centre, rotation))
}

/// Poses for a pair of shapes under a placement, a within ±10 of the origin.
pub fn place(rng: &mut Rng, a: &Shape, b: &Shape, placement: Placement) -> (Pose, Pose) {
    let reach = a.bounding_radius() + b.bounding_radius();
    let origin = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
    match placement {
        Placement::General => {
            let pa = Pose::new(origin, rng.rotation());
            let offset = rng.unit_vec3() * rng.range(0.0, 1.2 * reach);
            (pa, Pose::new(origin + offset, rng.rotation()))
        }
        Placement::CoincidentCentres => (
            Pose::new(origin, rng.rotation()),
            Pose::new(origin, rng.rotation()),
        ),
        Placement::ParallelFaces => {
            let base = rng.rotation();
            let offset = rng.unit_vec3() * rng.range(0.0, reach);
            (
                Pose::new(origin, base),
                Pose::new(origin + offset, base * quarter_turns(rng)),
            )
        }
        Placement::EdgeOnEdge => {
            let base = rng.rotation();
            let jitter = rng.range(-1e-3, 1e-3);
            let ra = base * Quat::from_rotation_x(std::f32::consts::FRAC_PI_4 + jitter);
            let rb = base * Quat::from_rotation_y(std::f32::consts::FRAC_PI_4 - jitter);
            let offset = base * Vec3::new(0.0, 0.0, rng.range(0.2, 1.0) * reach);
            (Pose::new(origin, ra), Pose::new(origin + offset, rb))
        }
        Placement::NearParallelEdges => {
            let base = rng.rotation();
            let angle = 10f32.powf(rng.range(-7.0, -1.5));
            let turn = Quat::from_axis_angle(rng.unit_vec3(), angle);
            // b's rotation in a's frame.
            let relative = quarter_turns(rng) * turn;
            let centre_b = match (a, b) {
                (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
                    let gap = rng.range(-0.05, 0.01) * reach;
                    edges_meeting(rng, ca.half_extents(), cb.half_extents(), relative, gap)
                }
                _ => {
                    if let Some((relative, centre_b)) = polytope_edges_crossing(rng, a, b) {
                        return (
                            Pose::new(origin, base),
                            Pose::new(origin + base * centre_b, base * relative),
                        );
                    }
                    rng.unit_vec3() * rng.range(0.0, reach)
                }
            };
            (
                Pose::new(origin, base),
                Pose::new(origin + base * centre_b, base * relative),
            )
        }
        Placement::NearTouching => {
            let (pa, mut pb) = place(rng, a, b, Placement::General);
            if let Some(o) = vertex_projection_sat(a, &pa, b, &pb) {
                let size = a.bounding_radius().min(b.bounding_radius());
                let target = rng.range(-1e-3, 1e-3) * size;
                let shift = (target as f64 - o.separation) * o.normal;
                pb.translation += shift.as_vec3();
            }
            (pa, pb)
        }
    }
}
