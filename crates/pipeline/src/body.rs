//! What a body is made of: [`BodyDesc`], [`BodyKind`], [`Groups`] and the
//! generational [`BodyHandle`].

use sepax_geometry::{Pose, Shape};

/// A generational index: the slot of a body and the generation of that slot when the
/// body was inserted. Removing a body bumps the slot's generation, so an old handle
/// can never reach the body that later reuses the slot: it gets
/// [`WorldError::StaleHandle`](crate::WorldError::StaleHandle).
///
/// Handles order by slot index first; the step reports pairs in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyHandle {
    index: u32,
    generation: u32,
}

impl BodyHandle {
    pub(crate) fn new(index: u32, generation: u32) -> BodyHandle {
        BodyHandle { index, generation }
    }

    /// The slot index (dense, reused after a removal once a step has run).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The generation of the slot when this body was inserted.
    pub fn generation(&self) -> u32 {
        self.generation
    }
}

/// Whether a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// Does not move (moving one is allowed but rebuilds the static BVH). Two static
    /// bodies are never paired.
    Static,
    /// Expected to move every frame.
    Dynamic,
}

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
    /// The convex shape, in the body's local frame.
    pub shape: Shape,
    /// Where the body is. A pose that is not [`Pose::is_valid`] is accepted here and
    /// quarantined at each step until it is fixed.
    pub pose: Pose,
    /// Static or dynamic.
    pub kind: BodyKind,
    /// Collision groups.
    pub groups: Groups,
    /// Any value for the caller (an entity id, say); returned by the getters.
    pub user_data: u64,
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
        }
    }

    /// A static body in every group with `user_data` 0.
    pub fn fixed(shape: impl Into<Shape>, pose: Pose) -> BodyDesc {
        BodyDesc {
            kind: BodyKind::Static,
            ..BodyDesc::dynamic(shape, pose)
        }
    }
}
