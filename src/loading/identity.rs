//! Which file a path names: two spellings (`./r.json`, a symlink, `..`)
//! or two hard links of one file are the same file. Outputs are checked
//! against inputs with it, and the runs of a side against each other.

use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::text::path_text::to_path;

/// What a path names on this system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    resolved: PathBuf,
    inode: Option<(u64, u64)>,
    /// The device number of a character device (a terminal, `/dev/null`).
    char_device: Option<u64>,
}

/// `/dev/null`'s device number: major 1, minor 3.
const DEV_NULL: u64 = (1 << 8) | 3;

impl Identity {
    pub fn of(path: &str) -> Identity {
        let path = &*to_path(path);
        let metadata = std::fs::metadata(path).ok();
        Identity {
            resolved: resolved(path),
            inode: metadata.as_ref().map(|m| (m.dev(), m.ino())),
            char_device: metadata.as_ref().and_then(char_device),
        }
    }

    /// What the process's stdout is, whatever name it goes by
    /// (`/dev/stdout`, `/proc/self/fd/1`, the file it was redirected to).
    pub fn of_stdout() -> Option<Identity> {
        let metadata = std::fs::metadata("/proc/self/fd/1")
            .or_else(|_| std::fs::metadata("/dev/fd/1"))
            .ok()?;
        Some(Identity {
            resolved: PathBuf::new(),
            inode: Some((metadata.dev(), metadata.ino())),
            char_device: char_device(&metadata),
        })
    }

    /// Writing to it replaces no file (a terminal, `/dev/null`).
    pub fn is_char_device(&self) -> bool {
        self.char_device.is_some()
    }

    /// `/dev/null`: what is written there is gone.
    pub fn is_dev_null(&self) -> bool {
        self.char_device == Some(DEV_NULL)
    }

    /// Both name one file: the same resolved path, or the same inode.
    pub fn same(&self, other: &Identity) -> bool {
        let named = !self.resolved.as_os_str().is_empty() && self.resolved == other.resolved;
        named || (self.inode.is_some() && self.inode == other.inode)
    }
}

fn char_device(metadata: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::FileTypeExt;
    metadata
        .file_type()
        .is_char_device()
        .then(|| metadata.rdev())
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
    use crate::testing::Scratch;

    #[test]
    fn dot_segments_symlinks_and_hard_links_name_the_same_file() {
        let dir = Scratch::new("identity");
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
        assert!(!original.is_char_device());
        let null = Identity::of("/dev/null");
        assert!(null.is_char_device() && null.is_dev_null());
    }
}
