//! Which columns of a buffer changed since a layer last read it, and in
//! which rows: a head whose keys and values read none of a column's changed
//! rows has nothing to recompute there.

use super::colset::ColSet;
use super::rows::RowMask;

pub struct Changes<const W: usize> {
    cols: ColSet,
    /// Per column, the rows changed (meaningful for listed columns only).
    rows: Vec<RowMask<W>>,
}

impl<const W: usize> Changes<W> {
    pub fn new(n: usize) -> Changes<W> {
        Changes { cols: ColSet::new(n), rows: vec![RowMask::default(); n] }
    }

    #[inline(always)]
    pub fn insert(&mut self, j: usize, rows: RowMask<W>) {
        self.cols.insert(j);
        self.rows[j] = self.rows[j].union(&rows);
    }

    /// Every row of every column (nothing is known).
    pub fn insert_all(&mut self) {
        for j in 0..self.rows.len() {
            self.insert(j, RowMask::ALL);
        }
    }

    #[inline]
    pub fn list(&self) -> &[usize] {
        &self.cols.list
    }

    #[inline]
    pub fn contains(&self, j: usize) -> bool {
        self.cols.contains(j)
    }

    /// The rows of column `j` that changed (empty if `j` is not listed).
    #[inline]
    pub fn rows(&self, j: usize) -> RowMask<W> {
        self.rows[j]
    }

    pub fn clear(&mut self) {
        for &j in &self.cols.list {
            self.rows[j] = RowMask::default();
        }
        self.cols.clear();
    }

    pub fn bytes(&self) -> usize {
        self.cols.bytes() + self.rows.len() * std::mem::size_of::<RowMask<W>>()
    }
}
