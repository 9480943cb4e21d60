//! Record mode (docs/semantics.md S21; seed 003 "Record mode", "Record mode
//! setup"): the per-domain record counters, position and limit (advanced at
//! the domain's ticks), the per-domain outgoing slot, and the shared AXI4
//! write manager (every bus cycle). Mirrors `rtl/pcnt/pcnt_record.sv` and
//! `rtl/pcnt/pcnt_axi_wr.sv`.
//!
//! Contract: the counters hold outside record mode; a trigger (STOP != 0, a
//! counter the format carries >= 0xf000, or a stale RECORD_START) fires only
//! when the slot is empty, the domain is not wedged, RECORD_START is not
//! written and GCTRL.RECORD_RESET is 0, otherwise the counters keep counting
//! (event counters saturate at 0xffff, STOP at 0xfff, CYCLES wraps at 2^48).
//! A firing trigger restarts the counters; it sends a packet when the buffer
//! is valid and the channel bound, faults the domain when the buffer is valid
//! and the channel unbound, and drops the packet when the buffer is invalid
//! (S21 (a)..(d)). In SHORT format EV[4..11] are held at 0 (S21 (e)). A sent
//! packet holds the pre-tick values; the tick's inputs start the next one.
//! The limit is checked after the send. The manager moves one 16-byte beat
//! per transaction, round-robin over busy slots; BRESP != OKAY wedges.

/// Event counters' trigger level (seed: "reaches 0xf000").
pub const NEAR_OVERFLOW: u16 = 0xf000;
pub const EV_MAX: u16 = 0xffff;
pub const STOP_MAX: u16 = 0xfff;
pub const CYCLES_MASK: u64 = (1 << 48) - 1;
/// AXI4 BRESP OKAY.
pub const RESP_OKAY: u8 = 0;

/// Record counters and buffer state of one domain (advance at ticks).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RecordState {
    pub cycles: u64,
    /// PRE_SRC[0..3], START_SRC[0..3], EVENT_SRC[0..3].
    pub ev: [u16; 12],
    pub stop: u16,
    /// Address of the next packet (bits 3:0 always 0).
    pub position: u32,
    pub buffer_valid: bool,
    /// RECORD_START written outside record mode, not yet acted on (S21 (d)).
    pub stale: bool,
}

/// A packet in the outgoing slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Packet {
    /// Sixteen little-endian 16-bit words (S21 layout).
    pub words: [u16; 16],
    /// 40-bit address: {ADDRESS_HIGH, 32-bit position}.
    pub addr: u64,
    pub long: bool,
}

impl Packet {
    /// Bytes `16*half .. 16*half+16` as a little-endian 128-bit beat.
    pub fn beat(&self, half: usize) -> u128 {
        (0..8).fold(0u128, |a, i| a | u128::from(self.words[half * 8 + i]) << (16 * i))
    }

    /// Address of beat `half`: +16 wraps in the low 32 bits (4 GiB, S21).
    pub fn beat_addr(&self, half: usize) -> u64 {
        let lo = (self.addr as u32).wrapping_add(16 * half as u32);
        (self.addr & !0xffff_ffff) | u64::from(lo)
    }
}

/// Memory-port side of one domain (changes on any bus cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Slot {
    pub busy: bool,
    pub pkt: Packet,
    pub fault: bool,
    pub wedged: bool,
}

/// Inputs of one domain's record tick.
pub struct RecordInputs {
    pub record_mode: bool,
    /// SRC_STATUS bits 0..11 of the tick.
    pub sel: u16,
    pub stop: bool,
    pub record_reset: bool,
    /// The channel binding (S21 (a)).
    pub bound: bool,
    /// RECORD_START write data of the tick.
    pub start_write: Option<u32>,
    pub limit: u32,
    pub addr_high: u8,
    pub long: bool,
    /// Slot busy or domain wedged (port state of this cycle).
    pub blocked: bool,
}

/// What a record tick did, for the harness's reach counts.
pub mod event {
    pub const SEND: u16 = 1;
    pub const SEND_STOP: u16 = 2;
    pub const SEND_OVERFLOW: u16 = 4;
    pub const SEND_STOP_MULTI: u16 = 8;
    pub const LIMIT_HIT: u16 = 16;
    pub const WRAP_4G: u16 = 32;
    pub const SEND_SHORT: u16 = 64;
    pub const SEND_LONG: u16 = 128;
    pub const TRIGGER_BLOCKED: u16 = 256;
    pub const EV_SATURATED: u16 = 512;
    pub const STOP_SATURATED: u16 = 1024;
    /// A trigger fired with the channel unbound: VM fault, domain wedged
    /// (S21 (b)); the set acts on this bit.
    pub const UNBOUND_FAULT: u16 = 2048;
    /// A trigger fired with BUFFER_VALID = 0: packet dropped (S21 (c)).
    pub const DROP_AFTER_LIMIT: u16 = 4096;
    /// The stale-RECORD_START trigger sent its packet (S21 (d)).
    pub const BOGUS_PACKET: u16 = 8192;
    /// A SHORT record tick in which a counter SHORT does not carry had its
    /// signal at 1 and was held at 0 (S21 (e)).
    pub const SHORT_HIDDEN_HELD: u16 = 16384;
}

/// Event counters a packet of the format carries (S21 (e)).
pub fn carried(long: bool) -> usize {
    if long {
        12
    } else {
        4
    }
}

impl RecordState {
    pub fn trigger(&self, record_mode: bool, long: bool) -> bool {
        record_mode && (self.stop != 0 || self.ev[..carried(long)].iter().any(|&e| e >= NEAR_OVERFLOW) || self.stale)
    }

    /// One tick: returns the next state and the packet sent, if any, plus
    /// reach events.
    pub fn step(&self, inp: &RecordInputs) -> (RecordState, Option<Packet>, u16) {
        let mut d = self.clone();
        let mut ev = 0u16;
        let trigger = self.trigger(inp.record_mode, inp.long);
        let fire = trigger && !inp.blocked && inp.start_write.is_none() && !inp.record_reset;
        let send = fire && self.buffer_valid && inp.bound;
        if trigger && !fire {
            ev |= event::TRIGGER_BLOCKED;
        }
        if fire && self.buffer_valid && !inp.bound {
            ev |= event::UNBOUND_FAULT;
        }
        if fire && !self.buffer_valid {
            ev |= event::DROP_AFTER_LIMIT;
        }
        if send && self.stale {
            ev |= event::BOGUS_PACKET;
        }
        let n = carried(inp.long);
        let bit = |i: usize| u16::from((inp.sel >> i) & 1 != 0);
        if inp.record_reset || (inp.start_write.is_some() && inp.record_mode) {
            (d.cycles, d.ev, d.stop) = (0, [0; 12], 0);
        } else if inp.record_mode {
            d.cycles = self.cycles.wrapping_add(1) & CYCLES_MASK;
            if n < 12 && inp.sel & 0xff0 != 0 {
                ev |= event::SHORT_HIDDEN_HELD;
            }
            if fire {
                d.ev = std::array::from_fn(|i| if i < n { bit(i) } else { 0 });
                d.stop = u16::from(inp.stop);
            } else {
                d.ev = std::array::from_fn(|i| if i < n { self.ev[i].saturating_add(bit(i)) } else { 0 });
                d.stop = (self.stop + u16::from(inp.stop)).min(STOP_MAX);
                if (0..n).any(|i| self.ev[i] == EV_MAX && bit(i) == 1) {
                    ev |= event::EV_SATURATED;
                }
                if self.stop == STOP_MAX && inp.stop {
                    ev |= event::STOP_SATURATED;
                }
            }
        }
        d.stale = if inp.record_reset {
            false
        } else if inp.start_write.is_some() {
            !inp.record_mode
        } else {
            self.stale && !fire
        };
        let mut pkt = None;
        if let Some(v) = inp.start_write {
            d.position = v & !0xf;
            d.buffer_valid = true;
        } else if send {
            let size = if inp.long { 32 } else { 16 };
            d.position = self.position.wrapping_add(size);
            if self.position >= inp.limit & !0xf {
                d.buffer_valid = false;
                ev |= event::LIMIT_HIT;
            }
            if d.position < self.position {
                ev |= event::WRAP_4G;
            }
            let mut words = [0u16; 16];
            words[0] = self.cycles as u16;
            words[1] = (self.cycles >> 16) as u16;
            words[2] = (self.cycles >> 32) as u16;
            words[3] = self.stop;
            words[4..].copy_from_slice(&self.ev);
            pkt =
                Some(Packet { words, addr: u64::from(inp.addr_high) << 32 | u64::from(self.position), long: inp.long });
            ev |= event::SEND | if inp.long { event::SEND_LONG } else { event::SEND_SHORT };
            ev |= match self.stop {
                0 => event::SEND_OVERFLOW,
                1 => event::SEND_STOP,
                _ => event::SEND_STOP | event::SEND_STOP_MULTI,
            };
        }
        (d, pkt, ev)
    }
}

/// AXI4 subordinate -> manager signals of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AxiIn {
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u8,
}

/// AXI4 manager -> subordinate signals of a cycle (Moore: from state only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AxiOut {
    pub awvalid: bool,
    pub awaddr: u64,
    pub awlen: u8,
    pub awsize: u8,
    pub awburst: u8,
    pub wvalid: bool,
    pub wdata: u128,
    pub wstrb: u16,
    pub wlast: bool,
    pub bready: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PortState {
    #[default]
    Idle,
    Xfer,
    Resp,
}

/// The shared write manager (S21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    pub state: PortState,
    pub grant: usize,
    pub half: usize,
    pub aw_done: bool,
    pub w_done: bool,
    pub err: bool,
    /// Last granted domain (round-robin pointer).
    pub last: usize,
}

impl Port {
    pub fn new(num_domains: usize) -> Port {
        Port {
            state: PortState::Idle,
            grant: 0,
            half: 0,
            aw_done: false,
            w_done: false,
            err: false,
            last: num_domains - 1,
        }
    }

    /// This cycle's manager outputs.
    pub fn out(&self, slots: &[Slot]) -> AxiOut {
        if self.state == PortState::Idle {
            return AxiOut::default();
        }
        let pkt = &slots[self.grant].pkt;
        let xfer = self.state == PortState::Xfer;
        AxiOut {
            awvalid: xfer && !self.aw_done,
            awaddr: pkt.beat_addr(self.half),
            awlen: 0,
            awsize: 4,
            awburst: 1,
            wvalid: xfer && !self.w_done,
            wdata: pkt.beat(self.half),
            wstrb: 0xffff,
            wlast: true,
            bready: self.state == PortState::Resp,
        }
    }

    /// Next port state; returns `Some((domain, error))` when a packet is done.
    pub fn step(&self, slots: &[Slot], inp: &AxiIn) -> (Port, Option<(usize, bool)>) {
        let mut d = *self;
        let n = slots.len();
        match self.state {
            PortState::Idle => {
                if let Some(g) = (1..=n).map(|k| (self.last + k) % n).find(|&g| slots[g].busy) {
                    (d.state, d.grant, d.half, d.aw_done, d.w_done, d.err) =
                        (PortState::Xfer, g, 0, false, false, false);
                }
                (d, None)
            }
            PortState::Xfer => {
                let o = self.out(slots);
                d.aw_done = self.aw_done || (o.awvalid && inp.awready);
                d.w_done = self.w_done || (o.wvalid && inp.wready);
                if d.aw_done && d.w_done {
                    d.state = PortState::Resp;
                }
                (d, None)
            }
            PortState::Resp => {
                if !inp.bvalid {
                    return (d, None);
                }
                d.err = self.err || inp.bresp != RESP_OKAY;
                if slots[self.grant].pkt.long && self.half == 0 {
                    (d.state, d.half, d.aw_done, d.w_done) = (PortState::Xfer, 1, false, false);
                    (d, None)
                } else {
                    (d.state, d.last) = (PortState::Idle, self.grant);
                    (d, Some((self.grant, d.err)))
                }
            }
        }
    }
}
