//! The transformer as one ONNX graph: `state` (d × n) in, `next_state` out,
//! one instruction per run, built from standard operators only.
//!
//! Each head is the argmax rule of spec §7 in tensor form. With `k = key·X`
//! and `q = query·X`, `scores = kᵀ·q` holds source i's score for target j in
//! row i. `ArgMax` (first index on ties: the lower column) and `ReduceMax`
//! give the best target and its score; masking that column with −∞ gives the
//! second. The gap decides the weights (0.5/0.5 under 1.0, else 1.0/0), a
//! source whose key is all zero gets none, and the pattern matrix `P`
//! (sources × targets) moves the values: `output · (value·X) · P`. The FFN is
//! `MatMul`, `Add`, `Relu` as defined. Every value is a small dyadic rational,
//! so the runtime's summation order cannot change a bit.

mod proto;
mod schema;

use super::model::{LayerSpec, Model, ATTENTION_RULE, FFN_RULE, STATE_RULE};
use proto::Msg;
use schema::{Attr, Elem};

/// The operator set: every operator used here is at this version in onnxruntime ≥ 1.13.
pub const OPSET: i64 = 17;
/// The IR version that goes with opset 17.
pub const IR_VERSION: i64 = 8;
pub const INPUT: &str = "state";
pub const OUTPUT: &str = "next_state";

// Shared constants, as initializers.
const COLUMNS: &str = "const.columns";
const AXIS1: &str = "const.axis1";
const NEG_INF: &str = "const.neg_inf";
const ZERO: &str = "const.zero";
const HALF: &str = "const.half";
const ONE: &str = "const.one";

/// Nodes and initializers as they are added, in topological order.
#[derive(Default)]
struct Graph {
    nodes: Vec<Msg>,
    initializers: Vec<Msg>,
}

impl Graph {
    fn op(&mut self, op: &str, inputs: &[&str], output: String, attrs: &[(&str, Attr)]) -> String {
        self.nodes.push(schema::node(op, inputs, &output, attrs));
        output
    }

    fn weight(&mut self, m: &Model, name: &str) -> String {
        let a = m.array(name).unwrap_or_else(|| panic!("the model has no array {name}"));
        self.initializers.push(schema::floats(&a.name, &a.shape, &a.data));
        a.name.clone()
    }

    /// `x` with a bias vector added to every column.
    fn add_column(&mut self, x: &str, bias: &str, out: String) -> String {
        let col = self.op("Unsqueeze", &[bias, AXIS1], format!("{bias}.column"), &[]);
        self.op("Add", &[x, &col], out, &[])
    }
}

/// The whole `.onnx` file.
pub fn write(m: &Model) -> Vec<u8> {
    let mut g = Graph::default();
    let columns: Vec<i64> = (0..m.n as i64).collect();
    g.initializers.extend([
        schema::int64s(COLUMNS, &[1, m.n], &columns),
        schema::int64s(AXIS1, &[1], &[1]),
        schema::floats(NEG_INF, &[], &[f32::NEG_INFINITY]),
        schema::floats(ZERO, &[], &[0.0]),
        schema::floats(HALF, &[], &[0.5]),
        schema::floats(ONE, &[], &[1.0]),
    ]);
    let mut x = INPUT.to_string();
    for (i, l) in m.layers.iter().enumerate() {
        let out = if i + 1 == m.layers.len() { OUTPUT.to_string() } else { format!("{}.out", l.key) };
        x = layer(&mut g, m, l, &x, out);
    }
    let doc = format!("{STATE_RULE}\n\nAttention: {ATTENTION_RULE}\n\nFFN: {FFN_RULE}");
    let name = format!("loom-{}", m.config.name);
    let model = schema::Model {
        ir_version: IR_VERSION,
        opset: OPSET,
        producer: "loom-core",
        version: env!("CARGO_PKG_VERSION"),
        doc: "One forward pass of the Loom transformer: one instruction of the machine whose state is the input.",
        graph: schema::Graph {
            name: &name,
            doc: &doc,
            nodes: &g.nodes,
            initializers: &g.initializers,
            inputs: &[schema::value_info(INPUT, Elem::Float, &[m.d, m.n])],
            outputs: &[schema::value_info(OUTPUT, Elem::Float, &[m.d, m.n])],
        },
        metadata: &m.metadata,
    };
    model.encode()
}

/// `A = X + Σ heads`, then the FFN; returns the name of the layer's output.
fn layer(g: &mut Graph, m: &Model, l: &LayerSpec, x: &str, out: String) -> String {
    let mut a = x.to_string();
    for h in &l.heads {
        let moved = head(g, m, &format!("{}.{}", l.key, h.name), x);
        a = g.op("Add", &[&a, &moved], format!("{}.{}.sum", l.key, h.name), &[]);
    }
    let p = format!("{}.ffn", l.key);
    if l.hidden > 0 {
        let (w1, b1) = (g.weight(m, &format!("{p}.in.weight")), g.weight(m, &format!("{p}.in.bias")));
        let w2 = g.weight(m, &format!("{p}.out.weight"));
        let pre = g.op("MatMul", &[&w1, &a], format!("{p}.in"), &[]);
        let pre = g.add_column(&pre, &b1, format!("{p}.pre"));
        let hidden = g.op("Relu", &[&pre], format!("{p}.hidden"), &[]);
        let y = g.op("MatMul", &[&w2, &hidden], format!("{p}.out"), &[]);
        a = g.op("Add", &[&a, &y], format!("{p}.residual"), &[]);
    }
    // b2 is added even when it is zero: it turns a −0 into +0, as the reference does.
    let b2 = g.weight(m, &format!("{p}.out.bias"));
    g.add_column(&a, &b2, out)
}

/// One argmax head; returns the name of its `d × n` contribution.
fn head(g: &mut Graph, m: &Model, p: &str, x: &str) -> String {
    let [query, key, value, output] = ["query", "key", "value", "output"].map(|r| g.weight(m, &format!("{p}.{r}")));
    let name = |s: &str| format!("{p}.{s}");
    let axis = || [("axis", Attr::Int(1)), ("keepdims", Attr::Int(1)), ("select_last_index", Attr::Int(0))];
    let axes = || [("axes", Attr::Ints(vec![1])), ("keepdims", Attr::Int(1))];

    let k = g.op("MatMul", &[&key, x], name("k"), &[]);
    let q = g.op("MatMul", &[&query, x], name("q"), &[]);
    let kt = g.op("Transpose", &[&k], name("k_t"), &[("perm", Attr::Ints(vec![1, 0]))]);
    let scores = g.op("MatMul", &[&kt, &q], name("scores"), &[]);
    // Best target (lowest column among equal scores), then the best of the others.
    let first = g.op("ArgMax", &[&scores], name("first"), &axis());
    let first_score = g.op("ReduceMax", &[&scores], name("first_score"), &axes());
    let first_mask = g.op("Equal", &[&first, COLUMNS], name("first_mask"), &[]);
    let rest = g.op("Where", &[&first_mask, NEG_INF, &scores], name("rest"), &[]);
    let second = g.op("ArgMax", &[&rest], name("second"), &axis());
    let second_score = g.op("ReduceMax", &[&rest], name("second_score"), &axes());
    let second_mask = g.op("Equal", &[&second, COLUMNS], name("second_mask"), &[]);
    // A gap under 1.0 splits the value; sources with an all-zero key move nothing.
    let gap = g.op("Sub", &[&first_score, &second_score], name("gap"), &[]);
    let tie = g.op("Less", &[&gap, ONE], name("tie"), &[]);
    let key_abs = g.op("Abs", &[&kt], name("key_abs"), &[]);
    let key_max = g.op("ReduceMax", &[&key_abs], name("key_max"), &axes());
    let live = g.op("Greater", &[&key_max, ZERO], name("live"), &[]);
    let w1 = g.op("Where", &[&tie, HALF, ONE], name("first_split"), &[]);
    let w1 = g.op("Where", &[&live, &w1, ZERO], name("first_weight"), &[]);
    let w2 = g.op("Where", &[&tie, HALF, ZERO], name("second_split"), &[]);
    let w2 = g.op("Where", &[&live, &w2, ZERO], name("second_weight"), &[]);
    let to_first = g.op("Where", &[&first_mask, &w1, ZERO], name("to_first"), &[]);
    let to_second = g.op("Where", &[&second_mask, &w2, ZERO], name("to_second"), &[]);
    let pattern = g.op("Add", &[&to_first, &to_second], name("pattern"), &[]);
    // Values move from sources to targets: (value·X)·P, then back to their rows.
    let v = g.op("MatMul", &[&value, x], name("v"), &[]);
    let moved = g.op("MatMul", &[&v, &pattern], name("moved"), &[]);
    g.op("MatMul", &[&output, &moved], name("out"), &[])
}
