//! Seed 003's claim, measured (issue 14 item 4): the `seed003` criterion group
//! (`benches/seed003.rs`) and prof's `seed003` mode run these very passes.
//!
//! Seed 003 says that SAT over the Gauss-map candidates, walked rather than scanned, is
//! 5–10× faster than a plain SAT on hulls with many faces. The variants, each one pass
//! over the same touching hull pairs ([`pairs`]):
//!
//! | variant | what runs | answer |
//! |---|---|---|
//! | `plain` | `sat_baseline::plain_hull_hull`: every face, every edge pair, full support scans | normal, depth |
//! | `gauss-map` | `sat_baseline::gauss_map_hull_hull`: Gregorius' SAT without bounds — every face with a full support scan, edge pairs by the Minkowski-face test, measured on their own vertices (the "plain SAT" of seed 003's claim) | normal, depth |
//! | `pruned-scan-contact`, `pruned-walk-contact` | `contact_with(.., SupportMode::Scan / Walk)`: Gregorius' SAT with Gauss-map and bound pruning | normal, depth |
//! | `pruned-scan-cold`, `pruned-walk-cold` | `collide_with(.., Scan / Walk)`, a fresh `PairCache` per call | manifold (≤ 4 points) |
//! | `pruned-scan-warm`, `pruned-walk-warm` | the same, each pair's cache kept from pass to pass while b alternates between its pose and a nudged one (≤ 1% of its size, ≤ 0.01 rad: [`nudged`]) | manifold |
//! | `parry3d` | parry3d `contact_manifolds`, fresh manifolds and workspace | manifold |
//! | `parry3d-contact` | parry3d `query::contact` (GJK/EPA) | normal, depth |
//!
//! The like-for-like comparison with `plain` and `gauss-map` is the `-contact` rows: the
//! same answer (a normal and a depth), no manifold, no cache. The baselines and the
//! contact queries keep nothing between calls, so they have no warm variant.
//!
//! All variants share the support scan (8 vertices at a time); the pruned test's edge
//! query also runs in lanes of 8, the baselines' edge loops are scalar. A choice of SIMD
//! level for the pruned test (as `SimdLevel` for box pairs), or any other variant of
//! issue 14 item 2, gets its rows in [`Variant`].

use crate::{ParryPair, nudged, parry_manifolds_pass, parry_pairs};
use parry3d::query::ContactManifold;
use sepax_geometry::{ConvexHull, Pose, Shape};
use sepax_narrowphase::sat_baseline::{gauss_map_hull_hull, plain_hull_hull};
use sepax_narrowphase::{PairCache, SupportMode, collide_with, contact_with};
use sepax_testkit::pairs::{Pair, hull_pairs};
use std::hint::black_box;

/// The hull sizes measured (points per hull).
pub const POINTS: [usize; 4] = [8, 24, 64, 256];

/// Pairs per pass for `n`-point hulls: 256 (as the `hull_hull_manifold` bench) up to 64
/// points, 64 at 256 points, where the plain SAT's `E_a·E_b·(V_a + V_b)` dot products
/// (about 16 million per pair: these hulls keep ~98 of their 256 points as vertices,
/// with ~193 faces and ~289 edges) make a pass of 256 pairs last seconds.
pub fn pair_count(n: usize) -> usize {
    if n <= 64 { 256 } else { 64 }
}

/// The touching pairs of `n`-point hulls: `hull_pairs(n, pair_count(n), n)`, the first
/// pairs of the `hull_hull_manifold/n` bench's set. (A few are apart: 23 of the 256
/// 8-point pairs, where moving b along the oracle's axis left a gap along another.)
pub fn pairs(n: usize) -> Vec<Pair> {
    hull_pairs(n as u64, pair_count(n), n)
}

/// One row of the table (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Plain,
    GaussMap,
    ScanContact,
    WalkContact,
    ScanCold,
    WalkCold,
    ScanWarm,
    WalkWarm,
    Parry,
    ParryContact,
    // Further variants of the pruned test (issue 14 item 2: a forced SIMD level, a scalar
    // twin) go here, e.g. `ScalarContact`, `ScalarCold`, `ScalarWarm`, with their labels
    // below and their passes in `Passes::run`.
}

impl Variant {
    /// Every variant, in the table's order.
    pub const ALL: [Variant; 10] = [
        Variant::Plain,
        Variant::GaussMap,
        Variant::ScanContact,
        Variant::WalkContact,
        Variant::ScanCold,
        Variant::WalkCold,
        Variant::ScanWarm,
        Variant::WalkWarm,
        Variant::Parry,
        Variant::ParryContact,
    ];

    /// The bench id's function name (and prof's variant argument).
    pub fn label(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::GaussMap => "gauss-map",
            Variant::ScanContact => "pruned-scan-contact",
            Variant::WalkContact => "pruned-walk-contact",
            Variant::ScanCold => "pruned-scan-cold",
            Variant::WalkCold => "pruned-walk-cold",
            Variant::ScanWarm => "pruned-scan-warm",
            Variant::WalkWarm => "pruned-walk-warm",
            Variant::Parry => "parry3d",
            Variant::ParryContact => "parry3d-contact",
        }
    }

    /// The variant of a label.
    pub fn from_label(label: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.label() == label)
    }
}

/// The state of the passes over one pair set: the warm variants' caches and nudged
/// poses, parry's copies of the pairs.
pub struct Passes {
    pairs: Vec<Pair>,
    moved: Vec<Pose>,
    caches: Vec<PairCache>,
    at_moved: bool,
    parry: Vec<ParryPair>,
    manifolds: Vec<ContactManifold<(), ()>>,
}

fn hull(shape: &Shape) -> &ConvexHull {
    match shape {
        Shape::ConvexHull(h) => h,
        _ => unreachable!("the seed 003 pairs are hulls"),
    }
}

impl Passes {
    pub fn new(pairs: Vec<Pair>) -> Passes {
        let moved = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| nudged(&p.pose_b, 2.0 * p.b.bounding_radius(), i as f32 * 0.9))
            .collect();
        let parry = parry_pairs(&pairs);
        Passes {
            caches: vec![PairCache::default(); pairs.len()],
            pairs,
            moved,
            at_moved: false,
            parry,
            manifolds: Vec::new(),
        }
    }

    /// Pairs per pass.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// True when there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// One pass of `variant` over every pair.
    pub fn run(&mut self, variant: Variant) {
        let mode = match variant {
            Variant::WalkContact | Variant::WalkCold | Variant::WalkWarm => SupportMode::Walk,
            _ => SupportMode::Scan,
        };
        match variant {
            Variant::Plain => {
                for p in &self.pairs {
                    black_box(plain_hull_hull(
                        hull(&p.a),
                        &p.pose_a,
                        hull(&p.b),
                        &p.pose_b,
                    ));
                }
            }
            Variant::GaussMap => {
                for p in &self.pairs {
                    let (a, b) = (hull(&p.a), hull(&p.b));
                    black_box(gauss_map_hull_hull(a, &p.pose_a, b, &p.pose_b));
                }
            }
            Variant::ScanContact | Variant::WalkContact => {
                for p in &self.pairs {
                    black_box(contact_with(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, mode));
                }
            }
            Variant::ScanCold | Variant::WalkCold => {
                for p in &self.pairs {
                    let mut cache = PairCache::default();
                    black_box(collide_with(
                        &p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, &mut cache, mode,
                    ));
                }
            }
            Variant::ScanWarm | Variant::WalkWarm => {
                self.at_moved = !self.at_moved;
                let pairs = self.pairs.iter().zip(&mut self.caches).zip(&self.moved);
                for ((p, cache), moved) in pairs {
                    let pose_b = if self.at_moved { moved } else { &p.pose_b };
                    black_box(collide_with(
                        &p.a, &p.pose_a, &p.b, pose_b, 0.0, cache, mode,
                    ));
                }
            }
            Variant::Parry => parry_manifolds_pass(&self.parry, &mut self.manifolds),
            Variant::ParryContact => {
                for p in &self.parry {
                    black_box(
                        parry3d::query::contact(&p.pose_a, &*p.a, &p.pose_b, &*p.b, 0.0).unwrap(),
                    );
                }
            }
        }
    }
}
