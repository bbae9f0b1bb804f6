//! The inputs of repetition mode: which files are runs of the same
//! benchmarks. Files are given one per run; directories are matched by
//! file name across all the runs of both sides.

use crate::failure::Failure;
use crate::pycompat::paths::py_join;
use crate::text::path_text::to_path;

/// The paths given for each side: files, or directories whose same-named
/// files are runs of the same benchmarks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    pub reference: Vec<String>,
    pub compare: Vec<String>,
}

impl Sides {
    /// Both sides need at least one run.
    pub fn new(reference: Vec<String>, compare: Vec<String>) -> Result<Self, Failure> {
        if reference.is_empty() {
            return Err(Failure::fatal(
                "--vs: no reference run given (the reference runs come before --vs)",
            ));
        }
        if compare.is_empty() {
            return Err(Failure::fatal(
                "--vs: no compare run given (the compare runs come after --vs)",
            ));
        }
        Ok(Sides { reference, compare })
    }
}

/// The runs of one input file on each side (in the order given). In
/// directory mode a side lists only the runs whose directory has the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunGroup {
    pub reference: Vec<Run>,
    pub compare: Vec<Run>,
}

/// One run's file and its position among the side's paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub index: usize,
    pub path: String,
}

/// The groups to compare and, in directory mode, files that only one side has.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RunGroups {
    pub groups: Vec<RunGroup>,
    pub only_reference: Vec<String>,
    pub only_compare: Vec<String>,
}

fn non_empty_file(path: &str) -> bool {
    std::fs::metadata(to_path(path)).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// All files, or all directories; a mix is an error naming one of each.
pub fn run_groups(sides: &Sides) -> Result<RunGroups, Failure> {
    let all: Vec<&String> = sides.reference.iter().chain(&sides.compare).collect();
    let (directories, files): (Vec<&String>, Vec<&String>) =
        all.iter().partition(|p| to_path(p).is_dir());
    match (directories.first(), files.first()) {
        (Some(directory), Some(file)) => {
            let problem = if to_path(file).exists() {
                "is not"
            } else {
                "does not exist"
            };
            Err(Failure::fatal(format!(
                "--vs: the runs mix directories and files ({directory} is a directory, {file} {problem}); give only files or only directories"
            )))
        }
        (Some(_), None) => directory_groups(sides),
        _ => Ok(RunGroups {
            groups: vec![RunGroup {
                reference: runs(&sides.reference),
                compare: runs(&sides.compare),
            }],
            ..RunGroups::default()
        }),
    }
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

/// The `.json` file names of all the directories of both sides, sorted.
fn all_names(sides: &Sides) -> Result<Vec<String>, Failure> {
    let mut names = Vec::new();
    for directory in sides.reference.iter().chain(&sides.compare) {
        names.extend(crate::loading::inputs::json_names(directory)?);
    }
    names.sort();
    names.dedup();
    Ok(names)
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

fn directory_groups(sides: &Sides) -> Result<RunGroups, Failure> {
    let mut groups = RunGroups::default();
    for name in all_names(sides)? {
        let reference = runs_with(&sides.reference, &name);
        let compare = runs_with(&sides.compare, &name);
        match (reference.first(), compare.first()) {
            (Some(_), Some(_)) => groups.groups.push(RunGroup { reference, compare }),
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
    use std::path::Path;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("nvbc-repeat-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn text(path: &Path) -> String {
        path.to_str().unwrap().to_string()
    }

    #[test]
    fn files_make_one_group_in_order() {
        let sides = Sides::new(
            vec!["a.json".into(), "b.json".into()],
            vec!["c.json".into()],
        )
        .unwrap();
        let groups = run_groups(&sides).unwrap();
        assert_eq!(groups.groups.len(), 1);
        let group = &groups.groups[0];
        assert_eq!(group.reference[1].path, "b.json");
        assert_eq!(group.reference[1].index, 1);
        assert_eq!(group.compare[0].path, "c.json");
    }

    #[test]
    fn directories_are_matched_by_name_across_runs() {
        let root = temp_dir("dirs");
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
        let sides = Sides::new(vec![text(&dirs[0]), text(&dirs[1])], vec![text(&dirs[2])]).unwrap();
        let groups = run_groups(&sides).unwrap();
        assert_eq!(groups.groups.len(), 2);
        assert_eq!(groups.groups[0].reference.len(), 2);
        let c = &groups.groups[1];
        assert!(c.reference[0].path.ends_with("r1/c.json"));
        assert_eq!((c.reference.len(), c.compare.len()), (1, 1));
        assert_eq!(groups.only_reference.len(), 1);
        assert!(groups.only_reference[0].ends_with("r2/b.json"));
        assert!(groups.only_compare[0].ends_with("c1/d.json"));
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn mixed_files_and_directories_are_refused() {
        let root = temp_dir("mixed");
        let file = root.join("run.json");
        std::fs::write(&file, "{}").unwrap();
        let sides = Sides::new(vec![text(&root)], vec![text(&file)]).unwrap();
        let Err(Failure::Fatal(message)) = run_groups(&sides) else {
            panic!("a mix must fail");
        };
        assert!(message.contains("mix directories and files"), "{message}");
        assert!(message.contains(&text(&root)) && message.contains(&text(&file)));
        let absent = root.join("absent");
        let sides = Sides::new(vec![text(&root)], vec![text(&absent)]).unwrap();
        let Err(Failure::Fatal(message)) = run_groups(&sides) else {
            panic!("a missing directory must fail");
        };
        assert!(message.contains("absent does not exist"), "{message}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_side_needs_a_run() {
        let none = Sides::new(vec![], vec!["c.json".into()]).unwrap_err();
        assert!(format!("{none:?}").contains("no reference run"));
        let none = Sides::new(vec!["r.json".into()], vec![]).unwrap_err();
        assert!(format!("{none:?}").contains("no compare run"));
        assert!(Sides::new(vec!["r.json".into()], vec!["c.json".into()]).is_ok());
    }
}
