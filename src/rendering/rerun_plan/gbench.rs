//! The Google Benchmark argument that re-measures chosen states: a
//! `--benchmark_filter` regular expression that matches exactly their run
//! names (what the library matches the filter against), anchored, each
//! name's metacharacters escaped. The library compiles the filter as a
//! POSIX extended or an ECMAScript expression, depending on its build; a
//! name holding what the two escape differently (`\`, `]`, `}`) or a
//! control character is left out with the reason.

use super::PlanBench;
use crate::text::printable::printable;

/// The filter and the states left out.
#[derive(Debug, Default, PartialEq)]
pub struct Filter {
    /// `--benchmark_filter=^(...)$`, when any state can be named.
    pub line: Option<String>,
    pub planned: usize,
    /// `(state, reason)` of each state left out.
    pub left_out: Vec<(String, String)>,
}

/// The filter of the chosen states of every benchmark of a file.
pub fn filter(benchmarks: &[PlanBench]) -> Filter {
    let mut out = Filter::default();
    let mut alternatives: Vec<String> = Vec::new();
    for bench in benchmarks {
        for state in &bench.states {
            let escaped: Result<Vec<String>, String> =
                state.run_names.iter().map(|name| escape(name)).collect();
            match escaped {
                Ok(names) => {
                    out.planned += 1;
                    for name in names {
                        if !alternatives.contains(&name) {
                            alternatives.push(name);
                        }
                    }
                }
                Err(reason) => out.left_out.push((state.run_names.join(", "), reason)),
            }
        }
    }
    if !alternatives.is_empty() {
        out.line = Some(format!("--benchmark_filter=^({})$", alternatives.join("|")));
    }
    out
}

/// A run name as a regular expression that matches it alone.
fn escape(name: &str) -> Result<String, String> {
    if name.is_empty() || name.contains(['\\', ']', '}']) || name.chars().any(char::is_control) {
        return Err(format!(
            "the run name '{}' cannot be written in a filter both regular expression flavours read alike",
            printable(name)
        ));
    }
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if ".[()*+?{|^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::PlanState;
    use super::*;

    fn bench(names: &[&[&str]]) -> PlanBench {
        PlanBench {
            name: "BM_x".into(),
            axes: None,
            states: names
                .iter()
                .enumerate()
                .map(|(index, run_names)| PlanState {
                    key: format!("Device=0 arg0={index}"),
                    devices: (0, 0),
                    values: Vec::new(),
                    repeated: false,
                    run_names: run_names.iter().map(|n| n.to_string()).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn names_are_escaped_and_anchored() {
        let out = filter(&[bench(&[
            &["BM_x/8/min_time:0.500/real_time"],
            &["BM_t<int>/16/repeats:3", "BM_t<int>/16/repeats:5"],
            &["BM_a(1)+b*c?|{d^$"],
        ])]);
        assert_eq!(
            out.line.as_deref(),
            Some(
                "--benchmark_filter=^(BM_x/8/min_time:0\\.500/real_time|BM_t<int>/16/repeats:3|BM_t<int>/16/repeats:5|BM_a\\(1\\)\\+b\\*c\\?\\|\\{d\\^\\$)$"
            )
        );
        assert_eq!(out.planned, 3);
    }

    #[test]
    fn names_the_flavours_read_differently_are_left_out() {
        let out = filter(&[bench(&[&["BM_a\\b"], &["BM_c]"], &["BM_ok"], &["x\ny"]])]);
        assert_eq!(out.planned, 1);
        assert_eq!(out.left_out.len(), 3);
        assert!(out.left_out[2].1.contains("'x\\ny'"), "{:?}", out.left_out);
        assert_eq!(out.line.as_deref(), Some("--benchmark_filter=^(BM_ok)$"));
        assert_eq!(filter(&[bench(&[&["a}"]])]).line, None);
    }
}
