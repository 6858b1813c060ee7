//! Scene queries: which bodies overlap a box, which body a ray hits first.
//!
//! Both see the bodies at their **current** poses. Culling uses the static BVH of the
//! broad phase for the static bodies unchanged since the last step, and the AABBs of
//! the last step for the others; a body changed since the last step gets a fresh
//! AABB. Quarantined bodies (bad poses) are never reported.

use crate::ray::{RayHit, is_valid_ray, ray_shape};
use crate::store::{Body, BodyStore};
use crate::{BodyHandle, BodyKind, CollisionWorld, WorldError};
use glam::Vec3;
use sepax_broadphase::{ProxyId, SweepAndPrune};
use sepax_geometry::Aabb;

/// Which bodies the static BVH answers for, and the culling boxes of the others.
struct Culling<'w> {
    bodies: &'w BodyStore,
    broad: &'w SweepAndPrune,
    /// The broad phase has a static BVH (built at the last step).
    bvh: bool,
}

impl Culling<'_> {
    /// True when the BVH holds slot `index` at its current pose: a static body in the
    /// broad phase, unchanged since the last step (static proxies change only at a
    /// step, and the BVH is rebuilt then).
    fn in_bvh(&self, index: u32) -> bool {
        self.bvh
            && self.bodies.kind(index) == Some(BodyKind::Static)
            && !self.bodies.changed_since_step(index)
            && self.broad.contains(ProxyId(index))
    }

    /// Culling box of a body at its current pose (`None` for a bad pose): the last
    /// step's AABB when the body has not changed since, else a fresh one.
    fn cull_box(&self, index: u32, body: &Body) -> Option<Aabb> {
        if !self.bodies.changed_since_step(index)
            && let Ok(aabb) = self.broad.aabb(ProxyId(index))
        {
            return Some(aabb);
        }
        if !body.pose.is_valid() {
            return None;
        }
        Some(body.shape.aabb(&body.pose)).filter(Aabb::is_valid)
    }

    /// Calls `f(index, body)` for every live body the BVH does not cover.
    fn for_each_unindexed(&self, mut f: impl FnMut(u32, &Body)) {
        for (i, body) in self.bodies.iter() {
            if !self.in_bvh(i) {
                f(i, body);
            }
        }
    }
}

impl CollisionWorld {
    fn culling(&self) -> Culling<'_> {
        let (bodies, broad) = self.parts();
        Culling {
            bodies,
            broad,
            bvh: broad.static_bvh().is_some(),
        }
    }

    /// Every body whose tight AABB at its current pose overlaps `region` (closed boxes:
    /// touching counts), sorted by slot index.
    ///
    /// Errors: `InvalidRegion` for a NaN or infinite value or `min > max`.
    ///
    /// ```
    /// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Aabb, Pose, Sphere};
    /// use glam::Vec3;
    ///
    /// let mut world = CollisionWorld::new(Config::default()).unwrap();
    /// let ball = Sphere::try_new(1.0).unwrap();
    /// let near = world.insert(BodyDesc::fixed(ball, Pose::IDENTITY)).unwrap();
    /// world.insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X * 10.0))).unwrap();
    /// world.step();
    /// let hits = world.query_aabb(&Aabb::new(Vec3::splat(0.5), Vec3::splat(2.0))).unwrap();
    /// assert_eq!(hits, vec![near]);
    /// ```
    pub fn query_aabb(&self, region: &Aabb) -> Result<Vec<BodyHandle>, WorldError> {
        region.validate().map_err(|_| WorldError::InvalidRegion)?;
        let mut indices = Vec::new();
        let exact =
            |body: &Body| body.pose.is_valid() && body.shape.aabb(&body.pose).overlaps(region);
        let culling = self.culling();
        if let Some(tree) = culling.broad.static_bvh() {
            let mut ids = Vec::new();
            if tree.query_aabb(region, &mut ids).is_ok() {
                for ProxyId(index) in ids {
                    let body = culling.bodies.live(index);
                    if culling.in_bvh(index) && body.is_some_and(exact) {
                        indices.push(index);
                    }
                }
            }
        }
        culling.for_each_unindexed(|i, body| {
            if culling
                .cull_box(i, body)
                .is_some_and(|b| b.overlaps(region))
                && exact(body)
            {
                indices.push(i);
            }
        });
        indices.sort_unstable();
        Ok(indices
            .into_iter()
            .filter_map(|i| self.handle_at(i))
            .collect())
    }

    /// The first body hit by the ray `origin + t * dir`, `t` in `[0, max_t]`, and where
    /// it enters it: the exact hit parameter, point and surface normal (spheres, boxes,
    /// capsules, hulls; [`ray_shape`] for one body); ties go to the smaller
    /// slot index. A ray starting inside a body hits it at `t = 0` with normal
    /// `−dir / |dir|`. `dir` need not be unit length.
    ///
    /// Errors: `InvalidRay` for a non-finite origin, a NaN or negative `max_t`
    /// (`f32::INFINITY` is allowed), or a direction whose squared length is not a
    /// normal `f32` (zero, denormal, longer than about `1.8e19`, non-finite; see
    /// [`is_valid_ray`]). A hit always has a finite `t` and a
    /// finite point: a hit whose point would pass `±f32::MAX` is not reported.
    ///
    /// ```
    /// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Cuboid, Pose};
    /// use glam::Vec3;
    ///
    /// let mut world = CollisionWorld::new(Config::default()).unwrap();
    /// let wall = Cuboid::try_from_half_extents(Vec3::new(0.5, 5.0, 5.0)).unwrap();
    /// let h = world.insert(BodyDesc::fixed(wall, Pose::from_translation(Vec3::X * 3.0))).unwrap();
    /// world.step();
    /// let (body, hit) = world.cast_ray(Vec3::ZERO, Vec3::X, f32::INFINITY).unwrap().unwrap();
    /// assert_eq!((body, hit.t, hit.normal), (h, 2.5, -Vec3::X));
    /// assert_eq!(hit.point, Vec3::new(2.5, 0.0, 0.0));
    /// ```
    pub fn cast_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
    ) -> Result<Option<(BodyHandle, RayHit)>, WorldError> {
        if !is_valid_ray(origin, dir, max_t) {
            return Err(WorldError::InvalidRay);
        }
        let mut best: Option<(f32, u32, RayHit)> = None;
        let consider = |index: u32, body: &Body, best: &mut Option<(f32, u32, RayHit)>| {
            let bound = best.map_or(max_t, |b| b.0);
            if let Some(hit) = ray_shape(&body.shape, &body.pose, origin, dir, bound) {
                let better = match best {
                    None => true,
                    Some((t, i, _)) => hit.t < *t || (hit.t == *t && index < *i),
                };
                if better {
                    *best = Some((hit.t, index, hit));
                }
            }
        };
        let culling = self.culling();
        if let Some(tree) = culling.broad.static_bvh() {
            // Hits come sorted by AABB entry: once an entry is past the best hit, stop.
            if let Ok(hits) = tree.cast_ray(origin, dir, max_t) {
                for h in hits {
                    if best.is_some_and(|b| h.t > b.0) {
                        break;
                    }
                    let index = h.id.0;
                    if let Some(body) = culling.bodies.live(index)
                        && culling.in_bvh(index)
                    {
                        consider(index, body, &mut best);
                    }
                }
            }
        }
        culling.for_each_unindexed(|i, body| {
            let bound = best.map_or(max_t, |b| b.0);
            if culling
                .cull_box(i, body)
                .is_some_and(|b| b.ray_entry(origin, dir, bound).is_some())
            {
                consider(i, body, &mut best);
            }
        });
        Ok(best.and_then(|(_, index, hit)| Some((self.handle_at(index)?, hit))))
    }
}
