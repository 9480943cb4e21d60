//! `pcnt cosim` for PCOUNTER: the options every device takes
//! (`engine::regress::Opts`) and PCOUNTER's own (`regress::DeviceArgs`:
//! domain counts, generations, layout or GF100 preset, decode, the
//! self-test corruption), checked against each other, as a [`CosimOpts`].

use pcounter::pcnt::regs::Gen;

use super::{cosim, CosimOpts, Pin};
use crate::engine::regress::{DeviceArgs, Opts};
use crate::engine::results::ShardOpts;

/// Domain counts of the default regression.
pub const DEFAULT_DOMAINS: [usize; 3] = [1, 2, 8];

/// Does a `--gen` list ask for GF100 runs (`gf100` or `all`)?
pub fn gf100(v: &[String]) -> bool {
    v.iter().any(|g| g == "all" || g == "gf100")
}

/// `--gen` values as generations (`all` anywhere in the list: all of them).
pub fn gens(v: &[String]) -> Vec<Gen> {
    if v.iter().any(|g| g == "all") {
        return Gen::ALL.to_vec();
    }
    v.iter().filter_map(|g| Gen::from_name(g)).collect()
}

/// PCOUNTER's options against its generations (`gen`: the --gen list): a
/// GF100 preset needs gf100 among them; an NV layout, a decode or a domain
/// count needs an NV generation (GF100 runs take their domains from the
/// preset and decode strict only, docs/semantics.md S25.0;
/// docs/design/gf100.md 0).
pub fn check(a: &DeviceArgs, gen: &[String]) -> Result<(), String> {
    let has_nv = gen.iter().any(|g| g != "gf100");
    let presets = pcounter::pcnt::gf100::config::PRESETS;
    if let Some(l) = a.layout.as_deref() {
        let preset = presets.contains(&l);
        if preset && !gf100(gen) {
            return Err(format!("--layout {l} is a GF100 preset: it needs gf100 (or all) in --gen"));
        }
        if !preset && !has_nv {
            return Err(format!(
                "--layout {l} is a layout of the NV generations; with --gen gf100 it takes a GF100 preset ({})",
                presets.join(", ")
            ));
        }
    }
    if !has_nv {
        let nv_only = [("--domains", a.domains.is_some()), ("--decode", a.strict.is_some())];
        if let Some((opt, _)) = nv_only.iter().find(|(_, given)| *given) {
            return Err(format!(
                "{opt} does not apply to --gen gf100 (a GF100 run's domains come from its preset, --layout; \
                 it decodes strict)"
            ));
        }
    }
    Ok(())
}

/// The PCOUNTER regression of `pcnt cosim` (shard `s`); the number of
/// failing runs.
pub fn cosim_with(o: &Opts, a: &DeviceArgs, s: &ShardOpts) -> Result<usize, String> {
    let gen = a.gen.clone().unwrap_or_else(|| vec!["all".to_string()]);
    check(a, &gen)?;
    let c = CosimOpts {
        seed: o.seed,
        seeds: o.seeds,
        cycles: o.cycles,
        domains: a.domains.clone().unwrap_or_else(|| DEFAULT_DOMAINS.to_vec()),
        gens: gens(&gen),
        gf100: gf100(&gen),
        gf_layout: a.layout.clone().filter(|l| pcounter::pcnt::gf100::config::PRESETS.contains(&l.as_str())),
        fault: o.fault.clone(),
        art: o.art.clone(),
        progress: o.progress,
        jobs: o.jobs,
        shard: s.shard,
        json: s.json.clone(),
        junit: s.junit.clone(),
        coverage_plan: o.coverage_plan.clone(),
        coverage_gate: o.coverage_gate,
        coverage_table: o.coverage_table,
        corrupt_at: a.corrupt_at,
        pin: Pin { layout: a.layout.as_deref().and_then(pcounter::pcnt::config::Layout::from_name), strict: a.strict },
    };
    cosim(&c).map_err(|e| e.to_string())
}
