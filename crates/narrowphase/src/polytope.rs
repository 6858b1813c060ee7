//! A borrowed view of a convex polyhedron, so boxes and hulls share one SAT and one
//! clipper without allocating.
//!
//! A hull lends its arrays directly. A box builds its 8 corners and 6 planes on the stack
//! ([`BoxPolytope`]) and borrows the topology (faces, edges, Gauss arcs, adjacency) of
//! the unit cube, which is the same for every box.

use glam::Vec3;
use sepax_geometry::hull::blocks::{VertexBlock, support_index_blocks};
use sepax_geometry::hull::edge_blocks::{EdgeBlock, EdgeRecord};
use sepax_geometry::{ConvexHull, HullEdge, Plane, hull};
use std::sync::OnceLock;

/// Everything the hull SAT and the clipper read from a convex polyhedron.
#[derive(Clone, Copy)]
pub(crate) struct Polytope<'a> {
    pub vertices: &'a [Vec3],
    pub planes: &'a [Plane],
    pub edges: &'a [HullEdge],
    /// The edges' Gauss arcs in blocks of 8 lanes.
    pub edge_blocks: &'a [EdgeBlock],
    /// Each edge's normals, point and direction; the points and directions are
    /// multiplied by `edge_scale` (a box borrows the unit cube's records and scales them
    /// by its half extents, exactly: the cube's coordinates are ±1, 0 or ±2).
    pub edge_records: &'a [EdgeRecord],
    pub edge_scale: Vec3,
    /// The arc blocks' point unit: their point rows times it, times `edge_scale`, are
    /// the edges' first vertices ([`EdgeBlock::may_reach`]).
    pub point_unit: f32,
    /// The vertices in blocks of 8 lanes (the support scan).
    pub vertex_blocks: &'a [VertexBlock],
    pub face_starts: &'a [u32],
    pub face_indices: &'a [u32],
    pub neighbor_starts: &'a [u32],
    pub neighbors: &'a [u32],
    /// The hull itself when the polytope is one: the tables of the closest-feature
    /// walk (plane blocks, side planes, incidence), which a box does not build.
    pub hull: Option<&'a ConvexHull>,
    pub centroid: Vec3,
    pub inradius: f32,
    /// Largest distance of a vertex from the local origin.
    pub radius: f32,
}

/// The vertex after loop step `k` of a face loop, wrapping to the first: a lookup, not
/// a `%` (a division per side, on the clippers' and the point query's paths).
#[inline(always)]
pub(crate) fn next_in_loop(face: &[u32], k: usize) -> u32 {
    face.get(k + 1).copied().unwrap_or(face[0])
}

impl<'a> Polytope<'a> {
    #[inline(always)]
    pub fn from_hull(hull: &'a ConvexHull) -> Polytope<'a> {
        Polytope {
            vertices: hull.vertices(),
            planes: hull.planes(),
            edges: hull.edges(),
            edge_blocks: hull.edge_blocks(),
            edge_records: hull.edge_records(),
            edge_scale: Vec3::ONE,
            point_unit: hull.edge_point_unit(),
            vertex_blocks: hull.vertex_blocks(),
            face_starts: hull.face_starts(),
            face_indices: hull.face_indices(),
            neighbor_starts: hull.neighbor_starts(),
            neighbors: hull.neighbor_indices(),
            hull: Some(hull),
            centroid: hull.centroid(),
            inradius: hull.inradius(),
            radius: hull.bounding_radius(),
        }
    }

    /// The vertex loop of face `f`.
    #[inline]
    pub fn face(&self, f: usize) -> &'a [u32] {
        &self.face_indices[self.face_starts[f] as usize..self.face_starts[f + 1] as usize]
    }

    /// Does `q`, a point in face `f`'s plane, lie inside the face polygon (boundary
    /// included)? Inside means behind every edge's outward side plane.
    pub(crate) fn projects_inside(&self, f: usize, q: Vec3) -> bool {
        let face = self.face(f);
        let normal = self.planes[f].normal;
        (0..face.len()).all(|k| {
            let v0 = self.vertices[face[k] as usize];
            let v1 = self.vertices[next_in_loop(face, k) as usize];
            (v1 - v0).cross(normal).dot(q - v0) <= 0.0
        })
    }

    /// Index of a vertex furthest along `dir` (the first among ties).
    #[inline]
    pub fn support_index(&self, dir: Vec3) -> usize {
        hull::support_index(self.vertices, dir)
    }

    /// A vertex furthest along `dir` (the first among ties) and its `dir · v`: the
    /// scan of [`support_index_blocks`], 8 dot products at a time, whose index is the
    /// scalar scan's bit for bit; the value is that vertex's own `v · dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> (usize, f32) {
        let best = support_index_blocks(self.vertex_blocks, dir);
        (best, self.vertices[best].dot(dir))
    }

    /// Hill-climbing support from `start`: move to a strictly better neighbour until none
    /// is. On a convex polytope a vertex with no better neighbour is a global maximum.
    #[inline]
    pub fn climb_support(&self, dir: Vec3, start: usize) -> (usize, f32) {
        let mut current = start;
        let mut best = self.vertices[current].dot(dir);
        loop {
            let mut improved = false;
            let range =
                self.neighbor_starts[current] as usize..self.neighbor_starts[current + 1] as usize;
            for &n in &self.neighbors[range] {
                let d = self.vertices[n as usize].dot(dir);
                if d > best {
                    best = d;
                    current = n as usize;
                    improved = true;
                }
            }
            if !improved {
                return (current, best);
            }
        }
    }
}

/// A box's corners and planes on the stack, with the unit cube's topology.
pub(crate) struct BoxPolytope {
    vertices: [Vec3; 8],
    planes: [Plane; 6],
    vertex_block: VertexBlock,
    half_extents: Vec3,
    inradius: f32,
    radius: f32,
}

fn unit_cube() -> &'static ConvexHull {
    static CUBE: OnceLock<ConvexHull> = OnceLock::new();
    CUBE.get_or_init(|| ConvexHull::cuboid(Vec3::ONE).expect("the unit cube is a valid hull"))
}

impl BoxPolytope {
    /// Corners and planes of the box with half extents `h`, numbered as
    /// [`ConvexHull::cuboid`]: vertex `i` has sign `+` on axis `k` when bit `k` of `i` is
    /// set; face `2k` is the −k face and `2k + 1` the +k face.
    pub fn new(h: Vec3) -> BoxPolytope {
        let vertices = std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        });
        let planes = std::array::from_fn(|f| {
            let axis = f / 2;
            let sign = if f % 2 == 1 { 1.0 } else { -1.0 };
            let mut normal = Vec3::ZERO;
            normal[axis] = sign;
            Plane {
                normal,
                offset: h[axis],
            }
        });
        BoxPolytope {
            vertex_block: VertexBlock {
                x: vertices.map(|v| v.x),
                y: vertices.map(|v| v.y),
                z: vertices.map(|v| v.z),
            },
            vertices,
            planes,
            half_extents: h,
            inradius: h.min_element(),
            radius: h.length(),
        }
    }

    pub fn view(&self) -> Polytope<'_> {
        let cube = unit_cube();
        Polytope {
            vertices: &self.vertices,
            planes: &self.planes,
            edges: cube.edges(),
            edge_blocks: cube.edge_blocks(),
            edge_records: cube.edge_records(),
            edge_scale: self.half_extents,
            point_unit: cube.edge_point_unit(),
            vertex_blocks: std::slice::from_ref(&self.vertex_block),
            face_starts: cube.face_starts(),
            face_indices: cube.face_indices(),
            neighbor_starts: cube.neighbor_starts(),
            neighbors: cube.neighbor_indices(),
            hull: None,
            centroid: Vec3::ZERO,
            inradius: self.inradius,
            radius: self.radius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_view_matches_hull_cuboid() {
        let h = Vec3::new(0.5, 2.0, 1.5);
        let hull = ConvexHull::cuboid(h).unwrap();
        let boxed = BoxPolytope::new(h);
        let view = boxed.view();
        assert_eq!(view.vertices, hull.vertices());
        for (p, q) in view.planes.iter().zip(hull.planes()) {
            assert!((p.normal - q.normal).length() < 1e-6);
            assert!((p.offset - q.offset).abs() < 1e-6);
        }
        assert_eq!(view.inradius, hull.inradius());
    }

    /// The box's edge data are the unit cube's blocks scaled by the half extents: the
    /// same bits as its own corners and planes give.
    #[test]
    fn box_edge_blocks_scale_exactly() {
        let h = Vec3::new(0.3, 7.0, 1e-3);
        let boxed = BoxPolytope::new(h);
        let view = boxed.view();
        for (i, e) in view.edges.iter().enumerate() {
            let record = &view.edge_records[i];
            let p = view.vertices[e.vertices[0] as usize];
            let d = view.vertices[e.vertices[1] as usize] - p;
            assert_eq!(record.point * view.edge_scale, p);
            assert_eq!(record.direction * view.edge_scale, d);
            let n0 = view.planes[e.faces[0] as usize].normal;
            let n1 = view.planes[e.faces[1] as usize].normal;
            assert_eq!(record.n0, n0);
            assert_eq!(record.n1, n1);
        }
    }

    #[test]
    fn climbing_finds_the_global_support() {
        let boxed = BoxPolytope::new(Vec3::new(1.0, 2.0, 3.0));
        let view = boxed.view();
        for start in 0..8 {
            for dir in [Vec3::new(1.0, -1.0, 0.3), Vec3::new(-0.2, -0.1, -1.0)] {
                let (_, d) = view.climb_support(dir, start);
                assert_eq!(d, view.support(dir).1);
            }
        }
    }
}
