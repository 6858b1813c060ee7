//! World configuration.

/// How a [`CollisionWorld`](crate::CollisionWorld) runs.
///
/// ```
/// use sepax_pipeline::Config;
/// let config = Config { threads: 2, ..Config::default() };
/// assert_eq!(config.margin, 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Worker threads of the world's own rayon pool; 0 means one per core.
    /// The output does not depend on this number.
    pub threads: usize,
    /// Contact margin: AABBs grow by it and pairs apart by less than it get
    /// speculative contacts (negative depth). 0 reports touching and penetrating
    /// pairs only. A negative or NaN margin counts as 0.
    pub margin: f32,
    /// Pairs per parallel task in the narrow phase. The chunking is fixed by this
    /// number, not by the thread count.
    pub narrow_chunk: usize,
    /// Bodies per parallel task in the AABB update.
    pub aabb_chunk: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 0,
            margin: 0.0,
            narrow_chunk: 128,
            aabb_chunk: 1024,
        }
    }
}
