//! A set of column indices with O(1) insert and membership and a list to
//! iterate in insertion order; clearing costs only what was inserted.

pub struct ColSet {
    mark: Vec<bool>,
    pub list: Vec<usize>,
}

impl ColSet {
    pub fn new(n: usize) -> ColSet {
        ColSet { mark: vec![false; n], list: Vec::with_capacity(n) }
    }

    #[inline(always)]
    pub fn insert(&mut self, j: usize) {
        if !self.mark[j] {
            self.mark[j] = true;
            self.list.push(j);
        }
    }

    #[inline]
    pub fn contains(&self, j: usize) -> bool {
        self.mark[j]
    }

    pub fn clear(&mut self) {
        for &j in &self.list {
            self.mark[j] = false;
        }
        self.list.clear();
    }

    pub fn bytes(&self) -> usize {
        self.mark.len() + self.list.capacity() * std::mem::size_of::<usize>()
    }
}
