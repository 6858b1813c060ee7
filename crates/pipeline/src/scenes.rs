//! Seeded test scenes shared by the tests, the `stress` and `render` examples and the
//! benches, so that every figure talks about the same bodies.
//!
//! A [`Scene`] is a list of [`BodyDesc`]s plus, for each moving body, a closed-form
//! motion: frame `f` puts body `i` at
//! `base + amplitude · sin(ω f + φ) · direction`, turned by `spin · f` about a fixed
//! axis. Poses are a pure function of `(i, f)`, so any frame can be replayed exactly
//! and nothing drifts however long a benchmark runs. Every random number comes from
//! [`Rng`] with the given seed.
//!
//! | scene | bodies | what |
//! |---|---|---|
//! | [`soup`] | n moving boxes | random sizes 0.5–1.5, ~1.5 AABB pairs per body, each moving ~1% of its size per frame and turning 0.01 rad/frame |
//! | [`hulls`] | n moving hulls | the same, with convex hulls of 24 random points |
//! | [`static_heavy`] | statics + movers | static boxes everywhere, a few moving boxes among them |
//! | [`pile`] | n resting boxes | columns of unit cubes sunk 0.01 into each other on a static ground: every pair a face contact |
//!
//! ```
//! use sepax_pipeline::{CollisionWorld, Config, scenes};
//!
//! let scene = scenes::soup(500, 7);
//! let mut world = CollisionWorld::new(Config::default()).unwrap();
//! let handles = scene.populate(&mut world).unwrap();
//! for frame in 0..3 {
//!     scene.apply(&mut world, &handles, frame).unwrap();
//!     world.step();
//! }
//! assert!(!world.report().contacts.is_empty());
//! ```

use crate::{BodyDesc, BodyHandle, BodyKind, CollisionWorld, Groups, WorldError};
use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape};
use std::sync::Arc;

/// Angular frequency of the oscillation, radians per frame.
const OMEGA: f32 = 0.02;
/// Turning speed, radians per frame.
const SPIN: f32 = 0.01;
/// Side of the cube holding n bodies of mean size 1 is `DENSITY · ∛n`; this value gives
/// about 1.5 AABB pairs per body in [`soup`] (measured by the scene tests).
const DENSITY: f32 = 2.06;

/// How a moving body moves.
#[derive(Clone, Copy, Debug)]
struct Motion {
    base: Pose,
    direction: Vec3,
    amplitude: f32,
    phase: f32,
    spin_axis: Vec3,
    spin: f32,
}

impl Motion {
    fn pose(&self, frame: u32) -> Pose {
        let f = frame as f32;
        let offset = self.direction * (self.amplitude * (OMEGA * f + self.phase).sin());
        let turn = Quat::from_axis_angle(self.spin_axis, self.spin * f);
        Pose::new(
            self.base.translation + offset,
            (turn * self.base.rotation).normalize(),
        )
    }
}

/// Bodies and their motions. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Scene {
    /// The scene's name as the examples spell it.
    pub name: &'static str,
    /// The bodies at frame 0.
    pub bodies: Vec<BodyDesc>,
    motions: Vec<Option<Motion>>,
    /// Indices of the moving bodies, ascending.
    movers: Vec<usize>,
}

impl Scene {
    fn new(name: &'static str) -> Scene {
        Scene {
            name,
            bodies: Vec::new(),
            motions: Vec::new(),
            movers: Vec::new(),
        }
    }

    fn push(&mut self, shape: Shape, kind: BodyKind, motion: Option<Motion>) {
        let pose = motion.map_or(Pose::IDENTITY, |m| m.pose(0));
        if motion.is_some() {
            self.movers.push(self.bodies.len());
        }
        self.bodies.push(BodyDesc {
            shape,
            pose,
            kind,
            groups: Groups::ALL,
            user_data: self.bodies.len() as u64,
        });
        self.motions.push(motion);
    }

    fn push_static(&mut self, shape: Shape, pose: Pose) {
        self.bodies.push(BodyDesc {
            shape,
            pose,
            kind: BodyKind::Static,
            groups: Groups::ALL,
            user_data: self.bodies.len() as u64,
        });
        self.motions.push(None);
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// True when the scene has no body.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// True when body `i` gets a new pose every frame.
    pub fn is_moving(&self, i: usize) -> bool {
        matches!(self.motions.get(i), Some(Some(_)))
    }

    /// Indices of the bodies that move, ascending.
    pub fn movers(&self) -> &[usize] {
        &self.movers
    }

    /// The pose of body `i` at `frame` (static bodies keep their pose).
    /// Panics if `i` is out of range (a programming error, not user data).
    pub fn pose(&self, i: usize, frame: u32) -> Pose {
        match self.motions[i] {
            Some(m) => m.pose(frame),
            None => self.bodies[i].pose,
        }
    }

    /// Inserts every body; the handles come back in scene order.
    pub fn populate(&self, world: &mut CollisionWorld) -> Result<Vec<BodyHandle>, WorldError> {
        self.bodies
            .iter()
            .map(|b| world.insert(b.clone()))
            .collect()
    }

    /// Sets the pose of every moving body for `frame` (as a physics engine would after
    /// its solver). `handles` are the ones [`populate`](Self::populate) returned.
    pub fn apply(
        &self,
        world: &mut CollisionWorld,
        handles: &[BodyHandle],
        frame: u32,
    ) -> Result<(), WorldError> {
        for &i in &self.movers {
            if let Some(&h) = handles.get(i) {
                world.set_pose(h, self.pose(i, frame))?;
            }
        }
        Ok(())
    }
}

/// Half side of the cube that holds `n` bodies of mean size `size`.
fn half_side(n: usize, size: f32) -> f32 {
    0.5 * DENSITY * size * (n.max(1) as f32).cbrt()
}

fn random_motion(rng: &mut Rng, half: f32, size: f32) -> Motion {
    Motion {
        base: Pose::new(
            rng.vec3(Vec3::splat(-half), Vec3::splat(half)),
            rng.rotation(),
        ),
        direction: rng.unit_vec3(),
        // Peak speed amplitude · ω = 1% of the size per frame.
        amplitude: 0.01 * size / OMEGA,
        phase: rng.range(0.0, std::f32::consts::TAU),
        spin_axis: rng.unit_vec3(),
        spin: SPIN,
    }
}

fn random_box(rng: &mut Rng) -> (Shape, f32) {
    let size = rng.vec3(Vec3::splat(0.5), Vec3::splat(1.5));
    // Sizes in [0.5, 1.5] are positive and finite: the constructor cannot fail.
    let cuboid = Cuboid::try_from_size(size).unwrap_or_else(|_| unreachable!());
    (Shape::from(cuboid), (size.x + size.y + size.z) / 3.0)
}

/// `n` moving boxes of random sizes (0.5–1.5 per side) in a cube sized for about 1.5
/// AABB pairs per body; each moves about 1% of its size per frame and turns slowly.
pub fn soup(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("soup");
    let half = half_side(n, 1.0);
    for _ in 0..n {
        let (shape, size) = random_box(&mut rng);
        let motion = random_motion(&mut rng, half, size);
        scene.push(shape, BodyKind::Dynamic, Some(motion));
    }
    scene
}

/// A convex hull of 24 random points in a ball of diameter about 1.2.
pub fn random_hull(rng: &mut Rng) -> Arc<ConvexHull> {
    loop {
        let points: Vec<Vec3> = (0..24)
            .map(|_| rng.unit_vec3() * rng.range(0.3, 0.6))
            .collect();
        // 24 random points are never degenerate in practice; retry if they were.
        if let Ok(hull) = ConvexHull::try_from_points(&points) {
            return Arc::new(hull);
        }
    }
}

/// `n` moving convex hulls, each of 24 random points, with the motion and density of
/// [`soup`].
pub fn hulls(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("hulls");
    let half = half_side(n, 0.6);
    for _ in 0..n {
        let hull = random_hull(&mut rng);
        let motion = random_motion(&mut rng, half, 1.0);
        scene.push(Shape::from(hull), BodyKind::Dynamic, Some(motion));
    }
    scene
}

/// `statics` static boxes and `movers` moving boxes ([`soup`]'s sizes and motion) in the
/// same cube, sized for about 1.5 AABB pairs per body. The issue's scene is
/// `static_heavy(50_000, 1_000, seed)`.
pub fn static_heavy(statics: usize, movers: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("static-heavy");
    let half = half_side(statics + movers, 1.0);
    for _ in 0..statics {
        let (shape, _) = random_box(&mut rng);
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-half), Vec3::splat(half)),
            rng.rotation(),
        );
        scene.push_static(shape, pose);
    }
    for _ in 0..movers {
        let (shape, size) = random_box(&mut rng);
        let motion = random_motion(&mut rng, half, size);
        scene.push(shape, BodyKind::Dynamic, Some(motion));
    }
    scene
}

/// Columns of 10 unit cubes, each sunk 0.01 into the one below, the lowest sunk 0.01
/// into a static ground slab; columns 1.5 apart. `n` bodies in all (the ground
/// included). Nothing moves, but every box gets its (unchanged) pose each frame, as
/// from a solver. Every touching pair is a face contact of depth 0.01.
pub fn pile(n: usize) -> Scene {
    const HEIGHT: usize = 10;
    let mut scene = Scene::new("pile");
    let boxes = n.saturating_sub(1);
    let columns = boxes.div_ceil(HEIGHT);
    let per_row = (columns as f32).sqrt().ceil().max(1.0) as usize;
    let half = 0.75 * per_row as f32 + 1.0;
    let ground = Cuboid::try_from_half_extents(Vec3::new(half, 0.5, half))
        .unwrap_or_else(|_| unreachable!());
    if n > 0 {
        scene.push_static(
            ground.into(),
            Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        );
    }
    let cube: Shape = Cuboid::try_from_half_extents(Vec3::splat(0.5))
        .unwrap_or_else(|_| unreachable!())
        .into();
    for i in 0..boxes {
        let (column, level) = (i / HEIGHT, i % HEIGHT);
        let (cx, cz) = (column % per_row, column / per_row);
        let x = 1.5 * cx as f32 - 0.75 * per_row as f32 + 0.75;
        let z = 1.5 * cz as f32 - 0.75 * per_row as f32 + 0.75;
        let y = 0.49 + 0.99 * level as f32;
        let motion = Motion {
            base: Pose::from_translation(Vec3::new(x, y, z)),
            direction: Vec3::X,
            amplitude: 0.0,
            phase: 0.0,
            spin_axis: Vec3::Y,
            spin: 0.0,
        };
        scene.push(cube.clone(), BodyKind::Dynamic, Some(motion));
    }
    scene
}

/// The scene names [`by_name`] knows.
pub const NAMES: [&str; 4] = ["soup", "hulls", "static-heavy", "pile"];

/// A scene by name with `n` bodies in all: `soup`, `hulls`, `pile`, or `static-heavy`
/// (`n / 51` movers, the rest static: 51,000 gives the issue's 50,000 + 1,000).
/// `None` for an unknown name.
pub fn by_name(name: &str, n: usize, seed: u64) -> Option<Scene> {
    match name {
        "soup" => Some(soup(n, seed)),
        "hulls" => Some(hulls(n, seed)),
        "static-heavy" => {
            let movers = n / 51;
            Some(static_heavy(n - movers, movers, seed))
        }
        "pile" => Some(pile(n)),
        _ => None,
    }
}
