// window.LoomEditorFallback: the LoomEditor API on a plain <textarea>, for
// when the CodeMirror bundle fails to load. Loaded after loom-editor.js, it
// also fills in window.LoomEditor if that is still missing, so the Rust side
// binds one namespace and calls `LoomEditor.kind()` to know which one it got.
// Without a gutter, breakpoints are only stored (set/get round-trips) and
// diagnostics show as a red border plus a hover title.

import {
  CHANGE_DEBOUNCE_MS,
  columnOffset,
  debounce,
  fromJson,
  handleRegistry,
  keyCommand,
  sameLines,
  toDiagnostics,
  toLines,
} from "./common.js";

const editors = handleRegistry("textarea");
const LINE_HEIGHT = 1.45; // em; fixed so a line number converts to a scroll offset

const LOOKS = {
  light: { color: "#1f2328", background: "#ffffff", border: "#d0d7de" },
  dark: { color: "#d4d7dd", background: "#1b1e24", border: "#3b414d" },
};

function paint(editor) {
  const look = LOOKS[editor.dark ? "dark" : "light"];
  const style = editor.area.style;
  style.color = look.color;
  style.background = look.background;
  style.borderColor = editor.diagnostics.some((d) => d.severity === "error") ? "#e5484d" : look.border;
}

// The UTF-16 span of a 1-based line, and a converter for its character columns.
function offsetOf(text, line) {
  const lines = text.split("\n");
  const index = Math.min(Math.max(1, line), lines.length) - 1;
  const start = lines.slice(0, index).reduce((sum, l) => sum + l.length + 1, 0);
  return { start, end: start + lines[index].length, at: (c) => start + columnOffset(lines[index], c) };
}

function scrollToLine(area, line) {
  const lineHeight = parseFloat(getComputedStyle(area).fontSize) * LINE_HEIGHT;
  area.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

function setLines(editor, lines) {
  if (sameLines(lines, editor.lines)) return;
  editor.lines = lines;
  editor.onBreakpoints?.(lines);
}

function create(parent, initialText = "", options) {
  options = fromJson(options) ?? {};
  const area = document.createElement("textarea");
  area.value = String(initialText ?? "");
  area.spellcheck = false;
  area.wrap = "off";
  area.readOnly = !!options.readOnly;
  area.dataset.loomEditor = "textarea";
  if (options.testId) area.dataset.testid = options.testId;
  Object.assign(area.style, {
    boxSizing: "border-box",
    width: "100%",
    height: "100%",
    resize: "none",
    border: "1px solid",
    padding: "6px 8px",
    font: "14px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    lineHeight: String(LINE_HEIGHT),
    tabSize: "4",
  });
  const editor = { area, dark: !!options.dark, diagnostics: [], lines: [] };
  editor.onChange = editor.onBreakpoints = editor.onKey = null;
  editor.reportChange = debounce(() => editor.onChange?.(area.value), CHANGE_DEBOUNCE_MS);
  area.addEventListener("input", editor.reportChange);
  area.addEventListener("keydown", (event) => {
    const name = keyCommand(event);
    if (!name) return;
    event.preventDefault();
    if (editor.onKey) {
      event.stopPropagation();
      editor.onKey(name);
    }
  });
  paint(editor);
  parent.appendChild(area);
  return editors.add(editor);
}

function getText(handle) {
  return editors.get(handle)?.area.value ?? "";
}

function setText(handle, text) {
  const editor = editors.get(handle);
  text = String(text ?? "");
  if (!editor || editor.area.value === text) return;
  editor.area.value = text;
  setDiagnostics(handle, []);
  setLines(editor, []);
}

function onChange(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onChange = callback ?? null;
}

function setDiagnostics(handle, diagnostics) {
  const editor = editors.get(handle);
  if (!editor) return;
  editor.diagnostics = toDiagnostics(diagnostics);
  editor.area.title = editor.diagnostics.map((d) => `${d.line}:${d.col}: ${d.severity}: ${d.message}`).join("\n");
  paint(editor);
}

function setCurrentLine(handle, line) {
  const editor = editors.get(handle);
  if (editor && line >= 1) scrollToLine(editor.area, line);
}

function setFrameLine(handle, line) {
  const editor = editors.get(handle);
  if (editor && line >= 1) scrollToLine(editor.area, line);
}

function getCursorLine(handle) {
  const area = editors.get(handle)?.area;
  return area ? area.value.slice(0, area.selectionEnd).split("\n").length : 0;
}

function getBreakpoints(handle) {
  return [...(editors.get(handle)?.lines ?? [])];
}

function setBreakpoints(handle, lines) {
  const editor = editors.get(handle);
  if (editor) setLines(editor, toLines(lines));
}

function onBreakpointsChange(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onBreakpoints = callback ?? null;
}

function focus(handle) {
  editors.get(handle)?.area.focus();
}

function gotoLine(handle, line, col = 0, endCol = 0) {
  const area = editors.get(handle)?.area;
  if (!area) return;
  const target = offsetOf(area.value, Number(line) || 1);
  const [from, to] = col >= 1 ? [target.at(col), target.at(endCol > col ? endCol : col)] : [target.start, target.end];
  area.focus();
  area.setSelectionRange(from, to);
  scrollToLine(area, line);
}

function setDark(handle, dark) {
  const editor = editors.get(handle);
  if (!editor) return;
  editor.dark = !!dark;
  paint(editor);
}

function setReadOnly(handle, readOnly) {
  const editor = editors.get(handle);
  if (editor) editor.area.readOnly = !!readOnly;
}

function onKeyCommand(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onKey = callback ?? null;
}

function destroy(handle) {
  const editor = editors.get(handle);
  if (!editor) return;
  editor.reportChange.cancel();
  editor.area.remove();
  editors.remove(handle);
}

const api = {
  kind: () => "textarea",
  create,
  getText,
  setText,
  onChange,
  setDiagnostics,
  setCurrentLine,
  setFrameLine,
  getCursorLine,
  getBreakpoints,
  setBreakpoints,
  onBreakpointsChange,
  focus,
  gotoLine,
  setDark,
  setReadOnly,
  onKeyCommand,
  destroy,
};

window.LoomEditorFallback = api;
window.LoomEditor ??= api;
