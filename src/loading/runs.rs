//! Which files are compared together: the groups of runs. A side is one or
//! more paths: files, one per run, or directories whose same-named files
//! are runs of the same benchmarks. A pair is one path a side.

use crate::failure::Failure;
use crate::loading::identity::Identity;
use crate::pycompat::paths::py_join;
use crate::text::path_text::to_path;
use crate::text::printable::printable;

/// The paths given for one side.
#[derive(Debug, Clone, Copy)]
pub struct SideArgs<'a> {
    /// How messages name the side's runs (`reference`, `compare`).
    pub name: &'a str,
    pub paths: &'a [String],
}

/// What a mix of files and directories on the command line means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mixed {
    /// Read every path as a file (the reference's rule for two paths: only
    /// two directories are paired by file name).
    AsFiles,
    /// An error naming one of each (`--vs`).
    Refused,
}

/// The order the files of two directories are compared in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOrder {
    /// By name.
    Sorted,
    /// As the compare directory lists them (the robust command's
    /// `os.listdir`), then the reference's other files by name.
    Listed,
}

/// One run's file and its position among the side's paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub index: usize,
    pub path: String,
}

/// The runs of one input file on each side, baseline first (in the order
/// given). In directory mode a side lists only the runs whose directory
/// has the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunGroup {
    pub sides: Vec<Vec<Run>>,
    /// Directory mode: the file name the runs share.
    pub file_name: Option<String>,
}

/// The groups to compare and, in directory mode, files that only the
/// baseline or only the candidates have.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RunGroups {
    pub groups: Vec<RunGroup>,
    pub only_reference: Vec<String>,
    pub only_compare: Vec<String>,
    /// N-way: `(candidate, baseline file)` of a group some candidates lack
    /// (the group's side of such a candidate has no run).
    pub lacking: Vec<(usize, String)>,
}

impl RunGroup {
    /// `a/x.json vs b/x.json` (the first run of each side; `+N runs` where
    /// a side has more).
    pub fn describe(&self) -> String {
        let side = |runs: &Vec<Run>| match runs.as_slice() {
            [] => String::new(),
            [only] => printable(&only.path).into_owned(),
            [first, rest @ ..] => format!("{} +{} run(s)", printable(&first.path), rest.len()),
        };
        let sides: Vec<String> = self.sides.iter().map(side).collect();
        sides.join(" vs ")
    }
}

/// Runs of one side whose files hold the same bytes: a copy of one run
/// (or one file under two names) shows no scatter between processes. Only
/// files of equal size are read again.
pub fn identical_runs(runs: &[Run]) -> Vec<(&str, &str)> {
    let size = |run: &Run| std::fs::metadata(to_path(&run.path)).map(|m| m.len()).ok();
    let mut found = Vec::new();
    for (index, first) in runs.iter().enumerate() {
        for second in &runs[index + 1..] {
            let same_size = size(first).is_some() && size(first) == size(second);
            if same_size && same_bytes(&first.path, &second.path) {
                found.push((first.path.as_str(), second.path.as_str()));
            }
        }
    }
    found
}

fn same_bytes(a: &str, b: &str) -> bool {
    match (std::fs::read(to_path(a)), std::fs::read(to_path(b))) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl RunGroups {
    /// Every run's file, group by group, side by side.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.groups
            .iter()
            .flat_map(|g| g.sides.iter().flatten())
            .map(|run| run.path.as_str())
    }
}

fn non_empty_file(path: &str) -> bool {
    std::fs::metadata(to_path(path)).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// The groups of runs of `sides` (baseline first). Each side's paths must
/// name distinct files or directories.
pub fn run_groups(sides: &[SideArgs], mixed: Mixed) -> Result<RunGroups, Failure> {
    run_groups_in(sides, mixed, FileOrder::Sorted)
}

/// [`run_groups`], directories' files taken in `order`.
pub fn run_groups_in(
    sides: &[SideArgs],
    mixed: Mixed,
    order: FileOrder,
) -> Result<RunGroups, Failure> {
    for side in sides {
        check_distinct(side)?;
    }
    let all: Vec<&String> = sides.iter().flat_map(|s| s.paths).collect();
    let (directories, files): (Vec<&String>, Vec<&String>) =
        all.iter().partition(|p| to_path(p).is_dir());
    match (directories.first(), files.first()) {
        (Some(directory), Some(file)) if mixed == Mixed::Refused => {
            let problem = if to_path(file).exists() {
                "is not"
            } else {
                "does not exist"
            };
            Err(Failure::fatal(format!(
                "--vs: the runs mix directories and files ({directory} is a directory, {file} {problem}); give only files or only directories"
            )))
        }
        (Some(_), None) => directory_groups(sides, order),
        _ => Ok(RunGroups {
            groups: vec![RunGroup {
                sides: sides.iter().map(|side| runs(side.paths)).collect(),
                file_name: None,
            }],
            ..RunGroups::default()
        }),
    }
}

/// Two paths of a side naming one file (or directory) would count one
/// process's measurements twice, as if they were independent runs.
fn check_distinct(side: &SideArgs) -> Result<(), Failure> {
    if side.paths.len() < 2 {
        return Ok(());
    }
    let identities: Vec<Identity> = side.paths.iter().map(|p| Identity::of(p)).collect();
    for (second, identity) in identities.iter().enumerate() {
        if let Some(first) = identities[..second].iter().position(|i| i.same(identity)) {
            let what = if to_path(&side.paths[first]).is_dir() {
                "directory"
            } else {
                "file"
            };
            return Err(Failure::fatal(format!(
                "--vs: {} and {} are the same {what}, given twice among the {} runs; each run must be a separate {what} (from a separate process)",
                crate::text::printable::printable(&side.paths[first]),
                crate::text::printable::printable(&side.paths[second]),
                side.name
            )));
        }
    }
    Ok(())
}

fn runs(paths: &[String]) -> Vec<Run> {
    paths
        .iter()
        .enumerate()
        .map(|(index, path)| Run {
            index,
            path: path.clone(),
        })
        .collect()
}

/// The `.json` file names of all the directories, sorted. The candidates'
/// directories are listed first, as the reference lists the compare
/// directory first.
fn all_names(sides: &[SideArgs], order: FileOrder) -> Result<Vec<String>, Failure> {
    let mut names = Vec::new();
    let (baseline, candidates) = sides.split_first().expect("a comparison has sides");
    for side in candidates.iter().chain(std::iter::once(baseline)) {
        for directory in side.paths {
            names.extend(crate::loading::inputs::json_names(directory)?);
        }
    }
    let listed = match order {
        FileOrder::Sorted => Vec::new(),
        FileOrder::Listed => {
            let first = candidates.first().and_then(|side| side.paths.first());
            match first {
                Some(directory) => crate::loading::inputs::json_names(directory)?,
                None => Vec::new(),
            }
        }
    };
    names.retain(|name| !listed.contains(name));
    names.sort();
    names.dedup();
    Ok(listed.into_iter().chain(names).collect())
}

/// The runs of a side whose directory has a non-empty file of this name.
fn runs_with(directories: &[String], name: &str) -> Vec<Run> {
    directories
        .iter()
        .enumerate()
        .map(|(index, directory)| Run {
            index,
            path: py_join(directory, name),
        })
        .filter(|run| non_empty_file(&run.path))
        .collect()
}

/// Files are paired by name: a group for each name every side has; the
/// others are one-sided.
fn directory_groups(sides: &[SideArgs], order: FileOrder) -> Result<RunGroups, Failure> {
    let mut groups = RunGroups::default();
    for name in all_names(sides, order)? {
        let runs: Vec<Vec<Run>> = sides.iter().map(|s| runs_with(s.paths, &name)).collect();
        let (baseline, candidates) = runs.split_first().expect("a comparison has sides");
        let in_candidates = candidates.iter().find_map(|runs| runs.first());
        match (baseline.first(), in_candidates) {
            (Some(run), Some(_)) => {
                // N-way: candidates without the file sit this group out.
                for (candidate, runs) in candidates.iter().enumerate() {
                    if runs.is_empty() {
                        groups.lacking.push((candidate, run.path.clone()));
                    }
                }
                groups.groups.push(RunGroup {
                    sides: runs,
                    file_name: Some(name.clone()),
                })
            }
            (Some(run), None) => groups.only_reference.push(run.path.clone()),
            (None, Some(run)) => groups.only_compare.push(run.path.clone()),
            (None, None) => {}
        }
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Scratch;
    use std::path::Path;

    fn text(path: &Path) -> String {
        path.to_str().unwrap().to_string()
    }

    fn sides<'a>(reference: &'a [String], compare: &'a [String]) -> [SideArgs<'a>; 2] {
        [
            SideArgs {
                name: "reference",
                paths: reference,
            },
            SideArgs {
                name: "compare",
                paths: compare,
            },
        ]
    }

    #[test]
    fn files_make_one_group_in_order() {
        let (r, c) = (
            vec!["a.json".into(), "b.json".into()],
            vec!["c.json".into()],
        );
        let groups = run_groups(&sides(&r, &c), Mixed::Refused).unwrap();
        assert_eq!(groups.groups.len(), 1);
        let group = &groups.groups[0];
        assert_eq!(group.sides[0][1].path, "b.json");
        assert_eq!(group.sides[0][1].index, 1);
        assert_eq!(group.sides[1][0].path, "c.json");
        assert_eq!(
            groups.paths().collect::<Vec<_>>(),
            ["a.json", "b.json", "c.json"]
        );
    }

    #[test]
    fn directories_are_matched_by_name_across_runs() {
        let root = Scratch::new("repeat-dirs");
        let dirs: Vec<_> = ["r1", "r2", "c1"].iter().map(|d| root.join(d)).collect();
        for dir in &dirs {
            std::fs::create_dir_all(dir).unwrap();
        }
        let write = |dir: &Path, name: &str| std::fs::write(dir.join(name), "{}").unwrap();
        write(&dirs[0], "a.json");
        write(&dirs[1], "a.json");
        write(&dirs[2], "a.json");
        write(&dirs[1], "b.json"); // one reference run only, and no compare
        write(&dirs[0], "c.json"); // the reference's second run lacks it
        write(&dirs[2], "c.json");
        write(&dirs[2], "d.json"); // compare only
        std::fs::write(dirs[0].join("empty.json"), "").unwrap();
        let (r, c) = (vec![text(&dirs[0]), text(&dirs[1])], vec![text(&dirs[2])]);
        let groups = run_groups(&sides(&r, &c), Mixed::Refused).unwrap();
        assert_eq!(groups.groups.len(), 2);
        assert_eq!(groups.groups[0].sides[0].len(), 2);
        let c = &groups.groups[1];
        assert!(c.sides[0][0].path.ends_with("r1/c.json"));
        assert_eq!((c.sides[0].len(), c.sides[1].len()), (1, 1));
        assert_eq!(groups.only_reference.len(), 1);
        assert!(groups.only_reference[0].ends_with("r2/b.json"));
        assert!(groups.only_compare[0].ends_with("c1/d.json"));
    }

    #[test]
    fn mixed_files_and_directories_are_refused_with_vs() {
        let root = Scratch::new("repeat-mixed");
        let file = root.join("run.json");
        std::fs::write(&file, "{}").unwrap();
        let (r, c) = (vec![text(&root)], vec![text(&file)]);
        let Err(Failure::Fatal(message)) = run_groups(&sides(&r, &c), Mixed::Refused) else {
            panic!("a mix must fail");
        };
        assert!(message.contains("mix directories and files"), "{message}");
        assert!(message.contains(&text(&root)) && message.contains(&text(&file)));
        // Two paths read a mix as files, as the reference does.
        let groups = run_groups(&sides(&r, &c), Mixed::AsFiles).unwrap();
        assert_eq!(groups.paths().collect::<Vec<_>>(), [&r[0], &c[0]]);
        let absent = vec![text(&root.join("absent"))];
        let Err(Failure::Fatal(message)) = run_groups(&sides(&r, &absent), Mixed::Refused) else {
            panic!("a missing directory must fail");
        };
        assert!(message.contains("absent does not exist"), "{message}");
    }

    #[test]
    fn a_file_given_twice_on_a_side_is_refused_naming_both() {
        let root = Scratch::new("repeat-twice");
        let file = root.join("r.json");
        std::fs::write(&file, "{}").unwrap();
        std::fs::hard_link(&file, root.join("hard.json")).unwrap();
        let spelled = text(&root.join(".").join("r.json"));
        for second in [text(&file), spelled, text(&root.join("hard.json"))] {
            let r = vec![text(&file), second.clone()];
            let c = vec![text(&root.join("c.json"))];
            let Err(Failure::Fatal(message)) = run_groups(&sides(&r, &c), Mixed::Refused) else {
                panic!("{second} twice must fail");
            };
            assert!(message.contains(&text(&file)), "{message}");
            assert!(message.contains(&format!("and {second} are the same file")));
            assert!(message.contains("reference runs"), "{message}");
        }
        // The same file on both sides is a comparison of a file with itself.
        let (r, c) = (vec![text(&file)], vec![text(&file)]);
        assert!(run_groups(&sides(&r, &c), Mixed::Refused).is_ok());
        let (r, c) = (vec![text(&root)], vec![text(&root), text(&root)]);
        let Err(Failure::Fatal(message)) = run_groups(&sides(&r, &c), Mixed::Refused) else {
            panic!("a directory twice must fail");
        };
        assert!(message.contains("same directory") && message.contains("compare runs"));
    }
}
