//! NumPy's `.npy` format (version 1.0) for state tensors: a magic string, a
//! header that is a Python dict literal, then the float32 values in C order.

use crate::machine::tensor::Tensor;

/// A C-order float32 array of any shape.
pub fn write(shape: &[usize], data: &[f32]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), data.len(), "the shape must hold the data");
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    // A 1-tuple needs its trailing comma in Python.
    let tuple = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    // Magic (6) + version (2) + length (2) + header, padded to 64 bytes and ended by a newline.
    let total = (10 + header.len() + 1).next_multiple_of(64);
    header.push_str(&" ".repeat(total - 10 - header.len() - 1));
    header.push('\n');
    let mut out = Vec::with_capacity(total + 4 * data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend(data.iter().flat_map(|v| v.to_le_bytes()));
    out
}

/// One state as a `d × n` array, `X[row, column]` (the tensor itself is column-major).
pub fn state(x: &Tensor) -> Vec<u8> {
    write(&[x.d, x.n], &row_major(std::slice::from_ref(x)))
}

/// Several states of one machine as a `k × d × n` array, in order.
pub fn states(xs: &[Tensor]) -> Vec<u8> {
    let (d, n) = xs.first().map_or((0, 0), |x| (x.d, x.n));
    write(&[xs.len(), d, n], &row_major(xs))
}

fn row_major(xs: &[Tensor]) -> Vec<f32> {
    xs.iter().flat_map(|x| (0..x.d).flat_map(move |r| (0..x.n).map(move |c| x.get(r, c)))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_order() {
        let mut x = Tensor::zeros(2, 3);
        x.set(0, 2, 1.5);
        x.set(1, 0, -2.0);
        let bytes = state(&x);
        let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert_eq!((10 + len) % 64, 0);
        let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
        assert_eq!(header.trim_end(), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
        assert!(header.ends_with('\n'));
        let vals: Vec<f32> = bytes[10 + len..].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(vals, [0.0, 0.0, 1.5, -2.0, 0.0, 0.0]);
        assert!(String::from_utf8_lossy(&write(&[4], &[0.0; 4])).contains("'shape': (4,), }"));
        assert!(String::from_utf8_lossy(&states(&[x.clone(), x])).contains("'shape': (2, 2, 3), }"));
    }
}
