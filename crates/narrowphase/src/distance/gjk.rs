//! The GJK loop: the point of the Minkowski difference `B − A` nearest the origin.

use super::simplex::{Simplex, Vertex};
use super::{ClosestPoints, Core, MAX_ITERATIONS, Witness};
use crate::PairCache;
use glam::{DMat3, DQuat, DVec3};
use sepax_geometry::{Pose, Shape};

/// Relative tolerance of the stopping test `|v|² − v·w ≤ ε |v|²`: the upper bound
/// `|v|` and the lower bound `v·w / |v|` of the distance agree to `ε`.
const RELATIVE_TOLERANCE: f64 = 1e-12;

/// Core gaps below this fraction of the pair's size count as touching (`Overlapping`).
const TOUCHING: f64 = 1e-9;

/// b's pose in a's frame, in f64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame64 {
    pub rot: DMat3,
    pub trans: DVec3,
}

impl Frame64 {
    /// `R = mat(q̄_a q_b)` and `t = q̄_a (t_b − t_a) q_a / |q_a|²`, in f64.
    pub fn new(pose_a: &Pose, pose_b: &Pose) -> Frame64 {
        let qa = pose_a.rotation.as_dquat();
        let inv = qa.conjugate();
        let rel: DQuat = (inv * pose_b.rotation.as_dquat()).normalize();
        let offset = pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3();
        Frame64 {
            rot: DMat3::from_quat(rel),
            trans: (inv * offset) / qa.length_squared(),
        }
    }
}

/// What GJK found.
// Returned once per query and taken apart at once: boxing the simplex would cost an
// allocation per query for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum GjkOutcome {
    /// The cores are apart: the final simplex (its weighted witnesses are the closest
    /// core points, in a's frame) and `v = b − a` between them.
    Separated { simplex: Simplex, v: DVec3 },
    /// The cores touch or overlap.
    Overlapping,
}

/// Two cores and b's frame: the support mapping of `B − A`.
struct Pair<'a, 's> {
    a: &'a Core<'s>,
    b: &'a Core<'s>,
    frame: &'a Frame64,
}

impl Pair<'_, '_> {
    /// The point of `B − A` furthest along `d` (a's frame): `s_B(d) − s_A(−d)`.
    #[inline]
    fn support(&self, d: DVec3) -> Vertex {
        let (ia, pa) = self.a.support((-d).as_vec3());
        let local = (self.frame.rot.transpose() * d).as_vec3();
        let (ib, _) = self.b.support(local);
        self.vertex(ia, pa.as_dvec3(), ib)
    }

    #[inline]
    fn vertex(&self, ia: u16, a: DVec3, ib: u16) -> Vertex {
        let b = self.frame.rot * self.b.vertex(ib).as_dvec3() + self.frame.trans;
        Vertex {
            a,
            b,
            w: b - a,
            ia,
            ib,
        }
    }

    fn at_indices(&self, ia: u16, ib: u16) -> Vertex {
        self.vertex(ia, self.a.vertex(ia).as_dvec3(), ib)
    }
}

/// GJK on two cores (b placed by `frame`), warm-started from `hint`'s simplex when it
/// has one; `scale` (about the pair's size and offset) sizes the touching threshold.
pub(crate) fn run_gjk(
    a: &Core,
    b: &Core,
    frame: &Frame64,
    cache: &PairCache,
    scale: f64,
) -> GjkOutcome {
    let pair = Pair { a, b, frame };
    let mut simplex = Simplex::default();
    let hint = cache.simplex;
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
    let Some(mut v) = simplex.solve_settled() else {
        return GjkOutcome::Overlapping;
    };
    let touching = (TOUCHING * scale) * (TOUCHING * scale);
    for _ in 0..MAX_ITERATIONS {
        let vv = v.length_squared();
        if vv <= touching {
            return GjkOutcome::Overlapping;
        }
        let w = pair.support(-v);
        // Converged: the lower bound v·w/|v| has caught up with |v|.
        if vv - v.dot(w.w) <= RELATIVE_TOLERANCE * vv {
            break;
        }
        // No new point: the simplex already holds the support (round-off).
        if simplex.contains(w.ia, w.ib) {
            break;
        }
        let before = simplex;
        simplex.push(w);
        match simplex.solve_settled() {
            None => return GjkOutcome::Overlapping,
            Some(next) if next.length_squared() < vv => v = next,
            // No progress: round-off on a degenerate simplex; keep the better one.
            Some(_) => {
                simplex = before;
                break;
            }
        }
    }
    GjkOutcome::Separated { simplex, v }
}

/// [`closest_points`](super::closest_points) in the given order (checked input).
pub(crate) fn closest_points_in_order(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cache: &mut PairCache,
) -> Option<ClosestPoints> {
    let (Some((core_a, radius_a)), Some((core_b, radius_b))) = (Core::of(a), Core::of(b)) else {
        unreachable!("meshes are refused before")
    };
    let frame = Frame64::new(pose_a, pose_b);
    let scale = pair_scale(a, b, &frame);
    let outcome = run_gjk(&core_a, &core_b, &frame, cache, scale);
    let GjkOutcome::Separated { simplex, v } = outcome else {
        cache.simplex = Default::default();
        return None;
    };
    cache.simplex = simplex.hint();
    let core_gap = v.length();
    let normal = v / core_gap;
    let gap = core_gap - radius_a as f64 - radius_b as f64;
    if gap <= TOUCHING * scale {
        return None;
    }
    let (pa, pb) = simplex.witnesses();
    let pa = pa + normal * radius_a as f64;
    let pb = pb - normal * radius_b as f64;
    let qa = pose_a.rotation.as_dquat().normalize();
    let ta = pose_a.translation.as_dvec3();
    let local_b = frame.rot.transpose() * -normal;
    Some(ClosestPoints {
        distance: gap as f32,
        point_a: (qa * pa + ta).as_vec3(),
        point_b: (qa * pb + ta).as_vec3(),
        normal: (qa * normal).as_vec3().normalize(),
        witness_a: witness(&core_a, &simplex, |v| v.ia, normal),
        witness_b: witness(&core_b, &simplex, |v| v.ib, local_b),
    })
}

/// About the size of the pair's Minkowski difference: b's offset plus both radii.
pub(crate) fn pair_scale(a: &Shape, b: &Shape, frame: &Frame64) -> f64 {
    frame.trans.length() + a.bounding_radius() as f64 + b.bounding_radius() as f64
}

/// The feature of one core the closest point lies on: its distinct simplex vertices
/// (one: a vertex, two ends of an edge: that edge, else the face facing `outward`, a
/// local direction).
pub(crate) fn witness(
    core: &Core,
    simplex: &Simplex,
    index: impl Fn(&Vertex) -> u16,
    outward: DVec3,
) -> Witness {
    let mut distinct = [u16::MAX; 4];
    let mut count = 0;
    for v in &simplex.vertices[..simplex.len] {
        let i = index(v);
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
        _ => Witness::Face(core.face_towards(outward.as_vec3())),
    }
}
