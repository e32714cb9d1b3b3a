//! Located diagnostics, shared by the assembler and the C compiler, rendered
//! as text with the source line and a caret (like rustc) for the CLI; the UI
//! draws the same spans as squiggles.

use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A 1-based line and a 1-based, half-open column range `[col, end_col)` on it
/// (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub line: u32,
    pub col: u32,
    pub end_col: u32,
}

impl Span {
    pub fn new(line: u32, col: u32, end_col: u32) -> Span {
        Span { line, col, end_col: end_col.max(col + 1) }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Extra facts ("`x` was declared here", "the cycle is f → g → f").
    pub notes: Vec<String>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), span, notes: Vec::new(), hint: None }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(span, message) }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the diagnostic against its source, rustc style:
    ///
    /// ```text
    /// error: undefined variable `y`
    ///  --> prog.c:3:9
    ///   |
    /// 3 |     x = y + 1;
    ///   |         ^
    ///   = hint: declare it first: `int y;`
    /// ```
    pub fn render(&self, file: &str, source: &str) -> String {
        let mut out = String::new();
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let Span { line, col, end_col } = self.span;
        let _ = writeln!(out, "{sev}: {}", self.message);
        let num = line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "{pad}--> {file}:{line}:{col}");
        if let Some(text) = source.lines().nth(line.saturating_sub(1) as usize) {
            let (text, caret, width) = window(&text.replace('\t', " "), col, end_col);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{num} | {text}");
            let _ = writeln!(out, "{pad} | {}{}", " ".repeat(caret), "^".repeat(width));
        }
        for n in &self.notes {
            let _ = writeln!(out, "{pad} = note: {n}");
        }
        if let Some(h) = &self.hint {
            let _ = writeln!(out, "{pad} = hint: {h}");
        }
        out
    }
}

/// Characters of a source line shown around the caret; a longer line is cut to this
/// window with `…` at each cut end, so a diagnostic on a 10,000-character line stays readable.
const WINDOW: usize = 100;

/// The part of `text` to print, the caret's offset in it, and the caret's width, for the
/// 1-based half-open column range `[col, end_col)`.
fn window(text: &str, col: u32, end_col: u32) -> (String, usize, usize) {
    let chars: Vec<char> = text.chars().collect();
    let start = (col.max(1) - 1) as usize;
    let width = (end_col.saturating_sub(col)).max(1) as usize;
    if chars.len() <= WINDOW {
        return (text.to_string(), start, width);
    }
    let width = width.min(WINDOW / 2);
    // The caret sits about a third into the window, so the text leading to it shows.
    let from = start.saturating_sub(WINDOW / 3).min(chars.len().saturating_sub(WINDOW));
    let to = (from + WINDOW).min(chars.len());
    let mut shown: String = chars[from..to].iter().collect();
    let mut caret = start - from.min(start);
    if from > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if to < chars.len() {
        shown.push('…');
    }
    (shown, caret, width)
}

/// Renders every diagnostic, separated by blank lines.
pub fn render_all(diags: &[Diagnostic], file: &str, source: &str) -> String {
    diags.iter().map(|d| d.render(file, source)).collect::<Vec<_>>().join("\n")
}
