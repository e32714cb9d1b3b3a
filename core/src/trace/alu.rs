//! i32 arithmetic with WebAssembly's exact semantics: wrapping arithmetic,
//! shift counts taken mod 32, signed and unsigned views of the same bits, and
//! the two arithmetic traps. This is the machine's feed-forward part; the heads
//! only move values.

use crate::trace::Trap;

macro_rules! ops {
    ($(#[$m:meta])* $name:ident { $($v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($v),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// The WebAssembly mnemonic.
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s),* }
            }
        }
    };
}

ops!(
    /// Operators taking one i32.
    UnOp {
        Eqz = "i32.eqz", Clz = "i32.clz", Ctz = "i32.ctz", Popcnt = "i32.popcnt",
        Extend8S = "i32.extend8_s", Extend16S = "i32.extend16_s",
    }
);

ops!(
    /// Operators taking two i32s (`a` below `b` on the stack).
    BinOp {
        Add = "i32.add", Sub = "i32.sub", Mul = "i32.mul",
        DivS = "i32.div_s", DivU = "i32.div_u", RemS = "i32.rem_s", RemU = "i32.rem_u",
        And = "i32.and", Or = "i32.or", Xor = "i32.xor",
        Shl = "i32.shl", ShrS = "i32.shr_s", ShrU = "i32.shr_u", Rotl = "i32.rotl", Rotr = "i32.rotr",
        Eq = "i32.eq", Ne = "i32.ne",
        LtS = "i32.lt_s", LtU = "i32.lt_u", GtS = "i32.gt_s", GtU = "i32.gt_u",
        LeS = "i32.le_s", LeU = "i32.le_u", GeS = "i32.ge_s", GeU = "i32.ge_u",
    }
);

pub fn unary(op: UnOp, a: i32) -> i32 {
    match op {
        UnOp::Eqz => (a == 0).into(),
        UnOp::Clz => a.leading_zeros() as i32,
        UnOp::Ctz => a.trailing_zeros() as i32,
        UnOp::Popcnt => a.count_ones() as i32,
        UnOp::Extend8S => a as i8 as i32,
        UnOp::Extend16S => a as i16 as i32,
    }
}

pub fn binary(op: BinOp, a: i32, b: i32) -> Result<i32, Trap> {
    let (ua, ub) = (a as u32, b as u32);
    let divisor = || if b == 0 { Err(Trap::DivideByZero) } else { Ok(()) };
    Ok(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::DivS => {
            divisor()?;
            // The one quotient that does not fit: 2³¹ (the published machine
            // computed it on unsigned words and returned garbage instead).
            a.checked_div(b).ok_or(Trap::Overflow)?
        }
        BinOp::DivU => {
            divisor()?;
            (ua / ub) as i32
        }
        BinOp::RemS => {
            divisor()?;
            // i32::MIN % -1 is 0 in WebAssembly (no trap).
            a.wrapping_rem(b)
        }
        BinOp::RemU => {
            divisor()?;
            (ua % ub) as i32
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => a.wrapping_shl(ub),
        BinOp::ShrS => a.wrapping_shr(ub),
        BinOp::ShrU => ua.wrapping_shr(ub) as i32,
        BinOp::Rotl => ua.rotate_left(ub % 32) as i32,
        BinOp::Rotr => ua.rotate_right(ub % 32) as i32,
        BinOp::Eq => (a == b).into(),
        BinOp::Ne => (a != b).into(),
        BinOp::LtS => (a < b).into(),
        BinOp::LtU => (ua < ub).into(),
        BinOp::GtS => (a > b).into(),
        BinOp::GtU => (ua > ub).into(),
        BinOp::LeS => (a <= b).into(),
        BinOp::LeU => (ua <= ub).into(),
        BinOp::GeS => (a >= b).into(),
        BinOp::GeU => (ua >= ub).into(),
    })
}
