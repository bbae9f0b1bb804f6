//! The project ships no data file taken from another repository: no file of
//! the project has the content of a file under `../shared/data`,
//! `../shared/real` or `../shared/gbench` (Google Benchmark results), where such files live (`NVBENCH_COMPARE_SHARED=DIR`
//! points elsewhere). Runs only when that directory exists (and fails
//! without it under `NVBC_REQUIRE=shared`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::util::{Need, announce, files_under, require, root, shared_dir};

/// Folders that are not part of the project: build output, git's own, and
/// what fuzz/.gitignore keeps out.
const NOT_PROJECT: &[&str] = &[
    ".git",
    "target",
    "fuzz/corpus",
    "fuzz/artifacts",
    "fuzz/coverage",
    "fuzz/logs",
];

/// Where files from other repositories live, relative to the shared directory.
const FOREIGN_DIRS: &[&str] = &["data", "real", "gbench"];

fn project_files() -> Vec<PathBuf> {
    let skipped: Vec<PathBuf> = NOT_PROJECT.iter().map(|d| root().join(d)).collect();
    files_under(root(), &|p| skipped.iter().any(|s| s == p))
}

/// The foreign files, grouped by size so that only same-sized files are read.
fn foreign_files_by_size(shared: &Path) -> HashMap<u64, Vec<PathBuf>> {
    let found = FOREIGN_DIRS
        .iter()
        .flat_map(|dir| files_under(&shared.join(dir), &|_| false));
    let mut by_size: HashMap<u64, Vec<PathBuf>> = HashMap::new();
    for path in found {
        let size = std::fs::metadata(&path).unwrap().len();
        by_size.entry(size).or_default().push(path);
    }
    by_size
}

#[test]
fn no_project_file_is_a_copy_of_a_foreign_data_file() {
    if !require(Need::Shared) {
        return;
    }
    let shared = shared_dir();
    let foreign = foreign_files_by_size(&shared);
    assert!(
        !foreign.is_empty(),
        "{} holds no data files to check against",
        shared.display()
    );
    let project = project_files();
    assert!(
        project.len() > 100,
        "found only {} project files",
        project.len()
    );
    let mut copies = Vec::new();
    for path in &project {
        let size = std::fs::metadata(path).unwrap().len();
        let Some(candidates) = foreign.get(&size) else {
            continue;
        };
        let content = std::fs::read(path).unwrap();
        for candidate in candidates {
            if std::fs::read(candidate).unwrap() == content {
                copies.push(format!("{} = {}", path.display(), candidate.display()));
            }
        }
    }
    announce(&format!(
        "foreign data: {} project files checked against {} files of {}",
        project.len(),
        foreign.values().map(Vec::len).sum::<usize>(),
        shared.display()
    ));
    assert!(
        copies.is_empty(),
        "project files copied from other repositories:\n{}",
        copies.join("\n")
    );
}
