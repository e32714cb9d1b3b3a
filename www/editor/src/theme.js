// Light and dark looks. Each is an editor theme plus a syntax palette; the
// editor swaps the pair through a Compartment when the page toggles dark mode.

import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// Layout shared by both looks: fill the container the page gives us and
// scroll inside it.
export const layout = EditorView.theme({
  "&": { height: "100%", fontSize: "14px" },
  ".cm-scroller": { overflow: "auto", fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" },
  ".cm-content": { padding: "6px 0" },
});

function look(dark, c) {
  const theme = EditorView.theme(
    {
      "&": { color: c.fg, backgroundColor: c.bg },
      ".cm-content": { caretColor: c.caret },
      ".cm-cursor, .cm-dropCursor": { borderLeftColor: c.caret },
      "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
        { backgroundColor: c.selection },
      ".cm-gutters": { backgroundColor: c.gutterBg, color: c.gutterFg, border: "none" },
      ".cm-activeLine": { backgroundColor: c.activeLine },
      ".cm-activeLineGutter": { backgroundColor: c.activeLine },
      "&.cm-focused .cm-matchingBracket": { backgroundColor: c.bracket, outline: `1px solid ${c.bracketOutline}` },
      // The line the machine is executing: stronger than the caret's line.
      ".cm-loom-current-line": { backgroundColor: c.current, boxShadow: `inset 3px 0 0 ${c.currentBar}` },
      // A caller's line, chosen in the call stack: the bar alone, dashed apart from the executing line's.
      ".cm-loom-frame-line": { boxShadow: `inset 3px 0 0 ${c.currentBar}`, outline: `1px dashed ${c.currentBar}` },
      ".cm-tooltip": { backgroundColor: c.tooltipBg, color: c.fg, border: `1px solid ${c.gutterFg}` },
    },
    { dark },
  );
  const palette = HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.modifier], color: c.keyword, fontWeight: "600" },
    { tag: [t.typeName, t.standard(t.typeName)], color: c.type },
    { tag: [t.number, t.bool, t.null], color: c.number },
    { tag: [t.string, t.character], color: c.string },
    { tag: [t.comment, t.lineComment, t.blockComment], color: c.comment, fontStyle: "italic" },
    { tag: [t.processingInstruction, t.macroName], color: c.macro },
    { tag: [t.function(t.variableName), t.function(t.definition(t.variableName))], color: c.func },
    { tag: [t.operator, t.punctuation, t.bracket], color: c.punct },
    { tag: t.invalid, color: c.invalid },
  ]);
  return [theme, syntaxHighlighting(palette)];
}

export const lightLook = look(false, {
  fg: "#1f2328",
  bg: "#ffffff",
  caret: "#1f2328",
  selection: "#b6d6fd",
  gutterBg: "#f6f8fa",
  gutterFg: "#8c959f",
  activeLine: "#f3f6fa",
  bracket: "#dbeafe",
  bracketOutline: "#93b4e8",
  current: "#fff3bf",
  currentBar: "#f59f00",
  tooltipBg: "#ffffff",
  keyword: "#a626a4",
  type: "#0b6e99",
  number: "#b35900",
  string: "#2b7a0b",
  comment: "#6e7781",
  macro: "#8250df",
  func: "#0550ae",
  punct: "#57606a",
  invalid: "#d1242f",
});

export const darkLook = look(true, {
  fg: "#d4d7dd",
  bg: "#1b1e24",
  caret: "#f0f0f0",
  selection: "#34496b",
  gutterBg: "#1b1e24",
  gutterFg: "#6b7280",
  activeLine: "#232730",
  bracket: "#2f3b52",
  bracketOutline: "#5b7bb5",
  current: "#4a3f14",
  currentBar: "#fab005",
  tooltipBg: "#262a33",
  keyword: "#d291e4",
  type: "#5ec4d6",
  number: "#f0a45d",
  string: "#9ccc65",
  comment: "#7f8794",
  macro: "#b39dff",
  func: "#6cb6ff",
  punct: "#a0a7b4",
  invalid: "#ff6b6b",
});
