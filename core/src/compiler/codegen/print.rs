//! Output: `putchar`, `puts` and `printf` lowered to writes of the console slot, one
//! character per `MOV console, c` (layout lists each such instruction in
//! `Program.outputs`, where the host reads the character after it executes). Numbers
//! are turned into digits here, by the program: the host only ever sees characters.

use super::debug::CallGen;
use super::{Gen, Item, Label, Mem, Opd};
use crate::compiler::ast::*;
use crate::compiler::format::{self, Conv, Piece, Size, Spec};
use crate::compiler::resolved::Ty;
use crate::ctypes::IntTy;
use crate::isa::Opcode;

impl Gen<'_> {
    /// A call of an output builtin (the checker accepted its arguments).
    pub(super) fn print(&mut self, b: Builtin, args: &[Expr]) {
        let m = self.mark();
        match (b, args) {
            (Builtin::Putchar, [c]) => {
                let v = self.value(c);
                self.put(v);
            }
            (Builtin::Puts, [s]) => {
                let s = self.arg(s, false);
                self.string(s, None);
                self.put_byte(b'\n');
            }
            (Builtin::Sprintf, [buf, f, rest @ ..]) | (Builtin::Snprintf, [buf, _, f, rest @ ..]) => {
                // The characters go to memory: `STORE c, p; INC p` while `room` (the characters
                // still allowed) is positive; then the '\0' when the size was not 0.
                let (p, room) = (self.temp(), self.temp());
                self.into(p, buf);
                match args {
                    [_, n, _, ..] if b == Builtin::Snprintf => {
                        self.into(room, n);
                        self.op1(Opcode::Dec, room);
                    }
                    _ => self.op2(Opcode::Mov, room, self.konst(i64::from(self.cfg.word_max()))),
                }
                let saved = self.out.replace((p, room));
                let call: Vec<Expr> = std::iter::once(f).chain(rest).cloned().collect();
                self.print(Builtin::Printf, &call);
                self.out = saved;
                let skip = self.label();
                self.jump(Opcode::Cmp, Some(room), skip);
                self.op2(Opcode::Store, self.konst(0), p);
                self.place(skip);
            }
            (Builtin::Printf, [f, rest @ ..]) if matches!(f.kind, ExprKind::Cond(..)) => {
                // A format chosen at run time: the condition picks the literal to print with.
                let ExprKind::Cond(c, a, b) = &f.kind else { unreachable!("invariant: matched above") };
                let (els, end) = (self.label(), self.label());
                self.cond(c, false, els);
                let with = |f: &Expr| std::iter::once(f).chain(rest).cloned().collect::<Vec<Expr>>();
                self.print(Builtin::Printf, &with(a));
                self.jump(Opcode::Jmp, None, end);
                self.place(els);
                self.print(Builtin::Printf, &with(b));
                self.place(end);
            }
            (Builtin::Printf, [f, rest @ ..]) => {
                let ExprKind::Str(fmt) = &f.kind else {
                    unreachable!("invariant: the checker requires a literal format")
                };
                let pieces = format::parse(fmt).expect("invariant: the checker parsed the format");
                // As in C, every argument is evaluated before anything is printed (a call
                // among them may print itself); a value a later argument may change is copied.
                let mut args = Vec::new();
                for (k, a) in rest.iter().enumerate() {
                    let later = rest[k + 1..].iter().any(has_effects);
                    args.push(self.arg(a, later));
                }
                let mut args = args.into_iter();
                for p in pieces {
                    match p {
                        Piece::Text(t) => t.iter().for_each(|&c| self.put_byte(c)),
                        Piece::Arg(spec) => {
                            let a = args.next().expect("invariant: the checker counted the arguments");
                            let inner = self.mark();
                            self.field(spec, a);
                            self.release(inner);
                        }
                    }
                }
            }
            _ => unreachable!("invariant: the checker gave the output builtins their arguments"),
        }
        self.release(m);
    }

    /// An argument, evaluated (into a temporary of its own when `copy`).
    fn arg<'e>(&mut self, a: &'e Expr, copy: bool) -> Arg<'e> {
        match &a.kind {
            ExprKind::Str(bytes) => Arg::Text(bytes),
            _ if copy => {
                let t = self.temp();
                self.into(t, a);
                Arg::Value(t)
            }
            _ => Arg::Value(self.value(a)),
        }
    }

    /// Prints the character in `v`: the one instruction that writes the console, or, for
    /// `sprintf`, a store at the buffer's next slot while there is room.
    fn put(&mut self, v: Mem) {
        let Some((p, room)) = self.out else {
            return self.op2(Opcode::Mov, Mem::Console, v);
        };
        let full = self.label();
        self.subleq(self.konst(0), room, full);
        self.op2(Opcode::Store, v, p);
        self.op1(Opcode::Inc, p);
        self.op1(Opcode::Dec, room);
        self.place(full);
    }

    fn put_byte(&mut self, c: u8) {
        let k = self.konst(i64::from(c));
        self.put(k);
    }

    /// Prints `fill` `count` times (none when `count` ≤ 0); `count` is used up.
    fn pad(&mut self, count: Mem, fill: u8) {
        let (top, done) = (self.label(), self.label());
        self.place(top);
        self.subleq(self.konst(0), count, done);
        self.put_byte(fill);
        self.op1(Opcode::Dec, count);
        self.jump(Opcode::Jmp, None, top);
        self.place(done);
    }

    /// A temporary holding `width − len`: what a field of `len` characters still lacks.
    fn shortfall(&mut self, width: usize, len: Mem) -> Mem {
        let t = self.temp();
        self.op2(Opcode::Mov, t, self.konst(width as i64));
        self.op2(Opcode::Sub, t, len);
        t
    }

    fn field(&mut self, spec: Spec, a: Arg) {
        match (spec.conv, a) {
            (Conv::Str, a) => self.string(a, Some(spec)),
            (_, Arg::Text(_)) => unreachable!("invariant: the checker allows a string literal for %s only"),
            (Conv::Char, Arg::Value(v)) => self.padded(spec, |g| g.put(v), |g| g.konst(1)),
            (Conv::Dec | Conv::Unsigned | Conv::Hex { .. }, Arg::Value(v)) => {
                // `%hhu`, `%hd`…: the argument (an `int` after promotion) converted first.
                let signed = spec.conv == Conv::Dec;
                let to = match spec.size {
                    Size::Word => None,
                    Size::Short => Some(if signed { IntTy::Short } else { IntTy::UShort }),
                    Size::Char => Some(if signed { IntTy::SChar } else { IntTy::UChar }),
                };
                let v = match to {
                    Some(to) if self.converts(&Ty::INT, &Ty::Int(to)) => {
                        let t = self.copy(v);
                        self.convert(t, &Ty::INT, &Ty::Int(to));
                        t
                    }
                    _ => v,
                };
                self.number(spec, v)
            }
        }
    }

    /// Spaces before (or after, with `-`) what `body` prints, whose length `len` gives.
    fn padded(&mut self, spec: Spec, body: impl FnOnce(&mut Self), len: impl FnOnce(&mut Self) -> Mem) {
        if spec.width <= 1 {
            return body(self);
        }
        let n = len(self);
        let short = self.shortfall(spec.width, n);
        if !spec.left {
            self.pad(short, b' ');
        }
        body(self);
        if spec.left {
            self.pad(short, b' ');
        }
    }

    /// A string: a literal is printed from the code; a pointer is walked to its `'\0'`.
    fn string(&mut self, s: Arg, spec: Option<Spec>) {
        let spec = spec.unwrap_or(Spec { conv: Conv::Str, width: 0, left: false, zero: false, size: Size::Word });
        let p = match s {
            Arg::Value(p) => p,
            Arg::Text(bytes) => {
                let fill = spec.width.saturating_sub(bytes.len());
                let spaces = |g: &mut Self| (0..fill).for_each(|_| g.put_byte(b' '));
                if !spec.left {
                    spaces(self);
                }
                bytes.iter().for_each(|&c| self.put_byte(c));
                if spec.left {
                    spaces(self);
                }
                return;
            }
        };
        let (walk, c) = (self.temp(), self.temp());
        let len = |g: &mut Self| {
            let n = g.temp();
            let (top, done) = (g.label(), g.label());
            g.op2(Opcode::Xor, n, n);
            g.op2(Opcode::Mov, walk, p);
            g.place(top);
            g.op2(Opcode::Load, c, walk);
            g.jump(Opcode::Jz, Some(c), done);
            g.op1(Opcode::Inc, n);
            g.op1(Opcode::Inc, walk);
            g.jump(Opcode::Jmp, None, top);
            g.place(done);
            n
        };
        let body = |g: &mut Self| {
            let (top, done) = (g.label(), g.label());
            g.op2(Opcode::Mov, walk, p);
            g.place(top);
            g.op2(Opcode::Load, c, walk);
            g.jump(Opcode::Jz, Some(c), done);
            g.put(c);
            g.op1(Opcode::Inc, walk);
            g.jump(Opcode::Jmp, None, top);
            g.place(done);
        };
        self.padded(spec, body, len);
    }

    /// `%d %u %x`: a call of the shared routine for the base (see [`Routines`]).
    fn number(&mut self, spec: Spec, v: Mem) {
        let base = if matches!(spec.conv, Conv::Hex { .. }) { 16 } else { 10 };
        // A number is at least one digit: only a wider field pads.
        let kind = Kind { base, padded: spec.width > 1, memory: self.out.is_some() };
        let fresh = ((self.label(), self.label()), self.label());
        let (entry, site) = self.printers.call(kind, fresh);
        let callee = self.debug_root(entry, kind.name(), CallGen::Library { site: Mem::Num(SITE) }, None);
        self.debug_site(callee, site.0, 0, None);
        self.op2(Opcode::Mov, Mem::Num(VALUE), v);
        if kind.padded {
            let mode = if spec.left {
                LEFT
            } else if spec.zero {
                ZEROS
            } else {
                RIGHT
            };
            self.op2(Opcode::Mov, Mem::Num(WIDTH), self.konst(spec.width as i64));
            self.op2(Opcode::Mov, Mem::Num(MODE), self.konst(mode));
        }
        let extra = match spec.conv {
            Conv::Dec => 1,
            Conv::Hex { upper: true } => i64::from(b'A') - i64::from(b'0') - 10,
            Conv::Hex { upper: false } => i64::from(b'a') - i64::from(b'0') - 10,
            _ => 0,
        };
        self.op2(Opcode::Mov, Mem::Num(EXTRA), self.konst(extra));
        self.op2(Opcode::Mov, Mem::Num(SITE), self.konst(site.0 as i64));
        if let Some((p, room)) = self.out {
            self.op2(Opcode::Mov, Mem::Num(PTR), p);
            self.op2(Opcode::Mov, Mem::Num(ROOM), room);
        }
        self.jump(Opcode::Jmp, None, entry);
        self.place(site.1);
        if let Some((p, room)) = self.out {
            self.op2(Opcode::Mov, p, Mem::Num(PTR));
            self.op2(Opcode::Mov, room, Mem::Num(ROOM));
        }
    }

    /// Generates the number routines the program calls (after every other body, so their
    /// slots are above all others: nothing is live in them across a call), each ending in
    /// a dispatch back to its call sites; then gives the parameters their slots.
    pub(super) fn print_routines(&mut self) {
        if self.printers.0.is_empty() {
            return;
        }
        let region = self.max_depth;
        self.release(region);
        // The buffer's pointer and room only when a routine writes memory (`sprintf`).
        let memory = self.printers.0.iter().any(|r| r.0.memory);
        let params = self.temps(if memory { PARAMS + 2 } else { PARAMS });
        for (kind, (entry, exit), sites) in std::mem::take(&mut self.printers.0) {
            self.loc = None;
            self.place(entry);
            let root = self.debug_root(entry, kind.name(), CallGen::Library { site: Mem::Num(SITE) }, None);
            self.debug_enter_root(root);
            self.debug_place_site(entry, Mem::Stack(params + SITE));
            let m = self.mark();
            self.out = kind.memory.then_some((Mem::Num(PTR), Mem::Num(ROOM)));
            self.digits(kind);
            self.out = None;
            self.release(m);
            self.place(exit);
            let site = Mem::Num(SITE);
            self.dispatch(site, &sites);
        }
        for it in &mut self.items {
            if let Item::Ins { a, b, c, .. } = it {
                for o in [a, b, c] {
                    if let Opd::M(Mem::Num(i)) = *o {
                        *o = Opd::M(Mem::Stack(params + i));
                    }
                }
            }
        }
    }

    /// The body of a number routine: the digits of the value by repeated subtraction of
    /// each power of the base (no division), leading zeros dropped, the field padded.
    fn digits(&mut self, Kind { base, padded, .. }: Kind) {
        let bits = self.cfg.word_bits;
        // Digits of the largest unsigned word: 255 → 3, 0xFF → 2.
        let places = if base == 16 { bits as usize / 4 } else { ((1u64 << bits) - 1).to_string().len() };
        let (u, extra, mode) = (Mem::Num(VALUE), Mem::Num(EXTRA), Mem::Num(MODE));
        let t = self.temp();
        let neg = (base == 10).then(|| {
            // Signed (`%d`) and negative: a minus, and the magnitude (|MIN| is MIN again,
            // which read as unsigned is the right magnitude).
            let neg = self.temp();
            let (minus, done) = (self.label(), self.label());
            self.op2(Opcode::Xor, neg, neg);
            self.jump(Opcode::Jz, Some(extra), done);
            self.jump(Opcode::Cmp, Some(u), minus);
            self.jump(Opcode::Jmp, None, done);
            self.place(minus);
            self.op1(Opcode::Inc, neg);
            self.negate(u);
            self.place(done);
            neg
        });
        let first = self.temps(places - 1);
        let digit = |k: usize| if k == 0 { u } else { Mem::Stack(first + k - 1) };
        for k in (1..places).rev() {
            // Digit k = how many times base^k fits in what is left, read as unsigned.
            let p = self.konst(base.pow(k as u32));
            let d = digit(k);
            let (top, take, done) = (self.label(), self.label(), self.label());
            self.op2(Opcode::Xor, d, d);
            self.place(top);
            self.jump(Opcode::Cmp, Some(u), take);
            self.op2(Opcode::Mov, t, u);
            self.op2(Opcode::Sub, t, p);
            self.jump(Opcode::Cmp, Some(t), done);
            self.place(take);
            self.op2(Opcode::Sub, u, p);
            self.op1(Opcode::Inc, d);
            self.jump(Opcode::Jmp, None, top);
            self.place(done);
        }
        // How many digits are printed: up to the highest nonzero one, at least one.
        let used = self.temp();
        self.op2(Opcode::Xor, used, used);
        for k in (1..places).rev() {
            let skip = self.label();
            self.jump(Opcode::Jz, Some(digit(k)), skip);
            self.jump(Opcode::Jnz, Some(used), skip);
            self.op2(Opcode::Mov, used, self.konst(k as i64 + 1));
            self.place(skip);
        }
        let some = self.label();
        self.jump(Opcode::Jnz, Some(used), some);
        self.op1(Opcode::Inc, used);
        self.place(some);
        let short = Mem::Num(WIDTH);
        if padded {
            self.op2(Opcode::Sub, short, used);
            if let Some(neg) = neg {
                self.op2(Opcode::Sub, short, neg);
            }
            self.padded_if(mode, RIGHT, short, b' ');
        }
        if let Some(neg) = neg {
            let plus = self.label();
            self.jump(Opcode::Jz, Some(neg), plus);
            self.put_byte(b'-');
            self.place(plus);
        }
        if padded {
            self.padded_if(mode, ZEROS, short, b'0');
        }
        for k in (0..places).rev() {
            let skip = self.label();
            if k > 0 {
                // Printed when more than k digits are used.
                self.op2(Opcode::Mov, t, used);
                self.subleq(self.konst(k as i64), t, skip);
            }
            let d = digit(k);
            if base == 16 {
                // Past 9: the letter (`extra` is its distance from '0' + 10).
                let low = self.label();
                self.op2(Opcode::Mov, t, d);
                self.op2(Opcode::Sub, t, self.konst(10));
                self.jump(Opcode::Cmp, Some(t), low);
                self.op2(Opcode::Add, d, extra);
                self.place(low);
            }
            self.op2(Opcode::Add, d, self.konst(i64::from(b'0')));
            self.put(d);
            self.place(skip);
        }
        if padded {
            self.padded_if(mode, LEFT, short, b' ');
        }
    }

    /// Pads with `fill` when the routine's mode is `want`.
    fn padded_if(&mut self, mode: Mem, want: i64, short: Mem, fill: u8) {
        let skip = self.label();
        let t = self.temp();
        self.op2(Opcode::Mov, t, mode);
        if want != 0 {
            self.op2(Opcode::Sub, t, self.konst(want));
        }
        self.jump(Opcode::Jnz, Some(t), skip);
        self.pad(short, fill);
        self.place(skip);
    }
}

/// A printed argument: a string literal (printed from the code) or a value's slot.
#[derive(Clone, Copy)]
enum Arg<'e> {
    Text(&'e [u8]),
    Value(Mem),
}

/// Whether evaluating `e` may change a variable or print.
fn has_effects(e: &Expr) -> bool {
    e.any(&mut |x| {
        matches!(x.kind, ExprKind::Call(..) | ExprKind::CallPtr(..) | ExprKind::Assign(..) | ExprKind::IncDec { .. })
    })
}

/// The parameters of a number routine, by `Mem::Num` index.
const VALUE: usize = 0;
const WIDTH: usize = 1;
const MODE: usize = 2;
/// Base 10: 1 for a signed conversion (`%d`); base 16: the letters' offset.
const EXTRA: usize = 3;
/// The call site's number (from 1), for the return dispatch.
const SITE: usize = 4;
const PARAMS: usize = 5;
/// With `sprintf`: the buffer's next slot and the characters it still takes.
const PTR: usize = 5;
const ROOM: usize = 6;

/// Field modes.
const RIGHT: i64 = 0;
const ZEROS: i64 = 1;
const LEFT: i64 = 2;

/// Which number routine: the base, and whether it pads a field (`%3d`) or not (`%d`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Kind {
    base: i64,
    padded: bool,
    /// Writes a buffer (`sprintf`) instead of the console.
    memory: bool,
}

impl Kind {
    /// The library frame's name in a debugger's call stack.
    fn name(self) -> &'static str {
        match (self.base, self.padded, self.memory) {
            (16, false, false) => "printf (hex)",
            (16, true, false) => "printf (hex, field)",
            (_, false, false) => "printf (decimal)",
            (_, true, false) => "printf (decimal, field)",
            (16, false, true) => "sprintf (hex)",
            (16, true, true) => "sprintf (hex, field)",
            (_, false, true) => "sprintf (decimal)",
            (_, true, true) => "sprintf (decimal, field)",
        }
    }
}

/// Number conversions are long (a loop per digit place, the padding): each [`Kind`] gets one
/// routine, compiled once after everything else and called by a jump; the machine has no
/// indirect jump, so it returns by a dispatch over its call sites' numbers. The routines
/// call nothing and nothing calls them recursively, so their parameters and temporaries
/// can live in slots of their own.
#[derive(Default)]
pub struct Routines(Vec<(Kind, (Label, Label), Vec<Label>)>);

impl Routines {
    /// Registers a call of the routine of `kind` returning to `site`; `labels` are the
    /// routine's entry and exit if it is new. Returns the entry and the site's number.
    fn call(&mut self, kind: Kind, (labels, site): ((Label, Label), Label)) -> (Label, (usize, Label)) {
        let k = match self.0.iter().position(|r| r.0 == kind) {
            Some(k) => k,
            None => {
                self.0.push((kind, labels, Vec::new()));
                self.0.len() - 1
            }
        };
        let r = &mut self.0[k];
        r.2.push(site);
        (r.1 .0, (r.2.len(), site))
    }
}
