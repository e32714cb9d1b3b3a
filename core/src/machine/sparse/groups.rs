//! The columns of a head that share each bipolar key, ascending, by the
//! key's code. Keys of up to 16 dimensions (every address head, and FIND on
//! 8- and 16-bit words) index a table of 2^kdim groups; wider keys (FIND on
//! 32-bit words, whose table would hold 2^32 groups) keep only the groups
//! that have members, in a map. Only 32-bit machines have such keys, and
//! only they have wide row masks (d > 256): on the others (`W` = 4 words)
//! the map's test folds away at compile time.

use std::collections::HashMap;

/// Widest key indexed by a table.
const TABLE_BITS: usize = 16;

pub struct Groups<const W: usize> {
    table: Vec<Vec<u32>>,
    map: HashMap<u32, Vec<u32>>,
}

impl<const W: usize> Groups<W> {
    pub fn new(kdim: usize) -> Groups<W> {
        assert!(kdim <= TABLE_BITS || W > super::NARROW, "keys of {kdim} dimensions on a machine of ≤ 256 rows");
        let table = if kdim <= TABLE_BITS { vec![Vec::new(); 1 << kdim] } else { Vec::new() };
        Groups { table, map: HashMap::new() }
    }

    /// Whether the groups are kept in the map (constant false for narrow masks).
    #[inline(always)]
    fn mapped(&self) -> bool {
        W > super::NARROW && self.table.is_empty()
    }

    /// The members with key `code` (none: empty).
    #[inline(always)]
    pub fn get(&self, code: u32) -> &[u32] {
        if self.mapped() {
            self.map.get(&code).map_or(&[], Vec::as_slice)
        } else {
            &self.table[code as usize]
        }
    }

    #[inline(always)]
    pub fn get_mut(&mut self, code: u32) -> &mut Vec<u32> {
        if self.mapped() {
            self.map.entry(code).or_default()
        } else {
            &mut self.table[code as usize]
        }
    }

    /// Drops a map entry left empty, so the map holds only the keys present.
    #[inline(always)]
    pub fn prune(&mut self, code: u32) {
        if self.mapped() && self.map.get(&code).is_some_and(Vec::is_empty) {
            self.map.remove(&code);
        }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(Vec::clear);
        self.map.clear();
    }

    pub fn bytes(&self) -> usize {
        let list = |g: &Vec<u32>| std::mem::size_of::<Vec<u32>>() + g.capacity() * std::mem::size_of::<u32>();
        self.table.iter().map(list).sum::<usize>() + self.map.values().map(|g| list(g) + 4).sum::<usize>()
    }
}
