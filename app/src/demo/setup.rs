//! The ways a demo can start: the metadata's examples, crossed with every
//! choice input (sort: algorithm × input), plus a random one where a random
//! input makes sense (sort: shuffled values, snake: a seed).

use loom_core::frontend::demos::Meta;
use std::ops::RangeInclusive;

/// Name of the setup holding a puzzle the user typed.
pub const OWN_PUZZLE: &str = "Your puzzle";

/// One entry of the example picker.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub name: String,
    /// Choice inputs and the value picked (e.g. `algo` = 1).
    choices: Vec<(String, i64)>,
    base: Base,
}

#[derive(Clone, Debug, PartialEq)]
enum Base {
    /// Global → all of its words.
    Fixed(Vec<(String, Vec<i64>)>),
    /// Globals drawn at random when prepared: `(name, length, value range)`.
    Random(Vec<(String, usize, RangeInclusive<i64>)>),
}

impl Setup {
    pub fn fixed(name: &str, writes: Vec<(String, Vec<i64>)>) -> Setup {
        Setup { name: name.to_owned(), choices: Vec::new(), base: Base::Fixed(writes) }
    }

    /// The writes to make, drawing random values from `random` (xorshift64 state).
    pub fn writes(&self, random: &mut u64) -> Vec<(String, Vec<i64>)> {
        let mut out = match &self.base {
            Base::Fixed(w) => w.clone(),
            Base::Random(vars) => {
                vars.iter().map(|(name, len, range)| (name.clone(), draw(random, *len, range))).collect()
            }
        };
        out.extend(self.choices.iter().map(|(name, v)| (name.clone(), vec![*v])));
        out
    }
}

/// Every setup the metadata offers, in picker order.
pub fn setups(meta: &Meta) -> Vec<Setup> {
    let mut bases: Vec<(String, Base)> = meta
        .examples
        .iter()
        .map(|e| (e.name.clone(), Base::Fixed(e.writes.iter().map(|(k, v)| (k.clone(), v.clone())).collect())))
        .collect();
    if let Some(random) = random_base(meta) {
        bases.push(random);
    }
    // Cross with each choice input: every (label, value) list multiplies the setups.
    let mut out: Vec<Setup> = bases.into_iter().map(|(name, base)| Setup { name, choices: Vec::new(), base }).collect();
    for input in meta.inputs.iter().filter(|i| i.when == "start" && !i.choices.is_empty()) {
        out = input
            .choices
            .iter()
            .flat_map(|c| {
                out.iter().map(move |s| {
                    let mut s = s.clone();
                    s.name = format!("{} · {}", c.label, s.name);
                    s.choices.push((input.name.clone(), c.value));
                    s
                })
            })
            .collect();
    }
    out
}

/// A random variant of the first example (same globals, same lengths; none
/// if it writes nothing):
/// bars get values 1..=height, anything else a word 0..=255. Sudoku has none
/// (a random grid is almost never a puzzle).
fn random_base(meta: &Meta) -> Option<(String, Base)> {
    let name = match meta.display.kind.as_str() {
        "bars" => "Random shuffle",
        "grid" => "Random seed",
        _ => return None,
    };
    let first = meta.examples.first().filter(|e| !e.writes.is_empty())?;
    let vars = first
        .writes
        .iter()
        .map(|(var, words)| {
            let range = if *var == meta.display.var { 1..=meta.display.height as i64 } else { 0..=255 };
            (var.clone(), words.len(), range)
        })
        .collect();
    Some((name.to_owned(), Base::Random(vars)))
}

/// `len` values drawn uniformly enough from `range`.
fn draw(state: &mut u64, len: usize, range: &RangeInclusive<i64>) -> Vec<i64> {
    let span = (range.end() - range.start() + 1) as u64;
    (0..len).map(|_| range.start() + (next(state) % span) as i64).collect()
}

/// xorshift64: plenty for shuffles and seeds.
fn next(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

/// Replaces the setup of the same name, or appends it; returns its index.
pub fn put(setups: &mut Vec<Setup>, setup: Setup) -> usize {
    match setups.iter().position(|s| s.name == setup.name) {
        Some(i) => {
            setups[i] = setup;
            i
        }
        None => {
            setups.push(setup);
            setups.len() - 1
        }
    }
}
