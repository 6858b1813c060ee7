//! Pairs of posed 2D shapes for the dim2 tests: random boxes, polygons and circles,
//! placed to stress the separating-axis test (coincident centres, parallel edges, a gap
//! within ±1e-4 of zero), and the f64 helpers the tests judge them with.
//!
//! The 2D twin of [`pairs`](crate::pairs): names carry a `2` where a 3D item has the
//! same role. [`depth_band_pairs2`] makes the 2D bench's sets: pairs of boxes or
//! regular octagons at an oracle depth inside a given band.

use glam::{DVec2, Vec2};
use sepax_geometry::dim2::{Circle, ConvexPolygon, Obb2, Pose2, Rot2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::oracle::{
    OracleSat, point_polygon_distance, sat_oracle, world_vertices,
};
use std::f32::consts::PI;

/// Which kind of 2D shape to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape2Kind {
    /// [`random_obb2`].
    Box,
    /// [`random_polygon`].
    Polygon,
    /// [`random_circle`].
    Circle,
}

/// A box of sides 0.1–2 at a random angle, centred at the origin half the time and
/// within ±0.5 of it otherwise.
pub fn random_obb2(rng: &mut Rng) -> Shape2 {
    let center = if rng.below(2) == 0 {
        Vec2::ZERO
    } else {
        Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5))
    };
    let size = Vec2::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0));
    Shape2::Obb2(
        Obb2::try_from_angle(center, size, rng.range(-PI, PI)).unwrap_or_else(|_| unreachable!()),
    )
}

/// A regular n-gon, 3 ≤ n ≤ 8 (parallel edges for even n), one time in three, else the
/// hull of 3–12 random points; radius 0.2–1.2. A degenerate cloud is drawn again.
pub fn random_polygon(rng: &mut Rng) -> Shape2 {
    loop {
        let r = rng.range(0.2, 1.2);
        let pts: Vec<Vec2> = if rng.below(3) == 0 {
            let n = 3 + rng.below(6);
            let phase = rng.range(0.0, PI);
            (0..n)
                .map(|k| Vec2::from_angle(phase + k as f32 * 2.0 * PI / n as f32) * r)
                .collect()
        } else {
            let n = 3 + rng.below(10);
            (0..n)
                .map(|_| Vec2::from_angle(rng.range(-PI, PI)) * r * rng.range(0.3, 1.0))
                .collect()
        };
        if let Ok(p) = ConvexPolygon::try_hull(&pts) {
            return Shape2::Polygon(p);
        }
    }
}

/// A circle of radius 0.1–1, centred within ±0.3 of the origin.
pub fn random_circle(rng: &mut Rng) -> Shape2 {
    let c = Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    Shape2::Circle(Circle::try_new(c, rng.range(0.1, 1.0)).unwrap_or_else(|_| unreachable!()))
}

/// A random shape of the given kind.
pub fn random_shape2(rng: &mut Rng, kind: Shape2Kind) -> Shape2 {
    match kind {
        Shape2Kind::Box => random_obb2(rng),
        Shape2Kind::Polygon => random_polygon(rng),
        Shape2Kind::Circle => random_circle(rng),
    }
}

/// A pose within ±5 of the origin at a random angle.
pub fn random_pose2(rng: &mut Rng) -> Pose2 {
    Pose2::new(
        Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
        rng.range(-PI, PI),
    )
}

/// Which placement a 2D pair got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement2 {
    /// b's bounding circle up to 1.1 × the sum of radii from a's, at a random angle.
    Generic,
    /// Both bounding-circle centres at the same point.
    CoincidentCenters,
    /// b turned by a quarter-turn multiple from a: edges parallel.
    ParallelEdges,
    /// Moved along the oracle's axis to within ±1e-4 of touching (boxes and polygons).
    NearTouching,
}

/// One posed 2D pair and how it was placed.
pub struct Pair2 {
    /// Shape a.
    pub a: Shape2,
    /// Pose of a.
    pub pose_a: Pose2,
    /// Shape b.
    pub b: Shape2,
    /// Pose of b.
    pub pose_b: Pose2,
    /// How b was placed.
    pub placement: Placement2,
}

/// A random pair of the given kinds, each placement one time in four. Near-touching
/// pairs are moved along the oracle's axis to within ±1e-4 of touching (only for
/// box/polygon pairs).
pub fn random_pair2(rng: &mut Rng, ka: Shape2Kind, kb: Shape2Kind) -> Pair2 {
    let a = random_shape2(rng, ka);
    let b = random_shape2(rng, kb);
    let pose_a = random_pose2(rng);
    let ra = a.bounding_circle(&Pose2::IDENTITY);
    let rb = b.bounding_circle(&Pose2::IDENTITY);
    let center_a = pose_a.transform_point(ra.center);
    let placement = match rng.below(4) {
        0 => Placement2::Generic,
        1 => Placement2::CoincidentCenters,
        2 => Placement2::ParallelEdges,
        _ => Placement2::NearTouching,
    };
    let angle_b = match placement {
        Placement2::ParallelEdges => pose_a.rotation.angle() + (rng.below(4) as f32) * 0.5 * PI,
        _ => rng.range(-PI, PI),
    };
    let offset = match placement {
        Placement2::CoincidentCenters => Vec2::ZERO,
        _ => Vec2::from_angle(rng.range(-PI, PI)) * rng.range(0.0, 1.1) * (ra.radius + rb.radius),
    };
    // Put b's bounding-circle center at center_a + offset.
    let rot_b = Rot2::from_angle(angle_b);
    let mut pose_b = Pose2::from_parts(center_a + offset - rot_b.rotate(rb.center), rot_b);
    if placement == Placement2::NearTouching && ka != Shape2Kind::Circle && kb != Shape2Kind::Circle
    {
        let o = oracle2(&a, &pose_a, &b, &pose_b);
        let eps = rng.range(-1e-4, 1e-4) as f64;
        let shift = o.axis * (o.depth + eps);
        pose_b.translation += Vec2::new(shift.x as f32, shift.y as f32);
    }
    Pair2 {
        a,
        pose_a,
        b,
        pose_b,
        placement,
    }
}

/// The f64 oracle ([`sat_oracle`]) on two posed boxes or polygons. Panics on a circle
/// (it has no vertices).
pub fn oracle2(a: &Shape2, pa: &Pose2, b: &Shape2, pb: &Pose2) -> OracleSat {
    let vertices = |s: &Shape2, p: &Pose2| world_vertices(s, p).expect("a box or a polygon");
    sat_oracle(&vertices(a, pa), &vertices(b, pb))
}

/// A size for tolerances: the sum of the two bounding radii.
pub fn pair2_scale(p: &Pair2) -> f64 {
    (p.a.bounding_circle(&Pose2::IDENTITY).radius + p.b.bounding_circle(&Pose2::IDENTITY).radius)
        as f64
}

/// Signed distance (f64) from a world point to a posed shape: negative inside.
pub fn shape2_distance(shape: &Shape2, pose: &Pose2, p: Vec2) -> f64 {
    match shape {
        Shape2::Circle(c) => {
            (p.as_dvec2() - pose.transform_point(c.center()).as_dvec2()).length()
                - c.radius() as f64
        }
        _ => point_polygon_distance(
            p.as_dvec2(),
            &world_vertices(shape, pose).expect("a box or a polygon"),
        ),
    }
}

/// Directed face separations of every edge of `owner` against `other` (f64, world):
/// `min over w in other of n_i · (w − v_i)` for each outward edge normal `n_i`.
pub fn face_separations(owner: &[DVec2], other: &[DVec2]) -> Vec<f64> {
    (0..owner.len())
        .map(|i| {
            let e = owner[(i + 1) % owner.len()] - owner[i];
            let n = DVec2::new(e.y, -e.x).normalize();
            other
                .iter()
                .map(|w| n.dot(*w - owner[i]))
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// The two largest values of a non-empty list (the second is −∞ for one value): how
/// clearly the best axis wins.
pub fn top_two(v: &[f64]) -> (f64, f64) {
    let mut s = v.to_vec();
    s.sort_by(|x, y| y.total_cmp(x));
    (s[0], s.get(1).copied().unwrap_or(f64::NEG_INFINITY))
}

/// The shapes of a [`depth_band_pairs2`] set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandShape2 {
    /// Axis-aligned boxes (in their own frame) of half extents 0.3–1 per side.
    Obb2,
    /// Regular octagons of circumradius 0.4–1, a vertex at π/8.
    Octagon,
}

/// The 8 vertices of a regular octagon of circumradius `radius`, counter-clockwise
/// from the angle π/8.
pub fn octagon(radius: f32) -> Vec<Vec2> {
    (0..8)
        .map(|k| Vec2::from_angle(k as f32 * PI / 4.0 + PI / 8.0) * radius)
        .collect()
}

/// `count` posed pairs whose f64 oracle depth lies in `[lo, hi]` (negative: a gap):
/// a at a random place and angle, b 1.5 away in a random direction, turned at most
/// 0.2 rad from a (so touching pairs get face contacts), then moved along the oracle
/// axis to a depth drawn in the band; a pair that misses the band is drawn again.
pub fn depth_band_pairs2(
    shape: BandShape2,
    count: usize,
    lo: f64,
    hi: f64,
    seed: u64,
) -> Vec<(Shape2, Pose2, Shape2, Pose2)> {
    let mut rng = Rng::new(seed);
    let mut set = Vec::with_capacity(count);
    while set.len() < count {
        let (sa, sb): (Shape2, Shape2) = match shape {
            BandShape2::Obb2 => {
                let ha = Vec2::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0));
                let hb = Vec2::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0));
                let obb = |h| Obb2::try_from_half_extents(h).unwrap_or_else(|_| unreachable!());
                (obb(ha).into(), obb(hb).into())
            }
            BandShape2::Octagon => {
                let (ra, rb) = (rng.range(0.4, 1.0), rng.range(0.4, 1.0));
                let polygon =
                    |r| ConvexPolygon::try_new(&octagon(r)).unwrap_or_else(|_| unreachable!());
                (polygon(ra).into(), polygon(rb).into())
            }
        };
        let pa = Pose2::new(
            Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
            rng.range(-PI, PI),
        );
        let dir = Vec2::from_angle(rng.range(-PI, PI));
        let mut pb = Pose2::new(
            pa.translation + dir * 1.5,
            pa.rotation.angle() + rng.range(-0.2, 0.2),
        );
        let o = oracle2(&sa, &pa, &sb, &pb);
        let target = rng.range(lo as f32, hi as f32) as f64;
        let shift = o.axis * (o.depth - target);
        pb.translation += Vec2::new(shift.x as f32, shift.y as f32);
        let o = oracle2(&sa, &pa, &sb, &pb);
        if o.depth < lo || o.depth > hi {
            continue;
        }
        set.push((sa, pa, sb, pb));
    }
    set
}
