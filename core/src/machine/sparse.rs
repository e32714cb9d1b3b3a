//! The sparse argmax engine: the same layers as [`super::dense`], computed
//! from the nonzero weights only, column-major, with no allocation per step.
//! It must equal the dense engine bit for bit after every layer.
//!
//! Shortcuts (each can be switched off, see [`Shortcuts`]):
//! - **argmax index**: when every key of a head is in {−1, 0, 1} and the
//!   source key is all ±1, the best score (kdim) is reached exactly by the
//!   columns with the identical key, and any other scores ≤ kdim − 1; so the
//!   targets are the lowest one or two identical keys, found through a
//!   hash-sorted index instead of an O(n) scan per source.
//! - **FFN cache**: a column whose input to a layer's FFN equals its input at
//!   the previous step gets the previous output back without evaluating.
//!
//! Sources with an all-zero key, and sources whose V·x is zero, are skipped
//! in both modes: they cannot contribute.

use super::tensor::Tensor;
use super::trace::{BestTwo, HeadTrace, LayerTrace, StepTrace};
use super::weights::{Layer, Weights};
use super::Backend;

/// Which shortcuts the sparse engine takes. Tests compare each against plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortcuts {
    pub argmax_index: bool,
    pub ffn_cache: bool,
}

impl Shortcuts {
    pub const ALL: Shortcuts = Shortcuts { argmax_index: true, ffn_cache: true };
    pub const NONE: Shortcuts = Shortcuts { argmax_index: false, ffn_cache: false };
}

struct SparseHead {
    name: &'static str,
    kdim: usize,
    /// Per key dimension, its `(row, weight)` entries.
    k: Vec<Vec<(usize, f32)>>,
    v: Vec<(usize, usize, f32)>,
    /// The distinct rows V writes.
    v_rows: Vec<usize>,
}

/// The FFN in compressed rows: unit u reads `w1[w1_at[u]..w1_at[u+1]]`.
struct SparseFfn {
    w1_at: Vec<usize>,
    w1: Vec<(usize, f32)>,
    b1: Vec<f32>,
    w2_at: Vec<usize>,
    w2: Vec<(usize, f32)>,
    b2: Vec<(usize, f32)>,
}

struct SparseLayer {
    name: &'static str,
    heads: Vec<SparseHead>,
    ffn: SparseFfn,
    /// The FFN input and output of every column at the previous step.
    prev_in: Vec<f32>,
    prev_out: Vec<f32>,
    cached: bool,
}

/// Buffers reused every step (no allocation in the step loop).
struct Scratch {
    d: usize,
    n: usize,
    kx: Vec<f32>,
    has_key: Vec<bool>,
    index: Vec<(u64, usize)>,
    vx: Vec<f32>,
    acc: Vec<f32>,
    touched: Vec<bool>,
}

pub struct Sparse {
    layers: Vec<SparseLayer>,
    pub shortcuts: Shortcuts,
    s: Scratch,
}

impl SparseLayer {
    fn new(l: &Layer, d: usize, n: usize) -> SparseLayer {
        let heads = l
            .heads
            .iter()
            .map(|h| {
                let mut k = vec![Vec::new(); h.kdim];
                for &(o, i, w) in &h.k {
                    k[o].push((i, w));
                }
                let mut v_rows: Vec<usize> = h.v.iter().map(|e| e.0).collect();
                v_rows.sort_unstable();
                v_rows.dedup();
                SparseHead { name: h.name, kdim: h.kdim, k, v: h.v.clone(), v_rows }
            })
            .collect();
        let (mut w1_at, mut w1, mut b1, mut w2_at, mut w2) = (vec![0], Vec::new(), Vec::new(), vec![0], Vec::new());
        for u in &l.ffn.units {
            w1.extend_from_slice(&u.w1);
            w1_at.push(w1.len());
            b1.push(u.b1);
            w2.extend_from_slice(&u.w2);
            w2_at.push(w2.len());
        }
        let ffn = SparseFfn { w1_at, w1, b1, w2_at, w2, b2: l.ffn.b2.clone() };
        SparseLayer { name: l.name, heads, ffn, prev_in: vec![0.0; d * n], prev_out: vec![0.0; d * n], cached: false }
    }
}

impl SparseFfn {
    /// `y = a + W2·ReLU(W1·a + b1) + b2` for one column.
    #[inline]
    fn apply(&self, a: &[f32], y: &mut [f32]) {
        y.copy_from_slice(a);
        for u in 0..self.b1.len() {
            let mut pre = self.b1[u];
            for &(r, w) in &self.w1[self.w1_at[u]..self.w1_at[u + 1]] {
                pre += w * a[r];
            }
            if pre > 0.0 {
                for &(r, w) in &self.w2[self.w2_at[u]..self.w2_at[u + 1]] {
                    y[r] += w * pre;
                }
            }
        }
        for &(r, w) in &self.b2 {
            y[r] += w;
        }
        // Canonical zeros: −0.0 + 0.0 = +0.0.
        for v in y.iter_mut() {
            *v += 0.0;
        }
    }
}

impl Scratch {
    /// Computes every column's key; returns whether all keys lie in {−1, 0, 1}.
    fn keys(&mut self, h: &SparseHead, x: &Tensor) -> bool {
        let mut unit_keys = true;
        for j in 0..self.n {
            let col = x.col(j);
            let key = &mut self.kx[j * h.kdim..(j + 1) * h.kdim];
            let mut any = false;
            for (r, entries) in h.k.iter().enumerate() {
                let mut v = 0.0f32;
                for &(i, w) in entries {
                    v += w * col[i];
                }
                key[r] = v;
                any |= v != 0.0;
                unit_keys &= v == 0.0 || v == 1.0 || v == -1.0;
            }
            self.has_key[j] = any;
        }
        unit_keys
    }

    fn key(&self, h: &SparseHead, j: usize) -> &[f32] {
        &self.kx[j * h.kdim..(j + 1) * h.kdim]
    }

    fn hash(&self, h: &SparseHead, j: usize) -> u64 {
        self.key(h, j)
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |acc, v| (acc ^ v.to_bits() as u64).wrapping_mul(0x100_0000_01b3))
    }

    /// Sorts the keyed columns by a hash of their key (then by column).
    fn build_index(&mut self, h: &SparseHead) {
        self.index.clear();
        for j in 0..self.n {
            if self.has_key[j] {
                let e = (self.hash(h, j), j);
                self.index.push(e);
            }
        }
        self.index.sort_unstable();
    }

    /// The targets of source `i` through the index: the lowest two columns
    /// with an identical key (there is at least one, `i` itself).
    fn indexed(&self, h: &SparseHead, i: usize) -> BestTwo {
        let hash = self.hash(h, i);
        let start = self.index.partition_point(|e| e.0 < hash);
        let mut found = self.index[start..]
            .iter()
            .take_while(|e| e.0 == hash)
            .map(|e| e.1)
            .filter(|&j| self.key(h, j) == self.key(h, i));
        let j1 = found.next().expect("a source matches itself");
        let top = h.kdim as f32;
        match found.next() {
            Some(j2) => BestTwo { j1, s1: top, j2, s2: top },
            // Any other key scores ≤ kdim − 1: the gap is ≥ 1, no tie.
            None => BestTwo { j1, s1: top, j2: usize::MAX, s2: top - 1.0 },
        }
    }

    fn scan(&self, h: &SparseHead, i: usize) -> BestTwo {
        let ki = self.key(h, i);
        BestTwo::scan((0..self.n).map(|j| {
            let mut s = 0.0f32;
            if self.has_key[j] {
                for (a, b) in ki.iter().zip(self.key(h, j)) {
                    s += a * b;
                }
            }
            (j, s)
        }))
    }

    /// Adds one head's contribution into `acc`.
    fn attention(&mut self, h: &SparseHead, x: &Tensor, use_index: bool, trace: Option<&mut HeadTrace>) {
        let unit_keys = self.keys(h, x);
        let use_index = use_index && unit_keys && trace.is_none();
        if use_index {
            self.build_index(h);
        }
        let mut matches = Vec::new();
        for i in 0..self.n {
            if !self.has_key[i] {
                continue;
            }
            let col = x.col(i);
            for &o in &h.v_rows {
                self.vx[o] = 0.0;
            }
            let mut any = false;
            for &(o, c, w) in &h.v {
                let v = w * col[c];
                self.vx[o] += v;
                any |= v != 0.0;
            }
            if !any && trace.is_none() {
                continue;
            }
            let bipolar = self.key(h, i).iter().all(|&v| v == 1.0 || v == -1.0);
            let best = if use_index && bipolar { self.indexed(h, i) } else { self.scan(h, i) };
            if trace.is_some() {
                matches.extend(best.record(i));
            }
            if !any {
                continue;
            }
            let (w, second) = if best.tie() { (0.5, Some(best.j2)) } else { (1.0, None) };
            for t in std::iter::once(best.j1).chain(second) {
                self.touched[t] = true;
                let dst = &mut self.acc[t * self.d..(t + 1) * self.d];
                for &o in &h.v_rows {
                    dst[o] += w * self.vx[o];
                }
            }
        }
        if let Some(t) = trace {
            *t = HeadTrace { name: h.name, matches };
        }
    }
}

impl Sparse {
    pub fn with_shortcuts(w: &Weights, shortcuts: Shortcuts) -> Sparse {
        let (d, n) = (w.layout.d, w.layout.n);
        let kmax = w.layers.iter().flat_map(|l| l.heads.iter().map(|h| h.kdim)).max().unwrap_or(0);
        let s = Scratch {
            d,
            n,
            kx: vec![0.0; kmax * n],
            has_key: vec![false; n],
            index: Vec::with_capacity(n),
            vx: vec![0.0; d],
            acc: vec![0.0; d * n],
            touched: vec![false; n],
        };
        Sparse { layers: w.layers.iter().map(|l| SparseLayer::new(l, d, n)).collect(), shortcuts, s }
    }

    fn layer(&mut self, li: usize, x: &mut Tensor, trace: Option<&mut StepTrace>) {
        let d = self.s.d;
        let l = &mut self.layers[li];
        let mut heads = Vec::new();
        for h in &l.heads {
            let mut ht = HeadTrace { name: h.name, matches: Vec::new() };
            self.s.attention(h, x, self.shortcuts.argmax_index, trace.is_some().then_some(&mut ht));
            heads.push(ht);
        }
        // A = X + attention, on the columns the heads wrote.
        for j in 0..self.s.n {
            if self.s.touched[j] {
                self.s.touched[j] = false;
                let acc = &mut self.s.acc[j * d..(j + 1) * d];
                for (xv, av) in x.data[j * d..(j + 1) * d].iter_mut().zip(acc.iter_mut()) {
                    *xv += *av;
                    *av = 0.0;
                }
            }
        }
        let use_cache = self.shortcuts.ffn_cache && l.cached;
        for j in 0..self.s.n {
            let cols = j * d..(j + 1) * d;
            if use_cache && x.data[cols.clone()] == l.prev_in[cols.clone()] {
                x.data[cols.clone()].copy_from_slice(&l.prev_out[cols]);
                continue;
            }
            l.prev_in[cols.clone()].copy_from_slice(&x.data[cols.clone()]);
            l.ffn.apply(&l.prev_in[cols.clone()], &mut l.prev_out[cols.clone()]);
            x.data[cols.clone()].copy_from_slice(&l.prev_out[cols]);
        }
        l.cached = true;
        if let Some(t) = trace {
            t.layers.push(LayerTrace { name: l.name, heads, after: x.clone() });
        }
    }
}

impl Backend for Sparse {
    const NAME: &'static str = "sparse";

    fn new(w: &Weights) -> Sparse {
        Sparse::with_shortcuts(w, Shortcuts::ALL)
    }

    fn forward(&mut self, x: &mut Tensor, mut trace: Option<&mut StepTrace>) {
        for li in 0..self.layers.len() {
            self.layer(li, x, trace.as_deref_mut());
        }
    }

    fn forward_layer(&mut self, index: usize, x: &mut Tensor) {
        self.layer(index, x, None);
    }
}
