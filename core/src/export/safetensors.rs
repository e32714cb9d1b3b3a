//! The safetensors format: an 8-byte little-endian header length, a JSON
//! header (`"__metadata__"`: string → string; each array: dtype, shape and
//! byte offsets into the data), then the arrays' bytes back to back.

use super::model::Model;
use serde_json::{json, Map, Value};

/// The whole file.
pub fn write(m: &Model) -> Vec<u8> {
    let mut header = Map::new();
    let meta: Map<String, Value> = m.metadata.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    header.insert("__metadata__".into(), Value::Object(meta));
    let mut offset = 0;
    for a in &m.arrays {
        let end = offset + 4 * a.data.len();
        header.insert(a.name.clone(), json!({ "dtype": "F32", "shape": a.shape, "data_offsets": [offset, end] }));
        offset = end;
    }
    let mut text = Value::Object(header).to_string().into_bytes();
    // Padding with spaces keeps the data 8-byte aligned, as the format recommends.
    text.resize(text.len().next_multiple_of(8), b' ');
    let mut out = Vec::with_capacity(8 + text.len() + offset);
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(&text);
    for a in &m.arrays {
        out.extend(a.data.iter().flat_map(|v| v.to_le_bytes()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::weights::Weights;
    use crate::Config;

    /// Reads the file back by the format's rules: every array where its offsets say.
    #[test]
    fn reads_back() {
        let m = Model::of(&Weights::build(&Config::preset("tiny").unwrap()));
        let bytes = write(&m);
        let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
        assert_eq!(len % 8, 0);
        let header: Map<String, Value> = serde_json::from_slice(&bytes[8..8 + len]).unwrap();
        let data = &bytes[8 + len..];
        assert_eq!(header["__metadata__"]["format"], "loom-transformer/1");
        let mut end = 0;
        for a in &m.arrays {
            let h = &header[&a.name];
            assert_eq!(h["dtype"], "F32");
            assert_eq!(h["shape"], json!(a.shape));
            let (b, e) =
                (h["data_offsets"][0].as_u64().unwrap() as usize, h["data_offsets"][1].as_u64().unwrap() as usize);
            assert_eq!(b, end, "{}: arrays are back to back", a.name);
            let back: Vec<f32> = data[b..e].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            assert_eq!(back, a.data, "{}", a.name);
            end = e;
        }
        assert_eq!(end, data.len());
        assert_eq!(header.len(), m.arrays.len() + 1);
    }
}
