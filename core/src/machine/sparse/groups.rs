//! The columns of a head that share each bipolar key, ascending, by the
//! key's code, and what the group's sources send: every source of a group
//! sends its V·x to the group's lowest two members, so the group keeps the
//! sum of its sources' V·x, deposited there, and moves the sum whole when
//! its lowest two change ([`Group`]). A step
//! that moves one member then costs the same however many columns share its
//! key (all the memory words holding 0, say). Only the wide engine keeps
//! the sums (`Head::SUMS`): the narrow one's groups are small, and there each
//! member's own target is cheaper.
//!
//! Keys of up to 16 dimensions (every address head, and FIND on 8- and
//! 16-bit words) index a table of 2^kdim groups; wider keys (FIND on 32-bit
//! words, whose table would hold 2^32 groups) keep only the groups that have
//! members or a deposit, in a map. Only 32-bit machines have such keys, and
//! only they have wide row masks (d > 256): on the others (`W` = 4 words)
//! the map's test folds away at compile time.

use std::collections::HashMap;

/// Widest key indexed by a table.
const TABLE_BITS: usize = 16;

/// Lanes in chunks of eight, as [`super::head`] keeps V·x.
pub type Chunk = [f32; 8];

/// No column.
pub const NONE: u32 = u32::MAX;

/// Where V·x goes: `w` to `t1` (and to `t2` when split); `w = 0`: nowhere.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Target {
    pub t1: u32,
    pub t2: u32,
    pub w: f32,
}

pub const NOWHERE: Target = Target { t1: NONE, t2: NONE, w: 0.0 };

/// One bipolar key's columns and their sources' total.
pub struct Group {
    /// The columns with this key, ascending.
    pub members: Vec<u32>,
    /// How many members are sources (a nonzero V·x).
    pub sources: u32,
    /// Σ V·x over the sources (empty: all zero), which stands in the
    /// attention sum at `at` (every change of it is deposited there too).
    pub sum: Vec<Chunk>,
    pub at: Target,
    /// Listed among the groups to settle this update.
    pub queued: bool,
}

impl Default for Group {
    fn default() -> Group {
        Group { members: Vec::new(), sources: 0, sum: Vec::new(), at: NOWHERE, queued: false }
    }
}

/// Where a source whose key is shared by `members` (not empty) sends its
/// V·x: the lowest two members, half each, or the only member whole.
#[inline(always)]
pub fn lowest_two(members: &[u32]) -> Target {
    match members.get(1) {
        Some(&t2) => Target { t1: members[0], t2, w: 0.5 },
        None => Target { t1: members[0], t2: NONE, w: 1.0 },
    }
}

impl Group {
    /// Where the sources' total goes: the lowest two members, half each, or
    /// the only member whole (the argmax rule on identical ±1 keys).
    #[inline(always)]
    pub fn target(&self) -> Target {
        if self.sources == 0 {
            return NOWHERE;
        }
        lowest_two(&self.members)
    }

    /// Adds `w·vx` to the sources' sum (exact: dyadic values).
    #[inline(always)]
    pub fn add(&mut self, w: f32, vx: &[Chunk]) {
        if self.sum.is_empty() {
            self.sum.resize(vx.len(), [0.0; 8]);
        }
        for (s, v) in self.sum.iter_mut().zip(vx) {
            *s = std::array::from_fn(|l| s[l] + w * v[l]);
        }
    }

    /// Nothing in it and nothing of it in the attention sum.
    fn idle(&self) -> bool {
        self.members.is_empty() && self.at == NOWHERE && !self.queued
    }
}

pub struct Groups<const W: usize> {
    table: Vec<Group>,
    map: HashMap<u32, Group>,
}

impl<const W: usize> Groups<W> {
    pub fn new(kdim: usize) -> Groups<W> {
        assert!(kdim <= TABLE_BITS || W > super::NARROW, "keys of {kdim} dimensions on a machine of ≤ 256 rows");
        let table =
            if kdim <= TABLE_BITS { (0..1usize << kdim).map(|_| Group::default()).collect() } else { Vec::new() };
        Groups { table, map: HashMap::new() }
    }

    /// Whether the groups are kept in the map (constant false for narrow masks).
    #[inline(always)]
    fn mapped(&self) -> bool {
        W > super::NARROW && self.table.is_empty()
    }

    /// The members with key `code` (none: empty).
    #[inline(always)]
    pub fn members(&self, code: u32) -> &[u32] {
        if self.mapped() {
            self.map.get(&code).map_or(&[], |g| g.members.as_slice())
        } else {
            &self.table[code as usize].members
        }
    }

    #[inline(always)]
    pub fn group_mut(&mut self, code: u32) -> &mut Group {
        if self.mapped() {
            self.map.entry(code).or_default()
        } else {
            &mut self.table[code as usize]
        }
    }

    /// Drops a map entry left idle, so the map holds only the keys in use.
    #[inline(always)]
    pub fn prune(&mut self, code: u32) {
        if self.mapped() && self.map.get(&code).is_some_and(Group::idle) {
            self.map.remove(&code);
        }
    }

    /// Every group with a deposit: their codes.
    pub fn deposited(&self) -> Vec<u32> {
        let table = self.table.iter().enumerate().filter(|(_, g)| g.at != NOWHERE).map(|(c, _)| c as u32);
        let map = self.map.iter().filter(|(_, g)| g.at != NOWHERE).map(|(&c, _)| c);
        table.chain(map).collect()
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|g| *g = Group::default());
        self.map.clear();
    }

    pub fn bytes(&self) -> usize {
        let chunk = std::mem::size_of::<Chunk>();
        let one = |g: &Group| {
            std::mem::size_of::<Group>() + g.members.capacity() * std::mem::size_of::<u32>() + g.sum.capacity() * chunk
        };
        self.table.iter().map(one).sum::<usize>() + self.map.values().map(|g| one(g) + 4).sum::<usize>()
    }
}
