// window.LoomEditor: the CodeMirror 6 C editor behind a handle-based API of
// plain functions, so the Rust/wasm page can bind it with a small
// `#[wasm_bindgen(js_namespace = LoomEditor)]` extern block. README.md documents
// every function; fallback.js implements the same API on a <textarea>.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { cpp } from "@codemirror/lang-cpp";
import { bracketMatching, indentOnInput } from "@codemirror/language";
import { setDiagnostics as lintDiagnostics } from "@codemirror/lint";
import {
  Annotation,
  Compartment,
  EditorSelection,
  EditorState,
  Prec,
  StateEffect,
  StateField,
} from "@codemirror/state";
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { breakpointGutter, breakpointLines, setBreakpointsEffect } from "./breakpoints.js";
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
import { darkLook, layout, lightLook } from "./theme.js";

// Marks transactions made through this API, so onChange reports only edits
// the Rust side does not already know about.
const fromApi = Annotation.define();

const setCurrentLineEffect = StateEffect.define(); // value: 1-based line, 0 = none
const currentLineMark = Decoration.line({ class: "cm-loom-current-line" });
const currentLineField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setCurrentLineEffect)) continue;
      const line = effect.value;
      const inDoc = line >= 1 && line <= tr.newDoc.lines;
      marks = inDoc ? Decoration.set([currentLineMark.range(tr.newDoc.line(line).from)]) : Decoration.none;
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// The line of the frame chosen in the call stack (a caller's line), marked apart from
// the executing one.
const setFrameLineEffect = StateEffect.define(); // value: 1-based line, 0 = none
const frameLineMark = Decoration.line({ class: "cm-loom-frame-line" });
const frameLineField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setFrameLineEffect)) continue;
      const line = effect.value;
      const inDoc = line >= 1 && line <= tr.newDoc.lines;
      marks = inDoc ? Decoration.set([frameLineMark.range(tr.newDoc.line(line).from)]) : Decoration.none;
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const editors = handleRegistry("codemirror");

// Resolves a diagnostic's character columns to document positions: no
// column marks the whole line, a missing or empty end marks one character.
function diagnosticRange(doc, d) {
  const line = doc.line(Math.min(d.line, doc.lines));
  if (d.col < 1) return { from: line.from, to: line.to };
  const from = line.from + columnOffset(line.text, d.col);
  const end = d.endCol > d.col ? d.endCol : d.col + 1;
  return { from, to: line.from + columnOffset(line.text, end) };
}

function create(parent, initialText = "", options) {
  options = fromJson(options) ?? {};
  const theme = new Compartment();
  const readOnly = new Compartment();
  const editor = { view: null, theme, readOnly, onChange: null, onBreakpoints: null, onKey: null, lines: [] };
  editor.reportChange = debounce(() => editor.onChange?.(editor.view.state.doc.toString()), CHANGE_DEBOUNCE_MS);

  const listener = EditorView.updateListener.of((update) => {
    if (update.docChanged && update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromApi))) {
      editor.reportChange();
    }
    const lines = breakpointLines(update.state);
    if (!sameLines(lines, editor.lines)) {
      editor.lines = lines;
      editor.onBreakpoints?.(lines);
    }
  });

  // Highest precedence so Ctrl/Cmd+Enter never reaches the default keymap
  // (which would insert a blank line). With a callback registered the key is
  // consumed here; without one it bubbles on to the page's own shortcut.
  const keys = Prec.highest(
    EditorView.domEventHandlers({
      keydown(event) {
        const name = keyCommand(event);
        if (!name) return false;
        event.preventDefault();
        if (editor.onKey) {
          event.stopPropagation();
          editor.onKey(name);
        }
        return true;
      },
    }),
  );

  editor.view = new EditorView({
    parent,
    state: EditorState.create({
      doc: String(initialText ?? ""),
      extensions: [
        breakpointGutter(),
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        cpp(),
        keys,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        currentLineField,
        frameLineField,
        listener,
        layout,
        theme.of(options.dark ? darkLook : lightLook),
        readOnly.of(EditorState.readOnly.of(!!options.readOnly)),
      ],
    }),
  });
  editor.view.dom.dataset.loomEditor = "codemirror";
  if (options.testId) editor.view.dom.dataset.testid = options.testId;
  return editors.add(editor);
}

function getText(handle) {
  return editors.get(handle)?.view.state.doc.toString() ?? "";
}

// Replacing the whole text (a new demo, a shared link) also clears the
// breakpoints, the executing line and the diagnostics, which referred to the
// old text. Setting the text it already has changes nothing.
function setText(handle, text) {
  const view = editors.get(handle)?.view;
  text = String(text ?? "");
  if (!view || view.state.doc.toString() === text) return;
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    effects: [setBreakpointsEffect([]), setCurrentLineEffect.of(0), setFrameLineEffect.of(0)],
    annotations: fromApi.of(true),
  });
  view.dispatch(lintDiagnostics(view.state, []));
}

function onChange(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onChange = callback ?? null;
}

function setDiagnostics(handle, diagnostics) {
  const view = editors.get(handle)?.view;
  if (!view) return;
  const doc = view.state.doc;
  const list = toDiagnostics(diagnostics).map((d) => ({
    ...diagnosticRange(doc, d),
    severity: d.severity,
    message: d.message,
  }));
  view.dispatch(lintDiagnostics(view.state, list));
}

// Scrolls the editor's own scroller, and nothing around it, so `line` is in
// view with a margin. CodeMirror's scrollIntoView also scrolls the page: on a
// phone, where the editor sits below a demo's board, a running program
// pulled the page to its line at every view, away from the arrows being tapped.
function showLine(view, line) {
  if (line < 1 || line > view.state.doc.lines) return;
  view.requestMeasure({
    read() {
      const block = view.lineBlockAt(view.state.doc.line(line).from);
      const scroller = view.scrollDOM;
      const offset = view.documentTop - scroller.getBoundingClientRect().top + scroller.scrollTop;
      return { top: offset + block.top, bottom: offset + block.bottom, scroller };
    },
    write({ top, bottom, scroller }) {
      const margin = 40;
      if (top - margin < scroller.scrollTop) scroller.scrollTop = Math.max(0, top - margin);
      else if (bottom + margin > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom + margin - scroller.clientHeight;
    },
  });
}

function setCurrentLine(handle, line) {
  const view = editors.get(handle)?.view;
  if (!view) return;
  line = Number(line) || 0;
  view.dispatch({ effects: setCurrentLineEffect.of(line) });
  showLine(view, line);
}

function setFrameLine(handle, line) {
  const view = editors.get(handle)?.view;
  if (!view) return;
  line = Number(line) || 0;
  view.dispatch({ effects: setFrameLineEffect.of(line) });
  showLine(view, line);
}

// The 1-based line the caret (the main selection's head) is on.
function getCursorLine(handle) {
  const view = editors.get(handle)?.view;
  return view ? view.state.doc.lineAt(view.state.selection.main.head).number : 0;
}

function getBreakpoints(handle) {
  const editor = editors.get(handle);
  return editor ? breakpointLines(editor.view.state) : [];
}

function setBreakpoints(handle, lines) {
  editors.get(handle)?.view.dispatch({ effects: setBreakpointsEffect(toLines(lines)) });
}

function onBreakpointsChange(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onBreakpoints = callback ?? null;
}

function focus(handle) {
  editors.get(handle)?.view.focus();
}

// Moves the caret to `line` and selects: the whole line without a column,
// `[col, endCol)` with both, the caret alone with just `col`.
function gotoLine(handle, line, col = 0, endCol = 0) {
  const view = editors.get(handle)?.view;
  if (!view) return;
  const doc = view.state.doc;
  const target = doc.line(Math.min(Math.max(1, Number(line) || 1), doc.lines));
  const at = (c) => target.from + columnOffset(target.text, c);
  const selection =
    col >= 1
      ? EditorSelection.range(at(col), endCol > col ? at(endCol) : at(col))
      : EditorSelection.range(target.from, target.to);
  view.dispatch({ selection, effects: EditorView.scrollIntoView(selection, { y: "center" }) });
  view.focus();
}

function setDark(handle, dark) {
  const editor = editors.get(handle);
  editor?.view.dispatch({ effects: editor.theme.reconfigure(dark ? darkLook : lightLook) });
}

function setReadOnly(handle, readOnly) {
  const editor = editors.get(handle);
  editor?.view.dispatch({ effects: editor.readOnly.reconfigure(EditorState.readOnly.of(!!readOnly)) });
}

function onKeyCommand(handle, callback) {
  const editor = editors.get(handle);
  if (editor) editor.onKey = callback ?? null;
}

function destroy(handle) {
  const editor = editors.get(handle);
  if (!editor) return;
  editor.reportChange.cancel();
  editor.view.destroy();
  editors.remove(handle);
}

window.LoomEditor = {
  kind: () => "codemirror",
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
