//! Which file a path names: two spellings (`./r.json`, a symlink, `..`)
//! or two hard links of one file are the same file. Outputs are checked
//! against inputs with it, and the runs of a side against each other.

use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::loading::path_text::to_path;

/// What a path names on this system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    resolved: PathBuf,
    inode: Option<(u64, u64)>,
}

impl Identity {
    pub fn of(path: &str) -> Identity {
        let path = &*to_path(path);
        Identity {
            resolved: resolved(path),
            inode: std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino())),
        }
    }

    /// Both name one file: the same resolved path, or the same inode.
    pub fn same(&self, other: &Identity) -> bool {
        self.resolved == other.resolved || (self.inode.is_some() && self.inode == other.inode)
    }
}

/// The path with symlinks resolved as far as it exists, and `.`/`..`
/// removed from the rest.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => {
                out.push(other.as_os_str());
                // Existing parents resolve their symlinks too.
                if let Ok(canonical) = std::fs::canonicalize(&out) {
                    out = canonical;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_symlinks_and_hard_links_name_the_same_file() {
        let dir = std::env::temp_dir().join(format!("nvbc-identity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let file = dir.join("ref.json");
        std::fs::write(&file, "{}").unwrap();
        std::os::unix::fs::symlink(&file, dir.join("link.json")).unwrap();
        std::fs::hard_link(&file, dir.join("hard.json")).unwrap();
        let of = |p: PathBuf| Identity::of(p.to_str().unwrap());
        let original = of(file.clone());
        assert!(original.same(&of(dir.join("sub/../ref.json"))));
        assert!(original.same(&of(dir.join("./link.json"))));
        assert!(original.same(&of(dir.join("hard.json"))));
        assert!(!original.same(&of(dir.join("other.json"))));
        // Files that do not exist yet compare by their resolved names.
        assert!(of(dir.join("new.md")).same(&of(dir.join("sub/../new.md"))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
