//! The checks a script gets once it is read whole: domain numbers against
//! the final domain count, and what the generation's window and inputs
//! allow (GF100: docs/semantics.md S25).

use super::commands::Parser;
use super::*;

impl Parser {
    /// Domain indices against the final domain count: a `clock` line may
    /// legitimately precede `domains`, so this cannot be checked per line.
    pub(super) fn check_domains(&mut self) -> Result<(), (usize, String)> {
        if self.script.gen == GEN_GF100 {
            self.check_gf100()?;
        } else {
            self.check_nv()?;
        }
        let count = self.script.domains;
        let why = match (self.script.gen == GEN_GF100, self.domains_line) {
            (true, _) => format!("layout {} has {count} domains", self.script.gf_layouts.join(",")),
            (false, Some(l)) => format!("'domains {count}' on line {l}"),
            (false, None) => "no 'domains' line, so 1 domain".to_string(),
        };
        let err = |line, what: &str, dom: u8| {
            Err((line, format!("{what} domain {dom} out of range (expected 0..={}: {why})", count - 1)))
        };
        for (&(dom, _), &line) in self.script.clocks.iter().zip(&self.clock_lines) {
            if usize::from(dom) >= count {
                return err(line, "clock", dom);
            }
        }
        // A generation's domain limit (S24: NV10/NV15 one domain, NV20/NV30
        // two, seed 003 "Introduction"): refused here at the `gen` line, not
        // at run time where only the build's line could be named.
        for one in self.script.gen.split(',') {
            let Some(g) = pcounter::pcnt::regs::Gen::from_name(one) else { continue };
            if count > g.max_domains() {
                let max = g.max_domains();
                let s = if max == 1 { "" } else { "s" };
                return Err((
                    self.gen_line.unwrap_or(0),
                    format!("generation '{one}' has at most {max} domain{s}, but the script has {count} ({why})"),
                ));
            }
        }
        for l in &self.script.body {
            match l.cmd {
                Cmd::Set { dom, .. } if usize::from(dom) >= count => return err(l.line, "set", dom),
                Cmd::Poke { dom, .. } if usize::from(dom) >= count => return err(l.line, "poke", dom),
                _ => {}
            }
        }
        Ok(())
    }
}

impl Parser {
    /// `gen gf100`: its window, its presets, no `domains` (the preset has
    /// them), no PGRAPH inputs (docs/semantics.md S25.0). The domain count
    /// becomes the smallest preset's, for the range checks that follow.
    fn check_gf100(&mut self) -> Result<(), (usize, String)> {
        let gen_line = self.gen_line.unwrap_or(0);
        if let Some(l) = self.domains_line {
            return Err((l, "'domains' does not apply to gen gf100 (the layout preset gives the domains)".into()));
        }
        if self.script.layout != pcounter::pcnt::config::Layout::Default {
            let l = self.layout_line.unwrap_or(gen_line);
            return Err((
                l,
                format!(
                    "gen gf100 takes layout {} (or a list), not '{}'",
                    GF_PRESETS.join(" | "),
                    self.script.layout.name()
                ),
            ));
        }
        if self.script.gf_layouts.is_empty() {
            self.script.gf_layouts = vec!["fermi".to_string()];
        }
        if !self.script.strict {
            // The one GF100 lax-decode build is fermi's (`fermi_lax`, S8).
            let l = self.script.build_lines.decode.unwrap_or(gen_line);
            let mut lax = Vec::new();
            for p in &self.script.gf_layouts {
                match p.as_str() {
                    "fermi" | "fermi_lax" => lax.push("fermi_lax".to_string()),
                    _ => return Err((l, format!("'decode lax' is built for gen gf100 on layout fermi only, not {p}"))),
                }
            }
            self.script.gf_layouts = lax;
        }
        let mut count = usize::MAX;
        for p in &self.script.gf_layouts {
            // The names were checked against GF_PRESETS at their line.
            let n = pcounter::pcnt::gf100::config::GfConfig::preset(p).map(|c| c.num_domains()).unwrap_or(1);
            count = count.min(n);
        }
        self.script.domains = count;
        for l in &self.script.body {
            let bad = match &l.cmd {
                Cmd::Write { addr, .. } | Cmd::Read { addr, .. } | Cmd::Mask { addr, .. }
                    if !(GF_MMIO_FIRST..=GF_MMIO_LAST).contains(addr) =>
                {
                    format!("address {addr:#x} is outside the gf100 window (expected 0x180000..=0x1bffff)")
                }
                Cmd::Pulse { input, .. } => format!(
                    "'pulse {}' does not exist on gf100 (no PGRAPH inputs in its trailer, docs/semantics.md S25.0)",
                    input.name()
                ),
                Cmd::Poke { counter, .. } if counter.name().starts_with("rec_") => format!(
                    "poke {} needs record mode, which gf100 does not run (docs/semantics.md S25.15)",
                    counter.name()
                ),
                Cmd::Poke { counter, value, .. } if *value >> 32 != 0 => format!(
                    "poke value {value:#x} does not fit {} on gf100 (32 bits, docs/semantics.md S25.0)",
                    counter.name()
                ),
                Cmd::Mem { .. } | Cmd::Fault { .. } | Cmd::Latency { .. } => format!(
                    "'{}' needs record mode, which gf100 does not run (registers only, docs/semantics.md S25.15)",
                    l.cmd.to_string().split(' ').next().unwrap_or("")
                ),
                _ => continue,
            };
            return Err((l.line, bad));
        }
        Ok(())
    }

    /// Up to GT215: its window, no GF100 preset, no `pmc_enable`.
    fn check_nv(&self) -> Result<(), (usize, String)> {
        if !self.script.gf_layouts.is_empty() {
            let l = self.layout_line.unwrap_or(0);
            return Err((l, format!("layout {} needs gen gf100", self.script.gf_layouts.join(","))));
        }
        for l in &self.script.body {
            let bad = match &l.cmd {
                Cmd::Write { addr, .. } | Cmd::Read { addr, .. } | Cmd::Mask { addr, .. }
                    if !(MMIO_FIRST..=MMIO_LAST).contains(addr) =>
                {
                    format!(
                        "address {addr:#x} is outside the window of {} (expected 0xa000..=0xafff; 0x180000.. is gen gf100)",
                        self.script.gen
                    )
                }
                Cmd::PmcEnable { .. } => {
                    "'pmc_enable' needs gen gf100 (PMC.ENABLE bit 28, seed 003 \"MMIO registers\")".to_string()
                }
                _ => continue,
            };
            return Err((l.line, bad));
        }
        Ok(())
    }
}
