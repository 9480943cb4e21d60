//! The toy counter's reference model (tests/toy/README.md T1..T3): state
//! apart from the step, next state then commit. No I/O.

use pcounter::{common::bus::BusOp, common::bus::BusResult};

/// The offsets of the window (T1).
pub const CTRL: u16 = 0x0;
pub const COUNT: u16 = 0x4;

/// The registers (`_q`): CTRL.EN and COUNT, 0 after reset (T3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToyCounter {
    pub en: bool,
    pub count: u32,
}

impl ToyCounter {
    /// A register as a read returns it; `None` off the window.
    pub fn read(&self, off: u16) -> Option<u32> {
        match off {
            CTRL => Some(u32::from(self.en)),
            COUNT => Some(self.count),
            _ => None,
        }
    }

    /// One bus clock: answer the ACCESS-cycle operation `bus` from this
    /// cycle's registers, then commit the next ones (T1, T2).
    pub fn step(&mut self, event: bool, bus: Option<BusOp>) -> BusResult {
        let mut r = BusResult::default();
        let (mut en_d, mut count_d) = (self.en, self.count.wrapping_add(u32::from(self.en && event)));
        match bus {
            None => {}
            Some(BusOp::Read { offset }) => match self.read(offset) {
                Some(v) => r.rdata = v,
                None => r.slverr = true,
            },
            Some(BusOp::Write { offset, data, strb }) => match offset {
                _ if strb != 0xf => r.slverr = true,
                CTRL => en_d = data & 1 != 0,
                COUNT => count_d = data,
                _ => r.slverr = true,
            },
        }
        (self.en, self.count) = (en_d, count_d);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // T2: a COUNT write wins over the cycle's increment; the count wraps.
    #[test]
    fn write_wins_and_the_count_wraps() {
        let mut m = ToyCounter { en: true, count: u32::MAX };
        assert_eq!(m.step(true, None), BusResult::default());
        assert_eq!(m.count, 0);
        m.step(true, Some(BusOp::Write { offset: COUNT, data: 7, strb: 0xf }));
        assert_eq!(m.count, 7);
        let r = m.step(true, Some(BusOp::Write { offset: 0x8, data: 1, strb: 0xf }));
        assert!(r.slverr);
        assert_eq!(m.count, 8);
    }
}
