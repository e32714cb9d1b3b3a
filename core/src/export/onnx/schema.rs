//! The ONNX messages the exporter writes, with their field numbers from
//! `onnx.proto` (ModelProto, GraphProto, NodeProto, AttributeProto,
//! TensorProto, ValueInfoProto, TypeProto, TensorShapeProto,
//! OperatorSetIdProto, StringStringEntryProto).

use super::proto::Msg;

/// `TensorProto.DataType`.
#[derive(Clone, Copy, Debug)]
pub enum Elem {
    Float = 1,
    Int64 = 7,
}

/// An initializer: dims, data type, name and little-endian raw data.
pub fn tensor(name: &str, dims: &[usize], elem: Elem, raw: &[u8]) -> Msg {
    let m = dims.iter().fold(Msg::default(), |m, &d| m.int(1, d as i64));
    m.int(2, elem as i64).string(8, name).raw(9, raw)
}

pub fn floats(name: &str, dims: &[usize], data: &[f32]) -> Msg {
    let raw: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    tensor(name, dims, Elem::Float, &raw)
}

pub fn int64s(name: &str, dims: &[usize], data: &[i64]) -> Msg {
    let raw: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    tensor(name, dims, Elem::Int64, &raw)
}

/// A graph input or output: a tensor of a fixed shape.
pub fn value_info(name: &str, elem: Elem, dims: &[usize]) -> Msg {
    let shape = dims.iter().fold(Msg::default(), |m, &d| m.msg(1, &Msg::default().int(1, d as i64)));
    let tensor_type = Msg::default().int(1, elem as i64).msg(2, &shape);
    Msg::default().string(1, name).msg(2, &Msg::default().msg(1, &tensor_type))
}

/// A node attribute.
#[derive(Clone, Debug)]
pub enum Attr {
    Int(i64),
    Ints(Vec<i64>),
}

fn attribute(name: &str, a: &Attr) -> Msg {
    let m = Msg::default().string(1, name);
    // `type` (field 20) is the AttributeType discriminator: INT = 2, INTS = 7.
    match a {
        Attr::Int(v) => m.int(3, *v).int(20, 2),
        Attr::Ints(vs) => vs.iter().fold(m, |m, &v| m.int(8, v)).int(20, 7),
    }
}

pub fn node(op: &str, inputs: &[&str], output: &str, attrs: &[(&str, Attr)]) -> Msg {
    let m = inputs.iter().fold(Msg::default(), |m, i| m.string(1, i));
    let attrs: Vec<Msg> = attrs.iter().map(|(n, a)| attribute(n, a)).collect();
    m.string(2, output).string(3, output).string(4, op).msgs(5, &attrs)
}

pub struct Graph<'a> {
    pub name: &'a str,
    pub doc: &'a str,
    pub nodes: &'a [Msg],
    pub initializers: &'a [Msg],
    pub inputs: &'a [Msg],
    pub outputs: &'a [Msg],
}

pub struct Model<'a> {
    pub ir_version: i64,
    pub opset: i64,
    pub producer: &'a str,
    pub version: &'a str,
    pub doc: &'a str,
    pub graph: Graph<'a>,
    pub metadata: &'a [(String, String)],
}

impl Model<'_> {
    pub fn encode(&self) -> Vec<u8> {
        let g = &self.graph;
        let graph = Msg::default()
            .msgs(1, g.nodes)
            .string(2, g.name)
            .msgs(5, g.initializers)
            .string(10, g.doc)
            .msgs(11, g.inputs)
            .msgs(12, g.outputs);
        // The default domain ("") is the ONNX operator set itself.
        let opset = Msg::default().string(1, "").int(2, self.opset);
        let props: Vec<Msg> = self.metadata.iter().map(|(k, v)| Msg::default().string(1, k).string(2, v)).collect();
        Msg::default()
            .int(1, self.ir_version)
            .string(2, self.producer)
            .string(3, self.version)
            .string(6, self.doc)
            .msg(7, &graph)
            .msg(8, &opset)
            .msgs(14, &props)
            .into_bytes()
    }
}
