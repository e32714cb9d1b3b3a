//! Layer-level checks: the one-layer subtractor exhaustively, dense ≡ sparse
//! bit for bit after every layer, shortcuts ≡ plain, the traced step, and
//! that a wrong weight is caught.

mod machine_common;
use loom_core::machine::sparse::{Shortcuts, Sparse};
use loom_core::machine::{dense::Dense, lockstep::lockstep, tensor, weights::Weights, Backend, SparseEngine};
use loom_core::{isa::Instr, isa::Opcode, Engine, Interp};
use machine_common::*;

#[test]
fn l4_subtracts_every_8_bit_pair_with_and_without_borrow() {
    let cfg = cfg("tiny");
    let w = Weights::build(&cfg);
    let lay = w.layout;
    let mut engine = Sparse::new(&w);
    let base = tensor::encode(&program(cfg, vec![], &[]), &lay);
    let mut x = base.clone();
    for carry in [0u64, 1] {
        for a in 0..256u64 {
            for b in 0..256u64 {
                x.data.copy_from_slice(&base.data);
                x.put_bits(lay.min, 0, a);
                x.put_bits(lay.sub, 0, b);
                x.set(lay.carry(), 0, carry as f32);
                engine.forward_layer(3, &mut x);
                let want = cfg.wrap(a as i64 - b as i64 - carry as i64);
                assert_eq!(tensor::register(&x, &cfg, lay.min), want, "{a} − {b} − {carry}");
            }
        }
    }
}

/// DIVSUB on the whole machine for every pair of 8-bit words, and DROL for every
/// pair: the L2 comparison unit (`ReLU(q + 2z) − ReLU(2z)`) and the second write.
#[test]
fn division_steps_every_8_bit_pair() {
    let mut rig = Rig::new("tiny", false);
    let c = rig.cfg;
    for op in [Opcode::Divsub, Opcode::Drol] {
        for x in -128..128i64 {
            for y in -128..128i64 {
                let prog = program(c, vec![Instr::ext(op, m(&c, 0), m(&c, 1)), Instr::HALT], &[(0, x), (1, y)]);
                rig.check(&prog, 3, &format!("{op} {x}, {y}"));
            }
        }
    }
}

/// A MULSTEP program: `MULSTEP acc, x` with the multiplier in x's partner slot.
fn mulstep(c: loom_core::Config, acc: i64, x: i64, multiplier: i64) -> loom_core::Program {
    let ins = Instr::ext(Opcode::Mulstep, m(&c, 0), m(&c, 2));
    program(c, vec![ins, Instr::HALT], &[(0, acc), (2, x), (3, multiplier)])
}

/// MULSTEP on the whole machine for every multiplicand and multiplier of 8 bits,
/// each with an accumulator that varies with them: L2's ADD operands, L3's settle
/// by the multiplier's top bit (read by the LOAD head at c ^ 1) and the second write.
#[test]
fn mulstep_every_8_bit_triple() {
    let mut rig = Rig::new("tiny", false);
    let c = rig.cfg;
    for x in -128..128i64 {
        for y in -128..128i64 {
            let acc = c.wrap(x * 7 + y * 13 + 5) as i64;
            rig.check(&mulstep(c, acc, x, y), 3, &format!("MULSTEP {acc}, {x} (multiplier {y})"));
        }
    }
}

/// 32 MULSTEPs from 0 multiply any two 32-bit words: on the sparse engine in
/// lockstep with the interpreter, near the limb and word boundaries (where the low
/// limb's borrow is taken back) and random pairs; on the boundary pairs the first
/// MULSTEP also on the dense reference, bit for bit equal to the sparse engine after
/// every layer (the dense engine is too slow for whole products here).
#[test]
fn mulstep_multiplies_32_bit_words() {
    let mut rig = Rig::new("tiny32", false);
    let c = rig.cfg;
    let w = Weights::build(&c);
    let (mut sparse, mut dense) = (Sparse::new(&w), Dense::new(&w));
    let mut words: Vec<u64> = vec![0, 1, 0xffff, 0x1_0000, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 2, 0x8000];
    let mut rng = Rng::new(3233);
    words.extend((0..6).map(|_| rng.next() & 0xffff_ffff));
    let with_dense = 7;
    for (i, &x) in words.iter().enumerate() {
        for (j, &y) in words.iter().enumerate() {
            let (x, y) = (x as u32 as i32 as i64, y as u32 as i32 as i64);
            // tiny32 has room for a loop, not 32 copies: MULSTEP; DEC k; JNZ k.
            let code = vec![
                Instr::ext(Opcode::Mulstep, m(&c, 0), m(&c, 2)),
                Instr::ext(Opcode::Dec, m(&c, 4), 0),
                Instr::ext(Opcode::Jnz, m(&c, 4), t(&c, 0)),
                Instr::HALT,
            ];
            // The accumulator starts nonzero on the dense pairs, so the first step adds to a sum.
            let acc = if i < with_dense && j < with_dense { x ^ 0x1234_5678 } else { 0 };
            let prog = program(c, code, &[(0, acc), (2, x), (3, y), (4, 32)]);
            let what = format!("{x:#x} × {y:#x}");
            assert_eq!(rig.check(&prog, 100, &what), 97, "{what}");
            let mut i = Interp::new(&prog).unwrap();
            i.run(100, None);
            let want = c.wrap((acc << 32).wrapping_add(x.wrapping_mul(y)));
            assert_eq!(i.mem()[0] as i64, want as i64, "{what}");
            if acc != 0 {
                let mut t = [tensor::encode(&prog, &w.layout), tensor::encode(&prog, &w.layout)];
                for layer in 0..w.layers.len() {
                    sparse.forward_layer(layer, &mut t[0]);
                    dense.forward_layer(layer, &mut t[1]);
                    let same = t[0].data.iter().zip(&t[1].data).all(|(p, q)| p.to_bits() == q.to_bits());
                    assert!(same, "{what}: dense ≠ sparse after layer {}", layer + 1);
                }
            }
        }
    }
}

/// The two-limb subtractor at 32 bits, through the engines' L3 (the borrow
/// between the limbs) and L4: every pair of words near the limb and word
/// boundaries and random pairs, with and without a borrow-in; the dense
/// reference beside it on the boundary pairs. (Every sum of every limb is
/// covered exhaustively by the unit tests beside the construction.)
#[test]
fn l3_l4_subtract_32_bit_words_at_every_boundary() {
    let cfg = cfg("tiny32");
    let w = Weights::build(&cfg);
    let lay = w.layout;
    let (mut sparse, mut dense) = (Sparse::new(&w), Dense::new(&w));
    let base = tensor::encode(&program(cfg, vec![], &[]), &lay);
    let mut words: Vec<u64> = vec![0, 1, 2, 0x7fff, 0x8000, 0xffff, 0x1_0000, 0x1_0001, 0x7fff_ffff, 0x8000_0000];
    words.extend([0x8000_0001, 0xffff_ffff, 0xfffe_ffff, 0xffff_0000, 0x1234_5678, 0xdead_beef, 0x0001_ffff]);
    let mut rng = Rng::new(32);
    words.extend((0..20).map(|_| rng.next() & 0xffff_ffff));
    for carry in [0u64, 1] {
        for (i, &a) in words.iter().enumerate() {
            for (j, &b) in words.iter().enumerate() {
                let with_dense = i < 12 && j < 12;
                let mut x = [base.clone(), base.clone()];
                for x in &mut x {
                    x.put_bits(lay.min, 0, a);
                    x.put_bits(lay.sub, 0, b);
                    x.set(lay.carry(), 0, carry as f32);
                }
                for layer in [2, 3] {
                    sparse.forward_layer(layer, &mut x[0]);
                    if with_dense {
                        dense.forward_layer(layer, &mut x[1]);
                    }
                }
                let want = cfg.wrap(a as i64 - b as i64 - carry as i64);
                assert_eq!(tensor::register(&x[0], &cfg, lay.min), want, "{a:#x} − {b:#x} − {carry}");
                let same = || x[0].data.iter().zip(&x[1].data).all(|(p, q)| p.to_bits() == q.to_bits());
                assert!(!with_dense || same(), "{a:#x} − {b:#x} − {carry}: dense ≠ sparse");
            }
        }
    }
}

/// DIVSUB and DROL at 32 bits, where DIVSUB compares in two 16-bit limbs (L2's
/// flags, settled in L3): every pair of words near the limb and word boundaries
/// and random pairs, on the sparse engine in lockstep with the interpreter, and on
/// the boundary pairs also the dense reference in lockstep and bit for bit equal
/// to the sparse engine after every layer of the step.
#[test]
fn division_steps_32_bit_words_at_every_boundary() {
    let mut rig = Rig::new("tiny32", true);
    let c = rig.cfg;
    let w = Weights::build(&c);
    let lay = w.layout;
    let (mut sparse, mut dense) = (Sparse::new(&w), Dense::new(&w));
    let mut words: Vec<u64> = vec![0, 1, 2, 0x7fff, 0x8000, 0xffff, 0x1_0000, 0x1_0001, 0x7fff_ffff, 0x8000_0000];
    words.extend([0x8000_0001, 0xffff_ffff, 0xfffe_ffff, 0xffff_0000, 0x1234_5678, 0x1234_5677, 0x0001_ffff]);
    let mut rng = Rng::new(3232);
    words.extend((0..8).map(|_| rng.next() & 0xffff_ffff));
    // Pairs equal in the high limb and straddling in the low one.
    words.extend([0x1234_0000, 0x1234_ffff, 0xdead_8000, 0xdead_7fff]);
    let with_dense = 10;
    for op in [Opcode::Divsub, Opcode::Drol] {
        for (i, &x) in words.iter().enumerate() {
            for (j, &y) in words.iter().enumerate() {
                let (x, y) = (x as u32 as i32 as i64, y as u32 as i32 as i64);
                let prog = program(c, vec![Instr::ext(op, m(&c, 0), m(&c, 1)), Instr::HALT], &[(0, x), (1, y)]);
                let what = format!("{op} {x:#x}, {y:#x}");
                if i < with_dense && j < with_dense {
                    rig.check(&prog, 3, &what);
                    let mut t = [tensor::encode(&prog, &lay), tensor::encode(&prog, &lay)];
                    for layer in 0..w.layers.len() {
                        sparse.forward_layer(layer, &mut t[0]);
                        dense.forward_layer(layer, &mut t[1]);
                        let same = t[0].data.iter().zip(&t[1].data).all(|(p, q)| p.to_bits() == q.to_bits());
                        assert!(same, "{what}: dense ≠ sparse after layer {}", layer + 1);
                    }
                } else {
                    rig.sparse.reload(&prog).unwrap();
                    let mut interp = Interp::new(&prog).unwrap();
                    if let Err(d) = lockstep(&mut rig.sparse, &mut interp, 3) {
                        panic!("sparse, {what}: {d}");
                    }
                }
            }
        }
    }
}

/// Runs `steps` steps of a random program layer by layer on the dense
/// engine, the sparse engine and the sparse engine without shortcuts,
/// comparing the three tensors bit for bit after every layer.
fn layers_agree(name: &str, seeds: u64, steps: u64) {
    let cfg = cfg(name);
    let w = Weights::build(&cfg);
    let (mut dense, mut fast, mut plain) =
        (Dense::new(&w), Sparse::with_shortcuts(&w, Shortcuts::ALL), Sparse::with_shortcuts(&w, Shortcuts::NONE));
    for seed in 0..seeds {
        let mut rng = Rng::new(seed + 100);
        let slots = cfg.mem_slots;
        let mut code = Vec::new();
        for _ in 0..12 {
            let (b, c) = (m(&cfg, rng.below(slots)), m(&cfg, rng.below(slots)));
            let ops = [
                Opcode::Add,
                Opcode::Sub,
                Opcode::Swap,
                Opcode::Xor,
                Opcode::Mulacc,
                Opcode::Or,
                Opcode::Cmov,
                Opcode::Drol,
                Opcode::Divsub,
                Opcode::Mulstep,
            ];
            let op = ops[rng.below(ops.len())];
            if op == Opcode::Drol && b == c || op == Opcode::Mulstep && b == c ^ 1 {
                continue;
            }
            code.push(Instr::ext(op, b, c));
        }
        code.push(Instr::subleq(m(&cfg, 0), m(&cfg, 1), t(&cfg, 0)));
        code.push(Instr::ext(Opcode::Jmp, 0, t(&cfg, 0)));
        let data: Vec<(usize, i64)> = (0..slots).map(|s| (s, random_word(&cfg, &mut rng))).collect();
        let prog = program(cfg, code, &data);
        let mut x =
            [tensor::encode(&prog, &w.layout), tensor::encode(&prog, &w.layout), tensor::encode(&prog, &w.layout)];
        let mut oracle = Interp::new(&prog).unwrap();
        for step in 0..steps {
            if !oracle.step().is_running() {
                break;
            }
            for layer in 0..8 {
                dense.forward_layer(layer, &mut x[0]);
                fast.forward_layer(layer, &mut x[1]);
                plain.forward_layer(layer, &mut x[2]);
                let bits = |t: &tensor::Tensor| t.data.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert!(
                    bits(&x[0]) == bits(&x[1]),
                    "{name} seed {seed} step {step}: dense ≠ sparse after layer {}",
                    layer + 1
                );
                assert!(
                    bits(&x[1]) == bits(&x[2]),
                    "{name} seed {seed} step {step}: shortcuts ≠ plain after layer {}",
                    layer + 1
                );
            }
            assert_eq!(tensor::state(&x[1], &w.layout, &cfg), oracle.state(), "{name} seed {seed} step {step}");
            clean_between_steps(&x[1], &w, &format!("{name} seed {seed} step {step}"));
        }
    }
}

/// Between steps the tensor is exact: working rows are zero everywhere and
/// every memory and PC bit is exactly ±1.
fn clean_between_steps(x: &tensor::Tensor, w: &Weights, what: &str) {
    let (lay, cfg) = (&w.layout, &w.config);
    for col in 0..lay.n {
        for r in lay.working() {
            for row in r.rows() {
                assert_eq!(x.get(row, col), 0.0, "{what}: {} in column {col}", lay.label(row));
            }
        }
    }
    for slot in 0..cfg.mem_slots {
        for row in lay.mem.rows() {
            assert_eq!(x.get(row, cfg.mem_col(slot)).abs(), 1.0, "{what}: {} of slot {slot}", lay.label(row));
        }
    }
    for row in lay.pc.rows() {
        assert_eq!(x.get(row, 0).abs(), 1.0, "{what}: {}", lay.label(row));
    }
}

#[test]
fn dense_equals_sparse_bitwise_tiny() {
    layers_agree("tiny", 4, 60);
}

#[test]
fn dense_equals_sparse_bitwise_small() {
    layers_agree("small", 2, 30);
}

#[test]
fn dense_equals_sparse_bitwise_tiny16() {
    layers_agree("tiny16", 3, 40);
}

#[test]
fn dense_equals_sparse_bitwise_small16() {
    layers_agree("small16", 1, 20);
}

#[test]
fn dense_equals_sparse_bitwise_tiny32() {
    layers_agree("tiny32", 3, 40);
}

#[test]
fn dense_equals_sparse_bitwise_small32() {
    layers_agree("small32", 1, 20);
}

#[test]
fn traced_step_shows_the_fetch_tie_and_every_layer() {
    let cfg = cfg("small");
    let prog = program(cfg, vec![Instr::ext(Opcode::Add, m(&cfg, 3), m(&cfg, 5)), Instr::HALT], &[(3, 2), (5, 9)]);
    let mut e = SparseEngine::new(&prog).unwrap();
    let (_, trace) = e.step_traced();
    assert_eq!(trace.layers.len(), 8);
    assert_eq!(&trace.layers[7].after, e.tensor());
    let fetch = &trace.layers[0].heads[0];
    let m0 = fetch.matches.iter().find(|m| m.source == 0).expect("column 0 fetches");
    assert_eq!(m0.targets, vec![0, cfg.instr_col(0)]);
    assert!(m0.tie && m0.best1 == m0.best2);
    let read_c = &trace.layers[1].heads[2];
    assert!(read_c.matches.iter().any(|m| m.source == 0 && m.targets == [0, cfg.mem_col(5)]));
    assert_eq!(e.read_slot(3), 11);
}

#[test]
fn a_wrong_weight_is_caught_by_lockstep() {
    let cfg = cfg("tiny");
    let prog = program(cfg, vec![Instr::ext(Opcode::Add, m(&cfg, 0), m(&cfg, 1)), Instr::HALT], &[(0, 5), (1, 6)]);
    let mut w = Weights::build(&cfg);
    // Break one threshold of the subtractor.
    w.layers[3].ffn.units[0].w2[0].1 *= -1.0;
    let mut e = SparseEngine::with_backend(&prog, Sparse::new(&w), w);
    let err = lockstep(&mut e, &mut Interp::new(&prog).unwrap(), 10).unwrap_err();
    assert!(err.to_string().contains("slot 0"), "{err}");
}

#[test]
fn host_writes_reach_the_tensor() {
    let cfg = cfg("tiny");
    let prog = program(cfg, vec![Instr::ext(Opcode::Inc, m(&cfg, 2), 0), Instr::HALT], &[]);
    let mut e = SparseEngine::new(&prog).unwrap();
    e.write_slot(2, 130);
    assert_eq!(e.read_slot(2), -126);
    e.run(10, None);
    assert_eq!(e.read_slot(2), -125);
}

/// The sparse engine keeps 4-word row masks (the cost per step of every mask
/// test) on every machine of at most 256 rows, and takes the 6-word ones only
/// for the 32-bit machines, whose d exceeds 256.
#[test]
fn row_masks_are_as_wide_as_the_machine_needs() {
    for name in ["tiny", "small", "tiny16", "small16", "tiny32", "small32"] {
        let w = Weights::build(&cfg(name));
        let wide = matches!(Sparse::new(&w), Sparse::Wide(_));
        assert_eq!(wide, w.layout.d > 256, "{name}: d = {}", w.layout.d);
        assert_eq!(wide, w.config.word_bits == 32, "{name}");
    }
}
