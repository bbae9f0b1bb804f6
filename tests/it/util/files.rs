//! Files of the project and of the tests: where they are, copies of case
//! directories, walks of a tree.

use std::path::{Path, PathBuf};

/// The project's root (the checkout).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A project directory (`testdata/...`, `tests/regressions/...`).
pub fn project(relative: &str) -> PathBuf {
    root().join(relative)
}

/// Copies the tree `from` into `to` (created as needed).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The regular files under `dir` (none if it cannot be read), passing over
/// the files and directories `skip` names; symlinks are not followed.
pub fn files_under(dir: &Path, skip: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip(&path) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            found.extend(files_under(&path, skip));
        } else if kind.is_file() {
            found.push(path);
        }
    }
    found
}
