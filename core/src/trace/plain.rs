//! The reference's store: a plain map from address to the last value written.
//! No attention, no trace — what the heads must agree with on every read.

use crate::trace::exec::{Space, Store};
use crate::trace::runner::Runner;
use crate::trace::Trap;
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct Plain {
    cells: HashMap<(Space, u32), u32>,
    writes: u64,
}

impl Store for Plain {
    fn read(&mut self, space: Space, addr: u32) -> Result<Option<u32>, Trap> {
        Ok(self.cells.get(&(space, addr)).copied())
    }

    fn write(&mut self, space: Space, addr: u32, value: u32) -> Result<(), Trap> {
        self.cells.insert((space, addr), value);
        self.writes += 1;
        Ok(())
    }

    fn seq(&self) -> u64 {
        self.writes
    }
}

impl Plain {
    /// The last value written at `addr` (uncounted; for results and views).
    pub fn get(&self, space: Space, addr: u32) -> Option<u32> {
        self.cells.get(&(space, addr)).copied()
    }
}

/// Our reference interpreter: the same steps on plain memory.
pub type Reference = Runner<Plain>;

impl Reference {
    pub fn reference(code: crate::trace::code::Code) -> Reference {
        Runner::new(code, Plain::default())
    }

    /// The values left on the stack, bottom first.
    pub fn stack(&self) -> Vec<i32> {
        (0..self.regs().sp).map(|i| self.store().get(Space::Stack, i).unwrap_or(0) as i32).collect()
    }

    /// A byte of linear memory.
    pub fn byte(&self, addr: u32) -> u8 {
        self.store().get(Space::Memory, addr).unwrap_or(0) as u8
    }

    pub fn global(&self, i: u32) -> i32 {
        self.store().get(Space::Globals, i).unwrap_or(0) as i32
    }
}
