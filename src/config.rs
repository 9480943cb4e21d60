//! Static configuration of a domain set: generation strap, domain count and the
//! per-domain signal count / trailer base parameters (docs/semantics.md S0, S9).

use crate::regs::{Gen, NUM_DOMAINS_MAX};

/// Mirrors the `pcnt_top` parameters plus the `gen_i` strap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub gen: Gen,
    pub num_domains: usize,
    /// Trailer base per domain (multiple of 0x20), seed 003 "Trailer signals".
    pub trailer_base: [u8; NUM_DOMAINS_MAX],
    /// Signals present per domain (1..=256), seed 003 "The PCOUNTER signals".
    pub sig_count: [u16; NUM_DOMAINS_MAX],
    /// `StrictDecode` (S8): true answers decode holes, absent registers and
    /// partial-strobe writes with PSLVERR; false reads 0 / ignores them.
    pub strict_decode: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    DomainCount(usize),
    TrailerBase { dom: usize, base: u8 },
    SigCount { dom: usize, count: u16 },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::DomainCount(n) => write!(f, "domain count {n} out of range (expected 1..=8)"),
            ConfigError::TrailerBase { dom, base } => {
                write!(f, "domain {dom}: trailer base {base:#x} is not a multiple of 0x20")
            }
            ConfigError::SigCount { dom, count } => {
                write!(f, "domain {dom}: signal count {count} must be <= 256 and hold the whole trailer")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The default configuration of `make cosim` and scenario scripts: 256
    /// signals and trailer base 0xe0 in every domain (issue "Lockstep foundation").
    pub fn new(gen: Gen, num_domains: usize) -> Result<Config, ConfigError> {
        let c = Config {
            gen,
            num_domains,
            trailer_base: [0xe0; NUM_DOMAINS_MAX],
            sig_count: [256; NUM_DOMAINS_MAX],
            strict_decode: true,
        };
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=NUM_DOMAINS_MAX).contains(&self.num_domains) {
            return Err(ConfigError::DomainCount(self.num_domains));
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
        }
        Ok(())
    }
}
