//! Structures: each `struct`'s sizes (words in memory, and gcc's bytes and alignment for
//! `sizeof`), its members with their types and word offsets, and member access (`s.x`, `p->x`).
//! Sizes come first and need no member types, so a member may point to its own structure.

use super::Checker;
use crate::compiler::ast::*;
use crate::compiler::resolved::{StructTy, Ty};
use crate::diag::{Diagnostic, Span};

/// `x` rounded up to a multiple of `a` (gcc's padding).
fn round_up(x: i64, a: i64) -> i64 {
    (x + a - 1) / a * a
}

/// A member: its name, type and offset in words.
#[derive(Clone)]
pub struct Member {
    pub name: String,
    pub ty: Ty,
    pub offset: usize,
}

/// What the checker has worked out about a structure so far.
#[derive(Clone)]
pub enum Layout {
    /// Being sized: meeting it again means it contains itself.
    Sizing,
    Sized(StructTy),
    Done(StructTy, Vec<Member>),
}

impl Checker<'_> {
    fn struct_name(&self, id: usize) -> String {
        self.struct_defs[id].tag.clone().unwrap_or_else(|| "(anonymous)".into())
    }

    /// The type of `struct` number `id`, sized (its members' types are worked out by [`Self::members`]).
    pub(super) fn struct_ty(&mut self, id: usize) -> StructTy {
        match self.layouts.get(&id) {
            Some(Layout::Sized(t) | Layout::Done(t, _)) => return t.clone(),
            Some(Layout::Sizing) => return self.incomplete(id),
            None => {}
        }
        let Some(members) = self.struct_defs[id].members.clone() else { return self.incomplete(id) };
        self.layouts.insert(id, Layout::Sizing);
        let word = self.cfg.word_bits;
        let union = self.struct_defs[id].union;
        let (mut words, mut bytes, mut align) = (0, 0i64, 1i64);
        let mut types = Vec::new();
        for m in &members {
            let ty = self.decl_type(m);
            let a = ty.align(word).max(1);
            align = align.max(a);
            if union {
                bytes = bytes.max(ty.size(word));
                words = words.max(ty.words());
            } else {
                bytes = round_up(bytes, a) + ty.size(word);
                words += ty.words();
            }
            types.push(ty);
        }
        if union && types.iter().any(|t| *t != types[0]) {
            for (m, ty) in members.iter().zip(&types) {
                if let Some(bad) = self.narrow_word(ty) {
                    let msg = format!(
                        "the union member `{}` holds `{}`, which cannot share storage with other types here",
                        m.name,
                        bad.describe()
                    );
                    self.sink.push(Diagnostic::error(m.span, msg).with_note(
                        "memory holds one value per slot, not bytes: members of different types share storage \
                         when every word of them is a full-width integer (`int`, `unsigned`, `long`, arrays and \
                         structures of them)",
                    ));
                }
            }
        }
        let name = self.struct_name(id);
        let t = StructTy { id, name, words, bytes: round_up(bytes, align), align, complete: true, union };
        self.layouts.insert(id, Layout::Sized(t.clone()));
        t
    }

    /// A `struct` only named so far: pointers to it are fine, objects of it are not.
    fn incomplete(&self, id: usize) -> StructTy {
        let union = self.struct_defs[id].union;
        StructTy { id, name: self.struct_name(id), words: 1, bytes: 0, align: 1, complete: false, union }
    }

    /// A word of `ty` that is not a full-width integer (a `char`, a pointer…): it cannot share
    /// a union's storage with another type, since a slot holds a value, not its bytes.
    fn narrow_word(&mut self, ty: &Ty) -> Option<Ty> {
        let word = self.cfg.word_bits;
        match ty {
            Ty::Int(t) if *t != crate::ctypes::IntTy::Bool && t.bits(word) == word => None,
            Ty::Array(t, _) => self.narrow_word(t),
            Ty::Struct(s) => {
                let s = s.clone();
                self.members(&s).iter().find_map(|m| self.narrow_word(&m.ty))
            }
            Ty::Error => None,
            t => Some(t.clone()),
        }
    }

    /// The members of a complete structure, with their types and offsets.
    pub(super) fn members(&mut self, s: &StructTy) -> Vec<Member> {
        if let Some(Layout::Done(_, m)) = self.layouts.get(&s.id) {
            return m.clone();
        }
        let t = self.struct_ty(s.id);
        let decls = self.struct_defs[s.id].members.clone().unwrap_or_default();
        let mut offset = 0;
        let mut out = Vec::new();
        for d in &decls {
            let ty = self.decl_type(d);
            let words = ty.words();
            out.push(Member { name: d.name.clone(), ty, offset });
            if !s.union {
                offset += words;
            }
        }
        self.layouts.insert(s.id, Layout::Done(t, out.clone()));
        out
    }

    /// Every structure's name, whether it is a `union`, and members, by its number, for the
    /// debug information: of those the program used, after checking it without errors
    /// (their members' types are known then); none for the others.
    pub(super) fn struct_members(&mut self) -> Vec<(String, bool, Vec<Member>)> {
        let clean = !self.sink.iter().any(Diagnostic::is_error);
        (0..self.struct_defs.len())
            .map(|id| {
                let members = match self.layouts.get(&id) {
                    Some(Layout::Sized(t) | Layout::Done(t, _)) if clean && t.complete => self.members(&t.clone()),
                    _ => Vec::new(),
                };
                (self.struct_name(id), self.struct_defs[id].union, members)
            })
            .collect()
    }

    /// Reports an object of an incomplete `struct` type.
    pub(super) fn complete_object(&mut self, ty: &Ty, span: Span, name: &str) {
        if let Ty::Struct(s) = ty.element_base() {
            if !s.complete {
                let msg = format!("`{name}` is a `struct {}`, which has no members yet", s.name);
                self.sink.push(
                    Diagnostic::error(span, msg)
                        .with_hint(format!("define it first: `struct {} {{ int x; }};`", s.name)),
                );
            }
        }
    }

    /// `s.name` or `p->name`: the member's type; its offset is recorded for code generation.
    pub(super) fn member(&mut self, e: &Expr, base: &Expr, name: &str, arrow: bool) -> Ty {
        let bt = if arrow {
            self.through_pointer();
            match self.rvalue(base) {
                Ty::Ptr(t) => *t,
                Ty::Error => return Ty::Error,
                t => {
                    let msg = format!("`->` needs a pointer to a `struct`, not `{}`", t.describe());
                    self.err(base.span, msg);
                    return Ty::Error;
                }
            }
        } else {
            let t = self.expr(base, true);
            if !matches!(
                base.kind,
                ExprKind::Var(_)
                    | ExprKind::Index(..)
                    | ExprKind::Deref(_)
                    | ExprKind::Member { .. }
                    | ExprKind::Call(..)
            ) && t.is_struct()
            {
                self.err(base.span, "a member of this expression is unsupported: name a variable, an element or `*p`");
                return Ty::Error;
            }
            t
        };
        let s = match bt {
            Ty::Struct(s) if s.complete => s,
            Ty::Struct(s) => {
                self.err(e.span, format!("`struct {}` has no members yet", s.name));
                return Ty::Error;
            }
            Ty::Error => return Ty::Error,
            t => {
                let op = if arrow { "->" } else { "." };
                let msg = format!("`{op}{name}` needs a `struct`, not `{}`", t.describe());
                self.err(e.span, msg);
                return Ty::Error;
            }
        };
        match self.members(&s).into_iter().find(|m| m.name == name) {
            Some(m) => {
                self.member_offsets.insert(e.id, m.offset);
                m.ty
            }
            None => {
                self.err(e.span, format!("`struct {}` has no member `{name}`", s.name));
                Ty::Error
            }
        }
    }

    /// Refuses a `struct` where only a number or a pointer can stand.
    pub(super) fn not_struct(&mut self, t: &Ty, e: &Expr) -> bool {
        if let Ty::Struct(s) = t {
            let msg = format!("a `struct {}` cannot be used here: use one of its members", s.name);
            self.err(e.span, msg);
            return false;
        }
        true
    }
}
