//! Declaration specifiers (`unsigned long`, `const`, `static`, a `typedef` name, an `enum`)
//! and the scopes of ordinary identifiers the parser keeps: C cannot be parsed without knowing
//! which names are types (`T * x;` declares when `T` is a `typedef` name), and an enumeration
//! constant is replaced here by its value, so later phases see a number.

use super::{join, PResult, Parser};
use crate::compiler::ast::*;
use crate::compiler::fold;
use crate::compiler::lexer::Tok;
use crate::compiler::resolved::Ty;
use crate::ctypes::{IntTy, TYPEDEFS};
use crate::diag::Span;
use std::collections::HashMap;

/// What an ordinary identifier names in a scope, as far as parsing cares.
#[derive(Clone, Debug)]
pub enum Ordinary {
    /// A variable or parameter: it hides outer `typedef` names and constants; followed by
    /// `(` it is called through (a function pointer).
    Object,
    /// A function: its name alone is its address (`f = add`), followed by `(` it is called.
    Function,
    /// A `typedef` name and the type it stands for.
    Typedef(TypeSpec),
    /// An enumeration constant and its value (an `int`).
    Const(i64),
    /// An `enum` tag (kept under `"enum NAME"`, C's separate tag namespace) and its type.
    Tag(IntTy),
    /// A `struct` tag (kept under `"struct NAME"`) and its index in `Unit::structs`.
    StructTag(usize),
}

/// Declaration specifiers, before the declarators.
pub struct DeclSpec {
    /// The type they name: a base, and the `*`s and dimensions of a `typedef` name.
    pub ty: TypeSpec,
    pub typedef: bool,
    pub storage: Option<(Storage, Span)>,
    /// `const` applies to the declared object (or, with `*`s in the declarator, to what it points to).
    pub konst: bool,
    pub span: Span,
}

/// One declarator, parsed (see [`Parser::declarator`]).
pub struct Declarator {
    pub name: Option<(String, Span)>,
    /// The name's span (where the name would be, when it is left out).
    pub span: Span,
    pub ty: TypeSpec,
    /// The last `*` is `* const`: the declared pointer itself is read-only.
    pub konst_ptr: bool,
    /// The `*`s written before a plain name (a function's result, when `(` follows).
    pub pointers: u32,
}

/// Words of a declaration that are not type words.
fn is_specifier_word(w: &str) -> bool {
    matches!(
        w,
        "typedef"
            | "static"
            | "extern"
            | "auto"
            | "register"
            | "inline"
            | "const"
            | "volatile"
            | "enum"
            | "struct"
            | "union"
    )
}

fn is_builtin_type_word(w: &str) -> bool {
    matches!(w, "int" | "char" | "void" | "short" | "long" | "signed" | "unsigned" | "_Bool")
        || TYPEDEFS.iter().any(|t| t.0 == w)
}

impl Parser<'_> {
    pub(super) fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub(super) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub(super) fn bind(&mut self, name: &str, what: Ordinary) {
        self.scopes.last_mut().expect("invariant: the file scope is never popped").insert(name.to_string(), what);
    }

    pub(super) fn ordinary(&self, name: &str) -> Option<&Ordinary> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn typedef_name(&self, w: &str) -> Option<TypeSpec> {
        match self.ordinary(w) {
            Some(Ordinary::Typedef(t)) => Some(t.clone()),
            _ => None,
        }
    }

    /// Whether the token `k` ahead begins a declaration or a type name.
    pub(super) fn is_type_word_at(&self, k: usize) -> bool {
        match self.peek_at(k) {
            Tok::Ident(w) => is_builtin_type_word(w) || is_specifier_word(w) || self.typedef_name(w).is_some(),
            _ => false,
        }
    }

    /// The declaration specifiers, in any order C allows (`unsigned long int`, `static const
    /// char`, `int const`), or a `typedef` name, or an `enum`.
    pub(super) fn specs(&mut self) -> PResult<DeclSpec> {
        let start = self.span();
        let (mut typedef, mut storage, mut konst) = (false, None, false);
        let mut counts: HashMap<&'static str, usize> = HashMap::new();
        let mut named: Option<TypeSpec> = None;
        let mut span = start;
        loop {
            self.check_unsupported()?;
            let Tok::Ident(w) = self.peek().clone() else { break };
            let here = self.span();
            match w.as_str() {
                "typedef" => typedef = true,
                "const" => konst = true,
                "volatile" | "inline" => {}
                "static" | "extern" | "auto" | "register" => {
                    let s = match w.as_str() {
                        "static" => Storage::Static,
                        "extern" => Storage::Extern,
                        _ => Storage::Auto,
                    };
                    if storage.is_some() {
                        return self.error(here, "a declaration has at most one storage class");
                    }
                    storage = Some((s, here));
                }
                "enum" if named.is_none() && counts.is_empty() => {
                    let t = self.enum_spec()?;
                    named = Some(TypeSpec { base: Base::Int(t), pointers: 0, dims: Vec::new(), func: None });
                    span = join(start, self.prev_span());
                    continue;
                }
                "struct" | "union" if named.is_none() && counts.is_empty() => {
                    let id = self.struct_spec(w == "union")?;
                    named = Some(TypeSpec { base: Base::Struct(id), pointers: 0, dims: Vec::new(), func: None });
                    span = join(start, self.prev_span());
                    continue;
                }
                "signed" | "unsigned" | "char" | "short" | "long" | "int" | "void" | "_Bool" if named.is_none() => {
                    let key = ["signed", "unsigned", "char", "short", "long", "int", "void", "_Bool"]
                        .into_iter()
                        .find(|k| *k == w)
                        .expect("invariant: matched above");
                    *counts.entry(key).or_default() += 1;
                }
                _ if named.is_none() && counts.is_empty() => {
                    if let Some(&(name, ty, exact)) = TYPEDEFS.iter().find(|t| t.0 == w.as_str()) {
                        self.next();
                        let base = self.fits_word(ty, exact, name, here)?;
                        named = Some(TypeSpec { base, pointers: 0, dims: vec![], func: None });
                        span = join(start, here);
                        continue;
                    }
                    let Some(t) = self.typedef_name(&w) else { break };
                    let mut t = t;
                    t.dims = t.dims.iter().map(|d| d.as_ref().map(|e| self.renumbered(e))).collect();
                    named = Some(t);
                }
                _ => break,
            }
            span = join(start, self.next().span);
        }
        let ty = match named {
            Some(t) => t,
            None if counts.is_empty() => {
                self.check_unsupported()?;
                let found = Self::describe(self.peek());
                let here = self.span();
                return self
                    .error(here, format!("expected a type (`int`, `char`, `unsigned`, `void`…), found {found}"));
            }
            None => TypeSpec { base: self.base_of(&counts, span)?, pointers: 0, dims: Vec::new(), func: None },
        };
        Ok(DeclSpec { ty, typedef, storage, konst, span })
    }

    /// The base type the type words make.
    fn base_of(&mut self, counts: &HashMap<&'static str, usize>, span: Span) -> PResult<Base> {
        let n = |k: &str| counts.get(k).copied().unwrap_or(0);
        let (signed, unsigned) = (n("signed"), n("unsigned"));
        if n("void") > 0 {
            if counts.len() > 1 || n("void") > 1 {
                return self.error(span, "these type specifiers do not make a C type");
            }
            return Ok(Base::Void);
        }
        if n("_Bool") > 0 {
            if counts.len() > 1 || n("_Bool") > 1 {
                return self.error(span, "these type specifiers do not make a C type");
            }
            return Ok(Base::Int(IntTy::Bool));
        }
        let ty = match (signed + unsigned, n("char"), n("short"), n("long"), n("int")) {
            (s, 1, 0, 0, 0) if s <= 1 => match (signed, unsigned) {
                (1, _) => IntTy::SChar,
                (_, 1) => IntTy::UChar,
                _ => IntTy::Char,
            },
            (s, 0, 1, 0, i) if s <= 1 && i <= 1 => [IntTy::Short, IntTy::UShort][unsigned],
            (s, 0, 0, 0, i) if s <= 1 && i <= 1 => [IntTy::Int, IntTy::UInt][unsigned],
            (s, 0, 0, 1, i) if s <= 1 && i <= 1 => [IntTy::Long, IntTy::ULong][unsigned],
            (s, 0, 0, 2, i) if s <= 1 && i <= 1 => [IntTy::LongLong, IntTy::ULongLong][unsigned],
            _ => return self.error(span, "these type specifiers do not make a C type"),
        };
        let name = ty.name();
        self.fits_word(ty, None, name, span)
    }

    /// The type a declarator gives its name: the specifiers' type with the declarator's `*`s
    /// and dimensions (`T x[3]` with `typedef int T[4]` is `int x[3][4]`).
    pub(super) fn declared(
        &mut self,
        spec: &TypeSpec,
        pointers: u32,
        mut dims: Vec<Option<Expr>>,
        span: Span,
    ) -> PResult<TypeSpec> {
        if pointers > 0 && !spec.dims.is_empty() {
            return self.error(span, "a pointer to an array type is unsupported: point to its first element instead");
        }
        dims.extend(spec.dims.iter().map(|d| d.as_ref().map(|e| self.renumbered(e))));
        // With a function-pointer type the `*`s point to the pointer, not to the result.
        let (pointers, func) = match &spec.func {
            Some(f) => (spec.pointers, Some(Box::new(FnSpec { params: f.params.clone(), ptrs: f.ptrs + pointers }))),
            None => (spec.pointers + pointers, None),
        };
        Ok(TypeSpec { base: spec.base, pointers, dims, func })
    }

    /// A declarator after the specifiers: `*`s (each maybe `const`), then a name with its
    /// dimensions, or a function pointer `(*name[N])(params)`. The name may be left out
    /// where `abstract_ok` (a parameter of a prototype or of a function-pointer type). A
    /// `(` right after a plain name is left for the caller (a function's parameters).
    pub(super) fn declarator(&mut self, spec: &TypeSpec, what: &str, abstract_ok: bool) -> PResult<Declarator> {
        let start = self.span();
        let (pointers, konst_ptr) = self.pointer_stars();
        let name = |p: &mut Self| -> PResult<Option<(String, Span)>> {
            match p.peek() {
                Tok::Ident(_) => p.ident(what).map(Some),
                _ if abstract_ok => Ok(None),
                _ => p.ident(what).map(Some),
            }
        };
        if self.is("(") && self.peek_at(1) == &Tok::Punct("*") {
            self.next();
            let (ptrs, konst_inner) = self.pointer_stars();
            let named = name(self)?;
            let dims = self.dims()?;
            self.expect(")")?;
            let span = named.as_ref().map_or(start, |n| n.1);
            if !self.is("(") {
                return self
                    .error(span, "a pointer to an array type is unsupported: point to its first element instead");
            }
            self.next();
            let params = self.fn_params()?;
            let ret = self.declared(spec, pointers, Vec::new(), span)?;
            if ret.func.is_some() || !ret.dims.is_empty() || (ret.pointers == 0 && matches!(ret.base, Base::Struct(_)))
            {
                return self.error(span, "a function pointer's function returns an integer, a pointer or `void` here");
            }
            let func = Some(Box::new(FnSpec { params, ptrs }));
            let ty = TypeSpec { base: ret.base, pointers: ret.pointers, dims, func };
            return Ok(Declarator { name: named, span, ty, konst_ptr: konst_inner, pointers: 0 });
        }
        let named = name(self)?;
        let span = named.as_ref().map_or(start, |n| n.1);
        let dims = if self.is("(") { Vec::new() } else { self.dims()? };
        let ty = self.declared(spec, pointers, dims, span)?;
        Ok(Declarator { name: named, span, ty, konst_ptr, pointers })
    }

    /// The parameter types of a function-pointer type, after its `(` (names are optional).
    fn fn_params(&mut self) -> PResult<Vec<TypeSpec>> {
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
            let d = self.declarator(&spec.ty, "a parameter name", true)?;
            if d.ty.func.is_none() {
                self.not_void(d.ty.base, d.ty.pointers, spec.span, "parameters")?;
            }
            out.push(d.ty);
            if self.eat(")") {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    /// `typedef SPEC D1, D2, …;` after the specifiers: each declarator's name becomes a type name.
    pub(super) fn typedef_rest(&mut self, spec: &DeclSpec) -> PResult<()> {
        if let Some((_, span)) = spec.storage {
            return self.error(span, "a `typedef` has no storage class");
        }
        loop {
            let d = self.declarator(&spec.ty, "a type name", false)?;
            let Some((name, _)) = d.name else { return self.error(d.span, "expected a type name") };
            if self.is("(") {
                let msg = "a `typedef` of a function type is unsupported: make it a pointer, `typedef int (*f)(int);`";
                return self.error(self.span(), msg);
            }
            self.bind(&name, Ordinary::Typedef(d.ty));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";")?;
        Ok(())
    }

    /// `[N]…` after a declarator's name (`None` for `[]`).
    pub(super) fn dims(&mut self) -> PResult<Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while self.eat("[") {
            dims.push(if self.is("]") { None } else { Some(self.expr()?) });
            self.expect("]")?;
        }
        Ok(dims)
    }

    /// `enum [TAG] [{ A, B = 5, … }]` (the `enum` word next): its constants are bound in the
    /// current scope with their values; the type is gcc's, `unsigned` unless a value is negative.
    fn enum_spec(&mut self) -> PResult<IntTy> {
        let at = self.next().span;
        let tag = match self.peek().clone() {
            Tok::Ident(t) if !self.is("{") => {
                self.next();
                Some(t)
            }
            _ => None,
        };
        if !self.is("{") {
            let Some(tag) = tag else {
                return self.error(self.span(), "expected an `enum` tag or `{`");
            };
            return match self.ordinary(&format!("enum {tag}")) {
                Some(Ordinary::Tag(t)) => Ok(*t),
                _ => self.error(join(at, self.prev_span()), format!("`enum {tag}` is not defined")),
            };
        }
        self.next();
        let (mut next, mut any_negative) = (0i64, false);
        let max = IntTy::Int.range(self.word_bits).1;
        while !self.is("}") {
            let (name, span) = self.ident("an enumeration constant")?;
            let v = if self.eat("=") {
                let e = self.ternary()?;
                self.enum_value(&e)?
            } else if next > max {
                return self.error(span, format!("`{name}` would be {next}, which is more than `INT_MAX`"));
            } else {
                next
            };
            any_negative |= v < 0;
            self.bind(&name, Ordinary::Const(v));
            next = v + 1;
            if !self.eat(",") {
                break;
            }
        }
        self.expect("}")?;
        let ty = if any_negative { IntTy::Int } else { IntTy::UInt };
        if let Some(tag) = tag {
            self.bind(&format!("enum {tag}"), Ordinary::Tag(ty));
        }
        Ok(ty)
    }

    /// `struct [TAG] [{ members }]` (the `struct` word next): its index in `Unit::structs`. A tag
    /// named before its definition (`struct node *next;` inside `struct node`) is the same type.
    fn struct_spec(&mut self, union: bool) -> PResult<usize> {
        let kw = if union { "union" } else { "struct" };
        let at = self.next().span;
        let tag = match self.peek().clone() {
            Tok::Ident(t) if !self.is("{") => {
                self.next();
                Some(t)
            }
            _ => None,
        };
        let key = tag.as_ref().map(|t| format!("{kw} {t}"));
        let known = key.as_ref().and_then(|k| match self.ordinary(k) {
            Some(Ordinary::StructTag(id)) => Some(*id),
            _ => None,
        });
        if !self.is("{") {
            if let Some(id) = known {
                return Ok(id);
            }
            let Some(key) = key else { return self.error(self.span(), format!("expected a `{kw}` tag or `{{`")) };
            self.structs.push(StructDef { tag, union, members: None });
            let id = self.structs.len() - 1;
            self.bind(&key, Ordinary::StructTag(id));
            return Ok(id);
        }
        // A definition: completes a tag named in this scope before, or declares a new one.
        let here = key.as_ref().and_then(|k| match self.scopes.last().and_then(|s| s.get(k)) {
            Some(Ordinary::StructTag(id)) => Some(*id),
            _ => None,
        });
        let id = match here {
            Some(id) if self.structs[id].members.is_some() => {
                return self.error(at, format!("`{kw} {}` is defined twice", tag.unwrap_or_default()));
            }
            Some(id) => id,
            None => {
                self.structs.push(StructDef { tag: tag.clone(), union, members: None });
                let id = self.structs.len() - 1;
                if let Some(k) = &key {
                    self.bind(k, Ordinary::StructTag(id));
                }
                id
            }
        };
        self.next();
        let mut members = Vec::new();
        while !self.is("}") && self.peek() != &Tok::Eof {
            let spec = self.specs()?;
            if spec.typedef || spec.storage.is_some() {
                return self.error(spec.span, "a member has no storage class");
            }
            loop {
                let d = self.declarator(&spec.ty, "a member name", false)?;
                let (Some((name, span)), ty) = (d.name, d.ty) else { return Err(()) };
                if self.is(":") {
                    let msg = "bit-fields are unsupported: every member is a whole word here";
                    self.sink.push(crate::diag::Diagnostic::error(self.span(), msg));
                    self.next();
                    self.ternary()?; // the width, read so the definition goes on
                }
                if self.is("(") {
                    return self.error(self.span(), "a member cannot be a function");
                }
                if members.iter().any(|m: &VarDecl| m.name == name) {
                    return self.error(span, format!("the member `{name}` is declared twice"));
                }
                let konst = if ty.pointers > 0 || ty.func.is_some() { d.konst_ptr } else { spec.konst };
                let id = self.fresh();
                members.push(VarDecl { id, name, span, ty, init: None, storage: None, konst });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";")?;
        }
        self.expect("}")?;
        if members.is_empty() {
            return self.error(at, format!("a `{kw}` needs at least one member"));
        }
        self.structs[id].members = Some(members);
        Ok(id)
    }

    /// An enumerator's value: a constant expression of `int` constants (numbers, characters,
    /// enumeration constants) and operators, folded as the checker folds.
    fn enum_value(&mut self, e: &Expr) -> PResult<i64> {
        let mut types = HashMap::new();
        let mut bad = None;
        e.any(&mut |x| {
            match &x.kind {
                ExprKind::Num(_, IntTy::Int) | ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Cond(..) => {
                    types.insert(x.id, Ty::INT);
                }
                _ => bad = bad.or(Some(x.span)),
            }
            false
        });
        if let Some(span) = bad {
            let msg = "an enumerator's value may use `int` constants, enumeration constants and operators only";
            return self.error(span, msg);
        }
        let sizes = HashMap::new();
        let facts = fold::Facts { cfg: &self.cfg, types: &types, sizes: &sizes };
        match fold::eval(facts, e) {
            Some(v) => Ok(v),
            None => self.error(e.span, "this enumerator's value divides by zero"),
        }
    }

    /// A copy of `e` with fresh node numbers (a `typedef`'s dimensions, used once per declaration).
    pub(super) fn renumbered(&mut self, e: &Expr) -> Expr {
        let mut e = e.clone();
        self.renumber(&mut e);
        e
    }

    fn renumber(&mut self, e: &mut Expr) {
        e.id = self.fresh();
        match &mut e.kind {
            ExprKind::Num(..) | ExprKind::Str(_) | ExprKind::Var(_) | ExprKind::Func(_) => {}
            ExprKind::Call(_, args) => args.iter_mut().for_each(|a| self.renumber(a)),
            ExprKind::CallPtr(f, args) => {
                self.renumber(f);
                args.iter_mut().for_each(|a| self.renumber(a));
            }
            ExprKind::Unary(_, x) | ExprKind::AddrOf(x) | ExprKind::Deref(x) | ExprKind::SizeofExpr(x) => {
                self.renumber(x)
            }
            ExprKind::Member { base, .. } => self.renumber(base),
            ExprKind::IncDec { target, .. } => self.renumber(target),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
                self.renumber(a);
                self.renumber(b);
            }
            ExprKind::Cond(c, a, b) => {
                self.renumber(c);
                self.renumber(a);
                self.renumber(b);
            }
            ExprKind::Cast(t, x) => {
                t.dims.iter_mut().flatten().for_each(|d| self.renumber(d));
                self.renumber(x);
            }
            ExprKind::SizeofType(t) => t.dims.iter_mut().flatten().for_each(|d| self.renumber(d)),
        }
    }

    /// The `*`s of a declarator, each optionally followed by qualifiers (`int *const p`):
    /// their number, and whether the last makes the declared pointer itself `const`.
    pub(super) fn pointer_stars(&mut self) -> (u32, bool) {
        let (mut n, mut konst) = (0, false);
        while self.eat("*") {
            n += 1;
            konst = false;
            while let Tok::Ident(w) = self.peek() {
                match w.as_str() {
                    "const" => konst = true,
                    "volatile" => {}
                    _ => break,
                }
                self.next();
            }
        }
        (n, konst)
    }
}
