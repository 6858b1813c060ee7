//! The cores GJK runs on: a shape minus its rounding radius.

use glam::{DVec3, Vec3};
use sepax_geometry::{ConvexHull, Shape};

/// A convex shape as GJK sees it: a point set's convex hull (the core) grown by a
/// radius. A sphere is a point, a capsule its core segment; boxes and hulls have
/// radius 0.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Core<'s> {
    /// A sphere's centre.
    Point,
    /// A capsule's core: `(0, ±half_height, 0)`, vertex 0 at the bottom.
    Segment(f32),
    /// A box by half extents; corner `i` has `+` on axis `k` when bit `k` is set.
    Box(Vec3),
    /// A hull's vertices.
    Hull(&'s ConvexHull),
    /// A mesh triangle's corners (casts against a mesh, one triangle at a time).
    Triangle([Vec3; 3]),
}

impl<'s> Core<'s> {
    /// The core of a convex shape and the radius it is grown by; `None` for a mesh.
    pub fn of(shape: &'s Shape) -> Option<(Core<'s>, f32)> {
        Some(match shape {
            Shape::Sphere(s) => (Core::Point, s.radius()),
            Shape::Capsule(c) => (Core::Segment(c.half_height()), c.radius()),
            Shape::Cuboid(c) => (Core::Box(c.half_extents()), 0.0),
            Shape::ConvexHull(h) => (Core::Hull(h), 0.0),
            Shape::TriMesh(_) => return None,
        })
    }

    /// Index and position of a core vertex furthest along local `dir` (ties: the
    /// lowest index for hulls, the `+` corner for boxes).
    #[inline]
    pub fn support(&self, dir: Vec3) -> (u16, Vec3) {
        match self {
            Core::Point => (0, Vec3::ZERO),
            Core::Segment(h) => {
                if dir.y >= 0.0 {
                    (1, Vec3::new(0.0, *h, 0.0))
                } else {
                    (0, Vec3::new(0.0, -*h, 0.0))
                }
            }
            Core::Box(_) => {
                let i = (dir.x >= 0.0) as u16
                    | ((dir.y >= 0.0) as u16) << 1
                    | ((dir.z >= 0.0) as u16) << 2;
                (i, self.vertex(i))
            }
            Core::Hull(hull) => {
                let i = hull.support_index(dir);
                (i as u16, hull.vertices()[i])
            }
            Core::Triangle(t) => {
                let d = t.map(|v| v.dot(dir));
                let i = if d[1] > d[0] { 1 } else { 0 };
                let i = if d[2] > d[i] { 2 } else { i };
                (i as u16, t[i])
            }
        }
    }

    /// Whether [`Core::support`] compares dot products in f32 (hulls and triangles),
    /// so that it may pick a vertex tied with the furthest (see [`Core::climb`]).
    #[inline]
    pub fn may_tie(&self) -> bool {
        matches!(self, Core::Hull(_) | Core::Triangle(_))
    }

    /// A vertex at least as far along local `dir` as vertex `i`, measured in f64: `i`
    /// itself unless a neighbour (a hull's; the other corners of a triangle) lies
    /// further, then the climb from there, which ends at the furthest vertex (on a
    /// convex hull a vertex no neighbour beats is the highest). [`Core::support`]
    /// compares in f32, so it may pick a vertex tied with the highest to within the
    /// dot products' rounding; this settles such a tie. Boxes, segments and points
    /// choose by signs, which f32 keeps: `i` as is.
    ///
    /// A hull's face of more than three vertices was merged from nearly coplanar
    /// triangles: it is flat only to the builder's tolerance, and the hull of its
    /// vertices has edges across it (the merged-away diagonals) that the adjacency
    /// lacks. A vertex no neighbour beats is therefore checked against the other
    /// vertices of its merged faces too: on a box resting face on face over a hull's
    /// merged quad, the climb stopped on a corner the quad's far corner beat by 1e-8
    /// through the missing diagonal, and GJK's gap came out 1.3e-9 too long.
    pub fn climb(&self, i: u16, dir: DVec3) -> u16 {
        let height = |v: Vec3| v.as_dvec3().dot(dir);
        match self {
            Core::Hull(hull) => {
                let vertices = hull.vertices();
                let merged = hull.face_indices().len() != 3 * hull.face_count();
                let mut at = (i as usize).min(vertices.len() - 1);
                let mut top = height(vertices[at]);
                // Each step rises strictly, so the climb ends (a NaN height never
                // rises).
                loop {
                    let from = at;
                    for &j in hull.neighbors(from) {
                        let h = height(vertices[j as usize]);
                        if h > top {
                            (at, top) = (j as usize, h);
                        }
                    }
                    if at == from && merged {
                        for &j in merged_face_mates(hull, from) {
                            let h = height(vertices[j as usize]);
                            if h > top {
                                (at, top) = (j as usize, h);
                            }
                        }
                    }
                    if at == from {
                        break;
                    }
                }
                at as u16
            }
            Core::Triangle(t) => {
                let mut best = (i as usize).min(2);
                for (k, &v) in t.iter().enumerate() {
                    if height(v) > height(t[best]) {
                        best = k;
                    }
                }
                best as u16
            }
            Core::Point | Core::Segment(_) | Core::Box(_) => i,
        }
    }

    /// Core vertex `i` (an index [`Core::support`] returned; out-of-range indices
    /// clamp, so a stale warm start is harmless).
    #[inline]
    pub fn vertex(&self, i: u16) -> Vec3 {
        match self {
            Core::Point => Vec3::ZERO,
            Core::Segment(h) => Vec3::new(0.0, if i == 0 { -*h } else { *h }, 0.0),
            Core::Box(h) => Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            ),
            Core::Hull(hull) => {
                let v = hull.vertices();
                v[(i as usize).min(v.len() - 1)]
            }
            Core::Triangle(t) => t[(i as usize).min(2)],
        }
    }

    /// True when vertices `i` and `j` are the ends of one edge of the core (two
    /// vertices of a face that are not neighbours span a diagonal, inside the face).
    pub fn is_edge(&self, i: u16, j: u16) -> bool {
        match self {
            Core::Point => false,
            Core::Segment(_) => i != j,
            Core::Box(_) => (i ^ j).count_ones() == 1,
            Core::Hull(hull) => hull.neighbors(i as usize).contains(&(j as u32)),
            Core::Triangle(_) => i != j,
        }
    }

    /// Number of core vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            Core::Point => 1,
            Core::Segment(_) => 2,
            Core::Box(_) => 8,
            Core::Hull(hull) => hull.vertices().len(),
            Core::Triangle(_) => 3,
        }
    }

    /// The face that holds every vertex of `vertices` (several: the one whose outward
    /// normal is nearest the local direction `dir`): where a closest point on two
    /// vertices that are not an edge, or on three or more, lies.
    ///
    /// Chosen by the vertex indices, not by the normal alone: two neighbouring hull
    /// faces can differ by less than f32 can tell apart in `n · dir` (`1 − cos θ`
    /// below `1e-7` for `θ` about `1e-4` rad), and the point lies on only one of them.
    /// When no face holds them all (round-off on such nearly flat seams can leave a
    /// simplex across two faces), the face nearest `dir`.
    pub fn face_holding(&self, vertices: &[u16], dir: Vec3) -> u32 {
        match self {
            Core::Point | Core::Segment(_) | Core::Triangle(_) => 0,
            Core::Box(_) => {
                // Face 2k + s holds the corners whose bit k is s.
                let all = vertices.iter().fold(7u16, |m, &i| m & i);
                let none = vertices.iter().fold(7u16, |m, &i| m & !i);
                let mut best = (f32::NEG_INFINITY, None);
                for k in 0..3 {
                    for (side, held) in [(0, none), (1, all)] {
                        if held & (1 << k) != 0 {
                            let along = if side == 1 { dir[k] } else { -dir[k] };
                            if along > best.0 {
                                best = (along, Some(2 * k as u32 + side));
                            }
                        }
                    }
                }
                best.1.unwrap_or_else(|| self.face_towards(dir))
            }
            Core::Hull(hull) => {
                let holds = |f: usize| {
                    let face = hull.face(f);
                    vertices.iter().all(|&i| face.contains(&(i as u32)))
                };
                // Nearly always the face nearest `dir` holds them (the only one that
                // can, for three vertices or a diagonal); scan the others only if not.
                let nearest = self.face_towards(dir);
                if holds(nearest as usize) {
                    return nearest;
                }
                let mut best = (f32::NEG_INFINITY, None);
                for (f, plane) in hull.planes().iter().enumerate() {
                    if holds(f) {
                        let along = plane.normal.dot(dir);
                        if along > best.0 {
                            best = (along, Some(f as u32));
                        }
                    }
                }
                best.1.unwrap_or(nearest)
            }
        }
    }

    /// The face whose outward normal is nearest the local direction `dir`.
    pub fn face_towards(&self, dir: Vec3) -> u32 {
        match self {
            Core::Point | Core::Segment(_) | Core::Triangle(_) => 0,
            Core::Box(_) => {
                let k = dir.abs().max_position();
                2 * k as u32 + (dir[k] >= 0.0) as u32
            }
            Core::Hull(hull) => hull.face_towards(dir) as u32,
        }
    }
}

/// The vertices of the merged faces (more than three vertices) around hull vertex `v`,
/// one face after the other (`v` among them; see [`Core::climb`]). Each face around
/// `v` is `faces[0]` of the edge leaving `v` counter-clockwise in its loop.
fn merged_face_mates(hull: &ConvexHull, v: usize) -> impl Iterator<Item = &u32> {
    let starts = hull.neighbor_starts();
    let around = &hull.neighbor_edges()[starts[v] as usize..starts[v + 1] as usize];
    around.iter().flat_map(move |&e| {
        let edge = hull.edges()[e as usize];
        let face = if edge.vertices[0] as usize == v {
            edge.faces[0]
        } else {
            edge.faces[1]
        };
        let face = hull.face(face as usize);
        let merged = if face.len() > 3 { face } else { &[] };
        merged.iter()
    })
}
