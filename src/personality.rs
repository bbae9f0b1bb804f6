//! Which upstream command the binary stands in for. NVBench has shipped
//! three comparison commands: `nvbench-compare` as its script was at commit
//! 4fabe3f (this tool's own pipeline reproduces it), and at its HEAD
//! (66212f1) `nvbench-compare-robust` and `nvbench-compare-legacy`, the
//! classic mean/noise script. The choice is made once, at the edge
//! (`cli::personality`), and carried as a value: what differs between the
//! commands is read from it, never from the command line again.
//!
//! A leaf: it imports nothing of the crate.

/// The command the binary behaves as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Personality {
    /// `nvbench-compare`: `python/scripts/nvbench_compare.py` at NVBench
    /// 4fabe3f, with this tool's extensions.
    #[default]
    Compare,
    /// `nvbench-compare-robust`: `python/scripts/nvbench_compare_robust.py`
    /// at NVBench 66212f1 (for now decided and printed as `Compare`).
    Robust,
    /// `nvbench-compare-legacy`: `python/scripts/nvbench_compare.py` at
    /// NVBench 66212f1, the mean/noise comparison.
    Legacy,
}

/// How a personality decides a matched state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The decision tree over intervals, clocks and bulk samples
    /// (`deciding::decision`).
    DecisionTree,
    /// The mean against the smaller relative noise (`deciding::legacy`).
    MeanNoise,
}

/// What tells the personalities apart, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The name `--personality` takes.
    pub name: &'static str,
    /// The command NVBench installs (and `cargo install` installs here).
    pub command: &'static str,
    /// The upstream script reproduced, relative to NVBench's repository.
    pub script: &'static str,
    /// The NVBench commit the script is taken at.
    pub upstream: &'static str,
    pub engine: Engine,
}

const PROFILES: [(Personality, Profile); 3] = [
    (
        Personality::Compare,
        Profile {
            name: "compare",
            command: "nvbench-compare",
            script: "python/scripts/nvbench_compare.py",
            upstream: "4fabe3f",
            engine: Engine::DecisionTree,
        },
    ),
    (
        Personality::Robust,
        Profile {
            name: "robust",
            command: "nvbench-compare-robust",
            script: "python/scripts/nvbench_compare_robust.py",
            upstream: "66212f1",
            engine: Engine::DecisionTree,
        },
    ),
    (
        Personality::Legacy,
        Profile {
            name: "legacy",
            command: "nvbench-compare-legacy",
            script: "python/scripts/nvbench_compare.py",
            upstream: "66212f1",
            engine: Engine::MeanNoise,
        },
    ),
];

impl Personality {
    pub const ALL: [Personality; 3] = [
        Personality::Compare,
        Personality::Robust,
        Personality::Legacy,
    ];

    pub fn profile(self) -> &'static Profile {
        // PROFILES lists every personality.
        &PROFILES
            .iter()
            .find(|(personality, _)| *personality == self)
            .unwrap_or(&PROFILES[0])
            .1
    }

    /// The personality `--personality NAME` names.
    pub fn from_name(name: &str) -> Option<Personality> {
        Self::ALL.into_iter().find(|p| p.profile().name == name)
    }

    /// The personality an executable's file name stands for: only the two
    /// HEAD commands name one (any other name keeps the binary's own).
    pub fn from_command(file_name: &str) -> Option<Personality> {
        [Personality::Robust, Personality::Legacy]
            .into_iter()
            .find(|p| p.profile().command == file_name)
    }

    /// The personality of `python3 SCRIPT ...` when SCRIPT's file name is
    /// one of the HEAD scripts' (the interpreter form).
    pub fn from_script(file_name: &str) -> Option<Personality> {
        match file_name {
            "nvbench_compare_robust.py" => Some(Personality::Robust),
            "nvbench_compare.py" => Some(Personality::Legacy),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_personality_has_its_own_profile() {
        for personality in Personality::ALL {
            let profile = personality.profile();
            assert_eq!(Personality::from_name(profile.name), Some(personality));
        }
        assert_eq!(Personality::Legacy.profile().engine, Engine::MeanNoise);
        assert_eq!(Personality::Robust.profile().engine, Engine::DecisionTree);
    }

    #[test]
    fn command_and_script_names() {
        assert_eq!(
            Personality::from_command("nvbench-compare-robust"),
            Some(Personality::Robust)
        );
        assert_eq!(
            Personality::from_command("nvbench-compare-legacy"),
            Some(Personality::Legacy)
        );
        assert_eq!(Personality::from_command("nvbench-compare"), None);
        assert_eq!(
            Personality::from_script("nvbench_compare.py"),
            Some(Personality::Legacy)
        );
        assert_eq!(Personality::from_script("nvbench_json_summary.py"), None);
        assert_eq!(Personality::from_name("Legacy"), None);
    }
}
