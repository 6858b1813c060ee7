//! sepax (glam 0.34) → parry3d 0.31 (glam 0.33 through glamx), through plain arrays.

use parry3d::math::{Pose as PPose, Rotation as PRot, Vector as PVec};
use sepax_geometry::{MeshTriangle, Pose, Shape};

/// A parry pose equal to `p`.
pub fn pose(p: &Pose) -> PPose {
    let [x, y, z, w] = p.rotation.to_array();
    let [tx, ty, tz] = p.translation.to_array();
    PPose::from_parts(PVec::new(tx, ty, tz), PRot::from_xyzw(x, y, z, w))
}

/// A parry shape equal to `s`: `Cuboid`, `Ball`, `Capsule` (along y, as sepax's), or
/// `ConvexPolyhedron` from the hull's vertices, `TriMesh` (with
/// `FIX_INTERNAL_EDGES`, parry's own ghost-collision fix) from the mesh's kept triangles.
pub fn shape(s: &Shape) -> Box<dyn parry3d::shape::Shape> {
    match s {
        Shape::Cuboid(c) => {
            let [x, y, z] = c.half_extents().to_array();
            Box::new(parry3d::shape::Cuboid::new(PVec::new(x, y, z)))
        }
        Shape::Sphere(sp) => Box::new(parry3d::shape::Ball::new(sp.radius())),
        Shape::Capsule(c) => Box::new(parry3d::shape::Capsule::new_y(c.half_height(), c.radius())),
        Shape::ConvexHull(h) => {
            let points: Vec<PVec> = h
                .vertices()
                .iter()
                .map(|v| PVec::new(v.x, v.y, v.z))
                .collect();
            Box::new(
                parry3d::shape::ConvexPolyhedron::from_convex_hull(&points)
                    .expect("a sepax hull is a valid parry hull"),
            )
        }
        Shape::TriMesh(m) => Box::new(trimesh(m)),
    }
}

/// A parry triangle mesh of the same kept triangles, with `FIX_INTERNAL_EDGES`.
pub fn trimesh(m: &sepax_geometry::TriMesh) -> parry3d::shape::TriMesh {
    let vertices: Vec<PVec> = m
        .vertices()
        .iter()
        .map(|v| PVec::new(v.x, v.y, v.z))
        .collect();
    parry3d::shape::TriMesh::with_flags(
        vertices,
        m.indices().to_vec(),
        parry3d::shape::TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .expect("a sepax mesh is a valid parry mesh")
}

/// A parry triangle with the same corners (parry's triangles are two-sided).
pub fn triangle(t: &MeshTriangle) -> parry3d::shape::Triangle {
    let [a, b, c] = t.vertices.map(|v| PVec::new(v.x, v.y, v.z));
    parry3d::shape::Triangle::new(a, b, c)
}
