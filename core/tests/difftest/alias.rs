//! What a name may denote in the function being written. A pointer parameter
//! (`*p`) or an array parameter (`v[i]`) stands for whatever its callers pass:
//! any writable global of its shape, or another parameter of that shape (one
//! call may pass `&g` twice, or `a` and `a + 1`). Its callers are written
//! later, so the generator does not know which object it gets; the footprint
//! of an expression therefore records an access to such a name as an access
//! to every object it may denote (and an access to a global as one to every
//! parameter that may point at it), which keeps `++*p` and `g = …` out of one
//! expression when `p` may be `&g`. Locals cannot be named by a callee and
//! never alias one another; other names denote themselves only.

use super::scope::Names;
use std::collections::BTreeMap;

/// The may-alias relation of one function's names (symmetric, not transitive:
/// two globals `p` may point at do not alias each other).
#[derive(Clone, Debug, Default)]
pub struct Aliases(BTreeMap<String, Names>);

/// A name the alias analysis is told about: a writable global or a parameter
/// (what a caller may pass for a parameter's kind decides its shape).
pub struct Object<'a> {
    pub name: &'a str,
    pub shape: Shape,
    /// A pointer or array parameter: it denotes a caller's object.
    pub indirect: bool,
}

/// Objects of different shapes never alias: `int *p` receives `&x` of a
/// scalar, `int v[]` an array or `a + k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Scalar,
    Array,
}

impl Aliases {
    /// The relation for a function whose visible writable globals and
    /// parameters are `objects`: each indirect one aliases every other
    /// object of its shape.
    pub fn new(objects: &[Object]) -> Aliases {
        let mut map: BTreeMap<String, Names> = BTreeMap::new();
        for a in objects.iter().filter(|o| o.indirect) {
            for b in objects.iter().filter(|b| b.shape == a.shape && b.name != a.name) {
                map.entry(a.name.to_string()).or_default().insert(b.name.to_string());
                map.entry(b.name.to_string()).or_default().insert(a.name.to_string());
            }
        }
        Aliases(map)
    }

    /// Makes every two of `names` aliases (the members of a union).
    pub fn join(&mut self, names: &[String]) {
        for a in names {
            for b in names.iter().filter(|b| *b != a) {
                self.0.entry(a.clone()).or_default().insert(b.clone());
            }
        }
    }

    /// `name` and every name that may denote the same object.
    pub fn of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        std::iter::once(name).chain(self.0.get(name).into_iter().flatten().map(String::as_str))
    }

    /// Inserts `name` and its aliases into `set`.
    pub fn insert(&self, set: &mut Names, name: &str) {
        set.extend(self.of(name).map(str::to_string));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(name: &str, shape: Shape, indirect: bool) -> Object<'_> {
        Object { name, shape, indirect }
    }

    #[test]
    fn a_pointer_aliases_scalars_and_other_pointers_only() {
        let a = Aliases::new(&[
            obj("g1", Shape::Scalar, false),
            obj("g2", Shape::Scalar, false),
            obj("a3", Shape::Array, false),
            obj("p4", Shape::Scalar, true),
            obj("p5", Shape::Scalar, true),
            obj("v6", Shape::Array, true),
        ]);
        let of = |n| a.of(n).collect::<Vec<_>>();
        assert_eq!(of("p4"), ["p4", "g1", "g2", "p5"]);
        assert_eq!(of("g1"), ["g1", "p4", "p5"]);
        assert_eq!(of("a3"), ["a3", "v6"]);
        assert_eq!(of("v6"), ["v6", "a3"]);
        assert_eq!(of("x7"), ["x7"]);
    }
}
