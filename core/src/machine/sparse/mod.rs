//! The sparse argmax engine: the same layers as [`super::dense`], computed
//! from the nonzero weights only and only where something changed. It must
//! equal the dense engine bit for bit after every layer.
//!
//! Each layer keeps its last input and output (`bufs[l]`, `bufs[l + 1]`)
//! and, per head, the keys, V·x, targets and attention sum of that input.
//! `pending[l]` lists the columns of `bufs[l]` that changed since layer l
//! last read it, with the rows that changed. A step touches a handful of columns (column 0, the PC's
//! instruction column, the written memory column), so a layer recomputes
//! only those columns and the columns whose attention sum moved; every
//! other column's output is, by the column-wise definition, what it was.
//!
//! Shortcuts (each can be switched off, see [`Shortcuts`]):
//! - **argmax index**: best two through key groups instead of a scan ([`head`]).
//! - **dirty columns**: only changed columns are recomputed; off, every
//!   layer recomputes every column (the caches still have to agree).
//! - **gate skip**: FFN unit groups whose gate is provably shut, or that read
//!   only zero rows with no positive bias, are skipped ([`ffn`]).
//! - **dirty rows**: pending columns carry the rows that moved. A head
//!   recomputes a key only if its key rows moved, a value only if its value
//!   rows did ([`head`]); a column that moved only in rows its last output
//!   provably ignored keeps that output ([`ffn`]'s inert rows).
//! - **gate index**: column 0's opcode picks the one open group of each
//!   family gated by opcode patterns, after one bound test ([`ffn`]).
//! - **fused pairs**: a clear (`ReLU(x)` and `ReLU(−x)` cancelling x) is a
//!   zeroed row, an open gated copy one product ([`ffn`]).
//! - **lowest two**: a key group whose lowest two members did not change
//!   keeps its members' targets; only the column that moved is redone ([`head`]).
//! - **vx delta**: a column whose V·x moved but not its key keeps its
//!   targets, which get the difference ([`head`]).
//! - **lanes**: forms whose units write one row are evaluated eight side
//!   by side, as vector instructions ([`ffn`]).
//! - **layer rows**: an evaluated column is loaded and stored only in the
//!   blocks of eight rows that hold a row the layer's heads write or its FFN
//!   reads, writes or clears; every other row's output is its input (+ 0.0),
//!   so only those of them that moved are copied ([`rows::Blocks`]).

mod changes;
mod colset;
mod ffn;
mod groups;
mod head;
mod rows;
mod slots;

use super::layout::Layout;
use super::tensor::Tensor;
use super::trace::{HeadTrace, LayerTrace, StepTrace};
use super::weights::{Layer, Weights};
use super::Backend;
use changes::Changes;
use colset::ColSet;
use rows::{Blocks, RowMask};

/// Which shortcuts the sparse engine takes. Tests compare each against plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortcuts {
    pub argmax_index: bool,
    pub dirty_columns: bool,
    pub gate_skip: bool,
    pub fused_pairs: bool,
    pub dirty_rows: bool,
    pub gate_index: bool,
    pub lowest_two: bool,
    pub vx_delta: bool,
    pub lanes: bool,
    pub layer_rows: bool,
}

impl Shortcuts {
    pub const ALL: Shortcuts = Shortcuts {
        argmax_index: true,
        dirty_columns: true,
        gate_skip: true,
        fused_pairs: true,
        dirty_rows: true,
        gate_index: true,
        lowest_two: true,
        vx_delta: true,
        lanes: true,
        layer_rows: true,
    };
    pub const NONE: Shortcuts = Shortcuts {
        argmax_index: false,
        dirty_columns: false,
        gate_skip: false,
        fused_pairs: false,
        dirty_rows: false,
        gate_index: false,
        lowest_two: false,
        vx_delta: false,
        lanes: false,
        layer_rows: false,
    };

    /// ALL, and each one switched off alone, and NONE (for equivalence tests).
    pub fn variants() -> [(&'static str, Shortcuts); 12] {
        let all = Shortcuts::ALL;
        [
            ("all", all),
            ("no argmax index", Shortcuts { argmax_index: false, ..all }),
            ("no dirty columns", Shortcuts { dirty_columns: false, ..all }),
            ("no gate skip", Shortcuts { gate_skip: false, ..all }),
            ("no fused pairs", Shortcuts { fused_pairs: false, ..all }),
            ("no dirty rows", Shortcuts { dirty_rows: false, ..all }),
            ("no gate index", Shortcuts { gate_index: false, ..all }),
            ("no lowest two", Shortcuts { lowest_two: false, ..all }),
            ("no vx delta", Shortcuts { vx_delta: false, ..all }),
            ("no lanes", Shortcuts { lanes: false, ..all }),
            ("no layer rows", Shortcuts { layer_rows: false, ..all }),
            ("none", Shortcuts::NONE),
        ]
    }
}

/// Bit-for-bit equality (what the engines must agree on); unlike `==` on
/// floats it compiles to a vectorised compare.
#[inline]
pub(super) fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u32, |m, (x, y)| m | (x.to_bits() ^ y.to_bits())) == 0
}

struct SparseLayer<const W: usize> {
    name: &'static str,
    heads: Vec<head::Head<W>>,
    ffn: ffn::Ffn<W>,
    /// Σ over heads of the attention output, per column (empty without heads).
    acc: Vec<f32>,
    /// The columns of `acc` the heads changed, with the rows they wrote.
    acc_changed: Changes<W>,
    /// Per column, the rows its last output ignored ([`ffn::Inert`]).
    inert: Vec<ffn::Inert<W>>,
    /// Caches hold nothing yet: recompute every column once.
    fresh: bool,
    /// The blocks of rows an evaluated column loads and stores (`layer_rows`).
    blocks: rows::Blocks<W>,
}

/// Row masks of four words hold d ≤ 256 rows: every 8- and 16-bit configuration.
const NARROW: usize = 4;
/// Row masks that hold every valid configuration's rows (d ≤ [`crate::config::MAX_ROWS`]).
const WIDE: usize = crate::config::MAX_ROWS.div_ceil(64);

/// The sparse engine, with the narrowest row mask that holds the
/// configuration's rows, chosen once when it is built: every mask operation
/// of a step costs an instruction per word, so a machine of ≤ 256 rows keeps
/// 4-word masks (and its speed) while a 32-bit one takes 6.
pub enum Sparse {
    Narrow(Core<NARROW>),
    Wide(Core<WIDE>),
}

/// The sparse engine's core over row masks of `W` 64-bit words (d ≤ 64·W).
pub struct Core<const W: usize> {
    d: usize,
    n: usize,
    layers: Vec<SparseLayer<W>>,
    shortcuts: Shortcuts,
    /// `bufs[l]`: the input of layer l as it last saw it; `bufs[8]`: the last output.
    bufs: Vec<Tensor>,
    pending: Vec<Changes<W>>,
    /// Columns of the engine's tensor the host changed since the last step.
    host: ColSet,
    /// `bufs[0]` equals the tensor `forward` receives except in `host`.
    synced: bool,
    /// One column's FFN input and output.
    col: Vec<f32>,
    y: Vec<f32>,
    /// Every block of a column (the loads and stores without `layer_rows`).
    all_blocks: Blocks<W>,
}

impl<const W: usize> SparseLayer<W> {
    fn new(l: &Layer, lay: &Layout, gate_weight: f32) -> SparseLayer<W> {
        let (d, n) = (lay.d, lay.n);
        let opcode: Vec<usize> = (0..lay.dec_a.len).map(|i| lay.dec_a.bit(i)).collect();
        let heads: Vec<head::Head<W>> = l.heads.iter().map(|h| head::Head::new(h, d, n)).collect();
        let ffn = ffn::Ffn::new(&l.ffn, d, gate_weight, &opcode);
        let rows = heads.iter().fold(ffn.touch(), |m, h| m.union(&h.writes()));
        SparseLayer {
            name: l.name,
            blocks: Blocks::of(rows, d),
            ffn,
            acc: if l.heads.is_empty() { Vec::new() } else { vec![0.0; d * n] },
            acc_changed: Changes::new(n),
            heads,
            inert: vec![ffn::Inert::default(); n],
            fresh: true,
        }
    }
}

impl Sparse {
    pub fn with_shortcuts(w: &Weights, shortcuts: Shortcuts) -> Sparse {
        if w.layout.d <= RowMask::<NARROW>::ROWS {
            Sparse::Narrow(Core::new(w, shortcuts))
        } else {
            Sparse::Wide(Core::new(w, shortcuts))
        }
    }
}

impl<const W: usize> Core<W> {
    fn new(w: &Weights, shortcuts: Shortcuts) -> Core<W> {
        let (d, n) = (w.layout.d, w.layout.n);
        assert!(d <= RowMask::<W>::ROWS, "d = {d} rows exceed the row mask");
        // Gate terms carry weights ≥ half the gate scale of `weights::Gates`.
        let gate_weight = crate::machine::weights::gate_scale(&w.layout) / 2.0;
        let layers: Vec<SparseLayer<W>> =
            w.layers.iter().map(|l| SparseLayer::new(l, &w.layout, gate_weight)).collect();
        let depth = layers.len();
        Core {
            d,
            n,
            layers,
            shortcuts,
            bufs: vec![Tensor::zeros(d, n); depth + 1],
            pending: (0..=depth).map(|_| Changes::new(n)).collect(),
            host: ColSet::new(n),
            synced: false,
            col: vec![0.0; d],
            y: vec![0.0; d],
            all_blocks: Blocks::all(d),
        }
    }

    /// Bytes held by the caches and buffers (weights in their sparse form included).
    pub fn bytes(&self) -> usize {
        let f = std::mem::size_of::<f32>();
        let layers: usize = self
            .layers
            .iter()
            .map(|l| {
                l.heads.iter().map(head::Head::bytes).sum::<usize>()
                    + l.ffn.bytes()
                    + l.acc.len() * f
                    + l.acc_changed.bytes()
                    + l.inert.len() * std::mem::size_of::<ffn::Inert<W>>()
            })
            .sum();
        let sets: usize = self.pending.iter().map(Changes::bytes).sum();
        layers + self.bufs.iter().map(|b| b.data.len() * f).sum::<usize>() + sets + self.host.bytes()
    }

    /// Marks the columns where `x` differs from `bufs[l]` as pending and copies them.
    fn absorb(&mut self, l: usize, x: &Tensor) {
        let d = self.d;
        // `bufs[l]` is also layer l − 1's output, which its skips take as still right.
        if l > 0 {
            self.layers[l - 1].fresh = true;
        }
        for j in 0..self.n {
            let cols = j * d..(j + 1) * d;
            if !same_bits(&x.data[cols.clone()], &self.bufs[l].data[cols.clone()]) {
                self.bufs[l].data[cols.clone()].copy_from_slice(&x.data[cols]);
                self.pending[l].insert(j, RowMask::ALL);
            }
        }
    }

    /// Brings `bufs[li + 1]` up to date with `bufs[li]`.
    #[inline(always)]
    fn layer(&mut self, li: usize, trace: Option<&mut StepTrace>) {
        let d = self.d;
        let l = &mut self.layers[li];
        if l.fresh {
            l.heads.iter_mut().for_each(head::Head::reset);
            l.acc.fill(0.0);
            self.pending[li].insert_all();
            l.fresh = false;
        }
        if !self.shortcuts.dirty_columns {
            self.pending[li].insert_all();
        }
        let (inp, out) = self.bufs.split_at_mut(li + 1);
        let (inp, out) = (&inp[li].data, &mut out[0].data);
        l.acc_changed.clear();
        for h in &mut l.heads {
            h.update(inp, d, &self.pending[li], self.shortcuts, &mut l.acc, &mut l.acc_changed);
        }
        let (pending, next) = self.pending.split_at_mut(li + 1);
        let (pending, next) = (&mut pending[li], &mut next[0]);
        let extra = l.acc_changed.list().iter().copied().filter(|&j| !pending.contains(j));
        let blocks = if self.shortcuts.layer_rows { &l.blocks } else { &self.all_blocks };
        for j in pending.list().iter().copied().chain(extra) {
            let a = &mut self.col;
            let (src, acc) = (&inp[j * d..(j + 1) * d], (!l.acc.is_empty()).then(|| &l.acc[j * d..(j + 1) * d]));
            let (dst, moved) = (&mut out[j * d..(j + 1) * d], pending.rows(j).union(&l.acc_changed.rows(j)));
            if self.shortcuts.dirty_rows {
                // Moved only in rows the last output ignored or copied, within their
                // tolerance: the same output, with the copied rows copied again.
                if let Some(changed) = l.inert[j].carry(moved, src, acc, dst) {
                    if !changed.is_empty() {
                        next.insert(j, changed);
                    }
                    continue;
                }
            }
            let scan = rows::ColumnScan::load(a, &mut self.y, l.ffn.start(self.shortcuts), src, acc, blocks);
            l.inert[j] = l.ffn.apply(a, &scan, &mut self.y, self.shortcuts);
            let mut changed = rows::store(dst, &self.y, blocks);
            // Outside the blocks the output is the input: copy the rows that moved.
            moved.and(&blocks.outside()).blocks(d, |at, bits| {
                let out: &mut [f32; 8] = (&mut dst[at..at + 8]).try_into().expect("eight rows");
                changed.or_bits(at, rows::put8(out, &rows::value8(src, acc, at), bits));
                true
            });
            if !changed.is_empty() {
                next.insert(j, changed);
            }
        }
        pending.clear();
        if let Some(t) = trace {
            let heads: Vec<HeadTrace> = l.heads.iter().map(head::Head::trace).collect();
            t.layers.push(LayerTrace { name: l.name, heads, after: self.bufs[li + 1].clone() });
        }
    }
}

impl Backend for Sparse {
    const NAME: &'static str = "sparse";

    fn new(w: &Weights) -> Sparse {
        Sparse::with_shortcuts(w, Shortcuts::ALL)
    }

    fn forward(&mut self, x: &mut Tensor, trace: Option<&mut StepTrace>) {
        match self {
            Sparse::Narrow(e) => e.forward(x, trace),
            Sparse::Wide(e) => e.forward(x, trace),
        }
    }

    fn forward_layer(&mut self, index: usize, x: &mut Tensor) {
        match self {
            Sparse::Narrow(e) => e.forward_layer(index, x),
            Sparse::Wide(e) => e.forward_layer(index, x),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Sparse::Narrow(e) => e.bytes(),
            Sparse::Wide(e) => e.bytes(),
        }
    }

    fn touched(&mut self, col: Option<usize>) {
        match self {
            Sparse::Narrow(e) => e.touched(col),
            Sparse::Wide(e) => e.touched(col),
        }
    }
}

impl<const W: usize> Core<W> {
    fn forward(&mut self, x: &mut Tensor, trace: Option<&mut StepTrace>) {
        #[cfg(target_arch = "x86_64")]
        if avx2::detected() {
            // SAFETY: the CPU has every feature `step_avx2` is compiled for.
            return unsafe { self.step_avx2(x, trace) };
        }
        self.step(x, trace)
    }

    fn forward_layer(&mut self, index: usize, x: &mut Tensor) {
        self.absorb(index, x);
        self.layer(index, None);
        x.data.copy_from_slice(&self.bufs[index + 1].data);
        self.synced = false;
    }

    fn touched(&mut self, col: Option<usize>) {
        match col {
            Some(j) => self.host.insert(j),
            None => self.synced = false,
        }
    }
}

/// The whole step compiled a second time for x86_64 CPUs with AVX2 (and the
/// bit instructions that come with it), chosen at run time: the lanes, row
/// masks and sums become 256-bit instructions. Same operations, same results.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Core, StepTrace, Tensor};

    pub fn detected() -> bool {
        use std::arch::is_x86_feature_detected as has;
        has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
    }

    impl<const W: usize> Core<W> {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        pub(super) unsafe fn step_avx2(&mut self, x: &mut Tensor, trace: Option<&mut StepTrace>) {
            self.step(x, trace)
        }
    }
}

impl<const W: usize> Core<W> {
    /// One forward pass; everything it calls is inlined, so that
    /// `step_avx2` compiles all of it for AVX2.
    #[inline(always)]
    fn step(&mut self, x: &mut Tensor, mut trace: Option<&mut StepTrace>) {
        let (d, depth) = (self.d, self.layers.len());
        // Unsynced (new tensor, or layers run one by one): compare every column once,
        // here and after the step, where `bufs[depth]` may differ from `bufs[0]` anywhere.
        let full = !self.synced;
        if full {
            self.absorb(0, x);
            self.synced = true;
        }
        for &j in &self.host.list {
            self.bufs[0].data[j * d..(j + 1) * d].copy_from_slice(&x.data[j * d..(j + 1) * d]);
            self.pending[0].insert(j, RowMask::ALL);
        }
        self.pending[depth].clear();
        for li in 0..depth {
            self.layer(li, trace.as_deref_mut());
        }
        // The next input is this output. It differs from this input where the
        // output moved and where the host wrote (bufs[0] = bufs[depth] elsewhere).
        if full {
            for j in 0..self.n {
                if !same_bits(&self.bufs[0].data[j * d..(j + 1) * d], &self.bufs[depth].data[j * d..(j + 1) * d]) {
                    self.host.insert(j);
                }
            }
        }
        let (first, rest) = self.bufs.split_at_mut(1);
        let (first, last) = (&mut first[0].data, &rest[depth - 1].data);
        let (next, rest) = self.pending.split_at_mut(1);
        let moved = &rest[depth - 1];
        // A moved column differs from this input in the rows it moved in (the
        // host's columns: anywhere).
        let host = self.host.list.iter().map(|&j| (j, RowMask::ALL));
        for (j, rows) in moved.list().iter().map(|&j| (j, moved.rows(j))).chain(host) {
            let cols = j * d..(j + 1) * d;
            let (first, x, last) = (&mut first[cols.clone()], &mut x.data[cols.clone()], &last[cols]);
            if rows == RowMask::ALL {
                first.copy_from_slice(last);
                x.copy_from_slice(last);
            } else {
                // Only the moved rows differ (a moved column's rows lie below d), a block
                // of eight at a time: copying a row that did not move copies what is there.
                rows.blocks(d, |at, _| {
                    first[at..at + 8].copy_from_slice(&last[at..at + 8]);
                    x[at..at + 8].copy_from_slice(&last[at..at + 8]);
                    true
                });
            }
            next[0].insert(j, rows);
        }
        self.host.clear();
    }
}
