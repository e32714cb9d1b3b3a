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

/// How wide a field is, and how its bits read as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Width {
    /// `logn` bits: a column address, unsigned.
    Addr,
    /// `N` bits: a data word, two's complement.
    Word,
    /// One row.
    One,
}

/// One declared field: what the UI, the exporter and the explanations say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// Dotted name, the UI's label: the part before the dot is the group.
    pub name: &'static str,
    pub width: Width,
    /// Working rows: column 0 uses them during a step; all are zero between steps.
    pub working: bool,
    /// Shown among the registers (column 0's decoded fields).
    pub register: bool,
    /// What the field holds, in a phrase.
    pub doc: &'static str,
}

/// Declares the fields once, top to bottom: the [`Layout`] struct, its
/// constructor, [`FIELDS`] and [`Layout::regions`] are all generated from
/// this list, so adding a row group is one line.
macro_rules! layout_fields {
    ($( $field:ident: $name:literal, $width:ident, working: $working:literal, register: $register:literal, $doc:literal; )*) => {
        /// Every field of the state, top to bottom. Working registers that the
        /// construction keeps in other fields' rows at column 0 are named by
        /// [`Layout::carry`], [`Layout::borrow`], [`Layout::flag`] and [`Layout::next_pc`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
        pub struct Layout {
            pub logn: usize,
            pub word: usize,
            pub d: usize,
            pub n: usize,
            $( #[doc = $doc] pub $field: Region, )*
        }

        /// The declared fields, top to bottom (the order of [`Layout::regions`]).
        pub const FIELDS: [Field; [$( $name ),*].len()] = [
            $( Field { name: $name, width: Width::$width, working: $working, register: $register, doc: $doc }, )*
        ];

        impl Layout {
            pub fn new(cfg: &Config) -> Layout {
                let (logn, word) = (cfg.logn(), cfg.word_bits as usize);
                let mut next = 0;
                let mut take = |name: &'static str, width: Width| {
                    let len = match width {
                        Width::Addr => logn,
                        Width::Word => word,
                        Width::One => 1,
                    };
                    let r = Region { name, start: next, len };
                    next += len;
                    r
                };
                let lay = Layout { logn, word, d: cfg.d(), n: cfg.n, $( $field: take($name, Width::$width), )* };
                assert_eq!(next, cfg.d(), "the layout must fill d = 9·logn + 8·N + 1 rows");
                lay
            }

            /// Every field, top to bottom.
            pub fn regions(&self) -> [Region; FIELDS.len()] {
                [$( self.$field, )*]
            }
        }
    };
}

layout_fields! {
    cmd_a: "cmds.a", Addr, working: false, register: false, "Instruction field a (instruction columns only).";
    cmd_b: "cmds.b", Addr, working: false, register: false, "Instruction field b (instruction columns only).";
    cmd_c: "cmds.c", Addr, working: false, register: false, "Instruction field c (instruction columns only).";
    mem: "memory", Word, working: false, register: false, "The data word (memory columns).";
    sub: "scratch.sub", Word, working: true, register: true, "Subtrahend of the L4 subtractor.";
    min: "scratch.min", Word, working: true, register: true, "Minuend of the L4 subtractor; then the result.";
    dec_a: "scratch.a", Addr, working: true, register: true, "Decoded field a of the current instruction.";
    dec_b: "scratch.b", Addr, working: true, register: true, "Decoded field b of the current instruction.";
    dec_c: "scratch.c", Addr, working: true, register: true, "Decoded field c of the current instruction.";
    pc: "pc", Addr, working: false, register: true, "The program counter (column 0).";
    pos: "pos", Addr, working: false, register: false, "Bipolar column index; column 0 is all zeros.";
    buf_a: "buffer.a", Word, working: true, register: true, "Operand a read by an L2 head (half values until rescaled).";
    buf_b: "buffer.b", Word, working: true, register: true, "Operand b read by an L2 head (half values until rescaled).";
    buf_c: "buffer.c", Word, working: true, register: true, "Operand c read by an L2 head (half values until rescaled).";
    find_temp: "buffer.find", Word, working: true, register: true, "The value FIND searches for.";
    load_temp: "buffer.load", Addr, working: true, register: true,
        "The column address of the indirect read or second write (LOAD, STORE, SWAP).";
    tag: "tag", Word, working: false, register: false, "Memory columns: bipolar of their own slot index.";
    indicator: "indicator", One, working: false, register: false, "1 in the scratchpad columns 0..s−1.";
}

/// A top-level group of fields (the part of their names before the dot), for the UI's row ruler.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Group {
    pub name: &'static str,
    pub rows: std::ops::Range<usize>,
}

impl Layout {
    /// The groups, top to bottom, each the rows of its consecutive fields.
    pub fn groups(&self) -> Vec<Group> {
        let mut out: Vec<Group> = Vec::new();
        for r in self.regions() {
            let name = r.name.split('.').next().unwrap_or(r.name);
            match out.last_mut() {
                Some(g) if g.name == name => g.rows.end = r.start + r.len,
                _ => out.push(Group { name, rows: r.rows() }),
            }
        }
        out
    }

    /// The declared field of a region of this layout.
    pub fn field(&self, region: Region) -> &'static Field {
        FIELDS.iter().find(|f| f.name == region.name).expect("invariant: every region is declared in FIELDS")
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
    pub fn working(&self) -> impl Iterator<Item = Region> + '_ {
        self.regions().into_iter().filter(|r| self.field(*r).working)
    }

    /// Column 0's fields shown as registers, each with how its bits read.
    pub fn registers(&self) -> impl Iterator<Item = (Region, Width)> + '_ {
        self.regions().into_iter().map(|r| (r, self.field(r))).filter(|(_, f)| f.register).map(|(r, f)| (r, f.width))
    }

    /// The L4 borrow-in (0 or 1), kept in column 0's `buffer.a[0]` from L2 to L4.
    pub fn carry(&self) -> usize {
        self.buf_a.bit(0)
    }

    /// The borrow out of the subtractor's low limb (0 or 1), kept in column 0's
    /// `buffer.a[2]` from L3 to L4; only words of more than one limb (N = 32) use it.
    pub fn borrow(&self) -> usize {
        self.buf_a.bit(2)
    }

    /// Two-limb DIVSUB's comparison flags (0 or 1), `[gt, ge, lo]` = [high limb of
    /// u(M[b]) − u(M[c]) ≥ 1], [… ≥ 0], [low limb's ≥ 0], kept in column 0's
    /// `buffer.a[3..6]` from L2 to L3; only words of more than one limb (N = 32) use them.
    pub fn divsub_flags(&self) -> [usize; 3] {
        [self.buf_a.bit(3), self.buf_a.bit(4), self.buf_a.bit(5)]
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
        let groups: Vec<_> = lay.groups().iter().map(|g| g.name).collect();
        assert_eq!(groups, ["cmds", "memory", "scratch", "pc", "pos", "buffer", "tag", "indicator"]);
        assert_eq!(lay.groups()[2].rows, lay.sub.start..lay.dec_c.start + lay.dec_c.len);
        assert_eq!(lay.working().count(), 10);
        let regs: Vec<_> = lay.registers().map(|(r, _)| r.name).collect();
        assert_eq!(regs[..2], ["scratch.sub", "scratch.min"]);
    }
}
