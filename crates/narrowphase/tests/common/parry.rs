//! sepax shapes and poses as parry3d 0.31 takes them (through plain arrays: the two
//! sit on different glam versions), for the peer comparisons.

use parry3d::math::{Pose as PPose, Rotation as PRot, Vector as PVec};
use sepax_geometry::{Pose, Shape};

pub fn to_parry_pose(p: &Pose) -> PPose {
    let [x, y, z, w] = p.rotation.to_array();
    let [tx, ty, tz] = p.translation.to_array();
    PPose::from_parts(PVec::new(tx, ty, tz), PRot::from_xyzw(x, y, z, w))
}

pub fn to_parry_shape(s: &Shape) -> Box<dyn parry3d::shape::Shape> {
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
            Box::new(parry3d::shape::ConvexPolyhedron::from_convex_hull(&points).unwrap())
        }
        Shape::TriMesh(_) => unreachable!("the peer comparisons have no meshes"),
    }
}
