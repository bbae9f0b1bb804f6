//! Python's POSIX path rules where the reference's paths and names depend
//! on them: `os.path.join`, `os.path.dirname`, `os.path.abspath` and
//! pathlib's suffix.

use std::path::{Component, Path, PathBuf};

/// Python's `os.path.join(directory, name)` for POSIX paths.
pub fn py_join(directory: &str, name: &str) -> String {
    if name.starts_with('/') || directory.is_empty() {
        name.to_string()
    } else if directory.ends_with('/') {
        format!("{directory}{name}")
    } else {
        format!("{directory}/{name}")
    }
}

/// Python's `os.path.dirname(path)` for POSIX paths.
pub fn py_dirname(path: &str) -> String {
    let head = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    if !head.is_empty() && head.chars().any(|c| c != '/') {
        head.trim_end_matches('/').to_string()
    } else {
        head.to_string()
    }
}

/// `os.path.abspath`: joined to the working directory and normalized
/// without resolving symbolic links.
pub fn py_abspath(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// pathlib's suffix rule: the part after the last dot, unless the dot
/// starts the name or ends it.
pub fn py_suffix(name: &str) -> Option<&str> {
    let dot = name.rfind('.')?;
    (dot > 0 && dot + 1 < name.len()).then(|| &name[dot + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_path_helpers() {
        assert_eq!(py_join("", "a.bin"), "a.bin");
        assert_eq!(py_join("dir/", "a.bin"), "dir/a.bin");
        assert_eq!(py_join("dir", "/abs/a.bin"), "/abs/a.bin");
        assert_eq!(py_dirname("base/results.json"), "base");
        assert_eq!(py_dirname("results.json"), "");
        assert_eq!(py_dirname("/x"), "/");
        assert_eq!(py_dirname("a//b"), "a");
    }

    #[test]
    fn suffix_is_pathlibs() {
        assert_eq!(py_suffix("plot.png"), Some("png"));
        assert_eq!(py_suffix("a.tar.gz"), Some("gz"));
        assert_eq!(py_suffix(".hidden"), None);
        assert_eq!(py_suffix("name."), None);
        assert_eq!(py_suffix("plain"), None);
    }

    #[test]
    fn abspath_normalizes_without_resolving_links() {
        assert_eq!(py_abspath(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(py_abspath(Path::new("/..")), PathBuf::from("/"));
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(py_abspath(Path::new("x/../y")), cwd.join("y"));
    }
}
