//! `loom debug`: the debugger driven by text commands, one a line, answered in gdb's
//! manner — so a session can be a script, and the debugger is tested without a browser.
//!
//! Commands: `break LINE [if EXPR]`, `delete`, `run`, `continue`, `step`, `next`,
//! `finish`, `until LINE`, `stepi`, `back`, `frames` (`bt`), `print EXPR`, `quit`;
//! gdb's abbreviations (`b r c s n fin u si p q`) too. `print` shows a structure as gdb
//! does, `{x = 3, y = 4}`, and reads members (`s.x`, `p->next`).

use super::{Breakpoint, Debugger, FrameView, Stop};
use crate::state::Status;
use std::io::{BufRead, Write};

/// Reads commands from `input` until `quit` or its end, writing the answers to `out`.
pub fn run(dbg: &mut Debugger, source: &str, input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
    let lines: Vec<&str> = source.lines().collect();
    let mut s = Script { lines, printed: 0, values: 0 };
    for line in input.lines() {
        let line = line?;
        let (cmd, arg) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        if cmd.is_empty() || cmd.starts_with('#') {
            continue;
        }
        if matches!(cmd, "quit" | "q") {
            break;
        }
        let answer = s.command(dbg, cmd, arg.trim());
        out.write_all(answer.as_bytes())?;
    }
    Ok(())
}

struct Script<'a> {
    lines: Vec<&'a str>,
    /// How much of the program's output was already shown.
    printed: usize,
    /// `print`'s counter (`$1`, `$2`, …).
    values: usize,
}

impl Script<'_> {
    fn command(&mut self, dbg: &mut Debugger, cmd: &str, arg: &str) -> String {
        let before = dbg.frames();
        let stop = match cmd {
            "break" | "b" => return self.set_break(dbg, arg),
            "delete" | "d" => {
                dbg.set_breakpoints(Vec::new());
                return "Deleted all breakpoints.\n".into();
            }
            "frames" | "bt" | "backtrace" | "where" => return backtrace(&before),
            "print" | "p" => return self.print(dbg, arg),
            "run" | "r" => {
                // From the start; a breakpoint on the first line stops before anything runs.
                dbg.rewind_to(0);
                self.printed = 0;
                match dbg.breakpoint_hit() {
                    Some(line) => Stop::Breakpoint(line),
                    None => dbg.cont(),
                }
            }
            "continue" | "c" => dbg.cont(),
            "step" | "s" => dbg.step_line(),
            "next" | "n" => dbg.step_over(),
            "stepi" | "si" => dbg.step_instruction(),
            "until" | "u" | "advance" => match arg.parse() {
                Ok(line) => dbg.run_to_line(line),
                Err(_) => return "until takes a line number\n".into(),
            },
            "finish" | "fin" => {
                let Some(f) = before.iter().find(|f| !f.library).filter(|_| before.len() > 1) else {
                    return "\"finish\" not meaningful in the outermost frame.\n".into();
                };
                let head = format!("Run till exit from #0  {}\n", frame_line(f));
                let stop = dbg.step_out();
                let mut text = head + &self.after(dbg, &before, stop);
                if let Some(v) = dbg.returned().and_then(|r| r.value) {
                    text += &format!("Value returned is {v}\n");
                }
                return text;
            }
            "back" => {
                if !dbg.back() {
                    return "Nothing to undo: at the first step.\n".into();
                }
                let shown = dbg.machine().output().text().len();
                self.printed = self.printed.min(shown);
                Stop::Done
            }
            _ => return format!("Undefined command: \"{cmd}\".\n"),
        };
        self.after(dbg, &before, stop)
    }

    fn set_break(&mut self, dbg: &mut Debugger, arg: &str) -> String {
        let (line, cond) = match arg.split_once(" if ") {
            Some((l, c)) => (l.trim(), Some(c)),
            None => (arg, None),
        };
        let Ok(line) = line.parse::<u32>() else { return "break takes a line number\n".into() };
        if !dbg.program().locs.iter().any(|l| l.is_some_and(|l| l.line == line)) {
            return format!("No code on line {line}.\n");
        }
        match Breakpoint::new(line, cond) {
            Ok(b) => {
                let mut list = dbg.breakpoints().to_vec();
                list.push(b);
                let n = list.len();
                dbg.set_breakpoints(list);
                let cond = cond.map_or(String::new(), |c| format!(" if {}", c.trim()));
                format!("Breakpoint {n} at line {line}{cond}\n")
            }
            Err(e) => format!("bad condition: {e}\n"),
        }
    }

    fn print(&mut self, dbg: &Debugger, arg: &str) -> String {
        match dbg.print(arg) {
            Ok(v) => {
                self.values += 1;
                format!("${} = {v}\n", self.values)
            }
            Err(e) => format!("{e}\n"),
        }
    }

    /// What a move did: the program's new output, then where it stopped.
    fn after(&mut self, dbg: &Debugger, before: &[FrameView], stop: Stop) -> String {
        let mut text = String::new();
        let output = dbg.machine().output().text();
        if output.len() > self.printed {
            text += &output[self.printed..];
            if !text.ends_with('\n') {
                text.push('\n');
            }
            self.printed = output.len();
        }
        let now = dbg.frames();
        match (&stop, dbg.status()) {
            (Stop::Idle, _) => return text + "The program is not being run.\n",
            (_, Status::Halted) => return text + &format!("[program halted after {} steps]\n", dbg.steps()),
            (_, Status::Fault { message, .. }) => {
                let at = dbg.line().map_or(String::new(), |l| format!(" at line {l}"));
                return text + &format!("Program stopped: {message}{at}\n");
            }
            _ => {}
        }
        let Some(top) = now.first() else { return text };
        let moved = before.first().map(|f| &f.func) != Some(&top.func) || before.len() != now.len();
        match stop {
            Stop::Breakpoint(_) => {
                let n = dbg.breakpoints().iter().position(|b| Some(b.line) == top.line).map_or(0, |i| i + 1);
                text += &format!("\nBreakpoint {n}, {}\n", frame_line(top));
            }
            Stop::Budget => {
                text += &format!("Stopped after {} steps without arriving.\n{}\n", dbg.steps(), frame_line(top))
            }
            _ if moved => text += &format!("{}\n", frame_line(top)),
            _ => {}
        }
        if let Some(l) = top.line {
            text += &format!("{l}\t{}\n", self.lines.get(l as usize - 1).map_or("", |t| t.trim()));
        }
        text
    }
}

/// `fact (n = 5) at line 4`.
fn frame_line(f: &FrameView) -> String {
    if f.library {
        return format!("{} [library]", f.func);
    }
    let vars: Vec<String> = f.vars.iter().map(|v| format!("{} = {}", v.name, v.value)).collect();
    let at = f.line.map_or(String::new(), |l| format!(" at line {l}"));
    format!("{} ({}){at}", f.func, vars.join(", "))
}

fn backtrace(frames: &[FrameView]) -> String {
    if frames.is_empty() {
        return "No stack.\n".into();
    }
    frames.iter().enumerate().map(|(i, f)| format!("#{i}  {}\n", frame_line(f))).collect()
}
