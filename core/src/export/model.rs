//! The transformer as named dense arrays: what every export format writes.
//!
//! [`Model::of`] takes the dense reference's own matrices of [`Weights`]
//! (`Head::k_matrix`, `Head::v_matrix`, `Ffn::dense`) and names each array by
//! layer, head and role:
//!
//! | array | shape | meaning |
//! |---|---|---|
//! | `L1.fetch.query`, `L1.fetch.key` | kdim × d | the head's projection (`Q = K`: both are written) |
//! | `L1.fetch.value` | vdim × d | what the head moves: the rows its V writes, as computed from the source column |
//! | `L1.fetch.output` | d × vdim | where it lands: one 1.0 per value row (`output · value` is our V) |
//! | `L1.ffn.in.weight`, `L1.ffn.in.bias` | hidden × d, hidden | `W1`, `b1` |
//! | `L1.ffn.out.weight`, `L1.ffn.out.bias` | d × hidden, d | `W2`, `b2` |
//!
//! Arrays are row-major. A layer without an FFN (L5) has `hidden = 0`: its
//! FFN arrays are empty but present, so every layer reads the same way.
//! The metadata (row names, configuration, statistics, the rules in words)
//! travels with the arrays in both formats.

use crate::config::Config;
use crate::machine::weights::{Head, Layer, Weights};
use serde_json::json;

/// One named row-major f32 array.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub name: String,
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

/// How a head appears in the export: its name and its two widths.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeadSpec {
    /// `"read_a"` for the head named "read a".
    pub name: String,
    pub kdim: usize,
    pub vdim: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayerSpec {
    /// `"L1"`: the prefix of the layer's array names.
    pub key: String,
    /// `"L1 fetch"`.
    pub name: &'static str,
    pub heads: Vec<HeadSpec>,
    /// FFN units (0 for a layer without an FFN).
    pub hidden: usize,
}

/// The whole transformer of one configuration, ready to be written.
#[derive(Clone, Debug)]
pub struct Model {
    pub config: Config,
    pub d: usize,
    pub n: usize,
    pub layers: Vec<LayerSpec>,
    /// In layer order: each layer's heads (query, key, value, output), then its FFN.
    pub arrays: Vec<Array>,
    /// String keys and values, as both formats store them.
    pub metadata: Vec<(String, String)>,
}

/// The argmax rule of spec §7, said once for the metadata and the ONNX graph's documentation.
pub const ATTENTION_RULE: &str = "A = X + sum over heads of output · (value · X) · P. \
For each head, k = key · X and q = query · X (the same matrix: Q = K). For every source column i whose \
key k_i is not all zero, score every target column j by k_i · q_j and take the best two, j1 and j2 \
(ties go to the lower column). If score(j1) − score(j2) < 1.0 the source's value goes half to j1 and \
half to j2, otherwise wholly to j1: P[i, j1] and P[i, j2] are 0.5, or P[i, j1] is 1.0. \
Sources with an all-zero key move nothing.";

/// The FFN, said once.
pub const FFN_RULE: &str = "Y = A + ffn.out.weight · ReLU(ffn.in.weight · A + ffn.in.bias) + ffn.out.bias, \
column by column; biases broadcast over the n columns.";

/// The state, said once.
pub const STATE_RULE: &str = "The state X is one d × n float32 array (row-major: X[row, column]); the \
metadata's `rows` names every row. One pass through the eight layers executes one instruction; the \
program counter is the `pc` rows of column 0 (bipolar, most significant bit first) and the machine has \
halted when they read 0 (no row positive).";

impl Model {
    pub fn of(w: &Weights) -> Model {
        let (d, n) = (w.layout.d, w.layout.n);
        let mut arrays = Vec::new();
        let mut layers = Vec::new();
        for l in &w.layers {
            let key = l.name.split(' ').next().expect("layer names start with their key").to_string();
            let heads = l.heads.iter().map(|h| head(&key, h, d, &mut arrays)).collect();
            ffn(&key, l, d, &mut arrays);
            layers.push(LayerSpec { key, name: l.name, heads, hidden: l.ffn.units.len() });
        }
        let metadata = metadata(w, &layers);
        Model { config: w.config, d, n, layers, arrays, metadata }
    }

    pub fn array(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }

    pub fn meta(&self, key: &str) -> Option<&str> {
        self.metadata.iter().find(|m| m.0 == key).map(|m| m.1.as_str())
    }
}

/// `"read a"` → `"read_a"`: head names as parts of array names.
fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

/// Pushes a head's four arrays and says how wide it is.
fn head(layer: &str, h: &Head, d: usize, out: &mut Vec<Array>) -> HeadSpec {
    let name = slug(h.name);
    // The value rows are the rows V writes; `output` puts value row r back at its row.
    let mut rows: Vec<usize> = h.v.iter().map(|e| e.0).collect();
    rows.sort_unstable();
    rows.dedup();
    let (v, vdim) = (h.v_matrix(d), rows.len());
    let value = rows.iter().flat_map(|&r| v[r * d..(r + 1) * d].iter().copied()).collect();
    let mut output = vec![0.0; d * vdim];
    for (r, &row) in rows.iter().enumerate() {
        output[row * vdim + r] = 1.0;
    }
    let k = h.k_matrix(d);
    let prefix = format!("{layer}.{name}");
    out.push(Array { name: format!("{prefix}.query"), shape: vec![h.kdim, d], data: k.clone() });
    out.push(Array { name: format!("{prefix}.key"), shape: vec![h.kdim, d], data: k });
    out.push(Array { name: format!("{prefix}.value"), shape: vec![vdim, d], data: value });
    out.push(Array { name: format!("{prefix}.output"), shape: vec![d, vdim], data: output });
    HeadSpec { name, kdim: h.kdim, vdim }
}

/// Pushes a layer's `W1`, `b1`, `W2`, `b2`.
fn ffn(layer: &str, l: &Layer, d: usize, out: &mut Vec<Array>) {
    let f = l.ffn.dense(d);
    let name = |part: &str| format!("{layer}.ffn.{part}");
    out.push(Array { name: name("in.weight"), shape: vec![f.hidden, d], data: f.w1 });
    out.push(Array { name: name("in.bias"), shape: vec![f.hidden], data: f.b1 });
    out.push(Array { name: name("out.weight"), shape: vec![d, f.hidden], data: f.w2 });
    out.push(Array { name: name("out.bias"), shape: vec![d], data: f.b2 });
}

fn metadata(w: &Weights, layers: &[LayerSpec]) -> Vec<(String, String)> {
    let (cfg, lay) = (&w.config, &w.layout);
    let config = json!({
        "name": cfg.name, "n": cfg.n, "word_bits": cfg.word_bits, "mem_slots": cfg.mem_slots,
        "s": cfg.s(), "d": cfg.d(), "logn": cfg.logn(), "start_pc": cfg.start_pc(),
    });
    let rows: Vec<String> = (0..lay.d).map(|r| lay.label(r)).collect();
    let stats = json!({ "layers": w.stats(), "total": w.total_stats() });
    [
        ("format", "loom-transformer/1".to_string()),
        ("producer", format!("loom-core {}", env!("CARGO_PKG_VERSION"))),
        ("config", config.to_string()),
        ("rows", json!(rows).to_string()),
        ("regions", json!(lay.regions()).to_string()),
        ("layers", json!(layers).to_string()),
        ("stats", stats.to_string()),
        ("attention", ATTENTION_RULE.to_string()),
        ("ffn", FFN_RULE.to_string()),
        ("state", STATE_RULE.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `output · value` is the head's V and `query`/`key` its K, entry for entry.
    #[test]
    fn factored_heads_rebuild_the_dense_matrices() {
        let w = Weights::build(&Config::preset("tiny").unwrap());
        let m = Model::of(&w);
        let d = m.d;
        for (l, spec) in w.layers.iter().zip(&m.layers) {
            for (h, hs) in l.heads.iter().zip(&spec.heads) {
                let get = |role: &str| m.array(&format!("{}.{}.{role}", spec.key, hs.name)).unwrap();
                let (value, output) = (get("value"), get("output"));
                let v = h.v_matrix(d);
                for o in 0..d {
                    for i in 0..d {
                        let ov: f32 = (0..hs.vdim).map(|r| output.data[o * hs.vdim + r] * value.data[r * d + i]).sum();
                        assert_eq!(ov, v[o * d + i], "{} {} V[{o}, {i}]", spec.key, hs.name);
                    }
                }
                assert_eq!(get("query").data, get("key").data);
                let nonzero = get("key").data.iter().filter(|&&x| x != 0.0).count();
                assert_eq!(nonzero, h.k.len());
            }
        }
    }

    #[test]
    fn names_and_shapes() {
        let m = Model::of(&Weights::build(&Config::preset("compact").unwrap()));
        let names: Vec<String> = m.arrays.iter().map(|a| format!("{} {:?}", a.name, a.shape)).collect();
        expect_test::expect_file!["model_arrays.txt"].assert_eq(&(names.join("\n") + "\n"));
        for a in &m.arrays {
            assert_eq!(a.data.len(), a.shape.iter().product::<usize>(), "{}", a.name);
        }
        let rows: Vec<String> = serde_json::from_str(m.meta("rows").unwrap()).unwrap();
        assert_eq!((rows.len(), rows[0].as_str(), rows[145].as_str()), (146, "cmds.a[8]", "indicator"));
    }
}
