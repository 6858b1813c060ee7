//! The stacking scenes: initial states for a rigid-body solver, shared by the
//! `stacking` example and its test (`examples/tests/stacking.rs`).
//!
//! Every scene stands on a static ground box whose top face is `y = 0`; boxes are
//! 1 m cubes unless said otherwise, placed with small gaps (inside the contact margin,
//! so the first contacts are speculative) and left to settle under gravity.
//!
//! | scene | bodies | what it tests |
//! |---|---|---|
//! | [`tower`] | n equal cubes | flush equal faces: ids must survive jitter, or the tower creeps |
//! | [`alternating_tower`] | n cubes, 1.0 / 0.9 m wide in turn | the same without equal faces: each smaller face is clipped inside the larger one |
//! | [`pyramid`] | rows·(rows+1)/2 cubes | every box on two, the weight spread over many contacts |
//! | [`drop_pile`] | n cubes, small random turns | dropped from a grid: impacts, edges and corners |
//! | [`mixed`] | boxes, spheres, hulls | every shape pair kind |

use crate::shapes::ball_points;
use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape, Sphere};

/// Gap left between stacked bodies at the start, m (inside the 2 cm margin).
pub const GAP: f32 = 0.001;
/// Horizontal gap between neighbours of a pyramid row, m (beyond the margin, so
/// neighbours do not touch).
pub const ROW_GAP: f32 = 0.05;

/// One body of a scene.
#[derive(Clone, Debug)]
pub struct StackBody {
    /// Its shape, centre of mass at the local origin.
    pub shape: Shape,
    /// Where it starts (at rest).
    pub pose: Pose,
    /// True for the immovable ground.
    pub fixed: bool,
}

/// A named list of bodies; the first is the ground.
#[derive(Clone, Debug)]
pub struct StackScene {
    /// The scene's name.
    pub name: &'static str,
    /// The bodies, ground first.
    pub bodies: Vec<StackBody>,
}

/// Names accepted by [`by_name`].
pub const NAMES: [&str; 5] = ["tower", "alternating", "pyramid", "pile", "mixed"];

/// The scene called `name` with `size` cubes (tower, alternating, pile), rows
/// (pyramid) or bodies (mixed), from `seed` where random.
pub fn by_name(name: &str, size: usize, seed: u64) -> Option<StackScene> {
    Some(match name {
        "tower" => tower(size),
        "alternating" => alternating_tower(size),
        "pyramid" => pyramid(size),
        "pile" => drop_pile(size, seed),
        "mixed" => mixed(size, seed),
        _ => return None,
    })
}

/// The default `size` of each scene in the example.
pub fn default_size(name: &str) -> usize {
    match name {
        "pyramid" => 20,
        "pile" => 100,
        "mixed" => 40,
        _ => 10,
    }
}

fn cube(size: Vec3) -> Shape {
    Shape::from(Cuboid::try_from_size(size).expect("positive finite size"))
}

/// An empty scene but for the ground: a static 200 × 1 × 200 m box whose top face is
/// `y = 0`.
fn scene(name: &'static str) -> StackScene {
    let ground = StackBody {
        shape: cube(Vec3::new(200.0, 1.0, 200.0)),
        pose: Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        fixed: true,
    };
    StackScene {
        name,
        bodies: vec![ground],
    }
}

impl StackScene {
    fn add(&mut self, shape: Shape, pose: Pose) {
        self.bodies.push(StackBody {
            shape,
            pose,
            fixed: false,
        });
    }
}

/// `n` equal unit cubes, one on another, `GAP` apart: cube `i` at
/// `y = 0.5 + i (1 + GAP) + GAP`.
pub fn tower(n: usize) -> StackScene {
    let mut s = scene("tower");
    for i in 0..n {
        let y = 0.5 + i as f32 * (1.0 + GAP) + GAP;
        s.add(cube(Vec3::ONE), Pose::from_translation(Vec3::Y * y));
    }
    s
}

/// Like [`tower`], but every other cube is 0.9 m wide (x and z), so no two touching
/// faces are equal.
pub fn alternating_tower(n: usize) -> StackScene {
    let mut s = scene("alternating");
    for i in 0..n {
        let y = 0.5 + i as f32 * (1.0 + GAP) + GAP;
        let w = if i % 2 == 0 { 1.0 } else { 0.9 };
        s.add(
            cube(Vec3::new(w, 1.0, w)),
            Pose::from_translation(Vec3::Y * y),
        );
    }
    s
}

/// A 2D pyramid of unit cubes in the x-y plane: row `r` (from the bottom) holds
/// `rows − r` cubes `1 + ROW_GAP` apart, each resting on two below. `rows(rows+1)/2`
/// cubes: 55 for 10 rows, 210 for 20.
pub fn pyramid(rows: usize) -> StackScene {
    let mut s = scene("pyramid");
    let pitch = 1.0 + ROW_GAP;
    for r in 0..rows {
        let count = rows - r;
        let y = 0.5 + r as f32 * (1.0 + GAP) + GAP;
        for i in 0..count {
            let x = (i as f32 - 0.5 * (count - 1) as f32) * pitch;
            s.add(
                cube(Vec3::ONE),
                Pose::from_translation(Vec3::new(x, y, 0.0)),
            );
        }
    }
    s
}

/// `n` unit cubes dropped from a grid of `k × k` columns (`k = ⌈∛n⌉`), 1.5 m apart
/// in every direction, odd layers shifted by half a pitch (so they land across two
/// boxes below), the lowest layer 1 m up, each turned up to 0.3 rad about a random
/// axis and shifted up to 0.2 m sideways.
pub fn drop_pile(n: usize, seed: u64) -> StackScene {
    let mut s = scene("pile");
    let mut rng = Rng::new(seed);
    for pos in grid(n).take(n) {
        let turn = Quat::from_axis_angle(rng.unit_vec3(), rng.range(-0.3, 0.3));
        let shift = Vec3::new(rng.range(-0.2, 0.2), 0.0, rng.range(-0.2, 0.2));
        s.add(cube(Vec3::ONE), Pose::new(pos + shift, turn));
    }
    s
}

/// `n` bodies dropped like [`drop_pile`], taking turns: a unit cube, a sphere of radius
/// 0.5, a hull of 12 random points within 0.6 m of its centre, a flat box
/// (1.2 × 0.4 × 0.8).
pub fn mixed(n: usize, seed: u64) -> StackScene {
    let mut s = scene("mixed");
    let mut rng = Rng::new(seed);
    for (i, pos) in grid(n).enumerate().take(n) {
        let shape = match i % 4 {
            0 => cube(Vec3::ONE),
            1 => Shape::from(Sphere::try_new(0.5).expect("positive radius")),
            2 => centred_hull(&mut rng),
            _ => cube(Vec3::new(1.2, 0.4, 0.8)),
        };
        let turn = Quat::from_axis_angle(rng.unit_vec3(), rng.range(-0.3, 0.3));
        s.add(shape, Pose::new(pos, turn));
    }
    s
}

/// Centres of a `k × k`-column grid filled layer by layer, `k = ⌈∛n⌉`, odd layers
/// shifted by half a pitch in x and z.
fn grid(n: usize) -> impl Iterator<Item = Vec3> {
    let k = (n as f32).cbrt().ceil().max(1.0) as usize;
    let pitch = 1.5;
    let half = 0.5 * (k - 1) as f32 * pitch;
    (0..).map(move |i: usize| {
        let (col, row, layer) = (i % k, (i / k) % k, i / (k * k));
        let shift = if layer % 2 == 1 { 0.5 * pitch } else { 0.0 };
        Vec3::new(
            col as f32 * pitch - half + shift,
            1.0 + layer as f32 * pitch,
            row as f32 * pitch - half + shift,
        )
    })
}

/// The hull of 12 random points within 0.6 m of the origin, moved so that its centre
/// of mass is the origin (the body origin the solver takes lever arms from).
fn centred_hull(rng: &mut Rng) -> Shape {
    let points = ball_points(rng, 12, 0.35, 0.6);
    let hull = ConvexHull::try_from_points_centered(&points)
        .map(|(hull, _offset)| hull)
        .unwrap_or_else(|_| ConvexHull::cuboid(Vec3::splat(0.4)).expect("positive half extents"));
    Shape::from(hull)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(tower(10).bodies.len(), 11);
        assert_eq!(pyramid(10).bodies.len(), 56);
        assert_eq!(pyramid(20).bodies.len(), 211);
        assert_eq!(drop_pile(100, 1).bodies.len(), 101);
        assert_eq!(mixed(40, 1).bodies.len(), 41);
        assert!(by_name("nope", 1, 1).is_none());
        for name in NAMES {
            let s = by_name(name, default_size(name), 3).unwrap();
            assert!(s.bodies[0].fixed && s.bodies[1..].iter().all(|b| !b.fixed));
        }
    }
}
