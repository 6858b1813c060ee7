//! What a body is made of: [`BodyDesc`], [`BodyKind`], [`Groups`] and the
//! generational [`BodyHandle`].

use sepax_geometry::{Pose, Shape};

/// A generational index tagged with its world: the slot of a body, the generation of
/// that slot when the body was inserted, and the identity of the world that issued it.
///
/// Removing a body bumps the slot's generation, so an old handle can never reach the
/// body that later reuses the slot; a handle from another [`CollisionWorld`] never
/// reaches this world's bodies, whatever its index. Both get
/// [`WorldError::StaleHandle`](crate::WorldError::StaleHandle).
///
/// World identities come from a process-wide counter, one per
/// [`CollisionWorld::new`]; they repeat only after 2³² worlds have been created.
///
/// **Equality, order and hashing use the slot index and generation only**, not the
/// world: two worlds fed the same calls issue equal handles and produce reports that
/// compare (and hash) equal, which is what the determinism promise needs (world
/// identities depend on how many worlds the process created before). Within one world
/// the world identity never differs. Use [`world`](Self::world) to tell handles of two
/// worlds apart; every lookup of a world checks it. Handles order by slot index first;
/// the step reports pairs in that order.
///
/// ```
/// use sepax_pipeline::{BodyDesc, CollisionWorld, Config, WorldError};
/// use sepax_pipeline::geometry::{Pose, Sphere};
///
/// let ball = Sphere::try_new(1.0).unwrap();
/// let mut a = CollisionWorld::new(Config::default()).unwrap();
/// let mut b = CollisionWorld::new(Config::default()).unwrap();
/// let in_a = a.insert(BodyDesc::dynamic(ball, Pose::IDENTITY)).unwrap();
/// let in_b = b.insert(BodyDesc::dynamic(ball, Pose::IDENTITY)).unwrap();
/// assert_eq!(in_a, in_b); // the same slot and generation...
/// assert_ne!(in_a.world(), in_b.world()); // ...issued by two worlds
/// assert_eq!(a.pose(in_b), Err(WorldError::StaleHandle(in_b)));
/// ```
///
/// [`CollisionWorld`]: crate::CollisionWorld
/// [`CollisionWorld::new`]: crate::CollisionWorld::new
#[derive(Clone, Copy, Debug)]
pub struct BodyHandle {
    index: u32,
    generation: u32,
    world: u32,
}

impl PartialEq for BodyHandle {
    fn eq(&self, other: &Self) -> bool {
        (self.index, self.generation) == (other.index, other.generation)
    }
}

impl Eq for BodyHandle {}

impl PartialOrd for BodyHandle {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BodyHandle {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.index, self.generation).cmp(&(other.index, other.generation))
    }
}

impl std::hash::Hash for BodyHandle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.index, self.generation).hash(state);
    }
}

impl BodyHandle {
    pub(crate) fn new(index: u32, generation: u32, world: u32) -> BodyHandle {
        BodyHandle {
            index,
            generation,
            world,
        }
    }

    /// The slot index (dense, reused after a removal once a step has run).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The generation of the slot when this body was inserted.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// The identity of the world that issued this handle.
    pub fn world(&self) -> u32 {
        self.world
    }
}

/// How a body moves, and so which bodies it is paired with. This is the broad phase's
/// [`ProxyKind`](sepax_broadphase::ProxyKind) under the world's name: one type, and
/// the broad phase applies the rule below.
///
/// A pair needs at least one **dynamic** body ([`BodyKind::pairs_with`]):
///
/// | | Static | Kinematic | Dynamic |
/// |---|---|---|---|
/// | **Static** | never | never | paired |
/// | **Kinematic** | never | never | paired |
/// | **Dynamic** | paired | paired | paired |
///
/// As in Box2D and rapier, a kinematic body is moved by the user (a platform, a door,
/// an animated character) and pushes dynamic bodies without being pushed back, so the
/// solver has nothing to do between it and a static or another kinematic body: those
/// pairs are never generated, never reach the narrow phase and give no contact and no
/// event. Like a static pair, they are not even [candidates](crate::CollisionWorld::candidate_pairs).
/// The [`Groups`] filter applies on top of this rule.
///
/// ```
/// use sepax_pipeline::BodyKind::{Dynamic, Kinematic, Static};
/// assert!(Kinematic.pairs_with(Dynamic));
/// assert!(!Kinematic.pairs_with(Static) && !Kinematic.pairs_with(Kinematic));
/// ```
pub use sepax_broadphase::ProxyKind as BodyKind;

/// Collision groups: two bodies are paired only when each one's `memberships` has a
/// bit in common with the other's `filter`:
/// `(a.memberships & b.filter) != 0 && (b.memberships & a.filter) != 0`.
///
/// ```
/// use sepax_pipeline::Groups;
/// let debris = Groups { memberships: 0b10, filter: 0b01 };
/// let ground = Groups { memberships: 0b01, filter: 0b11 };
/// assert!(debris.interacts(&ground));
/// assert!(!debris.interacts(&debris)); // debris ignores debris
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Groups {
    /// The groups this body belongs to.
    pub memberships: u32,
    /// The groups this body collides with.
    pub filter: u32,
}

impl Groups {
    /// Member of every group, collides with every group.
    pub const ALL: Groups = Groups {
        memberships: u32::MAX,
        filter: u32::MAX,
    };

    /// True when the two bodies may collide (the test is symmetric).
    #[inline]
    pub fn interacts(&self, other: &Groups) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

impl Default for Groups {
    fn default() -> Self {
        Groups::ALL
    }
}

/// Everything needed to insert a body.
#[derive(Clone, Debug)]
pub struct BodyDesc {
    /// The shape, in the body's local frame (a triangle mesh only on a static body).
    pub shape: Shape,
    /// Where the body is. A pose that is not [`Pose::is_valid`] is accepted here and
    /// quarantined at each step until it is fixed.
    pub pose: Pose,
    /// Static, dynamic or kinematic.
    pub kind: BodyKind,
    /// Collision groups.
    pub groups: Groups,
    /// Any value for the caller (an entity id, say); returned by the getters.
    pub user_data: u64,
    /// Continuous collision detection for this body (off in every constructor): each
    /// step sweeps its box over its motion since the last step and reports the time
    /// of impact of every pair it passes through in
    /// [`StepReport::ccd_hits`](crate::StepReport::ccd_hits). Meant for small, fast
    /// dynamic or kinematic bodies (bullets, thrown objects); it has no effect on a
    /// static body. See [`CollisionWorld::set_ccd`](crate::CollisionWorld::set_ccd) for
    /// what it does and costs.
    pub ccd: bool,
}

impl BodyDesc {
    /// A dynamic body in every group with `user_data` 0.
    pub fn dynamic(shape: impl Into<Shape>, pose: Pose) -> BodyDesc {
        BodyDesc {
            shape: shape.into(),
            pose,
            kind: BodyKind::Dynamic,
            groups: Groups::ALL,
            user_data: 0,
            ccd: false,
        }
    }

    /// A static body in every group with `user_data` 0.
    pub fn fixed(shape: impl Into<Shape>, pose: Pose) -> BodyDesc {
        BodyDesc {
            kind: BodyKind::Static,
            ..BodyDesc::dynamic(shape, pose)
        }
    }

    /// A kinematic body (moved by the user, paired with dynamic bodies only; see
    /// [`BodyKind`]) in every group with `user_data` 0.
    ///
    /// ```
    /// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Cuboid, Pose};
    /// use glam::Vec3;
    ///
    /// let mut world = CollisionWorld::new(Config::default()).unwrap();
    /// let slab = Cuboid::try_from_half_extents(Vec3::new(2.0, 0.25, 2.0)).unwrap();
    /// world.insert(BodyDesc::fixed(slab, Pose::IDENTITY)).unwrap();
    /// // A platform sunk into the floor: a kinematic–static pair, never reported.
    /// let lift = world.insert(BodyDesc::kinematic(slab, Pose::from_translation(Vec3::Y * 0.3))).unwrap();
    /// assert!(world.step().contacts.is_empty());
    /// // A dynamic crate resting on it is.
    /// let cube = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap();
    /// world.insert(BodyDesc::dynamic(cube, Pose::from_translation(Vec3::Y * 1.04))).unwrap();
    /// let report = world.step();
    /// assert_eq!(report.contacts.len(), 1);
    /// assert_eq!(report.contacts[0].a, lift);
    /// ```
    pub fn kinematic(shape: impl Into<Shape>, pose: Pose) -> BodyDesc {
        BodyDesc {
            kind: BodyKind::Kinematic,
            ..BodyDesc::dynamic(shape, pose)
        }
    }
}
