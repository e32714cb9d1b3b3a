//! Loading a program: WAT text is turned into a binary by the `wat` crate; a
//! binary is validated and decoded by `wasmparser`, then lowered to flat code
//! (`lower.rs`). Anything outside the supported subset is an error located in
//! the input: a line and column in WAT (`locate.rs`), a byte offset in a binary.

mod locate;
mod lower;

use crate::diag::{Diagnostic, Span};
use crate::trace::code::Code;
use std::fmt;

/// A load error: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub message: String,
    /// Byte offset in the binary (for WAT input, in the binary `wat` made).
    pub offset: Option<usize>,
    /// The function (index among all functions) and operator (index in its
    /// body) the error is about, when it is about one.
    pub func: Option<u32>,
    pub op: Option<u32>,
    /// Where in the WAT text (`None` for binary input).
    pub span: Option<Span>,
}

impl LoadError {
    pub(crate) fn new(message: impl Into<String>, offset: Option<usize>) -> LoadError {
        LoadError { message: message.into(), offset, func: None, op: None, span: None }
    }

    /// The error as text: rustc style against the WAT source when there is a
    /// span, else with the byte offset and the function and operator.
    pub fn render(&self, file: &str, wat_source: Option<&str>) -> String {
        match (self.span, wat_source) {
            (Some(span), Some(src)) => Diagnostic::error(span, self.message.clone()).render(file, src),
            _ => format!("error: {}\n --> {file}{}", self.message, self.where_in_binary()),
        }
    }

    fn where_in_binary(&self) -> String {
        let mut s = String::new();
        if let Some(o) = self.offset {
            s += &format!(" at byte offset {o:#x}");
        }
        if let (Some(f), Some(op)) = (self.func, self.op) {
            s += &format!(" (function {f}, instruction {op})");
        }
        s
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some(s) => write!(f, "{}:{}: {}", s.line, s.col, self.message),
            None => write!(f, "{}{}", self.message, self.where_in_binary()),
        }
    }
}

/// Loads WAT text.
pub fn load_wat(text: &str) -> Result<Code, LoadError> {
    let bytes = wat::parse_str(text).map_err(|e| locate::wat_syntax_error(text, &e.to_string()))?;
    lower::lower(&bytes).map_err(|e| locate::in_wat(e, &bytes, text))
}

/// Loads a WebAssembly binary.
pub fn load_wasm(bytes: &[u8]) -> Result<Code, LoadError> {
    lower::lower(bytes).map_err(|e| locate::in_binary(e, bytes))
}

/// Loads either: a binary starts with the magic `\0asm`, anything else must be
/// WAT text in UTF-8.
pub fn load(input: &[u8]) -> Result<Code, LoadError> {
    if input.starts_with(b"\0asm") {
        return load_wasm(input);
    }
    let text = std::str::from_utf8(input)
        .map_err(|e| LoadError::new(format!("neither a wasm binary nor UTF-8 WAT text: {e}"), Some(e.valid_up_to())))?;
    load_wat(text)
}
