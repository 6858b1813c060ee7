//! The frame a pair query works in: shape b's pose relative to shape a's.
//!
//! Every pair query (separating axes, clipping, anchors) runs in a's local frame, with b
//! brought over once by a [`Frame`]; the answer is mapped back to the world at the end.
//! Working near a's origin keeps round-off small (Box2D's `b2CollidePolygons` does the
//! same), and computing the relative pose in f64 keeps it within half an ulp.

use glam::{DMat3, DVec3, Mat3, Vec3};
use sepax_geometry::Pose;

/// [`Frame`] in f64, not rounded: `R` and `t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FrameF64 {
    /// Rotates b-local vectors into a's frame.
    pub rot: DMat3,
    /// b's origin in a's frame.
    pub trans: DVec3,
}

impl FrameF64 {
    /// b's pose relative to a's in f64: with the unit quaternions `q_a`, `q_b`,
    /// `R = mat(q̄_a q_b)` and `t = q̄_a (t_b − t_a) q_a`.
    #[inline(always)]
    fn new(pose_a: &Pose, pose_b: &Pose) -> FrameF64 {
        // Accepted rotations are unit within 1e-3: rotating by the conjugate of `q_a`
        // scales by `|q_a|²`, which the division undoes; the product is normalised once.
        let qa = pose_a.rotation.as_dquat();
        let inv = qa.conjugate();
        let offset = pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3();
        FrameF64 {
            rot: DMat3::from_quat((inv * pose_b.rotation.as_dquat()).normalize()),
            trans: (inv * offset) / qa.length_squared(),
        }
    }

    /// Each entry rounded once to f32.
    #[inline(always)]
    fn rounded(&self) -> Frame {
        let rot = self.rot.as_mat3();
        Frame {
            rot,
            rot_t: rot.transpose(),
            trans: self.trans.as_vec3(),
        }
    }
}

/// Shape b's pose in shape a's frame, as a matrix and its transpose.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Rotates b-local vectors into a's frame.
    pub rot: Mat3,
    /// Rotates a-frame vectors into b's frame.
    pub rot_t: Mat3,
    /// b's origin in a's frame.
    pub trans: Vec3,
}

impl Frame {
    /// b's pose relative to a's, computed in f64 and rounded once: with the unit
    /// quaternions `q_a`, `q_b`, `R = mat(q̄_a q_b)` and `t = q̄_a (t_b − t_a) q_a`.
    ///
    /// Every axis, support point and depth of a query is derived from `R` and `t`, so
    /// their round-off sets the accuracy of everything after: in f32 the product of
    /// two quaternions and its matrix are off by a few ulps, which tilts an edge–edge
    /// axis by up to `~4e-7 / |e_a × e_b|` radians and moves its depth by that times the
    /// size. Rounded from f64, each entry is within half an ulp.
    pub fn new(pose_a: &Pose, pose_b: &Pose) -> Frame {
        FrameF64::new(pose_a, pose_b).rounded()
    }

    /// [`Frame::new`] and the same relation before rounding, for the few quantities
    /// that need it exact (the mesh tests' nearly parallel edges and short offsets,
    /// `mesh::local::ExactTriangle`).
    pub fn with_f64(pose_a: &Pose, pose_b: &Pose) -> (Frame, FrameF64) {
        let exact = FrameF64::new(pose_a, pose_b);
        (exact.rounded(), exact)
    }

    /// The same relation seen from b (a's pose in b's frame).
    pub fn inverse(&self) -> Frame {
        Frame {
            rot: self.rot_t,
            rot_t: self.rot,
            trans: -(self.rot_t * self.trans),
        }
    }

    /// A b-local point in a's frame.
    #[inline]
    pub fn point_to_a(&self, p: Vec3) -> Vec3 {
        self.rot * p + self.trans
    }

    /// An a-frame point in b's frame.
    #[inline]
    pub fn point_to_b(&self, p: Vec3) -> Vec3 {
        self.rot_t * (p - self.trans)
    }
}
