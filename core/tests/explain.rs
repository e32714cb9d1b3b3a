//! The Explain view's words against the trace: one program per operation
//! (all of them), stepped once on the transformer with its layers traced. Every
//! number in the explanation is recomputed from the traced tensors and the
//! heads' matches by where the explanation says it was read, and the
//! numbers that state the outcome (the decoded instruction, the result, the
//! written word, the new PC) are compared with the interpreter's step.

use loom_core::engine::Engine;
use loom_core::frontend::explain::{column_name, explain, plain, Explanation, Segment, Source, Target};
use loom_core::frontend::{
    build, Config, EngineKind, HeadRole, Lang, Layout, Machine, Match, StepTrace, Tensor, FIELDS,
};
use loom_core::isa::Opcode;
use loom_core::{Interp, Program};

/// Data every program shares: x = 3, y = −5, z = 0, p = 1 (a pointer to y), v = 9.
const DATA: &str = ".data x = 3\n.data y = -5\n.data z = 0\n.data p = 1\n.data v = 9\n";

/// The first instruction of each program is the operation under test; a
/// taken branch lands on `end`.
fn program_for(op: Opcode) -> String {
    let first = match op {
        Opcode::Halt => "HALT".to_owned(),
        Opcode::Jmp => "JMP end".to_owned(),
        Opcode::Jz => "JZ z, end".to_owned(),
        Opcode::Jnz => "JNZ x, end".to_owned(),
        Opcode::Cmp => "CMP y, end".to_owned(),
        Opcode::Inc | Opcode::Dec | Opcode::Shl => format!("{op} x"),
        Opcode::Shr => "SHR y".to_owned(),
        Opcode::Cmov | Opcode::Mulacc => format!("{op} y, x"),
        Opcode::Load | Opcode::Store => format!("{op} x, p"),
        Opcode::Find => "FIND x, y".to_owned(),
        // The multiplier is c's partner: y (−5, top bit set) for c = x.
        Opcode::Mulstep => "MULSTEP z, x".to_owned(),
        Opcode::Subleq => "SUBLEQ x, z, end".to_owned(),
        _ => format!("{op} x, y"),
    };
    format!("{DATA}{first}\nHALT\nend: HALT\n")
}

struct Stepped {
    prog: Program,
    lay: Layout,
    before: Tensor,
    trace: StepTrace,
    interp: Interp,
    words: Explanation,
}

/// Every operation on 8-bit words (`tiny`) and on 32-bit words (two limbs in L4).
fn cases() -> impl Iterator<Item = (Opcode, Config)> {
    let configs = [Config::preset("tiny").unwrap(), Config::custom(64, 32, 8).unwrap()];
    configs.into_iter().flat_map(|cfg| Opcode::all().map(move |op| (op, cfg)))
}

fn step(op: Opcode, cfg: Config) -> Stepped {
    let source = program_for(op);
    let prog = build(Lang::Asm, &source, cfg).program.unwrap_or_else(|| panic!("{op}: {source} does not assemble"));
    let mut m = Machine::new(EngineKind::Sparse, &prog).unwrap();
    let before = m.tensor().unwrap().clone();
    let lay = *m.layout().unwrap();
    let (_, trace) = m.step_traced();
    let trace = trace.expect("a transformer traces its step");
    let mut interp = Interp::new(&prog).unwrap();
    interp.step();
    let words = explain(&prog, &lay, &before, &trace);
    Stepped { prog, lay, before, trace, interp, words }
}

/// The test's own reading of a source: the field's rows by the layout's
/// declaration, bits by sign, two's complement for words.
fn read(st: &Stepped, source: &Source) -> f64 {
    match source {
        Source::Field { layer, field, column } => {
            let x = layer.map_or(&st.before, |i| &st.trace.layers[i].after);
            let region = st.lay.regions().into_iter().find(|r| r.name == field.as_str()).expect("a layout field");
            let decl = FIELDS.iter().find(|f| f.name == field.as_str()).unwrap();
            let mut v: i64 = 0;
            for row in region.rows() {
                v = v << 1 | i64::from(x.get(row, *column) > 0.0);
            }
            if decl.width == loom_core::frontend::Width::Word && v >> (region.len - 1) == 1 {
                v -= 1 << region.len;
            }
            v as f64
        }
        Source::Bit { layer, name } => {
            let row = match name.as_str() {
                "carry" => st.lay.carry(),
                "flag" => st.lay.flag(),
                "borrow" => st.lay.borrow(),
                other => panic!("no working bit {other}"),
            };
            f64::from(u8::from(st.trace.layers[*layer].after.get(row, 0) > 0.0))
        }
        Source::Others { layer, head } => {
            let head = &st.trace.layers[*layer].heads[*head];
            (head.matches.len() - head.matches.iter().filter(|m| work(head.role, m)).count()) as f64
        }
        Source::Score { layer, head, source, rank } => {
            let m = st.trace.layers[*layer].heads[*head].matches.iter().find(|m| m.source == *source).unwrap();
            f64::from(if *rank == 1 { m.best1 } else { m.best2 })
        }
    }
}

/// The test's own rule for a match that does the step's work: a value into column 0, or a write from it.
fn work(role: HeadRole, m: &Match) -> bool {
    match role {
        HeadRole::Write | HeadRole::SecondWrite => m.source == 0,
        _ => m.source != 0 && m.targets.contains(&0),
    }
}

/// Every value of some words, with where it was read.
fn values(words: &[Segment]) -> impl Iterator<Item = (f64, &Source)> {
    words.iter().filter_map(|s| s.value.as_ref().map(|v| (v.number, &v.source)))
}

/// The value a layer states for a field of a column after a layer.
fn stated(words: &[Segment], field: &str, column: usize, layer: Option<usize>) -> Option<f64> {
    values(words).find_map(|(n, s)| match s {
        Source::Field { layer: l, field: f, column: c } if f == field && *c == column && *l == layer => Some(n),
        _ => None,
    })
}

#[test]
fn every_number_of_every_operation_matches_its_trace() {
    for (op, cfg) in cases() {
        let st = step(op, cfg);
        let all = st.words.layers.iter().map(|l| &l.words[..]).chain([&st.words.instruction[..]]);
        for words in all {
            for seg in words {
                if let Some(v) = &seg.value {
                    assert_eq!(v.number, read(&st, &v.source), "{op}: `{}` in «{}»", seg.text, plain(words));
                    let shown: f64 =
                        seg.text.parse().unwrap_or_else(|_| panic!("{op}: `{}` is not a number", seg.text));
                    assert_eq!(shown, v.number, "{op}: the text shows another number than its value");
                }
                if let Some(Target::Column { column }) = &seg.target {
                    assert_eq!(seg.text, column_name(&st.prog, *column), "{op}: a column link names its column");
                }
            }
        }
    }
}

#[test]
fn the_stated_outcome_is_the_interpreters() {
    for (op, cfg) in cases() {
        let st = step(op, cfg);
        let w = &st.words;
        assert_eq!(w.layers.len(), 8, "{op}: eight layers");
        let names: Vec<&str> = w.layers.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names[0], "L1 fetch");
        assert!(plain(&w.instruction).contains(op.mnemonic()), "{op}: {}", plain(&w.instruction));
        assert!(plain(&w.instruction).contains(op.info().semantics), "{op}: the ISA table's semantics");
        for l in &w.layers {
            assert!(!plain(&l.words).trim().is_empty(), "{op}: {} says nothing", l.name);
        }

        // L1: the decoded fields are the instruction's.
        let ins = st.prog.code[0];
        for (field, want) in [("scratch.a", ins.a), ("scratch.b", ins.b), ("scratch.c", ins.c)] {
            assert_eq!(stated(&w.layers[0].words, field, 0, Some(0)), Some(f64::from(want)), "{op}: L1 {field}");
        }
        // L4: the subtraction as stated is arithmetic, wrapped to N bits.
        let l4 = &w.layers[3].words;
        let minuend = stated(l4, "scratch.min", 0, Some(2)).unwrap();
        let subtrahend = stated(l4, "scratch.sub", 0, Some(2)).unwrap();
        let borrow = values(l4).find(|(_, s)| matches!(s, Source::Bit { name, .. } if name == "carry")).unwrap().0;
        let result = stated(l4, "scratch.min", 0, Some(3)).unwrap();
        let wrapped = st.prog.config.wrap(minuend as i64 - subtrahend as i64 - borrow as i64);
        assert_eq!(f64::from(wrapped), result, "{op}: L4 {}", plain(l4));

        // L5: the result carried to column b is the interpreter's new M[b].
        let write = &st.trace.layers[4].heads[0].matches;
        if let Some(m) = write.iter().find(|m| m.source == 0) {
            let b = m.targets.iter().copied().find(|&t| t != 0).unwrap();
            let slot = b - st.prog.config.mem_col(0);
            let result = stated(&w.layers[4].words, "scratch.min", 0, Some(3)).unwrap();
            assert_eq!(result, f64::from(st.interp.state().mem[slot]), "{op}: L5 {}", plain(&w.layers[4].words));
        } else {
            assert!(plain(&w.layers[4].words).contains("No head wrote"), "{op}");
        }

        // L7 and L8 and the summary: the new PC and every changed word are the interpreter's.
        let pc = st.interp.pc() as f64;
        assert_eq!(stated(&w.layers[6].words, "pc", 0, Some(6)), Some(pc), "{op}: L7");
        assert_eq!(stated(&w.layers[7].words, "pc", 0, Some(7)), Some(pc), "{op}: L8");
        assert_eq!(stated(&w.instruction, "pc", 0, Some(7)), Some(pc), "{op}: the summary's PC");
        let before = Interp::new(&st.prog).unwrap().state().mem;
        let after = st.interp.state().mem;
        for (slot, (old, new)) in before.iter().zip(&after).enumerate() {
            let col = st.prog.config.mem_col(slot);
            let said = stated(&w.instruction, "memory", col, Some(7));
            if old == new {
                assert_eq!(said, None, "{op}: slot {slot} did not change");
            } else {
                assert_eq!(said, Some(f64::from(*new)), "{op}: slot {slot} in «{}»", plain(&w.instruction));
                assert_eq!(stated(&w.layers[7].words, "memory", col, Some(7)), Some(f64::from(*new)), "{op}: L8");
            }
        }
    }
}

#[test]
fn each_head_that_matched_is_explained_with_its_scores() {
    for (op, cfg) in cases() {
        let st = step(op, cfg);
        for (i, layer) in st.trace.layers.iter().enumerate() {
            for (h, head) in layer.heads.iter().enumerate() {
                // The mirror of a tie and matches between other columns are counted, not told one by one.
                for m in head.matches.iter().filter(|m| work(head.role, m)) {
                    let words = &st.words.layers[i].words;
                    let linked = words.iter().any(|s| s.target == Some(Target::Head { layer: i, head: h }));
                    assert!(linked, "{op}: {} head {} is not named in «{}»", layer.name, head.name, plain(words));
                    for rank in [1, 2] {
                        let src = Source::Score { layer: i, head: h, source: m.source, rank };
                        assert!(values(words).any(|(_, s)| *s == src), "{op}: {} score {rank} missing", head.name);
                    }
                    assert!(plain(words).contains(head.role.doc()), "{op}: the role's words");
                }
            }
        }
        // Operations that read memory through a pointer have a head in L3 that reaches column 0; others say none did.
        let l3 = plain(&st.words.layers[2].words);
        let indirect =
            matches!(op, Opcode::Load | Opcode::Store | Opcode::Swap | Opcode::Find | Opcode::Drol | Opcode::Mulstep);
        assert_eq!(!l3.contains("No head fired"), indirect, "{op}: {l3}");
        println!("{op}: {}", plain(&st.words.instruction));
        for l in &st.words.layers {
            println!("  {}: {}", l.name, plain(&l.words));
        }
    }
}
