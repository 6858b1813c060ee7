//! Mass properties of a solid of uniform density: [`MassProperties`], and `volume` and
//! `mass_properties` on [`Sphere`], [`Cuboid`], [`Shape`] (and
//! [`ConvexHull`](crate::ConvexHull), in `hull/mass.rs`).
//!
//! # What is computed
//! For a solid `B` of density `ρ`, with `V` its volume:
//! * the mass `m = ρ V`;
//! * the centre of mass `c = (1/V) ∫_B x dV`;
//! * the inertia tensor about `c`: `I = ρ ∫_B (|r|² Id − r rᵀ) dV`, `r = x − c`.
//!
//! Every shape reduces to the same three numbers, computed in `f64`: its volume, its
//! centre and its **covariance** `C = ∫_B r rᵀ dV` (the second moments about the
//! centre). The inertia then follows in one line, `I = ρ (tr(C) Id − C)`, because
//! `|r|² = tr(r rᵀ)`. In closed form:
//! * sphere of radius `r`: `V = 4/3 π r³`, `C = V r²/5 · Id`, so `I = 2/5 m r² · Id`;
//! * box of half extents `h`: `V = 8 hx hy hz`, `C = V/3 · diag(hx², hy², hz²)`, so
//!   `I = m/3 · diag(hy² + hz², hx² + hz², hx² + hy²)`;
//! * capsule of half height `h` and radius `r` (a cylinder of length `2h` and two
//!   half balls): `V = π r² (2h) + 4/3 π r³`, and `C` the cylinder's plus the half
//!   balls' (see [`Capsule::mass_properties`]);
//! * convex hull: exact polyhedral integration over tetrahedra (see
//!   [`ConvexHull::mass_properties`](crate::ConvexHull::mass_properties)).
//!
//! # Frames
//! [`MassProperties::center_of_mass`] and [`MassProperties::inertia`] are in the
//! shape's **local frame**, and the inertia is taken **about the centre of mass**. A
//! body at rotation `R` has world inertia `R I Rᵀ` and inverse world inertia
//! `R I⁻¹ Rᵀ` ([`MassProperties::inverse_inertia_world`]); the centre of mass is at
//! `pose.transform_point(center_of_mass)`. Spheres and boxes have their centre of mass
//! at the local origin; a hull's is wherever its volume puts it, which is not the
//! vertex mean ([`ConvexHull::centroid`](crate::ConvexHull::centroid)).
//!
//! # Bad input and range
//! * A density that is zero, negative, NaN or infinite gives
//!   [`ShapeError::InvalidDensity`].
//! * The integrals run in `f64`, where no `f32` shape overflows (they grow with the fifth
//!   power of the size: `(3.4e38)⁵ ≈ 4.5e192 < 1.8e308`). The result is rounded to
//!   `f32`; when the mass or a diagonal moment of inertia is not a positive normal `f32`
//!   (overflow to infinity, or underflow below `f32::MIN_POSITIVE`), the answer is
//!   [`ShapeError::MassOutOfRange`]. So a returned [`MassProperties`] is always finite,
//!   with a positive mass and a symmetric positive definite inertia: never a silent NaN.
//! * `volume()` is the same `f64` integral rounded to `f32`: `+∞` when it does not fit.
//!
//! ```
//! use sepax_geometry::{Cuboid, ShapeError};
//! use glam::Vec3;
//!
//! let cube = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap(); // 1 × 1 × 1
//! let props = cube.mass_properties(2.0).unwrap();
//! assert_eq!(props.mass, 2.0);
//! assert_eq!(props.center_of_mass, Vec3::ZERO);
//! // I = m/3 (h² + h²) = 2/3 · 0.5 = 1/3 on every axis.
//! assert!((props.inertia.x_axis.x - 1.0 / 3.0).abs() < 1e-6);
//! assert_eq!(cube.mass_properties(0.0), Err(ShapeError::InvalidDensity(0.0)));
//! ```

use crate::{Capsule, Cuboid, Shape, ShapeError, Sphere};
use glam::{DMat3, DVec3, Mat3, Quat, Vec3};

/// Mass, centre of mass and inertia of a solid of uniform density (see the
/// [module docs](self) for the formulas and frames).
///
/// A plain value: the fields may be set freely (to combine shapes, say). Values from a
/// shape's `mass_properties` are always finite with `mass > 0` and a symmetric
/// positive definite `inertia`; the inverse helpers also accept anything else and
/// answer zero, never NaN, where no finite inverse exists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// The mass: density times volume.
    pub mass: f32,
    /// The centre of mass, in the shape's local frame.
    pub center_of_mass: Vec3,
    /// The inertia tensor about the centre of mass, axes of the shape's local frame.
    pub inertia: Mat3,
}

impl MassProperties {
    /// `1 / mass`, or `0` when the mass is zero, negative, not finite or so small that
    /// its inverse overflows: a solver reads an inverse mass of 0 as "does not move".
    ///
    /// ```
    /// use sepax_geometry::MassProperties;
    /// use glam::{Mat3, Vec3};
    /// let p = MassProperties { mass: 4.0, center_of_mass: Vec3::ZERO, inertia: Mat3::IDENTITY };
    /// assert_eq!(p.inverse_mass(), 0.25);
    /// assert_eq!(MassProperties { mass: 0.0, ..p }.inverse_mass(), 0.0);
    /// ```
    pub fn inverse_mass(&self) -> f32 {
        let inverse = 1.0 / self.mass;
        if self.mass > 0.0 && inverse.is_finite() {
            inverse
        } else {
            0.0
        }
    }

    /// `I⁻¹` in the local frame, or the zero matrix when there is no finite inverse.
    ///
    /// The inertia is symmetrized (`(I + Iᵀ)/2`) and inverted in `f64` when it is
    /// finite and positive definite (Sylvester's criterion: the leading minors
    /// `I₀₀`, `I₀₀ I₁₁ − I₀₁²` and `det I` are all positive) and the inverse fits in
    /// `f32`. Otherwise (a zero, infinite, NaN, singular or indefinite inertia) the
    /// answer is `Mat3::ZERO`, which a solver reads as "does not rotate". A partly
    /// singular tensor (a thin rod's zero moment about its axis) counts as singular.
    pub fn inverse_inertia(&self) -> Mat3 {
        let i = self.inertia.as_dmat3();
        let s = (i + i.transpose()) * 0.5;
        let minor2 = s.x_axis.x * s.y_axis.y - s.x_axis.y * s.y_axis.x;
        let det = s.determinant();
        let definite = s.x_axis.x > 0.0 && minor2 > 0.0 && det > 0.0;
        if !(s.is_finite() && det.is_finite() && definite) {
            return Mat3::ZERO;
        }
        let inverse = s.inverse().as_mat3();
        if inverse.is_finite() {
            inverse
        } else {
            Mat3::ZERO
        }
    }

    /// The inverse inertia in world axes for a body at `rotation`: `R I⁻¹ Rᵀ`, with
    /// `I⁻¹` from [`inverse_inertia`](Self::inverse_inertia) (so the zero matrix when
    /// the inertia has no finite inverse). `rotation` should be unit length; a
    /// non-finite rotation also gives the zero matrix, never NaN.
    ///
    /// ```
    /// use sepax_geometry::Cuboid;
    /// use glam::{Quat, Vec3};
    /// let rod = Cuboid::try_from_half_extents(Vec3::new(2.0, 0.1, 0.1)).unwrap();
    /// let p = rod.mass_properties(1.0).unwrap();
    /// // Turned 90° about z, the rod's long axis is world y: spinning about world y is
    /// // now the easy rotation (largest inverse inertia).
    /// let w = p.inverse_inertia_world(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    /// assert!(w.y_axis.y > 10.0 * w.x_axis.x);
    /// ```
    pub fn inverse_inertia_world(&self, rotation: Quat) -> Mat3 {
        let r = Mat3::from_quat(rotation);
        let world = r * self.inverse_inertia() * r.transpose();
        if world.is_finite() { world } else { Mat3::ZERO }
    }
}

/// A checked density, widened to `f64`: finite and positive, else `InvalidDensity`.
pub(crate) fn check_density(density: f32) -> Result<f64, ShapeError> {
    if density.is_finite() && density > 0.0 {
        Ok(density as f64)
    } else {
        Err(ShapeError::InvalidDensity(density))
    }
}

/// The unit-density moments every shape computes in `f64`: volume `V`, centre `c`
/// and covariance `C = ∫ (x − c)(x − c)ᵀ dV`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moments {
    pub volume: f64,
    pub center: DVec3,
    pub covariance: DMat3,
}

impl Moments {
    /// `m = ρ V`, `I = ρ (tr(C) Id − C)`, rounded to `f32`; `MassOutOfRange` when the
    /// mass or a diagonal moment is not a positive normal `f32`.
    pub fn mass_properties(&self, density: f64) -> Result<MassProperties, ShapeError> {
        let c = self.covariance;
        let trace = c.x_axis.x + c.y_axis.y + c.z_axis.z;
        let inertia = (DMat3::from_diagonal(DVec3::splat(trace)) - c) * density;
        let props = MassProperties {
            mass: (density * self.volume) as f32,
            center_of_mass: self.center.as_vec3(),
            inertia: inertia.as_mat3(),
        };
        let i = props.inertia;
        let in_range = [props.mass, i.x_axis.x, i.y_axis.y, i.z_axis.z]
            .iter()
            .all(|v| v.is_normal() && *v > 0.0);
        if in_range && i.is_finite() && props.center_of_mass.is_finite() {
            Ok(props)
        } else {
            Err(ShapeError::MassOutOfRange)
        }
    }
}

impl Sphere {
    // V = 4/3 π r³; C = ∫ r rᵀ = (1/3) ∫ |r|² Id = (1/3)(3/5 V r²) Id = V r²/5 · Id.
    fn moments(&self) -> Moments {
        let r = self.radius() as f64;
        let volume = 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
        Moments {
            volume,
            center: DVec3::ZERO,
            covariance: DMat3::from_diagonal(DVec3::splat(volume * r * r / 5.0)),
        }
    }

    /// `4/3 π r³`, computed in `f64` and rounded (`+∞` when it does not fit in `f32`).
    ///
    /// ```
    /// use sepax_geometry::Sphere;
    /// let v = Sphere::try_new(1.0).unwrap().volume();
    /// assert!((v - 4.0 / 3.0 * std::f32::consts::PI).abs() < 1e-6);
    /// ```
    pub fn volume(&self) -> f32 {
        self.moments().volume as f32
    }

    /// Mass properties at `density`: `m = ρ V`, centre at the origin,
    /// `I = 2/5 m r² · Id`. Errors: [`ShapeError::InvalidDensity`],
    /// [`ShapeError::MassOutOfRange`] (see the [module docs](crate::mass)).
    ///
    /// ```
    /// use sepax_geometry::Sphere;
    /// let p = Sphere::try_new(2.0).unwrap().mass_properties(1.0).unwrap();
    /// assert!((p.inertia.x_axis.x - 0.4 * p.mass * 4.0).abs() < 1e-4 * p.mass);
    /// ```
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        let density = check_density(density)?;
        self.moments().mass_properties(density)
    }
}

impl Cuboid {
    // V = 8 hx hy hz; ∫ x² over [−hx, hx] × … = V hx²/3, and the off-diagonal integrals
    // vanish by symmetry: C = V/3 · diag(hx², hy², hz²).
    fn moments(&self) -> Moments {
        let h = self.half_extents().as_dvec3();
        let volume = 8.0 * h.x * h.y * h.z;
        Moments {
            volume,
            center: DVec3::ZERO,
            covariance: DMat3::from_diagonal(h * h * (volume / 3.0)),
        }
    }

    /// `8 hx hy hz` (the full size's product), computed in `f64` and rounded (`+∞` when
    /// it does not fit in `f32`).
    ///
    /// ```
    /// use sepax_geometry::Cuboid;
    /// use glam::Vec3;
    /// assert_eq!(Cuboid::try_from_size(Vec3::new(1.0, 2.0, 3.0)).unwrap().volume(), 6.0);
    /// ```
    pub fn volume(&self) -> f32 {
        self.moments().volume as f32
    }

    /// Mass properties at `density`: `m = ρ V`, centre at the origin,
    /// `I = m/3 · diag(hy² + hz², hx² + hz², hx² + hy²)`. Errors:
    /// [`ShapeError::InvalidDensity`], [`ShapeError::MassOutOfRange`] (see the
    /// [module docs](crate::mass)).
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        let density = check_density(density)?;
        self.moments().mass_properties(density)
    }
}

impl Capsule {
    // Cylinder of radius r, length 2h: V_c = 2π r² h, ∫x² = V_c r²/4 (a disc's
    // ∫x² dA = π r⁴/4), ∫y² = V_c h²/3. Two half balls (together a ball, V_b = 4/3 π r³)
    // with their flat faces at y = ±h: ∫x² = V_b r²/5 as for the ball; with y = h + y'
    // on the top one, ∫y² = ∫(h² + 2h y' + y'²) = V_b/2 (h² + 2h · 3r/8 + r²/5) (the
    // half ball's centroid is 3r/8 above its face), the same on the bottom one.
    fn moments(&self) -> Moments {
        let (h, r) = (self.half_height() as f64, self.radius() as f64);
        let pi = std::f64::consts::PI;
        let cylinder = 2.0 * pi * r * r * h;
        let ball = 4.0 / 3.0 * pi * r * r * r;
        let across = cylinder * r * r / 4.0 + ball * r * r / 5.0;
        let along = cylinder * h * h / 3.0 + ball * (h * h + 0.75 * h * r + r * r / 5.0);
        Moments {
            volume: cylinder + ball,
            center: DVec3::ZERO,
            covariance: DMat3::from_diagonal(DVec3::new(across, along, across)),
        }
    }

    /// `2π r² h + 4/3 π r³`, computed in `f64` and rounded (`+∞` when it does not fit
    /// in `f32`).
    ///
    /// ```
    /// use sepax_geometry::{Capsule, Sphere};
    /// // With no core segment, a capsule is a ball.
    /// let v = Capsule::try_new(0.0, 1.0).unwrap().volume();
    /// assert_eq!(v, Sphere::try_new(1.0).unwrap().volume());
    /// ```
    pub fn volume(&self) -> f32 {
        self.moments().volume as f32
    }

    /// Mass properties at `density`: `m = ρ V`, centre at the origin, inertia about
    /// the centre diagonal in the local axes, from the cylinder's and the two half
    /// balls' second moments (see the [module docs](crate::mass)). Errors:
    /// [`ShapeError::InvalidDensity`], [`ShapeError::MassOutOfRange`].
    ///
    /// ```
    /// use sepax_geometry::Capsule;
    /// let p = Capsule::try_new(1.0, 0.25).unwrap().mass_properties(1.0).unwrap();
    /// // Long and thin: spinning about its own axis (y) is the easy rotation.
    /// assert!(p.inertia.y_axis.y < p.inertia.x_axis.x);
    /// assert_eq!(p.inertia.x_axis.x, p.inertia.z_axis.z);
    /// ```
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        let density = check_density(density)?;
        self.moments().mass_properties(density)
    }
}

impl Shape {
    /// The volume of the shape (see each shape's `volume`); 0 for a triangle mesh (a
    /// surface).
    ///
    /// ```
    /// use sepax_geometry::{Cuboid, Shape};
    /// use glam::Vec3;
    /// let s = Shape::from(Cuboid::try_from_half_extents(Vec3::ONE).unwrap());
    /// assert_eq!(s.volume(), 8.0);
    /// ```
    pub fn volume(&self) -> f32 {
        match self {
            Shape::Sphere(s) => s.volume(),
            Shape::Cuboid(c) => c.volume(),
            Shape::ConvexHull(h) => h.volume(),
            Shape::Capsule(c) => c.volume(),
            // A surface encloses nothing.
            Shape::TriMesh(_) => 0.0,
        }
    }

    /// The mass properties of the shape at `density` (see each shape's
    /// `mass_properties`). Errors: [`ShapeError::InvalidDensity`],
    /// [`ShapeError::MassOutOfRange`], and [`ShapeError::NotSolid`] for a triangle mesh.
    ///
    /// ```
    /// use sepax_geometry::{Shape, ShapeError, Sphere};
    /// let s = Shape::from(Sphere::try_new(1.0).unwrap());
    /// assert!(s.mass_properties(1000.0).is_ok());
    /// assert_eq!(s.mass_properties(-1.0), Err(ShapeError::InvalidDensity(-1.0)));
    /// ```
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        match self {
            Shape::Sphere(s) => s.mass_properties(density),
            Shape::Cuboid(c) => c.mass_properties(density),
            Shape::ConvexHull(h) => h.mass_properties(density),
            Shape::Capsule(c) => c.mass_properties(density),
            Shape::TriMesh(_) => Err(ShapeError::NotSolid),
        }
    }
}
