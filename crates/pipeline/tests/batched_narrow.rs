//! The step batches box–box pairs through `collide_box_pairs` and runs every other
//! kind of pair one by one: on a world mixing boxes, hulls and spheres, every
//! candidate pair's manifold in the first step (cold caches) is bit for bit what
//! `collide` gives for that pair alone. Guards the narrow pass's gather and scatter
//! (each answer back at its own pair, caches and outputs not shifted between pairs
//! of a chunk), for chunk sizes that cut the box batch at different places.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::{ConvexHull, Cuboid, Pose, Shape, Sphere};
use sepax_pipeline::narrowphase::{PairCache, collide};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config};

/// A tiny LCG: the same bodies on every platform.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

fn bodies() -> Vec<(Shape, Pose)> {
    let mut rng = Lcg(7);
    let hull = ConvexHull::try_from_points(&[
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(-0.4, 0.3, 0.1),
        Vec3::new(-0.3, -0.4, 0.2),
        Vec3::new(0.0, 0.1, -0.5),
        Vec3::new(0.1, 0.2, 0.45),
    ])
    .unwrap();
    (0..600)
        .map(|i| {
            let shape: Shape = match i % 5 {
                0 => hull.clone().into(),
                1 => Sphere::try_new(rng.range(0.2, 0.6)).unwrap().into(),
                _ => {
                    let half = Vec3::new(
                        rng.range(0.2, 0.7),
                        rng.range(0.2, 0.7),
                        rng.range(0.2, 0.7),
                    );
                    Cuboid::try_from_half_extents(half).unwrap().into()
                }
            };
            let at = Vec3::new(
                rng.range(0.0, 9.0),
                rng.range(0.0, 9.0),
                rng.range(0.0, 9.0),
            );
            let axis = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 1.0).normalize();
            let rotation = Quat::from_axis_angle(axis, rng.range(0.0, 6.0));
            (shape, Pose::new(at, rotation))
        })
        .collect()
}

#[test]
fn first_step_matches_collide_pair_by_pair() {
    let bodies = bodies();
    let settings = [(128, 0.0), (5, 0.0), (16, 0.05), (1000, 0.05)];
    for ((narrow_chunk, margin), batch_box_pairs) in
        settings.into_iter().flat_map(|s| [(s, true), (s, false)])
    {
        let mut world = CollisionWorld::new(Config {
            threads: 2,
            narrow_chunk,
            margin,
            batch_box_pairs,
            ..Config::default()
        })
        .unwrap();
        for (shape, pose) in &bodies {
            world
                .insert(BodyDesc::dynamic(shape.clone(), *pose))
                .unwrap();
        }
        let reported: Vec<_> = world.step().contacts.clone();
        let mut contacts = reported.iter().peekable();
        let (mut boxes, mut checked) = (0, 0);
        for (a, b) in world.candidate_pairs() {
            let (sa, pa) = &bodies[a.index() as usize];
            let (sb, pb) = &bodies[b.index() as usize];
            let alone = collide(sa, pa, sb, pb, margin, &mut PairCache::default());
            let reported = contacts
                .next_if(|c| c.a == a && c.b == b)
                .map(|c| c.manifold);
            assert_eq!(reported, alone, "pair {a:?} {b:?}, chunk {narrow_chunk}");
            if matches!((sa, sb), (Shape::Cuboid(_), Shape::Cuboid(_))) && alone.is_some() {
                boxes += 1;
            }
            checked += 1;
        }
        assert!(contacts.next().is_none(), "a contact of no candidate pair");
        assert!(
            boxes > 50 && checked > 300,
            "the scene must collide: {boxes} {checked}"
        );
    }
}
