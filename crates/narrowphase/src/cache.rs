//! Frame coherence: what a pair remembers from its last query.

use crate::Feature;

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
/// ```
/// use sepax_narrowphase::PairCache;
/// let cache = PairCache::default();
/// assert!(cache.last().is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCache {
    pub(crate) last: Option<CachedAxis>,
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

    /// Forget the remembered axis.
    pub fn clear(&mut self) {
        self.last = None;
    }

    /// The same memory for the pair in the other order.
    pub(crate) fn flipped(&self) -> PairCache {
        PairCache {
            last: self.last.map(|c| CachedAxis {
                feature: c.feature.flipped(),
                separated: c.separated,
            }),
        }
    }

    pub(crate) fn remember(&mut self, feature: Feature, separated: bool) {
        self.last = Some(CachedAxis { feature, separated });
    }
}
