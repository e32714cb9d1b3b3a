// Pieces shared by the CodeMirror editor and the textarea fallback, so both
// expose exactly the same API: numeric handles, debouncing, and the
// normalisation of the JSON-able values the Rust side passes in.

export const CHANGE_DEBOUNCE_MS = 150;

// Editors live in a map keyed by small integers: wasm-bindgen passes numbers
// for free, while DOM objects would need a JsValue round trip on every call.
export function handleRegistry(kind) {
  const editors = new Map();
  let next = 1;
  return {
    add(editor) {
      editors.set(next, editor);
      return next++;
    },
    // An unknown handle is a caller bug, but throwing inside a wasm import
    // would abort the Rust caller mid-update; warn and let the call no-op.
    get(handle) {
      const editor = editors.get(handle);
      if (!editor) console.warn(`LoomEditor (${kind}): unknown handle ${handle}`);
      return editor;
    },
    remove(handle) {
      editors.delete(handle);
    },
  };
}

export function debounce(fn, ms) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

// Rust may hand over a JSON string (serde_json) or an already-built value.
export function fromJson(value) {
  return typeof value === "string" ? JSON.parse(value) : value;
}

// Sorted, deduplicated, positive integer line numbers; accepts arrays, typed
// arrays (a `&[u32]` from wasm-bindgen arrives as a Uint32Array) or JSON.
export function toLines(value) {
  const lines = Array.from(fromJson(value) ?? [], Number).filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(lines)].sort((a, b) => a - b);
}

export function sameLines(a, b) {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

const SEVERITIES = new Set(["error", "warning", "info", "hint"]);

// Accepts both the flat `{line, col, endCol, severity, message}` shape and the
// `loom_core::diag::Diagnostic` serialisation (`span: {line, col, end_col}`,
// `notes`, `hint`), so the Rust side can pass its diagnostics through as-is.
export function toDiagnostics(value) {
  return Array.from(fromJson(value) ?? [], (d) => {
    const span = d.span ?? d;
    const extra = [...(d.notes ?? []).map((n) => `note: ${n}`), ...(d.hint ? [`hint: ${d.hint}`] : [])];
    return {
      line: Math.max(1, Number(span.line) || 1),
      col: Math.max(0, Number(span.col) || 0),
      endCol: Math.max(0, Number(span.endCol ?? span.end_col) || 0),
      severity: SEVERITIES.has(d.severity) ? d.severity : "error",
      message: [String(d.message ?? ""), ...extra].join("\n"),
    };
  });
}

// Columns from the compiler count characters (code points); the DOM and
// CodeMirror count UTF-16 units. Converts a 1-based character column into a
// 0-based UTF-16 offset within `text`, clamped to the line.
export function columnOffset(text, col) {
  let offset = 0;
  for (let i = 1; i < col && offset < text.length; i++) offset += text.codePointAt(offset) > 0xffff ? 2 : 1;
  return Math.min(offset, text.length);
}

// Ctrl+Enter (Cmd+Enter on macOS) asks the page to compile; the debugger's keys an IDE's
// users expect work in the editor too: F10 steps over, Shift+F11 steps out, Ctrl+F10
// runs to the cursor's line.
export function keyCommand(event) {
  const ctrl = event.ctrlKey || event.metaKey;
  if (event.altKey) return null;
  if (ctrl && event.key === "Enter") return "compile";
  if (event.key === "F10") return ctrl ? "run-to-cursor" : event.shiftKey ? null : "step-over";
  if (event.key === "F11" && event.shiftKey && !ctrl) return "step-out";
  return null;
}
