//! A pinned hash of a fixed scene's reports (Box2D's `test_determinism` is the model):
//! 40 frames of 2,000 moving boxes and 400 hulls, with a quarantined body and a
//! removal, hashed (FNV-1a over the bit patterns of every contact, point, anchor, id,
//! match index and event) for 1, 2 and 4 threads, and with box pairs batched through
//! the SIMD SAT (`Config::batch_box_pairs`) on 1 and 2. All must equal each other and
//! the pinned value. Any change of an answer changes the hash: update `GOLDEN` on
//! purpose, with the reason in the commit message.
//!
//! The hash is only pinned for x86-64 (SSE2, no FMA: the default target), where it was
//! measured; elsewhere the thread counts are still compared with each other.

use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, EventKind, StepReport};
use sepax_testkit::scenes;

/// The hash of `run`'s reports: changed on purpose only.
const GOLDEN: u64 = 0x45ae_1fcd_dc81_97e6;

/// FNV-1a, 64 bits: stable across Rust versions and platforms, unlike `DefaultHasher`.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn u64(&mut self, v: u64) {
        for byte in v.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn f32(&mut self, v: f32) {
        self.u64(v.to_bits() as u64);
    }
    fn vec3(&mut self, v: Vec3) {
        for c in v.to_array() {
            self.f32(c);
        }
    }
    fn report(&mut self, r: &StepReport) {
        self.u64(r.candidate_pairs as u64);
        self.u64(r.contacts.len() as u64);
        for c in &r.contacts {
            self.u64(((c.a.index() as u64) << 32) | c.b.index() as u64);
            self.u64(c.touching as u64);
            self.u64(c.previous.map_or(u64::MAX, u64::from));
            for m in c.previous_points {
                self.u64(m.map_or(u64::MAX, u64::from));
            }
            self.vec3(c.manifold.normal);
            for p in &c.manifold.points {
                self.vec3(p.position);
                self.f32(p.depth);
                self.u64(p.id);
                self.vec3(p.anchor_a);
                self.vec3(p.anchor_b);
            }
        }
        self.u64(r.events.len() as u64);
        for e in &r.events {
            self.u64(((e.a.index() as u64) << 32) | e.b.index() as u64);
            self.u64(match e.kind {
                EventKind::Started => 0,
                EventKind::Ended(cause) => 1 + cause as u64,
            });
        }
        self.u64(r.quarantined.len() as u64);
    }
}

fn run(threads: usize, batch_box_pairs: bool) -> u64 {
    let boxes = scenes::soup(2000, 21);
    let hulls = scenes::hulls(400, 22);
    let mut world = CollisionWorld::new(Config {
        threads,
        margin: 0.01,
        narrow_chunk: 32,
        aabb_chunk: 128,
        batch_box_pairs,
        ..Config::default()
    })
    .unwrap();
    let mut box_handles = boxes.populate(&mut world).unwrap();
    let hull_handles = hulls.populate(&mut world).unwrap();
    let mut hash = Fnv::new();
    for frame in 0..40u32 {
        boxes.apply(&mut world, &box_handles, frame).unwrap();
        hulls.apply(&mut world, &hull_handles, frame).unwrap();
        if frame % 5 == 2 {
            world
                .set_pose(box_handles[3], Pose::from_translation(Vec3::NAN))
                .unwrap();
        }
        if frame == 20 {
            // Removed, and a new body takes its place (and its slot) in the scene.
            world.remove(box_handles[50]).unwrap();
            box_handles[50] = world
                .insert(BodyDesc::dynamic(
                    boxes.bodies[51].shape.clone(),
                    boxes.pose(50, 20),
                ))
                .unwrap();
        }
        hash.report(world.step());
    }
    hash.0
}

#[test]
fn pinned_hash_for_one_two_and_four_threads() {
    let one = run(1, false);
    assert_eq!(run(2, false), one, "2 threads differ from 1");
    assert_eq!(run(4, false), one, "4 threads differ from 1");
    // Box pairs batched through the SIMD SAT: the same bits.
    assert_eq!(run(1, true), one, "batched box pairs differ (1 thread)");
    assert_eq!(run(2, true), one, "batched box pairs differ (2 threads)");
    if cfg!(target_arch = "x86_64") {
        assert_eq!(one, GOLDEN, "the answers changed: {one:#x}");
    }
}
