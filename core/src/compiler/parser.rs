//! Recursive descent over the token list, building [`Unit`]. Errors are
//! reported and the parser resynchronises at the next `;` or `}`, so one
//! mistake does not hide the next.

use super::ast::*;
use super::lexer::{Tok, Token};
use super::Sink;
use crate::diag::{Diagnostic, Span};

/// Keywords of C this compiler does not implement, with what to say about them.
fn unsupported(word: &str) -> Option<&'static str> {
    Some(match word {
        "short" | "long" | "unsigned" | "signed" | "_Bool" | "bool" => {
            "is unsupported: the types are `int` and `char` (N-bit words), pointers and arrays of them, and `void`"
        }
        "float" | "double" => "is unsupported: there are no floating-point numbers; use integers (scaled, e.g. cents)",
        "struct" | "union" | "enum" | "typedef" => {
            "is unsupported: there are no user-defined types; use parallel arrays (`int x[N], y[N];`)"
        }
        "goto" => "is unsupported: use loops with `break` and `continue`",
        "sizeof" => "is unsupported",
        "static" | "extern" | "const" | "volatile" | "register" | "auto" | "inline" => {
            "is unsupported: declare plain `int` variables"
        }
        _ => return None,
    })
}

pub struct Parser<'a> {
    toks: Vec<Token>,
    i: usize,
    sink: &'a mut Sink,
    word_bits: u32,
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

pub fn parse(toks: Vec<Token>, word_bits: u32, sink: &mut Sink) -> Unit {
    let mut p = Parser { toks, i: 0, sink, word_bits, depth: 0, nodes: 0 };
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
            Tok::Num(v, _) => format!("the number {v}"),
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

    /// `int`, `char` or `void` (`None`); anything else gets a targeted message.
    fn base_type(&mut self) -> PResult<Option<bool>> {
        self.check_unsupported()?;
        for (word, ty) in [("int", Some(false)), ("char", Some(true)), ("void", None)] {
            if self.is_word(word) {
                self.next();
                return Ok(ty);
            }
        }
        let found = Self::describe(self.peek());
        let span = self.span();
        self.error(span, format!("expected a declaration (`int`, `char` or `void`), found {found}"))
    }

    fn is_type_word(&self) -> bool {
        self.is_word("int") || self.is_word("char") || self.is_word("void")
    }

    fn stars(&mut self) -> u32 {
        let mut n = 0;
        while self.eat("*") {
            n += 1;
        }
        n
    }

    fn top_level(&mut self, unit: &mut Unit) -> PResult<()> {
        let type_span = self.span();
        let base = self.base_type()?;
        let pointers = self.stars();
        let (name, span) = self.ident("a name")?;
        if self.eat("(") {
            if pointers > 0 {
                return self.error(type_span, "functions cannot return pointers; return an index instead");
            }
            let params = self.params()?;
            if self.eat(";") {
                return Ok(()); // a prototype: functions may be used before their definition anyway
            }
            self.expect("{")?;
            let body = self.block_body()?;
            unit.funcs.push(Func { name, span, returns_int: base.is_some(), params, body });
            return Ok(());
        }
        if base.is_none() && pointers == 0 {
            return self.error(type_span, "variables cannot be `void`");
        }
        let mut decls = vec![self.declarator_rest(name, span, pointers)?];
        while self.eat(",") {
            let pointers = self.stars();
            let (n, s) = self.ident("a variable name")?;
            decls.push(self.declarator_rest(n, s, pointers)?);
        }
        self.expect(";")?;
        unit.globals.extend(decls);
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
            let type_span = self.span();
            let base = self.base_type()?;
            let pointers = self.stars();
            if base.is_none() && pointers == 0 {
                return self.error(type_span, "parameters cannot be `void`");
            }
            let (name, span) = self.ident("a parameter name")?;
            let mut dims = Vec::new();
            while self.eat("[") {
                dims.push(if self.is("]") { None } else { Some(self.expr()?) });
                self.expect("]")?;
            }
            let id = self.fresh();
            out.push(VarDecl { id, name, span, ty: TypeSpec { pointers, dims }, init: None });
            if self.eat(")") {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    fn declarator_rest(&mut self, name: String, span: Span, pointers: u32) -> PResult<VarDecl> {
        let mut dims = Vec::new();
        while self.eat("[") {
            dims.push(if self.is("]") { None } else { Some(self.expr()?) });
            self.expect("]")?;
        }
        let init = if self.eat("=") { Some(self.initializer()?) } else { None };
        let id = self.fresh();
        Ok(VarDecl { id, name, span, ty: TypeSpec { pointers, dims }, init })
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
                items.push(p.initializer()?);
                if !p.eat(",") {
                    break;
                }
            }
            p.expect("}")?;
            Ok(Init::List(items, open))
        })
    }

    fn block_body(&mut self) -> PResult<Vec<Stmt>> {
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
            "int" | "char" | "void" => {
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
            _ if !word.is_empty() && self.peek_at(1) == &Tok::Punct(":") => {
                let msg = "labels are unsupported (there is no `goto`): use loops with `break` and `continue`";
                self.sink.push(Diagnostic::error(span, msg));
                self.next();
                self.next();
                return self.stmt(); // the labelled statement is still checked
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
        let type_span = self.span();
        let base = self.base_type()?;
        let mut decls = Vec::new();
        loop {
            let pointers = self.stars();
            if base.is_none() && pointers == 0 {
                return self.error(type_span, "variables cannot be `void`");
            }
            let (name, span) = self.ident("a variable name")?;
            if self.is("(") {
                return self.error(span, "functions must be defined at the top level");
            }
            match self.declarator_rest(name.clone(), span, pointers) {
                Ok(d) => decls.push(d),
                Err(()) => {
                    // Keep the name declared so later uses do not cascade into "undefined" errors.
                    let id = self.fresh();
                    decls.push(VarDecl { id, name, span, ty: TypeSpec { pointers, dims: Vec::new() }, init: None });
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
        self.next();
        self.expect("(")?;
        let init = if self.eat(";") {
            None
        } else if self.is_type_word() {
            Some(Box::new(Stmt::Decl(self.local_decl()?)))
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

    pub fn expr(&mut self) -> PResult<Expr> {
        let e = self.assign()?;
        if self.is(",") {
            let s = self.span();
            return self.error(s, "the comma operator is unsupported; write separate statements");
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
        let Some(op) = op else { return self.postfix() };
        self.next();
        // `-128` is one literal, so the most negative word can be written. A hex, octal or
        // character literal spells an N-bit pattern whatever its sign (`0xFF` is −1), so a
        // minus before one negates that pattern's value: `-0xFF` is 1.
        if let (UnOp::Neg, Tok::Num(v, false)) = (op, self.peek().clone()) {
            if !matches!(self.peek_at(1), Tok::Punct("[" | "(" | "++" | "--")) {
                let t = self.next();
                let span = join(span, t.span);
                let v = self.literal(v, false, true, span)?;
                return Ok(self.mk(ExprKind::Num(-v), span));
            }
        }
        let x = self.unary()?;
        let span = join(span, x.span);
        Ok(self.mk(ExprKind::Unary(op, Box::new(x)), span))
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
                Tok::Punct("[") => {
                    self.next();
                    let idx = self.expr()?;
                    let close = self.expect("]")?;
                    let span = join(e.span, close);
                    e = self.mk(ExprKind::Index(Box::new(e), Box::new(idx)), span);
                }
                Tok::Punct("." | "->") => {
                    let s = self.span();
                    return self.error(s, "member access is unsupported: there are no structs");
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.check_unsupported()?;
        let t = self.next();
        match t.tok {
            Tok::Num(v, hex) => {
                let v = self.literal(v, hex, false, t.span)?;
                Ok(self.mk(ExprKind::Num(v), t.span))
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
                if self.is_type_word() {
                    let s = self.span();
                    return self.error(s, "casts are unsupported: `int` and `char` are both N-bit words");
                }
                let e = self.expr()?;
                let close = self.expect(")")?;
                Ok(Expr { span: join(t.span, close), ..e })
            }
            Tok::Ident(name) if !is_keyword(&name) => {
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.is(")") {
                        loop {
                            args.push(self.assign()?);
                            if !self.eat(",") {
                                break;
                            }
                        }
                    }
                    let close = self.expect(")")?;
                    return Ok(self.mk(ExprKind::Call(name, args), join(t.span, close)));
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
    /// Checks that a literal fits an N-bit word. Decimal literals must fit the signed range
    /// (`-128` counts as one literal); hex, octal and character literals may spell any N-bit
    /// pattern (`0xFF` is −1 on 8 bits). Returns the (possibly reinterpreted) magnitude.
    fn literal(&mut self, v: i64, any_pattern: bool, negated: bool, span: Span) -> PResult<i64> {
        let bits = self.word_bits;
        let max = (1i64 << (bits - 1)) - 1;
        if any_pattern && v < 1i64 << bits {
            return Ok(if v > max { v - (1i64 << bits) } else { v });
        }
        let limit = if negated { max + 1 } else { max };
        if v <= limit {
            return Ok(v);
        }
        let shown = if negated { format!("-{v}") } else { v.to_string() };
        let mut d = Diagnostic::error(
            span,
            format!("the literal {shown} does not fit in {} {bits}-bit int", if bits == 8 { "an" } else { "a" }),
        )
        .with_note(format!("{bits}-bit ints range from {} to {max}", -max - 1));
        if bits < 32 {
            d = d.with_hint(format!("use a configuration with {}-bit words for larger numbers", 2 * bits));
        }
        self.sink.push(d);
        Ok(0)
    }
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "char"
            | "void"
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
