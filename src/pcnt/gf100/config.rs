//! Static configuration of a GF100+ PCOUNTER (docs/semantics.md S25.0,
//! docs/design/gf100.md 1.4): how many GPC and partition units, the domains
//! of each set and each domain's signal count. Mirrors the `pcnt_gf100_top`
//! parameters.
//!
//! Flat domain numbering (scripts, views, `set`, `clock`, `poke`): the GPC
//! units in order, each unit's domains in order; then the partitions; then
//! the hub. A *set* is one GPC, one partition or the hub (seed 003
//! "GF100"): domains import EVENT/FLAG only from their own set.

/// Most GPC units the window decodes (rnndb `GPC_DOM` length 32).
pub const MAX_GPC: usize = 32;
/// Most partition units (rnndb `PART_DOM` length 16).
pub const MAX_PART: usize = 16;
/// Most domains of one set (a 0x1000 unit holds 8 blocks of 0x200; the
/// trailer has 8 DOM[k] positions, seed 003 "Trailer signals").
pub const MAX_SET_DOMS: usize = 8;
/// Most domains in one top: the per-domain clock enables are one `u64`.
pub const MAX_DOMAINS: usize = 64;

/// The kind of a domain set (seed 003 "GF100": "one per GPC, one per
/// memory partition, one hub set").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetKind {
    Gpc,
    Part,
    Hub,
}

impl SetKind {
    pub fn name(self) -> &'static str {
        match self {
            SetKind::Gpc => "gpc",
            SetKind::Part => "part",
            SetKind::Hub => "hub",
        }
    }
}

/// Where a flat domain sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomPlace {
    pub kind: SetKind,
    /// GPC or partition index; 0 for the hub.
    pub unit: usize,
    /// Index of the domain inside its set (its DOM[k] number).
    pub idx: usize,
    /// Flat index of the set (GPCs, then partitions, then the hub).
    pub set: usize,
    /// Flat index of the set's domain 0.
    pub set_base: usize,
    pub set_size: usize,
    pub sig_count: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GfConfig {
    /// Signal count of each domain of one GPC (every GPC alike): 1..=8 domains.
    pub gpc_sigs: Vec<u16>,
    pub num_gpc: usize,
    /// Signal count of each domain of one partition: 1..=8 domains.
    pub part_sigs: Vec<u16>,
    pub num_part: usize,
    /// The hub set's domains: 0..=8 (empty: no hub set, HUB_* absent).
    pub hub_sigs: Vec<u16>,
    /// `StrictDecode` (S8): PSLVERR on absent addresses, else read 0.
    pub strict_decode: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GfConfigError {
    UnitCount { kind: SetKind, n: usize, max: usize },
    SetSize { kind: SetKind, n: usize },
    TooManyDomains(usize),
    SigCount { kind: SetKind, idx: usize, count: u16 },
    UnknownPreset(String),
}

impl std::fmt::Display for GfConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GfConfigError::UnitCount { kind, n, max } => {
                write!(f, "{n} {} units out of range (expected 1..={max})", kind.name())
            }
            GfConfigError::SetSize { kind, n } => {
                let lo = if *kind == SetKind::Hub { 0 } else { 1 };
                write!(f, "{} set of {n} domains out of range (expected {lo}..={MAX_SET_DOMS})", kind.name())
            }
            GfConfigError::TooManyDomains(n) => write!(f, "{n} domains in all (expected at most {MAX_DOMAINS})"),
            GfConfigError::SigCount { kind, idx, count } => write!(
                f,
                "{} domain {idx}: {count:#x} signals (expected a multiple of 0x20 in 0x20..=0x100)",
                kind.name()
            ),
            GfConfigError::UnknownPreset(p) => {
                write!(f, "unknown GF100 preset `{p}` (expected one of {})", PRESETS.join(", "))
            }
        }
    }
}

impl std::error::Error for GfConfigError {}

/// The named configurations (docs/design/gf100.md 1.4): `fermi` = a GF100
/// with two GPCs and two partitions of one 0xe0-signal domain each and no
/// hub (nouveau's GF100 tables); `kepler` = GK104's domain lists (hub 8
/// domains) with two GPCs and two partitions; `gf_fault` = a small mixed
/// set for the fault builds; `fermi_lax` = `fermi` with the hardware's
/// silent decode (StrictDecode = 0, S8, S25.0); `fermi_full` = a whole
/// GF100 die, 4 GPCs and 6 partitions, with nouveau's GF100 domain tables
/// (what a real GF100 trace addresses, S25.18).
pub const PRESETS: &[&str] = &["fermi", "kepler", "gf_fault", "fermi_lax", "fermi_full"];

impl GfConfig {
    pub fn preset(name: &str) -> Result<GfConfig, GfConfigError> {
        let c = match name {
            "fermi" => GfConfig {
                gpc_sigs: vec![0xe0],
                num_gpc: 2,
                part_sigs: vec![0xe0],
                num_part: 2,
                hub_sigs: Vec::new(),
                strict_decode: true,
            },
            "kepler" => GfConfig {
                gpc_sigs: vec![0xe0, 0x20, 0x20],
                num_gpc: 2,
                part_sigs: vec![0x60, 0x60],
                num_part: 2,
                hub_sigs: vec![0x60, 0x40, 0x60, 0x60, 0x40, 0x60, 0xc0, 0x60],
                strict_decode: true,
            },
            "fermi_lax" => GfConfig { strict_decode: false, ..GfConfig::preset("fermi")? },
            "fermi_full" => GfConfig { num_gpc: 4, num_part: 6, ..GfConfig::preset("fermi")? },
            "gf_fault" => GfConfig {
                gpc_sigs: vec![0xe0, 0x20],
                num_gpc: 2,
                part_sigs: vec![0x60],
                num_part: 2,
                hub_sigs: vec![0x60, 0x40],
                strict_decode: true,
            },
            _ => return Err(GfConfigError::UnknownPreset(name.to_string())),
        };
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> Result<(), GfConfigError> {
        for (kind, n, max) in [(SetKind::Gpc, self.num_gpc, MAX_GPC), (SetKind::Part, self.num_part, MAX_PART)] {
            if n == 0 || n > max {
                return Err(GfConfigError::UnitCount { kind, n, max });
            }
        }
        for (kind, sigs) in self.kinds() {
            if sigs.len() > MAX_SET_DOMS || (sigs.is_empty() && kind != SetKind::Hub) {
                return Err(GfConfigError::SetSize { kind, n: sigs.len() });
            }
            if let Some((idx, &count)) = sigs.iter().enumerate().find(|(_, &c)| c == 0 || c > 0x100 || c % 0x20 != 0) {
                return Err(GfConfigError::SigCount { kind, idx, count });
            }
        }
        let n = self.num_domains();
        if n > MAX_DOMAINS {
            return Err(GfConfigError::TooManyDomains(n));
        }
        Ok(())
    }

    fn kinds(&self) -> [(SetKind, &[u16]); 3] {
        [(SetKind::Gpc, &self.gpc_sigs), (SetKind::Part, &self.part_sigs), (SetKind::Hub, &self.hub_sigs)]
    }

    pub fn num_domains(&self) -> usize {
        self.num_gpc * self.gpc_sigs.len() + self.num_part * self.part_sigs.len() + self.hub_sigs.len()
    }

    pub fn num_sets(&self) -> usize {
        self.num_gpc + self.num_part + usize::from(!self.hub_sigs.is_empty())
    }

    /// Units of a kind (the hub counts as one unit when present).
    pub fn units(&self, kind: SetKind) -> usize {
        match kind {
            SetKind::Gpc => self.num_gpc,
            SetKind::Part => self.num_part,
            SetKind::Hub => usize::from(!self.hub_sigs.is_empty()),
        }
    }

    pub fn set_sigs(&self, kind: SetKind) -> &[u16] {
        match kind {
            SetKind::Gpc => &self.gpc_sigs,
            SetKind::Part => &self.part_sigs,
            SetKind::Hub => &self.hub_sigs,
        }
    }

    /// The flat index of domain `idx` of unit `unit` of `kind`, if present.
    pub fn flat(&self, kind: SetKind, unit: usize, idx: usize) -> Option<usize> {
        let size = self.set_sigs(kind).len();
        if unit >= self.units(kind) || idx >= size {
            return None;
        }
        let base = match kind {
            SetKind::Gpc => 0,
            SetKind::Part => self.num_gpc * self.gpc_sigs.len(),
            SetKind::Hub => self.num_gpc * self.gpc_sigs.len() + self.num_part * self.part_sigs.len(),
        };
        Some(base + unit * size + idx)
    }

    /// Where flat domain `dom` sits; `None` beyond the last domain.
    pub fn place(&self, dom: usize) -> Option<DomPlace> {
        let mut first = 0;
        let mut set = 0;
        for (kind, sigs) in self.kinds() {
            let units = self.units(kind);
            let size = sigs.len();
            if dom < first + units * size {
                let unit = (dom - first) / size;
                let idx = (dom - first) % size;
                return Some(DomPlace {
                    kind,
                    unit,
                    idx,
                    set: set + unit,
                    set_base: first + unit * size,
                    set_size: size,
                    sig_count: sigs[idx],
                });
            }
            first += units * size;
            set += units;
        }
        None
    }

    /// The MMIO address of flat domain `dom`'s block (docs/design/gf100.md 1.1).
    pub fn dom_addr(&self, dom: usize) -> Option<u32> {
        let p = self.place(dom)?;
        let unit_base = match p.kind {
            SetKind::Gpc => 0x18_0000 + 0x1000 * p.unit as u32,
            SetKind::Part => 0x1a_0000 + 0x1000 * p.unit as u32,
            SetKind::Hub => 0x1b_0000,
        };
        Some(unit_base + 0x200 * p.idx as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    // Flat numbering and addresses of the kepler preset, written out by hand
    // from docs/design/gf100.md 1.1 / 1.4 (GPC unit stride 0x1000, domain
    // stride 0x200, PART at 0x1a0000, HUB at 0x1b0000).
    #[rstest]
    #[case(0, place(SetKind::Gpc, 0, 0, 0, 0, 3, 0xe0), 0x18_0000)]
    #[case(2, place(SetKind::Gpc, 0, 2, 0, 0, 3, 0x20), 0x18_0400)]
    #[case(3, place(SetKind::Gpc, 1, 0, 1, 3, 3, 0xe0), 0x18_1000)]
    #[case(6, place(SetKind::Part, 0, 0, 2, 6, 2, 0x60), 0x1a_0000)]
    #[case(9, place(SetKind::Part, 1, 1, 3, 8, 2, 0x60), 0x1a_1200)]
    #[case(10, place(SetKind::Hub, 0, 0, 4, 10, 8, 0x60), 0x1b_0000)]
    #[case(16, place(SetKind::Hub, 0, 6, 4, 10, 8, 0xc0), 0x1b_0c00)]
    #[case(17, place(SetKind::Hub, 0, 7, 4, 10, 8, 0x60), 0x1b_0e00)]
    fn kepler_numbering(#[case] dom: usize, #[case] want: DomPlace, #[case] addr: u32) {
        let c = GfConfig::preset("kepler").unwrap();
        assert_eq!(c.place(dom), Some(want));
        assert_eq!(c.dom_addr(dom), Some(addr));
        assert_eq!(c.flat(want.kind, want.unit, want.idx), Some(dom));
    }

    #[allow(clippy::too_many_arguments)]
    const fn place(
        kind: SetKind,
        unit: usize,
        idx: usize,
        set: usize,
        set_base: usize,
        set_size: usize,
        sig_count: u16,
    ) -> DomPlace {
        DomPlace { kind, unit, idx, set, set_base, set_size, sig_count }
    }

    #[test]
    fn preset_sizes() {
        let f = GfConfig::preset("fermi").unwrap();
        assert_eq!((f.num_domains(), f.num_sets(), f.units(SetKind::Hub)), (4, 4, 0));
        assert_eq!(f.place(4), None);
        assert_eq!(f.flat(SetKind::Hub, 0, 0), None);
        let k = GfConfig::preset("kepler").unwrap();
        assert_eq!((k.num_domains(), k.num_sets()), (18, 5));
        assert_eq!(k.place(18), None);
        let g = GfConfig::preset("gf_fault").unwrap();
        assert_eq!((g.num_domains(), g.num_sets()), (8, 5));
    }

    #[rstest]
    #[case(|c: &mut GfConfig| c.num_gpc = 0, "0 gpc units out of range (expected 1..=32)")]
    #[case(|c: &mut GfConfig| c.num_part = 17, "17 part units out of range (expected 1..=16)")]
    #[case(|c: &mut GfConfig| c.gpc_sigs.clear(), "gpc set of 0 domains out of range (expected 1..=8)")]
    #[case(|c: &mut GfConfig| c.hub_sigs = vec![0x20; 9], "hub set of 9 domains out of range (expected 0..=8)")]
    #[case(|c: &mut GfConfig| c.part_sigs[0] = 0x50, "part domain 0: 0x50 signals (expected a multiple of 0x20 in 0x20..=0x100)")]
    #[case(|c: &mut GfConfig| c.hub_sigs = vec![0x120], "hub domain 0: 0x120 signals (expected a multiple of 0x20 in 0x20..=0x100)")]
    #[case(|c: &mut GfConfig| { c.num_gpc = 32; c.gpc_sigs = vec![0x20; 3]; }, "98 domains in all (expected at most 64)")]
    fn validate_rejects(#[case] edit: fn(&mut GfConfig), #[case] msg: &str) {
        let mut c = GfConfig::preset("fermi").unwrap();
        edit(&mut c);
        assert_eq!(c.validate().unwrap_err().to_string(), msg);
    }

    #[test]
    fn unknown_preset() {
        assert_eq!(
            GfConfig::preset("tesla").unwrap_err().to_string(),
            "unknown GF100 preset `tesla` (expected one of fermi, kepler, gf_fault, fermi_lax, fermi_full)"
        );
    }
}
