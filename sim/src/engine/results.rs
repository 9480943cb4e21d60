//! A regression's results file (`pcnt cosim --json`), for any device, and
//! the checks `pcnt merge` makes on the shards of one regression: one plan,
//! every job exactly once, no failure. The file names its device; `merge`
//! (crate::merge) groups the files by it and gives each device its summary.

use std::path::{Path, PathBuf};

use super::coverage::Coverage;

/// The device of a results file that names none (files written before
/// results carried their device were PCOUNTER's).
pub const DEFAULT_DEVICE: &str = "pcnt";

fn default_device() -> String {
    DEFAULT_DEVICE.to_string()
}

/// Why a regression or a merge could not give a verdict (a failing job is a
/// verdict, not an error).
#[derive(Debug)]
pub enum RegressError {
    /// A run could not start: no Verilated build for its configuration, or
    /// a configuration the model refuses.
    Setup(String),
    /// A file could not be read or written.
    Io { path: PathBuf, err: std::io::Error },
    /// A results file is not one, is corrupt, or is of another regression.
    Results { path: PathBuf, why: String },
    /// `pcnt merge` with no files.
    NoFiles,
}

impl std::fmt::Display for RegressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegressError::Setup(e) => write!(f, "{e}"),
            RegressError::Io { path, err } => write!(f, "{}: {err}", path.display()),
            RegressError::Results { path, why } => write!(f, "{}: {why}", path.display()),
            RegressError::NoFiles => write!(f, "merge: no files"),
        }
    }
}

impl std::error::Error for RegressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RegressError::Io { err, .. } => Some(err),
            _ => None,
        }
    }
}

/// One job's outcome in a results file: `gen` is the build the job ran on
/// (`engine::regress::Run::build`: a generation, a box build, a variant)
/// and `domains` its domain count (0 for a device without domains).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct JobResult {
    pub index: usize,
    pub seed: u64,
    pub gen: String,
    pub domains: usize,
    pub cycles: u64,
    pub secs: f64,
    /// `None`: passed; otherwise the mismatch and its repro line.
    pub failure: Option<(String, String)>,
}

/// Sharding and the results file of `pcnt cosim --device D --shard I/N
/// --json FILE` (default: the whole plan, no file).
#[derive(Clone, Debug)]
pub struct ShardOpts {
    /// `(i, n)`: run only the jobs whose index is `i` modulo `n`.
    pub shard: (usize, usize),
    /// Where to write the results as JSON (the device named, for `pcnt merge`).
    pub json: Option<PathBuf>,
    /// Where to write JUnit XML of the shard's jobs (`--junit`).
    pub junit: Option<PathBuf>,
}

impl Default for ShardOpts {
    fn default() -> Self {
        ShardOpts { shard: (0, 1), json: None, junit: None }
    }
}

/// A regression's results file (`--json`); shards merge with `pcnt merge`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Results {
    /// The device that ran (its registry name; absent: [`DEFAULT_DEVICE`]).
    #[serde(default = "default_device")]
    pub device: String,
    /// The whole regression's job list `(seed, gen, domains)`, identical in
    /// every shard.
    pub plan: Vec<(u64, String, usize)>,
    pub cycles: u64,
    pub shard: (usize, usize),
    pub wall_secs: f64,
    pub jobs: Vec<JobResult>,
    /// Coverage of this shard's jobs (merged by bin name).
    pub coverage: Coverage,
}

/// One results file's text (`--json`); `path` names it in the error, which
/// also gives serde's line and column.
pub fn parse_results(path: &Path, text: &str) -> Result<Results, RegressError> {
    serde_json::from_str(text)
        .map_err(|e| RegressError::Results { path: path.to_path_buf(), why: format!("not a results file: {e}") })
}

/// The shards of one device's regression, put together.
#[derive(Debug)]
pub struct Merged {
    pub files: usize,
    /// Jobs in the plan.
    pub planned: usize,
    /// Every job result, by index.
    pub jobs: Vec<JobResult>,
    pub coverage: Coverage,
    /// The longest shard's wall time.
    pub wall_secs: f64,
    /// Plan indices no file ran, and those run more than once.
    pub missing: Vec<usize>,
    pub dup: Vec<usize>,
}

impl Merged {
    pub fn failed(&self) -> impl Iterator<Item = &JobResult> {
        self.jobs.iter().filter(|j| j.failure.is_some())
    }

    /// All of the plan exactly once, and no failure.
    pub fn passed(&self) -> bool {
        self.missing.is_empty() && self.dup.is_empty() && self.failed().next().is_none()
    }
}

/// Merge the results files of one device (`(path, results)`, at least one):
/// an error when a file is of another regression (job list or cycles) or
/// names a job outside the plan, or when the plan is empty (it proves
/// nothing, so it never passes).
pub fn merge_device(group: &[(PathBuf, Results)]) -> Result<Merged, RegressError> {
    let (first_path, first) = group.first().ok_or(RegressError::NoFiles)?;
    let plan = &first.plan;
    if plan.is_empty() {
        return Err(RegressError::Results { path: first_path.clone(), why: "the regression plan has no jobs".into() });
    }
    let mut seen = vec![0u32; plan.len()];
    let mut jobs = Vec::new();
    let mut coverage = Coverage::default();
    let mut wall_secs = 0f64;
    let mut total = 0u64;
    for (f, r) in group {
        if &r.plan != plan || r.cycles != first.cycles {
            let why = format!("a different regression (job list or cycles) than {}", first_path.display());
            return Err(RegressError::Results { path: f.clone(), why });
        }
        for j in &r.jobs {
            let Some(n) = seen.get_mut(j.index) else {
                let why = format!(
                    "job index {} is outside the plan of {} jobs (a corrupt or foreign results file)",
                    j.index,
                    plan.len()
                );
                return Err(RegressError::Results { path: f.clone(), why });
            };
            // A passing job ran at least the plan's cycles (a last command
            // may run past them); fewer, or a total past 2^64 - 1, is a
            // corrupt or foreign file, not a regression to sum up.
            if j.failure.is_none() && j.cycles < r.cycles {
                let why = format!("job {} passed after {} cycles, but the plan runs {}", j.index, j.cycles, r.cycles);
                return Err(RegressError::Results { path: f.clone(), why });
            }
            total = total.checked_add(j.cycles).ok_or_else(|| RegressError::Results {
                path: f.clone(),
                why: format!("job {}'s {} cycles take the total past 2^64 - 1", j.index, j.cycles),
            })?;
            *n += 1;
            jobs.push(j.clone());
        }
        coverage.merge(&r.coverage);
        wall_secs = wall_secs.max(r.wall_secs);
    }
    jobs.sort_by_key(|j| j.index);
    let missing = seen.iter().enumerate().filter(|(_, n)| **n == 0).map(|(i, _)| i).collect();
    let dup = seen.iter().enumerate().filter(|(_, n)| **n > 1).map(|(i, _)| i).collect();
    Ok(Merged { files: group.len(), planned: plan.len(), jobs, coverage, wall_secs, missing, dup })
}

/// Results files grouped by device, in the order each device first appears.
pub fn by_device(all: Vec<(PathBuf, Results)>) -> Vec<(String, Vec<(PathBuf, Results)>)> {
    let mut groups: Vec<(String, Vec<(PathBuf, Results)>)> = Vec::new();
    for (p, r) in all {
        match groups.iter_mut().find(|(d, _)| *d == r.device) {
            Some((_, g)) => g.push((p, r)),
            None => groups.push((r.device.clone(), vec![(p, r)])),
        }
    }
    groups
}
