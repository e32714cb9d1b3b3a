//! Recursive descent over the token list, building [`Unit`]. Errors are
//! reported and the parser resynchronises at the next `;` or `}`, so one
//! mistake does not hide the next.

mod specs;

use super::ast::*;
use super::lexer::{Tok, Token};
use super::Sink;
use crate::config::Config;
use crate::ctypes::{self as types, IntTy, Suffix, MAX_WORD_BITS};
use crate::diag::{Diagnostic, Span};
use specs::{DeclSpec, Ordinary};
use std::collections::HashMap;

/// Keywords of C this compiler does not implement, with what to say about them.
fn unsupported(word: &str) -> Option<&'static str> {
    Some(match word {
        "float" | "double" => "is unsupported: there are no floating-point numbers; use integers (scaled, e.g. cents)",
        _ => return None,
    })
}

pub struct Parser<'a> {
    toks: Vec<Token>,
    i: usize,
    sink: &'a mut Sink,
    word_bits: u32,
    cfg: Config,
    /// Ordinary identifiers by scope, innermost last (see `specs`).
    scopes: Vec<HashMap<String, Ordinary>>,
    /// The `struct` types declared so far ([`Unit::structs`]).
    structs: Vec<StructDef>,
    /// Current nesting of expressions and statements, bounded so deep input cannot overflow the stack.
    depth: u32,
    /// The next [`NodeId`].
    nodes: NodeId,
}

/// Deeper nesting than this is rejected (later phases recurse over the tree too).
const MAX_DEPTH: u32 = 150;

/// Associative chains longer than this are built balanced (shorter ones compile best
/// left-leaning: each term is added into the result in place).
const BALANCED_FROM: usize = 32;

type PResult<T> = Result<T, ()>;

pub fn parse(toks: Vec<Token>, cfg: Config, sink: &mut Sink) -> Unit {
    let word_bits = cfg.word_bits;
    let mut p = Parser {
        toks,
        i: 0,
        sink,
        word_bits,
        cfg,
        scopes: vec![HashMap::new()],
        structs: Vec::new(),
        depth: 0,
        nodes: 0,
    };
    let mut unit = Unit::default();
    while p.peek() != &Tok::Eof {
        let before = p.i;
        if p.top_level(&mut unit).is_err() {
            p.recover_top();
        }
        if p.i == before {
            p.i += 1;
        }
    }
    unit.nodes = p.nodes;
    unit.structs = p.structs;
    unit
}

impl Parser<'_> {
    fn fresh(&mut self) -> NodeId {
        self.nodes += 1;
        self.nodes - 1
    }

    fn mk(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.fresh(), kind, span }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.i.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.i.min(self.toks.len() - 1)].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.i.saturating_sub(1)].span
    }

    fn next(&mut self) -> Token {
        let t = self.toks[self.i.min(self.toks.len() - 1)].clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        let hit = self.is(p);
        if hit {
            self.next();
        }
        hit
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn error<T>(&mut self, span: Span, msg: impl Into<String>) -> PResult<T> {
        self.sink.push(Diagnostic::error(span, msg));
        Err(())
    }

    fn describe(t: &Tok) -> String {
        match t {
            Tok::Num(v, ..) => format!("the number {v}"),
            Tok::Char(v) => format!("the character constant {v}"),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(_) => "a string literal".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the file".into(),
        }
    }

    fn expect(&mut self, p: &str) -> PResult<Span> {
        if self.is(p) {
            return Ok(self.next().span);
        }
        let found = Self::describe(self.peek());
        // A missing `;` is best reported at the end of the previous token.
        let span = if p == ";" { self.after_prev() } else { self.span() };
        self.error(span, format!("expected `{p}`, found {found}"))
    }

    fn after_prev(&self) -> Span {
        let s = self.prev_span();
        Span::new(s.line, s.end_col, s.end_col + 1)
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if unsupported(&s).is_none() && !is_keyword(&s) => {
                let span = self.next().span;
                Ok((s, span))
            }
            t => {
                let span = self.span();
                self.error(span, format!("expected {what}, found {}", Self::describe(&t)))
            }
        }
    }

    fn check_unsupported(&mut self) -> PResult<()> {
        if let Tok::Ident(w) = self.peek() {
            if let Some(why) = unsupported(w) {
                let msg = format!("`{w}` {why}");
                let span = self.span();
                return self.error(span, msg);
            }
        }
        Ok(())
    }

    fn recover_top(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth -= 1;
                    if depth <= 0 {
                        self.next();
                        self.eat(";");
                        return;
                    }
                }
                Tok::Punct(";") if depth == 0 => {
                    self.next();
                    return;
                }
                _ => {}
            }
            self.next();
        }
    }

    fn recover_stmt(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.next();
                        return;
                    }
                }
                Tok::Punct(";") if depth == 0 => {
                    self.next();
                    return;
                }
                _ => {}
            }
            self.next();
        }
    }

    /// `ty` when the machine can hold it: `long long` never (64 bits), an exact-width type
    /// (`int32_t`) only when the word is that wide; the others are clipped to the word.
    fn fits_word(&mut self, ty: IntTy, exact: Option<u32>, name: &str, span: Span) -> PResult<Base> {
        let bits = exact.unwrap_or(ty.info().bits);
        if bits > MAX_WORD_BITS {
            self.sink.push(
                Diagnostic::error(span, format!("`{name}` is unsupported: it needs {bits} bits"))
                    .with_note(format!("words are at most {MAX_WORD_BITS} bits wide; `long` is {MAX_WORD_BITS} bits")),
            );
            return Err(());
        }
        if exact.is_some_and(|b| b > self.word_bits) {
            let word = self.word_bits;
            self.sink.push(
                Diagnostic::error(span, format!("`{name}` needs {bits}-bit words; this machine's are {word} bits"))
                    .with_hint(types::presets_for(bits)),
            );
            return Err(());
        }
        Ok(Base::Int(ty))
    }

    fn is_type_word(&self) -> bool {
        self.is_type_word_at(0)
    }

    fn top_level(&mut self, unit: &mut Unit) -> PResult<()> {
        let spec = self.specs()?;
        if self.eat(";") {
            return Ok(()); // `enum E { … };` declares its constants only
        }
        if spec.typedef {
            return self.typedef_rest(&spec);
        }
        let d = self.declarator(&spec.ty, "a name", false)?;
        if self.is("(") && d.ty.func.is_none() {
            let Some((name, span)) = d.name else { return Err(()) };
            return self.function(unit, &spec, d.pointers, name, span);
        }
        let mut decls = vec![self.declarator_rest(&spec, d)?];
        while self.eat(",") {
            let d = self.declarator(&spec.ty, "a variable name", false)?;
            decls.push(self.declarator_rest(&spec, d)?);
        }
        self.expect(";")?;
        unit.globals.extend(decls);
        Ok(())
    }

    /// A function's definition or prototype, after its name (the `(` next).
    fn function(&mut self, unit: &mut Unit, spec: &DeclSpec, pointers: u32, name: String, span: Span) -> PResult<()> {
        self.next();
        if !spec.ty.dims.is_empty() || spec.ty.func.is_some() {
            return self.error(spec.span, "a function cannot return an array or a function pointer here");
        }
        let pointers = pointers + spec.ty.pointers;
        let ret = match (spec.ty.base, pointers) {
            (Base::Void, 0) => None,
            (base, pointers) => Some(TypeSpec { base, pointers, dims: Vec::new(), func: None }),
        };
        self.bind(&name, Ordinary::Function);
        self.push_scope();
        let r = self.function_rest(unit, ret, name, span);
        self.pop_scope();
        r
    }

    fn function_rest(&mut self, unit: &mut Unit, ret: Option<TypeSpec>, name: String, span: Span) -> PResult<()> {
        let params = self.params()?;
        if self.eat(";") {
            return Ok(()); // a prototype: functions may be used before their definition anyway
        }
        if let Some(p) = params.iter().find(|p| p.name.is_empty()) {
            return self.error(p.span, "a parameter of a function's definition needs a name");
        }
        self.expect("{")?;
        let body = self.block_body()?;
        unit.funcs.push(Func { name, span, ret, params, body });
        Ok(())
    }

    fn params(&mut self) -> PResult<Vec<VarDecl>> {
        let mut out = Vec::new();
        if self.eat(")") {
            return Ok(out);
        }
        if self.is_word("void") && self.peek_at(1) == &Tok::Punct(")") {
            self.next();
            self.next();
            return Ok(out);
        }
        loop {
            if self.is("...") {
                let span = self.span();
                return self.error(span, "variadic functions (`...`) are unsupported: pass an array and its length");
            }
            let spec = self.specs()?;
            if spec.typedef || spec.storage.is_some_and(|s| s.0 != Storage::Auto) {
                return self.error(spec.span, "a parameter has no storage class other than `register`");
            }
            let d = self.declarator(&spec.ty, "a parameter name", true)?;
            if d.ty.func.is_none() {
                self.not_void(d.ty.base, d.ty.pointers, spec.span, "parameters")?;
            }
            let (name, span, ty) = (d.name.map(|n| n.0).unwrap_or_default(), d.span, d.ty);
            let konst = if ty.pointers > 0 || ty.func.is_some() { d.konst_ptr } else { spec.konst };
            if !name.is_empty() {
                self.bind(&name, Ordinary::Object);
            }
            let id = self.fresh();
            out.push(VarDecl { id, name, span, ty, init: None, storage: None, konst });
            if self.eat(")") {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    /// `void` alone declares nothing, and `void *` (a pointer to any type) is not supported.
    fn not_void(&mut self, base: Base, pointers: u32, span: Span, what: &str) -> PResult<()> {
        match (base, pointers) {
            (Base::Void, 0) => self.error(span, format!("{what} cannot be `void`")),
            _ => Ok(()),
        }
    }

    /// A variable's declarator after its name: dimensions and initializer. `const` makes the
    /// variable read-only unless it is a pointer (then it is the pointed-to objects, which are
    /// not tracked), or the last `*` says `* const`.
    fn declarator_rest(&mut self, spec: &DeclSpec, d: specs::Declarator) -> PResult<VarDecl> {
        let Some((name, span)) = d.name else { return Err(()) };
        self.bind(&name, Ordinary::Object);
        let ty = d.ty;
        if ty.func.is_none() {
            self.not_void(ty.base, ty.pointers, spec.span, "variables")?;
        }
        let init = if self.eat("=") { Some(self.initializer()?) } else { None };
        let id = self.fresh();
        let konst = if ty.pointers > 0 || ty.func.is_some() { d.konst_ptr } else { spec.konst };
        Ok(VarDecl { id, name, span, ty, init, storage: spec.storage, konst })
    }

    /// An expression, or a brace list of initializers (nested for 2-D arrays).
    fn initializer(&mut self) -> PResult<Init> {
        if !self.is("{") {
            return Ok(Init::Scalar(self.assign()?));
        }
        self.nested(|p| {
            let open = p.next().span;
            let mut items = Vec::new();
            while !p.is("}") {
                let mut path = Vec::new();
                loop {
                    if p.eat(".") {
                        let (name, span) = p.ident("a member name")?;
                        path.push(Designator::Member(name, span));
                    } else if p.eat("[") {
                        path.push(Designator::Index(p.ternary()?));
                        p.expect("]")?;
                    } else {
                        break;
                    }
                }
                if path.is_empty() {
                    items.push(p.initializer()?);
                } else {
                    p.expect("=")?;
                    items.push(Init::At(path, Box::new(p.initializer()?)));
                }
                if !p.eat(",") {
                    break;
                }
            }
            p.expect("}")?;
            Ok(Init::List(items, open))
        })
    }

    fn block_body(&mut self) -> PResult<Vec<Stmt>> {
        self.push_scope();
        let r = self.block_items();
        self.pop_scope();
        r
    }

    fn block_items(&mut self) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            if self.eat("}") {
                return Ok(out);
            }
            if self.peek() == &Tok::Eof {
                let s = self.span();
                return self.error(s, "expected `}` before the end of the file");
            }
            let before = self.i;
            match self.stmt() {
                Ok(s) => out.push(s),
                Err(()) => {
                    self.recover_stmt();
                    if self.i == before {
                        self.next();
                    }
                }
            }
        }
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.nested(Self::stmt_inner)
    }

    /// Runs `f` one nesting level deeper, refusing absurdly deep input.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            let span = self.span();
            self.sink.push(
                Diagnostic::error(span, "this is nested too deeply")
                    .with_note(format!("the limit is {MAX_DEPTH} levels")),
            );
            self.i = self.toks.len() - 1; // give up on the rest: one message is enough
            return Err(());
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        self.check_unsupported()?;
        let span = self.span();
        let word = match self.peek() {
            Tok::Ident(w) => w.clone(),
            _ => String::new(),
        };
        match word.as_str() {
            _ if self.is_type_word() && self.peek_at(1) != &Tok::Punct(":") => {
                let decls = self.local_decl()?;
                return Ok(Stmt::Decl(decls));
            }
            "switch" => {
                self.next();
                let e = self.paren_expr()?;
                let open = self.span();
                self.expect("{")?;
                let body = self.block_body()?;
                if !matches!(body.first(), None | Some(Stmt::Case(..))) {
                    self.sink.push(
                        Diagnostic::warning(open, "these statements before the first `case` never run")
                            .with_hint("put them before the `switch`"),
                    );
                }
                return Ok(Stmt::Switch(e, body));
            }
            "case" => {
                self.next();
                let e = self.ternary()?;
                self.expect(":")?;
                return Ok(Stmt::Case(Some(e), span));
            }
            "default" => {
                self.next();
                self.expect(":")?;
                return Ok(Stmt::Case(None, span));
            }
            "if" => {
                self.next();
                let c = self.paren_expr()?;
                let then = Box::new(self.stmt()?);
                let els = if self.is_word("else") {
                    self.next();
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                return Ok(Stmt::If(c, then, els));
            }
            "while" => {
                self.next();
                let c = self.paren_expr()?;
                return Ok(Stmt::While(c, Box::new(self.stmt()?)));
            }
            "do" => {
                self.next();
                let body = Box::new(self.stmt()?);
                if !self.is_word("while") {
                    let s = self.span();
                    return self.error(s, "expected `while` after the body of `do`");
                }
                self.next();
                let c = self.paren_expr()?;
                self.expect(";")?;
                return Ok(Stmt::DoWhile(body, c));
            }
            "for" => return self.for_stmt(),
            "break" | "continue" => {
                self.next();
                self.expect(";")?;
                return Ok(if word == "break" { Stmt::Break(span) } else { Stmt::Continue(span) });
            }
            "return" => {
                self.next();
                let e = if self.is(";") { None } else { Some(self.expr()?) };
                self.expect(";")?;
                return Ok(Stmt::Return(e, span));
            }
            "else" => return self.error(span, "`else` without a matching `if`"),
            "goto" => {
                self.next();
                let (label, at) = self.ident("a label")?;
                self.expect(";")?;
                return Ok(Stmt::Goto(label, join(span, at)));
            }
            _ if !word.is_empty() && !is_keyword(&word) && self.peek_at(1) == &Tok::Punct(":") => {
                self.next();
                self.next();
                let body = if self.is("}") { Stmt::Empty } else { self.stmt()? };
                return Ok(Stmt::Labeled(word, span, Box::new(body)));
            }
            _ => {}
        }
        if self.eat(";") {
            return Ok(Stmt::Empty);
        }
        if self.eat("{") {
            return Ok(Stmt::Block(self.block_body()?));
        }
        let e = self.expr()?;
        self.expect(";")?;
        Ok(Stmt::Expr(e))
    }

    fn local_decl(&mut self) -> PResult<Vec<VarDecl>> {
        let spec = self.specs()?;
        let mut decls = Vec::new();
        if self.eat(";") {
            return Ok(decls); // `enum E { … };` declares its constants only
        }
        if spec.typedef {
            self.typedef_rest(&spec)?;
            return Ok(decls);
        }
        loop {
            let d = self.declarator(&spec.ty, "a variable name", false)?;
            let Some((name, span)) = d.name.clone() else { return Err(()) };
            if self.is("(") && d.ty.func.is_none() {
                return self.error(span, "functions must be defined at the top level");
            }
            let pointers = d.pointers;
            let result = self.declarator_rest(&spec, d);
            self.bind(&name, Ordinary::Object);
            match result {
                Ok(d) => decls.push(d),
                Err(()) => {
                    // Keep the name declared so later uses do not cascade into "undefined" errors.
                    let id = self.fresh();
                    let base = if spec.ty.base == Base::Void { Base::Int(IntTy::Int) } else { spec.ty.base };
                    let ty = TypeSpec { base, pointers, dims: Vec::new(), func: None };
                    decls.push(VarDecl { id, name, span, ty, init: None, storage: None, konst: false });
                    self.recover_stmt();
                    return Ok(decls);
                }
            }
            if !self.eat(",") {
                break;
            }
        }
        if self.expect(";").is_err() {
            self.recover_stmt();
        }
        Ok(decls)
    }

    fn for_stmt(&mut self) -> PResult<Stmt> {
        self.push_scope();
        let r = self.for_inner();
        self.pop_scope();
        r
    }

    fn for_inner(&mut self) -> PResult<Stmt> {
        self.next();
        self.expect("(")?;
        let init = if self.eat(";") {
            None
        } else if self.is_type_word() {
            let decls = self.local_decl()?;
            if let Some((_, span)) = decls.iter().find_map(|d| d.storage.filter(|s| s.0 != Storage::Auto)) {
                self.sink.push(Diagnostic::error(span, "a `for` loop's declaration is `auto` or `register`, as in C"));
            }
            Some(Box::new(Stmt::Decl(decls)))
        } else {
            self.check_unsupported()?;
            let e = self.expr()?;
            self.expect(";")?;
            Some(Box::new(Stmt::Expr(e)))
        };
        let cond = if self.is(";") { None } else { Some(self.expr()?) };
        self.expect(";")?;
        let step = if self.is(")") { None } else { Some(self.expr()?) };
        self.expect(")")?;
        let body = Box::new(self.stmt()?);
        Ok(Stmt::For { init, cond, step, body })
    }

    fn paren_expr(&mut self) -> PResult<Expr> {
        self.expect("(")?;
        let e = self.expr()?;
        self.expect(")")?;
        Ok(e)
    }

    /// An expression, with the comma operator (`a, b`): the lowest precedence of all. A chain
    /// `t0, t1, …` is built right-leaning (the same effects in the same order, the same value):
    /// term k sits k levels deep, and is parsed counting them, so a long chain meets [`MAX_DEPTH`].
    pub fn expr(&mut self) -> PResult<Expr> {
        let first = self.assign()?;
        let outer = self.depth;
        let mut terms = vec![first];
        while self.eat(",") {
            self.depth += 1;
            let term = self.assign();
            let Ok(term) = term else {
                self.depth = outer;
                return Err(());
            };
            terms.push(term);
        }
        self.depth = outer;
        let mut e = terms.pop().expect("invariant: a chain has a term");
        while let Some(t) = terms.pop() {
            let span = join(t.span, e.span);
            e = self.mk(ExprKind::Comma(Box::new(t), Box::new(e)), span);
        }
        Ok(e)
    }

    fn assign(&mut self) -> PResult<Expr> {
        self.nested(Self::assign_inner)
    }

    fn assign_inner(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.peek() {
            Tok::Punct("=") => None,
            Tok::Punct(p) => match compound_op(p) {
                Some(op) => Some(op),
                None => return Ok(lhs),
            },
            _ => return Ok(lhs),
        };
        self.next();
        let rhs = self.assign()?;
        let span = join(lhs.span, rhs.span);
        Ok(self.mk(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span))
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect(":")?;
        // The else branch nests (`1 ? 1 : 1 ? 1 : …` is a right-leaning tree): counted.
        let b = self.nested(Self::ternary)?;
        let span = join(c.span, b.span);
        Ok(self.mk(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span))
    }

    /// Precedence climbing. The operators of one precedence level form a chain, built as C
    /// groups it (left-leaning) unless it is long and associative under N-bit wrapping
    /// (`+`/`-`, `*`, `&`, `|`, `^`, `&&`, `||`): a flat `1 + 1 + … + 1` of 10,000 terms is
    /// not nesting, so it is built balanced and only real nesting meets [`MAX_DEPTH`].
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let outer = self.depth;
        while let Some((_, level)) = self.binop_at_least(min_prec) {
            let mut terms = vec![(None, lhs)];
            let mut assoc = true;
            while let Some((op, prec)) = self.binop_at_least(level).filter(|&(_, p)| p == level) {
                self.next();
                assoc &= chains(op);
                // The depth the next operand will sit at in the built tree.
                let n = terms.len() as u32;
                self.depth = outer + if assoc { 1 + n.ilog2() } else { n };
                if self.depth >= MAX_DEPTH {
                    let reported = self.nested(|_| Err(()));
                    self.depth = outer;
                    return reported;
                }
                let Ok(rhs) = self.binary(prec + 1) else {
                    self.depth = outer;
                    return Err(());
                };
                terms.push((Some(op), rhs));
            }
            lhs = if assoc && terms.len() > BALANCED_FROM { self.balanced(terms).1 } else { self.left_fold(terms) };
        }
        self.depth = outer;
        Ok(lhs)
    }

    /// `t0 op1 t1 op2 t2 …` grouped as C does: `((t0 op1 t1) op2 t2) …`.
    fn left_fold(&mut self, terms: Vec<(Option<BinOp>, Expr)>) -> Expr {
        let mut it = terms.into_iter();
        let (_, mut lhs) = it.next().expect("invariant: a chain has a first term");
        for (op, rhs) in it {
            let op = op.expect("invariant: every term after the first has an operator");
            let span = join(lhs.span, rhs.span);
            lhs = self.mk(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        lhs
    }

    /// The same chain as a balanced tree, for associative operators. Returns whether the
    /// chain's value is the built expression negated: terms after a `-` are summed with their
    /// sign, so `a - b - c` halves into `a - b` and `-(c)`, joined as `(a - b) - c`; a half that
    /// starts with a `-` term is built as its positive counterpart and subtracted.
    fn balanced(&mut self, mut terms: Vec<(Option<BinOp>, Expr)>) -> (bool, Expr) {
        if terms.len() == 1 {
            let (op, e) = terms.pop().expect("invariant: one term");
            return (op == Some(BinOp::Sub), e);
        }
        let right = terms.split_off(terms.len() / 2);
        let join_op = right[0].0.expect("invariant: every term after the first has an operator");
        let (neg_l, l) = self.balanced(terms);
        let (neg_r, r) = self.balanced(right);
        let op = match join_op {
            BinOp::Add | BinOp::Sub => {
                if neg_l == neg_r {
                    BinOp::Add
                } else {
                    BinOp::Sub
                }
            }
            other => other,
        };
        let span = join(l.span, r.span);
        (neg_l, self.mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), span))
    }

    fn binop_at_least(&self, min_prec: u8) -> Option<(BinOp, u8)> {
        match self.peek() {
            Tok::Punct(p) => binop(p).filter(|&(_, prec)| prec >= min_prec),
            _ => None,
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.nested(Self::unary_inner)
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        let op = match self.peek() {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("~") => Some(UnOp::BitNot),
            Tok::Punct("+") => {
                self.next();
                return self.unary();
            }
            Tok::Punct(p @ ("++" | "--")) => {
                let inc = *p == "++";
                self.next();
                let t = self.unary()?;
                let span = join(span, t.span);
                return Ok(self.mk(ExprKind::IncDec { inc, post: false, target: Box::new(t) }, span));
            }
            Tok::Punct(p @ ("&" | "*")) => {
                let addr = *p == "&";
                self.next();
                let x = self.unary()?;
                let span = join(span, x.span);
                let kind = if addr { ExprKind::AddrOf(Box::new(x)) } else { ExprKind::Deref(Box::new(x)) };
                return Ok(self.mk(kind, span));
            }
            _ => None,
        };
        if self.is_word("sizeof") {
            self.next();
            if self.is("(") && self.is_type_word_at(1) {
                self.next();
                let ty = self.type_name()?;
                let close = self.expect(")")?;
                return Ok(self.mk(ExprKind::SizeofType(ty), join(span, close)));
            }
            let x = self.unary()?;
            let span = join(span, x.span);
            return Ok(self.mk(ExprKind::SizeofExpr(Box::new(x)), span));
        }
        if self.is("(") && self.is_type_word_at(1) {
            self.next();
            let ty = self.type_name()?;
            self.expect(")")?;
            if self.is("{") {
                let span = join(span, self.span());
                return self.error(span, "compound literals (`(struct p){1, 2}`) are unsupported: declare a variable");
            }
            let x = self.unary()?;
            let span = join(span, x.span);
            return Ok(self.mk(ExprKind::Cast(ty, Box::new(x)), span));
        }
        let Some(op) = op else { return self.postfix() };
        self.next();
        // `-2147483648` is `INT_MIN` (gcc types it `long long`, which converts to the same
        // `int`): the most negative word can be written as one literal, as before.
        if let (UnOp::Neg, Tok::Num(v, true, Suffix { unsigned: false, long: 0 })) = (op, self.peek().clone()) {
            let min = IntTy::Int.range(self.word_bits).0;
            if v as i128 == -(min as i128) && !matches!(self.peek_at(1), Tok::Punct("[" | "(" | "++" | "--")) {
                let t = self.next();
                return Ok(self.mk(ExprKind::Num(min, IntTy::Int), join(span, t.span)));
            }
        }
        let x = self.unary()?;
        let span = join(span, x.span);
        Ok(self.mk(ExprKind::Unary(op, Box::new(x)), span))
    }

    /// A type name, as a cast or `sizeof` writes it: `unsigned char`, `int *`, `int[4]`.
    fn type_name(&mut self) -> PResult<TypeSpec> {
        let spec = self.specs()?;
        if spec.typedef || spec.storage.is_some() {
            return self.error(spec.span, "a type name has no storage class");
        }
        let pointers = self.pointer_stars().0;
        if spec.ty.base == Base::Void && pointers + spec.ty.pointers == 0 {
            return self.error(spec.span, "`void` has no values here: name an integer or pointer type");
        }
        let span = self.span();
        let mut dims = Vec::new();
        while self.eat("[") {
            dims.push(Some(self.expr()?));
            self.expect("]")?;
        }
        self.declared(&spec.ty, pointers, dims, span)
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            match self.peek() {
                Tok::Punct(p @ ("++" | "--")) => {
                    let inc = *p == "++";
                    let end = self.next().span;
                    let span = join(e.span, end);
                    e = self.mk(ExprKind::IncDec { inc, post: true, target: Box::new(e) }, span);
                }
                Tok::Punct("(") => {
                    self.next();
                    let (args, close) = self.call_args()?;
                    let span = join(e.span, close);
                    e = self.mk(ExprKind::CallPtr(Box::new(e), args), span);
                }
                Tok::Punct("[") => {
                    self.next();
                    let idx = self.expr()?;
                    let close = self.expect("]")?;
                    let span = join(e.span, close);
                    e = self.mk(ExprKind::Index(Box::new(e), Box::new(idx)), span);
                }
                Tok::Punct(p @ ("." | "->")) => {
                    let arrow = *p == "->";
                    self.next();
                    let (name, at) = self.ident("a member name")?;
                    let span = join(e.span, at);
                    e = self.mk(ExprKind::Member { base: Box::new(e), name, arrow }, span);
                }
                _ => return Ok(e),
            }
        }
    }

    /// A call's arguments after its `(`, and the span of its `)`.
    fn call_args(&mut self) -> PResult<(Vec<Expr>, Span)> {
        let mut args = Vec::new();
        if !self.is(")") {
            loop {
                args.push(self.assign()?);
                if !self.eat(",") {
                    break;
                }
            }
        }
        Ok((args, self.expect(")")?))
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.check_unsupported()?;
        let t = self.next();
        match t.tok {
            Tok::Num(v, decimal, suffix) => {
                let (v, ty) = self.literal(v, decimal, suffix, t.span);
                Ok(self.mk(ExprKind::Num(v, ty), t.span))
            }
            Tok::Char(v) => Ok(self.mk(ExprKind::Num(v, IntTy::Int), t.span)),
            Tok::Ident(name) if types::limit(&name, self.word_bits).is_some() => {
                let v = match types::limit(&name, self.word_bits) {
                    Some(Ok(v)) => v,
                    _ => {
                        let bits = self.word_bits;
                        let d =
                            Diagnostic::error(t.span, format!("`{name}` describes a type wider than {bits}-bit words"));
                        let need = name.trim_start_matches(|c: char| !c.is_ascii_digit());
                        let need: u32 = need.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(32);
                        self.sink.push(d.with_hint(types::presets_for(need)));
                        (0, IntTy::Int)
                    }
                };
                Ok(self.mk(ExprKind::Num(v.0, v.1), t.span))
            }
            Tok::Str(mut bytes) => {
                // Adjacent literals are one string, as in C: `"ab" "cd"`.
                let mut span = t.span;
                while let Tok::Str(more) = self.peek().clone() {
                    let next = self.next();
                    bytes.extend(more);
                    span = join(span, next.span);
                }
                Ok(self.mk(ExprKind::Str(bytes), span))
            }
            Tok::Punct("(") => {
                let e = self.expr()?;
                let close = self.expect(")")?;
                // Parentheses from a macro's body both carry the call's span: the inner expression
                // (a macro argument) keeps its own, so errors point at the argument.
                let span = if t.span == close { e.span } else { join(t.span, close) };
                Ok(Expr { span, ..e })
            }
            Tok::Ident(name) if !is_keyword(&name) => {
                if let Some(Ordinary::Const(v)) = self.ordinary(&name) {
                    let v = *v;
                    return Ok(self.mk(ExprKind::Num(v, IntTy::Int), t.span));
                }
                let variable = matches!(self.ordinary(&name), Some(Ordinary::Object));
                if !variable && self.eat("(") {
                    let (args, close) = self.call_args()?;
                    if name == "scanf" {
                        let Parser { nodes, sink, .. } = self;
                        let mut fresh = || {
                            *nodes += 1;
                            *nodes - 1
                        };
                        return Ok(super::scan::lower(join(t.span, close), args, &mut fresh, sink));
                    }
                    return Ok(self.mk(ExprKind::Call(name, args), join(t.span, close)));
                }
                if matches!(self.ordinary(&name), Some(Ordinary::Function)) {
                    return Ok(self.mk(ExprKind::Func(name), t.span));
                }
                Ok(self.mk(ExprKind::Var(name), t.span))
            }
            other => {
                self.i -= usize::from(other != Tok::Eof);
                let msg = format!("expected an expression, found {}", Self::describe(&other));
                self.error(t.span, msg)
            }
        }
    }
}

impl Parser<'_> {
    /// An integer constant's value and C type (by its value, base and suffix); one that needs
    /// wider words than the machine's is reported, naming the configurations that hold it.
    fn literal(&mut self, v: u64, decimal: bool, suffix: Suffix, span: Span) -> (i64, IntTy) {
        let bits = self.word_bits;
        match types::literal_type(v, suffix, decimal, bits) {
            Ok(ty) => (v as i64, ty),
            Err(need) => {
                let ty = if suffix.unsigned { IntTy::UInt } else { IntTy::Int };
                let (lo, hi) = ty.range(bits);
                let shown = if v == u64::MAX { "this literal".to_string() } else { format!("the literal {v}") };
                let an = if bits == 8 { "an" } else { "a" };
                let d = if need > MAX_WORD_BITS {
                    Diagnostic::error(span, format!("{shown} needs a 64-bit `long long`, which is unsupported"))
                        .with_note(format!("types are at most {MAX_WORD_BITS} bits wide"))
                } else {
                    let name = if ty == IntTy::Int { "int".to_string() } else { format!("`{}`", ty.name()) };
                    Diagnostic::error(span, format!("{shown} does not fit in {an} {bits}-bit {name}"))
                        .with_note(format!("{bits}-bit {name}s range from {lo} to {hi}"))
                        .with_hint(types::presets_for(need))
                };
                self.sink.push(d);
                (0, ty)
            }
        }
    }
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "_Bool"
            | "char"
            | "void"
            | "short"
            | "long"
            | "signed"
            | "unsigned"
            | "sizeof"
            | "if"
            | "else"
            | "while"
            | "do"
            | "for"
            | "break"
            | "continue"
            | "return"
            | "switch"
            | "case"
            | "default"
            | "goto"
            | "typedef"
            | "enum"
            | "struct"
            | "union"
            | "static"
            | "extern"
            | "auto"
            | "register"
            | "inline"
            | "const"
            | "volatile"
    )
}

/// Joins two spans; a span over several lines is reduced to its first token's line.
pub fn join(a: Span, b: Span) -> Span {
    if a.line == b.line && b.end_col >= a.col {
        Span::new(a.line, a.col, b.end_col)
    } else {
        a
    }
}

fn compound_op(p: &str) -> Option<BinOp> {
    Some(match p {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "&=" => BinOp::And,
        "|=" => BinOp::Or,
        "^=" => BinOp::Xor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        _ => return None,
    })
}

/// Whether a chain of `op` may be regrouped: associative under N-bit wrapping (`-` as the
/// addition of a negated term, see [`balanced`]; `&&` and `||` keep their order of evaluation).
fn chains(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor | BinOp::LogAnd | BinOp::LogOr
    )
}

/// C's binary operators with their precedence (higher binds tighter).
fn binop(p: &str) -> Option<(BinOp, u8)> {
    Some(match p {
        "||" => (BinOp::LogOr, 1),
        "&&" => (BinOp::LogAnd, 2),
        "|" => (BinOp::Or, 3),
        "^" => (BinOp::Xor, 4),
        "&" => (BinOp::And, 5),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "<" => (BinOp::Lt, 7),
        "<=" => (BinOp::Le, 7),
        ">" => (BinOp::Gt, 7),
        ">=" => (BinOp::Ge, 7),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Rem, 10),
        _ => return None,
    })
}
