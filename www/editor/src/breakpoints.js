// The breakpoint gutter: a red dot per line, toggled by clicking the gutter.
// Breakpoints are kept as positions (not line numbers) so they follow their
// line when text is inserted or deleted above it.

import { RangeSet, StateEffect, StateField } from "@codemirror/state";
import { EditorView, GutterMarker, gutter } from "@codemirror/view";

const replaceBreakpoints = StateEffect.define(); // value: line numbers
const toggleBreakpoint = StateEffect.define(); // value: a position on the line

const dot = new (class extends GutterMarker {
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-loom-breakpoint";
    return span;
  }
})();

// One marker per line, at the line's start: after an edit, markers that were
// pushed inside a line or collapsed onto one line are snapped and merged.
function fromLines(doc, lines) {
  const starts = new Set(lines.filter((n) => n <= doc.lines).map((n) => doc.line(n).from));
  return RangeSet.of([...starts].sort((a, b) => a - b).map((pos) => dot.range(pos)));
}

export function breakpointLines(state) {
  const lines = [];
  state.field(breakpointField).between(0, state.doc.length, (from) => {
    const line = state.doc.lineAt(from).number;
    if (lines[lines.length - 1] !== line) lines.push(line);
  });
  return lines;
}

const breakpointField = StateField.define({
  create: () => RangeSet.empty,
  update(set, tr) {
    if (tr.docChanged) {
      set = set.map(tr.changes);
      const lines = [];
      set.between(0, tr.newDoc.length, (from) => {
        lines.push(tr.newDoc.lineAt(from).number);
      });
      set = fromLines(tr.newDoc, lines);
    }
    for (const effect of tr.effects) {
      if (effect.is(replaceBreakpoints)) set = fromLines(tr.newDoc, effect.value);
      if (effect.is(toggleBreakpoint)) {
        const start = tr.newDoc.lineAt(effect.value).from;
        let present = false;
        set.between(start, start, () => {
          present = true;
        });
        set = present ? set.update({ filter: (from) => from !== start }) : set.update({ add: [dot.range(start)] });
      }
    }
    return set;
  },
});

export function setBreakpointsEffect(lines) {
  return replaceBreakpoints.of(lines);
}

export function breakpointGutter() {
  return [
    breakpointField,
    gutter({
      class: "cm-loom-breakpoints",
      markers: (view) => view.state.field(breakpointField),
      initialSpacer: () => dot,
      // Every line gets a cell, so the pointer cursor and hover hint show
      // where a click lands.
      renderEmptyElements: true,
      domEventHandlers: {
        mousedown(view, line) {
          view.dispatch({ effects: toggleBreakpoint.of(line.from) });
          return true;
        },
      },
    }),
    EditorView.baseTheme({
      ".cm-loom-breakpoints .cm-gutterElement": { cursor: "pointer", padding: "0 2px 0 4px" },
      ".cm-loom-breakpoint": {
        display: "inline-block",
        width: "0.7em",
        height: "0.7em",
        borderRadius: "50%",
        backgroundColor: "#e5484d",
        verticalAlign: "middle",
      },
      ".cm-loom-breakpoints .cm-gutterElement:hover:empty::before": {
        content: "''",
        display: "inline-block",
        width: "0.7em",
        height: "0.7em",
        borderRadius: "50%",
        backgroundColor: "#e5484d55",
        verticalAlign: "middle",
      },
    }),
  ];
}
