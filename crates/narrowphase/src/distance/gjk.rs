//! The GJK loop: the point of the Minkowski difference `B − A` nearest the origin.

use super::simplex::{Simplex, SimplexHint, Vertex};
use super::{ClosestPoints, Core, MAX_ITERATIONS, Witness};
use crate::PairCache;
use glam::{DMat3, DQuat, DVec3};
use sepax_geometry::{Pose, Shape};

/// Relative tolerance of the stopping test `|v|² − v·w ≤ ε |v|²`: the upper bound
/// `|v|` and the lower bound `v·w / |v|` of the distance agree to `ε`.
const RELATIVE_TOLERANCE: f64 = 1e-12;

/// Core gaps below this fraction of the pair's size count as touching (`Overlapping`).
pub(crate) const TOUCHING: f64 = 1e-9;

/// b's pose in a's frame, in f64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame64 {
    pub rot: DMat3,
    /// `Rᵀ`: a's-frame directions into b's.
    pub rot_t: DMat3,
    pub trans: DVec3,
}

impl Frame64 {
    /// `R = mat(q̄_a q_b)` and `t = q̄_a (t_b − t_a) q_a / |q_a|²`, in f64.
    pub fn new(pose_a: &Pose, pose_b: &Pose) -> Frame64 {
        let qa = pose_a.rotation.as_dquat();
        let inv = qa.conjugate();
        let rel: DQuat = (inv * pose_b.rotation.as_dquat()).normalize();
        let offset = pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3();
        let rot = DMat3::from_quat(rel);
        Frame64 {
            rot,
            rot_t: rot.transpose(),
            trans: (inv * offset) / qa.length_squared(),
        }
    }
}

/// Two cores and b's frame: the support mapping of `B − A`.
pub(crate) struct Pair<'a, 's> {
    pub a: &'a Core<'s>,
    pub b: &'a Core<'s>,
    pub frame: &'a Frame64,
}

impl Pair<'_, '_> {
    /// The point of `B − A` furthest along `d` (a's frame): `s_B(d) − s_A(−d)`.
    #[inline]
    pub fn support(&self, d: DVec3) -> Vertex {
        let (ia, pa) = self.a.support((-d).as_vec3());
        let local = (self.frame.rot_t * d).as_vec3();
        let (ib, _) = self.b.support(local);
        self.vertex(ia, pa.as_dvec3(), ib)
    }

    /// [`support`](Self::support)'s point `w` along `d` with each core's vertex
    /// [`climb`](Core::climb)ed in f64: the same point unless f32 rounding picked a
    /// vertex tied with the furthest.
    #[inline(never)]
    pub fn climbed(&self, d: DVec3, w: Vertex) -> Vertex {
        let ia = self.a.climb(w.ia, -d);
        let ib = self.b.climb(w.ib, self.frame.rot_t * d);
        if (ia, ib) == (w.ia, w.ib) {
            return w;
        }
        self.vertex(ia, self.a.vertex(ia).as_dvec3(), ib)
    }

    #[inline]
    fn vertex(&self, ia: u16, a: DVec3, ib: u16) -> Vertex {
        Vertex {
            w: self.b_point(ib) - a,
            ia,
            ib,
        }
    }

    /// b's core vertex `ib` in a's frame.
    #[inline]
    fn b_point(&self, ib: u16) -> DVec3 {
        self.frame.rot * self.b.vertex(ib).as_dvec3() + self.frame.trans
    }

    /// The closest core point of a, `Σ λ a`, in a's frame, from the simplex's
    /// barycentric weights (b's is that plus `v = Σ λ (b − a)`).
    pub fn witness_a(&self, simplex: &Simplex) -> DVec3 {
        let mut pa = DVec3::ZERO;
        for (v, &weight) in simplex.vertices[..simplex.len].iter().zip(&simplex.weights) {
            pa += self.a.vertex(v.ia).as_dvec3() * weight;
        }
        pa
    }

    fn at_indices(&self, ia: u16, ib: u16) -> Vertex {
        self.vertex(ia, self.a.vertex(ia).as_dvec3(), ib)
    }
}

/// GJK on two cores (b placed by `frame`), warm-started from the cache's simplex when
/// it has one; `scale` (about the pair's size and offset) sizes the touching threshold.
/// Returns `v = b − a` between the closest core points, with the final simplex in
/// `simplex` (its weights give the points), or `None` when the cores touch or overlap.
pub(crate) fn run_gjk(
    a: &Core,
    b: &Core,
    frame: &Frame64,
    cache: &PairCache,
    scale: f64,
    simplex: &mut Simplex,
) -> Option<DVec3> {
    let pair = Pair { a, b, frame };
    simplex.len = 0;
    let hint = cache.simplex();
    let (na, nb) = (a.vertex_count(), b.vertex_count());
    let warm = hint.len > 0
        && hint.pairs[..hint.len as usize]
            .iter()
            .all(|&[i, j]| (i as usize) < na && (j as usize) < nb);
    if warm {
        for &[i, j] in &hint.pairs[..hint.len as usize] {
            simplex.push(pair.at_indices(i, j));
        }
    } else {
        // First guess: along the line from b's origin to a's.
        let d = if frame.trans.length_squared() > 0.0 {
            -frame.trans
        } else {
            DVec3::X
        };
        simplex.push(pair.support(d));
    }
    let mut v = simplex.solve_settled()?;
    let touching = (TOUCHING * scale) * (TOUCHING * scale);
    // Only hulls and triangles pick supports by comparing dot products (see below).
    let ties = a.may_tie() || b.may_tie();
    for _ in 0..MAX_ITERATIONS {
        let vv = v.length_squared();
        if vv <= touching {
            return None;
        }
        let mut w = pair.support(-v);
        // Converged: the lower bound v·w/|v| has caught up with |v|. Or no new point:
        // the simplex already holds the support (round-off). Either way the support is
        // checked in f64 first: the f32 one may have stopped on a vertex tied with the
        // furthest within its rounding, and the closest points can slide a long way
        // across such a near tie onto the face it spans (a 0.002 box 65 from a hull:
        // the normal was 1.3e-5 rad off, the distance oracle's extreme shapes, seed
        // xor 17). A triangle is no exception: it spans one face of `B − A`, and a
        // neighbouring face can meet it at an angle below the f32 direction's rounding
        // (a box edge over a hull face, tilted off it by 3e-8 rad: the f32 support
        // picked the face's border vertex, in the triangle's plane, over its far vertex
        // 1e-8 nearer, and GJK stopped on the border's edge pair, `box_hull` seed xor
        // 555).
        let done =
            |w: &Vertex| vv - v.dot(w.w) <= RELATIVE_TOLERANCE * vv || simplex.contains(w.ia, w.ib);
        if done(&w) {
            if !ties {
                break;
            }
            w = pair.climbed(-v, w);
            if done(&w) {
                break;
            }
        }
        simplex.push(w);
        let next = simplex.solve_settled()?;
        // The grown simplex holds the old nearest point, so |v| cannot grow but by
        // round-off: no progress ends the loop (the new simplex is as good, within it).
        let progress = next.length_squared() < vv;
        v = next;
        if !progress {
            break;
        }
    }
    Some(v)
}

/// The closest points of two grown cores, in a's frame: the gap (radii subtracted),
/// the unit direction from a to b, the points on both surfaces and the simplex's
/// vertex indices; `None` when they touch or overlap. Leaves the simplex in `cache`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalClosest {
    pub gap: f64,
    pub normal: DVec3,
    pub point_a: DVec3,
    pub point_b: DVec3,
    pub simplex: SimplexHint,
}

/// GJK on the cores, then the radii: see [`LocalClosest`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn local_closest(
    core_a: &Core,
    radius_a: f32,
    core_b: &Core,
    radius_b: f32,
    frame: &Frame64,
    cache: &mut PairCache,
    scale: f64,
) -> Option<LocalClosest> {
    let mut simplex = Simplex::default();
    let Some(v) = run_gjk(core_a, core_b, frame, cache, scale, &mut simplex) else {
        cache.set_simplex(SimplexHint::default());
        return None;
    };
    cache.set_simplex(simplex.hint());
    let core_gap = v.length();
    let normal = v / core_gap;
    let gap = core_gap - radius_a as f64 - radius_b as f64;
    if gap <= TOUCHING * scale {
        return None;
    }
    let pa = Pair {
        a: core_a,
        b: core_b,
        frame,
    }
    .witness_a(&simplex);
    let pb = pa + v;
    Some(LocalClosest {
        gap,
        normal,
        point_a: pa + normal * radius_a as f64,
        point_b: pb - normal * radius_b as f64,
        simplex: cache.simplex(),
    })
}

/// Two convex shapes measured in the given order (checked input): their cores, b's
/// frame, and the closest points in a's frame (`None` when they touch or overlap).
pub(crate) struct Measured<'s> {
    pub core_a: Core<'s>,
    pub core_b: Core<'s>,
    pub frame: Frame64,
    pub found: Option<LocalClosest>,
}

/// GJK on a pair of convex shapes (no mesh) in the given order; see [`Measured`].
pub(crate) fn measure<'s>(
    a: &'s Shape,
    pose_a: &Pose,
    b: &'s Shape,
    pose_b: &Pose,
    cache: &mut PairCache,
) -> Measured<'s> {
    let (Some((core_a, radius_a)), Some((core_b, radius_b))) = (Core::of(a), Core::of(b)) else {
        unreachable!("meshes are refused before")
    };
    let frame = Frame64::new(pose_a, pose_b);
    let scale = pair_scale(a, b, &frame);
    let found = local_closest(&core_a, radius_a, &core_b, radius_b, &frame, cache, scale);
    Measured {
        core_a,
        core_b,
        frame,
        found,
    }
}

/// [`closest_points`](super::closest_points) in the given order (checked input).
pub(crate) fn closest_points_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cache: &mut PairCache,
) -> Option<ClosestPoints> {
    let Measured {
        core_a,
        core_b,
        frame,
        found,
    } = measure(a, pose_a, b, pose_b, cache);
    let found = found?;
    let to_world =
        |p: DVec3| pose_a.rotation.as_dquat().normalize() * p + pose_a.translation.as_dvec3();
    let normal = found.normal;
    Some(ClosestPoints {
        distance: found.gap as f32,
        point_a: to_world(found.point_a).as_vec3(),
        point_b: to_world(found.point_b).as_vec3(),
        normal: (pose_a.rotation.as_dquat().normalize() * normal)
            .as_vec3()
            .normalize(),
        witness_a: witness(&core_a, &found.simplex, |[i, _]| i, normal),
        witness_b: witness(&core_b, &found.simplex, |[_, j]| j, frame.rot_t * -normal),
    })
}

/// About the size of the pair's Minkowski difference: b's offset plus both radii.
pub(crate) fn pair_scale(a: &Shape, b: &Shape, frame: &Frame64) -> f64 {
    frame.trans.length() + reach(a) + reach(b)
}

/// The distance from a shape's origin to its furthest point, in f64 (finite for any
/// accepted shape, where the f32 bounding radius of a box near `f32::MAX` is `+∞`).
pub(crate) fn reach(shape: &Shape) -> f64 {
    match shape {
        Shape::Sphere(s) => s.radius() as f64,
        Shape::Cuboid(c) => c.half_extents().as_dvec3().length(),
        Shape::Capsule(c) => c.half_height() as f64 + c.radius() as f64,
        Shape::ConvexHull(h) => (h.bounding_radius() as f64).min(2.0 * f32::MAX as f64),
        Shape::TriMesh(m) => (m.bounding_radius() as f64).min(2.0 * f32::MAX as f64),
    }
}

/// The feature of one core the closest point lies on: its distinct simplex vertices
/// (one: a vertex, two ends of an edge: that edge, else the face holding them all,
/// the one facing `outward` (a local direction) among several).
pub(crate) fn witness(
    core: &Core,
    simplex: &SimplexHint,
    index: impl Fn([u16; 2]) -> u16,
    outward: DVec3,
) -> Witness {
    let mut distinct = [u16::MAX; 4];
    let mut count = 0;
    for &pair in &simplex.pairs[..simplex.len as usize] {
        let i = index(pair);
        if !distinct[..count].contains(&i) {
            distinct[count] = i;
            count += 1;
        }
    }
    match count {
        1 => Witness::Vertex(distinct[0] as u32),
        2 if core.is_edge(distinct[0], distinct[1]) => {
            let (i, j) = (distinct[0].min(distinct[1]), distinct[0].max(distinct[1]));
            Witness::Edge(i as u32, j as u32)
        }
        _ => Witness::Face(core.face_holding(&distinct[..count], outward.as_vec3())),
    }
}
