//! Box–box queries in batches: [`collide_box_pairs`] and [`contact_box_pairs`].
//!
//! A batch is cut into bundles of 8 pairs. Per pair, as [`collide`](crate::collide)
//! does it: the poses are checked, the pair is put in its canonical order (its cache
//! flipped to match), and b's pose relative to a's is computed in f64. Then the 15
//! separating-axis separations of the 8 pairs are computed together in SIMD lanes
//! (`sat::box_box_wide`, whose docs give the batching and the determinism rule), with
//! an early out when every pair of the bundle is separated by a face axis. Per pair
//! again, the scalar test's own code picks the axis (faces first, the cached axis, the
//! bounded preference) and clips the manifold.
//!
//! So each answer is **bit for bit** the answer of [`collide`](crate::collide) (or
//! [`contact`](crate::contact)) on that pair alone, in both argument orders, with warm
//! or cold caches, whichever bundle or lane the pair lands in and whichever SIMD level
//! the CPU takes. What a batch saves is the scalar test's per-pair work on the axes:
//! 8 pairs' separations cost about what one pair's did.

use crate::query::{
    box_manifold_from_outcome, canonical_swap, contact_from_outcome, sanitize_margin,
};
use crate::sat::box_box::{BoxPair, box_box};
use crate::sat::box_box_wide::{
    BoxBundle, BundleSeparations, LANES, SimdLevel, bundle_separations, lane_separations,
};
use crate::sat::{Frame, SatOutcome};
use crate::{Contact, Feature, Manifold, PairCache};
use glam::Vec3;
use sepax_geometry::{Cuboid, Pose, Shape};

/// One box–box pair of a batch: two boxes and their poses, in the caller's order (the
/// answers' normals point from `a` to `b`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxBoxPair {
    /// Box a.
    pub a: Cuboid,
    /// Pose of a.
    pub pose_a: Pose,
    /// Box b.
    pub b: Cuboid,
    /// Pose of b.
    pub pose_b: Pose,
}

/// The manifolds of many box pairs: `manifolds[i]` gets exactly what
/// `collide(a, pose_a, b, pose_b, margin, &mut caches[i])` would give for `pairs[i]`
/// (bit for bit, see the [module docs](self)), and `caches[i]` is updated the same way.
///
/// # Panics
/// When `caches` or `manifolds` is not as long as `pairs`.
///
/// ```
/// use sepax_geometry::{Cuboid, Pose};
/// use sepax_narrowphase::{BoxBoxPair, PairCache, collide, collide_box_pairs};
/// use glam::Vec3;
///
/// let unit = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap();
/// let pairs: Vec<BoxBoxPair> = (0..10)
///     .map(|i| BoxBoxPair {
///         a: unit,
///         pose_a: Pose::IDENTITY,
///         b: unit,
///         pose_b: Pose::from_translation(Vec3::new(0.9 + 0.02 * i as f32, 0.0, 0.0)),
///     })
///     .collect();
/// let mut caches = vec![PairCache::default(); pairs.len()];
/// let mut manifolds = vec![None; pairs.len()];
/// collide_box_pairs(&pairs, 0.0, &mut caches, &mut manifolds);
/// // Pairs 0..5 overlap; 5 touches; the rest are apart.
/// assert_eq!(manifolds.iter().filter(|m| m.is_some()).count(), 6);
/// let p = &pairs[2];
/// let alone = collide(&p.a.into(), &p.pose_a, &p.b.into(), &p.pose_b, 0.0, &mut PairCache::default());
/// assert_eq!(manifolds[2], alone);
/// ```
pub fn collide_box_pairs(
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    manifolds: &mut [Option<Manifold>],
) {
    collide_box_pairs_at(SimdLevel::detected(), pairs, margin, caches, manifolds);
}

/// The contacts of many box pairs: `contacts[i]` gets exactly what
/// `contact(a, pose_a, b, pose_b, margin)` would give for `pairs[i]` (bit for bit).
///
/// # Panics
/// When `contacts` is not as long as `pairs`.
///
/// ```
/// use sepax_geometry::{Cuboid, Pose};
/// use sepax_narrowphase::{BoxBoxPair, contact_box_pairs};
/// use glam::Vec3;
///
/// let unit = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap();
/// let pair = BoxBoxPair {
///     a: unit,
///     pose_a: Pose::IDENTITY,
///     b: unit,
///     pose_b: Pose::from_translation(Vec3::new(0.0, 0.9, 0.0)),
/// };
/// let mut contacts = [None; 3];
/// contact_box_pairs(&[pair; 3], 0.0, &mut contacts);
/// let c = contacts[1].unwrap();
/// assert!((c.normal - Vec3::Y).length() < 1e-6 && (c.depth - 0.1).abs() < 1e-5);
/// ```
pub fn contact_box_pairs(pairs: &[BoxBoxPair], margin: f32, contacts: &mut [Option<Contact>]) {
    contact_box_pairs_at(SimdLevel::detected(), pairs, margin, contacts);
}

/// [`collide_box_pairs`] at a given SIMD level (for the bitwise tests and benches).
#[doc(hidden)]
pub fn collide_box_pairs_at(
    level: SimdLevel,
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    manifolds: &mut [Option<Manifold>],
) {
    assert_eq!(caches.len(), pairs.len(), "one cache per pair");
    assert_eq!(manifolds.len(), pairs.len(), "one output per pair");
    let margin = sanitize_margin(margin);
    let mut separations = [[0.0; LANES]; 15];
    let bundles = pairs
        .chunks(LANES)
        .zip(caches.chunks_mut(LANES))
        .zip(manifolds.chunks_mut(LANES));
    for ((pairs, caches), out) in bundles {
        let lanes: [Option<Lane>; LANES] = std::array::from_fn(|l| {
            let lane = Lane::new(pairs.get(l)?)?;
            // The cache speaks the caller's order; the computation runs in the lane's.
            let cache = if lane.swapped {
                caches[l].flipped()
            } else {
                caches[l]
            };
            Some(Lane { cache, ..lane })
        });
        let outcomes = bundle_outcomes(level, &lanes, margin, &mut separations);
        // `out` is shorter than the bundle when it is padded: the zip stops there.
        let answers = out.iter_mut().zip(lanes).zip(outcomes).enumerate();
        for (l, ((out, lane), outcome)) in answers {
            let (Some(mut lane), Some(outcome)) = (lane, outcome) else {
                *out = None;
                continue;
            };
            let manifold = box_manifold_from_outcome(
                lane.ha,
                lane.hb,
                &lane.pose_a,
                &lane.pair.frame,
                margin,
                &mut lane.cache,
                outcome,
            );
            if lane.swapped {
                caches[l] = lane.cache.flipped();
                *out = manifold.map(Manifold::flipped);
            } else {
                caches[l] = lane.cache;
                *out = manifold;
            }
        }
    }
}

/// [`contact_box_pairs`] at a given SIMD level (for the bitwise tests and benches).
#[doc(hidden)]
pub fn contact_box_pairs_at(
    level: SimdLevel,
    pairs: &[BoxBoxPair],
    margin: f32,
    contacts: &mut [Option<Contact>],
) {
    assert_eq!(contacts.len(), pairs.len(), "one output per pair");
    let margin = sanitize_margin(margin);
    let mut separations = [[0.0; LANES]; 15];
    for (pairs, out) in pairs.chunks(LANES).zip(contacts.chunks_mut(LANES)) {
        let lanes: [Option<Lane>; LANES] = std::array::from_fn(|l| Lane::new(pairs.get(l)?));
        let outcomes = bundle_outcomes(level, &lanes, margin, &mut separations);
        for ((out, lane), outcome) in out.iter_mut().zip(lanes).zip(outcomes) {
            *out = match (lane, outcome) {
                (Some(lane), Some(outcome)) => {
                    let c = contact_from_outcome(&lane.pose_a, outcome);
                    if lane.swapped {
                        c.map(|c| c.flipped())
                    } else {
                        c
                    }
                }
                _ => None,
            };
        }
    }
}

/// One pair of a bundle, in canonical order, ready for the SAT.
struct Lane {
    /// True when the caller's (a, b) is the reverse of the lane's.
    swapped: bool,
    /// The first box's pose in the lane's order.
    pose_a: Pose,
    ha: Vec3,
    hb: Vec3,
    /// The scalar test's inputs (and the frame they came from).
    pair: BoxPair,
    /// The pair's cache in the lane's order (unused by `contact`).
    cache: PairCache,
}

impl Lane {
    /// The lane of a pair, `None` when a pose is invalid (the queries' answer then is
    /// `None`, with the cache left as it was).
    fn new(p: &BoxBoxPair) -> Option<Lane> {
        if !(p.pose_a.is_valid() && p.pose_b.is_valid()) {
            return None;
        }
        let swapped = canonical_swap(
            &Shape::Cuboid(p.a),
            &p.pose_a,
            &Shape::Cuboid(p.b),
            &p.pose_b,
        );
        let ((a, pose_a), (b, pose_b)) = if swapped {
            ((p.b, p.pose_b), (p.a, p.pose_a))
        } else {
            ((p.a, p.pose_a), (p.b, p.pose_b))
        };
        let (ha, hb) = (a.half_extents(), b.half_extents());
        let frame = Frame::new(&pose_a, &pose_b);
        Some(Lane {
            swapped,
            pose_a,
            ha,
            hb,
            pair: BoxPair::new(ha, hb, &frame),
            cache: PairCache::default(),
        })
    }

    fn cached(&self) -> Option<Feature> {
        self.cache.last.map(|c| c.feature)
    }
}

/// The SAT outcome of each lane in use: the separations of the whole bundle at `level`,
/// then the scalar test's choice per lane.
fn bundle_outcomes(
    level: SimdLevel,
    lanes: &[Option<Lane>; LANES],
    margin: f32,
    separations: &mut BundleSeparations,
) -> [Option<SatOutcome>; LANES] {
    if level == SimdLevel::Scalar {
        return lanes.each_ref().map(|lane| {
            let lane = lane.as_ref()?;
            Some(box_box(
                lane.ha,
                lane.hb,
                &lane.pair.frame,
                margin,
                lane.cached(),
            ))
        });
    }
    let mut bundle = BoxBundle::default();
    let mut active = [false; LANES];
    for (l, lane) in lanes.iter().enumerate() {
        if let Some(lane) = lane {
            bundle.set_lane(l, &lane.pair);
            active[l] = true;
        }
    }
    // When this returns false, every lane in use is separated by a face axis and the
    // edge rows were not computed; `separated_by_face` then answers every lane.
    bundle_separations(level, &bundle, &active, margin, separations);
    std::array::from_fn(|l| {
        let lane = lanes[l].as_ref()?;
        let all = lane_separations(separations, l);
        let faces = [all[0], all[1], all[2], all[3], all[4], all[5]];
        Some(
            lane.pair
                .separated_by_face(&faces, margin)
                .unwrap_or_else(|| lane.pair.choose(&all, margin, lane.cached())),
        )
    })
}
