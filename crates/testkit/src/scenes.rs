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
//! | [`hull_pile`] | n resting hulls | columns of 24-point frustums sunk 0.01 into each other on a static ground, crossed 15°, each swaying 0.002: shallow face contacts whose features stay |
//! | [`terrain`] | 1 mesh + movers | a static terrain mesh of 20,000 triangles (rolling, 100 m square) with boxes and lying capsules gliding on it |
//! | [`ccd`] | walls + bullets | thin static walls and small boxes with CCD on flying through them at 10–100× their size per frame |
//! | [`large_world`] | statics + movers | a floor of static 10 m tiles (1,000,000 in the issue's scene, as Box3D's `large_world`) and a few spheres and boxes gliding on it |
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
use sepax_geometry::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere, TriMesh};
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
    /// Continuous collision detection on (the pipeline's `BodyDesc::ccd`): the fast
    /// bodies of [`ccd`].
    pub ccd: bool,
}

/// Angular frequency of the oscillation, radians per frame.
const OMEGA: f32 = 0.02;
/// Turning speed, radians per frame.
const SPIN: f32 = 0.01;
/// Side of the cube holding n bodies of mean size 1 is `DENSITY · ∛n`; this value gives
/// about 1.5 AABB pairs per body in [`soup`] (measured by
/// `crates/pipeline/tests/scenes.rs`).
const DENSITY: f32 = 2.06;

/// The periodic function a body's offset follows.
#[derive(Clone, Copy, Debug)]
enum Wave {
    /// `sin x`: slow at the ends, fastest through the middle.
    Sine,
    /// The triangle wave of the same period and range, `4 |x/2π − ⌊x/2π⌋ − ½| − 1`:
    /// a constant speed, turning back at the ends (the shuttles of [`ccd`]).
    Triangle,
}

impl Wave {
    fn at(self, x: f32) -> f32 {
        match self {
            Wave::Sine => x.sin(),
            Wave::Triangle => 4.0 * ((x / std::f32::consts::TAU).rem_euclid(1.0) - 0.5).abs() - 1.0,
        }
    }
}

/// How a moving body moves.
#[derive(Clone, Copy, Debug)]
struct Motion {
    base: Pose,
    direction: Vec3,
    amplitude: f32,
    /// Angular frequency, radians per frame ([`OMEGA`] but in [`ccd`]).
    omega: f32,
    wave: Wave,
    phase: f32,
    spin_axis: Vec3,
    spin: f32,
}

impl Motion {
    fn pose(&self, frame: u32) -> Pose {
        let f = frame as f32;
        let offset = self.direction * (self.amplitude * self.wave.at(self.omega * f + self.phase));
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
    /// Indices of the moving bodies, ascending.
    movers: Vec<usize>,
    /// The motion of each moving body, parallel to `movers` (a scene of a million
    /// statics keeps no per-static motion slot).
    motions: Vec<Motion>,
}

impl Scene {
    fn new(name: &'static str) -> Scene {
        Scene {
            name,
            bodies: Vec::new(),
            movers: Vec::new(),
            motions: Vec::new(),
        }
    }

    fn push(&mut self, shape: Shape, kind: SceneKind, motion: Option<Motion>) {
        let pose = motion.map_or(Pose::IDENTITY, |m| m.pose(0));
        if let Some(m) = motion {
            self.movers.push(self.bodies.len());
            self.motions.push(m);
        }
        self.bodies.push(SceneBody {
            shape,
            pose,
            kind,
            ccd: false,
        });
    }

    fn push_static(&mut self, shape: Shape, pose: Pose) {
        self.bodies.push(SceneBody {
            shape,
            pose,
            kind: SceneKind::Static,
            ccd: false,
        });
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
        self.movers.binary_search(&i).is_ok()
    }

    /// Indices of the bodies that move, ascending.
    pub fn movers(&self) -> &[usize] {
        &self.movers
    }

    /// The pose of body `i` at `frame` (static bodies keep their pose).
    /// Panics if `i` is out of range (a programming error, not user data).
    pub fn pose(&self, i: usize, frame: u32) -> Pose {
        match self.movers.binary_search(&i) {
            Ok(k) => self.motions[k].pose(frame),
            Err(_) => self.bodies[i].pose,
        }
    }

    /// Every moving body with its pose at `frame`, in ascending body order (what
    /// `Scene::apply` hands to the world in one batch).
    pub fn mover_poses(&self, frame: u32) -> impl Iterator<Item = (usize, Pose)> + '_ {
        self.movers
            .iter()
            .zip(&self.motions)
            .map(move |(&i, m)| (i, m.pose(frame)))
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
        omega: OMEGA,
        wave: Wave::Sine,
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
    let mut scene = Scene::new("pile");
    let cube: Shape = Cuboid::try_from_half_extents(Vec3::splat(0.5))
        .unwrap_or_else(|_| unreachable!())
        .into();
    columns_on_ground(&mut scene, n, cube, |_, at| Motion {
        base: Pose::from_translation(at),
        direction: Vec3::X,
        amplitude: 0.0,
        omega: OMEGA,
        wave: Wave::Sine,
        phase: 0.0,
        spin_axis: Vec3::Y,
        spin: 0.0,
    });
    scene
}

/// The layout of [`pile`] and [`hull_pile`]: a static ground box (for `n > 0`) under
/// `n − 1` bodies of `shape` in columns of ten, 1.5 apart on a square grid, the lowest
/// centred 0.49 above the ground and each next one 0.99 higher (sunk 0.01 into the one
/// below); `motion(level, centre)` gives each body its motion.
fn columns_on_ground(
    scene: &mut Scene,
    n: usize,
    shape: Shape,
    mut motion: impl FnMut(usize, Vec3) -> Motion,
) {
    const HEIGHT: usize = 10;
    let bodies = n.saturating_sub(1);
    let columns = bodies.div_ceil(HEIGHT);
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
    for i in 0..bodies {
        let (column, level) = (i / HEIGHT, i % HEIGHT);
        let (cx, cz) = (column % per_row, column / per_row);
        let x = 1.5 * cx as f32 - 0.75 * per_row as f32 + 0.75;
        let z = 1.5 * cz as f32 - 0.75 * per_row as f32 + 0.75;
        let y = 0.49 + 0.99 * level as f32;
        let motion = motion(level, Vec3::new(x, y, z));
        scene.push(shape.clone(), SceneKind::Dynamic, Some(motion));
    }
}

/// The hull of [`hull_pile`]: a frustum of 24 points, a regular 12-gon of radius 0.5 at
/// `y = −0.5` and one of radius 0.4 at `y = 0.5`.
pub fn pile_frustum() -> Arc<ConvexHull> {
    let ring = |radius: f32, y: f32| {
        (0..12).map(move |k| {
            let angle = k as f32 * std::f32::consts::TAU / 12.0;
            Vec3::new(radius * angle.cos(), y, radius * angle.sin())
        })
    };
    let points: Vec<Vec3> = ring(0.5, -0.5).chain(ring(0.4, 0.5)).collect();
    Arc::new(ConvexHull::try_from_points(&points).unwrap_or_else(|_| unreachable!()))
}

/// `n − 1` convex hulls resting in columns of ten on a static ground box: frustums of 24
/// points (a 12-gon of radius 0.5 below, 0.4 above, 1 high), each sunk 0.01 into the one
/// below and turned 15° about the vertical from it, so that every contact is a face on a
/// face whose polygons cross. Each hull sways by 0.002 along a direction of its own
/// (random phase), so poses change every frame while the contacts stay shallow and their
/// features stay the same: the resting contacts a solver keeps, where the narrow phase's
/// warm path is meant to answer (the [`hulls`] scene's bodies pass through each other).
pub fn hull_pile(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("hull-pile");
    let frustum = Shape::from(pile_frustum());
    columns_on_ground(&mut scene, n, frustum, |level, at| Motion {
        base: Pose::new(
            at,
            Quat::from_rotation_y((level % 2) as f32 * 15f32.to_radians()),
        ),
        direction: rng.unit_vec3(),
        amplitude: 0.002,
        omega: OMEGA,
        wave: Wave::Sine,
        phase: rng.range(0.0, std::f32::consts::TAU),
        spin_axis: Vec3::Y,
        spin: 0.0,
    });
    scene
}

/// Side of a floor tile of [`large_world`], as in Box3D's `large_world` (10 m cells).
pub const LARGE_WORLD_TILE: f32 = 10.0;

/// A huge static world with a few bodies moving in it, after Box3D's `large_world`
/// benchmark (a floor of a million static boxes, 10 m cells, a hundred dynamic bodies
/// on it): `statics` static tiles of `10 × 1 × 10`, edge to edge on a square grid in
/// the xz plane, tops at `y = 0`, centred on the origin; and `movers` bodies at random
/// places on the floor, spheres and boxes in turn (Box3D drops spheres; boxes are this
/// crate's main shape), each resting on it sunk 0.02, boxes turning slowly about the
/// vertical, everything gliding about 1% of its size per frame in a random horizontal
/// direction, over one tile, or two to four where it crosses a seam. The step must
/// cost in proportion to the movers, not to the statics. The issue's scene is
/// `large_world(1_000_000, 100, seed)`.
///
/// Static `k` sits at column `k % side`, row `k / side`, `side = ⌈√statics⌉`.
pub fn large_world(statics: usize, movers: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("large-world");
    let side = (statics as f64).sqrt().ceil() as usize;
    let half = 0.5 * LARGE_WORLD_TILE;
    let tile: Shape = Cuboid::try_from_half_extents(Vec3::new(half, 0.5, half))
        .unwrap_or_else(|_| unreachable!())
        .into();
    let origin = -half * side.saturating_sub(1) as f32;
    for k in 0..statics {
        let (col, row) = (k % side, k / side);
        let x = origin + LARGE_WORLD_TILE * col as f32;
        let z = origin + LARGE_WORLD_TILE * row as f32;
        scene.push_static(tile.clone(), Pose::from_translation(Vec3::new(x, -0.5, z)));
    }
    // Stay a body's length inside the floor's edge.
    let reach = (-origin + half - 2.0).max(0.0);
    for m in 0..movers {
        let (shape, height, mean): (Shape, f32, f32) = if m % 2 == 0 {
            let radius = rng.range(0.25, 0.75);
            let ball = Sphere::try_new(radius).unwrap_or_else(|_| unreachable!());
            (ball.into(), 2.0 * radius, 2.0 * radius)
        } else {
            let size = rng.vec3(Vec3::splat(0.5), Vec3::splat(1.5));
            // Sizes in [0.5, 1.5] are positive and finite: the constructor cannot fail.
            let cuboid = Cuboid::try_from_size(size).unwrap_or_else(|_| unreachable!());
            (cuboid.into(), size.y, (size.x + size.y + size.z) / 3.0)
        };
        let at = Vec3::new(
            rng.range(-reach, reach),
            0.5 * height - 0.02,
            rng.range(-reach, reach),
        );
        let heading = rng.range(0.0, std::f32::consts::TAU);
        let yaw = rng.range(0.0, std::f32::consts::TAU);
        let motion = Motion {
            base: Pose::new(at, Quat::from_rotation_y(yaw)),
            direction: Vec3::new(heading.cos(), 0.0, heading.sin()),
            amplitude: 0.01 * mean / OMEGA,
            omega: OMEGA,
            wave: Wave::Sine,
            phase: rng.range(0.0, std::f32::consts::TAU),
            spin_axis: Vec3::Y,
            spin: SPIN,
        };
        scene.push(shape, SceneKind::Dynamic, Some(motion));
    }
    scene
}

/// Cells per side of the [`terrain`] scene's mesh: 100 × 100 quads, 20,000 triangles.
pub const TERRAIN_CELLS: u32 = 100;
/// Height and wavelength of the [`terrain`] scene's rolling surface (metres).
pub const TERRAIN_AMPLITUDE: f32 = 0.5;
/// See [`TERRAIN_AMPLITUDE`].
pub const TERRAIN_WAVELENGTH: f32 = 8.0;

/// `movers` boxes and capsules (alternating; the capsules lying down) gliding on a static terrain mesh of
/// 20,000 triangles ([`terrain::rolling_terrain`](crate::terrain::rolling_terrain),
/// 100 m square, 1 m cells), each sunk 0.02 into the surface below its centre and moving
/// about 1% of its size per frame, turning about the vertical. The mesh is body 0.
pub fn terrain(movers: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("terrain");
    let data =
        crate::terrain::rolling_terrain(TERRAIN_CELLS, 1.0, TERRAIN_AMPLITUDE, TERRAIN_WAVELENGTH);
    let mesh = TriMesh::try_new(data.vertices, data.indices).unwrap_or_else(|_| unreachable!());
    scene.push_static(Shape::from(mesh), Pose::IDENTITY);
    let reach = 0.5 * TERRAIN_CELLS as f32 - 3.0;
    let height_at = |x: f32, z: f32| {
        TERRAIN_AMPLITUDE * (x / TERRAIN_WAVELENGTH).sin() * (z / TERRAIN_WAVELENGTH).cos()
    };
    for m in 0..movers {
        let (shape, half_height, mean): (Shape, f32, f32) = if m % 2 == 0 {
            let size = rng.vec3(Vec3::splat(0.5), Vec3::splat(1.5));
            let cuboid = Cuboid::try_from_size(size).unwrap_or_else(|_| unreachable!());
            (
                cuboid.into(),
                0.5 * size.y,
                (size.x + size.y + size.z) / 3.0,
            )
        } else {
            let radius = rng.range(0.2, 0.5);
            let half = rng.range(0.2, 0.6);
            let capsule = Capsule::try_new(half, radius).unwrap_or_else(|_| unreachable!());
            // Lying down (see `lying` below): its lowest point is `radius` below the centre.
            (capsule.into(), radius, half + 2.0 * radius)
        };
        let (x, z) = (rng.range(-reach, reach), rng.range(-reach, reach));
        let at = Vec3::new(x, height_at(x, z) + half_height - 0.02, z);
        let heading = rng.range(0.0, std::f32::consts::TAU);
        let yaw = rng.range(0.0, std::f32::consts::TAU);
        // Capsules lie on their side (core along x before the yaw): two-point contacts.
        let lying = if m % 2 == 0 {
            Quat::IDENTITY
        } else {
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)
        };
        let motion = Motion {
            base: Pose::new(at, Quat::from_rotation_y(yaw) * lying),
            direction: Vec3::new(heading.cos(), 0.0, heading.sin()),
            amplitude: 0.01 * mean / OMEGA,
            omega: OMEGA,
            wave: Wave::Sine,
            phase: rng.range(0.0, std::f32::consts::TAU),
            spin_axis: Vec3::Y,
            spin: SPIN,
        };
        scene.push(shape, SceneKind::Dynamic, Some(motion));
    }
    scene
}

/// Thickness of the walls of [`ccd`] (metres).
pub const CCD_WALL_THICKNESS: f32 = 0.05;
/// Distance between neighbouring walls of [`ccd`] (metres).
pub const CCD_WALL_SPACING: f32 = 4.0;

/// `walls` thin static walls and `bullets` small fast boxes with CCD on, shuttling
/// through them: the scene of issue 11's continuous collision detection.
///
/// The walls are square, `CCD_WALL_THICKNESS` (0.05) thick across x, 4 m apart in a
/// row centred on the origin (bodies `0..walls`). Each bullet is a random box of
/// 0.1–0.3 per side that flies back and forth in a straight line at a constant speed
/// of 10 to 100 times its mean size per frame (a triangle wave), along a random
/// direction within 20° of the x axis, from one end of the row past the other,
/// spinning at up to 0.3 rad a frame. So nearly every bullet crosses one wall or more
/// every frame, while its poses at two frames rarely touch one: without CCD, almost
/// every crossing would go unseen. The walls are wide enough for every path.
pub fn ccd(bullets: usize, walls: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new("ccd");
    let span = walls as f32 * CCD_WALL_SPACING;
    // Each bullet runs 1 m past the outer walls on both sides.
    let amplitude = 0.5 * span + 1.0;
    let half_wall = amplitude;
    let wall: Shape =
        Cuboid::try_from_half_extents(Vec3::new(0.5 * CCD_WALL_THICKNESS, half_wall, half_wall))
            .unwrap_or_else(|_| unreachable!())
            .into();
    for k in 0..walls {
        let x = (k as f32 - 0.5 * (walls as f32 - 1.0)) * CCD_WALL_SPACING;
        scene.push_static(wall.clone(), Pose::from_translation(Vec3::new(x, 0.0, 0.0)));
    }
    let tilt_max = 20f32.to_radians();
    for _ in 0..bullets {
        let size = rng.vec3(Vec3::splat(0.1), Vec3::splat(0.3));
        let cuboid = Cuboid::try_from_size(size).unwrap_or_else(|_| unreachable!());
        let mean = (size.x + size.y + size.z) / 3.0;
        let speed = rng.range(10.0, 100.0) * mean;
        let (tilt, around) = (
            rng.range(0.0, tilt_max),
            rng.range(0.0, std::f32::consts::TAU),
        );
        let direction = Vec3::new(
            tilt.cos(),
            tilt.sin() * around.cos(),
            tilt.sin() * around.sin(),
        );
        let lateral = 0.5 * half_wall;
        let at = Vec3::new(
            0.0,
            rng.range(-lateral, lateral),
            rng.range(-lateral, lateral),
        );
        let motion = Motion {
            base: Pose::new(at, rng.rotation()),
            direction,
            amplitude,
            // The triangle wave covers 4 amplitudes a period of 2π / ω.
            omega: speed * std::f32::consts::FRAC_PI_2 / amplitude,
            wave: Wave::Triangle,
            phase: rng.range(0.0, std::f32::consts::TAU),
            spin_axis: rng.unit_vec3(),
            spin: rng.range(0.0, 0.3),
        };
        scene.push(cuboid.into(), SceneKind::Dynamic, Some(motion));
        if let Some(bullet) = scene.bodies.last_mut() {
            bullet.ccd = true;
        }
    }
    scene
}

/// The scene names [`by_name`] knows.
pub const NAMES: [&str; 8] = [
    "soup",
    "hulls",
    "static-heavy",
    "pile",
    "hull-pile",
    "large-world",
    "terrain",
    "ccd",
];

/// A scene by name with `n` bodies in all: `soup`, `hulls`, `pile`, `hull-pile`,
/// `static-heavy` (`n / 51` movers, the rest static: 51,000 gives the issue's 50,000 +
/// 1,000), or
/// `large-world` (100 movers, or `n / 2` below 200 bodies, the rest static: 1,000,100
/// gives the issue's 1,000,000 + 100, and smaller `n` the same movers on a smaller
/// grid), or `terrain` (one 20,000-triangle mesh and `n − 1` boxes and capsules on it),
/// or `ccd` (one wall per 100 bodies, 1 to 10, the rest fast bullets: 1,010 gives 10
/// walls and 1,000 bullets). `None` for an unknown name.
pub fn by_name(name: &str, n: usize, seed: u64) -> Option<Scene> {
    match name {
        "soup" => Some(soup(n, seed)),
        "hulls" => Some(hulls(n, seed)),
        "static-heavy" => {
            let movers = n / 51;
            Some(static_heavy(n - movers, movers, seed))
        }
        "pile" => Some(pile(n)),
        "hull-pile" => Some(hull_pile(n, seed)),
        "large-world" => {
            let movers = 100.min(n / 2);
            Some(large_world(n - movers, movers, seed))
        }
        "terrain" => Some(terrain(n.saturating_sub(1), seed)),
        "ccd" => {
            let walls = (n / 100).clamp(1, 10).min(n);
            Some(ccd(n - walls, walls, seed))
        }
        _ => None,
    }
}
