//! # sepax-testkit
//!
//! The seeded data every sepax test, bench and example is made of, in one place, so
//! that a test, a criterion figure and a picture talk about the same bodies (Box2D's
//! `shared/benchmarks.h` is the model). Not published: a dev-dependency only.
//!
//! | module | what | used by |
//! |---|---|---|
//! | [`shapes`] | random boxes, hulls and spheres (3D) | everything below |
//! | [`clouds`] | AABB clouds, still and moving; the floor-tile scene | broad-phase tests and bench |
//! | [`counting_alloc`] | a global allocator that counts a thread's allocations | the no-allocation tests |
//! | [`ccd`] | fine-stepping twin of a cast over a step, and the exact centre-path crossing test | the pipeline's CCD tests, `stress --scene ccd` |
//! | [`broad_twin`] | sweep-and-prune beside its brute-force oracle, fed the same calls | broad-phase tests |
//! | [`fingerprint`] | FNV-1a over the bits of manifolds and contacts | the narrow phase's fingerprint tests |
//! | [`pairs`] | 3D pair sets by kind (resting, touching, deep, separated, hulls) and the oracle tests' placements | narrow-phase tests and benches |
//! | [`pairs2d`] | 2D pairs (boxes, polygons, circles) and placements; box and octagon pairs in a depth band | dim2 tests, 2D bench |
//! | [`scenes`] | world scenes as plain data: soup, hulls, static-heavy, pile, large-world, terrain, ccd | pipeline tests, step bench, `stress`, `render` |
//! | [`stacks`] | stacking scenes for a solver: tower, alternating tower, pyramid, dropped pile, mixed | the `stacking` example and its test |
//! | `to_parry` (feature `parry`) | the same shapes and poses as parry3d takes them | peer tests and benches |
//! | [`terrain`] | triangle meshes (flat floor, rolling terrain) and the brute-force twin of their internal-edge flags | mesh and triangle-contact tests, terrain scenes |
//! | `world` (feature `world`) | `Scene::populate` / `apply` / `body_desc`: a scene in a `CollisionWorld` | the same |
//!
//! Every random number comes from [`Rng`](sepax_geometry::rng::Rng) (SplitMix64) with
//! the seed the caller gives, and every generator draws in a fixed, documented order:
//! the same seed gives bit-identical shapes and poses on every machine. Changing a
//! generator changes every figure and the pipeline's pinned golden hash, so a new
//! distribution gets a new function, never an edit of an old one.
//!
//! **Where it sits.** Beside the library crates, never under them: it depends on
//! `sepax-geometry` (the shapes), `sepax-narrowphase` (only its f64 oracles, which
//! place pairs at an exact gap), `sepax-broadphase` (only for [`broad_twin`]), and with
//! `world` on `sepax-pipeline`. Those crates use it as a dev-dependency only, which
//! Cargo allows (their integration tests link the same library the kit does), so a
//! published crate never depends on it.
//!
//! The oracles themselves live with the code they judge:
//! `sepax_narrowphase::oracle` (3D: vertex-projection SAT, sphere distances, gaps along a normal),
//! `sepax_narrowphase::dim2::oracle` (2D) and `sepax_broadphase::BruteForce`.

pub mod broad_twin;
pub mod ccd;
pub mod clouds;
pub mod counting_alloc;
pub mod fingerprint;
pub mod pairs;
pub mod pairs2d;
pub mod scenes;
pub mod shapes;
pub mod stacks;
pub mod terrain;
#[cfg(feature = "parry")]
pub mod to_parry;
#[cfg(feature = "world")]
pub mod world;
