//! Reading structured values out of fuzzer bytes.
//!
//! A fuzzer hands over an arbitrary byte string; [`Bytes`] turns it into numbers the
//! way the targets need them. Two rules make this work well with a coverage-guided
//! fuzzer:
//!
//! * **Never fail.** Past the end every read returns zeros, so every byte string is a
//!   valid input and a short one means "the simplest value" everywhere after it.
//! * **A vocabulary, not raw bits.** A float is chosen by a tag byte from a few
//!   families ([`Bytes::value`]): small lattice numbers (so that duplicates, collinear
//!   and coplanar points appear by chance), lattice numbers with a tiny jitter (nearly
//!   degenerate), fine fixed-point numbers, numbers over forty decades, a table of
//!   special values (0, −0, ±∞, NaN, `f32::MAX`, denormals, ...) and raw bit patterns.
//!   A fuzzer mutating one tag byte jumps between families; raw bits alone would almost
//!   never give two equal coordinates.
//!
//! [`Mode::Ordinary`] keeps to the first three families (magnitudes about 1e-6 to 100),
//! where answers can be judged against an oracle with tight tolerances; [`Mode::Wild`]
//! uses all of them.

use glam::{Quat, Vec3};

/// Which values [`Bytes::value`] may produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Finite values of ordinary size: lattice numbers, near-lattice numbers, fixed point.
    Ordinary,
    /// Anything, NaN and infinities included.
    Wild,
}

impl Mode {
    /// The mode of a target's flags byte: bit 0 set is [`Mode::Wild`].
    pub fn from_flags(flags: u8) -> Mode {
        if flags & 1 == 0 {
            Mode::Ordinary
        } else {
            Mode::Wild
        }
    }
}

/// Special values a careless or hostile caller passes.
pub const SPECIAL: [f32; 24] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-45,
    1e-20,
    1e-7,
    f32::EPSILON,
    1.0 + f32::EPSILON,
    1e7,
    1e20,
    1e30,
    1.7e38,
    2e38,
    3e38,
    -3e38,
];

/// A cursor over fuzzer bytes that reads zeros past the end.
#[derive(Clone, Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, pos: 0 }
    }

    /// True once every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The next byte, 0 past the end.
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// Two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// Four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// A number in `0..n` (`n` at most 256) from one byte.
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n.max(1)
    }

    /// A float chosen by a tag byte from the families of the [module docs](self).
    pub fn value(&mut self, mode: Mode) -> f32 {
        let tag = self.u8();
        let family = match mode {
            Mode::Ordinary => tag % 8,
            Mode::Wild => tag % 12,
        };
        match family {
            // Lattice: quarters in [-32, 32).
            0..=3 => self.u8() as i8 as f32 * 0.25,
            // Lattice with a jitter of up to ±1.3e-5: nearly duplicate or coplanar.
            4 | 5 => self.u8() as i8 as f32 * 0.25 + self.u8() as i8 as f32 * 1e-7,
            // Fixed point: 1/1024 steps in [-32, 32).
            6 | 7 => self.u16() as i16 as f32 / 1024.0,
            // Forty decades: m · 10^e, m in [-32, 32), e in [-20, 20].
            8 | 9 => {
                let m = self.u16() as i16 as f32 / 1024.0;
                let e = self.below(41) as i32 - 20;
                m * 10f32.powi(e)
            }
            10 => SPECIAL[self.below(SPECIAL.len())],
            _ => f32::from_bits(self.u32()),
        }
    }

    /// A positive-looking value: `|value|` (NaN stays NaN, −0 becomes 0).
    pub fn magnitude(&mut self, mode: Mode) -> f32 {
        self.value(mode).abs()
    }

    /// Three values.
    pub fn vec3(&mut self, mode: Mode) -> Vec3 {
        Vec3::new(self.value(mode), self.value(mode), self.value(mode))
    }

    /// A rotation. One tag byte picks it: the identity, a quarter turn about an axis
    /// (exact axis-aligned faces), an angle in 1/256 turns about a lattice axis, or four
    /// values normalised in f32. In [`Mode::Wild`] the four values are sometimes left
    /// as they are (a non-unit or non-finite quaternion, which a pose refuses).
    pub fn rotation(&mut self, mode: Mode) -> Quat {
        match self.below(8) {
            0 => Quat::IDENTITY,
            1 => {
                let axis = [Vec3::X, Vec3::Y, Vec3::Z][self.below(3)];
                Quat::from_axis_angle(axis, std::f32::consts::FRAC_PI_2 * self.below(4) as f32)
            }
            2..=4 => {
                let axis = Vec3::new(
                    self.below(5) as f32 - 2.0,
                    self.below(5) as f32 - 2.0,
                    self.below(5) as f32 - 2.0,
                )
                .try_normalize()
                .unwrap_or(Vec3::Z);
                Quat::from_axis_angle(axis, std::f32::consts::TAU * self.u8() as f32 / 256.0)
            }
            5 if mode == Mode::Wild => Quat::from_xyzw(
                self.value(mode),
                self.value(mode),
                self.value(mode),
                self.value(mode),
            ),
            _ => {
                let q = Quat::from_xyzw(
                    self.value(Mode::Ordinary),
                    self.value(Mode::Ordinary),
                    self.value(Mode::Ordinary),
                    self.value(Mode::Ordinary),
                );
                let length = q.length();
                if length > 1e-6 {
                    q / length
                } else {
                    Quat::IDENTITY
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_zeros_past_the_end() {
        let mut b = Bytes::new(&[7]);
        assert_eq!(b.u8(), 7);
        assert!(b.is_empty());
        assert_eq!(b.u32(), 0);
        assert_eq!(b.value(Mode::Wild), 0.0);
    }

    #[test]
    fn ordinary_values_are_finite_and_moderate() {
        let data: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let mut b = Bytes::new(&data);
        while !b.is_empty() {
            let v = b.value(Mode::Ordinary);
            assert!(v.is_finite() && v.abs() <= 32.0, "{v}");
        }
    }
}
