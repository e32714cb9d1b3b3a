//! The debugger every front end shares (`frontend::Debugger`), driven without a
//! browser: the call stack through recursion, step over / out / to a line, Back undoing
//! each move whole, conditional breakpoints — and `loom debug` answering a script.

use loom_core::frontend::debugger::value;
use loom_core::frontend::{
    build, owner_of, Breakpoint, Config, Debugger, EngineKind, FrameView, Lang, MemCell, MemoryView, Stop,
};
use loom_core::Engine;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const FACT: &str = "\
int fact(int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int main() {
    int r = fact(5);
    int s = r + 1;
    printf(\"%d\\n\", s);
    return 0;
}
";

fn debugger(source: &str, engine: EngineKind) -> Debugger {
    let built = build(Lang::C, source, Config::preset("compact").unwrap());
    let prog = built.program.unwrap_or_else(|| panic!("does not compile: {:?}", built.diagnostics));
    Debugger::new(engine, &prog).unwrap()
}

/// `n = 3`: a frame's variable by name.
fn var(f: &FrameView, name: &str) -> String {
    f.vars.iter().find(|v| v.name == name).map(|v| v.value.clone()).unwrap_or_else(|| panic!("no {name} in {f:?}"))
}

fn where_(d: &Debugger) -> (String, Option<u32>, usize) {
    let frames = d.frames();
    (frames[0].func.clone(), frames[0].line, frames.len())
}

#[test]
fn a_breakpoint_in_recursion_shows_every_activation_and_finish_returns_to_the_caller() {
    for engine in [EngineKind::Interp, EngineKind::Sparse] {
        let mut d = debugger(FACT, engine);
        d.set_breakpoints(vec![Breakpoint::new(2, Some("n == 1")).unwrap()]);
        assert_eq!(d.cont(), Stop::Breakpoint(2));
        let frames = d.frames();
        let names: Vec<(&str, Option<u32>)> = frames.iter().map(|f| (f.func.as_str(), f.line)).collect();
        assert_eq!(
            names,
            [
                ("fact", Some(2)),
                ("fact", Some(4)),
                ("fact", Some(4)),
                ("fact", Some(4)),
                ("fact", Some(4)),
                ("main", Some(8))
            ],
            "{engine:?}"
        );
        let ns: Vec<String> = frames[..5].iter().map(|f| var(f, "n")).collect();
        assert_eq!(ns, ["1", "2", "3", "4", "5"], "{engine:?}");
        assert_eq!(
            d.print("n * 10 + fact_depth_is_not_a_name").unwrap_err(),
            "no variable `fact_depth_is_not_a_name` here"
        );
        assert_eq!(d.print("n == 1 && !(n > 1)").unwrap(), "1");

        let at_break = d.steps();
        assert_eq!(d.step_out(), Stop::Done);
        assert_eq!(where_(&d), ("fact".into(), Some(4), 5), "finish lands on the caller's line");
        assert_eq!(var(&d.frames()[0], "n"), "2", "the caller sees its own n again");
        assert_eq!(d.returned().map(|r| (r.func.as_str(), r.value)), Some(("fact", Some(1))));
        assert_eq!(d.step_out(), Stop::Done);
        assert_eq!(d.returned().and_then(|r| r.value), Some(2));
        assert_eq!(where_(&d), ("fact".into(), Some(4), 4));

        // Back undoes each finish as one move.
        assert!(d.back());
        assert_eq!(where_(&d), ("fact".into(), Some(4), 5));
        assert!(d.back());
        assert_eq!((d.steps(), where_(&d)), (at_break, ("fact".into(), Some(2), 6)));
    }
}

/// The heatmap's words for memory: every activation's variables live somewhere (the
/// innermost in the out-of-line region, its callers in the copies their calls saved),
/// and each word is named by its owner (`fact#3: n`, `global total`, `console`).
#[test]
fn each_activations_variables_are_owned_where_they_live() {
    let src =
        FACT.replace("int fact(int n)", "int total = 7;\nint fact(int n)").replace("fact(5);", "fact(5) + total;");
    for engine in [EngineKind::Interp, EngineKind::Sparse] {
        let mut d = debugger(&src, engine);
        d.set_breakpoints(vec![Breakpoint::new(3, Some("n == 1")).unwrap()]);
        assert_eq!(d.cont(), Stop::Breakpoint(3));
        let frames = d.frames();
        let labels: Vec<String> = frames.iter().map(FrameView::label).collect();
        assert_eq!(labels, ["fact#5", "fact#4", "fact#3", "fact#2", "fact#1", "main"], "{engine:?}");
        let owners = d.owners(&frames);
        let mut slots = Vec::new();
        for (k, f) in frames[..5].iter().enumerate() {
            let n = f.vars.iter().find(|b| b.name == "n").unwrap();
            let slot = n.slot.unwrap_or_else(|| panic!("{} has no home for n", f.label()));
            assert_eq!(d.machine().read_slot(slot).to_string(), n.value, "{engine:?} {}", f.label());
            assert_eq!(owner_of(&owners, slot).map(|o| o.name.as_str()), Some(format!("fact#{}: n", 5 - k).as_str()));
            slots.push(slot);
        }
        slots.sort();
        slots.dedup();
        assert_eq!(slots.len(), 5, "five activations, five homes of n");
        let total = owners.iter().find(|o| o.name == "global total").expect("the global is owned");
        assert_eq!(d.machine().read_slot(total.slot), 7);
        assert!(owners.iter().any(|o| o.name == "console"));
    }
}

#[test]
fn next_runs_a_call_whole_step_enters_it_and_until_stops_on_the_line() {
    let mut d = debugger(FACT, EngineKind::Interp);
    assert_eq!(where_(&d), ("main".into(), Some(8), 1));
    assert_eq!(d.step_over(), Stop::Done);
    assert_eq!(where_(&d), ("main".into(), Some(9), 1), "next lands on the next line of main");
    assert_eq!(var(&d.frames()[0], "r"), "120");
    assert!(d.back());
    assert_eq!((d.steps(), where_(&d)), (0, ("main".into(), Some(8), 1)));

    assert_eq!(d.step_line(), Stop::Done);
    assert_eq!(where_(&d), ("fact".into(), Some(2), 2), "step enters the call");
    assert_eq!(var(&d.frames()[0], "n"), "5");

    assert_eq!(d.run_to_line(10), Stop::Done);
    assert_eq!(where_(&d), ("main".into(), Some(10), 1));
    assert_eq!(var(&d.frames()[0], "s"), "121");
    assert!(d.machine().output().text().is_empty(), "line 10 has not printed yet");
    assert_eq!(d.step_over(), Stop::Finished, "`return 0;` needs no instruction: next runs to the end");
    assert_eq!(d.machine().output().text(), "121\n");
    assert!(d.back() && d.back());
    assert_eq!(where_(&d), ("fact".into(), Some(2), 2), "Back undid the run to line 10 whole");
    assert_eq!(d.cont(), Stop::Finished);
    assert_eq!(d.cont(), Stop::Idle);
}

/// Mutual recursion, and an inlined helper called from a recursive function: every
/// activation is a frame, the inlined one too.
#[test]
fn mutual_recursion_and_inlined_calls_are_frames() {
    let src = "\
int odd(int n);
int even(int n) {
    if (n == 0) return 1;
    return odd(n - 1);
}
int twice(int x) {
    int y = x * 2;
    return y;
}
int odd(int n) {
    if (n == 0) return twice(0);
    return even(n - 1);
}
int main() {
    int e = even(3);
    return e;
}
";
    let mut d = debugger(src, EngineKind::Interp);
    d.set_breakpoints(vec![Breakpoint::new(8, None).unwrap()]);
    assert_eq!(d.cont(), Stop::Breakpoint(8));
    let frames = d.frames();
    let names: Vec<String> = frames.iter().map(|f| format!("{}:{}", f.func, f.line.unwrap_or(0))).collect();
    assert_eq!(names, ["twice:8", "odd:11", "even:4", "odd:12", "even:4", "main:15"]);
    assert_eq!(var(&frames[0], "y"), "0");
    let ns: Vec<String> = frames[1..5].iter().map(|f| var(f, "n")).collect();
    assert_eq!(ns, ["0", "1", "2", "3"]);
}

/// Pointers name their targets; arrays show their cells.
#[test]
fn values_read_as_a_learner_reads_them() {
    let src = "\
int a[4] = {5, 6, 7, 8};
int grid[2][3];
int main() {
    int *p = &a[2];
    int *g = &grid[1][2];
    *p = 70;
    int done = 1;
    return done;
}
";
    let mut d = debugger(src, EngineKind::Interp);
    assert_eq!(d.run_to_line(7), Stop::Done);
    let main = &d.frames()[0];
    assert_eq!(var(main, "p"), "→ a[2]");
    assert_eq!(var(main, "g"), "→ grid[1][2]");
    assert_eq!(d.print("a").unwrap(), "{5, 6, 70, 8}");
    assert_eq!(d.print("p[1] + *p").unwrap(), "78");
    assert_eq!(d.print("p + 1").unwrap(), "→ a[3]");
    assert_eq!(d.print("grid").unwrap(), "{{0, 0, 0}, {0, 0, 0}}");
}

/// `loom debug FILE ARGS` answering `script`, the program written to a file of its own
/// (tests run in parallel).
fn loom_debug(source: &str, script: &str, args: &[&str]) -> String {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("loom-debug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("program{}.c", CALLS.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&file, source).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_loom"))
        .args(["debug", file.to_str().unwrap()])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn loom_debug_answers_a_script_as_gdb_would() {
    let script = "\
break 8
run
next
print r
back
step
delete
break 2 if n == 1
continue
bt
finish
back
until 10
next
back
back
continue
quit
";
    let out = loom_debug(FACT, script, &[]);
    expect_test::expect![[r#"
        Breakpoint 1 at line 8

        Breakpoint 1, main (r = 0, s = 0) at line 8
        8	int r = fact(5);
        9	int s = r + 1;
        $1 = 120
        8	int r = fact(5);
        fact (n = 5) at line 2
        2	if (n <= 1)
        Deleted all breakpoints.
        Breakpoint 1 at line 2 if n == 1

        Breakpoint 1, fact (n = 1) at line 2
        2	if (n <= 1)
        #0  fact (n = 1) at line 2
        #1  fact (n = 2) at line 4
        #2  fact (n = 3) at line 4
        #3  fact (n = 4) at line 4
        #4  fact (n = 5) at line 4
        #5  main (r = 0, s = 0) at line 8
        Run till exit from #0  fact (n = 1) at line 2
        fact (n = 2) at line 4
        4	return n * fact(n - 1);
        Value returned is 1
        fact (n = 1) at line 2
        2	if (n <= 1)
        main (r = 120, s = 121) at line 10
        10	printf("%d\n", s);
        121
        [program halted after 231 steps]
        main (r = 120, s = 121) at line 10
        10	printf("%d\n", s);
        fact (n = 1) at line 2
        2	if (n <= 1)
        121
        [program halted after 231 steps]
    "#]]
    .assert_eq(&out);
}

/// The input is the host's, like the output: Back gives read characters back, and the
/// replay reads them again; the shadow interpreter reads the same input as the transformer.
#[test]
fn going_back_over_getchar_gives_the_characters_back() {
    let src = "#include <stdio.h>\nint main() {\n    int a = getchar();\n    int b = getchar();\n    \
               printf(\"%c%c\", b, a);\n    return getchar();\n}\n";
    for engine in [EngineKind::Interp, EngineKind::Sparse] {
        let mut d = debugger(src, engine);
        d.set_input(b"xy");
        d.run_to_line(4);
        assert_eq!(d.machine().input().consumed(), 1, "{engine:?}");
        d.cont();
        assert_eq!((d.machine().output().text(), d.machine().input().consumed()), ("yx".to_string(), 2));
        assert_eq!(d.agrees(), engine.is_transformer().then_some(true));
        assert!(d.back(), "Back undoes the run to the end whole");
        assert_eq!((d.machine().output().text(), d.machine().input().consumed()), (String::new(), 1), "{engine:?}");
        d.cont();
        assert_eq!(d.machine().output().text(), "yx", "{engine:?}");
        assert_eq!(d.agrees(), engine.is_transformer().then_some(true));
    }
}

/// A pointer walking an array and a linked list in a pool of structures (`first` comes
/// first: a pointer to slot 0 would read as NULL).
const POOL: &str = "\
int first;
int a[4];
struct node { int v; struct node *next; } pool[4];
char c = 'a';

int main() {
    int *p = a;
    struct node *head = 0;
    for (int i = 0; i < 4; i++) {
        pool[i].v = i * 10;
        pool[i].next = head;
        head = &pool[i];
    }
    p = &a[2];
    *p = 7;
    c = c + 1;
    return head->v + *p + c;
}
";

/// The memory view's cell `label` of object `name`.
fn cell<'a>(m: &'a MemoryView, name: &str, label: &str) -> &'a MemCell {
    let o = m.regions.iter().flat_map(|r| &r.objects).find(|o| o.name == name).unwrap_or_else(|| panic!("no {name}"));
    o.cells.iter().find(|c| c.label == label).unwrap_or_else(|| panic!("no {name}{label} in {o:?}"))
}

#[test]
fn the_memory_view_points_pointers_at_their_targets_and_marks_the_changed_cell() {
    for engine in [EngineKind::Interp, EngineKind::Sparse] {
        let mut d = debugger(POOL, engine);
        assert_eq!(d.run_to_line(15), Stop::Done, "{engine:?}");
        let m = d.memory(None);
        let names: Vec<&str> = m.regions.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["globals", "main"]);
        let slot = |name: &str, label: &str| cell(&m, name, label).slot.unwrap();
        // `p → a[2]`, a list 3 → 2 → 1 → 0 → NULL, fields by name, `char` as its character.
        assert_eq!(cell(&m, "p", "").value, "→ a[2]");
        assert_eq!(cell(&m, "p", "").target, Some(slot("a", "[2]")));
        assert_eq!(cell(&m, "head", "").value, "→ pool[3]");
        assert_eq!(cell(&m, "head", "").target, Some(slot("pool", "[3].v")));
        for i in 1..4 {
            let next = cell(&m, "pool", &format!("[{i}].next"));
            assert_eq!(next.value, format!("→ pool[{}]", i - 1));
            assert_eq!(next.target, Some(slot("pool", &format!("[{}].v", i - 1))));
        }
        assert_eq!(cell(&m, "pool", "[0].next").value, "NULL");
        assert_eq!(cell(&m, "pool", "[0].next").target, None);
        assert_eq!(cell(&m, "pool", "[2].v").value, "20");
        assert_eq!(cell(&m, "c", "").value, "'a'");
        let pool = m.regions[0].objects.iter().find(|o| o.name == "pool").unwrap();
        assert_eq!((pool.ty.as_str(), pool.columns, pool.cells.len()), ("struct node[4]", 2, 8));
        // `*p = 7` changes a[2] and nothing else the view shows.
        let before = d.state().mem;
        assert_eq!(d.step_line(), Stop::Done);
        let m = d.memory(Some(&before));
        let changed: Vec<String> = m
            .regions
            .iter()
            .flat_map(|r| &r.objects)
            .flat_map(|o| o.cells.iter().filter(|c| c.changed).map(move |c| format!("{}{}", o.name, c.label)))
            .collect();
        assert_eq!(changed, ["a[2]"], "{engine:?}");
        assert_eq!(cell(&m, "a", "[2]").value, "7");
        assert!(d.memory(None).regions.iter().flat_map(|r| &r.objects).all(|o| o.cells.iter().all(|c| !c.changed)));
    }
}

#[test]
fn a_struct_prints_field_by_field_and_a_member_is_named_through_its_path() {
    let mut d = debugger(POOL, EngineKind::Interp);
    assert_eq!(d.run_to_line(15), Stop::Done);
    assert_eq!(d.print("pool[1]").unwrap(), "{v = 10, next = → pool[0]}");
    assert_eq!(d.print("head").unwrap(), "→ pool[3]");
}

/// Structures by member as gdb prints them (`{x = 3, y = 4}`): nested ones, an array and
/// pointers inside one, a union (every member reading the shared word as its own type:
/// `-1` is `255` to an 8-bit `unsigned`), and one too wide to show whole.
const SHAPES: &str = "\
struct point { int x; int y; };
struct seg { struct point a, b; };
struct bag { int n; int items[3]; int *best; struct point *at; };
union word { int i; unsigned u; };
struct wide { int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17; } lots;
struct seg s;
int main() {
    struct point p = {3, 4};
    s.a = p;
    s.b.x = 7;
    s.b.y = -1;
    struct bag g = {2, {5, 6, 7}, 0, 0};
    g.best = &g.items[1];
    g.at = &s.b;
    union word w;
    w.i = -1;
    lots.f17 = 9;
    return p.x + w.i;
}
";

const SEG: &str = "{a = {x = 3, y = 4}, b = {x = 7, y = -1}}";
const BAG: &str = "{n = 2, items = {5, 6, 7}, best = → g.items[1], at = → s.b}";
const WORD: &str = "{i = -1, u = 255}";
const LOTS: &str = "{f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0, \
                    f10 = 0, f11 = 0, f12 = 0, f13 = 0, f14 = 0, f15 = 0, …}";

#[test]
fn structures_and_unions_show_by_member_on_every_engine() {
    for engine in [EngineKind::Interp, EngineKind::Sparse] {
        let mut d = debugger(SHAPES, engine);
        assert_eq!(d.run_to_line(17), Stop::Done, "{engine:?}");
        let main = &d.frames()[0];
        assert_eq!(var(main, "p"), "{x = 3, y = 4}", "{engine:?}");
        assert_eq!(var(main, "g"), BAG, "{engine:?}");
        assert_eq!(var(main, "w"), WORD, "{engine:?}");
        let ty = |name: &str| main.vars.iter().find(|v| v.name == name).unwrap().ty.clone();
        assert_eq!((ty("p"), ty("w")), ("struct point".into(), "union word".into()));
        assert_eq!(d.print("s").unwrap(), SEG, "{engine:?}");
        assert_eq!(d.print("g").unwrap(), BAG, "{engine:?}");
        assert_eq!(d.print("w").unwrap(), WORD, "{engine:?}");
        assert_eq!(d.print("lots").unwrap(), LOTS, "{engine:?}");
        // Members as in C, each of its own type: the union's words read as `unsigned`.
        assert_eq!(d.print("g.best").unwrap(), "→ g.items[1]", "{engine:?}");
        assert_eq!(d.print("*g.best + g.items[2]").unwrap(), "13", "{engine:?}");
        assert_eq!(d.print("g.at->y").unwrap(), "-1", "{engine:?}");
        assert_eq!(d.print("s.b").unwrap(), "{x = 7, y = -1}", "{engine:?}");
        assert_eq!(d.print("g.items").unwrap(), "{5, 6, 7}", "{engine:?}");
        assert_eq!(d.print("w.u").unwrap(), "255", "{engine:?}");
        assert_eq!(d.print("w.u > 0 && w.i < 0").unwrap(), "1", "{engine:?}");
        assert_eq!(d.print("p.z").unwrap_err(), "`struct point` has no member `z`");
        assert_eq!(d.agrees(), engine.is_transformer().then_some(true));
        // The page's variables table: the same text, keyed as the run report keys variables.
        let table = value::formatted(d.program(), &d.state().mem);
        let shown: Vec<(&str, &str)> = table.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(shown, [("lots", LOTS), ("s", SEG), ("p", "{x = 3, y = 4}"), ("g", BAG), ("w", WORD)], "{engine:?}");
        // The memory view names the union's type too.
        let m = d.memory(None);
        let w = m.regions.iter().flat_map(|r| &r.objects).find(|o| o.name == "w").unwrap();
        assert_eq!((w.ty.as_str(), w.cells.len()), ("union word", 2));
    }
}

#[test]
fn loom_debug_prints_structures_by_member() {
    let script = "break 17\nrun\nprint s\nprint w\nbt\nprint g.at->x\nquit\n";
    for engine in ["interp", "sparse"] {
        let out = loom_debug(SHAPES, script, &["--engine", engine]);
        let expected = format!(
            "Breakpoint 1 at line 17\n\nBreakpoint 1, main (p = {{x = 3, y = 4}}, g = {BAG}, w = {WORD}) at line 17\n\
             17\tlots.f17 = 9;\n$1 = {SEG}\n$2 = {WORD}\n#0  main (p = {{x = 3, y = 4}}, g = {BAG}, w = {WORD}) at line 17\n$3 = 7\n"
        );
        assert_eq!(out, expected, "{engine}");
    }
}
