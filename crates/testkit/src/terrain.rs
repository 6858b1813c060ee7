//! Triangle meshes for level geometry: a flat floor and a gently curved terrain, as
//! plain vertex and index lists, plus the brute-force twin of a mesh's internal-edge
//! flags.
//!
//! Both meshes are square grids in the x–z plane, `cells × cells` quads of side `cell`,
//! centred on the origin, two triangles per quad, counter-clockwise seen from +y (their
//! front normals point up). The split diagonal alternates from cell to cell, so seams run
//! in three directions (along x, along z and diagonally) and a body sliding across the
//! mesh crosses every kind.
//!
//! [`triangles_with_flags`] computes each triangle's [`MeshTriangle`] the slow, obvious
//! way — every pair of triangles compared for a shared edge — from the rules written on
//! [`MeshTriangle`]; it is the oracle for the mesh builder's adjacency and the input of
//! triangle-contact tests that run before a mesh exists.

use glam::Vec3;
use sepax_geometry::rng::Rng;
use sepax_geometry::{Cuboid, MeshTriangle, Pose, Shape};
use sepax_narrowphase::oracle::triangle::{triangle_capsule, triangle_vertex_projection_sat};

/// A triangle mesh as the user hands it over.
#[derive(Clone, Debug)]
pub struct MeshData {
    /// Corner positions.
    pub vertices: Vec<Vec3>,
    /// Three corner indices per triangle, counter-clockwise seen from the front.
    pub indices: Vec<[u32; 3]>,
}

/// A flat floor at `y = 0`: `cells × cells` quads of side `cell`, `2 cells²` triangles
/// (32 cells give 2,048).
pub fn flat_floor(cells: u32, cell: f32) -> MeshData {
    grid(cells, cell, |_, _| 0.0)
}

/// A gently curved terrain: `y = amplitude · sin(x / wavelength) · cos(z / wavelength)`
/// over the same grid as [`flat_floor`]. With `amplitude / wavelength` small the slope
/// stays gentle and the bend between neighbouring triangles small.
pub fn rolling_terrain(cells: u32, cell: f32, amplitude: f32, wavelength: f32) -> MeshData {
    grid(cells, cell, |x, z| {
        amplitude * (x / wavelength).sin() * (z / wavelength).cos()
    })
}

/// The height function of [`rolling_terrain`] and its exact unit surface normal at
/// `(x, z)` (from the partial derivatives), for tests that compare contact normals with
/// the true surface.
pub fn rolling_normal(x: f32, z: f32, amplitude: f32, wavelength: f32) -> Vec3 {
    let (x, z, a, w) = (x as f64, z as f64, amplitude as f64, wavelength as f64);
    let dx = a / w * (x / w).cos() * (z / w).cos();
    let dz = -a / w * (x / w).sin() * (z / w).sin();
    let n = glam::DVec3::new(-dx, 1.0, -dz).normalize();
    n.as_vec3()
}

fn grid(cells: u32, cell: f32, height: impl Fn(f32, f32) -> f32) -> MeshData {
    let side = cells + 1;
    let half = cells as f32 * cell * 0.5;
    let mut vertices = Vec::with_capacity((side * side) as usize);
    for iz in 0..side {
        for ix in 0..side {
            let (x, z) = (ix as f32 * cell - half, iz as f32 * cell - half);
            vertices.push(Vec3::new(x, height(x, z), z));
        }
    }
    let at = |ix: u32, iz: u32| iz * side + ix;
    let mut indices = Vec::with_capacity((2 * cells * cells) as usize);
    for iz in 0..cells {
        for ix in 0..cells {
            // Corners of the cell: p00 at (x0, z0), p10 at (x1, z0), p01 at (x0, z1).
            let (p00, p10, p01, p11) = (
                at(ix, iz),
                at(ix + 1, iz),
                at(ix, iz + 1),
                at(ix + 1, iz + 1),
            );
            // (z1 − z0) × (x1 − x0) points up, so (p00, p01, p10) is counter-clockwise from +y.
            if (ix + iz) % 2 == 0 {
                indices.push([p00, p01, p10]);
                indices.push([p10, p01, p11]);
            } else {
                indices.push([p00, p01, p11]);
                indices.push([p00, p11, p10]);
            }
        }
    }
    MeshData { vertices, indices }
}

/// Every non-degenerate triangle of `mesh` as a [`MeshTriangle`] with its flags, by the
/// rules on [`MeshTriangle`], comparing every pair of triangles (O(n²): test meshes only).
///
/// Degenerate triangles (no area) are skipped and do not count as neighbours. An edge
/// shared by more than two triangles is active.
pub fn triangles_with_flags(mesh: &MeshData) -> Vec<MeshTriangle> {
    let corners = |t: &[u32; 3]| t.map(|i| mesh.vertices[i as usize]);
    let lone: Vec<Option<MeshTriangle>> = mesh
        .indices
        .iter()
        .map(|t| MeshTriangle::lone(corners(t)))
        .collect();
    let n = mesh.indices.len();
    let mut edge_active = vec![[true; 3]; n];
    for i in 0..n {
        let Some(ti) = lone[i] else { continue };
        for (e, active) in edge_active[i].iter_mut().enumerate() {
            let (a, b) = (mesh.indices[i][e], mesh.indices[i][(e + 1) % 3]);
            let sharing: Vec<usize> = (0..n)
                .filter(|&j| j != i && lone[j].is_some())
                .filter(|&j| {
                    let t = mesh.indices[j];
                    t.contains(&a) && t.contains(&b)
                })
                .collect();
            if sharing.len() != 1 {
                continue; // boundary or non-manifold: active
            }
            let tj = lone[sharing[0]].unwrap();
            let far = mesh.indices[sharing[0]]
                .iter()
                .find(|&&k| k != a && k != b)
                .map(|&k| mesh.vertices[k as usize])
                .unwrap();
            let cos = (ti.normal.as_dvec3().dot(tj.normal.as_dvec3())).clamp(-1.0, 1.0);
            let bend = cos.acos();
            let below = (far - mesh.vertices[a as usize])
                .as_dvec3()
                .dot(ti.normal.as_dvec3())
                < 0.0;
            *active = below && bend > MeshTriangle::FLAT_ANGLE as f64;
        }
    }
    // A corner is active when any mesh edge meeting there is active.
    let mut vertex_active = vec![false; mesh.vertices.len()];
    for (i, t) in mesh.indices.iter().enumerate() {
        if lone[i].is_none() {
            continue;
        }
        for e in 0..3 {
            if edge_active[i][e] {
                vertex_active[t[e] as usize] = true;
                vertex_active[t[(e + 1) % 3] as usize] = true;
            }
        }
    }
    (0..n)
        .filter_map(|i| {
            let mut t = lone[i]?;
            t.active_edges = edge_active[i];
            t.active_vertices = mesh.indices[i].map(|k| vertex_active[k as usize]);
            Some(t)
        })
        .collect()
}

/// A box touching one mesh triangle: the triangle-contact bench's pair.
#[derive(Clone, Debug)]
pub struct TrianglePair {
    /// The triangle, in the mesh frame (a lone triangle: every edge and corner active).
    pub triangle: MeshTriangle,
    /// The mesh's pose.
    pub mesh_pose: Pose,
    /// The shape touching the triangle.
    pub shape: Shape,
    /// Its pose.
    pub pose: Pose,
}

/// `count` boxes (half extents 0.2–0.6) each penetrating one triangle of a unit floor
/// cell (the right triangle `(0,0,0), (0,0,1), (1,0,0)` of [`flat_floor`]'s grid,
/// corners jittered by up to 0.1 in height), resting on it at a random turn, its
/// lowest point 0.5–3% of its size below the plane over a random point of the
/// triangle. Pairs the one-sided f64 oracle does not find penetrating are drawn again.
/// Draw order per pair: the three heights, the half extents, the rotation, the point
/// (two barycentric weights), the depth.
pub fn box_triangle_pairs(seed: u64, count: usize) -> Vec<TrianglePair> {
    touching_triangle_pairs(seed, count, |rng| {
        let half = rng.vec3(Vec3::splat(0.2), Vec3::splat(0.6));
        Cuboid::try_from_half_extents(half).ok().map(Shape::from)
    })
}

/// [`box_triangle_pairs`] with hulls of `points` points on a ball of radius 0.2–0.6
/// (drawn where the box's half extents are).
pub fn hull_triangle_pairs(seed: u64, count: usize, points: usize) -> Vec<TrianglePair> {
    touching_triangle_pairs(seed, count, |rng| {
        let radius = rng.range(0.2, 0.6);
        let cloud: Vec<Vec3> = (0..points).map(|_| rng.unit_vec3() * radius).collect();
        sepax_geometry::ConvexHull::try_from_points(&cloud)
            .ok()
            .map(Shape::from)
    })
}

/// [`box_triangle_pairs`] with capsules: half height 0.1–0.6, radius 0.1–0.4.
pub fn capsule_triangle_pairs(seed: u64, count: usize) -> Vec<TrianglePair> {
    touching_triangle_pairs(seed, count, |rng| {
        let (half_height, radius) = (rng.range(0.1, 0.6), rng.range(0.1, 0.4));
        sepax_geometry::Capsule::try_new(half_height, radius)
            .ok()
            .map(Shape::from)
    })
}

fn touching_triangle_pairs(
    seed: u64,
    count: usize,
    mut make: impl FnMut(&mut Rng) -> Option<Shape>,
) -> Vec<TrianglePair> {
    let mut rng = Rng::new(seed);
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count {
        let heights = [(); 3].map(|_| rng.range(-0.1, 0.1));
        let corners = [Vec3::ZERO, Vec3::Z, Vec3::X];
        let vertices = std::array::from_fn(|i| corners[i] + Vec3::Y * heights[i]);
        let Some(triangle) = MeshTriangle::lone(vertices) else {
            continue;
        };
        let Some(shape) = make(&mut rng) else {
            continue;
        };
        let rotation = rng.rotation();
        let (u, v) = (rng.unit(), rng.unit());
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        let [a, b, c] = vertices;
        let point = a + (b - a) * u + (c - a) * v;
        let n = triangle.normal;
        let reach = (rotation * shape.local_support(rotation.inverse() * -n)).dot(-n);
        let sink = rng.range(0.005, 0.03) * 2.0 * shape.bounding_radius();
        let pose = Pose::new(point + n * (reach - sink), rotation);
        let mesh_pose = Pose::IDENTITY;
        let truth = match &shape {
            Shape::Capsule(c) => triangle_capsule(&triangle, &mesh_pose, c, &pose),
            _ => triangle_vertex_projection_sat(&triangle, &mesh_pose, &shape, &pose),
        };
        let touching = truth.is_some_and(|o| o.separation < 0.0);
        if touching {
            pairs.push(TrianglePair {
                triangle,
                mesh_pose,
                shape,
                pose,
            });
        }
    }
    pairs
}

/// The triangles of `flat_floor(8, 1.0)` with their flags, and `count` boxes (half
/// extents 0.2–0.6) resting on it, sunk by 0.5–3% of their size, at random places over
/// the inner 6 × 6 cells and random turns about the vertical (tilted up to 2°), each
/// with the indices of the triangles whose boxes overlap its box: what a world's mesh
/// BVH hands the narrow phase. Draw order per box: half extents, position (x, z), turn,
/// tilt axis, tilt angle, sink.
#[allow(clippy::type_complexity)]
pub fn boxes_on_floor(
    seed: u64,
    count: usize,
) -> (Vec<MeshTriangle>, Vec<(Shape, Pose, Vec<u32>)>) {
    let triangles = triangles_with_flags(&flat_floor(8, 1.0));
    let mut rng = Rng::new(seed);
    let boxes = (0..count)
        .map(|_| {
            let half = rng.vec3(Vec3::splat(0.2), Vec3::splat(0.6));
            let shape =
                Shape::from(Cuboid::try_from_half_extents(half).unwrap_or_else(|_| unreachable!()));
            let (x, z) = (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            let turn = glam::Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
            let tilt = glam::Quat::from_axis_angle(rng.unit_vec3(), rng.range(0.0, 0.035));
            let rotation = turn * tilt;
            let reach = (rotation * shape.local_support(rotation.inverse() * -Vec3::Y)).y;
            let sink = rng.range(0.005, 0.03) * 2.0 * half.max_element();
            let pose = Pose::new(Vec3::new(x, -reach - sink, z), rotation);
            let bounds = shape.aabb(&pose);
            let under = triangles
                .iter()
                .enumerate()
                .filter(|(_, t)| {
                    let [a, b, c] = t.vertices;
                    let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
                    lo.cmple(bounds.max).all() && hi.cmpge(bounds.min).all()
                })
                .map(|(i, _)| i as u32)
                .collect();
            (shape, pose, under)
        })
        .collect();
    (triangles, boxes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_is_flat_inside_and_active_on_its_rim() {
        let mesh = flat_floor(4, 1.0);
        assert_eq!(mesh.indices.len(), 32);
        let tris = triangles_with_flags(&mesh);
        assert!(tris.iter().all(|t| t.normal == Vec3::Y));
        // Rim edges lie on |x| = 2 or |z| = 2; every other edge is flat.
        for t in &tris {
            for e in 0..3 {
                let (a, b) = (t.vertices[e], t.vertices[(e + 1) % 3]);
                let rim = (a.x.abs() == 2.0 && b.x == a.x) || (a.z.abs() == 2.0 && b.z == a.z);
                assert_eq!(t.active_edges[e], rim, "{t:?} edge {e}");
            }
        }
    }

    #[test]
    fn terrain_normals_face_up_and_bumps_are_active() {
        let mesh = rolling_terrain(16, 0.5, 0.3, 1.0);
        let tris = triangles_with_flags(&mesh);
        assert_eq!(tris.len(), 512);
        assert!(tris.iter().all(|t| t.normal.y > 0.5));
        let inner_active = tris
            .iter()
            .flat_map(|t| {
                (0..3).filter(move |&e| {
                    let (a, b) = (t.vertices[e], t.vertices[(e + 1) % 3]);
                    a.x.abs() < 3.9
                        && a.z.abs() < 3.9
                        && b.x.abs() < 3.9
                        && b.z.abs() < 3.9
                        && t.active_edges[e]
                })
            })
            .count();
        assert!(inner_active > 0, "convex bumps give active inner edges");
        let n = rolling_normal(0.0, 0.0, 0.3, 1.0);
        assert!((n - Vec3::new(-0.3, 1.0, 0.0).normalize()).length() < 1e-6);
    }
}
