//! World scenes as plain data: bodies (shape, pose, kind) and a closed-form motion per
//! moving body. The tests, the `stress` and `render` examples and the step bench use
//! them, so that every figure talks about the same bodies.
//!
//! A [`Scene`] is a list of [`SceneBody`]s plus, for each moving body, a closed-form
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
//! | [`static_heavy`] | statics + movers | static boxes everywhere, a few moving boxes among them (not the broad-phase bench's floor scene, [`clouds::floor_tiles`](crate::clouds::floor_tiles)) |
//! | [`pile`] | n resting boxes | columns of unit cubes sunk 0.01 into each other on a static ground: every pair a face contact |
//!
//! With the `world` feature, `Scene::populate` inserts a scene into a
//! `CollisionWorld` and `Scene::apply` sets a frame's poses (module `world`).
//!
//! ```
//! use sepax_testkit::scenes;
//!
//! let scene = scenes::soup(500, 7);
//! assert_eq!((scene.len(), scene.movers().len()), (500, 500));
//! // Poses are a pure function of (body, frame).
//! assert_eq!(scene.pose(3, 10), scenes::soup(500, 7).pose(3, 10));
//! ```

use crate::shapes::{ball_hull, soup_box};
use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, Cuboid, Pose, Shape};
use std::sync::Arc;

/// Whether a body moves, as the pipeline's `BodyKind` has it (scenes have no
/// kinematic bodies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneKind {
    /// Never moves; pairs with dynamic bodies only.
    Static,
    /// Moved every frame (by the scene's motion, as a solver would).
    Dynamic,
}

/// One body of a scene at frame 0.
#[derive(Clone, Debug)]
pub struct SceneBody {
    /// Its shape.
    pub shape: Shape,
    /// Its pose at frame 0.
    pub pose: Pose,
    /// Static or dynamic.
    pub kind: SceneKind,
}

/// Angular frequency of the oscillation, radians per frame.
const OMEGA: f32 = 0.02;
/// Turning speed, radians per frame.
const SPIN: f32 = 0.01;
/// Side of the cube holding n bodies of mean size 1 is `DENSITY · ∛n`; this value gives
/// about 1.5 AABB pairs per body in [`soup`] (measured by
/// `crates/pipeline/tests/scenes.rs`).
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
    pub bodies: Vec<SceneBody>,
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

    fn push(&mut self, shape: Shape, kind: SceneKind, motion: Option<Motion>) {
        let pose = motion.map_or(Pose::IDENTITY, |m| m.pose(0));
        if motion.is_some() {
            self.movers.push(self.bodies.len());
        }
        self.bodies.push(SceneBody { shape, pose, kind });
        self.motions.push(motion);
    }

    fn push_static(&mut self, shape: Shape, pose: Pose) {
        self.bodies.push(SceneBody {
            shape,
            pose,
            kind: SceneKind::Static,
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

/// `n` moving boxes of random sizes (0.5–1.5 per side) in a cube sized for about 1.5
/// AABB pairs per body; each moves about 1% of its size per frame and turns slowly.
pub fn soup(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("soup");
    let half = half_side(n, 1.0);
    for _ in 0..n {
        let (shape, size) = soup_box(&mut rng);
        let motion = random_motion(&mut rng, half, size);
        scene.push(shape, SceneKind::Dynamic, Some(motion));
    }
    scene
}

/// A convex hull of 24 random points at 0.3–0.6 from its centre (diameter about 1.2):
/// the hulls of [`hulls`].
pub fn scene_hull(rng: &mut Rng) -> Arc<ConvexHull> {
    Arc::new(ball_hull(rng, 24, 0.3, 0.6))
}

/// `n` moving convex hulls, each of 24 random points, with the motion and density of
/// [`soup`].
pub fn hulls(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("hulls");
    let half = half_side(n, 0.6);
    for _ in 0..n {
        let hull = scene_hull(&mut rng);
        let motion = random_motion(&mut rng, half, 1.0);
        scene.push(Shape::from(hull), SceneKind::Dynamic, Some(motion));
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
        let (shape, _) = soup_box(&mut rng);
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-half), Vec3::splat(half)),
            rng.rotation(),
        );
        scene.push_static(shape, pose);
    }
    for _ in 0..movers {
        let (shape, size) = soup_box(&mut rng);
        let motion = random_motion(&mut rng, half, size);
        scene.push(shape, SceneKind::Dynamic, Some(motion));
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
        scene.push(cube.clone(), SceneKind::Dynamic, Some(motion));
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
