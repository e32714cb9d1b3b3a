//! The state layout: which rows of the `d × n` tensor mean what (spec §3–4).
//!
//! Rows are named basis directions, Tracr-style. Every other module (the
//! weight construction, the engines, the UI's row labels) goes through the
//! [`Region`]s here; nothing else knows a raw row number. Within a field the
//! most significant bit comes first (top row), as in the spec; [`Region::bit`]
//! hides that order.

use crate::config::Config;

/// A contiguous run of rows holding one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Region {
    /// Dotted name, e.g. `"scratch.min"`.
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
}

impl Region {
    /// The row of bit `i` (0 = least significant) of the field.
    #[inline(always)]
    pub fn bit(&self, i: usize) -> usize {
        debug_assert!(i < self.len, "{}[{i}] out of range", self.name);
        self.start + self.len - 1 - i
    }

    pub fn rows(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len
    }

    pub fn contains(&self, row: usize) -> bool {
        self.rows().contains(&row)
    }
}

/// Every field of the state, top to bottom. Working registers that the
/// construction keeps in other fields' rows at column 0 are named by
/// [`Layout::carry`], [`Layout::flag`] and [`Layout::next_pc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layout {
    pub logn: usize,
    pub word: usize,
    pub d: usize,
    pub n: usize,
    /// Instruction fields a, b, c (instruction columns only).
    pub cmd_a: Region,
    pub cmd_b: Region,
    pub cmd_c: Region,
    /// The data word (memory columns).
    pub mem: Region,
    /// Subtrahend and minuend of the L4 subtractor; `min` then holds the result.
    pub sub: Region,
    pub min: Region,
    /// The decoded fields of the current instruction (column 0).
    pub dec_a: Region,
    pub dec_b: Region,
    pub dec_c: Region,
    pub pc: Region,
    /// Bipolar column index; column 0 is all zeros.
    pub pos: Region,
    /// Operands read by the L2 heads (half values until rescaled).
    pub buf_a: Region,
    pub buf_b: Region,
    pub buf_c: Region,
    /// The value FIND searches for.
    pub find_temp: Region,
    /// The column address of the indirect read/second write (LOAD, STORE, SWAP).
    pub load_temp: Region,
    /// Memory columns: bipolar of their own slot index.
    pub tag: Region,
    /// 1 in the scratchpad columns 0..s−1.
    pub indicator: Region,
}

/// Names of the top-level groups, with the fields each spans (for the UI's row ruler).
pub const GROUPS: [(&str, &[&str]); 8] = [
    ("cmds", &["cmds.a", "cmds.b", "cmds.c"]),
    ("memory", &["memory"]),
    ("scratch", &["scratch.sub", "scratch.min", "scratch.a", "scratch.b", "scratch.c"]),
    ("pc", &["pc"]),
    ("pos", &["pos"]),
    ("buffer", &["buffer.a", "buffer.b", "buffer.c", "buffer.find", "buffer.load"]),
    ("tag", &["tag"]),
    ("indicator", &["indicator"]),
];

impl Layout {
    pub fn new(cfg: &Config) -> Layout {
        let l = cfg.logn();
        let w = cfg.word_bits as usize;
        let mut next = 0;
        let mut take = |name: &'static str, len: usize| {
            let r = Region { name, start: next, len };
            next += len;
            r
        };
        let lay = Layout {
            logn: l,
            word: w,
            d: cfg.d(),
            n: cfg.n,
            cmd_a: take("cmds.a", l),
            cmd_b: take("cmds.b", l),
            cmd_c: take("cmds.c", l),
            mem: take("memory", w),
            sub: take("scratch.sub", w),
            min: take("scratch.min", w),
            dec_a: take("scratch.a", l),
            dec_b: take("scratch.b", l),
            dec_c: take("scratch.c", l),
            pc: take("pc", l),
            pos: take("pos", l),
            buf_a: take("buffer.a", w),
            buf_b: take("buffer.b", w),
            buf_c: take("buffer.c", w),
            find_temp: take("buffer.find", w),
            load_temp: take("buffer.load", l),
            tag: take("tag", w),
            indicator: take("indicator", 1),
        };
        assert_eq!(next, cfg.d(), "the layout must fill d = 9·logn + 8·N + 1 rows");
        lay
    }

    /// Every field, top to bottom.
    pub fn regions(&self) -> [Region; 18] {
        [
            self.cmd_a,
            self.cmd_b,
            self.cmd_c,
            self.mem,
            self.sub,
            self.min,
            self.dec_a,
            self.dec_b,
            self.dec_c,
            self.pc,
            self.pos,
            self.buf_a,
            self.buf_b,
            self.buf_c,
            self.find_temp,
            self.load_temp,
            self.tag,
            self.indicator,
        ]
    }

    /// The field holding `row`.
    pub fn region_of(&self, row: usize) -> Region {
        *self.regions().iter().find(|r| r.contains(row)).expect("row inside d")
    }

    /// A row's label, e.g. `"scratch.min[3]"` (bit 3) or `"indicator"`.
    pub fn label(&self, row: usize) -> String {
        let r = self.region_of(row);
        if r.len == 1 {
            r.name.to_string()
        } else {
            format!("{}[{}]", r.name, r.start + r.len - 1 - row)
        }
    }

    /// Rows that hold per-step working values: every one is zero between steps.
    pub fn working(&self) -> [Region; 10] {
        [
            self.sub,
            self.min,
            self.dec_a,
            self.dec_b,
            self.dec_c,
            self.buf_a,
            self.buf_b,
            self.buf_c,
            self.find_temp,
            self.load_temp,
        ]
    }

    /// The L4 borrow-in (0 or 1), kept in column 0's `buffer.a[0]` from L2 to L4.
    pub fn carry(&self) -> usize {
        self.buf_a.bit(0)
    }

    /// The branch flag (0 or 1), kept in column 0's `buffer.a[1]` from L6 to L7.
    pub fn flag(&self) -> usize {
        self.buf_a.bit(1)
    }

    /// PC + 1, kept in column 0's `buffer.load` from L6 to L7.
    pub fn next_pc(&self) -> Region {
        self.load_temp
    }

    /// Row of the most significant position bit (−1 in columns 1..n/2−1, 0 in column 0).
    pub fn pos_top(&self) -> usize {
        self.pos.bit(self.logn - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_layout_labels() {
        let lay = Layout::new(&Config::preset("compact").unwrap());
        assert_eq!(lay.d, 146);
        assert_eq!(lay.label(0), "cmds.a[8]");
        assert_eq!(lay.label(lay.min.bit(3)), "scratch.min[3]");
        assert_eq!(lay.label(145), "indicator");
        let covered: usize = GROUPS.iter().flat_map(|g| g.1.iter()).count();
        assert_eq!(covered, lay.regions().len());
    }
}
