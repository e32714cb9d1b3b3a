//! Bugs found by this tester and not fixed yet on `main`. The generator steers
//! around each one (so the CI budget stays green) while its regression case in
//! `tests/c/regress/` is listed in `KNOWN_FAILING`; `--no-avoid` generates them
//! anyway. Delete an entry when its fix lands (the corpus test then insists
//! the case passes).
//!
//! None is known today: the last four (`t = t && e` emitting nothing, a fault
//! leaving a partial value in an assignment's target, `-0xFF` rejected, a
//! constant-false `assert` halting normally) were fixed with their regression
//! cases. A new one adds a predicate here, a check in `present`, and the
//! generator's `avoid_known` test at the place that writes the pattern.

use super::program::Program;

/// Whether `p` contains a known bug's pattern (the reducer keeps away from
/// them, so a new divergence does not shrink into an old one).
pub fn present(_p: &Program) -> bool {
    false
}
