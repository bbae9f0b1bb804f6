//! Test scaffolding: a scratch directory that is removed when dropped, also
//! when its test panics, so that `cargo test` leaves nothing in the temp
//! directory. The unit tests use it as `crate::testing`, the integration
//! tests (tests/it/util) include this file as a module of their own: it
//! uses nothing but std.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh, empty directory `nvbc-NAME-PID-N` under the temp directory
/// (`$TMPDIR`), removed with everything in it on drop (a removal that fails
/// fails the test). With `NVBC_KEEP_SCRATCH` set it is kept, to look at
/// what a test wrote.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("nvbc-{name}-{}-{n}", std::process::id()));
        // Left over by an earlier process of the same id that was killed.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch { dir }
    }

    /// Writes `bytes` to `name` in the directory, creating the directories
    /// on the way; returns the file's path as text.
    pub fn write(&self, name: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> String {
        let path = self.dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path.to_str().expect("scratch paths are UTF-8").to_string()
    }
}

/// The directory itself: `scratch.join(name)`, `&scratch` as a `&Path`.
impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.dir
    }
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::env::var_os("NVBC_KEEP_SCRATCH").is_some() {
            return;
        }
        let removed = std::fs::remove_dir_all(&self.dir);
        // A failing test is already unwinding: a second panic would abort it.
        if !std::thread::panicking() {
            removed.unwrap_or_else(|e| panic!("cannot remove {}: {e}", self.dir.display()));
        }
    }
}

/// Every `.json` file under `testdata/`, sorted: what the readers' tests
/// compare each other on.
#[allow(dead_code)] // the integration tests include this file without using it
pub fn shipped_json_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// How many of the shipped JSON files (more than 300 of them) `agree`
/// accepts, and how many there are; the shipped example must be accepted.
#[allow(dead_code)] // the integration tests include this file without using it
pub fn accepted_shipped_files(agree: impl Fn(&[u8]) -> bool) -> (usize, usize) {
    let files = shipped_json_files();
    assert!(files.len() > 300);
    let accepted = files
        .iter()
        .filter(|path| agree(&std::fs::read(path).unwrap()))
        .count();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/reference.json");
    assert!(agree(&std::fs::read(example).unwrap()));
    (accepted, files.len())
}

/// One step of xorshift64 (Marsaglia): the reproducible random inputs of
/// the tests. Returns the new state.
pub fn xorshift_step(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The shortest of three timed runs of `work`: the tests that check that a
/// cost grows linearly compare two such times, and the shortest is the
/// least disturbed by other processes.
#[allow(dead_code)] // the integration tests include this file without using it
pub fn fastest_of_three(mut work: impl FnMut()) -> std::time::Duration {
    (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}
