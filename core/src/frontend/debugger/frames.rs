//! The call stack, read from memory with the compiler's debug information: the
//! activations from the innermost out, each with its function, its current line and the
//! variables it sees. Inlined calls are frames of their own (their caller is the
//! enclosing scope, at the call's line); a recursive function's caller is found by the
//! return-site number below its activation's base on the run-time stack, and that
//! caller's own words of the out-of-line region by the copies the call saved there.

use crate::debuginfo::{Call, DebugInfo, Home, Var};
use crate::image::Program;

/// How one activation reads the out-of-line region: the words `from .. from + count`
/// were saved at `at` by the call it made; the rest of the region is not its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Saved {
    from: usize,
    count: usize,
    at: usize,
}

/// One activation, innermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub func: String,
    /// The line it is at (the call's line in a caller); `None` in code without a line.
    pub line: Option<u32>,
    /// An output routine (collapsed by front ends).
    pub library: bool,
    /// Its variables, innermost scope first (parameters last), indices into the debug
    /// information's `vars`.
    pub vars: Vec<u32>,
    /// Where its result is when it returns.
    pub result: Option<Home>,
    /// An out-of-line (recursive) function: several of its activations may be on the stack.
    pub recursive: bool,
    saved: Option<Saved>,
}

impl Frame {
    /// The word at `slot` as this activation sees it (`None`: a word of the out-of-line
    /// region that its call did not save, so not its own).
    pub fn word(&self, slot: usize, mem: &dyn Fn(usize) -> i32) -> Option<i32> {
        self.home(slot).map(mem)
    }

    /// Where this activation's word `slot` is now: the slot itself, or the copy its call
    /// saved on the run-time stack (`None`: a word of the out-of-line region that is not
    /// its own).
    pub fn home(&self, slot: usize) -> Option<usize> {
        match self.saved {
            Some(s) if (s.from..s.from + s.count).contains(&slot) => Some(s.at + slot - s.from),
            Some(s) if slot >= s.from => None,
            _ => Some(slot),
        }
    }

    /// A scalar variable's value as this activation sees it.
    pub fn scalar(&self, var: &Var, mem: &dyn Fn(usize) -> i32) -> Option<i32> {
        match var.home {
            Home::Const(v) => Some(v),
            Home::Slot(s) => self.word(s, mem),
        }
    }
}

/// The call stack at instruction `k` (its index), innermost first; empty without debug
/// information or past the end. `mem` reads a memory slot.
pub fn frames(prog: &Program, k: usize, mem: &dyn Fn(usize) -> i32) -> Vec<Frame> {
    let d = &prog.debug;
    let Some(at) = d.at.get(k) else { return Vec::new() };
    let line = prog.locs.get(k).copied().flatten().map(|l| l.line);
    let sp = prog.symbol("$calls").map(|s| mem(s.slot) as i64);
    let mut base = sp.map(|sp| sp - i64::from(at.pushed));
    // Inside a call sequence, the activation's words of the region are its saved copies.
    let mut saved = at.call.and_then(|c| d.sites.get(c as usize)).and_then(|site| {
        let from = site.saved_from?;
        Some(Saved { from, count: site.saved, at: usize::try_from(base?).ok()? })
    });
    let (mut scope, mut line) = (Some(at.scope), line);
    let mut out: Vec<Frame> = Vec::new();
    // At most one frame per word of memory and per scope: a corrupted stack cannot loop.
    let limit = prog.config.mem_slots + d.scopes.len() + 1;
    let mut vars = Vec::new();
    while let Some(id) = scope {
        if out.len() > limit {
            break;
        }
        let s = &d.scopes[id as usize];
        vars.extend(s.vars.iter().rev());
        let Some(f) = &s.frame else {
            scope = s.parent;
            continue;
        };
        let library = matches!(f.call, Call::Library { .. });
        let recursive = matches!(f.call, Call::Outlined);
        let vars = std::mem::take(&mut vars);
        out.push(Frame { func: f.func.clone(), line, library, vars, result: f.result, recursive, saved });
        (scope, line) = match f.call {
            Call::Entry => break,
            Call::Inline { line } => (s.parent, Some(line)),
            Call::Library { site } => match d.site(id, mem(site)) {
                Some(site) => (Some(site.scope), Some(site.line)),
                None => break,
            },
            Call::Outlined => {
                let Some(b) = base.filter(|&b| b >= 1) else { break };
                let Some(site) = d.site(id, mem(b as usize - 1)) else { break };
                let at = b - 1 - site.saved as i64;
                saved = site.saved_from.map(|from| Saved { from, count: site.saved, at: at.max(0) as usize });
                base = Some(at);
                (Some(site.scope), Some(site.line))
            }
        };
    }
    out
}

/// The variable `name` as frame `f` of `frames` sees it: its own (innermost scope first),
/// then the globals.
pub fn lookup<'a>(d: &'a DebugInfo, frame: Option<&Frame>, name: &str) -> Option<&'a Var> {
    let own = frame.into_iter().flat_map(|f| f.vars.iter());
    own.chain(d.globals.iter()).map(|&v| &d.vars[v as usize]).find(|v| v.name == name)
}
