//! A face a point lies in front of, found by climbing the hull's polar dual instead of
//! measuring every face plane.
//!
//! Take the centroid `c` (strictly inside: its distance from every face plane is at
//! least the inradius, `h_f = o_f − n_f·c > 0`) as the origin. Face `f`'s plane
//! `n_f·x = o_f` has the **pole** `u_f = n_f / h_f`, and for `q = p − c`
//!
//! ```text
//! n_f·p − o_f = h_f (u_f·q − 1),
//! ```
//!
//! so `p` lies in front of face `f` exactly when `u_f·q > 1`. The poles are the vertices
//! of the polar dual polytope, and two poles are joined by an edge of the dual exactly
//! when their faces share an edge of the hull. The largest `u_f·q` is then a linear
//! maximisation over a convex polytope's vertices, which a climb along the dual's edges
//! solves (the simplex method's argument: a vertex that no neighbour improves on is the
//! maximum). The face of the maximum is the one the ray from `c` through `p` leaves the
//! hull by (`1 / (u_f·q)` is where the ray meets plane `f`); `p` is outside iff its
//! value exceeds 1.
//!
//! A point needs only *some* face it is in front of to start a walk over the features
//! (`u_f·q > 1`), and the closer that face's polygon is to the point's closest feature
//! the shorter the walk. The climb starts from the face best for `q`'s bin of
//! directions (64 bins, 48 of them used: the octant and the order of the components'
//! sizes; the largest `u_f·s` for the bin's middle direction `s`, found at build time),
//! which as a rule has the point in front already, and otherwise moves to the best neighbour while that improves strictly, until the
//! face it is on has `u_f·q > 1` or no neighbour improves (then `f` is the maximum,
//! and `p` is inside or on the hull unless its value exceeds 1). No face comes twice,
//! as the value rises at every move. Round-off can stop the climb a hair short, which
//! only matters for the answer's check: [`PolarClimb::face_in_front`] gives a face
//! only after testing `p` against that face's own plane ([`Plane::signed_distance`],
//! the test every walk over the features makes), and `None` sends the caller to the
//! plane scan ([`ConvexHull::furthest_plane`](super::ConvexHull::furthest_plane)).
//!
//! Measured (`prof sphere-hull 24`, instructions per pair inside `collide`; 1,060 with
//! the plane scan): from the octant's best face (8 bins), climbing to the maximum
//! 1,038, stopping at the first face in front 1,031; from 24 bins (octant and largest
//! axis) 963; from these 64 bins 944 (climbing to the maximum from them: 1,020); from
//! a cube map of 96 or 384 bins, 965 and 949 (its bin costs a division); 936 with the
//! walk inlined into the point query. The walk from a face near the point's closest
//! feature is what pays.

use super::Plane;
use glam::{DVec3, Vec3};

/// How many bins of directions the climb's start is looked up in.
const BINS: usize = 64;

/// The bin of direction `q`: `8 · order + octant`, with the octant's bit `k` set when
/// component `k` is positive and the order's bits the comparisons `|q_x| ≥ |q_y|`,
/// `|q_y| ≥ |q_z|`, `|q_x| ≥ |q_z|` (bits 0, 1, 2). The bin starts from the face whose
/// pole is furthest along its middle direction: sizes 1, 0.6 and 0.25 on the axes
/// from the largest component to the smallest ([`ORDER_AXES`]), signs from the octant.
#[inline(always)]
fn bin(q: Vec3) -> usize {
    let octant = usize::from(q.x > 0.0) | usize::from(q.y > 0.0) << 1 | usize::from(q.z > 0.0) << 2;
    let a = q.abs();
    let order =
        usize::from(a.x >= a.y) | usize::from(a.y >= a.z) << 1 | usize::from(a.x >= a.z) << 2;
    8 * order + octant
}

/// The axes from the largest component to the smallest for each order's bits (see
/// [`bin`]); orders 3 and 4 cannot happen (their comparisons contradict each other)
/// and take any axes.
const ORDER_AXES: [[usize; 3]; 8] = [
    [2, 1, 0], // 000: z > y > x
    [2, 0, 1], // 001: z > x ≥ y
    [1, 2, 0], // 010: y ≥ z > x
    [0, 1, 2], // 011: impossible
    [0, 1, 2], // 100: impossible
    [0, 2, 1], // 101: x ≥ z > y
    [1, 0, 2], // 110: y > x ≥ z
    [0, 1, 2], // 111: x ≥ y ≥ z
];

/// The climb's start faces (see the [module docs](self)); its tables, the poles
/// ([`poles`]) and the face across each loop step ([`across`]), live with the hull's
/// other tables.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PolarClimb {
    /// The centre the poles are taken about: the hull's centroid.
    centre: Vec3,
    /// The start face of each of the 64 bins of directions ([`bin`]).
    starts: [u32; BINS],
}

/// The faces' poles `u_f = n_f / h_f` about `centre`, one per face, computed in f64 and
/// rounded once.
pub(crate) fn poles(planes: &[Plane], centre: Vec3) -> Vec<Vec3> {
    let c = centre.as_dvec3();
    planes
        .iter()
        .map(|plane| {
            let n = plane.normal.as_dvec3();
            // Positive for a valid hull (its inradius is); kept so for any input.
            let height = (f64::from(plane.offset) - n.dot(c)).max(f64::MIN_POSITIVE);
            (n / height).as_vec3()
        })
        .collect()
}

/// Parallel to the face loops: the face across each loop step's edge (given the edge
/// of each loop step, and each edge's two faces).
pub(crate) fn across(
    face_starts: &[u32],
    face_edges: &[u32],
    edge_faces: impl Fn(u32) -> [u32; 2],
) -> Vec<u32> {
    let mut across = Vec::with_capacity(face_edges.len());
    for f in 0..face_starts.len() - 1 {
        let range = face_starts[f] as usize..face_starts[f + 1] as usize;
        for &e in &face_edges[range] {
            let [f0, f1] = edge_faces(e);
            across.push(if f0 == f as u32 { f1 } else { f0 });
        }
    }
    across
}

impl PolarClimb {
    /// The climb's start faces for a hull's poles about `centre`.
    pub(crate) fn new(poles: &[Vec3], centre: Vec3) -> PolarClimb {
        let starts = std::array::from_fn(|bin| {
            let (octant, axes) = (bin & 7, ORDER_AXES[bin >> 3]);
            let component = |k: usize| {
                let rank = axes.iter().position(|&a| a == k).unwrap_or(0);
                let size = [1.0, 0.6, 0.25][rank];
                if octant & (1 << k) != 0 { size } else { -size }
            };
            let s = DVec3::new(component(0), component(1), component(2));
            let value = |f: usize| poles[f].as_dvec3().dot(s);
            (0..poles.len())
                .reduce(|best, f| if value(f) > value(best) { f } else { best })
                .unwrap_or(0) as u32
        });
        PolarClimb { centre, starts }
    }

    /// A face whose plane has `p` strictly in front (`signed_distance(p) > 0`): the one
    /// the climb ends on (see the [module docs](self)). `None` when `p` is on or behind
    /// that plane: inside the hull, on it, not finite, or a hair outside where
    /// round-off stopped the climb short.
    #[inline]
    pub(crate) fn face_in_front(
        &self,
        poles: &[Vec3],
        across: &[u32],
        planes: &[Plane],
        face_starts: &[u32],
        p: Vec3,
    ) -> Option<usize> {
        let q = p - self.centre;
        let mut face = self.starts[bin(q)] as usize;
        let mut best = poles[face].dot(q);
        // Steepest ascent until a face has `p` in front: each move raises `best`
        // strictly, so no face comes twice and the climb ends (at once when `q` is not
        // finite: no comparison holds).
        while best <= 1.0 {
            let range = face_starts[face] as usize..face_starts[face + 1] as usize;
            let mut next = face;
            for &g in &across[range] {
                let value = poles[g as usize].dot(q);
                if value > best {
                    best = value;
                    next = g as usize;
                }
            }
            if next == face {
                break;
            }
            face = next;
        }
        (planes[face].signed_distance(p) > 0.0).then_some(face)
    }
}

#[cfg(test)]
mod tests {
    use crate::ConvexHull;
    use crate::rng::Rng;
    use glam::Vec3;

    /// The climb against the plane scan on random hulls (round and flattened) and
    /// points: a face it gives has the point in front; it gives one whenever the point
    /// is clearly outside; and it gives none for points inside.
    #[test]
    fn climb_finds_a_face_in_front_whenever_the_scan_does() {
        let mut rng = Rng::new(0x9017);
        let mut found = 0;
        for _ in 0..300 {
            let n = 4 + rng.below(80);
            let squash = Vec3::new(1.0, rng.range(0.05, 1.0), rng.range(0.3, 1.0));
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.range(0.3, 1.0) * squash)
                .collect();
            let Ok(hull) = ConvexHull::try_from_points(&points) else {
                continue;
            };
            for _ in 0..200 {
                let p = rng.unit_vec3() * rng.range(0.0, 3.0) + hull.centroid();
                let (_, largest) = hull.furthest_plane(p);
                match hull.face_in_front(p) {
                    Some(f) => {
                        assert!(hull.planes()[f].signed_distance(p) > 0.0);
                        found += 1;
                    }
                    None => assert!(largest <= 1e-5, "{p}: missed, {largest} in front"),
                }
            }
        }
        assert!(found > 20_000, "{found}");
    }
}
