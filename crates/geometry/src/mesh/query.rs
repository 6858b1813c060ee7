//! Region and ray queries against a mesh, through its BVH, with their brute-force twins.
//!
//! Both walks keep their pending nodes in a fixed array on the call stack (the tree is
//! at most [`MAX_DEPTH`] deep), so a query allocates nothing; `query_aabb` writes into
//! the caller's buffer.
//!
//! **Ray–triangle test** (Möller–Trumbore, in f64 from the f32 data, so no product of
//! valid inputs overflows): with `e1 = b − a`, `e2 = c − a`, `p = d × e2`,
//! `det = e1 · p`; `det = 0` (the ray parallel to the plane) misses. Otherwise
//! `s = o − a`, `u = (s · p) / det`, `q = s × e1`, `v = (d · q) / det`,
//! `t = (e2 · q) / det`, and the ray hits when `u ≥ 0`, `v ≥ 0`, `u + v ≤ 1` and
//! `0 ≤ t ≤ max_t` (edges and corners included). `det > 0` is a hit on the front
//! (`d · normal < 0`). The test is not watertight at the round-off level: a ray through
//! a shared edge may, within about `1e-16` relative, miss both triangles.
//!
//! **Ray–box test** for the nodes: the slab test in f64, its entry lowered and its
//! exit raised by [`RAY_BOX_PAD`] (relative), so round-off never culls a node holding a
//! hit and the BVH answer equals the scan over all triangles.
//!
//! **Cost**, on a terrain of 100,352 triangles with unit cells: a 1 m box at the
//! surface (about 8 triangles found) takes about 2,100 instructions, a downward ray
//! about 6,800 (`query_workload` in `tests/mesh_bvh.rs`, release, under callgrind with
//! `--toggle-collect='*TriMesh*query_aabb'`, 100,000 queries).

use super::TriMesh;
use super::bvh::MAX_DEPTH;
use crate::{Aabb, is_valid_ray};
use glam::{DVec3, Vec3};

/// Relative widening of a node's ray interval, far above the f64 round-off of the slab
/// and triangle tests (a few `1e-16`).
const RAY_BOX_PAD: f64 = 1e-12;

/// The closest triangle a ray hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshRayHit {
    /// The triangle hit (an index for [`TriMesh::triangle`]).
    pub triangle: u32,
    /// The ray parameter of the hit, `origin + t * dir`.
    pub t: f32,
    /// The triangle's unit normal, turned to face the ray (`normal · dir ≤ 0`): the
    /// front normal when the ray hits the front, its opposite when it hits the back.
    pub normal: Vec3,
}

impl TriMesh {
    /// The triangles whose boxes ([`TriMesh::triangle_aabb`]) overlap `region` (closed
    /// intervals: touching counts), in ascending order. `out` is cleared first; no
    /// other memory is allocated. A region with a NaN coordinate overlaps nothing.
    ///
    /// ```
    /// use sepax_geometry::{Aabb, TriMesh};
    /// use glam::Vec3;
    /// let mesh = TriMesh::try_new(vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![[0, 2, 1]]).unwrap();
    /// let mut out = Vec::new();
    /// mesh.query_aabb(&Aabb::new(Vec3::splat(-1.0), Vec3::ZERO), &mut out);
    /// assert_eq!(out, vec![0]);
    /// ```
    pub fn query_aabb(&self, region: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        let nodes = self.bvh.nodes();
        let order = self.bvh.triangle_order();
        let mut stack = [0u32; MAX_DEPTH + 2];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let index = stack[len] as usize;
            let node = &nodes[index];
            if !node.aabb.overlaps(region) {
                continue;
            }
            match node.leaf_range() {
                Some(range) => out.extend(
                    order[range]
                        .iter()
                        .copied()
                        .filter(|&t| self.triangle_aabb(t).overlaps(region)),
                ),
                None => {
                    // Right child below the left one: the left subtree is walked first.
                    stack[len] = node.right_child().unwrap_or(index + 1) as u32;
                    stack[len + 1] = (index + 1) as u32;
                    len += 2;
                }
            }
        }
        out.sort_unstable();
    }

    /// The twin of [`TriMesh::query_aabb`] without the BVH: every triangle's box tested,
    /// in index order. The oracle of the tests.
    pub fn query_aabb_brute_force(&self, region: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            (0..self.triangle_count() as u32).filter(|&t| self.triangle_aabb(t).overlaps(region)),
        );
    }

    /// The closest triangle hit by the ray `origin + t * dir`, `t` in `[0, max_t]`
    /// (two-sided; ties go to the lower triangle index). `None` when nothing is hit
    /// or the ray is not valid ([`is_valid_ray`]). A ray lying in a triangle's plane
    /// does not hit it.
    pub fn cast_ray(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<MeshRayHit> {
        if !is_valid_ray(origin, dir, max_t) {
            return None;
        }
        let (o, d) = (origin.as_dvec3(), dir.as_dvec3());
        let inv = d.recip();
        let mut best: Option<(f64, u32, bool)> = None;
        let mut best_t = max_t as f64;

        let nodes = self.bvh.nodes();
        let order = self.bvh.triangle_order();
        let root_entry = ray_box_entry(&nodes[0].aabb, o, d, inv, best_t)?;
        let mut stack = [(0u32, 0.0f64); MAX_DEPTH + 2];
        stack[0] = (0, root_entry);
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (index, entry) = stack[len];
            if entry > best_t {
                continue;
            }
            let node = &nodes[index as usize];
            match node.leaf_range() {
                Some(range) => {
                    for &tri in &order[range] {
                        if let Some((t, front)) = self.ray_triangle(tri, o, d, best_t)
                            && best.is_none_or(|(bt, bi, _)| t < bt || (t == bt && tri < bi))
                        {
                            best = Some((t, tri, front));
                            best_t = t;
                        }
                    }
                }
                None => {
                    let left = index as usize + 1;
                    let right = node.right_child().unwrap_or(left);
                    let hit_left = ray_box_entry(&nodes[left].aabb, o, d, inv, best_t);
                    let hit_right = ray_box_entry(&nodes[right].aabb, o, d, inv, best_t);
                    // Nearer child on top of the stack.
                    let mut push = |child: usize, t: f64| {
                        stack[len] = (child as u32, t);
                        len += 1;
                    };
                    match (hit_left, hit_right) {
                        (Some(l), Some(r)) if r < l => {
                            push(left, l);
                            push(right, r);
                        }
                        (Some(l), Some(r)) => {
                            push(right, r);
                            push(left, l);
                        }
                        (Some(l), None) => push(left, l),
                        (None, Some(r)) => push(right, r),
                        (None, None) => {}
                    }
                }
            }
        }
        best.and_then(|(t, tri, front)| self.ray_hit(tri, t, front))
    }

    /// The twin of [`TriMesh::cast_ray`] without the BVH: every triangle tested. The
    /// oracle of the tests.
    pub fn cast_ray_brute_force(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<MeshRayHit> {
        if !is_valid_ray(origin, dir, max_t) {
            return None;
        }
        let (o, d) = (origin.as_dvec3(), dir.as_dvec3());
        let mut best: Option<(f64, u32, bool)> = None;
        for tri in 0..self.triangle_count() as u32 {
            if let Some((t, front)) = self.ray_triangle(tri, o, d, max_t as f64)
                && best.is_none_or(|(bt, _, _)| t < bt)
            {
                best = Some((t, tri, front));
            }
        }
        best.and_then(|(t, tri, front)| self.ray_hit(tri, t, front))
    }

    /// The hit record of triangle `tri` at `t`; `None` when `t` does not fit an f32.
    fn ray_hit(&self, tri: u32, t: f64, front: bool) -> Option<MeshRayHit> {
        let t = t as f32;
        let normal = self.normals[tri as usize];
        t.is_finite().then_some(MeshRayHit {
            triangle: tri,
            t,
            normal: if front { normal } else { -normal },
        })
    }

    /// Möller–Trumbore (module docs): `(t, hit the front)`, or `None`.
    fn ray_triangle(&self, tri: u32, o: DVec3, d: DVec3, max_t: f64) -> Option<(f64, bool)> {
        let [a, b, c] = self.triangles[tri as usize];
        let a = self.vertices[a as usize].as_dvec3();
        let e1 = self.vertices[b as usize].as_dvec3() - a;
        let e2 = self.vertices[c as usize].as_dvec3() - a;
        let p = d.cross(e2);
        let det = e1.dot(p);
        if det == 0.0 {
            return None;
        }
        let inv_det = 1.0 / det;
        let s = o - a;
        let u = s.dot(p) * inv_det;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(e1);
        let v = d.dot(q) * inv_det;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let t = e2.dot(q) * inv_det;
        (0.0..=max_t).contains(&t).then_some((t, det > 0.0))
    }
}

/// Slab test of the ray against `aabb` in f64, widened by [`RAY_BOX_PAD`]: a lower bound
/// of the entry parameter when the ray may meet the box within `[0, max_t]`.
fn ray_box_entry(aabb: &Aabb, o: DVec3, d: DVec3, inv: DVec3, max_t: f64) -> Option<f64> {
    let (lo, hi) = (aabb.min.as_dvec3(), aabb.max.as_dvec3());
    let mut enter = 0.0f64;
    let mut exit = max_t;
    for axis in 0..3 {
        if d[axis] == 0.0 {
            if o[axis] < lo[axis] || o[axis] > hi[axis] {
                return None;
            }
            continue;
        }
        let t0 = (lo[axis] - o[axis]) * inv[axis];
        let t1 = (hi[axis] - o[axis]) * inv[axis];
        enter = enter.max(t0.min(t1));
        exit = exit.min(t0.max(t1));
    }
    let enter = enter * (1.0 - RAY_BOX_PAD);
    (enter <= exit * (1.0 + RAY_BOX_PAD)).then_some(enter)
}
