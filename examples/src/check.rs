//! `stress --check`: every frame's candidate pairs against the broad phase's
//! [`BruteForce`], and every touching verdict against an oracle: the f64
//! vertex-projection SAT for boxes and hulls, the exact distance for spheres and
//! capsules against every shape, and for a mesh the one-sided twin over its triangles
//! (all from `sepax_narrowphase::oracle`).
//!
//! A verdict is only judged outside a band of `1e-5 ×` the pair's size around zero
//! separation: inside it, f32 round-off may decide either way and both answers are
//! right.

use rayon::prelude::*;
use sepax_pipeline::broadphase::{BruteForce, ProxyId};
use sepax_pipeline::geometry::{Pose, Shape};
use sepax_pipeline::narrowphase::oracle::mesh::mesh_separation;
use sepax_pipeline::narrowphase::oracle::{
    capsule_separation, sphere_separation, vertex_projection_sat,
};
use sepax_pipeline::{BodyHandle, CollisionWorld};
use std::collections::HashSet;

/// Relative width of the undecided band around zero separation.
pub const BAND: f64 = 1e-5;

/// The exact separation of two shapes (positive apart, negative penetrating) or `None`
/// when a pose is not a valid rigid transform (or a mesh's twin cannot judge the pair:
/// see [`mesh_separation`]).
pub fn oracle_separation(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Option<f64> {
    match (a, b) {
        _ if !(pa.is_valid() && pb.is_valid()) => None,
        (Shape::TriMesh(m), _) => mesh_separation(m, pa, b, pb),
        (_, Shape::TriMesh(m)) => mesh_separation(m, pb, a, pa),
        (Shape::Sphere(s), _) => Some(sphere_separation(s.radius(), pa, b, pb)),
        (_, Shape::Sphere(s)) => Some(sphere_separation(s.radius(), pb, a, pa)),
        (Shape::Capsule(c), _) => Some(capsule_separation(c, pa, b, pb)),
        (_, Shape::Capsule(c)) => Some(capsule_separation(c, pb, a, pa)),
        _ => vertex_projection_sat(a, pa, b, pb).map(|o| o.separation),
    }
}

/// A body's size for the band: twice its bounding radius (0 for a mesh: the band of a
/// mesh pair is the convex body's).
fn size(shape: &Shape) -> f64 {
    match shape {
        Shape::TriMesh(_) => 0.0,
        _ => 2.0 * shape.bounding_radius() as f64,
    }
}

/// Compares a world's last step with the oracles. Keeps a [`BruteForce`] fed with the
/// same AABBs across frames.
#[derive(Default)]
pub struct Checker {
    brute: BruteForce,
    /// The body of each slot index with a brute-force proxy (keyed by the slot index,
    /// as in the world's broad phase; `None`: no AABB this frame).
    owners: Vec<Option<BodyHandle>>,
    /// Pairs judged so far and pairs left unjudged (a pose no oracle takes).
    pub judged: u64,
    pub unjudged: u64,
}

impl Checker {
    /// A checker with an empty brute force.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Checks the last step of `world`; `Err` describes the first mismatch.
    pub fn check(&mut self, world: &CollisionWorld) -> Result<(), String> {
        self.check_candidates(world)?;
        self.check_verdicts(world)
    }

    fn check_candidates(&mut self, world: &CollisionWorld) -> Result<(), String> {
        // Bodies removed since the last check leave the brute force.
        for (i, owner) in self.owners.iter_mut().enumerate() {
            if owner.is_some_and(|h| !world.contains(h)) {
                self.brute
                    .remove(ProxyId(i as u32))
                    .map_err(|e| e.to_string())?;
                *owner = None;
            }
        }
        for h in world.handles() {
            let i = h.index() as usize;
            if self.owners.len() <= i {
                self.owners.resize(i + 1, None);
            }
            let key = ProxyId(h.index());
            let aabb = world.aabb(h).map_err(|e| e.to_string())?;
            match (self.owners[i], aabb) {
                (Some(_), Some(b)) => self.brute.update(key, b).map_err(|e| e.to_string())?,
                (None, Some(b)) => {
                    let kind = world.kind(h).map_err(|e| e.to_string())?;
                    self.brute.insert(key, b, kind).map_err(|e| e.to_string())?;
                    self.owners[i] = Some(h);
                }
                (Some(_), None) => {
                    self.brute.remove(key).map_err(|e| e.to_string())?;
                    self.owners[i] = None;
                }
                (None, None) => {}
            }
        }
        // Brute force applies the same kind rule (a pair needs a dynamic body).
        self.brute.update_pairs();
        let owner = |p: ProxyId| self.owners[p.0 as usize];
        let mut expected: Vec<(BodyHandle, BodyHandle)> = self
            .brute
            .pairs()
            .iter()
            .filter_map(|&(p, q)| Some((owner(p)?, owner(q)?)))
            .collect();
        expected.sort_unstable();
        let got = world.candidate_pairs();
        if got != expected {
            let g: HashSet<_> = got.iter().collect();
            let e: HashSet<_> = expected.iter().collect();
            let missing = e.difference(&g).next();
            let extra = g.difference(&e).next();
            return Err(format!(
                "candidate pairs: {} from the broad phase, {} from brute force; first missing {:?}, first extra {:?}",
                got.len(),
                expected.len(),
                missing,
                extra
            ));
        }
        Ok(())
    }

    fn check_verdicts(&mut self, world: &CollisionWorld) -> Result<(), String> {
        let touching: HashSet<(BodyHandle, BodyHandle)> =
            world.report().contacts.iter().map(|c| (c.a, c.b)).collect();
        let pairs = world.candidate_pairs();
        let results: Vec<Result<bool, String>> = pairs
            .par_iter()
            .with_min_len(64)
            .map(|&(a, b)| {
                let (sa, sb) = (world.shape(a).unwrap(), world.shape(b).unwrap());
                let (pa, pb) = (world.pose(a).unwrap(), world.pose(b).unwrap());
                let groups_ok = world.groups(a).unwrap().interacts(&world.groups(b).unwrap());
                let Some(sep) = oracle_separation(sa, &pa, sb, &pb) else {
                    return Ok(false);
                };
                let band = BAND * size(sa).max(size(sb)).max(1.0);
                let says = touching.contains(&(a, b));
                let wrong = if groups_ok {
                    (says && sep > band) || (!says && sep < -band)
                } else {
                    says
                };
                if wrong {
                    Err(format!(
                        "pair ({}, {}): world says touching={says}, oracle separation {sep:e} (band {band:e})",
                        a.index(),
                        b.index()
                    ))
                } else {
                    Ok(true)
                }
            })
            .collect();
        for r in results {
            match r? {
                true => self.judged += 1,
                false => self.unjudged += 1,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use sepax_pipeline::Config;
    use sepax_pipeline::geometry::{Cuboid, Sphere};
    use sepax_testkit::scenes;

    #[test]
    fn sphere_formulas() {
        let ball = Shape::from(Sphere::try_new(1.0).unwrap());
        let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(1.0)).unwrap());
        let at = |x: f32, y: f32| Pose::from_translation(Vec3::new(x, y, 0.0));
        let s = oracle_separation(&ball, &at(0.0, 0.0), &ball, &at(3.0, 0.0)).unwrap();
        assert!((s - 1.0).abs() < 1e-12);
        // Corner region: distance to the corner (1, 1) minus the radius.
        let s = oracle_separation(&ball, &at(3.0, 3.0), &cube, &at(0.0, 0.0)).unwrap();
        assert!((s - (8f64.sqrt() - 1.0)).abs() < 1e-6);
        // Inside: minus the distance to the nearest face, minus the radius.
        let s = oracle_separation(&cube, &at(0.0, 0.0), &ball, &at(0.5, 0.0)).unwrap();
        assert!((s - (-0.5 - 1.0)).abs() < 1e-6);
    }

    #[test]
    fn checker_accepts_a_correct_world_and_rejects_a_wrong_verdict() {
        let scene = scenes::soup(300, 2);
        let mut world = CollisionWorld::new(Config::default()).unwrap();
        let handles = scene.populate(&mut world).unwrap();
        let mut checker = Checker::new();
        for frame in 0..3 {
            scene.apply(&mut world, &handles, frame).unwrap();
            world.step();
            checker.check(&world).unwrap();
        }
        assert!(checker.judged > 100);
        // Move one body of a touching pair far away without stepping: the report still
        // says touching, the poses say apart, so the checker must object.
        let contact = world.report().contacts[0];
        let far = Pose::from_translation(Vec3::splat(1e4));
        world.set_pose(contact.b, far).unwrap();
        let mut fresh = Checker::new();
        assert!(fresh.check(&world).unwrap_err().contains("touching=true"));
    }
}
