//! Frame coherence: what a pair remembers from its last query.

use crate::Feature;

/// Per-pair memory between frames.
///
/// After each query it holds the feature pair of the last separating axis (when the pair
/// was apart) or of the contact normal. The next query tests that axis first: if it
/// still separates, the query returns at once; otherwise the feature seeds the search,
/// which lets more candidate axes be skipped. The answer is always the same as a cold
/// query's; only the work differs.
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

    pub(crate) fn remember(&mut self, feature: Feature, separated: bool) {
        self.last = Some(CachedAxis { feature, separated });
    }
}
