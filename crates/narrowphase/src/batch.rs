//! Box–box queries in batches: [`collide_box_pairs`] and [`contact_box_pairs`].
//!
//! A batch is cut into bundles of 8 pairs (the last one padded). Per pair, as
//! [`collide`](crate::collide) does it: the poses are checked and the pair is put in
//! its canonical order (its cache flipped to match). Then for the 8 pairs together, in
//! SIMD lanes: b's pose relative to a's, in f64 and rounded once (`sat::frame_wide`),
//! and the 15 separating-axis separations (`sat::box_box_wide`, whose docs give the
//! batching and the determinism rule), with an early out when every pair of the bundle
//! is separated by a face axis. Per pair again, the scalar test's own code picks the
//! axis (faces first, the cached axis, the bounded preference) and clips the manifold.
//!
//! So each answer is **bit for bit** the answer of [`collide`](crate::collide) (or
//! [`contact`](fn@crate::contact)) on that pair alone, in both argument orders, with warm
//! or cold caches, whichever bundle or lane the pair lands in and whichever SIMD level
//! the CPU takes.
//!
//! What a batch saves is the per-pair frame and axis work: with AVX2, 37 instructions
//! a pair for the f64 frame (the scalar `Frame::new`: 220) and 50 for the 15 axes and
//! their scan (the scalar test: about 390); at a wide level a pair never gets its
//! `BoxPair` built (its axes come from the lanes, by the scalar test's functions on the
//! same entries; its frame is gathered from the lanes again for the clipping), and
//! `contact_box_pairs` builds the exact axis alone. The clipping
//! stays per pair and is most of a touching pair's cost. Per pair, cold caches, the
//! bench pairs (`benches/examples/prof.rs`, callgrind, N=30 minus N=10 over 5,120
//! pairs, 27 November 2026), `collide` → `collide_box_pairs`: resting 3,860 → 3,296,
//! touching 2,548 → 1,993, deep 3,328 → 2,786, separated 949 → 327 instructions;
//! since each manifold is built in its output slot and mirrored as it is written
//! (28 November: no 224-byte move, no second pass to flip), resting 3,827 → 3,180,
//! touching 2,532 → 1,884, deep 2,654, separated 329;
//! `contact` → `contact_box_pairs`: touching 1,203 → 490, separated 667 → 224
//! (parry3d's `contact_manifolds` on the touching pairs: 6,527).

// Lane loops index several arrays by the same lane (or axis): one index is the form
// both the vectoriser and a reader see as "this lane".
#![allow(clippy::needless_range_loop)]

use crate::distance::Core;
use crate::math::sanitize_margin;
use crate::query::{box_manifold_into, canonical_swap_boxes, contact_from_outcome};
use crate::sat::box_box::{
    BoxPair, box_box, choose_scanned, edge_axis, exact_axis_index, face_axis,
};
use crate::sat::box_box_wide::{
    BoxBundle, BundleScan, BundleSeparations, LANES, SimdLevel, bundle_separations,
    lane_separations,
};
use crate::sat::frame_wide::{PoseLanes, frames};
use crate::sat::{Axis, Frame, SatOutcome};
use crate::solid::Solid;
use crate::speculative::{apart_within_margin, speculative_contact};
use crate::{Contact, Feature, Manifold, PairCache};
use glam::{Mat3, Vec3};
use sepax_geometry::{Cuboid, Pose};

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
/// use glam::{Mat3, Vec3};
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
/// use glam::{Mat3, Vec3};
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
    assert_eq!(manifolds.len(), pairs.len(), "one output per pair");
    let mut sink = Scatter {
        out: manifolds,
        place: |i| i,
        finish: |_, _: &PairCache, _: &Option<Manifold>| {},
    };
    run_batch(level, pairs, margin, caches, &mut sink);
}

/// [`collide_box_pairs`] handing each answer to `finish` instead of a slice:
/// `finish(i, &caches[i], manifold)` once per pair, in order, as soon as pair `i` is
/// done (its cache already updated). (A caller whose manifolds live in its own slots
/// avoids the move of each one, 224 bytes, with [`collide_box_pairs_scattered`].)
///
/// # Panics
/// When `caches` is not as long as `pairs`.
pub fn collide_box_pairs_with(
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    finish: impl FnMut(usize, &PairCache, Option<Manifold>),
) {
    collide_box_pairs_with_at(SimdLevel::detected(), pairs, margin, caches, finish);
}

/// [`collide_box_pairs_with`] at a given SIMD level (for the bitwise tests and benches).
#[doc(hidden)]
pub fn collide_box_pairs_with_at(
    level: SimdLevel,
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    finish: impl FnMut(usize, &PairCache, Option<Manifold>),
) {
    let mut sink = Handed { held: None, finish };
    run_batch(level, pairs, margin, caches, &mut sink);
}

/// [`collide_box_pairs`] writing pair `i`'s manifold straight into
/// `manifolds[place[i]]`, then calling `finish(i, &caches[i], &manifolds[place[i]])`
/// once per pair, in order, as soon as pair `i` is done: the pipeline's way, whose
/// manifolds live in its pair slots (no manifold is moved, and each is used while it
/// is still in the cache). Slots that no place names are left as they were; a place
/// named twice ends with the later pair's manifold (each `finish` still sees its own).
///
/// # Panics
/// When `caches` or `place` is not as long as `pairs`, or a place is out of
/// `manifolds`.
pub fn collide_box_pairs_scattered(
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    manifolds: &mut [Option<Manifold>],
    place: &[usize],
    finish: impl FnMut(usize, &PairCache, &Option<Manifold>),
) {
    assert_eq!(place.len(), pairs.len(), "one place per pair");
    let mut sink = Scatter {
        out: manifolds,
        place: |i| place[i],
        finish,
    };
    run_batch(SimdLevel::detected(), pairs, margin, caches, &mut sink);
}

/// Where a batch builds pair `i`'s manifold, and what it does once pair `i` is done.
trait Sink {
    /// The place of pair `i`'s manifold (overwritten).
    fn slot(&mut self, i: usize) -> &mut Option<Manifold>;
    /// Pair `i` is done: its cache is `cache`, its manifold in its slot.
    fn done(&mut self, i: usize, cache: &PairCache);
}

/// Manifolds built in one slot and handed over by value.
struct Handed<F> {
    held: Option<Manifold>,
    finish: F,
}

impl<F: FnMut(usize, &PairCache, Option<Manifold>)> Sink for Handed<F> {
    fn slot(&mut self, _: usize) -> &mut Option<Manifold> {
        &mut self.held
    }

    fn done(&mut self, i: usize, cache: &PairCache) {
        (self.finish)(i, cache, self.held.take());
    }
}

/// Manifolds built in their caller's slots, `out[place(i)]`.
struct Scatter<'m, P, F> {
    out: &'m mut [Option<Manifold>],
    place: P,
    finish: F,
}

impl<P: Fn(usize) -> usize, F: FnMut(usize, &PairCache, &Option<Manifold>)> Sink
    for Scatter<'_, P, F>
{
    fn slot(&mut self, i: usize) -> &mut Option<Manifold> {
        &mut self.out[(self.place)(i)]
    }

    fn done(&mut self, i: usize, cache: &PairCache) {
        (self.finish)(i, cache, &self.out[(self.place)(i)]);
    }
}

/// The batch (see the module docs): every pair's manifold into its `sink` slot.
fn run_batch(
    level: SimdLevel,
    pairs: &[BoxBoxPair],
    margin: f32,
    caches: &mut [PairCache],
    sink: &mut impl Sink,
) {
    assert_eq!(caches.len(), pairs.len(), "one cache per pair");
    let margin = sanitize_margin(margin);
    let mut bundle = Bundle::new();
    let chunks = pairs.chunks(LANES).zip(caches.chunks_mut(LANES));
    for (bundle_index, (pairs, caches)) in chunks.enumerate() {
        let first = bundle_index * LANES;
        bundle.load(level, pairs);
        bundle.measure(level, margin);
        for l in 0..pairs.len() {
            let i = first + l;
            if !bundle.active[l] {
                *sink.slot(i) = None;
                sink.done(i, &caches[l]);
                continue;
            }
            // The cache speaks the caller's order; the computation runs in the lane's.
            let swapped = bundle.swapped[l];
            let in_lane_order = |f: Feature| if swapped { f.flipped() } else { f };
            let cached = caches[l].last.map(|c| in_lane_order(c.feature));
            let outcome = bundle.outcome(level, l, margin, cached);
            if let SatOutcome::Separated(axis) = outcome {
                // What `box_manifold_into` does with a separated pair (remember the
                // axis), straight in the caller's order (a flipped cache flipped back
                // is the cache), without the lane's `BoxPair` (not built for pairs a
                // face separates).
                caches[l].remember(in_lane_order(axis.feature), true);
                *sink.slot(i) = None;
                sink.done(i, &caches[l]);
                continue;
            }
            // In the lane's order while the manifold is built (in place: a copy out and
            // back cost about 40 instructions a pair).
            if swapped {
                caches[l] = caches[l].flipped();
            }
            let (ha, hb, frame) = bundle.lane_boxes(level, l);
            let pose_a = bundle.pose_a(pairs, l);
            // Built in the lane's order and mirrored into the caller's as it is
            // written (what `Manifold::flip` would give, bit for bit).
            box_manifold_into(
                ha,
                hb,
                pose_a,
                &frame,
                margin,
                &mut caches[l],
                &outcome,
                swapped,
                sink.slot(i),
            );
            if swapped {
                caches[l] = caches[l].flipped();
            }
            sink.done(i, &caches[l]);
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
    let mut bundle = Bundle::new();
    for (pairs, out) in pairs.chunks(LANES).zip(contacts.chunks_mut(LANES)) {
        bundle.load(level, pairs);
        bundle.measure(level, margin);
        for l in 0..pairs.len() {
            out[l] = if bundle.active[l] {
                let c = bundle.contact_axis(level, l, margin).and_then(|exact| {
                    // What `contact` does with the SAT's outcome, which reads only its
                    // exact axis (`apart_within_margin`, `contact_from_outcome`).
                    let outcome = SatOutcome::Overlap {
                        exact,
                        preferred: exact,
                    };
                    match apart_within_margin(&outcome) {
                        Some((exact, _)) => bundle.speculative_contact(pairs, l, margin, &exact),
                        None => None,
                    }
                    .unwrap_or_else(|| contact_from_outcome(bundle.pose_a(pairs, l), outcome))
                });
                if bundle.swapped[l] {
                    c.map(|c| c.flipped())
                } else {
                    c
                }
            } else {
                None
            };
        }
    }
}

/// Up to 8 pairs in canonical order, per lane, and their separations: one scratch
/// reused from bundle to bundle, written in place.
///
/// Laid out in this order (`repr(C)`), at a cache line (`align(64)`), the lane arrays
/// first. A timing sweep over the caller's stack depth (twelve call sites, 16 bytes to
/// 3 KiB apart, `contact_box_pairs` on `box_pairs(1, 256, Resting)`, AVX2, 2 December
/// 2026) ran 45–51 ns a pair at every one so, where the compiler's layout (the same
/// arrays, also at multiples of 32 bytes) ran 180–190 ns at seven of the twelve, and a
/// criterion bench measured the slow figure. The cause was not pinned down (no hardware
/// counters on that machine); the pattern, sticky and set by where the stack sits, fits
/// loads waiting on earlier stores they only seem to alias. A process may still start
/// slow for its first ~0.4 s (seen in two runs of eight).
#[repr(C, align(64))]
struct Bundle {
    /// The same inputs across lanes, for the wide kernel.
    inputs: BoxBundle,
    separations: BundleSeparations,
    /// Both poses in the lane's order, in f64 lanes (the frames' input).
    poses: PoseLanes,
    /// Each lane's scan of its separations (when the edge rows were computed).
    scan: BundleScan,
    /// The scalar test's inputs per lane (and the frame they came from): built by
    /// `load` at the scalar level, and at a wide level only by `contact_axis` for the
    /// lanes apart within the margin (their speculative contact reads it).
    pairs: [BoxPair; LANES],
    /// Lanes holding a pair with valid poses (the others answer `None`).
    active: [bool; LANES],
    /// True when the caller's (a, b) is the reverse of the lane's order.
    swapped: [bool; LANES],
    /// Whether the last `measure` computed the edge rows and the scan (it does not when
    /// a face separates every lane in use).
    edges_measured: bool,
}

impl Bundle {
    fn new() -> Bundle {
        let identity = Frame {
            rot: Mat3::IDENTITY,
            rot_t: Mat3::IDENTITY,
            trans: Vec3::ZERO,
        };
        Bundle {
            active: [false; LANES],
            swapped: [false; LANES],
            poses: PoseLanes::default(),
            pairs: [BoxPair::new(Vec3::ONE, Vec3::ONE, &identity); LANES],
            inputs: BoxBundle::default(),
            separations: [[0.0; LANES]; 15],
            scan: BundleScan::new(),
            edges_measured: false,
        }
    }

    /// The first box's pose in lane `l`'s order, read from the caller's `pairs` (the
    /// bundle keeps only whether the pair was swapped).
    #[inline(always)]
    fn pose_a<'p>(&self, pairs: &'p [BoxBoxPair], l: usize) -> &'p Pose {
        if self.swapped[l] {
            &pairs[l].pose_b
        } else {
            &pairs[l].pose_a
        }
    }

    /// Half extents of the first and second box in lane `l`'s order (the kernel's
    /// inputs, the same values).
    #[inline(always)]
    fn extents(&self, l: usize) -> (Vec3, Vec3) {
        let (ha, hb) = (&self.inputs.ha, &self.inputs.hb);
        (
            Vec3::new(ha[0][l], ha[1][l], ha[2][l]),
            Vec3::new(hb[0][l], hb[1][l], hb[2][l]),
        )
    }

    /// Loads up to 8 pairs: as `collide` does, a pair with an invalid pose (or poses more
    /// than 5e37 apart along an axis) is left out,
    /// the others are put in canonical order and b is brought into a's frame (all 8
    /// frames at once at a wide level; pair by pair, into `pairs`, at the scalar one).
    fn load(&mut self, level: SimdLevel, pairs: &[BoxBoxPair]) {
        for (l, p) in pairs.iter().enumerate() {
            let (ha, hb) = (p.a.half_extents(), p.b.half_extents());
            let swapped = canonical_swap_boxes(ha, &p.pose_a, hb, &p.pose_b);
            let ((ha, pose_a), (hb, pose_b)) = if swapped {
                ((hb, &p.pose_b), (ha, &p.pose_a))
            } else {
                ((ha, &p.pose_a), (hb, &p.pose_b))
            };
            self.poses.set_lane(l, pose_a, pose_b);
            self.inputs.set_extents(l, ha, hb);
            self.swapped[l] = swapped;
        }
        // The pose checks for the 8 lanes at once, on what was loaded (an invalid pose's
        // lane computes a frame of NaNs that nothing reads).
        let answerable = if level != SimdLevel::Scalar {
            // The wide level: all 8 frames at once, straight into the kernel's inputs.
            frames(level, &self.poses, &mut self.inputs)
        } else {
            self.poses.answerable()
        };
        self.active = std::array::from_fn(|l| l < pairs.len() && answerable[l]);
        if level != SimdLevel::Scalar {
            return;
        }
        for l in 0..pairs.len() {
            if !self.active[l] {
                continue;
            }
            let (ha, hb) = self.extents(l);
            let p = &pairs[l];
            let (pose_a, pose_b) = if self.swapped[l] {
                (&p.pose_b, &p.pose_a)
            } else {
                (&p.pose_a, &p.pose_b)
            };
            self.pairs[l] = BoxPair::new(ha, hb, &Frame::new(pose_a, pose_b));
        }
    }

    /// The separations of every lane at a wide level (the scalar level measures lane by
    /// lane in `outcome`). When every lane in use is separated by a face axis, only the
    /// face rows are filled; `outcome` then never reads the others.
    fn measure(&mut self, level: SimdLevel, margin: f32) {
        if level != SimdLevel::Scalar {
            self.edges_measured = bundle_separations(
                level,
                &self.inputs,
                &self.active,
                margin,
                &mut self.separations,
                &mut self.scan,
            );
        }
    }

    /// Lane `l`'s contact when its boxes are apart within the margin by the SAT's
    /// `exact` axis: `speculative_contact`'s answer, as `contact` gives it.
    #[cold]
    fn speculative_contact(
        &self,
        pairs: &[BoxBoxPair],
        l: usize,
        margin: f32,
        exact: &Axis,
    ) -> Option<Option<Contact>> {
        let pair = &self.pairs[l];
        let (ha, hb) = (Vec3::from_array(pair.ha), Vec3::from_array(pair.hb));
        speculative_contact(
            &Solid::Box(ha),
            &Solid::Box(hb),
            (Core::Box(ha), Core::Box(hb)),
            self.pose_a(pairs, l),
            &pair.frame,
            margin,
            exact,
        )
    }

    /// Lane `l`'s exact axis, the one thing [`contact_box_pairs`] reads of the SAT:
    /// `None` when some axis separates the pair beyond the margin. At a wide level it
    /// is built alone (never the preferred axis), from the lanes by the scalar test's
    /// [`face_axis`] / [`edge_axis`]; a pair apart within the margin gets its
    /// `BoxPair` in `pairs[l]` (its speculative contact reads the lane's frame). The
    /// scalar level runs the scalar test, the twin.
    fn contact_axis(&mut self, level: SimdLevel, l: usize, margin: f32) -> Option<Axis> {
        if level == SimdLevel::Scalar {
            return match self.outcome(level, l, margin, None) {
                SatOutcome::Separated(_) => None,
                SatOutcome::Overlap { exact, .. } => Some(exact),
            };
        }
        // Without the edge rows every lane in use is separated by a face; with them the
        // scan has looked at all 15 axes.
        let scan = self.scan.lane(l);
        if !self.edges_measured || scan.first_separating.is_some() {
            return None;
        }
        let k = exact_axis_index(|k| self.separations[k][l], scan.best);
        let separation = self.separations[k][l];
        if separation > 0.0 {
            // Apart within the margin: `speculative_contact` reads the lane's frame.
            let (ha, hb) = self.extents(l);
            self.pairs[l] = BoxPair::new(ha, hb, &self.inputs.frame(l));
            return Some(self.pairs[l].axis(k, separation));
        }
        Some(self.lane_axis(l, k, separation))
    }

    /// Face axis `k < 6` of lane `l` with separation `s`, from the lanes: the scalar
    /// test's [`face_axis`] on the lane's entries.
    fn lane_face_axis(&self, l: usize, k: usize, s: f32) -> Axis {
        let (r, t) = (&self.inputs.r, &self.inputs.t);
        // Column `k − 3` of `R`, read only for a face of b (`k ≥ 3`).
        let j = k.wrapping_sub(3);
        let axis_b = || Vec3::new(r[0][j][l], r[1][j][l], r[2][j][l]);
        face_axis(k, s, &[t[0][l], t[1][l], t[2][l]], axis_b)
    }

    /// Lane `l`'s SAT outcome, chosen by the scalar test's code from the separations.
    /// At a wide level the axes are built from the lanes (the scalar test's
    /// [`face_axis`] and [`edge_axis`], on the same entries): no `BoxPair`, whose 60
    /// stores, and the reads of the frame that waited on them, cost more than the
    /// lanes' reads (`prof boxbatch touching`, task clock: 3–6% less).
    fn outcome(
        &self,
        level: SimdLevel,
        l: usize,
        margin: f32,
        cached: Option<Feature>,
    ) -> SatOutcome {
        if level == SimdLevel::Scalar {
            let pair = &self.pairs[l];
            let (ha, hb) = (Vec3::from_array(pair.ha), Vec3::from_array(pair.hb));
            return box_box(ha, hb, &pair.frame, margin, cached);
        }
        // The scalar test's `separated_by_face`: the first face axis above the margin.
        let faces: [f32; 6] = std::array::from_fn(|k| self.separations[k][l]);
        if let Some(k) = faces.iter().position(|&s| s > margin) {
            return SatOutcome::Separated(self.lane_face_axis(l, k, faces[k]));
        }
        let (ha, hb) = self.extents(l);
        let all = lane_separations(&self.separations, l);
        choose_scanned(
            ha,
            hb,
            &all,
            self.scan.lane(l),
            margin,
            cached,
            #[inline(always)]
            |k, s| self.lane_axis(l, k, s),
        )
    }

    /// Axis `k` of lane `l` with separation `s`, from the lanes: the scalar test's
    /// [`face_axis`] / [`edge_axis`] on the lane's entries (`BoxPair::axis`'s bits).
    #[inline(always)]
    fn lane_axis(&self, l: usize, k: usize, s: f32) -> Axis {
        if k < 6 {
            return self.lane_face_axis(l, k, s);
        }
        let (r, t) = (&self.inputs.r, &self.inputs.t);
        let t = [t[0][l], t[1][l], t[2][l]];
        edge_axis(k, s, |i, j| r[i][j][l], &t)
    }

    /// Lane `l`'s half extents and frame, for its manifold: the scalar level's
    /// `BoxPair`, a wide level's lanes (where no `BoxPair` is built: its 60 stores
    /// cost more than gathering the frame again).
    #[inline(always)]
    fn lane_boxes(&self, level: SimdLevel, l: usize) -> (Vec3, Vec3, Frame) {
        if level == SimdLevel::Scalar {
            let pair = &self.pairs[l];
            return (
                Vec3::from_array(pair.ha),
                Vec3::from_array(pair.hb),
                pair.frame,
            );
        }
        let (ha, hb) = self.extents(l);
        (ha, hb, self.inputs.frame(l))
    }
}
