//! Whole-file outputs written atomically: the text goes to a temporary file
//! in the destination's directory, which is then renamed over the
//! destination. A full disk, a write error or an interrupted run leaves the
//! earlier file as it was, never a truncated file that looks complete.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `bytes` to `path` as one whole file.
///
/// A symlink is followed (its target is replaced, the link stays). A
/// destination that is not a regular file (`/dev/stdout`, a FIFO, a
/// terminal) cannot be replaced by a rename and is written directly.
pub fn write_file(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    let path = path.as_ref();
    let target = match fs::canonicalize(path) {
        Ok(target) => target,
        // Dangling symlinks are written through by `fs::write`; new files
        // are created next to their name.
        Err(_) if fs::symlink_metadata(path).is_ok() => return fs::write(path, bytes),
        Err(_) => path.to_path_buf(),
    };
    let existing = fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return fs::write(&target, bytes);
    }
    // A replaced file keeps its permissions; a new one gets the usual
    // 0666 & ~umask.
    let mode = existing.map_or(0o666, |m| m.permissions().mode() & 0o7777);
    let temporary = temporary_path(&target);
    let written = write_new(&temporary, mode, bytes).and_then(|()| fs::rename(&temporary, &target));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// `.<name>.<pid>.<n>.tmp` beside `target`: hidden, unique in this process,
/// and on the same file system, so that the rename is atomic.
fn temporary_path(target: &Path) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    let file = format!(".{name}.{}.{unique}.tmp", std::process::id());
    match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.join(file),
        _ => PathBuf::from(file),
    }
}

fn write_new(path: &Path, mode: u32, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)?;
    file.write_all(bytes)?;
    // Errors a full disk reports only at write-back surface here, before
    // the rename makes the file visible.
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, entries};

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = Scratch::new("atomic-replace");
        let path = dir.join("out.md");
        write_file(&path, b"first, longer text").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(entries(&dir), ["out.md"]);
    }

    #[test]
    fn a_symlink_keeps_pointing_at_the_replaced_target() {
        let dir = Scratch::new("atomic-symlink");
        let target = dir.join("target.json");
        fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("link.json")).unwrap();
        write_file(dir.join("link.json"), b"new").unwrap();
        assert!(
            fs::symlink_metadata(dir.join("link.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_failed_write_keeps_the_earlier_file() {
        let dir = Scratch::new("atomic-failure");
        let path = dir.join("report.json");
        fs::write(&path, "earlier").unwrap();
        // The temporary file cannot be created in a read-only directory
        // (unless running as root, which bypasses permissions).
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
        let result = write_file(&path, b"new");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        if result.is_err() {
            assert_eq!(fs::read_to_string(&path).unwrap(), "earlier");
        }
        assert_eq!(entries(&dir), ["report.json"]);
    }

    #[test]
    fn devices_are_written_directly() {
        use std::os::unix::fs::FileTypeExt;
        write_file("/dev/null", b"discarded").unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
