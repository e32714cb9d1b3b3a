// Types for loom-playground.js (the <loom-playground> element and mount()).
// The shapes are those of the README's "Embedding" section.

/** A panel id in `panels`, in priority order at small sizes. */
export type PanelId = "editor" | "heatmap" | "attention" | "machine" | "demo" | "console" | "explain" | "stack";

/** The embed options (the same names as `index.html?embed&…` and the element's attributes). */
export interface EmbedOptions {
  demo?: string;
  /** A comma list or an array of panel ids. */
  panels?: string | PanelId[];
  readonly?: boolean;
  autoplay?: boolean;
  /** Steps per second; 0 = as fast as possible. */
  speed?: number;
  /** Open stopped after this many steps. */
  step?: number;
  theme?: "light" | "dark";
  config?: string;
  engine?: "sparse" | "interp" | "dense";
  /** A v2 share link's state (the part after `#v2=`). */
  state?: string;
  /** A program's text (C), used when neither `state` nor `demo` gives one. */
  source?: string;
}

export type Status = "edited" | "error" | "loaded" | "running" | "paused" | "halted" | "fault";

/** Variables by name: a number, or an array of numbers. */
export type Vars = Record<string, number | number[]>;

/** What every command resolves to. */
export interface State {
  status: Status;
  steps: number;
  pc: number;
  vars: Vars;
}

/** An event's object (`CustomEvent.detail`): the session protocol's event in the envelope. */
export interface LoomEventDetail extends Partial<State> {
  loom: 1;
  event: "ready" | "compiled" | "step" | "paused" | "halted" | "fault" | "frame" | "file";
  /** `compiled`: whether the program built, and its diagnostics. */
  ok?: boolean;
  diagnostics?: Array<{ severity: string; message: string; span: { line: number; col: number; end_col: number } }>;
  /** `fault`: what went wrong, and where. */
  fault?: { message: string; line: number | null } | null;
  /** `fault`: the variable the faulting statement assigns (it keeps its old value), if any. */
  unwritten?: string | null;
  /** `ready`: the views shown. */
  panels?: PanelId[];
  /** `file` (the answer to `command({cmd: "download", file: "safetensors" | "onnx" | "state"})`): the file. */
  name?: string;
  size?: number;
  bytes?: Uint8Array;
  [more: string]: unknown;
}

export type LoomEvent = CustomEvent<LoomEventDetail>;

export interface LoomEventMap {
  ready: LoomEvent;
  compiled: LoomEvent;
  step: LoomEvent;
  paused: LoomEvent;
  halted: LoomEvent;
  fault: LoomEvent;
  frame: LoomEvent;
  file: LoomEvent;
}

export declare class LoomWidget extends EventTarget {
  /** Any command of the session protocol, e.g. `{cmd: "speed", steps_per_second: 10}`. */
  command(cmd: { cmd: string; [field: string]: unknown }): Promise<State>;
  load(source: string, options?: { lang?: "c" | "asm"; config?: string; engine?: "sparse" | "interp" | "dense" }): Promise<State>;
  run(): Promise<State>;
  pause(): Promise<State>;
  step(by?: "layer" | "instruction" | "line"): Promise<State>;
  back(): Promise<State>;
  reset(): Promise<State>;
  state(): Promise<State>;
  destroy(): void;
  addEventListener<K extends keyof LoomEventMap>(type: K, listener: (ev: LoomEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}

/** The option names the element reads from its attributes. */
export declare const OPTIONS: readonly string[];

/** Mounts a widget inside `element` (in its shadow root). */
export declare function mount(element: HTMLElement, options?: EmbedOptions): Promise<LoomWidget>;

/** `<loom-playground>`: attributes are the embed options; the program is `state` or a child `<script type="text/x-c">`. */
export declare class LoomPlayground extends HTMLElement {
  /** Resolves to the element's widget once mounted. */
  ready: Promise<LoomWidget>;
}

declare global {
  interface HTMLElementTagNameMap {
    "loom-playground": LoomPlayground;
  }
}
