//! The sides of a comparison from the command line: two paths (a pair),
//! the runs around one `--vs` (repetitions), or a baseline and a candidate
//! group per `--vs` (N-way), with the labels that name the sides.

use crate::failure::Failure;
use crate::settings::{Inputs, Layout, SidePaths};
use crate::text::path_text::to_path;
use crate::text::printable::printable;

/// The paths split at each `--vs`: `groups[0]` is the baseline.
pub(super) fn inputs(
    paths: &[String],
    vs_positions: &[usize],
    labels: Option<&[String]>,
) -> Result<Inputs, Failure> {
    if vs_positions.is_empty() {
        if labels.is_some() {
            return Err(Failure::Conflict(
                "--labels names the groups around --vs; two paths have none".to_string(),
            ));
        }
        return match paths {
            [reference, compare] => {
                let groups = [vec![reference.clone()], vec![compare.clone()]];
                let [base, other]: [String; 2] =
                    default_labels(&groups).try_into().expect("a label a group");
                Ok(Inputs {
                    baseline: side("reference", base, &groups[0]),
                    candidates: vec![side("compare", other, &groups[1])],
                    layout: Layout::Pair,
                })
            }
            other => Err(Failure::Usage {
                problem: format!(
                    "expected two paths (a reference and a compare file, or two directories), got {}; runs of separate processes go around --vs",
                    other.len()
                ),
                help: None,
            }),
        };
    }
    let groups = split_groups(paths, vs_positions)?;
    let (given, groups) = labelled_groups(groups);
    let labels = match labels {
        Some(labels) => from_option(labels, groups.len())?,
        None => merge_labels(&given, default_labels(&groups)),
    };
    check_unique(&labels)?;
    let layout = if groups.len() > 2 {
        Layout::NWay
    } else {
        Layout::Repetitions
    };
    let mut sides = groups
        .into_iter()
        .zip(labels)
        .enumerate()
        .map(|(index, (paths, label))| {
            let name = if index == 0 { "reference" } else { "compare" };
            side(name, label, &paths)
        });
    let baseline = sides.next().expect("a baseline group");
    Ok(Inputs {
        baseline,
        candidates: sides.collect(),
        layout,
    })
}

fn side(name: &'static str, label: String, paths: &[String]) -> SidePaths {
    SidePaths {
        name,
        label,
        paths: paths.to_vec(),
    }
}

/// The groups of paths around each `--vs`; none may be empty.
fn split_groups(paths: &[String], vs_positions: &[usize]) -> Result<Vec<Vec<String>>, Failure> {
    let mut bounds = vec![0];
    bounds.extend(vs_positions.iter().copied());
    bounds.push(paths.len());
    let groups: Vec<Vec<String>> = bounds
        .windows(2)
        .map(|w| paths[w[0]..w[1]].to_vec())
        .collect();
    if groups[0].is_empty() {
        return Err(Failure::fatal(
            "--vs: no reference run given (the reference runs come before --vs)",
        ));
    }
    if let Some(empty) = groups.iter().skip(1).position(Vec::is_empty) {
        let message = if groups.len() == 2 {
            "--vs: no compare run given (the compare runs come after --vs)".to_string()
        } else {
            format!(
                "--vs: candidate group {} has no run (give its paths after its --vs)",
                empty + 1
            )
        };
        return Err(Failure::fatal(message));
    }
    Ok(groups)
}

/// `LABEL=PATH` on a group's first path names the group. A path that
/// exists as written wins (a file may have `=` in its name); when both
/// readings name a file, a warning says which was taken.
fn labelled_groups(groups: Vec<Vec<String>>) -> (Vec<Option<String>>, Vec<Vec<String>>) {
    let mut labels = Vec::with_capacity(groups.len());
    let mut out = Vec::with_capacity(groups.len());
    for mut group in groups {
        let first = &group[0];
        let split = first
            .split_once('=')
            .filter(|(label, path)| !label.is_empty() && !path.is_empty() && !label.contains('/'));
        match split {
            Some((label, path)) if !to_path(first).exists() => {
                let (label, path) = (label.to_string(), path.to_string());
                group[0] = path;
                labels.push(Some(label));
            }
            Some((label, path)) => {
                if to_path(path).exists() {
                    crate::messages::warning(format_args!(
                        "{} is read as a file; to label {} as {}, rename or move the file",
                        printable(first),
                        printable(path),
                        printable(label)
                    ));
                }
                labels.push(None);
            }
            None => labels.push(None),
        }
        out.push(group);
    }
    (labels, out)
}

/// `--labels a,b,c`: one label per group.
fn from_option(labels: &[String], groups: usize) -> Result<Vec<String>, Failure> {
    if labels.len() != groups {
        return Err(Failure::Conflict(format!(
            "--labels gives {} label(s) for {groups} group(s) (the baseline and one per --vs)",
            labels.len()
        )));
    }
    if labels.iter().any(|l| l.trim().is_empty()) {
        return Err(Failure::Conflict("--labels: a label is empty".to_string()));
    }
    Ok(labels.to_vec())
}

fn merge_labels(given: &[Option<String>], defaults: Vec<String>) -> Vec<String> {
    given
        .iter()
        .zip(defaults)
        .map(|(given, default)| given.clone().unwrap_or(default))
        .collect()
}

fn check_unique(labels: &[String]) -> Result<(), Failure> {
    for (index, label) in labels.iter().enumerate() {
        if labels[..index].contains(label) {
            return Err(Failure::Conflict(format!(
                "the label {} is given to two groups; each group needs its own (LABEL=PATH or --labels)",
                printable(label)
            )));
        }
    }
    Ok(())
}

/// The part of each group's first path that tells the groups apart: the
/// file (or directory) names without their common prefix and suffix, cut
/// at a separator (`main.json`, `pr-a.json` -> `main`, `pr-a`; `h100/`,
/// `a100/` -> `h100`, `a100`). Where the file names are alike, the paths
/// trimmed so (`v1.2/out.json`, `v1.3/out.json` -> `v1.2`, `v1.3`); failing
/// that, `base`, `c1`, `c2`, ...
pub(super) fn default_labels(groups: &[Vec<String>]) -> Vec<String> {
    let names: Vec<String> = groups.iter().map(|g| group_name(g)).collect();
    let paths: Vec<String> = groups.iter().map(|g| g[0].clone()).collect();
    // File names first; where they are alike, the directories tell.
    for candidate in [trim_common(&names), trim_common(&paths), names] {
        if distinct_and_present(&candidate) {
            return candidate;
        }
    }
    (0..groups.len())
        .map(|i| {
            if i == 0 {
                "base".to_string()
            } else {
                format!("c{i}")
            }
        })
        .collect()
}

/// What the runs of a group have in common: their file names without
/// the part that numbers the runs (`main1.json`, `main2.json` ->
/// `main.json`); a one-run group's file name.
fn group_name(paths: &[String]) -> String {
    let names: Vec<Vec<char>> = paths
        .iter()
        .map(|p| last_component(p).chars().collect())
        .collect();
    let shortest = names.iter().map(Vec::len).min().unwrap_or(0);
    let prefix = (0..shortest)
        .take_while(|&i| names.iter().all(|n| n[i] == names[0][i]))
        .count();
    let suffix = (0..shortest - prefix)
        .take_while(|&i| {
            let at = |n: &Vec<char>| n[n.len() - 1 - i];
            names.iter().all(|n| at(n) == at(&names[0]))
        })
        .count();
    let first = &names[0];
    first[..prefix]
        .iter()
        .chain(&first[first.len() - suffix..])
        .collect()
}

fn distinct_and_present(labels: &[String]) -> bool {
    labels.iter().all(|l| !l.is_empty())
        && labels
            .iter()
            .enumerate()
            .all(|(i, l)| !labels[..i].contains(l))
}

fn last_component(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    if name.is_empty() || name == "." || name == ".." {
        path.to_string()
    } else {
        name.to_string()
    }
}

fn is_separator(c: char) -> bool {
    matches!(c, '.' | '-' | '_' | '/' | ' ' | '+' | '=' | ',')
}

/// The names without the prefix and suffix they all share, both cut back
/// to a separator so that no name loses part of a word.
fn trim_common(names: &[String]) -> Vec<String> {
    if names.len() < 2 {
        return names.to_vec();
    }
    let chars: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    let shortest = chars.iter().map(Vec::len).min().unwrap_or(0);
    let mut prefix = (0..shortest)
        .take_while(|&i| chars.iter().all(|c| c[i] == chars[0][i]))
        .count();
    while prefix > 0 && !is_separator(chars[0][prefix - 1]) {
        prefix -= 1;
    }
    let mut suffix = (0..shortest - prefix)
        .take_while(|&i| {
            let at = |c: &Vec<char>| c[c.len() - 1 - i];
            chars.iter().all(|c| at(c) == at(&chars[0]))
        })
        .count();
    while suffix > 0 {
        let first = &chars[0];
        if is_separator(first[first.len() - suffix]) {
            break;
        }
        suffix -= 1;
    }
    chars
        .iter()
        .map(|c| {
            let text: String = c[prefix..c.len() - suffix].iter().collect();
            text.trim_matches(is_separator).to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn labels_of(paths: &[&str]) -> Vec<String> {
        let groups: Vec<Vec<String>> = paths.iter().map(|p| strings(&[p])).collect();
        default_labels(&groups)
    }

    #[test]
    fn default_labels_keep_what_tells_the_groups_apart() {
        assert_eq!(
            labels_of(&["main.json", "pr-a.json", "pr-b.json"]),
            ["main", "pr-a", "pr-b"]
        );
        assert_eq!(
            labels_of(&["h100/", "a100/", "l40s/"]),
            ["h100", "a100", "l40s"]
        );
        assert_eq!(
            labels_of(&[
                "runs/v1.2/out.json",
                "runs/v1.3/out.json",
                "runs/v2.0/out.json"
            ]),
            ["v1.2", "v1.3", "v2.0"],
            "alike file names: the directories"
        );
        assert_eq!(
            labels_of(&["a.json", "a.json", "a.json"]),
            ["base", "c1", "c2"]
        );
        assert_eq!(
            labels_of(&[
                "bench_main_r1.json",
                "bench_pr_r1.json",
                "bench_fix_r1.json"
            ]),
            ["main", "pr", "fix"]
        );
        // A common prefix is cut at a separator, not inside a word.
        assert_eq!(
            labels_of(&["abc.json", "abd.json", "xy.json"]),
            ["abc", "abd", "xy"]
        );
    }

    #[test]
    fn groups_split_at_each_vs_and_may_not_be_empty() {
        let paths = strings(&["m1", "m2", "a1", "a2", "b1"]);
        let split = inputs(&paths, &[2, 4], None).unwrap();
        assert_eq!(split.layout, Layout::NWay);
        assert_eq!(split.baseline.paths, ["m1", "m2"]);
        assert_eq!(split.candidates[1].paths, ["b1"]);
        let one = inputs_of(&["m", "a"], &[1]);
        assert_eq!(one.layout, Layout::Repetitions);
        let Err(Failure::Fatal(message)) = inputs(&paths, &[2, 2], None) else {
            panic!("an empty group must fail");
        };
        assert!(
            message.contains("candidate group 1 has no run"),
            "{message}"
        );
        let Err(Failure::Fatal(message)) = inputs(&paths, &[0, 2], None) else {
            panic!("an empty baseline must fail");
        };
        assert!(message.contains("no reference run"), "{message}");
    }

    fn inputs_of(paths: &[&str], vs: &[usize]) -> Inputs {
        inputs(&strings(paths), vs, None).unwrap()
    }

    #[test]
    fn labels_from_the_paths_or_the_option() {
        let named = inputs_of(&["main=m.json", "pr-a=a.json", "b.json"], &[1, 2]);
        assert_eq!(named.baseline.label, "main");
        assert_eq!(named.baseline.paths, ["m.json"]);
        assert_eq!(named.candidates[0].label, "pr-a");
        assert_eq!(named.candidates[1].label, "b");
        let labels = strings(&["x", "y", "z"]);
        let given = inputs(&strings(&["m", "a", "b"]), &[1, 2], Some(&labels)).unwrap();
        assert_eq!(given.candidates[1].label, "z");
        let two = strings(&["x", "y"]);
        assert!(inputs(&strings(&["m", "a", "b"]), &[1, 2], Some(&two)).is_err());
        let twice = strings(&["x", "y", "x"]);
        let Err(Failure::Conflict(message)) =
            inputs(&strings(&["m", "a", "b"]), &[1, 2], Some(&twice))
        else {
            panic!("a label twice must fail");
        };
        assert!(
            message.contains("the label x is given to two groups"),
            "{message}"
        );
    }
}
