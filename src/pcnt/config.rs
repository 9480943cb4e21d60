//! Static configuration of a domain set: generation strap, domain count and the
//! per-domain signal count / trailer base parameters (docs/semantics.md S0, S9).

use crate::pcnt::regs::{Gen, NUM_DOMAINS_MAX};

/// Mirrors the `pcnt_top` parameters plus the `gen_i` strap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub gen: Gen,
    pub num_domains: usize,
    /// Trailer base per domain (multiple of 0x20), seed 003 "Trailer signals".
    pub trailer_base: [u8; NUM_DOMAINS_MAX],
    /// Signals present per domain (1..=256), seed 003 "The PCOUNTER signals".
    pub sig_count: [u16; NUM_DOMAINS_MAX],
    /// Signal position of USER_0 per domain, USER_1 the next one (GT215, S19;
    /// envytools places them per domain). Default 0xea = base 0xe0 + 0x0a.
    pub user_pos: [u16; NUM_DOMAINS_MAX],
    /// `StrictDecode` (S8): true answers decode holes, absent registers and
    /// partial-strobe writes with PSLVERR; false reads 0 / ignores them.
    pub strict_decode: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    DomainCount(usize),
    /// More domains than the generation has (S24: NV10/NV15 one, NV20/NV30 two).
    DomainsForGen {
        gen: Gen,
        n: usize,
    },
    TrailerBase {
        dom: usize,
        base: u8,
    },
    SigCount {
        dom: usize,
        count: u16,
    },
    UserPos {
        dom: usize,
        pos: u16,
    },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::DomainCount(n) => write!(f, "domain count {n} out of range (expected 1..=8)"),
            ConfigError::DomainsForGen { gen, n } => {
                write!(f, "{} has at most {} domain(s), not {n} (docs/semantics.md S24)", gen.name(), gen.max_domains())
            }
            ConfigError::TrailerBase { dom, base } => {
                write!(f, "domain {dom}: trailer base {base:#x} is not a multiple of 0x20")
            }
            ConfigError::SigCount { dom, count } => {
                write!(f, "domain {dom}: signal count {count} must be <= 256 and hold the whole trailer")
            }
            ConfigError::UserPos { dom, pos } => write!(
                f,
                "domain {dom}: USER_0/USER_1 at {pos:#x}/{:#x} must be present signals outside trailer +0x0c..+0x1f",
                pos + 1
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Named per-domain signal layouts (docs/semantics.md S9, S19): which
/// `TrailerBases` / `SigCounts` / `UserPoss` a domain set is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Every domain 256 signals, trailer base 0xe0, USER_0 at 0xea.
    #[default]
    Default,
    /// A real GPU of the generation, from envytools' signal tables:
    /// `docs/hw/pcounter/nv10.rst` (NV10:NV40: 1 or 2 domains) and
    /// `tesla.rst` (G80:GF100: 8 domains); see `Config::with_layout`. None
    /// for NV40 (no table).
    Real,
    /// Non-default parameters chosen to exercise the corners: small signal
    /// counts, low trailer bases, USER below the trailer.
    Odd,
}

impl Layout {
    pub const NAMES: [&'static str; 3] = ["default", "real", "odd"];

    pub fn name(self) -> &'static str {
        Layout::NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Layout> {
        [Layout::Default, Layout::Real, Layout::Odd].into_iter().find(|l| l.name() == s)
    }
}

/// Trailer bases per domain of real GPUs: envytools tesla.rst, the rows of
/// the trailer signals (ZERO .. DOM[0].FLAG) of each domain: 0 host, 1 core
/// clock A, 2 core clock B, 3 shader, 4 memory, 5 core clock C, 6 vdec, 7
/// core clock D. G84 and G92/G94/G96 have the same table.
const REAL_BASES_G84: [u8; 8] = [0x40, 0xe0, 0x80, 0x20, 0x40, 0x40, 0xa0, 0xe0];
const REAL_BASES_GT215: [u8; 8] = [0xe0, 0xe0, 0xc0, 0x20, 0x60, 0x60, 0xc0, 0xe0];
/// GT215 PCOUNTER.USER rows per domain (tesla.rst: host 0x2a-0x2b, core A
/// 0x69-0x6a, core B 0x9e-0x9f, shader 0x13-0x14, memory 0x3b-0x3c, core C
/// 0x10-0x11, vdec 0x10-0x11, core D 0x4f-0x50).
const REAL_USER_GT215: [u16; 8] = [0x2a, 0x69, 0x9e, 0x13, 0x3b, 0x10, 0x10, 0x4f];
const ODD_BASES: [u8; 8] = [0x40, 0x20, 0x00, 0x60, 0xa0, 0x20, 0xc0, 0x00];
const ODD_COUNTS: [u16; 8] = [0x70, 0x40, 0x20, 0x80, 0xc0, 0x48, 0xe0, 0x30];
const ODD_USER: [u16; 8] = [0x13, 0x08, 0x0a, 0x62, 0x02, 0x46, 0x50, 0x20];

/// Trailer bases per domain of NV10:NV40 chips: envytools nv10.rst, the
/// "trailer base" line of each domain. NV10 and NV15 (and NV1F): one domain
/// at 0x80. NV20 and NV28: domain 0 (core clock) at 0xa0, domain 1 (mclk)
/// at 0x20. NV31, NV34, NV35: 0xe0 and 0x20 (S24.16).
const REAL_BASES_NV10: [u8; 1] = [0x80];
const REAL_BASES_NV20: [u8; 2] = [0xa0, 0x20];
const REAL_BASES_NV30: [u8; 2] = [0xe0, 0x20];

/// The trailer bases envytools tabulates for `gen`'s chips, one per domain
/// of the tabulated chips (data per chip, like a datasheet table; None
/// where envytools has none).
pub fn real_bases(gen: Gen) -> Option<&'static [u8]> {
    match gen {
        Gen::Nv10 | Gen::Nv15 => Some(&REAL_BASES_NV10),
        Gen::Nv20 => Some(&REAL_BASES_NV20),
        Gen::Nv30 => Some(&REAL_BASES_NV30),
        Gen::Nv40 => None,
        Gen::G84 | Gen::G92 => Some(&REAL_BASES_G84),
        Gen::Gt215 => Some(&REAL_BASES_GT215),
    }
}

impl Config {
    /// `Config::new` with a named layout. `Real` needs a generation
    /// envytools tabulates (NV10, NV15, NV20, NV30, G84, G92, GT215) and its
    /// chips' domain count (1, 1, 2, 2, 8, 8, 8); a real domain has base +
    /// 0x20 signals (the trailer is last) and, before GT215, USER at base +
    /// 0x0a (unused there).
    pub fn with_layout(gen: Gen, num_domains: usize, layout: Layout) -> Result<Config, String> {
        let mut c = Config::new(gen, num_domains).map_err(|e| e.to_string())?;
        match layout {
            Layout::Default => {}
            Layout::Real => {
                let bases =
                    real_bases(gen).ok_or_else(|| format!("layout real: no envytools table for {}", gen.name()))?;
                if num_domains != bases.len() {
                    return Err(format!(
                        "layout real: the tabulated {} GPUs have {} domain(s), not {num_domains}",
                        gen.name(),
                        bases.len()
                    ));
                }
                c.trailer_base[..num_domains].copy_from_slice(bases);
                for d in 0..num_domains {
                    c.sig_count[d] = u16::from(bases[d]) + 0x20;
                    c.user_pos[d] =
                        if gen.features().user_signals { REAL_USER_GT215[d] } else { u16::from(bases[d]) + 0x0a };
                }
            }
            Layout::Odd => (c.trailer_base, c.sig_count, c.user_pos) = (ODD_BASES, ODD_COUNTS, ODD_USER),
        }
        c.validate().map_err(|e| e.to_string())?;
        Ok(c)
    }

    /// The default configuration of `make cosim` and scenario scripts: 256
    /// signals and trailer base 0xe0 in every domain (issue "Lockstep foundation").
    pub fn new(gen: Gen, num_domains: usize) -> Result<Config, ConfigError> {
        let c = Config {
            gen,
            num_domains,
            trailer_base: [0xe0; NUM_DOMAINS_MAX],
            sig_count: [256; NUM_DOMAINS_MAX],
            user_pos: [0xea; NUM_DOMAINS_MAX],
            strict_decode: true,
        };
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=NUM_DOMAINS_MAX).contains(&self.num_domains) {
            return Err(ConfigError::DomainCount(self.num_domains));
        }
        if self.num_domains > self.gen.max_domains() {
            return Err(ConfigError::DomainsForGen { gen: self.gen, n: self.num_domains });
        }
        for dom in 0..NUM_DOMAINS_MAX {
            let base = self.trailer_base[dom];
            if base % 0x20 != 0 {
                return Err(ConfigError::TrailerBase { dom, base });
            }
            let count = self.sig_count[dom];
            if count > 256 || u16::from(base) + 0x20 > count {
                return Err(ConfigError::SigCount { dom, count });
            }
            let pos = self.user_pos[dom];
            let trailer = u16::from(base) + 0x0c..u16::from(base) + 0x20;
            if pos + 2 > count || trailer.contains(&pos) || trailer.contains(&(pos + 1)) {
                return Err(ConfigError::UserPos { dom, pos });
            }
        }
        Ok(())
    }
}
