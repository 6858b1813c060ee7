//! Shapes, point clouds and poses decoded from fuzzer bytes, and printed back as Rust.
//!
//! Every target decodes its input into *specs* first ([`ShapeSpec`], `Vec<Vec3>`,
//! [`Pose`]) and builds the sepax values from them. A spec keeps what the caller
//! passed (a hull's input points, not the vertices it ended up with), so a failing
//! input can be printed as the Rust code that reproduces it ([`ShapeSpec::rust`],
//! [`rust_pose`]).

use crate::bytes::{Bytes, Mode};
use glam::{Quat, Vec2, Vec3};
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere, TriMesh};

/// Most points a decoded cloud has.
pub const MAX_POINTS: usize = 40;

/// Most triangles a decoded list of triangles has.
pub const MAX_TRIANGLES: usize = 16;

/// A point cloud. One byte picks its kind:
/// * free points, each coordinate a [`Bytes::value`];
/// * a lattice: integer points in `[-2, 2]³` scaled per axis (a scale near zero gives a
///   slab, a needle or a flat cloud), rotated and moved, so duplicates, collinear and
///   coplanar subsets come up often, and their f32 rounding after the rotation too;
/// * a round cloud: lattice directions normalised and scaled per axis (many faces).
///
/// The count is one byte (0 to [`MAX_POINTS`]), so too few points happen as well.
pub fn points(b: &mut Bytes, mode: Mode) -> Vec<Vec3> {
    let kind = b.below(3);
    let n = b.below(MAX_POINTS + 1);
    match kind {
        0 => (0..n).map(|_| b.vec3(mode)).collect(),
        _ => {
            let scale = Vec3::new(b.magnitude(mode), b.magnitude(mode), b.magnitude(mode));
            let rotation = b.rotation(mode);
            let shift = b.vec3(mode);
            (0..n)
                .map(|_| {
                    let k = Vec3::new(
                        b.below(5) as f32 - 2.0,
                        b.below(5) as f32 - 2.0,
                        b.below(5) as f32 - 2.0,
                    );
                    let local = if kind == 1 {
                        k
                    } else {
                        k.try_normalize().unwrap_or(Vec3::X)
                    };
                    rotation * (local * scale) + shift
                })
                .collect()
        }
    }
}

/// What a caller passes to a shape constructor.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// `Sphere::try_new(radius)`.
    Sphere(f32),
    /// `Cuboid::try_from_half_extents(half_extents)`.
    Cuboid(Vec3),
    /// `ConvexHull::try_from_points(points)`.
    Hull(Vec<Vec3>),
    /// `Capsule::try_new(half_height, radius)`.
    Capsule(f32, f32),
    /// `TriMesh::try_new(vertices, triangles)`.
    Mesh(Vec<Vec3>, Vec<[u32; 3]>),
    /// `TriMesh::try_from_heights(columns, rows, cell, heights)`.
    Heights(usize, usize, Vec2, Vec<f32>),
}

impl ShapeSpec {
    /// A sphere, a box or a hull, by one byte.
    pub fn decode(b: &mut Bytes, mode: Mode) -> ShapeSpec {
        let tag = b.below(3);
        ShapeSpec::decode_tagged(tag, b, mode)
    }

    /// A box or a hull (for the oracle, which does not cover spheres).
    pub fn decode_polytope(b: &mut Bytes, mode: Mode) -> ShapeSpec {
        let tag = 1 + b.below(2);
        ShapeSpec::decode_tagged(tag, b, mode)
    }

    /// Any shape, by one byte: a sphere, a box or a hull as [`ShapeSpec::decode`]
    /// reads them (same tags), a capsule or a mesh.
    pub fn decode_any(b: &mut Bytes, mode: Mode) -> ShapeSpec {
        let tag = b.below(5);
        ShapeSpec::decode_tagged(tag, b, mode)
    }

    /// The shape of tag `tag`: 0 a sphere, 1 a box, 2 a hull, 3 a capsule, 4 a mesh.
    fn decode_tagged(tag: usize, b: &mut Bytes, mode: Mode) -> ShapeSpec {
        match tag {
            0 => ShapeSpec::Sphere(b.magnitude(mode)),
            1 => ShapeSpec::Cuboid(Vec3::new(
                b.magnitude(mode),
                b.magnitude(mode),
                b.magnitude(mode),
            )),
            2 => ShapeSpec::Hull(points(b, mode)),
            3 => ShapeSpec::decode_capsule(b, mode),
            _ => ShapeSpec::decode_mesh(b, mode),
        }
    }

    /// A capsule: half height, then radius.
    pub fn decode_capsule(b: &mut Bytes, mode: Mode) -> ShapeSpec {
        ShapeSpec::Capsule(b.magnitude(mode), b.magnitude(mode))
    }

    /// A small triangle mesh, by one byte:
    /// * a height field of 2 to 5 samples a side (cell sizes and heights are values, so
    ///   flat, folded, vertical and zero-sized cells come up);
    /// * free triangles: a point cloud ([`points`]: lattice clouds share and repeat
    ///   vertices, so neighbours, folds, slivers and repeated triangles come up), then
    ///   up to [`MAX_TRIANGLES`] triangles of vertex indices (any order: both windings).
    pub fn decode_mesh(b: &mut Bytes, mode: Mode) -> ShapeSpec {
        if b.below(2) == 0 {
            let (columns, rows) = (2 + b.below(4), 2 + b.below(4));
            let cell = Vec2::new(b.magnitude(mode), b.magnitude(mode));
            let heights = (0..columns * rows).map(|_| b.value(mode)).collect();
            ShapeSpec::Heights(columns, rows, cell, heights)
        } else {
            let vertices = points(b, mode);
            let n = vertices.len();
            let count = b.below(MAX_TRIANGLES + 1);
            let triangles = (0..count)
                .map(|_| [b.below(n), b.below(n), b.below(n)].map(|i| i as u32))
                .collect();
            ShapeSpec::Mesh(vertices, triangles)
        }
    }

    /// The shape, or `None` when its constructor refuses the values (with a named
    /// error: that is all a constructor owes bad input).
    pub fn build(&self) -> Option<Shape> {
        match self {
            ShapeSpec::Sphere(r) => Sphere::try_new(*r).ok().map(Shape::from),
            ShapeSpec::Cuboid(h) => Cuboid::try_from_half_extents(*h).ok().map(Shape::from),
            ShapeSpec::Hull(p) => ConvexHull::try_from_points(p).ok().map(Shape::from),
            ShapeSpec::Capsule(h, r) => Capsule::try_new(*h, *r).ok().map(Shape::from),
            ShapeSpec::Mesh(v, t) => TriMesh::try_new(v.clone(), t.clone()).ok().map(Shape::from),
            ShapeSpec::Heights(c, r, cell, h) => TriMesh::try_from_heights(*c, *r, *cell, h)
                .ok()
                .map(Shape::from),
        }
    }

    /// Rust code that builds the shape (`let {name}: Shape = ...;`).
    pub fn rust(&self, name: &str) -> String {
        match self {
            ShapeSpec::Sphere(r) => format!(
                "let {name}: Shape = Sphere::try_new({}).unwrap().into();",
                rust_f32(*r)
            ),
            ShapeSpec::Cuboid(h) => format!(
                "let {name}: Shape = Cuboid::try_from_half_extents({}).unwrap().into();",
                rust_vec3(*h)
            ),
            ShapeSpec::Hull(p) => format!(
                "let {name}: Shape = ConvexHull::try_from_points(&{}).unwrap().into();",
                rust_points(p)
            ),
            ShapeSpec::Capsule(h, r) => format!(
                "let {name}: Shape = Capsule::try_new({}, {}).unwrap().into();",
                rust_f32(*h),
                rust_f32(*r)
            ),
            ShapeSpec::Mesh(v, t) => format!(
                "let {name}: Shape = TriMesh::try_new(\n{}.to_vec(),\nvec!{t:?},\n).unwrap().into();",
                rust_points(v)
            ),
            ShapeSpec::Heights(c, r, cell, h) => format!(
                "let {name}: Shape = TriMesh::try_from_heights({c}, {r}, Vec2::new({}, {}), &[{}]).unwrap().into();",
                rust_f32(cell.x),
                rust_f32(cell.y),
                h.iter()
                    .map(|v| rust_f32(*v))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A pose: a translation and a [`Bytes::rotation`].
pub fn pose(b: &mut Bytes, mode: Mode) -> Pose {
    Pose::new(b.vec3(mode), b.rotation(mode))
}

/// A float as a Rust expression that gives the same bits (`{:?}` is the shortest
/// round-trip form).
pub fn rust_f32(v: f32) -> String {
    if v.is_nan() {
        "f32::NAN".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "f32::INFINITY"
        } else {
            "f32::NEG_INFINITY"
        }
        .into()
    } else {
        format!("{v:?}")
    }
}

/// `Vec3::new(x, y, z)`.
pub fn rust_vec3(v: Vec3) -> String {
    format!(
        "Vec3::new({}, {}, {})",
        rust_f32(v.x),
        rust_f32(v.y),
        rust_f32(v.z)
    )
}

/// `Quat::from_xyzw(x, y, z, w)`.
pub fn rust_quat(q: Quat) -> String {
    format!(
        "Quat::from_xyzw({}, {}, {}, {})",
        rust_f32(q.x),
        rust_f32(q.y),
        rust_f32(q.z),
        rust_f32(q.w)
    )
}

/// `Pose::new(translation, rotation)`.
pub fn rust_pose(p: &Pose) -> String {
    format!(
        "Pose::new({}, {})",
        rust_vec3(p.translation),
        rust_quat(p.rotation)
    )
}

/// `[Vec3::new(..), ...]`, one point per line.
pub fn rust_points(points: &[Vec3]) -> String {
    let mut s = String::from("[\n");
    for p in points {
        s += &format!("    {},\n", rust_vec3(*p));
    }
    s + "]"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_floats_round_trip() {
        for v in [0.1f32, -3e-45, 1.7e38, 1.0 + f32::EPSILON] {
            assert_eq!(rust_f32(v).parse::<f32>().unwrap().to_bits(), v.to_bits());
        }
        assert_eq!(rust_f32(f32::NEG_INFINITY), "f32::NEG_INFINITY");
    }

    #[test]
    fn lattice_clouds_hold_duplicates() {
        // Kind 1, 30 points, unit scale: 30 draws from 125 lattice points.
        let mut data = vec![1, 30, 0, 4, 0, 4, 0, 4, 0];
        data.extend((0..90u8).map(|i| i % 3));
        let p = points(&mut Bytes::new(&data), Mode::Ordinary);
        assert_eq!(p.len(), 30);
        assert!((1..p.len()).any(|i| p[..i].contains(&p[i])));
    }
}
