//! C expressions a debugger evaluates (`print`, a breakpoint's condition, a watch):
//! numbers, characters, variables, `a[i]`, `s.x`, `p->x`, `*p`, unary `- ! ~`, the
//! arithmetic, comparison, bitwise and logical operators with C's precedence. No side
//! effects: there is no assignment, increment or call to parse. A word read from memory
//! is the value of its type (an 8-bit `unsigned` word −1 is 255), as C reads it.

use crate::debuginfo::{CType, Field, Home};

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(i64),
    Var(String),
    Index(Box<Expr>, Box<Expr>),
    /// `s.x` (`arrow`: `p->x`).
    Member {
        of: Box<Expr>,
        name: String,
        arrow: bool,
    },
    Unary(char, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
}

/// A value: a number, a pointer (its target's type and slot) or an aggregate (an array
/// before it decays, or a structure: its type and first slot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Ptr(CType, i64),
    Array(CType, usize),
}

/// What evaluation reads: variables by name, memory words as the frame sees them, the
/// structures' members, and the machine's word size (an integer type's width is clipped to it).
pub trait Env {
    fn var(&self, name: &str) -> Option<(CType, Home)>;
    fn word(&self, slot: usize) -> Option<i32>;
    /// The member `name` of structure `id` (the debug information's).
    fn member(&self, id: u32, name: &str) -> Option<Field>;
    fn word_bits(&self) -> u32;
}

/// Binary operators by precedence, loosest first.
const LEVELS: &[&[&str]] =
    &[&["||"], &["&&"], &["|"], &["^"], &["&"], &["==", "!="], &["<=", ">=", "<", ">"], &["+", "-"], &["*", "/", "%"]];

pub fn parse(text: &str) -> Result<Expr, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let e = p.binary(0)?;
    p.skip();
    if p.i < p.s.len() {
        return Err(format!("unexpected `{}`", &text[p.i..]));
    }
    Ok(e)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, t: &str) -> bool {
        self.skip();
        if self.s[self.i..].starts_with(t.as_bytes()) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn binary(&mut self, level: usize) -> Result<Expr, String> {
        let Some(ops) = LEVELS.get(level) else { return self.unary() };
        let mut left = self.binary(level + 1)?;
        'more: loop {
            for &op in *ops {
                // `&` is not `&&`, `|` not `||`, `<` not `<=`.
                let longer = ["&&", "||", "<=", ">=", "==", "!="].iter().any(|l| l.len() > op.len() && self.peek(l));
                if !longer && self.eat(op) {
                    let right = self.binary(level + 1)?;
                    left = Expr::Binary(op, Box::new(left), Box::new(right));
                    continue 'more;
                }
            }
            return Ok(left);
        }
    }

    fn peek(&mut self, t: &str) -> bool {
        self.skip();
        self.s[self.i..].starts_with(t.as_bytes())
    }

    fn unary(&mut self) -> Result<Expr, String> {
        for op in ['-', '!', '~', '*'] {
            if !self.peek("!=") && self.eat(&op.to_string()) {
                return Ok(Expr::Unary(op, Box::new(self.unary()?)));
            }
        }
        let mut e = self.primary()?;
        loop {
            if self.eat("[") {
                let i = self.binary(0)?;
                if !self.eat("]") {
                    return Err("missing `]`".into());
                }
                e = Expr::Index(Box::new(e), Box::new(i));
                continue;
            }
            let arrow = self.eat("->");
            if !arrow && !self.eat(".") {
                return Ok(e);
            }
            self.skip();
            let start = self.i;
            while self.s.get(self.i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                self.i += 1;
            }
            let name = std::str::from_utf8(&self.s[start..self.i]).expect("ASCII").to_string();
            if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
                return Err(format!("a member's name is expected after `{}`", if arrow { "->" } else { "." }));
            }
            e = Expr::Member { of: Box::new(e), name, arrow };
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        self.skip();
        if self.eat("(") {
            let e = self.binary(0)?;
            return if self.eat(")") { Ok(e) } else { Err("missing `)`".into()) };
        }
        let start = self.i;
        let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
        if self.s.get(self.i) == Some(&b'\'') {
            let (c, end) = match self.s.get(self.i + 1..self.i + 4) {
                Some([b'\\', c, b'\'']) => (escape(*c).ok_or("unknown escape")?, 4),
                _ => match self.s.get(self.i + 1..self.i + 3) {
                    Some([c, b'\'']) => (*c, 3),
                    _ => return Err("a character is written 'a'".into()),
                },
            };
            self.i += end;
            return Ok(Expr::Num(i64::from(c)));
        }
        while self.s.get(self.i).is_some_and(word) {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).expect("ASCII");
        match text.bytes().next() {
            None => Err("expected a value".into()),
            Some(b'0'..=b'9') => {
                let n = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(h) => i64::from_str_radix(h, 16),
                    None => text.parse(),
                };
                n.map(Expr::Num).map_err(|_| format!("`{text}` is not a number"))
            }
            Some(_) => Ok(Expr::Var(text.to_string())),
        }
    }
}

fn escape(c: u8) -> Option<u8> {
    Some(match c {
        b'n' => b'\n',
        b't' => b'\t',
        b'0' => 0,
        b'\\' | b'\'' | b'"' => c,
        _ => return None,
    })
}

pub fn eval(e: &Expr, env: &dyn Env) -> Result<Value, String> {
    Ok(match e {
        Expr::Num(n) => Value::Int(*n),
        Expr::Var(name) => {
            let (ty, home) = env.var(name).ok_or_else(|| format!("no variable `{name}` here"))?;
            match home {
                Home::Const(v) => word_value(&ty, v, env),
                Home::Slot(s) => load(&ty, s, env)?,
            }
        }
        Expr::Member { of, name, arrow } => {
            let (ty, slot) = match (eval(of, env)?, arrow) {
                (Value::Array(t @ CType::Struct { .. }, s), false) => (t, s),
                (v, true) => match decay(v) {
                    Value::Ptr(t @ CType::Struct { .. }, p) => (t, target(p)?),
                    _ => return Err(format!("`->{name}` needs a pointer to a structure")),
                },
                _ => return Err(format!("`.{name}` needs a structure (through a pointer, `->{name}`)")),
            };
            let member = match &ty {
                CType::Struct { id, .. } => env.member(*id, name),
                _ => None,
            };
            let m = member.ok_or_else(|| format!("`{}` has no member `{name}`", ty.describe()))?;
            load(&m.ty, slot + m.offset, env)?
        }
        Expr::Index(a, i) => {
            let sum = Expr::Binary("+", a.clone(), i.clone());
            deref(eval(&sum, env)?, env)?
        }
        Expr::Unary('*', x) => deref(eval(x, env)?, env)?,
        Expr::Unary(op, x) => {
            let v = int(eval(x, env)?)?;
            Value::Int(match op {
                '-' => v.wrapping_neg(),
                '!' => i64::from(v == 0),
                _ => !v,
            })
        }
        Expr::Binary(op @ ("&&" | "||"), a, b) => {
            let a = truth(eval(a, env)?);
            // Short-circuit as C does: the right side may not be readable.
            let v = if *op == "&&" { a && truth(eval(b, env)?) } else { a || truth(eval(b, env)?) };
            Value::Int(i64::from(v))
        }
        Expr::Binary(op, a, b) => binary(op, decay(eval(a, env)?), decay(eval(b, env)?))?,
    })
}

/// Whether a value is true in C's sense.
pub fn truth(v: Value) -> bool {
    match decay(v) {
        Value::Int(n) | Value::Ptr(_, n) => n != 0,
        Value::Array(..) => true,
    }
}

fn word_value(ty: &CType, v: i32, env: &dyn Env) -> Value {
    match ty {
        CType::Ptr(t) => Value::Ptr((**t).clone(), i64::from(v)),
        CType::Int(t) => Value::Int(t.convert(i64::from(v), env.word_bits())),
        _ => Value::Int(i64::from(v)),
    }
}

fn load(ty: &CType, slot: usize, env: &dyn Env) -> Result<Value, String> {
    if let CType::Array(..) | CType::Struct { .. } = ty {
        return Ok(Value::Array(ty.clone(), slot));
    }
    let v = env.word(slot).ok_or_else(|| format!("slot {slot} cannot be read here"))?;
    Ok(word_value(ty, v, env))
}

fn decay(v: Value) -> Value {
    match v {
        Value::Array(CType::Array(t, _), s) => Value::Ptr(*t, s as i64),
        v => v,
    }
}

fn deref(v: Value, env: &dyn Env) -> Result<Value, String> {
    match decay(v) {
        Value::Ptr(t, p) => {
            let slot = target(p)?;
            load(&t, slot, env)
        }
        _ => Err("only a pointer or an array can be dereferenced".into()),
    }
}

/// The slot a pointer points to, to read through it: not `NULL`'s (slot 0, where no
/// object is: C's null pointer), nor below memory.
fn target(p: i64) -> Result<usize, String> {
    match usize::try_from(p) {
        Ok(0) => Err("cannot read through a NULL pointer".into()),
        Ok(slot) => Ok(slot),
        Err(_) => Err(format!("{p} points outside memory")),
    }
}

fn int(v: Value) -> Result<i64, String> {
    match decay(v) {
        Value::Int(n) => Ok(n),
        _ => Err("a number was expected, not a pointer".into()),
    }
}

fn binary(op: &str, a: Value, b: Value) -> Result<Value, String> {
    let scaled = |t: &CType, p: i64, n: i64| p + n * t.words() as i64;
    match (op, &a, &b) {
        ("+", Value::Ptr(t, p), Value::Int(n)) | ("+", Value::Int(n), Value::Ptr(t, p)) => {
            return Ok(Value::Ptr(t.clone(), scaled(t, *p, *n)))
        }
        ("-", Value::Ptr(t, p), Value::Int(n)) => return Ok(Value::Ptr(t.clone(), scaled(t, *p, -n))),
        ("-", Value::Ptr(t, p), Value::Ptr(_, q)) => return Ok(Value::Int((p - q) / t.words().max(1) as i64)),
        _ => {}
    }
    let word = |v: &Value| match v {
        Value::Int(n) | Value::Ptr(_, n) => Ok(*n),
        Value::Array(CType::Struct { .. }, _) => Err("a structure is not a number".to_string()),
        Value::Array(..) => Err("an array is not a number".to_string()),
    };
    let (x, y) = (word(&a)?, word(&b)?);
    let nonzero = |y: i64| if y == 0 { Err("division by zero".to_string()) } else { Ok(y) };
    Ok(Value::Int(match op {
        "+" => x.wrapping_add(y),
        "-" => x.wrapping_sub(y),
        "*" => x.wrapping_mul(y),
        "/" => x.wrapping_div(nonzero(y)?),
        "%" => x.wrapping_rem(nonzero(y)?),
        "==" => i64::from(x == y),
        "!=" => i64::from(x != y),
        "<" => i64::from(x < y),
        "<=" => i64::from(x <= y),
        ">" => i64::from(x > y),
        ">=" => i64::from(x >= y),
        "&" => x & y,
        "|" => x | y,
        _ => x ^ y,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctypes::IntTy;

    struct Mem;
    impl Env for Mem {
        fn var(&self, name: &str) -> Option<(CType, Home)> {
            match name {
                "n" => Some((CType::Int(IntTy::Int), Home::Slot(0))),
                "a" => Some((CType::Array(Box::new(CType::Int(IntTy::Int)), 3), Home::Slot(1))),
                "p" => Some((CType::Ptr(Box::new(CType::Int(IntTy::Int))), Home::Slot(4))),
                // `union { int i; unsigned char c; } u` at slot 5, and a pointer to it.
                "u" => Some((UNION.clone(), Home::Slot(5))),
                "q" => Some((CType::Ptr(Box::new(UNION.clone())), Home::Slot(6))),
                _ => None,
            }
        }
        fn word(&self, slot: usize) -> Option<i32> {
            [5, 10, 20, 30, 2, -1, 5].get(slot).copied()
        }
        fn member(&self, id: u32, name: &str) -> Option<Field> {
            let ty = match name {
                "i" => CType::Int(IntTy::Int),
                "c" => CType::Int(IntTy::UChar),
                _ => return None,
            };
            (id == 7).then(|| Field { name: name.into(), ty, offset: 0 })
        }
        fn word_bits(&self) -> u32 {
            32
        }
    }

    static UNION: std::sync::LazyLock<CType> =
        std::sync::LazyLock::new(|| CType::Struct { id: 7, name: "u".into(), words: 1, union: true });

    fn value(text: &str) -> Result<Value, String> {
        eval(&parse(text)?, &Mem)
    }

    #[test]
    fn c_expressions_evaluate_with_cs_precedence_and_pointers() {
        assert_eq!(value("n == 5 && a[1] - 1 > 18"), Ok(Value::Int(1)));
        assert_eq!(value("1 + 2 * 3 < 7 | 8"), Ok(Value::Int(8)));
        assert_eq!(value("*p + a[2] + 'a'"), Ok(Value::Int(20 + 30 + 97)));
        assert_eq!(value("*(a + 1) != a[0]"), Ok(Value::Int(1)));
        assert_eq!(value("-n % 3"), Ok(Value::Int(-2)));
        assert_eq!(value("!n || x"), Err("no variable `x` here".into()));
        assert_eq!(value("n || x"), Ok(Value::Int(1)), "short-circuit");
        assert!(parse("n = 1").is_err() && parse("a[1").is_err() && value("n / 0").is_err());
    }

    #[test]
    fn members_read_the_words_as_their_own_type() {
        assert_eq!(value("u.i"), Ok(Value::Int(-1)));
        assert_eq!(value("u.c"), Ok(Value::Int(255)), "an unsigned char reads −1's low byte");
        assert_eq!(value("q->c == (*q).c"), Ok(Value::Int(1)));
        assert_eq!(value("u.x"), Err("`union u` has no member `x`".into()));
        assert_eq!(value("n.i"), Err("`.i` needs a structure (through a pointer, `->i`)".into()));
        assert_eq!(value("u->i"), Err("`->i` needs a pointer to a structure".into()));
        assert_eq!(value("u + 1"), Err("a structure is not a number".into()));
        assert!(parse("u.").is_err() && parse("q->1").is_err());
        assert_eq!(value("(q - 5)->i"), Err("cannot read through a NULL pointer".into()));
        assert_eq!(value("*(p - 2)"), Err("cannot read through a NULL pointer".into()));
    }
}
