//! Convex polyhedra with the topology the separating-axis test needs.
//!
//! A [`ConvexHull`] stores plain arrays:
//! * `vertices`: the corner points;
//! * faces: a CCW vertex loop (seen from outside) and an outward unit [`Plane`] each,
//!   coplanar triangles merged into one polygon;
//! * `edges`: each edge once, as [`HullEdge`] `{ vertices: [v0, v1], faces: [f0, f1] }`,
//!   where `v0 → v1` runs counter-clockwise around `f0` and clockwise around `f1`.
//!   On the Gauss map (the unit sphere of face normals) the edge is the arc from
//!   `normal(f0)` to `normal(f1)`; the edge-pair pruning of seed 003 needs both ends;
//! * vertex adjacency (each vertex's neighbours), for hill-climbing support queries;
//! * the edge of each face-loop step and of each vertex neighbour, each loop step's
//!   side plane and each edge's two loop steps ([`ConvexHull::face_edges`],
//!   [`ConvexHull::neighbor_edges`], [`ConvexHull::side_planes`],
//!   [`ConvexHull::edge_steps`]), for walks over the features (a point's closest
//!   feature);
//! * each face plane's pole about the centroid and the face across each loop step
//!   (`polar_climb.rs`), for a face a point is in front of without a scan
//!   ([`ConvexHull::face_in_front`]);
//! * vertices, face normals, planes and edges again in blocks of 8 lanes ([`blocks`],
//!   [`plane_blocks`], [`edge_blocks`]) for the SIMD scans, and each edge's data as one
//!   cache line ([`edge_blocks::EdgeRecord`]) for the edges those scans pick.
//!
//! Build one from points with [`ConvexHull::try_from_points`], from known faces with
//! [`ConvexHull::try_from_faces`], or a box with [`ConvexHull::cuboid`].
//!
//! Volume, centre of mass and inertia come from exact polyhedral integration
//! ([`mass`]: [`ConvexHull::mass_properties`]); [`ConvexHull::recentered`] and
//! [`ConvexHull::try_from_points_centered`] put the centre of mass at the local origin.

pub mod blocks;
mod build;
pub mod edge_blocks;
mod incidence;
pub mod mass;
pub mod plane_blocks;
mod polar_climb;
mod tables;

use crate::HullError;
use blocks::{VertexBlock, support_index_blocks, vertex_blocks};
use edge_blocks::{EdgeBlock, EdgeRecord};
use glam::{DVec3, Vec3};
use plane_blocks::{PlaneBlock, furthest_plane_blocks, furthest_plane_distance};
use polar_climb::PolarClimb;
use tables::{
    ACROSS, ARCS, EDGE_BLOCKS, EDGE_RECORDS, EDGE_STEPS, EDGES, FACE_EDGES, FACE_STARTS,
    FACE_VERTICES, NEIGHBOR_EDGES, NEIGHBOR_STARTS, NEIGHBORS, NORMAL_BLOCKS, PLANE_BLOCKS, PLANES,
    POLES, SIDE_PLANES, TableSlices, Tables, VERTEX_BLOCKS, VERTICES,
};

/// An oriented plane `normal · x = offset`, `normal` unit length and pointing outward.
///
/// A hull's face plane is its supporting plane: `offset` is the largest `normal · v`
/// over the hull's vertices (in f64, rounded once), so no vertex lies outside it and the
/// face's own vertices lie on it within the hull's flatness tolerance.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Plane {
    /// Outward unit normal.
    pub normal: Vec3,
    /// Distance of the plane from the origin along `normal`.
    pub offset: f32,
}

impl Plane {
    /// Signed distance of `p` from the plane: positive outside.
    #[inline]
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.offset
    }
}

/// One edge of a hull with the two faces it separates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct HullEdge {
    /// `vertices[0] → vertices[1]` runs counter-clockwise around `faces[0]`.
    pub vertices: [u32; 2],
    /// The face on each side: `faces[0]` sees the edge CCW, `faces[1]` sees it reversed.
    pub faces: [u32; 2],
}

/// The Gauss-map arc of an edge: the great-circle arc between the normals of its two
/// faces, summarised by its midpoint direction and half its opening angle.
///
/// Every normal `n` on the arc satisfies `n · mid ≥ cos_half`; the narrow phase uses this
/// to skip, in O(1), edges whose arc cannot reach a given cone of directions.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct GaussArc {
    /// Unit direction halfway between the two face normals.
    pub mid: Vec3,
    /// Cosine of half the angle between the face normals.
    pub cos_half: f32,
    /// Sine of half the angle between the face normals.
    pub sin_half: f32,
}

/// A convex polyhedron in its local frame. See the [module docs](self).
///
/// **Layout.** Every table lies in one allocation (`tables.rs`: one buffer of cache
/// lines, the tables in the order a hull pair reads them), and the header holds
/// the tables' spans first, then the scalars, then the polar climb's start faces. In a
/// scene of thousands of distinct hulls a pair's reads miss the caches and the TLB:
/// fewer, closer pages a hull pay there.
///
/// Two hulls are equal (`==`) when their tables are equal bit for bit (so `0.0` and
/// `−0.0` differ) and their scalars compare equal.
#[derive(Clone, PartialEq)]
#[repr(C, align(64))]
pub struct ConvexHull {
    tables: Tables,
    centroid: Vec3,
    inradius: f32,
    bounding_radius: f32,
    /// The unit of the arc blocks' points ([`edge_blocks::point_unit`]).
    edge_point_unit: f32,
    /// The start faces of the climb to a face a point is in front of.
    climb: PolarClimb,
}

impl std::fmt::Debug for ConvexHull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let faces: Vec<&[u32]> = (0..self.face_count()).map(|k| self.face(k)).collect();
        f.debug_struct("ConvexHull")
            .field("vertices", &self.vertices())
            .field("faces", &faces)
            .field("planes", &self.planes())
            .field("centroid", &self.centroid)
            .field("inradius", &self.inradius)
            .field("bounding_radius", &self.bounding_radius)
            .field("table_bytes", &self.tables.byte_len())
            .finish_non_exhaustive()
    }
}

/// What a hull is assembled from (see [`ConvexHull::assemble`]): its vertices, face
/// planes and loops, edges with their Gauss arcs, vertex adjacency and vertex mean.
struct HullParts<'a> {
    vertices: &'a [Vec3],
    planes: &'a [Plane],
    face_starts: &'a [u32],
    face_vertices: &'a [u32],
    edges: &'a [HullEdge],
    arcs: &'a [GaussArc],
    neighbor_starts: &'a [u32],
    neighbors: &'a [u32],
    centroid: Vec3,
}

impl ConvexHull {
    /// A box with the given half extents as a hull: 8 vertices, 6 faces, 12 edges.
    /// Vertex `i` has sign `+` on axis `k` when bit `k` of `i` is set, as
    /// [`Cuboid::vertices`](crate::Cuboid::vertices). Errors: `NonFinite(0)` for a
    /// non-finite extent, `Coplanar` for a non-positive one; any finite positive extent
    /// up to `f32::MAX` is accepted (see [`Cuboid::try_from_half_extents`] for what a
    /// world does with huge shapes).
    ///
    /// [`Cuboid::try_from_half_extents`]: crate::Cuboid::try_from_half_extents
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let h = ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    /// assert_eq!((h.vertices().len(), h.face_count(), h.edges().len()), (8, 6, 12));
    /// ```
    pub fn cuboid(half_extents: Vec3) -> Result<ConvexHull, HullError> {
        if !half_extents.is_finite() {
            return Err(HullError::NonFinite(0));
        }
        if half_extents.min_element() <= 0.0 {
            return Err(HullError::Coplanar);
        }
        let h = half_extents;
        let vertices: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 != 0 { h.x } else { -h.x },
                    if i & 2 != 0 { h.y } else { -h.y },
                    if i & 4 != 0 { h.z } else { -h.z },
                )
            })
            .collect();
        let faces: [&[u32]; 6] = [
            &[0, 4, 6, 2], // -x
            &[1, 3, 7, 5], // +x
            &[0, 1, 5, 4], // -y
            &[2, 6, 7, 3], // +y
            &[0, 2, 3, 1], // -z
            &[4, 5, 7, 6], // +z
        ];
        ConvexHull::try_from_faces(vertices, &faces)
    }

    /// The most vertices [`try_from_faces`](ConvexHull::try_from_faces) takes: 2²⁰
    /// (1,048,576). The hull's tables lie in one allocation, each found by a `u32`
    /// byte offset and item count; at about 730 bytes of tables a vertex, this many
    /// vertices take 0.8 GB, well inside what those address (a physics engine's hulls
    /// have 4 to about 1,000 vertices).
    pub const MAX_VERTICES: usize = 1 << 20;

    /// A hull from vertices and CCW (seen from outside) face loops.
    ///
    /// Checks that the faces close up into a convex polyhedron: every face has at least 3
    /// vertices and lies in its plane, every directed edge appears once and its reverse
    /// once, every vertex is used and lies on or behind every face plane, and
    /// `V − E + F = 2`. Tolerances are relative to the hull's size. Any failure is
    /// [`HullError::InvalidTopology`]; a non-finite vertex is [`HullError::NonFinite`]; a
    /// hull wider than `f32::MAX` about its centroid, or a face plane whose offset
    /// overflows f32 (coordinates near `f32::MAX`), is [`HullError::TooLarge`].
    /// Finite coordinates are accepted as long as every face plane's offset fits in an
    /// f32 (sums and lengths are taken in `f64`). More than
    /// [`MAX_VERTICES`](ConvexHull::MAX_VERTICES) vertices is
    /// [`HullError::TooManyPoints`].
    pub fn try_from_faces<F: AsRef<[u32]>>(
        vertices: Vec<Vec3>,
        faces: &[F],
    ) -> Result<ConvexHull, HullError> {
        if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(HullError::NonFinite(i));
        }
        if vertices.len() > Self::MAX_VERTICES {
            return Err(HullError::TooManyPoints {
                count: vertices.len(),
                limit: Self::MAX_VERTICES,
            });
        }
        if vertices.len() < 4 || faces.len() < 4 {
            return Err(HullError::InvalidTopology);
        }
        let n = vertices.len();
        // In f64: near f32::MAX a sum of coordinates or a squared length overflows.
        let centroid64 = vertices.iter().map(|v| v.as_dvec3()).sum::<glam::DVec3>() / n as f64;
        let centroid = centroid64.as_vec3();
        let scale = vertices
            .iter()
            .map(|v| (v.as_dvec3() - centroid64).length())
            .fold(0.0f64, f64::max) as f32;
        if scale <= 0.0 {
            return Err(HullError::AllDuplicate);
        }
        // A hull wider than f32::MAX about its centroid has no f32 tolerance (it would
        // be infinite and let every flatness and convexity check pass).
        if !scale.is_finite() {
            return Err(HullError::TooLarge);
        }
        let tolerance = 1e-4 * scale.max(centroid.abs().max_element());

        let mut face_starts = Vec::with_capacity(faces.len() + 1);
        let mut face_vertices = Vec::new();
        let mut planes = Vec::with_capacity(faces.len());
        face_starts.push(0u32);
        for face in faces {
            let face = face.as_ref();
            if face.len() < 3 || face.iter().any(|&i| i as usize >= n) {
                return Err(HullError::InvalidTopology);
            }
            let mut plane = newell_plane(&vertices, face).ok_or(HullError::InvalidTopology)?;
            // The supporting plane: pushed out to the hull's furthest vertex along the
            // (rounded) normal, so that a face axis measures exactly what projecting
            // every vertex would, even when merged coplanar faces are not quite flat.
            let normal = plane.normal.as_dvec3();
            plane.offset = vertices
                .iter()
                .map(|v| normal.dot(v.as_dvec3()))
                .fold(f64::NEG_INFINITY, f64::max) as f32;
            if !plane.offset.is_finite() {
                return Err(HullError::TooLarge);
            }
            planes.push(plane);
            face_vertices.extend_from_slice(face);
            face_starts.push(face_vertices.len() as u32);
        }

        // Every directed edge once, and its twin once: a closed 2-manifold.
        let mut directed: Vec<(u32, u32, u32)> = Vec::with_capacity(face_vertices.len());
        for f in 0..faces.len() {
            let loop_ = &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize];
            for k in 0..loop_.len() {
                directed.push((loop_[k], loop_[(k + 1) % loop_.len()], f as u32));
            }
        }
        directed.sort_unstable();
        if directed
            .windows(2)
            .any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        {
            return Err(HullError::InvalidTopology);
        }
        let face_of = |a: u32, b: u32| -> Option<u32> {
            directed
                .binary_search_by(|e| (e.0, e.1).cmp(&(a, b)))
                .ok()
                .map(|i| directed[i].2)
        };
        let mut edges = Vec::with_capacity(directed.len() / 2);
        for f in 0..faces.len() {
            let loop_ = &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize];
            for k in 0..loop_.len() {
                let (a, b) = (loop_[k], loop_[(k + 1) % loop_.len()]);
                let twin = face_of(b, a).ok_or(HullError::InvalidTopology)?;
                if a < b {
                    edges.push(HullEdge {
                        vertices: [a, b],
                        faces: [f as u32, twin],
                    });
                }
            }
        }
        if n as i64 - edges.len() as i64 + faces.len() as i64 != 2 {
            return Err(HullError::InvalidTopology);
        }

        // Convexity: every vertex on or behind every plane.
        for plane in &planes {
            if vertices
                .iter()
                .any(|v| plane.signed_distance(*v) > tolerance)
            {
                return Err(HullError::InvalidTopology);
            }
        }
        for f in 0..faces.len() {
            let loop_ = &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize];
            if loop_
                .iter()
                .any(|&i| planes[f].signed_distance(vertices[i as usize]).abs() > tolerance)
            {
                return Err(HullError::InvalidTopology);
            }
        }

        // Vertex adjacency (CSR), from the edges.
        let mut degree = vec![0u32; n];
        for e in &edges {
            degree[e.vertices[0] as usize] += 1;
            degree[e.vertices[1] as usize] += 1;
        }
        if degree.contains(&0) {
            return Err(HullError::InvalidTopology);
        }
        let mut neighbor_starts = Vec::with_capacity(n + 1);
        neighbor_starts.push(0u32);
        for d in &degree {
            neighbor_starts.push(neighbor_starts.last().unwrap() + d);
        }
        let mut fill = neighbor_starts[..n].to_vec();
        let mut neighbors = vec![0u32; edges.len() * 2];
        for e in &edges {
            let [a, b] = e.vertices;
            neighbors[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            neighbors[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }

        // The arc's middle, in f64. Both normals are perpendicular to the edge `d`, and
        // with the faces' winding (`faces[0]` runs `vertices[0] → vertices[1]`)
        // `d × (n0 − n1)` points along `n0 + n1`. On a knife edge (nearly opposite
        // faces) `n0 + n1` is short, and its direction would be the normals' round-off
        // (the arc missed its own ends by up to 1e-3); `n0 − n1` is long there. So an
        // obtuse edge takes its middle from the edge, an acute one from `n0 + n1`.
        let arcs: Vec<GaussArc> = edges
            .iter()
            .map(|e| {
                let n0 = planes[e.faces[0] as usize].normal.as_dvec3();
                let n1 = planes[e.faces[1] as usize].normal.as_dvec3();
                let [v0, v1] = e.vertices.map(|v| vertices[v as usize].as_dvec3());
                let middle = if n0.dot(n1) < 0.0 {
                    (v1 - v0).normalize_or_zero().cross(n0 - n1)
                } else {
                    n0 + n1
                };
                let mid = middle.try_normalize().unwrap_or(n0);
                let cos_half = n0.dot(mid).min(n1.dot(mid)).clamp(-1.0, 1.0);
                GaussArc {
                    mid: mid.as_vec3(),
                    cos_half: cos_half as f32,
                    sin_half: (1.0 - cos_half * cos_half).max(0.0).sqrt() as f32,
                }
            })
            .collect();
        let hull = ConvexHull::assemble(&HullParts {
            vertices: &vertices,
            planes: &planes,
            face_starts: &face_starts,
            face_vertices: &face_vertices,
            edges: &edges,
            arcs: &arcs,
            neighbor_starts: &neighbor_starts,
            neighbors: &neighbors,
            centroid,
        });
        if hull.inradius <= 0.0 {
            return Err(HullError::InvalidTopology);
        }
        Ok(hull)
    }

    /// The hull of `parts`: its scalars and every table derived from the parts (the
    /// blocks of 8 lanes, the edge records, the incidences, the side planes, the polar
    /// climb), all packed into one allocation. The inradius is not checked here.
    fn assemble(parts: &HullParts) -> ConvexHull {
        let HullParts {
            vertices,
            planes,
            face_starts,
            face_vertices,
            edges,
            arcs,
            neighbor_starts,
            neighbors,
            centroid,
        } = *parts;
        let inradius = planes
            .iter()
            .map(|p| -p.signed_distance(centroid))
            .fold(f32::INFINITY, f32::min);
        let bounding_radius = vertices
            .iter()
            .map(|v| v.as_dvec3().length())
            .fold(0.0f64, f64::max) as f32;
        let normals: Vec<Vec3> = planes.iter().map(|p| p.normal).collect();
        let edge_point_unit = edge_blocks::point_unit(vertices);
        let (face_edges, neighbor_edges) = incidence::incidence(
            edges,
            face_starts,
            face_vertices,
            neighbor_starts,
            neighbors,
        );
        let edge_steps = incidence::edge_steps(edges, face_starts, &face_edges);
        let side_planes = incidence::side_planes(vertices, planes, face_starts, face_vertices);
        let poles = polar_climb::poles(planes, centroid);
        let across = polar_climb::across(face_starts, &face_edges, |e| edges[e as usize].faces);
        let tables = Tables::pack(&TableSlices {
            plane_blocks: &plane_blocks::plane_blocks(planes),
            vertex_blocks: &vertex_blocks(vertices),
            planes,
            vertices,
            edge_blocks: &edge_blocks::edge_blocks(vertices, edges, arcs, edge_point_unit),
            edge_records: &edge_blocks::edge_records(vertices, planes, edges),
            face_starts,
            face_vertices,
            side_planes: &side_planes,
            face_edges: &face_edges,
            edge_steps: &edge_steps,
            edges,
            normal_blocks: &vertex_blocks(&normals),
            arcs,
            neighbor_starts,
            neighbors,
            neighbor_edges: &neighbor_edges,
            poles: &poles,
            across: &across,
        });
        ConvexHull {
            climb: PolarClimb::new(&poles, centroid),
            tables,
            centroid,
            inradius,
            bounding_radius,
            edge_point_unit,
        }
    }

    /// The corner points.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        self.tables.get(VERTICES)
    }

    /// Number of faces.
    #[inline]
    pub fn face_count(&self) -> usize {
        self.tables.get(PLANES).len()
    }

    /// The outward plane of every face.
    #[inline]
    pub fn planes(&self) -> &[Plane] {
        self.tables.get(PLANES)
    }

    /// The CCW vertex loop of face `f` (indices into [`ConvexHull::vertices`]).
    #[inline]
    pub fn face(&self, f: usize) -> &[u32] {
        let starts = self.tables.get(FACE_STARTS);
        &self.tables.get(FACE_VERTICES)[starts[f] as usize..starts[f + 1] as usize]
    }

    /// Start of each face's loop in [`ConvexHull::face_indices`]; one more entry than faces.
    #[inline]
    pub fn face_starts(&self) -> &[u32] {
        self.tables.get(FACE_STARTS)
    }

    /// Every face loop, one after the other (see [`ConvexHull::face_starts`]).
    #[inline]
    pub fn face_indices(&self) -> &[u32] {
        self.tables.get(FACE_VERTICES)
    }

    /// The edge (index into [`ConvexHull::edges`]) of every face-loop step, parallel to
    /// [`ConvexHull::face_indices`]: entry `k` of face `f`'s stretch joins loop vertex
    /// `k` to loop vertex `k + 1` (wrapping).
    #[inline]
    pub fn face_edges(&self) -> &[u32] {
        self.tables.get(FACE_EDGES)
    }

    /// The side plane of every face-loop step, parallel to [`ConvexHull::face_indices`]:
    /// for step `v_k → v_{k+1}` of face `f`, the plane through the step that contains
    /// `f`'s normal, its unit normal `(v_{k+1} − v_k) × n_f` pointing out of the polygon
    /// (in `f64`, rounded once). A point projects into face `f` iff it is on or behind
    /// all of `f`'s side planes. The face clipper of the narrow phase clips by them (a
    /// degenerate step, impossible on a valid hull, gets a zero plane).
    #[inline]
    pub fn side_planes(&self) -> &[Plane] {
        self.tables.get(SIDE_PLANES)
    }

    /// Where each edge (in [`ConvexHull::edges`]' order) is a face-loop step: the
    /// indices into [`ConvexHull::face_indices`] (and [`ConvexHull::side_planes`]) of
    /// its step in `faces[0]`'s loop and in `faces[1]`'s.
    #[inline]
    pub fn edge_steps(&self) -> &[[u32; 2]] {
        self.tables.get(EDGE_STEPS)
    }

    /// The edge (index into [`ConvexHull::edges`]) to every neighbour, parallel to
    /// [`ConvexHull::neighbor_indices`].
    #[inline]
    pub fn neighbor_edges(&self) -> &[u32] {
        self.tables.get(NEIGHBOR_EDGES)
    }

    /// The face planes in blocks of 8 lanes ([`plane_blocks`]), the last padded with
    /// face 0.
    #[inline]
    pub fn plane_blocks(&self) -> &[PlaneBlock] {
        self.tables.get(PLANE_BLOCKS)
    }

    /// The face whose plane `p` lies furthest in front of (the lowest index among
    /// ties) and that signed distance: `p`'s distance (negative) when no plane has it
    /// in front, a lower bound of its distance otherwise.
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
    /// let (face, distance) = cube.furthest_plane(Vec3::new(0.0, 3.0, 0.5));
    /// assert_eq!((cube.planes()[face].normal, distance), (Vec3::Y, 2.0));
    /// ```
    #[inline]
    pub fn furthest_plane(&self, p: Vec3) -> (usize, f32) {
        furthest_plane_blocks(self.tables.get(PLANE_BLOCKS), p)
    }

    /// The distance of [`furthest_plane`](ConvexHull::furthest_plane) alone, in one pass
    /// over the planes: minus `p`'s depth below the nearest face plane when it is
    /// inside. NaN for a point that is not finite.
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
    /// assert_eq!(cube.furthest_plane_distance(Vec3::new(0.0, 0.75, 0.5)), -0.25);
    /// assert!(cube.furthest_plane_distance(Vec3::NAN).is_nan());
    /// ```
    #[inline]
    pub fn furthest_plane_distance(&self, p: Vec3) -> f32 {
        furthest_plane_distance(self.tables.get(PLANE_BLOCKS), p)
    }

    /// A face whose plane `p` lies strictly in front of, found by a climb over the
    /// faces' poles (`u_f = n_f / (o_f − n_f·c)` about the [`centroid`](ConvexHull::centroid)
    /// `c`: `p` is in front of face `f` iff `u_f·(p − c) > 1`, and the largest `u_f·(p − c)`
    /// is a linear maximum over the polar dual's vertices, which a climb from face to
    /// neighbouring face finds): the face the ray from `c` through `p` leaves by,
    /// typically after one or two steps. `None` when `p` is inside or on the hull, not finite, or (rarely) a
    /// hair outside where round-off stops the climb short; the
    /// [`furthest_plane`](ConvexHull::furthest_plane) scan answers every case.
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let cube = ConvexHull::cuboid(Vec3::ONE).unwrap();
    /// let face = cube.face_in_front(Vec3::new(0.2, 3.0, 0.5)).unwrap();
    /// assert_eq!(cube.planes()[face].normal, Vec3::Y);
    /// assert_eq!(cube.face_in_front(Vec3::new(0.2, 0.5, 0.1)), None);
    /// ```
    #[inline]
    pub fn face_in_front(&self, p: Vec3) -> Option<usize> {
        self.climb.face_in_front(
            self.tables.get(POLES),
            self.tables.get(ACROSS),
            self.tables.get(PLANES),
            self.tables.get(FACE_STARTS),
            p,
        )
    }

    /// The Gauss-map arc of every edge, in the order of [`ConvexHull::edges`].
    #[inline]
    pub fn gauss_arcs(&self) -> &[GaussArc] {
        self.tables.get(ARCS)
    }

    /// Distance from the centroid to the nearest face plane: the ball of this radius
    /// about [`ConvexHull::centroid`] lies inside the hull.
    #[inline]
    pub fn inradius(&self) -> f32 {
        self.inradius
    }

    /// Every edge once.
    #[inline]
    pub fn edges(&self) -> &[HullEdge] {
        self.tables.get(EDGES)
    }

    /// The vertices joined to vertex `v` by an edge.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        let starts = self.tables.get(NEIGHBOR_STARTS);
        &self.tables.get(NEIGHBORS)[starts[v] as usize..starts[v + 1] as usize]
    }

    /// The mean of the vertices: a point strictly inside the hull, used as the centre
    /// of the SAT's pruning (see [`inradius`](ConvexHull::inradius)).
    ///
    /// This is **not** the centre of mass: vertices crowded on one side pull it there.
    /// For the centre of mass use [`center_of_mass`](ConvexHull::center_of_mass) or
    /// [`mass_properties`](ConvexHull::mass_properties), and
    /// [`recentered`](ConvexHull::recentered) to put it at the local origin.
    #[inline]
    pub fn centroid(&self) -> Vec3 {
        self.centroid
    }

    /// Largest distance of a vertex from the local origin.
    #[inline]
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// Start of each vertex's list in the adjacency (CSR layout), one more entry than vertices.
    #[inline]
    pub fn neighbor_starts(&self) -> &[u32] {
        self.tables.get(NEIGHBOR_STARTS)
    }

    /// All neighbour lists, one after the other (see [`ConvexHull::neighbor_starts`]).
    #[inline]
    pub fn neighbor_indices(&self) -> &[u32] {
        self.tables.get(NEIGHBORS)
    }

    /// Index of a vertex furthest along `dir` (the lowest index among ties).
    #[inline]
    pub fn support_index(&self, dir: Vec3) -> usize {
        support_index_blocks(self.tables.get(VERTEX_BLOCKS), dir)
    }

    /// Index of the face whose outward normal is furthest along `dir` (the lowest
    /// index among ties; 0 for a NaN direction): the face a direction leaves through.
    #[inline]
    pub fn face_towards(&self, dir: Vec3) -> usize {
        support_index_blocks(self.tables.get(NORMAL_BLOCKS), dir)
    }

    /// The edges' Gauss arcs in blocks of 8 lanes ([`edge_blocks`]), in
    /// [`ConvexHull::edges`]' order.
    #[inline]
    pub fn edge_blocks(&self) -> &[EdgeBlock] {
        self.tables.get(EDGE_BLOCKS)
    }

    /// The unit of the arc blocks' points: a block's point row times it is the edge's
    /// first vertex, within `√3/2` units ([`edge_blocks::point_unit`]).
    #[inline]
    pub fn edge_point_unit(&self) -> f32 {
        self.edge_point_unit
    }

    /// Each edge's face normals, first vertex and direction ([`EdgeRecord`]), in
    /// [`ConvexHull::edges`]' order.
    #[inline]
    pub fn edge_records(&self) -> &[EdgeRecord] {
        self.tables.get(EDGE_RECORDS)
    }

    /// The vertices in blocks of 8 lanes ([`blocks`]), the last padded with vertex 0.
    #[inline]
    pub fn vertex_blocks(&self) -> &[VertexBlock] {
        self.tables.get(VERTEX_BLOCKS)
    }

    /// Where the arrays a pair query scans first lie in memory, as (start, length in
    /// bytes): the plane blocks, the vertex blocks, the planes and the edge blocks
    /// (all near the start of the hull's one table buffer). For a caller
    /// that asks the CPU to load them ahead of the query (the pipeline's narrow stage);
    /// no answer depends on it.
    #[doc(hidden)]
    #[inline]
    pub fn query_arrays(&self) -> [(*const u8, usize); 4] {
        fn range<T>(items: &[T]) -> (*const u8, usize) {
            (items.as_ptr().cast(), std::mem::size_of_val(items))
        }
        [
            range(self.tables.get(PLANE_BLOCKS)),
            range(self.tables.get(VERTEX_BLOCKS)),
            range(self.tables.get(PLANES)),
            range(self.tables.get(EDGE_BLOCKS)),
        ]
    }

    /// The largest `dir · v` over the vertices.
    #[inline]
    pub fn support_distance(&self, dir: Vec3) -> f32 {
        support_distance(self.tables.get(VERTICES), dir)
    }
}

/// Index of a point furthest along `dir` (the lowest index among ties; 0 for an empty
/// slice): the support mapping of a point set, by linear scan.
#[inline]
pub fn support_index(points: &[Vec3], dir: Vec3) -> usize {
    let mut best = 0;
    let mut best_dot = f32::NEG_INFINITY;
    for (i, v) in points.iter().enumerate() {
        let d = v.dot(dir);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    best
}

/// The largest `dir · p` over the points (`−∞` for an empty slice).
#[inline]
pub fn support_distance(points: &[Vec3], dir: Vec3) -> f32 {
    points
        .iter()
        .fold(f32::NEG_INFINITY, |m, v| m.max(v.dot(dir)))
}

/// Plane of a polygon by Newell's method, robust for slightly non-planar loops:
/// `n = Σ (v_k − m) × (v_{k+1} − m)` over the loop (twice the area vector; `m` the mean,
/// subtracted to keep round-off small), then `offset = n̂ · m`. Summed in f64 and rounded
/// once: in f32 a long thin face (a needle hull's side) loses its normal to round-off.
fn newell_plane(vertices: &[Vec3], face: &[u32]) -> Option<Plane> {
    let mean = face
        .iter()
        .map(|&i| vertices[i as usize].as_dvec3())
        .sum::<DVec3>()
        / face.len() as f64;
    let mut normal = DVec3::ZERO;
    for k in 0..face.len() {
        let a = vertices[face[k] as usize].as_dvec3() - mean;
        let b = vertices[face[(k + 1) % face.len()] as usize].as_dvec3() - mean;
        normal += a.cross(b);
    }
    let normal = normal.try_normalize()?;
    Some(Plane {
        normal: normal.as_vec3(),
        offset: normal.dot(mean) as f32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuboid_topology() {
        let h = ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
        for (f, plane) in h.planes().iter().enumerate() {
            for &v in h.face(f) {
                assert!(plane.signed_distance(h.vertices()[v as usize]).abs() < 1e-6);
            }
            assert!(plane.signed_distance(Vec3::ZERO) < 0.0);
        }
        for e in h.edges() {
            let [f0, f1] = e.faces;
            let n0 = h.planes()[f0 as usize].normal;
            let n1 = h.planes()[f1 as usize].normal;
            // Orientation: the edge direction is along n0 × n1 for CCW faces.
            let dir = h.vertices()[e.vertices[1] as usize] - h.vertices()[e.vertices[0] as usize];
            assert!(dir.dot(n0.cross(n1)) > 0.0);
        }
        for v in 0..8 {
            assert_eq!(h.neighbors(v).len(), 3);
        }
        assert_eq!(h.support_index(Vec3::new(1.0, 1.0, 1.0)), 7);
    }

    #[test]
    fn refuses_open_or_concave_faces() {
        let h = ConvexHull::cuboid(Vec3::ONE).unwrap();
        let verts = h.vertices().to_vec();
        // Drop a face: not closed.
        let faces: Vec<Vec<u32>> = (0..5).map(|f| h.face(f).to_vec()).collect();
        assert_eq!(
            ConvexHull::try_from_faces(verts.clone(), &faces),
            Err(HullError::InvalidTopology)
        );
        // Push one vertex inward: faces no longer planar / convex.
        let mut dented = verts.clone();
        dented[7] *= 0.5;
        let faces: Vec<Vec<u32>> = (0..6).map(|f| h.face(f).to_vec()).collect();
        assert_eq!(
            ConvexHull::try_from_faces(dented, &faces),
            Err(HullError::InvalidTopology)
        );
        let too_many = vec![Vec3::ONE; ConvexHull::MAX_VERTICES + 1];
        assert_eq!(
            ConvexHull::try_from_faces(too_many, &faces),
            Err(HullError::TooManyPoints {
                count: ConvexHull::MAX_VERTICES + 1,
                limit: ConvexHull::MAX_VERTICES
            })
        );
        let mut bad = verts;
        bad[3].x = f32::NAN;
        assert_eq!(
            ConvexHull::try_from_faces(bad, &faces),
            Err(HullError::NonFinite(3))
        );
    }
}
