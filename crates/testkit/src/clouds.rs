//! Box clouds for the broad phase: axis-aligned boxes at random places, still or
//! moving.
//!
//! * [`random_boxes`] / [`boxes_in`]: a still cloud (the broad-phase tests).
//! * [`MovingBoxes`]: a cloud with a velocity per box, stepped frame by frame (the
//!   broad-phase bench): [`coherent`](MovingBoxes::coherent) boxes bounce off the walls
//!   of their region, [`teleport`](MovingBoxes::teleport) boxes jump between two
//!   precomputed layouts.
//! * [`floor_tiles`] + [`floor_movers`]: the broad-phase bench's `static_heavy` group,
//!   50,000 static tiles under 1,000 moving boxes. Not the world scene
//!   [`scenes::static_heavy`](crate::scenes::static_heavy), whose statics are random
//!   boxes in a cube.
//!
//! Every box is drawn centre first, then size: `Aabb(c − s/2, c + s/2)`.

use glam::Vec3;
use sepax_geometry::{Aabb, rng::Rng};

/// `n` boxes with centres uniform in `[lo, hi]` and sides uniform in
/// `[size_lo, size_hi]`.
pub fn boxes_in(
    rng: &mut Rng,
    n: usize,
    lo: Vec3,
    hi: Vec3,
    size_lo: f32,
    size_hi: f32,
) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c = rng.vec3(lo, hi);
            let s = rng.vec3(Vec3::splat(size_lo), Vec3::splat(size_hi));
            Aabb::new(c - 0.5 * s, c + 0.5 * s)
        })
        .collect()
}

/// `n` boxes with centres uniform in a cube of half side `half` about the origin and
/// sides in `[lo, hi]`.
pub fn random_boxes(rng: &mut Rng, n: usize, half: f32, lo: f32, hi: f32) -> Vec<Aabb> {
    boxes_in(rng, n, Vec3::splat(-half), Vec3::splat(half), lo, hi)
}

/// Boxes that move: the current boxes and a velocity per box, inside `[lo, hi]`.
#[derive(Clone, Debug)]
pub struct MovingBoxes {
    /// The boxes of the current frame.
    pub boxes: Vec<Aabb>,
    vel: Vec<Vec3>,
    lo: Vec3,
    hi: Vec3,
    /// Teleport layouts, alternated each frame when present.
    layouts: Option<[Vec<Aabb>; 2]>,
    frame: usize,
}

impl MovingBoxes {
    /// `n` boxes (sides 0.5–1.5) in a cube of side `2.5 ∛n` at the origin's corner,
    /// about one overlap per box, each moving 1% of its largest side per frame in a
    /// random direction.
    pub fn coherent(n: usize, seed: u64) -> MovingBoxes {
        let side = 2.5 * (n as f32).cbrt();
        Self::in_region(n, seed, Vec3::ZERO, Vec3::splat(side))
    }

    /// `n` boxes (sides 0.5–1.5) with centres in `[lo, hi]`, moving as in
    /// [`coherent`](Self::coherent).
    pub fn in_region(n: usize, seed: u64, lo: Vec3, hi: Vec3) -> MovingBoxes {
        let mut rng = Rng::new(seed);
        let boxes = boxes_in(&mut rng, n, lo, hi, 0.5, 1.5);
        let vel = boxes
            .iter()
            .map(|b| rng.unit_vec3() * 0.01 * b.size().max_element())
            .collect();
        MovingBoxes {
            boxes,
            vel,
            lo,
            hi,
            layouts: None,
            frame: 0,
        }
    }

    /// The boxes of [`coherent`](Self::coherent), but every frame every box jumps to a
    /// fresh place: two layouts drawn from `seed ^ 0xABCD`, alternated.
    pub fn teleport(n: usize, seed: u64) -> MovingBoxes {
        let mut m = Self::coherent(n, seed);
        let mut rng = Rng::new(seed ^ 0xABCD);
        let a = boxes_in(&mut rng, n, m.lo, m.hi, 0.5, 1.5);
        let b = boxes_in(&mut rng, n, m.lo, m.hi, 0.5, 1.5);
        m.layouts = Some([a, b]);
        m
    }

    /// True when the boxes teleport rather than move.
    pub fn teleports(&self) -> bool {
        self.layouts.is_some()
    }

    /// One frame of motion: every box moves by its velocity, and a box whose centre
    /// left the region turns back (velocity negated per axis); teleporting boxes take
    /// the next layout.
    pub fn step(&mut self) {
        self.frame += 1;
        if let Some(layouts) = &self.layouts {
            self.boxes.copy_from_slice(&layouts[self.frame % 2]);
            return;
        }
        for (b, v) in self.boxes.iter_mut().zip(self.vel.iter_mut()) {
            let c = b.center() + *v;
            let flip = c.cmplt(self.lo) | c.cmpgt(self.hi);
            *v = Vec3::select(flip, -*v, *v);
            b.min += *v;
            b.max += *v;
        }
    }
}

/// 50,000 floor tiles (250 × 200, 1 × 1, bottoms at −1, tops jittered by ±0.05, seed
/// 99) under the region of [`floor_movers`].
pub fn floor_tiles() -> Vec<Aabb> {
    let mut rng = Rng::new(99);
    let mut tiles = Vec::with_capacity(50_000);
    for i in 0..250 {
        for k in 0..200 {
            let top = rng.range(-0.05, 0.05);
            let min = Vec3::new(i as f32, -1.0, k as f32);
            tiles.push(Aabb::new(
                min,
                Vec3::new(i as f32 + 1.0, top, k as f32 + 1.0),
            ));
        }
    }
    tiles
}

/// 1,000 moving boxes (seed 7) above and on [`floor_tiles`]: centres in
/// `[0, 250] × [−0.2, 6] × [0, 200]`.
pub fn floor_movers() -> MovingBoxes {
    MovingBoxes::in_region(
        1000,
        7,
        Vec3::new(0.0, -0.2, 0.0),
        Vec3::new(250.0, 6.0, 200.0),
    )
}
