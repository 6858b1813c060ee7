//! A tiny seeded PRNG (SplitMix64) for scenes shared by tests, benches and examples.
//!
//! Not for cryptography. The same seed gives the same sequence on every machine, so a
//! scene built from it is the same in a unit test, a criterion bench and the `stress`
//! example.
//!
//! ```
//! use sepax_geometry::rng::Rng;
//! let mut a = Rng::new(7);
//! let mut b = Rng::new(7);
//! assert_eq!(a.next_u64(), b.next_u64());
//! let x = a.range(-1.0, 1.0);
//! assert!((-1.0..1.0).contains(&x));
//! ```

use glam::{Quat, Vec3};

/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit counter run through a mixing function.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, 24 bits of precision.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `[0, n)` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A point uniform in the box `[lo, hi]`.
    pub fn vec3(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(
            self.range(lo.x, hi.x),
            self.range(lo.y, hi.y),
            self.range(lo.z, hi.z),
        )
    }

    /// A direction uniform on the unit sphere.
    pub fn unit_vec3(&mut self) -> Vec3 {
        loop {
            let v = self.vec3(Vec3::splat(-1.0), Vec3::splat(1.0));
            let l2 = v.length_squared();
            if l2 > 1e-4 && l2 <= 1.0 {
                return v / l2.sqrt();
            }
        }
    }

    /// A rotation uniform over SO(3) (Shoemake's method).
    pub fn rotation(&mut self) -> Quat {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f32::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        Quat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize()
    }
}
