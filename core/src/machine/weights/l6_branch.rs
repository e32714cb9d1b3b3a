//! L6 flag + PC+1: the branch flag from the result R (in min) and the
//! opcode, and PC + 1 by the step construction on the PC bits.

use super::{FfnBuilder, Gates, Layer, Lin};
use crate::isa::Opcode;
use crate::machine::layout::Layout;

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let mut f = FfnBuilder::default();
    let flag = lay.flag();
    // zero: −ΣR − N + 1 is 1 when every bit is −1, ≤ −1 otherwise.
    let mut zero = Lin::konst(1.0 - lay.word as f32);
    for i in 0..lay.word {
        zero = zero.add_row(lay.min.bit(i), -1.0);
    }
    let negative = Lin::row(lay.min.bit(lay.word - 1), 0.5).plus_const(0.5);
    let one = Lin::konst(1.0);
    // HALT jumps to c = 0.
    f.gated_pos(&one, &g.op(Opcode::Halt), flag, 1.0);
    f.gated_pos(&one, &g.op(Opcode::Jmp), flag, 1.0);
    f.relu(&zero.clone().plus(&g.op(Opcode::Jz)), &[(flag, 1.0)]);
    f.gated_pos(&one, &g.op(Opcode::Jnz), flag, 1.0);
    f.relu(&zero.clone().plus(&g.op(Opcode::Jnz)), &[(flag, -1.0)]);
    f.relu(&negative.clone().plus(&g.op(Opcode::Cmp)), &[(flag, 1.0)]);
    for cond in [&zero, &negative] {
        f.relu(&cond.clone().plus(&g.col0), &[(flag, 1.0)]);
        f.relu(&cond.clone().plus(&g.ext()), &[(flag, -1.0)]);
    }

    // PC + 1 into buffer.load: bit k is set iff 2^k ≤ S < 2^(k+1) for
    // S = (value of pc bits 0..=k) + 1.
    let next = lay.next_pc();
    let mut minus_one = Vec::new();
    for k in 0..lay.logn {
        let out = next.bit(k);
        let mut s = Lin::konst(1.0);
        for j in 0..=k {
            let w = (1u32 << j) as f32 / 2.0;
            s = s.add_row(lay.pc.bit(j), w).plus_const(w);
        }
        f.clear(out);
        f.step(&s, (1u32 << k) as f32, &g.col0, out, 2.0);
        f.step(&s, (2u32 << k) as f32, &g.col0, out, -2.0);
        minus_one.push((out, -1.0));
    }
    f.relu(&g.col0.clone().plus_const(1.0), &minus_one);
    Layer { name: "L6 flag+PC+1", heads: Vec::new(), ffn: f.finish() }
}
