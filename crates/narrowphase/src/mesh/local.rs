//! A mesh triangle and a convex shape in the convex's frame: where every triangle
//! query runs.
//!
//! The triangles of a mesh lie anywhere in the mesh's frame (a terrain 100 m wide), the
//! convex near its own origin, so the pair works in the **convex's** frame: the mesh
//! pose relative to the convex is computed once per (mesh, convex) pair in f64
//! ([`Frame`]), and each triangle is brought over with one rotation and one translation
//! of its three corners and normal. Every axis, depth and point below is in this frame;
//! the normals point from the triangle (the mesh, shape a of the pair) to the convex.

use crate::frame::{Frame, FrameF64};
use crate::polytope::Polytope;
use glam::{DVec3, Vec3};
use sepax_geometry::MeshTriangle;

/// A mesh triangle in the convex's frame, with its plane and flags.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalTriangle {
    /// Corners, counter-clockwise about `normal`.
    pub vertices: [Vec3; 3],
    /// Unit front normal.
    pub normal: Vec3,
    /// `normal · vertices[0]`: the plane is `normal · x = offset`.
    pub offset: f32,
    /// Edge `i` runs from corner `i` to corner `i + 1`.
    pub active_edges: [bool; 3],
    pub active_vertices: [bool; 3],
}

impl LocalTriangle {
    /// `triangle` (mesh frame) in the convex's frame; `mesh_in_convex` places the mesh
    /// there (its `point_to_a` maps mesh points to convex points).
    #[inline]
    pub fn new(triangle: &MeshTriangle, mesh_in_convex: &Frame) -> LocalTriangle {
        // (Spelled out: `[T; 3]::map` left a call per corner in the profile.)
        let [a, b, c] = triangle.vertices;
        let vertices = [
            mesh_in_convex.point_to_a(a),
            mesh_in_convex.point_to_a(b),
            mesh_in_convex.point_to_a(c),
        ];
        // The rotation is orthonormal to f32 round-off; normalising keeps depths exact.
        let normal = (mesh_in_convex.rot * triangle.normal).normalize();
        LocalTriangle {
            vertices,
            normal,
            offset: normal.dot(vertices[0]),
            active_edges: triangle.active_edges,
            active_vertices: triangle.active_vertices,
        }
    }

    /// Are the corners and the plane finite?
    #[inline]
    pub fn is_finite(&self) -> bool {
        (self.vertices[0] + self.vertices[1] + self.vertices[2]).is_finite()
            && self.offset.is_finite()
    }

    /// The segment of edge `i`.
    #[inline]
    pub fn edge(&self, i: usize) -> (Vec3, Vec3) {
        (self.vertices[i], self.vertices[(i + 1) % 3])
    }

    /// The squared length of edge `i`, in f64.
    #[inline]
    pub fn edge_length_squared(&self, i: usize) -> f64 {
        let (a, b) = self.edge(i);
        (b.as_dvec3() - a.as_dvec3()).length_squared()
    }

    /// The longest edge's length: the triangle's size, for tolerances.
    pub fn size(&self) -> f32 {
        let [a, b, c] = self.vertices;
        (b - a).length().max((c - b).length()).max((a - c).length())
    }
}

/// A triangle in the convex's frame without round-off, in f64, for the few quantities
/// round-off would swamp: the mesh-frame corners (f32, so exact in f64) under the
/// relative pose kept in f64.
///
/// [`LocalTriangle`]'s corners are rounded once into the convex's frame, each off by
/// about an ulp of its coordinates, and so is each edge built from them. That is
/// harmless for a gap, but the axis `e × g` of two edges `φ` apart turns by that error
/// over `φ` (0.03 rad for edges 1.7e-7 apart, and the gap along it 3.6e-4 short of the
/// exact axis'), and the direction of an offset of length `D` turns by it over `D` (5e-5
/// rad for a capsule's end 1e-3 from an edge). From these corners the first is good to
/// about 1e-16 / φ, the second to 1e-16 / D. Only such axes and offsets ask, so the
/// f64 work stays off the common path.
#[derive(Clone, Copy)]
pub(crate) struct ExactTriangle<'a> {
    frame: &'a FrameF64,
    corners: &'a [Vec3; 3],
}

impl<'a> ExactTriangle<'a> {
    /// `triangle` (mesh frame) placed in the convex's frame by `frame` (from
    /// [`Frame::with_f64`]).
    #[inline]
    pub fn new(frame: &'a FrameF64, triangle: &'a MeshTriangle) -> ExactTriangle<'a> {
        ExactTriangle {
            frame,
            corners: &triangle.vertices,
        }
    }

    /// Edge `i` (corner `i` to corner `i + 1`), in the convex's frame.
    #[inline]
    pub fn edge(&self, i: usize) -> DVec3 {
        let c = self.corners;
        self.frame.rot * (c[(i + 1) % 3].as_dvec3() - c[i].as_dvec3())
    }

    /// Corner `i`, in the convex's frame.
    #[inline]
    pub fn corner(&self, i: usize) -> DVec3 {
        self.frame.rot * self.corners[i].as_dvec3() + self.frame.trans
    }
}

/// The convex shape of a triangle pair, in its own frame. A box keeps its half extents
/// for the closed-form 13-axis test and its numbering of edges, with a polytope view
/// (built once per mesh pair) for the clipper.
#[derive(Clone, Copy)]
pub(crate) enum Convex<'a> {
    Box { half: Vec3, poly: Polytope<'a> },
    Hull(Polytope<'a>),
}

impl<'a> Convex<'a> {
    /// The polytope view the clipper reads.
    #[inline]
    pub fn polytope(&self) -> &Polytope<'a> {
        match self {
            Convex::Box { poly, .. } | Convex::Hull(poly) => poly,
        }
    }

    /// The point whose side of a triangle's plane decides one-sidedness: a box's centre,
    /// a hull's centroid.
    #[inline]
    pub fn centre(&self) -> Vec3 {
        match self {
            Convex::Box { .. } => Vec3::ZERO,
            Convex::Hull(poly) => poly.centroid,
        }
    }
}
