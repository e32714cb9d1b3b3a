//! The demos compile, fit their configuration and do what they claim, driven
//! through the host exchange exactly as a page drives them. Every check takes
//! `&mut dyn Engine`; `engines` lists the engines to run them on.

use loom_core::compiler::compile;
use loom_core::demos::{demo, Meta, DEMOS};
use loom_core::frontend::{EngineKind, Machine};
use loom_core::host::{read_scalar, read_var, run_to_frame, write_scalar, write_var};
use loom_core::machine::{lockstep::lockstep, SparseEngine};
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp, Program};

fn build(id: &str) -> (Program, Meta) {
    let d = demo(id).unwrap();
    let meta = d.meta().unwrap();
    let out = compile(d.source, Config::preset(&meta.config).unwrap());
    let msgs: Vec<_> = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    let prog = out.program.unwrap_or_else(|| panic!("{id}.c does not compile: {msgs:#?}"));
    (prog, meta)
}

/// Every engine the checks run on, freshly loaded: the interpreter and the
/// sparse transformer (which must reach the same boards, scores and solutions).
fn engines(prog: &Program) -> Vec<Box<dyn Engine>> {
    vec![Box::new(Interp::new(prog).unwrap()), Box::new(SparseEngine::new(prog).unwrap())]
}

/// The interpreter and the sparse transformer given the same host writes,
/// then run side by side, compared after every step.
fn in_lockstep(prog: &Program, writes: &[(&str, Vec<i64>)], max_steps: u64) -> Status {
    let mut oracle = Interp::new(prog).unwrap();
    let mut sparse = SparseEngine::new(prog).unwrap();
    for (name, values) in writes {
        write_var(&mut oracle, name, values).unwrap();
        write_var(&mut sparse, name, values).unwrap();
    }
    lockstep(&mut sparse, &mut oracle, max_steps).unwrap_or_else(|d| panic!("{d}"))
}

/// Runs to the end, counting frames; panics on a fault or a runaway program.
fn run_to_end(e: &mut dyn Engine, max_steps: u64) -> usize {
    let mut frames = 0;
    loop {
        match run_to_frame(e, max_steps) {
            Status::Running => frames += 1,
            Status::Halted => return frames,
            s => panic!("stopped with {s:?} after {} steps", e.steps()),
        }
    }
}

#[test]
fn every_demo_compiles_fits_and_has_the_globals_its_metadata_names() {
    for d in DEMOS {
        let (prog, meta) = build(d.id);
        let cfg = prog.config;
        assert!(prog.code.len() <= cfg.instr_slots() && prog.used_slots() <= cfg.mem_slots);
        eprintln!(
            "{}: {} instructions of {}, {} slots of {}",
            d.id,
            prog.code.len(),
            cfg.instr_slots(),
            prog.used_slots(),
            cfg.mem_slots
        );
        let e = Interp::new(&prog).unwrap();
        for name in meta.inputs.iter().map(|i| &i.name).chain(meta.outputs.iter().map(|o| &o.name)) {
            read_var(&e, name).unwrap_or_else(|err| panic!("{}: {err}", d.id));
        }
        let shown = read_var(&e, &meta.display.var).unwrap().len();
        let cells = match meta.display.kind.as_str() {
            "bars" => meta.display.width,
            _ => meta.display.width * meta.display.height,
        };
        assert_eq!(shown, cells, "{}: display size", d.id);
        for ex in &meta.examples {
            let mut e = Interp::new(&prog).unwrap();
            for (name, values) in &ex.writes {
                write_var(&mut e, name, values).unwrap_or_else(|err| panic!("{} / {}: {err}", d.id, ex.name));
            }
        }
        assert_eq!(meta.fps.is_some(), !prog.frames.is_empty(), "{}: frames and fps go together", d.id);
    }
}

fn check_sort(e: &mut dyn Engine, algo: i64, input: &[i64]) {
    write_scalar(e, "algo", algo).unwrap();
    write_var(e, "values", input).unwrap();
    let frames = run_to_end(e, 100_000);
    let got: Vec<i64> = read_var(e, "values").unwrap().into_iter().map(i64::from).collect();
    let mut want = input.to_vec();
    want.sort();
    assert_eq!(got, want, "algo {algo}");
    let compares = read_scalar(e, "compares").unwrap();
    eprintln!("sort algo {algo}: {} steps, {frames} frames, {compares} comparisons", e.steps());
    assert!(frames >= 1 && (11..=66).contains(&compares));
}

#[test]
fn every_sort_sorts_every_example() {
    let (prog, meta) = build("sort");
    for algo in 0..3 {
        for ex in &meta.examples {
            for e in &mut engines(&prog) {
                check_sort(e.as_mut(), algo, &ex.writes["values"]);
            }
        }
    }
}

#[test]
fn the_sort_makes_up_an_input_when_given_none() {
    let (prog, _) = build("sort");
    for e in &mut engines(&prog) {
        run_to_end(e.as_mut(), 100_000);
        let v = read_var(e.as_ref(), "values").unwrap();
        assert!(v[0] > 0 && v.windows(2).all(|w| w[0] <= w[1]), "{v:?}");
    }
}

/// Plays Snake: `keys` holds one digit per tick (the key written at that
/// frame). Returns the board as text rows, the score and `game_over`.
fn play_snake(e: &mut dyn Engine, seed: i64, keys: &str) -> (String, i32, i32) {
    write_scalar(e, "seed", seed).unwrap();
    let mut keys = keys.bytes();
    let mut most = 0;
    loop {
        let before = e.steps();
        match run_to_frame(e, 2000) {
            Status::Running => {}
            Status::Halted => break,
            s => panic!("{s:?}"),
        }
        most = most.max(e.steps() - before);
        let Some(k) = keys.next() else { break };
        write_scalar(e, "key", i64::from(k - b'0')).unwrap();
    }
    eprintln!("snake: at most {most} steps per tick");
    let screen = read_var(e, "screen").unwrap();
    let board = screen.chunks(8).map(|row| row.iter().map(|&v| b".oH*"[v as usize] as char).collect::<String>());
    (board.collect::<Vec<_>>().join("\n"), read_scalar(e, "score").unwrap(), read_scalar(e, "game_over").unwrap())
}

#[test]
fn snake_moves_eats_grows_and_ignores_reversing() {
    let (prog, _) = build("snake");
    for e in &mut engines(&prog) {
        // Left at once is a reversal and is ignored; up, then left along the top row eats the food.
        let (board, score, over) = play_snake(e.as_mut(), 1, "410004003002000000100");
        let want = ".......H\n.......o\n.......o\n......oo\n.......*\n........\n........\n........";
        assert_eq!((board.as_str(), score, over), (want, 2, 0), "\n{board}");
    }
}

#[test]
fn snake_dies_on_walls_and_on_itself() {
    let (prog, _) = build("snake");
    for e in &mut engines(&prog) {
        let (board, score, over) = play_snake(e.as_mut(), 7, "1000000");
        assert_eq!((score, over), (0, 1), "\n{board}");
        assert!(e.status() == Status::Halted && board.starts_with("..H....."), "\n{board}");
    }
    for e in &mut engines(&prog) {
        // Grow to length 5, then turn down and right into the body.
        let (board, score, over) = play_snake(e.as_mut(), 1, "410004003002000000100432000");
        let want = "......oo\n......Ho\n........\n........\n.......*\n........\n........\n........";
        assert_eq!((board.as_str(), score, over), (want, 2, 1), "\n{board}");
    }
}

/// The next cell on a Hamiltonian cycle of the 8×8 board: right along the
/// even rows and left along the odd ones (columns 1..7), then up column 0.
fn cycle_next(x: i32, y: i32) -> (i32, i32) {
    match (x, y) {
        (0, 0) => (1, 0),
        (0, _) => (0, y - 1),
        (7, _) if y % 2 == 0 => (7, y + 1),
        (_, _) if y % 2 == 0 => (x + 1, y),
        (1, 7) => (0, 7),
        (1, _) => (1, y + 1),
        _ => (x - 1, y),
    }
}

#[test]
fn snake_steered_along_a_cycle_grows_until_it_wins() {
    let (prog, _) = build("snake");
    for e in &mut engines(&prog) {
        let e = e.as_mut();
        write_scalar(e, "seed", 42).unwrap();
        let mut most = 0;
        for _ in 0..64 * 40 {
            let before = e.steps();
            if run_to_frame(e, 5000) != Status::Running {
                break;
            }
            most = most.max(e.steps() - before);
            let screen = read_var(e, "screen").unwrap();
            let count = |v: i32| screen.iter().filter(|&&c| c == v).count();
            let length = read_scalar(e, "score").unwrap() as usize + 3;
            assert_eq!((count(1), count(2), count(3)), (length - 1, 1, 1), "{screen:?}");
            let at = screen.iter().position(|&c| c == 2).unwrap() as i32;
            let (x, y) = (at % 8, at / 8);
            let (nx, ny) = cycle_next(x, y);
            let key = match (nx - x, ny - y) {
                (0, -1) => 1,
                (1, 0) => 2,
                (0, 1) => 3,
                _ => 4,
            };
            write_scalar(e, "key", key).unwrap();
        }
        eprintln!("snake, a whole game: at most {most} steps per tick, {} steps", e.steps());
        assert_eq!(e.status(), Status::Halted);
        assert_eq!((read_scalar(e, "game_over").unwrap(), read_scalar(e, "score").unwrap()), (2, 37));
    }
}

fn puzzle(meta: &Meta, name: &str) -> Vec<i64> {
    meta.examples.iter().find(|x| x.name.starts_with(name)).unwrap().writes["grid"].clone()
}

/// Solves and returns (`solved`, the grid, placements, backtracks).
fn solve(e: &mut dyn Engine, grid: &[i64]) -> (i32, Vec<i32>, u32, u32) {
    write_var(e, "grid", grid).unwrap();
    run_to_end(e, 100_000_000);
    let counts = (wide(e, "placements"), wide(e, "backtracks"));
    eprintln!("sudoku: {} steps, {} placements, {} backtracks", e.steps(), counts.0, counts.1);
    (read_scalar(e, "solved").unwrap(), read_var(e, "grid").unwrap(), counts.0, counts.1)
}

/// A two-word counter: `name` is the low word, `name_hi` the high one (both read unsigned).
fn wide(e: &dyn Engine, name: &str) -> u32 {
    let word = |n: &str| read_scalar(e, n).unwrap() as u32 & 255;
    word(name) + 256 * word(&format!("{name}_hi"))
}

/// Every row, column and box holds 1..9 once, and the givens are kept (negated).
fn assert_solution(puzzle: &[i64], grid: &[i32]) {
    for (p, &g) in puzzle.iter().zip(grid) {
        assert!(if *p == 0 { (1..=9).contains(&g) } else { g as i64 == -p }, "{grid:?}");
    }
    for u in 0..9 {
        let row: Vec<usize> = (0..9).map(|k| 9 * u + k).collect();
        let col: Vec<usize> = (0..9).map(|k| u + 9 * k).collect();
        let bx: Vec<usize> = (0..9).map(|k| 27 * (u / 3) + 3 * (u % 3) + 9 * (k / 3) + k % 3).collect();
        for unit in [row, col, bx] {
            let mut digits: Vec<i32> = unit.iter().map(|&i| grid[i].abs()).collect();
            digits.sort();
            assert_eq!(digits, (1..=9).collect::<Vec<_>>(), "{grid:?}");
        }
    }
}

#[test]
fn sudoku_solves_the_easy_and_the_classic_puzzle() {
    let (prog, meta) = build("sudoku");
    for name in ["Easy", "Classic"] {
        let p = puzzle(&meta, name);
        // The classic puzzle takes 3.3 M steps: whole on the interpreter here,
        // on the transformer in `loom bench --full` and as a lockstep prefix below.
        let mut all = engines(&prog);
        all.truncate(if name == "Easy" { 2 } else { 1 });
        for e in &mut all {
            let (solved, grid, placements, backtracks) = solve(e.as_mut(), &p);
            assert_eq!(solved, 1, "{name}");
            assert_solution(&p, &grid);
            // Every backtrack undoes one placement; the rest fill the empty cells.
            let empty = p.iter().filter(|&&v| v == 0).count() as u32;
            assert_eq!(placements - backtracks, empty, "{name}");
        }
    }
}

#[test]
fn sudoku_reports_invalid_and_unsolvable_puzzles() {
    let (prog, meta) = build("sudoku");
    let invalid = puzzle(&meta, "Invalid");
    // No repeated given, but the last cell of the first row has no digit left.
    let mut stuck = vec![0; 81];
    stuck[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    stuck[17] = 9;
    let mut out_of_range = puzzle(&meta, "Easy");
    out_of_range[40] = 10;
    for p in [invalid, stuck, out_of_range] {
        for e in &mut engines(&prog) {
            let (solved, _, placements, _) = solve(e.as_mut(), &p);
            assert_eq!((solved, placements), (-1, 0));
        }
    }
}

#[test]
fn sudoku_classic_runs_in_lockstep_on_the_transformer_for_a_prefix() {
    let (prog, meta) = build("sudoku");
    let status = in_lockstep(&prog, &[("grid", puzzle(&meta, "Classic"))], 200_000);
    assert_eq!(status, Status::Running, "still solving after the prefix");
}

#[test]
fn sorts_run_in_lockstep_on_the_transformer() {
    let (prog, meta) = build("sort");
    for ex in &meta.examples {
        for algo in 0..3 {
            let mut writes: Vec<(&str, Vec<i64>)> = ex.writes.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            writes.retain(|(k, _)| *k != "algo");
            writes.push(("algo", vec![algo]));
            assert_eq!(in_lockstep(&prog, &writes, 100_000), Status::Halted, "{} / algo {algo}", ex.name);
        }
    }
}

/// Solves Hanoi for `disks` on a machine of `kind`: the moves counted, the pegs at the end
/// and what it printed (through the host's console collection, as the page's Console).
fn hanoi(kind: EngineKind, prog: &Program, disks: i64) -> (i32, Vec<i32>, String, usize) {
    let mut m = Machine::new(kind, prog).unwrap();
    write_scalar(&mut m, "disks", disks).unwrap();
    let frames = run_to_end(&mut m, 1_000_000);
    (read_scalar(&m, "moves").unwrap(), read_var(&m, "tower").unwrap(), m.output().text(), frames)
}

#[test]
fn hanoi_moves_every_disk_to_peg_c_and_prints_each_move() {
    let (prog, meta) = build("hanoi");
    for ex in &meta.examples {
        let disks = ex.writes["disks"][0];
        let (moves, tower, text, frames) = hanoi(EngineKind::Interp, &prog, disks);
        assert_eq!((moves, frames), ((1 << disks) - 1, (1 << disks) - 1), "{}", ex.name);
        // Peg C (column 2) holds 1..=disks from the top; A and B are empty.
        let pegs: Vec<Vec<i32>> = (0..3).map(|p| tower.iter().skip(p).step_by(3).copied().collect()).collect();
        let stack: Vec<i32> = (0..5).map(|r| (r as i64 - (5 - disks) + 1).max(0) as i32).collect();
        assert_eq!(pegs, [vec![0; 5], vec![0; 5], stack], "{}", ex.name);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), moves as usize + 2, "{text}");
        assert_eq!(lines[0], format!("{disks} disks from A to C"));
        assert_eq!(lines[1], "1: disk 1 A -> ".to_owned() + if disks % 2 == 0 { "B" } else { "C" });
        assert_eq!(*lines.last().unwrap(), format!("done in {moves} moves"));
        assert_eq!(hanoi(EngineKind::Sparse, &prog, disks), (moves, tower, text, frames), "{}: sparse", ex.name);
    }
}
