//! Whole-file outputs written atomically: the text goes to a temporary file
//! in the destination's directory, which is then renamed over the
//! destination. A full disk, a write error or an interrupted run leaves the
//! earlier file as it was, never a truncated file that looks complete.
//!
//! A writable file in a directory where no file can be created (a
//! read-only directory) cannot be replaced that way: it is written in place
//! instead, and the caller is told so that it can warn.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How a file was written.
#[derive(Debug)]
pub enum Written {
    /// Whole, by a rename (or directly to a destination that is not a
    /// regular file).
    Atomically,
    /// Truncated and written over, because no temporary file could be
    /// created beside it (the error says why). An interruption can leave
    /// it partly written.
    InPlace(io::Error),
}

/// The set-user-ID and set-group-ID bits: never carried over to an output,
/// which belongs to whoever runs the tool, not to the replaced file's owner.
const SETUID_SETGID: u32 = 0o6000;

/// How many names a temporary file tries before giving up (names left by
/// an earlier process with the same process id are skipped).
const TEMPORARY_ATTEMPTS: usize = 64;

/// Writes `bytes` to `path` as one whole file.
///
/// A symlink is followed (its target is replaced, the link stays). A
/// destination that is not a regular file (`/dev/stdout`, a FIFO, a
/// terminal) cannot be replaced by a rename and is written directly.
pub fn write_file(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<Written> {
    let path = path.as_ref();
    let target = match fs::canonicalize(path) {
        Ok(target) => target,
        // Dangling symlinks are written through by `fs::write`; new files
        // are created next to their name.
        Err(_) if fs::symlink_metadata(path).is_ok() => {
            return fs::write(path, bytes).map(|()| Written::Atomically);
        }
        Err(_) => path.to_path_buf(),
    };
    let existing = fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return fs::write(&target, bytes).map(|()| Written::Atomically);
    }
    // A replaced file keeps its permissions (but for set-ID bits); a new
    // one gets the usual 0666 & ~umask.
    let mode = existing
        .as_ref()
        .map_or(0o666, |m| m.permissions().mode() & 0o7777 & !SETUID_SETGID);
    let (temporary, file) = match create_temporary(&target, mode, &TEMPORARY_COUNTER) {
        Ok(created) => created,
        Err(error) if existing.is_some() && error.kind() == io::ErrorKind::PermissionDenied => {
            return write_in_place(&target, bytes).map(|()| Written::InPlace(error));
        }
        Err(error) => return Err(error),
    };
    let written = fill(file, bytes).and_then(|()| fs::rename(&temporary, &target));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map(|()| Written::Atomically)
}

/// Numbers the temporary files of this process.
static TEMPORARY_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A new temporary file beside `target`, `.nvbc-<pid>-<n>.tmp` with `n`
/// from `counter`: hidden, unique in this process, on the same file system
/// (so that the rename is atomic) and short whatever the destination's
/// name (a name near the 255-byte limit must still leave room for it).
fn create_temporary(
    target: &Path,
    mode: u32,
    counter: &AtomicUsize,
) -> io::Result<(PathBuf, fs::File)> {
    let mut attempts = 0;
    loop {
        let unique = counter.fetch_add(1, Ordering::Relaxed);
        let name = format!(".nvbc-{}-{unique}.tmp", std::process::id());
        let path = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.join(name),
            _ => PathBuf::from(name),
        };
        let created = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&path);
        attempts += 1;
        match created {
            Err(error)
                if error.kind() == io::ErrorKind::AlreadyExists
                    && attempts < TEMPORARY_ATTEMPTS => {}
            Err(error) => return Err(error),
            Ok(file) => return Ok((path, file)),
        }
    }
}

fn fill(mut file: fs::File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    // Errors a full disk reports only at write-back surface here, before
    // the rename makes the file visible.
    file.sync_all()
}

/// Empties the existing regular file `target` and writes `bytes` over it;
/// set-ID bits are dropped as for a replaced file (the kernel keeps them
/// on a write by root). Opened without blocking and checked once open, so
/// that a FIFO put in its place is refused, not waited on.
fn write_in_place(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(target)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mode = metadata.permissions().mode();
    if mode & SETUID_SETGID != 0 {
        file.set_permissions(fs::Permissions::from_mode(mode & 0o7777 & !SETUID_SETGID))?;
    }
    file.set_len(0)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, entries};

    fn mode_of(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = Scratch::new("atomic-replace");
        let path = dir.join("out.md");
        write_file(&path, b"first, longer text").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let written = write_file(&path, b"second").unwrap();
        assert!(matches!(written, Written::Atomically), "{written:?}");
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(mode_of(&path), 0o640);
        assert_eq!(entries(&dir), ["out.md"]);
    }

    #[test]
    fn a_destination_name_of_250_bytes_is_written_and_replaced() {
        let dir = Scratch::new("atomic-long-name");
        let name = format!("{}.json", "n".repeat(245));
        assert_eq!(name.len(), 250);
        let path = dir.join(&name);
        for text in ["first", "second"] {
            let written = write_file(&path, text.as_bytes()).unwrap();
            assert!(matches!(written, Written::Atomically), "{written:?}");
            assert_eq!(fs::read_to_string(&path).unwrap(), text);
        }
        assert_eq!(entries(&dir), [name]);
    }

    #[test]
    fn a_replaced_file_loses_its_set_id_bits_and_keeps_the_rest_of_its_mode() {
        let dir = Scratch::new("atomic-setid");
        let path = dir.join("report.json");
        fs::write(&path, "earlier").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o6750)).unwrap();
        assert_eq!(mode_of(&path), 0o6750);
        write_file(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(mode_of(&path), 0o750);
    }

    #[test]
    fn temporary_names_left_by_an_earlier_process_are_skipped() {
        let dir = Scratch::new("atomic-stale");
        let target = dir.join("out.md");
        let pid = std::process::id();
        for n in 0..3 {
            dir.write(format!(".nvbc-{pid}-{n}.tmp"), "stale");
        }
        let counter = AtomicUsize::new(0);
        let (path, _file) = create_temporary(&target, 0o600, &counter).unwrap();
        assert_eq!(path, dir.join(format!(".nvbc-{pid}-3.tmp")));
        assert_eq!(fs::read(&path).unwrap(), b"");
    }

    #[test]
    fn writing_in_place_replaces_the_text_and_drops_set_id_bits() {
        let dir = Scratch::new("atomic-in-place");
        let path = dir.join("summary.md");
        fs::write(&path, "an earlier, longer text").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o4644)).unwrap();
        write_in_place(&path, b"short").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "short");
        assert_eq!(mode_of(&path), 0o644);
        assert_eq!(entries(&dir), ["summary.md"]);
    }

    #[test]
    fn writing_in_place_refuses_a_fifo_without_waiting_for_a_reader() {
        let dir = Scratch::new("atomic-in-place-fifo");
        let fifo = dir.join("summary.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
        // Opening a FIFO for writing blocks until a reader comes; this
        // open fails at once (ENXIO) instead.
        assert!(write_in_place(&fifo, b"text").is_err());
    }

    #[test]
    fn a_failed_write_keeps_the_earlier_file() {
        let dir = Scratch::new("atomic-failure");
        let path = dir.join("report.json");
        fs::write(&path, "earlier").unwrap();
        // Neither a temporary file nor a write in place is allowed (unless
        // running as root, which bypasses permissions).
        fs::set_permissions(&path, fs::Permissions::from_mode(0o400)).unwrap();
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
