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
//! maximum). The face it ends on is the one the ray from `c` through `p` leaves the hull
//! by (`1 / (u_f·q)` is where the ray meets plane `f`); `p` is outside iff its value
//! exceeds 1.
//!
//! The climb starts from the face best for `q`'s octant (the largest `u_f·s` for the
//! octant's diagonal `s`, found at build time) and moves to the best neighbour while it
//! improves strictly, so it ends after one or two steps as a rule, and never visits a
//! face twice. Round-off can stop it a hair short of the maximum, which only matters
//! for the answer's check: [`PolarClimb::face_in_front`] gives a face only after testing
//! `p` against that face's own plane ([`Plane::signed_distance`], the test every walk
//! over the features makes), and `None` sends the caller to the plane scan
//! ([`ConvexHull::furthest_plane`](super::ConvexHull::furthest_plane)).

use super::Plane;
use glam::{DVec3, Vec3};

/// The poles, their adjacency and the climb's start faces (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PolarClimb {
    /// The centre the poles are taken about: the hull's centroid.
    centre: Vec3,
    /// `u_f = n_f / h_f`, one per face, computed in f64 and rounded once.
    poles: Vec<Vec3>,
    /// Parallel to the face loops: the face across each loop step's edge.
    across: Vec<u32>,
    /// The start face of each octant of `q`: bit `k` set when `q`'s component `k` > 0.
    starts: [u32; 8],
}

impl PolarClimb {
    /// The climb's tables for a hull's planes, loops (with the edge of each loop step,
    /// and each edge's two faces) and centroid.
    pub(crate) fn new(
        planes: &[Plane],
        face_starts: &[u32],
        face_edges: &[u32],
        edge_faces: impl Fn(u32) -> [u32; 2],
        centre: Vec3,
    ) -> PolarClimb {
        let c = centre.as_dvec3();
        let poles: Vec<Vec3> = planes
            .iter()
            .map(|plane| {
                let n = plane.normal.as_dvec3();
                // Positive for a valid hull (its inradius is); kept so for any input.
                let height = (f64::from(plane.offset) - n.dot(c)).max(f64::MIN_POSITIVE);
                (n / height).as_vec3()
            })
            .collect();
        let mut across = Vec::with_capacity(face_edges.len());
        for f in 0..face_starts.len() - 1 {
            let range = face_starts[f] as usize..face_starts[f + 1] as usize;
            for &e in &face_edges[range] {
                let [f0, f1] = edge_faces(e);
                across.push(if f0 == f as u32 { f1 } else { f0 });
            }
        }
        let starts = std::array::from_fn(|octant| {
            let sign = |k: usize| if octant & (1 << k) != 0 { 1.0 } else { -1.0 };
            let s = DVec3::new(sign(0), sign(1), sign(2));
            let value = |f: usize| poles[f].as_dvec3().dot(s);
            (0..poles.len())
                .reduce(|best, f| if value(f) > value(best) { f } else { best })
                .unwrap_or(0) as u32
        });
        PolarClimb {
            centre,
            poles,
            across,
            starts,
        }
    }

    /// A face whose plane has `p` strictly in front (`signed_distance(p) > 0`): the one
    /// the climb ends on, the face the ray from the centre through `p` leaves by. `None`
    /// when `p` is on or behind that plane: inside the hull, on it, not finite, or a
    /// hair outside where round-off stopped the climb short.
    #[inline]
    pub(crate) fn face_in_front(
        &self,
        planes: &[Plane],
        face_starts: &[u32],
        p: Vec3,
    ) -> Option<usize> {
        let q = p - self.centre;
        let octant =
            usize::from(q.x > 0.0) | usize::from(q.y > 0.0) << 1 | usize::from(q.z > 0.0) << 2;
        let mut face = self.starts[octant] as usize;
        let mut best = self.poles[face].dot(q);
        // Steepest ascent: each move raises `best` strictly, so no face comes twice and
        // the climb ends (at once when `q` is not finite: no comparison holds).
        while best <= 1.0 {
            let range = face_starts[face] as usize..face_starts[face + 1] as usize;
            let mut next = face;
            for &g in &self.across[range] {
                let value = self.poles[g as usize].dot(q);
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
