//! One argmax head, kept up to date incrementally: every column's key and
//! V·x, every source's targets, and the head's share of the layer's
//! attention sum `acc`, all consistent with the layer input last seen.
//! Only columns whose input changed are recomputed; a source whose targets
//! change (because some other column's key moved) has its contribution
//! moved in `acc`: each old or new target gets (new − old weight)·V·x.
//!
//! Targets by index (the `argmax_index` shortcut): when every key lies in
//! {−1, 0, 1}, a source with an all-±1 key scores kdim exactly against the
//! columns with the identical key and ≤ kdim − 1 against every other
//! column. Its best two are therefore the lowest two members of its key's
//! group, a 50/50 tie when there are two, else the source alone (gap ≥ 1).
//! Keys with a 0 among ±1s, or any key value outside {−1, 0, 1}, are scanned
//! as the dense definition does. Every member of a group targets its lowest
//! two, so the group's sources send one sum there ([`super::groups`]): a
//! column joining or leaving moves its own V·x in or out of the sum, and
//! only when the lowest two change (`lowest_two`: not when the column was
//! behind them) does the sum move whole, once — not once per member, which
//! made a step cost O(n) when thousands of memory words held the same value.
//! Without the index (an odd key somewhere), every source is scanned and
//! the groups keep nothing.
//!
//! Only the wide engine (32-bit words, [`Head::SUMS`]) keeps the sums: on the
//! 8- and 16-bit machines a group holds at most a few hundred columns, and
//! keeping the sums cost them ~1% of a step (issue 30 forbids that), so there
//! every member of a group whose lowest two changed is retargeted alone.
//!
//! A column whose V·x moved but not its key keeps its targets (they follow
//! from the keys and from whether V·x is zero, which is checked again), so
//! each target gets w·(new − old) V·x (`vx_delta`).
//!
//! Moving contributions by differences is exact because every value is a
//! small dyadic rational (spec §1): the sums never round, so their order
//! does not matter.

use super::changes::Changes;
use super::colset::ColSet;
use super::groups::{self, Chunk, Groups, Target, NONE, NOWHERE};
use super::rows::{self, RowMask};
use super::same_bits;
use super::slots::{self, Slot};

use super::Shortcuts;
use crate::machine::trace::{BestTwo, HeadRole, HeadTrace};
use crate::machine::weights::Head as HeadWeights;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    /// All zero: not a source.
    Zero,
    /// All ±1.
    Bipolar,
    /// Values in {−1, 0, 1}, some 0.
    Partial,
    /// Some value outside {−1, 0, 1}: the index cannot decide.
    Odd,
}

/// `o + w·v`, lane by lane.
#[inline(always)]
fn add(o: Chunk, w: f32, v: Chunk) -> Chunk {
    std::array::from_fn(|l| o[l] + w * v[l])
}

pub struct Head<const W: usize> {
    pub name: &'static str,
    role: HeadRole,
    kdim: usize,
    /// K over the key dimensions (in an order of our choosing: the scores
    /// do not depend on it), V over `v_rows`, as vector loads ([`slots`]).
    k: Vec<Slot>,
    v: Vec<Slot>,
    /// The distinct rows V writes, ascending.
    v_rows: Vec<u32>,
    /// The rows V writes (where this head changes the layer's attention sum).
    writes: RowMask<W>,
    /// The rows K and V read: a column changed elsewhere keeps its key, or its V·x.
    key_reads: RowMask<W>,
    v_reads: RowMask<W>,
    reads: RowMask<W>,
    n: usize,
    /// Chunks per key and per V·x.
    kch: usize,
    vch: usize,
    /// V·x's chunks can be added to `v_rows[0]..` whole: a run that leaves
    /// room in the column (the lanes past it add 0 to rows that are not −0).
    v_wide: bool,
    key: Vec<Chunk>,
    class: Vec<Class>,
    /// A bipolar key as bits (+1 ↦ 1), dimension r at bit r: its group's index.
    code: Vec<u32>,
    vx: Vec<Chunk>,
    /// Whether V·x has a nonzero value.
    vx_nonzero: Vec<bool>,
    /// A nonzero key and a nonzero V·x: the column sends something somewhere.
    source: Vec<bool>,
    /// Where a source's V·x stands in the attention sum when it is not its
    /// group's (a scanned key, or no index): NOWHERE for a grouped source.
    target: Vec<Target>,
    /// The columns with each bipolar key, ascending, by code, and their sources' totals.
    groups: Groups<W>,
    /// Bipolar sources send through their groups (the index holds: no odd key).
    indexed: bool,
    odd: usize,
    partial: usize,
    // Scratch, reused every step.
    new_key: Vec<Chunk>,
    new_vx: Vec<Chunk>,
    /// The groups whose members, sources or sum changed: to settle.
    queue: Vec<u32>,
    /// The `lowest_two` shortcut, for `rekey`.
    lowest_two: bool,
    redo: ColSet,
}

impl<const W: usize> Head<W> {
    /// A head over columns of `d` rows, `n` columns.
    pub fn new(h: &HeadWeights, d: usize, n: usize) -> Head<W> {
        assert!(h.kdim <= 32, "bipolar keys are codes of at most 32 bits");
        assert!(n < NONE as usize && h.k.iter().all(|e| e.0 < h.kdim && e.1 < d), "keys within the layout");
        let dim = |r: usize| h.k.iter().filter(|e| e.0 == r).map(|e| (e.1 as u32, e.2)).collect::<Vec<_>>();
        let mut dims: Vec<Vec<(u32, f32)>> = (0..h.kdim).map(dim).collect();
        let forward = slots::cover(&dims, d);
        dims.reverse();
        let backward = slots::cover(&dims, d);
        // Rows usually step against the dimensions (bits MSB first): take the order with fewer loads.
        let k = if backward.len() < forward.len() { backward } else { forward };
        let mut v_rows: Vec<u32> = h.v.iter().map(|e| e.0 as u32).collect();
        v_rows.sort_unstable();
        v_rows.dedup();
        assert!(h.v.iter().all(|e| e.0 < d && e.1 < d), "values within the layout");
        let slot_of = |o: usize| v_rows.binary_search(&(o as u32)).expect("a V row");
        let v_lanes: Vec<Vec<(u32, f32)>> = (0..v_rows.len())
            .map(|k| h.v.iter().filter(|e| slot_of(e.0) == k).map(|e| (e.1 as u32, e.2)).collect())
            .collect();
        let v = slots::cover(&v_lanes, d);
        assert!(k.iter().chain(&v).all(|s| s.end() <= d), "loads within the column");
        let vdim = v_rows.len();
        let (kch, vch) = (h.kdim.div_ceil(8), vdim.div_ceil(8));
        let v_run = v_rows.windows(2).all(|p| p[1] == p[0] + 1);
        Head {
            name: h.name,
            role: h.role,
            kdim: h.kdim,
            k,
            v,
            v_wide: v_run && v_rows.first().is_some_and(|&r| r as usize + 8 * vch <= d),
            kch,
            vch,
            writes: RowMask::of_rows(v_rows.iter().map(|&r| r as usize)),
            v_rows,
            key_reads: RowMask::of_rows(h.k.iter().map(|e| e.1)),
            v_reads: RowMask::of_rows(h.v.iter().map(|e| e.1)),
            reads: RowMask::of_rows(h.k.iter().map(|e| e.1).chain(h.v.iter().map(|e| e.1))),
            n,
            key: vec![[0.0; 8]; n * kch],
            class: vec![Class::Zero; n],
            code: vec![0; n],
            vx: vec![[0.0; 8]; n * vch],
            vx_nonzero: vec![false; n],
            source: vec![false; n],
            target: vec![NOWHERE; n],
            groups: Groups::new(h.kdim),
            indexed: false,
            odd: 0,
            partial: 0,
            new_key: vec![[0.0; 8]; kch],
            new_vx: vec![[0.0; 8]; vch],
            queue: Vec::new(),
            lowest_two: true,
            redo: ColSet::new(n),
        }
    }

    /// Back to the state of an all-zero input (no keys, no contributions).
    pub fn reset(&mut self) {
        self.key.fill([0.0; 8]);
        self.class.fill(Class::Zero);
        self.code.fill(0);
        self.vx.fill([0.0; 8]);
        self.vx_nonzero.fill(false);
        self.source.fill(false);
        self.target.fill(NOWHERE);
        self.groups.clear();
        self.indexed = false;
        (self.odd, self.partial) = (0, 0);
    }

    fn key_of(&self, j: usize) -> &[f32] {
        &self.key[j * self.kch..(j + 1) * self.kch].as_flattened()[..self.kdim]
    }

    fn vx_of(&self, j: usize) -> &[Chunk] {
        &self.vx[j * self.vch..(j + 1) * self.vch]
    }

    /// A key's class and code from its chunks (lanes past `kdim` are +0).
    #[inline(always)]
    fn classify(key: &[Chunk], kdim: usize) -> (Class, u32) {
        const ONE: u32 = 0x3f80_0000;
        let (mut code, mut zeros, mut unit) = (0u32, 0u32, 0u32);
        for (c, chunk) in key.iter().enumerate() {
            zeros |= rows::eq8(chunk, 0x7fff_ffff, 0) << (8 * c);
            unit |= rows::eq8(chunk, 0x7fff_ffff, ONE) << (8 * c);
            code |= rows::eq8(chunk, !0, ONE) << (8 * c);
        }
        let odd = !(zeros | unit) & ((1u64 << kdim) - 1) as u32;
        let zeros = (zeros & ((1u64 << kdim) - 1) as u32).count_ones() as usize;
        match zeros {
            _ if odd != 0 => (Class::Odd, 0),
            0 => (Class::Bipolar, code),
            z if z == kdim => (Class::Zero, code),
            _ => (Class::Partial, code),
        }
    }

    fn count(&mut self, class: Class, delta: isize) {
        match class {
            Class::Odd => self.odd = self.odd.wrapping_add_signed(delta),
            Class::Partial => self.partial = self.partial.wrapping_add_signed(delta),
            _ => {}
        }
    }

    /// Groups keep their sources' sum (else each source keeps its own
    /// target): a constant of the row-mask width, so the narrow engine
    /// compiles without the bookkeeping.
    pub const SUMS: bool = W > super::NARROW;

    /// Lists group `code` among those to settle (narrow: whose members to redo).
    #[inline(always)]
    fn enqueue(&mut self, code: u32) {
        if !Self::SUMS {
            self.queue.push(code);
            return;
        }
        let g = self.groups.group_mut(code);
        if !g.queued {
            g.queued = true;
            self.queue.push(code);
        }
    }

    /// Takes grouped source j's V·x out of (`w` = −1) or into (`w` = 1) its
    /// group's sum, and out of or into where the sum stands. A group that
    /// gains its first source or loses its last is settled later.
    #[inline(always)]
    fn group_add(&mut self, j: usize, w: f32, d: usize, acc: &mut [f32], changed: &mut Changes<W>) {
        let (code, vch) = (self.code[j], self.vch);
        let vx = &self.vx[j * vch..(j + 1) * vch];
        let g = self.groups.group_mut(code);
        g.add(w, vx);
        let at = g.at;
        g.sources = g.sources.wrapping_add_signed(w as i32);
        if g.sources <= 1 {
            self.enqueue(code);
        }
        for col in [at.t1, at.t2].into_iter().filter(|&c| c != NONE) {
            self.deposit(col, w * at.w, &self.vx[j * vch..(j + 1) * vch], d, acc, changed);
        }
    }

    /// Moves column j to its new key (in `new_key`), keeping the groups
    /// sorted. A group's sources send to its lowest two, so only a group whose
    /// lowest two changed (j left or joined them) is settled again for it.
    #[inline(always)]
    fn rekey(&mut self, j: usize) {
        let ju = j as u32;
        if self.class[j] == Class::Bipolar {
            let g = &mut self.groups.group_mut(self.code[j]).members;
            let at = g.binary_search(&ju).expect("member");
            g.remove(at);
            if at < 2 || !self.lowest_two {
                self.enqueue(self.code[j]);
            }
            self.groups.prune(self.code[j]);
        }
        self.count(self.class[j], -1);
        // Chunk by chunk (a key has one or two): no call to memcpy.
        for (k, n) in self.key[j * self.kch..(j + 1) * self.kch].iter_mut().zip(&self.new_key) {
            *k = *n;
        }
        let (class, code) = Self::classify(&self.new_key, self.kdim);
        (self.class[j], self.code[j]) = (class, code);
        self.count(class, 1);
        if class == Class::Bipolar {
            let g = &mut self.groups.group_mut(code).members;
            let at = g.binary_search(&ju).unwrap_err();
            g.insert(at, ju);
            if at < 2 || !self.lowest_two {
                self.enqueue(code);
            }
        }
    }

    fn scan(&self, i: usize) -> BestTwo {
        let ki = self.key_of(i);
        BestTwo::scan((0..self.n).map(|j| {
            let mut s = 0.0f32;
            if self.class[j] != Class::Zero {
                for (a, b) in ki.iter().zip(self.key_of(j)) {
                    s += a * b;
                }
            }
            (j, s)
        }))
    }

    /// Where source i's V·x goes on its own (narrow: by its group's lowest
    /// two when the index holds; else by a scan).
    #[inline(always)]
    fn own_target(&self, i: usize, indexed: bool) -> Target {
        if !self.source[i] {
            return NOWHERE;
        }
        if !Self::SUMS && indexed && self.class[i] == Class::Bipolar {
            return groups::lowest_two(self.groups.members(self.code[i]));
        }
        let b = self.scan(i);
        if b.tie() {
            Target { t1: b.j1 as u32, t2: b.j2 as u32, w: 0.5 }
        } else {
            Target { t1: b.j1 as u32, t2: NONE, w: 1.0 }
        }
    }

    /// Adds `w·vx` (V·x in its own slots) to column `col` of `acc`.
    #[inline(always)]
    fn deposit(&self, col: u32, w: f32, vx: &[Chunk], d: usize, acc: &mut [f32], changed: &mut Changes<W>) {
        let col = col as usize;
        changed.insert(col, self.writes);
        let dst = &mut acc[col * d..(col + 1) * d];
        if self.v_wide {
            // The lanes past V's rows add w·0 = ±0 to rows of the sum, which are never
            // −0 (they start +0, and x + y is −0 only for x = y = −0): no bit moves.
            let at = self.v_rows[0] as usize;
            for (c, &v) in vx.iter().enumerate() {
                // Whole chunks in locals: the compiler sees they do not overlap.
                let o: &mut Chunk = (&mut dst[at + 8 * c..at + 8 * c + 8]).try_into().expect("eight rows");
                *o = add(*o, w, v);
            }
        } else {
            for (&o, &v) in self.v_rows.iter().zip(vx.as_flattened()) {
                dst[o as usize] += w * v;
            }
        }
    }

    /// Moves source i's contribution to target `t`.
    #[inline(always)]
    fn retarget(&mut self, i: usize, t: Target, d: usize, acc: &mut [f32], changed: &mut Changes<W>) {
        let old = self.target[i];
        self.target[i] = t;
        self.move_sum(old, t, &self.vx[i * self.vch..(i + 1) * self.vch], d, acc, changed);
    }

    /// Moves `vx` from target `old` to `t`: each column gets (new weight −
    /// old weight)·vx, once (exact: the weights are 0.5 or 1).
    #[inline(always)]
    fn move_sum(&self, old: Target, t: Target, vx: &[Chunk], d: usize, acc: &mut [f32], changed: &mut Changes<W>) {
        // An old target loses its weight and regains the new one if it stays.
        for (k, col) in [old.t1, old.t2].into_iter().enumerate() {
            if col == NONE || (k == 1 && col == old.t1) {
                continue;
            }
            let w = if col == t.t1 || col == t.t2 { t.w - old.w } else { -old.w };
            if w != 0.0 {
                self.deposit(col, w, vx, d, acc, changed);
            }
        }
        for (k, col) in [t.t1, t.t2].into_iter().enumerate() {
            if col != NONE && col != old.t1 && col != old.t2 && (k == 0 || col != t.t1) {
                self.deposit(col, t.w, vx, d, acc, changed);
            }
        }
    }

    /// Brings the head up to date with `x` after the columns (and rows) `dirty` changed;
    /// `acc` (d per column) receives the change of this head's contributions
    /// and `changed` every column (and the rows) of `acc` touched.
    ///
    /// A changed column first takes its contribution out (from its group's sum,
    /// or from its own targets), then puts the new one in once the head knows
    /// whether the index holds; the groups whose sum or lowest two moved are
    /// settled last, each by moving its total: a step costs what changed, not
    /// how many columns share a key.
    #[inline(always)]
    pub fn update(
        &mut self,
        x: &[f32],
        d: usize,
        dirty: &Changes<W>,
        shortcuts: Shortcuts,
        acc: &mut [f32],
        changed: &mut Changes<W>,
    ) {
        self.lowest_two = shortcuts.lowest_two;
        let was = if Self::SUMS { self.indexed } else { shortcuts.argmax_index && self.odd == 0 };
        self.redo.clear();
        let (kdim, vdim, vch) = (self.kdim, self.v_rows.len(), self.vch);
        let mut keys_moved = false;
        for &j in dirty.list() {
            // The key and V·x are functions of the rows they read: recompute what may have moved.
            let (key_may, vx_may) = if shortcuts.dirty_rows {
                let rows = dirty.rows(j);
                if !self.reads.meets(&rows) {
                    continue;
                }
                (self.key_reads.meets(&rows), self.v_reads.meets(&rows))
            } else {
                (true, true)
            };
            let col = &x[j * d..(j + 1) * d];
            if key_may {
                slots::sum(&self.k, col, kdim, &mut self.new_key);
            }
            if vx_may {
                slots::sum(&self.v, col, vdim, &mut self.new_vx);
            }
            let old_key = &self.key[j * self.kch..(j + 1) * self.kch];
            let same_key = !key_may || same_bits(self.new_key.as_flattened(), old_key.as_flattened());
            let same_vx = !vx_may || same_bits(self.new_vx.as_flattened(), self.vx_of(j).as_flattened());
            if same_key && same_vx {
                continue;
            }
            let grouped = Self::SUMS && was && self.source[j] && self.class[j] == Class::Bipolar;
            if same_key && shortcuts.vx_delta && grouped && self.new_vx.as_flattened().iter().any(|&v| v != 0.0) {
                // Only V·x moved and j stays a source of its group: the group's sum and
                // where it stands get the difference.
                let old = &mut self.vx[j * vch..(j + 1) * vch];
                for (n, o) in self.new_vx.iter_mut().zip(old.iter_mut()) {
                    (*n, *o) = (add(*n, -1.0, *o), *n);
                }
                let g = self.groups.group_mut(self.code[j]);
                g.add(1.0, &self.new_vx);
                let at = g.at;
                for col in [at.t1, at.t2].into_iter().filter(|&c| c != NONE) {
                    self.deposit(col, at.w, &self.new_vx, d, acc, changed);
                }
                continue;
            }
            self.redo.insert(j);
            if same_key && shortcuts.vx_delta && !grouped {
                // Only V·x moved: the targets stay (they follow the keys), so each
                // gets w·(new − old) (exact: dyadic values). Whether V·x became or
                // stopped being zero is settled below, j being redone.
                let t = self.target[j];
                let old = &mut self.vx[j * vch..(j + 1) * vch];
                for (n, o) in self.new_vx.iter_mut().zip(old.iter_mut()) {
                    (*n, *o) = (add(*n, -1.0, *o), *n);
                }
                for col in [t.t1, t.t2].into_iter().filter(|&c| c != NONE) {
                    self.deposit(col, t.w, &self.new_vx, d, acc, changed);
                }
                self.vx_nonzero[j] = self.vx_of(j).as_flattened().iter().any(|&v| v != 0.0);
                self.source[j] = self.class[j] != Class::Zero && self.vx_nonzero[j];
                continue;
            }
            // Out with the old contribution; the new one goes in below.
            if grouped {
                self.group_add(j, -1.0, d, acc, changed);
            } else {
                self.retarget(j, NOWHERE, d, acc, changed);
            }
            if !same_vx {
                self.vx[j * vch..(j + 1) * vch].copy_from_slice(&self.new_vx);
                self.vx_nonzero[j] = self.new_vx.as_flattened().iter().any(|&v| v != 0.0);
            }
            if !same_key {
                keys_moved = true;
                self.rekey(j);
            }
            self.source[j] = self.class[j] != Class::Zero && self.vx_nonzero[j];
        }
        let now = shortcuts.argmax_index && self.odd == 0;
        if !Self::SUMS {
            self.redo_members(keys_moved, was, now, d, acc, changed);
            return;
        }
        self.indexed = now;
        if was && !now {
            // The index stops holding: every group's total comes out, every source is scanned.
            for code in self.groups.deposited() {
                self.enqueue(code);
            }
        }
        if now {
            if !was {
                // The index holds again: every bipolar source sends through its group.
                for i in 0..self.n {
                    if self.source[i] && self.class[i] == Class::Bipolar {
                        self.retarget(i, NOWHERE, d, acc, changed);
                        self.group_add(i, 1.0, d, acc, changed);
                    }
                }
            }
            // A scanned key's best two may have moved with any key.
            if (keys_moved || !was) && self.partial > 0 {
                (0..self.n).filter(|&j| self.class[j] == Class::Partial).for_each(|j| self.redo.insert(j));
            }
        } else if keys_moved || was {
            (0..self.n).filter(|&j| self.class[j] != Class::Zero).for_each(|j| self.redo.insert(j));
        }
        for k in 0..self.redo.list.len() {
            let i = self.redo.list[k];
            if now && self.class[i] == Class::Bipolar {
                // (Taken out above; a new index put every source in already.)
                if was && self.source[i] {
                    self.group_add(i, 1.0, d, acc, changed);
                }
                continue;
            }
            let t = self.own_target(i, false);
            if t != self.target[i] {
                self.retarget(i, t, d, acc, changed);
            }
        }
        for k in 0..self.queue.len() {
            self.settle(self.queue[k], d, acc, changed);
        }
        self.queue.clear();
    }

    /// The narrow engine's end of [`Self::update`]: every source keeps its
    /// own target, so when keys moved the members of the groups whose lowest
    /// two changed (and the scanned sources) are redone, or every source when
    /// the index did not hold throughout (`was`, `now`: before and after).
    #[inline(always)]
    fn redo_members(
        &mut self,
        keys_moved: bool,
        was: bool,
        now: bool,
        d: usize,
        acc: &mut [f32],
        changed: &mut Changes<W>,
    ) {
        if keys_moved {
            if was && now {
                for &code in &self.queue {
                    for &m in self.groups.members(code) {
                        self.redo.insert(m as usize);
                    }
                }
                if self.partial > 0 {
                    (0..self.n).filter(|&j| self.class[j] == Class::Partial).for_each(|j| self.redo.insert(j));
                }
            } else {
                (0..self.n).filter(|&j| self.class[j] != Class::Zero).for_each(|j| self.redo.insert(j));
            }
        }
        self.queue.clear();
        for k in 0..self.redo.list.len() {
            let i = self.redo.list[k];
            let t = self.own_target(i, now);
            if t != self.target[i] {
                self.retarget(i, t, d, acc, changed);
            }
        }
    }

    /// Moves group `code`'s sum to where it goes now (its lowest two, or
    /// nowhere without the index or sources), as [`Self::retarget`] moves a
    /// column's V·x. Without the index the group's sources are scanned, so
    /// it forgets them.
    #[inline(always)]
    fn settle(&mut self, code: u32, d: usize, acc: &mut [f32], changed: &mut Changes<W>) {
        let g = self.groups.group_mut(code);
        g.queued = false;
        let t = if self.indexed { g.target() } else { NOWHERE };
        let old = g.at;
        if t != old {
            g.at = t;
            // Without sources the sum is exactly zero: nothing to move.
            let sum = std::mem::take(&mut g.sum);
            if g.sources > 0 {
                self.move_sum(old, t, &sum, d, acc, changed);
            }
            self.groups.group_mut(code).sum = sum;
        }
        let g = self.groups.group_mut(code);
        if !self.indexed || g.sources == 0 {
            // (Kept allocated: the working column joins and leaves groups every step.)
            g.sum.fill([0.0; 8]);
            g.sources = 0;
        }
        self.groups.prune(code);
    }

    /// Every source's best two as the dense definition finds them (for the UI).
    /// The rows V writes.
    pub fn writes(&self) -> RowMask<W> {
        self.writes
    }

    pub fn trace(&self) -> HeadTrace {
        let matches = (0..self.n).filter(|&i| self.class[i] != Class::Zero).filter_map(|i| self.scan(i).record(i));
        HeadTrace { name: self.name, role: self.role, matches: matches.collect() }
    }

    pub fn bytes(&self) -> usize {
        let groups = self.groups.bytes();
        (self.key.len() + self.vx.len()) * std::mem::size_of::<Chunk>()
            + self.n * (std::mem::size_of::<Class>() + 6 + std::mem::size_of::<Target>())
            + groups
            + self.redo.bytes()
    }
}
