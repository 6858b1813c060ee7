//! Frame coherence: what a pair remembers from its last query.

use crate::Feature;
use crate::distance::SimplexHint;
use crate::manifold::replay::KeptClip;

/// Per-pair memory between frames.
///
/// After each query it holds the feature pair of the last separating axis (when the pair
/// was apart) or of the manifold's reference feature. The next query tests that axis
/// first: if it still separates, the query returns at once. Otherwise it is the
/// feature the preference keeps while it stays within the slop of the exact axis
/// ([`FEATURE_SLOP`](crate::FEATURE_SLOP)): this hysteresis is what keeps a resting
/// pair on the same reference face, and so its feature ids, from frame to frame.
///
/// So a warm answer may differ from a cold one, within these bounds: the same verdict
/// for touching pairs, a manifold depth at most the slop above the exact depth, and the
/// same answer again when the same poses are queried with the cache the query left
/// (the pipeline relies on that to reuse the manifolds of resting pairs). A default
/// (empty) cache gives the cold answer.
///
/// For a polytope pair apart within the margin it also keeps GJK's last simplex (as
/// vertex indices), the warm start of the next distance measurement; a query repeated
/// with the cache it left retraces GJK's last round and gives the same bits.
///
/// For hull queries it also keeps last query's **support vertices** (b's vertex under
/// a's best face, a's under b's best face). The next query starts its face queries from
/// them: each is a point of the other shape, so it bounds every face's separation
/// from above and lets the query skip faces that cannot win (see `sat::hull_hull::faces`).
/// They only ever skip work, never change an answer: a query with them gives the same
/// bits as one without ([`PairCache::forget_support`]), which
/// `tests/hull_warm_equals_cold.rs` checks on random motion sequences.
///
/// For a hull pair on a kept face it keeps the features of the face contact's last
/// clip, and how far the pair may move before a fresh clip could name other points:
/// within that reach the next query works the points out from those features without
/// clipping (see "Replayed face contacts" in the docs of [`collide`](crate::collide)).
/// That record and GJK's simplex share one room (a pair is apart or on a face), which
/// keeps the cache at 64 bytes.
///
/// ```
/// use sepax_narrowphase::PairCache;
/// let cache = PairCache::default();
/// assert!(cache.last().is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCache {
    pub(crate) last: Option<CachedAxis>,
    pub(crate) support: SupportHints,
    pub(crate) recall: Recall,
}

/// The rest of a pair's memory, one thing at a time (the two serve pairs apart and
/// pairs on a face; one room keeps the cache small, and the pipeline carries a cache
/// for every pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Recall {
    #[default]
    Nothing,
    /// Last distance query's simplex (GJK's warm start): from `closest_points`, and
    /// from `collide` on a polytope pair apart within the margin (see `speculative`).
    Simplex(SimplexHint),
    /// Last clip of a kept face (hull–hull and box–hull pairs): its points' features
    /// and how far the incident shape may move before they could change
    /// (`manifold::replay`).
    Clip(KeptClip),
}

/// Last hull query's support vertices (indices; `u16::MAX` for none), the warm start of
/// the face queries. Any vertex index is a valid start, stale or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SupportHints {
    /// b's vertex furthest into a along a's best face normal.
    pub b_under_face_a: u16,
    /// a's vertex furthest into b along b's best face normal.
    pub a_under_face_b: u16,
}

impl SupportHints {
    /// No vertex remembered.
    pub const NONE: SupportHints = SupportHints {
        b_under_face_a: u16::MAX,
        a_under_face_b: u16::MAX,
    };

    /// The hints for the pair in the other order.
    pub fn flipped(self) -> SupportHints {
        SupportHints {
            b_under_face_a: self.a_under_face_b,
            a_under_face_b: self.b_under_face_a,
        }
    }
}

impl Default for SupportHints {
    fn default() -> SupportHints {
        SupportHints::NONE
    }
}

/// The remembered axis of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachedAxis {
    /// Which features define the axis.
    pub feature: Feature,
    /// True when that axis separated the pair (beyond the margin).
    pub separated: bool,
}

impl PairCache {
    /// The remembered axis, if any.
    pub fn last(&self) -> Option<CachedAxis> {
        self.last
    }

    /// Forget everything: the remembered axis and the support vertices.
    pub fn clear(&mut self) {
        *self = PairCache::default();
    }

    /// Forget the support vertices only, keeping the remembered axis: the next hull
    /// query then runs cold (it finds its own starting vertices) and gives the same
    /// answer, bit for bit, as with them.
    pub fn forget_support(&mut self) {
        self.support = SupportHints::NONE;
    }

    /// The same memory for the pair in the other order.
    pub(crate) fn flipped(&self) -> PairCache {
        PairCache {
            last: self.last.map(|c| CachedAxis {
                feature: c.feature.flipped(),
                separated: c.separated,
            }),
            support: self.support.flipped(),
            recall: match self.recall {
                Recall::Nothing => Recall::Nothing,
                Recall::Simplex(hint) => Recall::Simplex(hint.flipped()),
                Recall::Clip(clip) => Recall::Clip(clip.flipped()),
            },
        }
    }

    /// Last distance query's simplex (empty when the cache holds none).
    pub(crate) fn simplex(&self) -> SimplexHint {
        match self.recall {
            Recall::Simplex(hint) => hint,
            _ => SimplexHint::default(),
        }
    }

    pub(crate) fn set_simplex(&mut self, hint: SimplexHint) {
        self.recall = Recall::Simplex(hint);
    }

    /// The record of a kept face's last clip, taken out (empty when the cache holds
    /// none; a simplex stays).
    pub(crate) fn take_clip(&mut self) -> KeptClip {
        match self.recall {
            Recall::Clip(clip) => {
                self.recall = Recall::Nothing;
                clip
            }
            _ => KeptClip::default(),
        }
    }

    /// Keeps `clip` unless it is empty.
    pub(crate) fn keep_clip(&mut self, clip: KeptClip) {
        if clip != KeptClip::default() {
            self.recall = Recall::Clip(clip);
        }
    }

    pub(crate) fn remember(&mut self, feature: Feature, separated: bool) {
        self.last = Some(CachedAxis { feature, separated });
    }
}
