//! The protobuf wire format, as much of it as ONNX's messages need: varints and
//! length-delimited fields (strings, bytes, nested messages).
//! Fields are written in the order the caller adds them; a reader accepts any order.

/// One encoded message, built field by field.
#[derive(Clone, Debug, Default)]
pub struct Msg(Vec<u8>);

/// Wire types.
const VARINT: u64 = 0;
const LEN: u64 = 2;

impl Msg {
    #[cfg(test)]
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn key(&mut self, field: u32, wire: u64) {
        self.varint(u64::from(field) << 3 | wire);
    }

    /// An `int32`/`int64`/enum field; negative values take ten bytes, as protobuf says.
    pub fn int(mut self, field: u32, v: i64) -> Msg {
        self.key(field, VARINT);
        self.varint(v as u64);
        self
    }

    pub fn raw(mut self, field: u32, b: &[u8]) -> Msg {
        self.key(field, LEN);
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }

    pub fn string(self, field: u32, s: &str) -> Msg {
        self.raw(field, s.as_bytes())
    }

    pub fn msg(self, field: u32, m: &Msg) -> Msg {
        self.raw(field, &m.0)
    }

    /// A repeated message field, one entry per item.
    pub fn msgs<'a>(self, field: u32, ms: impl IntoIterator<Item = &'a Msg>) -> Msg {
        ms.into_iter().fold(self, |acc, m| acc.msg(field, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of the protobuf encoding guide.
    #[test]
    fn wire_bytes() {
        assert_eq!(Msg::default().int(1, 150).bytes(), [0x08, 0x96, 0x01]);
        assert_eq!(Msg::default().string(2, "testing").bytes(), b"\x12\x07testing");
        let minus_one = Msg::default().int(1, -1);
        assert_eq!(minus_one.bytes(), [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        let inner = Msg::default().int(1, 150);
        assert_eq!(Msg::default().msg(3, &inner).bytes(), [0x1a, 0x03, 0x08, 0x96, 0x01]);
        assert_eq!(Msg::default().int(20, 2).bytes(), [0xa0, 0x01, 0x02]);
    }
}
