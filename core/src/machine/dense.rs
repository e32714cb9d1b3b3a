//! The dense reference engine: materialised matrices and the literal layer
//! definition, `A = X + Σ_h attn_h(X)`, `Y = A + W2·ReLU(W1·A + b1) + b2`,
//! with the argmax rule scanning every target for every source. Slow by
//! design; it is what "the transformer computes" means.

use super::tensor::Tensor;
use super::trace::{BestTwo, HeadRole, HeadTrace, LayerTrace, StepTrace};
use super::weights::{DenseFfn, Layer, Weights};
use super::Backend;

struct DenseHead {
    name: &'static str,
    role: HeadRole,
    kdim: usize,
    /// `kdim × d`, row-major.
    k: Vec<f32>,
    /// `d × d`, row-major.
    v: Vec<f32>,
}

struct DenseLayer {
    name: &'static str,
    heads: Vec<DenseHead>,
    hidden: usize,
    /// `hidden × d`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `d × hidden`.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

pub struct Dense {
    d: usize,
    layers: Vec<DenseLayer>,
}

impl DenseLayer {
    fn materialise(l: &Layer, d: usize) -> DenseLayer {
        let heads = l
            .heads
            .iter()
            .map(|h| DenseHead { name: h.name, role: h.role, kdim: h.kdim, k: h.k_matrix(d), v: h.v_matrix(d) })
            .collect();
        let DenseFfn { hidden, w1, b1, w2, b2 } = l.ffn.dense(d);
        DenseLayer { name: l.name, heads, hidden, w1, b1, w2, b2 }
    }
}

impl Dense {
    fn attention(&self, h: &DenseHead, x: &Tensor, acc: &mut Tensor, trace: Option<&mut HeadTrace>) {
        let (d, n) = (self.d, x.n);
        let mut kx = vec![0.0f32; h.kdim * n];
        for j in 0..n {
            let col = x.col(j);
            for r in 0..h.kdim {
                kx[j * h.kdim + r] = (0..d).map(|i| h.k[r * d + i] * col[i]).sum();
            }
        }
        let key = |j: usize| &kx[j * h.kdim..(j + 1) * h.kdim];
        let mut matches = Vec::new();
        for i in 0..n {
            if key(i).iter().all(|&v| v == 0.0) {
                continue;
            }
            let best = BestTwo::scan((0..n).map(|j| (j, key(i).iter().zip(key(j)).map(|(a, b)| a * b).sum())));
            let src = x.col(i);
            let vx: Vec<f32> = (0..d).map(|o| (0..d).map(|c| h.v[o * d + c] * src[c]).sum()).collect();
            let targets: &[(usize, f32)] =
                if best.tie() { &[(best.j1, 0.5), (best.j2, 0.5)] } else { &[(best.j1, 1.0)] };
            for &(t, w) in targets {
                for (o, &v) in vx.iter().enumerate() {
                    let cur = acc.get(o, t);
                    acc.set(o, t, cur + w * v);
                }
            }
            matches.extend(best.record(i));
        }
        if let Some(t) = trace {
            *t = HeadTrace { name: h.name, role: h.role, matches };
        }
    }

    fn layer(&self, l: &DenseLayer, x: &mut Tensor, trace: Option<&mut StepTrace>) {
        let d = self.d;
        let mut acc = Tensor::zeros(d, x.n);
        let mut heads = Vec::new();
        for h in &l.heads {
            let mut ht = HeadTrace { name: h.name, role: h.role, matches: Vec::new() };
            self.attention(h, x, &mut acc, trace.is_some().then_some(&mut ht));
            heads.push(ht);
        }
        let mut hid = vec![0.0f32; l.hidden];
        for j in 0..x.n {
            let a: Vec<f32> = (0..d).map(|r| x.get(r, j) + acc.get(r, j)).collect();
            for (u, h) in hid.iter_mut().enumerate() {
                let pre = l.b1[u] + (0..d).map(|r| l.w1[u * d + r] * a[r]).sum::<f32>();
                *h = if pre > 0.0 { pre } else { 0.0 };
            }
            for (r, &ar) in a.iter().enumerate() {
                let y = ar + (0..l.hidden).map(|u| l.w2[r * l.hidden + u] * hid[u]).sum::<f32>() + l.b2[r];
                x.set(r, j, y + 0.0);
            }
        }
        if let Some(t) = trace {
            t.layers.push(LayerTrace { name: l.name, heads, after: x.clone() });
        }
    }
}

impl Backend for Dense {
    const NAME: &'static str = "dense";

    fn new(w: &Weights) -> Dense {
        let d = w.layout.d;
        Dense { d, layers: w.layers.iter().map(|l| DenseLayer::materialise(l, d)).collect() }
    }

    fn forward(&mut self, x: &mut Tensor, mut trace: Option<&mut StepTrace>) {
        for l in &self.layers {
            self.layer(l, x, trace.as_deref_mut());
        }
    }

    fn forward_layer(&mut self, index: usize, x: &mut Tensor) {
        self.layer(&self.layers[index], x, None);
    }
}
