//! Prints a [`Program`] as C, in two dialects with the same lines:
//!
//! - **ours**: the text our compiler gets, with only the parentheses C's
//!   precedence needs (plus the generated `Paren`s), literals spelled in
//!   decimal, hex, octal or as characters;
//! - **gcc**: fully parenthesised, every variable an `int8_t`/`int16_t`
//!   (`word`), every operation whose result can leave N bits wrapped by
//!   `W(…)`, division and `assert` through helpers that report our machine's
//!   faults with `__LINE__`. `gcc::prelude` defines the helpers; a `#line 1`
//!   before the program makes `__LINE__` count our text's lines.
//!
//! On 32-bit words both texts have C's integer types (gcc's with ILP32's `long`
//! spelled `int`): nothing is wrapped by `W` (`-fwrapv` wraps `int`, and a cast
//! to `int` would change an `unsigned` operation's type), and division goes
//! through typed macros that also define `INT_MIN / -1` (x86 traps on it).

use super::program::*;

#[derive(Clone, Copy)]
pub enum Dialect<'a> {
    Ours,
    /// gcc's text; every identifier gets `prefix` (several programs share one file).
    Gcc {
        prefix: &'a str,
    },
}

pub fn render(p: &Program, d: Dialect) -> String {
    let mut w = Writer { d, bits: p.bits, out: String::new(), indent: 0, lines: 0, constant: false };
    for header in headers(p) {
        w.line(&format!("#include <{header}>"));
    }
    for (name, v, lit) in &p.defines {
        let value = match (w.gcc(), lit) {
            (true, Lit::Suffix(_)) => format!("({})", w.literal(*v, *lit)),
            (true, _) => format!("({})", w.num(*v)),
            (false, _) => w.literal(*v, *lit),
        };
        let t = format!("#define {} {value}", w.name(name));
        w.line(&t);
    }
    for (name, op) in &p.macros {
        w.macro_def(name, *op);
    }
    for e in &p.enums {
        w.enum_decl(e);
    }
    for (name, t) in &p.typedefs {
        let t = format!("typedef {} {};", w.ty(*t, None), w.name(name));
        w.line(&t);
    }
    for d in &p.structs {
        w.struct_def(d);
    }
    for g in &p.globals {
        w.global(g);
    }
    for g in &p.struct_globals {
        w.struct_global(g, p.struct_def(&g.tag).map_or("struct", StructDef::keyword));
    }
    if p.prototypes {
        for f in p.funcs.iter().filter(|f| f.name != "main") {
            let head = w.signature(f);
            w.line(&format!("{head};"));
        }
    }
    for f in &p.funcs {
        if f.name == "main" {
            p.fn_pointers.iter().for_each(|fp| w.fn_pointer(fp));
        }
        w.func(f);
    }
    w.out
}

/// The headers a program's library calls and input need, in a fixed order.
fn headers(p: &Program) -> Vec<&'static str> {
    let lib = |f: fn(&Lib) -> bool| p.any_expr(&mut |e| matches!(e, Expr::Lib(l) if f(l)));
    let ctype = lib(|l| matches!(l, Lib::Ctype(..)));
    let string = lib(|l| matches!(l, Lib::Strlen(_) | Lib::Strcmp(..)));
    let stdlib = lib(|l| matches!(l, Lib::Atoi(_)));
    let input = p.any_stmt(&mut |s| matches!(s, Stmt::Scan(_) | Stmt::GetChar(_)));
    [(input, "stdio.h"), (ctype, "ctype.h"), (string, "string.h"), (stdlib, "stdlib.h")]
        .into_iter()
        .filter_map(|(used, h)| used.then_some(h))
        .collect()
}

struct Writer<'a> {
    d: Dialect<'a>,
    bits: u32,
    out: String,
    indent: usize,
    /// Lines so far: the same in both dialects, so choices made from it agree.
    lines: usize,
    /// Printing a constant expression (a global's initializer).
    constant: bool,
}

impl Writer<'_> {
    fn gcc(&self) -> bool {
        matches!(self.d, Dialect::Gcc { .. })
    }

    fn name(&self, n: &str) -> String {
        match self.d {
            Dialect::Ours => n.to_string(),
            Dialect::Gcc { prefix } => format!("{prefix}{n}"),
        }
    }

    fn int(&self) -> &'static str {
        if self.gcc() {
            "word"
        } else {
            "int"
        }
    }

    /// A declaration's type: `int` (gcc's `word`), or a C integer type on 32 bits;
    /// spelled by its `typedef` name where it has one.
    fn ty(&self, t: CTy, alias: Option<&String>) -> String {
        match (t, self.gcc(), alias) {
            (_, _, Some(a)) => self.name(a),
            (CTy::Int, _, _) => self.int().to_string(),
            (t, true, _) => t.gcc().to_string(),
            (t, false, _) => t.ours(self.lines).to_string(),
        }
    }

    /// `enum { A = 1, B, C = -3 };` (gcc's text spells every value).
    fn enum_decl(&mut self, e: &[Enumerator]) {
        let items: Vec<String> = e
            .iter()
            .map(|x| match (x.explicit || self.gcc(), self.gcc()) {
                (true, true) => format!("{} = {}", self.name(&x.name), self.num(x.value)),
                (true, false) => format!("{} = {}", x.name, self.num(x.value)),
                (false, _) => x.name.clone(),
            })
            .collect();
        let t = format!("enum {{ {} }};", items.join(", "));
        self.line(&t);
    }

    /// `#define M(a, b) ((a) op (b))`; gcc's body wraps like the operator's (`W`).
    fn macro_def(&mut self, name: &str, op: BinOp) {
        let body = format!("(a) {} (b)", op.symbol());
        let body = if self.gcc() && op.wraps() && !self.wide() { format!("W({body})") } else { format!("({body})") };
        let t = format!("#define {}(a, b) {body}", self.name(name));
        self.line(&t);
    }

    /// `struct S { int m1; unsigned char m2; };` (the tag is an identifier of the program's).
    fn struct_def(&mut self, d: &StructDef) {
        let fields: Vec<String> = d.fields.iter().map(|(m, t)| format!("{} {m};", self.ty(*t, None))).collect();
        let t = format!("{} {} {{ {} }};", d.keyword(), self.name(&d.tag), fields.join(" "));
        self.line(&t);
    }

    /// `struct S g = {1, 2};` or `struct S a[3] = {{1, 2}, {3}};`.
    fn struct_global(&mut self, g: &StructGlobal, keyword: &str) {
        let mut s = format!("{keyword} {} {}", self.name(&g.tag), self.name(&g.name));
        if let Some(n) = g.len {
            s += &format!("[{n}]");
        }
        self.constant = true;
        let lists: Vec<String> = g.init.iter().map(|l| format!("{{{}}}", self.list(l))).collect();
        self.constant = false;
        match (g.len, lists.as_slice()) {
            (_, []) => {}
            (None, [one]) => s += &format!(" = {one}"),
            _ => s += &format!(" = {{{}}}", lists.join(", ")),
        }
        s.push(';');
        self.line(&s);
    }

    /// `int (*t[2])(int, int) = {f, g};` (gcc's with `word`s, like the functions' signatures).
    fn fn_pointer(&mut self, fp: &FnPointer) {
        let ret = match (fp.returns_int, self.gcc()) {
            (false, _) => "void",
            (true, _) => self.int(),
        };
        let params = vec![self.int(); fp.arity].join(", ");
        let params = if params.is_empty() && self.gcc() { "void".to_string() } else { params };
        let amp = if fp.ampersand { "&" } else { "" };
        let targets: Vec<String> = fp.targets.iter().map(|f| format!("{amp}{}", self.name(f))).collect();
        let (len, init) = match fp.len {
            Some(n) => (format!("[{n}]"), format!("{{{}}}", targets.join(", "))),
            None => (String::new(), targets.join(", ")),
        };
        let stat = if self.gcc() { "static " } else { "" };
        let t = format!("{stat}{ret} (*{}{len})({params}) = {init};", self.name(&fp.name));
        self.line(&t);
    }

    /// What a call names: a function, an element of a table of pointers (`t[1]`),
    /// or a pointer called through `*` (`(*p)`).
    fn callee(&self, f: &str) -> String {
        match f.strip_prefix("(*").and_then(|f| f.strip_suffix(')')) {
            Some(p) => format!("(*{})", self.name(p)),
            None => self.name(f),
        }
    }

    /// `n[i]`, or `a[i].m` for the member `a[].m` of an array of structures.
    fn element(&self, n: &str, i: &str) -> String {
        let n = self.name(n);
        match n.split_once("[]") {
            Some((array, member)) => format!("{array}[{i}]{member}"),
            None => format!("{n}[{i}]"),
        }
    }

    /// A structure as the left or right side of a copy: `g` or `a[k]`.
    fn struct_ref(&self, (n, k): &(String, Option<usize>)) -> String {
        match k {
            Some(k) => format!("{}[{k}]", self.name(n)),
            None => self.name(n),
        }
    }

    fn lib(&self, l: &Lib) -> String {
        let x = |e: &Expr| if self.gcc() { self.gcc_expr(e) } else { self.expr(e) };
        match l {
            Lib::Ctype(f, a) if Lib::predicate(f) => format!("({f}(({}) & 127) != 0)", x(a)),
            Lib::Ctype(f, a) => format!("{f}(({}) & 127)", x(a)),
            Lib::Strlen(s) => format!("((int)strlen({}))", self.name(s)),
            Lib::Atoi(s) => format!("atoi({})", self.name(s)),
            Lib::Strcmp(s, t, op) => format!("(strcmp({}, {}) {} 0)", self.name(s), self.name(t), op.symbol()),
        }
    }

    /// On 32-bit words, operations keep C's types (see the module's comment).
    fn wide(&self) -> bool {
        self.bits == 32
    }

    fn line(&mut self, text: &str) {
        self.lines += 1;
        self.out.push_str(&"    ".repeat(self.indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A string as a list of its words (ending with 0 when it fits in `len`). The generator's
    /// `char` variables are machine words, which C's 8-bit `char` is not on 16-bit words (and
    /// `char *` is no `int *`), so both sides spell them as words until the generator has C's
    /// integer types.
    fn string(&self, text: &str, len: Option<usize>) -> String {
        let codes: Vec<String> = text.bytes().map(|b| b.to_string()).chain(["0".to_string()]).collect();
        let codes = &codes[..len.unwrap_or(codes.len()).min(codes.len())];
        format!("{{{}}}", codes.join(", "))
    }

    fn global(&mut self, g: &Global) {
        let mut s = format!("{} {}", self.ty(g.ty, g.alias.as_ref()), self.name(&g.name));
        match (&g.len_macro, g.len) {
            (Some(m), _) => s += &format!("[{}]", self.name(m)),
            (None, Some(n)) => s += &format!("[{n}]"),
            (None, None) => {}
        }
        // gcc's initializers must be constant: no helper calls (divisors are never zero here).
        self.constant = true;
        match (g.len, g.init.as_slice(), &g.string) {
            (len, _, Some(text)) => s += &format!(" = {}", self.string(text, len)),
            (_, [], None) => {}
            (None, [e], None) => s += &format!(" = {}", self.expr(e)),
            _ => s += &format!(" = {{{}}}", self.list(&g.init)),
        }
        self.constant = false;
        s.push(';');
        self.line(&s);
    }

    fn signature(&self, f: &Func) -> String {
        let ret = match (f.returns_int, self.gcc()) {
            (false, _) => "void",
            (true, false) => "int",
            (true, true) => "word",
        };
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| match p.kind {
                Kind::Int => format!("{} {}", self.int(), self.name(&p.name)),
                Kind::Pointer => format!("{} *{}", self.int(), self.name(&p.name)),
                Kind::Array(_) => format!("{} {}[]", self.int(), self.name(&p.name)),
            })
            .collect();
        let params = if params.is_empty() && self.gcc() { "void".to_string() } else { params.join(", ") };
        format!("{}{ret} {}({params})", if self.gcc() { "static " } else { "" }, self.name(&f.name))
    }

    fn func(&mut self, f: &Func) {
        let head = format!("{} {{", self.signature(f));
        self.line(&head);
        self.body(&f.body);
        self.line("}");
    }

    fn body(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        stmts.iter().for_each(|s| self.stmt(s));
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl(locals) => {
                let each: Vec<String> = locals
                    .iter()
                    .map(|l| match (l.len, &l.string) {
                        (Some(n), Some(text)) => {
                            format!("{}[{n}] = {}", self.name(&l.name), self.string(text, Some(n)))
                        }
                        (Some(n), None) => format!("{}[{n}] = {{{}}}", self.name(&l.name), self.list(&l.init)),
                        (None, _) => format!("{} = {}", self.name(&l.name), self.expr(&l.init[0])),
                    })
                    .collect();
                // One declaration has one type: the first declarator's.
                let t = format!("{} {};", self.ty(locals[0].ty, locals[0].alias.as_ref()), each.join(", "));
                self.line(&t);
            }
            Stmt::Static(l) => {
                // A constant initializer, as a global's.
                self.constant = true;
                let init = l.init.first().map(|e| format!(" = {}", self.expr(e))).unwrap_or_default();
                self.constant = false;
                let t = format!("static {} {}{init};", self.ty(l.ty, l.alias.as_ref()), self.name(&l.name));
                self.line(&t);
            }
            Stmt::Goto { cond, skipped, label } => {
                let l = self.name(label);
                let t = format!("if ({}) goto {l};", self.expr(cond));
                self.line(&t);
                self.line("{");
                self.body(skipped);
                self.line("}");
                self.line(&format!("{l}:;"));
            }
            Stmt::Expr(e) => {
                let t = format!("{};", self.expr(e));
                self.line(&t);
            }
            Stmt::If(c, a, b) => {
                let head = format!("if ({})", self.expr(c));
                self.clause(&head, a);
                if let Some(b) = b {
                    self.clause("else", b);
                }
            }
            Stmt::For { var, from, cmp, to, step, guard, body } => {
                let v = self.name(var);
                let step = match step {
                    1 => format!("{v}++"),
                    -1 => format!("--{v}"),
                    k if *k > 0 => format!("{v} += {k}"),
                    k => format!("{v} -= {}", -k),
                };
                let test = format!("{v} {} {}", cmp.symbol(), self.expr_at(to, cmp.prec() + 1));
                let init = format!("{} {v} = {}", self.int(), self.expr(from));
                match guard {
                    None => self.clause(&format!("for ({init}; {test}; {step})"), body),
                    Some(g) => {
                        let k = self.name(&g.var);
                        self.line(&format!("{} {k} = 0;", self.int()));
                        let test = format!(
                            "{k} < {} && {}",
                            g.bound,
                            self.paren_if_ours(&test, cmp.prec() > BinOp::LogAnd.prec())
                        );
                        self.line(&format!("for ({init}; {test}; {step}) {{"));
                        self.line(&format!("    {k}++;"));
                        self.body(body);
                        self.line("}");
                    }
                }
            }
            Stmt::While { guard, cond, body, do_while } => {
                let g = self.name(&guard.var);
                let t = format!("{} {g} = 0;", self.int());
                self.line(&t);
                let test = format!("{g} < {} && {}", guard.bound, self.expr_at(cond, BinOp::LogAnd.prec() + 1));
                let bump = format!("    {g}++;");
                if *do_while {
                    self.line("do {");
                    self.line(&bump);
                    self.body(body);
                    self.line(&format!("}} while ({test});"));
                } else {
                    self.line(&format!("while ({test}) {{"));
                    self.line(&bump);
                    self.body(body);
                    self.line("}");
                }
            }
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Return(None) => self.line("return;"),
            Stmt::Return(Some(e)) => {
                let t = format!("return {};", self.expr(e));
                self.line(&t);
            }
            Stmt::Block(b) => {
                self.line("{");
                self.body(b);
                self.line("}");
            }
            Stmt::Assert(e) => {
                let t = if self.gcc() {
                    format!("assert_({}, __LINE__);", self.expr(e))
                } else {
                    format!("assert({});", self.expr(e))
                };
                self.line(&t);
            }
            Stmt::Frame => self.line(if self.gcc() { "(void)0;" } else { "frame();" }),
            Stmt::Putchar(e) => {
                let t = format!("putchar({});", self.expr(e));
                self.line(&t);
            }
            Stmt::Scan(x) => {
                let x = self.name(x);
                // gcc's `word` may be narrower than the `int` `%d` stores.
                let t = if self.gcc() { format!("scan_(&{x});") } else { format!("scanf(\"%d\", &{x});") };
                self.line(&t);
            }
            Stmt::GetChar(x) => {
                let t = format!("{} = getchar();", self.name(x));
                self.line(&t);
            }
            Stmt::StructCopy { dst, src } => {
                let t = format!("{} = {};", self.struct_ref(dst), self.struct_ref(src));
                self.line(&t);
            }
            Stmt::Printf(convs, args) => {
                // Text around each conversion: a marker, the conversion, a separator; escapes too.
                let mut fmt = String::new();
                for (k, c) in convs.iter().enumerate() {
                    let width = if c.width > 0 { c.width.to_string() } else { String::new() };
                    fmt += &format!("<{k}%{}{width}{}>", c.flag, c.letter);
                }
                fmt += "\\n";
                let args: Vec<String> = convs.iter().zip(args).map(|(c, a)| self.print_arg(c.letter, a)).collect();
                let t = format!("printf(\"{fmt}\", {});", args.join(", "));
                self.line(&t);
            }
            Stmt::Switch(c, arms) => {
                let t = format!("switch ({}) {{", self.expr(c));
                self.line(&t);
                for arm in arms {
                    let label = match &arm.label {
                        Some(l) => format!("case {}: {{", self.expr(l)),
                        None => "default: {".to_string(),
                    };
                    self.line(&label);
                    self.body(&arm.body);
                    self.line("}");
                }
                self.line("}");
            }
        }
    }

    /// `head { body }`, or `head` and its one simple statement on the next line
    /// (on every other line, so both forms occur; never around an `if`, whose
    /// `else` could then attach to the wrong one).
    fn clause(&mut self, head: &str, body: &[Stmt]) {
        let simple = matches!(
            body,
            [Stmt::Expr(_) | Stmt::Break | Stmt::Continue | Stmt::Return(_) | Stmt::Assert(_) | Stmt::Frame]
        );
        if simple && self.lines % 2 == 1 {
            self.line(head);
            self.body(body);
        } else {
            self.line(&format!("{head} {{"));
            self.body(body);
            self.line("}");
        }
    }

    /// `text` in parentheses unless C's precedence makes them unneeded (ours) —
    /// gcc's text always has them.
    fn paren_if_ours(&self, text: &str, unneeded: bool) -> String {
        if unneeded && !self.gcc() {
            text.to_string()
        } else {
            format!("({text})")
        }
    }

    fn list(&self, es: &[Expr]) -> String {
        es.iter().map(|e| self.expr(e)).collect::<Vec<_>>().join(", ")
    }

    fn expr(&self, e: &Expr) -> String {
        self.expr_at(e, 2)
    }

    /// `e` in a position that needs at least precedence `min` (ours) or any expression (gcc's).
    fn expr_at(&self, e: &Expr, min: u8) -> String {
        if self.gcc() {
            return self.gcc_expr(e);
        }
        let text = self.ours_expr(e);
        if ours_prec(e) < min {
            format!("({text})")
        } else {
            text
        }
    }

    fn ours_expr(&self, e: &Expr) -> String {
        match e {
            Expr::Num(v, lit) => self.literal(*v, *lit),
            Expr::Macro(n, _) | Expr::Var(n) => n.clone(),
            Expr::Deref(n) => format!("*{n}"),
            Expr::AddrOf(n) => format!("&{n}"),
            Expr::Offset(n, k) => format!("{n} + {k}"),
            Expr::Index(n, i) => self.element(n, &self.expr(i)),
            Expr::Call(f, args) => format!("{f}({})", self.list(args)),
            Expr::MacroCall(m, _, a, b) => format!("{m}({}, {})", self.expr(a), self.expr(b)),
            Expr::Lib(l) => self.lib(l),
            Expr::Builtin(b, args) => format!("{}({})", b.name(), self.list(args)),
            Expr::Unary(op, x) => {
                let inner = self.expr_at(x, 14);
                // `- -x` must not become `--x`, nor `+ +x` become `++x`.
                if matches!(op, UnOp::Neg | UnOp::Plus) && inner.starts_with(op.symbol()) {
                    format!("{}({inner})", op.symbol())
                } else {
                    format!("{}{inner}", op.symbol())
                }
            }
            Expr::Binary(op, a, b) => {
                format!("{} {} {}", self.expr_at(a, op.prec()), op.symbol(), self.expr_at(b, op.prec() + 1))
            }
            Expr::Assign(op, lv, rhs) => {
                let sym = op.map_or("=".to_string(), |o| format!("{}=", o.symbol()));
                format!("{} {sym} {}", self.expr_at(lv, 14), self.expr_at(rhs, 2))
            }
            Expr::IncDec { inc, post, target } => {
                let sym = if *inc { "++" } else { "--" };
                let t = self.expr_at(target, 15);
                if *post {
                    format!("{t}{sym}")
                } else {
                    format!("{sym}{t}")
                }
            }
            Expr::Cond(c, a, b) => {
                format!("{} ? {} : {}", self.expr_at(c, 4), self.expr_at(a, 2), self.expr_at(b, 3))
            }
            Expr::Paren(x) => format!("({})", self.expr(x)),
            Expr::Cast(t, x) => format!("({}){}", t.ours(self.lines), self.expr_at(x, 14)),
            Expr::Comma(a, b) => format!("{}, {}", self.expr_at(a, 1), self.expr_at(b, 2)),
        }
    }

    fn literal(&self, v: i64, lit: Lit) -> String {
        let pattern = v & ((1i64 << self.bits) - 1);
        match lit {
            Lit::Dec => self.num(v),
            Lit::Suffix(sfx) if sfx.contains(['u', 'U']) => format!("{pattern}{}", self.suffix(sfx)),
            Lit::Suffix(sfx) if v == -(1 << 31) => format!("(-2147483647{0} - 1{0})", self.suffix(sfx)),
            Lit::Suffix(sfx) => format!("{v}{}", self.suffix(sfx)),
            // A pattern with the sign bit set is an `unsigned` constant in C: cast to the word,
            // it is the negative value the generator means.
            Lit::Hex if v < 0 => format!("(({})0x{pattern:X})", self.int()),
            Lit::Oct if v < 0 => format!("(({})0{pattern:o})", self.int()),
            Lit::Hex => format!("0x{pattern:X}"),
            Lit::Oct => format!("0{pattern:o}"),
            Lit::Char => match v {
                0 => "'\\0'".into(),
                9 => "'\\t'".into(),
                10 => "'\\n'".into(),
                39 => "'\\''".into(),
                92 => "'\\\\'".into(),
                32..=126 => format!("'{}'", v as u8 as char),
                _ => format!("'\\x{pattern:x}'"),
            },
        }
    }

    /// A suffix as the dialect spells it: gcc's (LP64) `long` is wider than ours, and it
    /// holds no value ours cannot, so gcc's text drops the `l` (`ul` stays unsigned).
    fn suffix(&self, sfx: &str) -> String {
        if self.gcc() {
            sfx.replace(['l', 'L'], "")
        } else {
            sfx.to_string()
        }
    }

    /// A decimal value; `INT_MIN` on 32 bits as `(-2147483647 - 1)`, since `2147483648`
    /// is no `int` (and a `long` of 64 bits in gcc's text).
    fn num(&self, v: i64) -> String {
        if self.bits == 32 && v == -(1 << 31) {
            "(-2147483647 - 1)".to_string()
        } else if v < 0 && self.gcc() {
            format!("({v})")
        } else {
            v.to_string()
        }
    }

    /// A `printf` argument: gcc's `%u`/`%x` read the N-bit word as unsigned (ours always do).
    fn print_arg(&self, letter: char, e: &Expr) -> String {
        let v = self.expr(e);
        if self.gcc() && self.wide() && matches!(letter, 'u' | 'x' | 'X') {
            format!("(unsigned)({v})")
        } else if self.gcc() && matches!(letter, 'u' | 'x' | 'X') {
            format!("(unsigned)(({v}) & {})", (1u64 << self.bits) - 1)
        } else {
            v
        }
    }

    fn gcc_expr(&self, e: &Expr) -> String {
        let x = |e: &Expr| self.gcc_expr(e);
        match e {
            Expr::Num(v, Lit::Suffix(sfx)) => format!("({})", self.literal(*v, Lit::Suffix(sfx))),
            Expr::Num(v, _) => self.num(*v),
            Expr::Cast(t, a) => format!("(({}){})", t.gcc(), x(a)),
            Expr::Comma(a, b) => format!("({}, {})", x(a), x(b)),
            Expr::Macro(n, _) | Expr::Var(n) => self.name(n),
            Expr::Deref(n) => format!("(*{})", self.name(n)),
            Expr::AddrOf(n) => format!("(&{})", self.name(n)),
            Expr::Offset(n, k) => format!("({} + {k})", self.name(n)),
            Expr::Index(n, i) => self.element(n, &x(i)),
            Expr::MacroCall(m, _, a, b) => format!("{}({}, {})", self.name(m), x(a), x(b)),
            Expr::Lib(l) => self.lib(l),
            Expr::Call(f, args) => format!("{}({})", self.callee(f), self.list(args)),
            Expr::Builtin(b, args) => format!("{}_({})", b.name(), self.list(args)),
            Expr::Unary(UnOp::Neg, a) if !self.wide() => format!("W(-{})", x(a)),
            Expr::Unary(op, a) => format!("({}{})", op.symbol(), x(a)),
            Expr::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) if self.constant && self.wide() => {
                format!("C{}_({}, {})", op_macro(*op), x(a), x(b))
            }
            Expr::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) if self.wide() => {
                format!("{}_({}, {}, __LINE__)", op_macro(*op), x(a), x(b))
            }
            Expr::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) if self.constant => {
                format!("W({} {} {})", x(a), op.symbol(), x(b))
            }
            Expr::Binary(BinOp::Div, a, b) => format!("div_({}, {}, __LINE__)", x(a), x(b)),
            Expr::Binary(BinOp::Rem, a, b) => format!("rem_({}, {}, __LINE__)", x(a), x(b)),
            Expr::Binary(op, a, b) if op.wraps() && !self.wide() => format!("W({} {} {})", x(a), op.symbol(), x(b)),
            Expr::Binary(op, a, b) => format!("({} {} {})", x(a), op.symbol(), x(b)),
            // `word` storage wraps stores; only the divisor needs the zero check.
            Expr::Assign(Some(op @ (BinOp::Div | BinOp::Rem)), lv, rhs) if self.wide() => {
                format!("{}_SET_({}, {}, __LINE__)", op_macro(*op), x(lv), x(rhs))
            }
            Expr::Assign(Some(op @ (BinOp::Div | BinOp::Rem)), lv, rhs) => {
                format!("({} {}= nonzero_({}, __LINE__))", x(lv), op.symbol(), x(rhs))
            }
            Expr::Assign(op, lv, rhs) => {
                format!("({} {}= {})", x(lv), op.map_or("", BinOp::symbol), x(rhs))
            }
            Expr::IncDec { inc, post, target } => {
                let sym = if *inc { "++" } else { "--" };
                if *post {
                    format!("({}{sym})", x(target))
                } else {
                    format!("({sym}{})", x(target))
                }
            }
            Expr::Cond(c, a, b) => format!("({} ? {} : {})", x(c), x(a), x(b)),
            Expr::Paren(a) => x(a),
        }
    }
}

/// The name of gcc's macro for `/` or `%` on 32-bit words (`gcc::prelude`).
fn op_macro(op: BinOp) -> &'static str {
    if op == BinOp::Div {
        "DIV"
    } else {
        "REM"
    }
}

/// The precedence of `e` as our text prints it (primary expressions 16).
fn ours_prec(e: &Expr) -> u8 {
    match e {
        Expr::Num(v, Lit::Dec) if *v < 0 => 14,
        Expr::Num(v, Lit::Suffix(s)) if *v < 0 && !s.contains(['u', 'U']) => 14,
        Expr::Num(..)
        | Expr::Macro(..)
        | Expr::Var(_)
        | Expr::Index(..)
        | Expr::Call(..)
        | Expr::Builtin(..)
        | Expr::MacroCall(..)
        | Expr::Lib(_)
        | Expr::Paren(_) => 16,
        Expr::IncDec { post: true, .. } => 15,
        Expr::IncDec { .. } | Expr::Unary(..) | Expr::Deref(_) | Expr::AddrOf(_) | Expr::Cast(..) => 14,
        Expr::Offset(..) => BinOp::Add.prec(),
        Expr::Binary(op, ..) => op.prec(),
        Expr::Cond(..) => 3,
        Expr::Assign(..) => 2,
        Expr::Comma(..) => 1,
    }
}
