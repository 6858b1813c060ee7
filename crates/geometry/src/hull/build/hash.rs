//! The builder's hash maps (grid cells, directed edges, loop successors) with a small
//! deterministic hash instead of std's SipHash.
//!
//! SipHash is built to resist collision attacks on keys an adversary chooses; the
//! builder's keys are its own vertex indices and grid cells, and its maps are only
//! looked up, never iterated, so the hash function cannot change a result — only how
//! long it takes. The hash is FxHash's step (rotate, xor the next word, multiply by an
//! odd constant with well-mixed high bits) over each 64-bit word of the key. With
//! SipHash, hashing was about a third of the build of a 24-point hull.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by the builder's indices or cells (see the [module docs](self)).
pub(crate) type IndexMap<K, V> = HashMap<K, V, BuildHasherDefault<IndexHasher>>;

/// The hasher of [`IndexMap`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IndexHasher(u64);

impl IndexHasher {
    /// FxHash's odd multiplier (from the Rust compiler's `FxHasher`).
    const K: u64 = 0x517c_c1b7_2722_0a95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl Hasher for IndexHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    #[inline]
    fn write_i64(&mut self, v: i64) {
        self.add(v as u64);
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that differ hash apart, and the map finds what it was given (a sanity check
    /// of the hasher, not of `HashMap`).
    #[test]
    fn distinct_keys_are_found() {
        let mut map: IndexMap<(u32, u32), u32> = IndexMap::default();
        for a in 0..200u32 {
            for b in 0..50u32 {
                map.insert((a, b), a * 1000 + b);
            }
        }
        for a in 0..200u32 {
            for b in 0..50u32 {
                assert_eq!(map.get(&(a, b)), Some(&(a * 1000 + b)));
            }
        }
        assert_eq!(map.get(&(200, 0)), None);
        let mut cells: IndexMap<[i64; 3], u32> = IndexMap::default();
        cells.insert([-1, 2, -3], 7);
        assert_eq!(cells.get(&[-1, 2, -3]), Some(&7));
        assert_eq!(cells.get(&[-1, 2, 3]), None);
    }
}
