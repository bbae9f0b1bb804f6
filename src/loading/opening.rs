//! Opening the files the tool reads (JSON inputs, the config, sidecars)
//! without ever waiting: `open` of a FIFO for reading blocks until a writer
//! comes, so a path that is (or, between a `stat` and the `open`, becomes)
//! a FIFO would hang the run. Files are opened with `O_NONBLOCK` and judged
//! by an `fstat` of the opened handle, the file that will be read.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use crate::text::printable::printable;

/// A file that is not of a kind the tool reads; its text says what it is.
#[derive(Debug)]
pub struct NotRegular {
    kind: &'static str,
}

impl std::fmt::Display for NotRegular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, not a regular file", self.kind)
    }
}

impl std::error::Error for NotRegular {}

/// The error for a file of `metadata`'s kind.
fn not_regular(metadata: &Metadata) -> io::Error {
    let file_type = metadata.file_type();
    let kind = if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    };
    io::Error::new(io::ErrorKind::InvalidInput, NotRegular { kind })
}

/// EISDIR, as Python's `open()` reports a directory.
fn is_a_directory() -> io::Error {
    io::Error::from_raw_os_error(libc::EISDIR)
}

/// The refusal an error carries, if it is one of [`NotRegular`].
pub fn as_not_regular(error: &io::Error) -> Option<&NotRegular> {
    error.get_ref()?.downcast_ref::<NotRegular>()
}

/// `cannot read PATH: it is a FIFO, not a regular file` for a refused
/// kind of file, otherwise `cannot read PATH:` and the error in plain words
/// (no case holds the reference's words here: it prints a traceback).
pub fn cannot_read(error: &io::Error, path: &str) -> String {
    match as_not_regular(error) {
        Some(refused) => format!("cannot read {}: it is {refused}", printable(path)),
        None => format!("cannot read {}: {}", printable(path), plain_reason(error)),
    }
}

/// The error as a user reads it: `no such file`, `permission denied`, the
/// system's words otherwise, without Python's `[Errno N]`.
fn plain_reason(error: &io::Error) -> String {
    match error.raw_os_error() {
        Some(libc::ENOENT) => "no such file".to_string(),
        Some(libc::EACCES) => "permission denied".to_string(),
        Some(libc::EISDIR) => "it is a directory".to_string(),
        Some(libc::ENOMEM) => "not enough memory to read it".to_string(),
        Some(code) => {
            let text = error.to_string();
            let suffix = format!(" (os error {code})");
            lowercase_first(text.strip_suffix(&suffix).unwrap_or(&text))
        }
        None => lowercase_first(&error.to_string()),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// ENOMEM: no room for a buffer the size of an input, said as the failed
/// memory map of the same input says it.
pub fn out_of_memory() -> io::Error {
    io::Error::from_raw_os_error(libc::ENOMEM)
}

/// Everything `file` gives until its end. The buffer grows by fallible
/// reservations (`read_to_end`'s), so an endless or huge input ends in
/// ENOMEM, not in an aborted allocation.
pub fn read_all(mut file: &File) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match io::Read::read_to_end(&mut file, &mut bytes) {
        Err(error) if error.kind() == io::ErrorKind::OutOfMemory => Err(out_of_memory()),
        Err(error) => Err(error),
        Ok(_) => Ok(bytes),
    }
}

/// Opens `path` for reading without blocking; the handle and its `fstat`.
fn open_without_blocking(path: impl AsRef<Path>) -> io::Result<(File, Metadata)> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let metadata = file.metadata()?;
    Ok((file, metadata))
}

/// A regular file opened for reading, with its metadata. Anything else is
/// refused once open: a directory with EISDIR, other kinds with
/// [`NotRegular`]. `O_NONBLOCK` stays set: it changes nothing for a
/// regular file.
pub fn open_regular(path: impl AsRef<Path>) -> io::Result<(File, Metadata)> {
    let (file, metadata) = open_without_blocking(path)?;
    if metadata.is_dir() {
        return Err(is_a_directory());
    }
    if !metadata.is_file() {
        return Err(not_regular(&metadata));
    }
    Ok((file, metadata))
}

/// An input the tool reads whole: a regular file, or a pipe.
pub enum Input {
    Regular(File, Metadata),
    /// An anonymous pipe (process substitution `<(...)`, `/dev/stdin` fed
    /// by a pipe), set back to blocking reads.
    Pipe(File),
}

/// Opens a JSON input or the config: a regular file, or an anonymous pipe
/// (which a process started for this run writes to). A FIFO with a name,
/// a device or a socket is refused once open, a directory with EISDIR.
pub fn open_input(path: impl AsRef<Path>) -> io::Result<Input> {
    let (file, metadata) = open_without_blocking(path)?;
    if metadata.is_file() {
        return Ok(Input::Regular(file, metadata));
    }
    if metadata.is_dir() {
        return Err(is_a_directory());
    }
    if metadata.file_type().is_fifo() && is_anonymous_pipe(&file) {
        set_blocking(&file)?;
        return Ok(Input::Pipe(file));
    }
    Err(not_regular(&metadata))
}

/// A pipe without a name: the kernel names its file `pipe:[inode]`, where
/// a FIFO's is its path.
fn is_anonymous_pipe(file: &File) -> bool {
    let link = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()));
    link.is_ok_and(|target| target.as_os_str().as_encoded_bytes().starts_with(b"pipe:["))
}

/// Clears `O_NONBLOCK`, so that reads wait for the writer.
fn set_blocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: F_GETFL and F_SETFL on a descriptor this handle owns, with
    // the flags it had minus O_NONBLOCK.
    let cleared = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) >= 0
    };
    if !cleared {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Scratch;
    use std::io::{Read, Write};

    fn fifo(dir: &Scratch, name: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
        path
    }

    #[test]
    fn a_fifo_is_refused_once_open_without_waiting_for_a_writer() {
        let dir = Scratch::new("opening-fifo");
        let path = fifo(&dir, "samples.bin");
        // A plain `File::open` of this FIFO would block this test forever.
        for error in [
            open_regular(&path).err().unwrap(),
            open_input(&path).err().unwrap(),
        ] {
            assert_eq!(error.to_string(), "a FIFO, not a regular file");
            assert!(as_not_regular(&error).is_some());
        }
        let error = open_input(&path).err().unwrap();
        assert_eq!(
            cannot_read(&error, path.to_str().unwrap()),
            format!(
                "cannot read {}: it is a FIFO, not a regular file",
                path.display()
            )
        );
    }

    #[test]
    fn a_file_replaced_by_a_fifo_after_its_stat_is_refused() {
        let dir = Scratch::new("opening-swap");
        let path = dir.join("samples.bin");
        std::fs::write(&path, [0u8; 8]).unwrap();
        assert!(std::fs::metadata(&path).unwrap().is_file());
        // What another process may do between a stat and the open.
        std::fs::remove_file(&path).unwrap();
        fifo(&dir, "samples.bin");
        let error = open_regular(&path).err().unwrap();
        assert_eq!(error.to_string(), "a FIFO, not a regular file");
    }

    #[test]
    fn directories_devices_and_missing_files_fail_as_before() {
        let dir = Scratch::new("opening-kinds");
        let directory = open_input(&dir).err().unwrap();
        assert_eq!(directory.raw_os_error(), Some(libc::EISDIR));
        let directory = open_regular(&dir).err().unwrap();
        assert_eq!(directory.raw_os_error(), Some(libc::EISDIR));
        let device = open_input(Path::new("/dev/zero")).err().unwrap();
        assert_eq!(device.to_string(), "a character device, not a regular file");
        let missing = open_input(dir.join("absent.json")).err().unwrap();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(as_not_regular(&missing).is_none());
    }

    #[test]
    fn an_anonymous_pipe_is_read_and_waits_for_its_writer() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 0.2; printf '{}'"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pipe = child.stdout.take().unwrap();
        let path = format!("/proc/self/fd/{}", pipe.as_raw_fd());
        let Input::Pipe(mut file) = open_input(Path::new(&path)).unwrap() else {
            panic!("not read as a pipe");
        };
        let mut text = String::new();
        // Blocking again: the read waits for the late writer, no EAGAIN.
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "{}");
        child.wait().unwrap();
    }

    #[test]
    fn a_regular_file_reads_as_usual() {
        let dir = Scratch::new("opening-regular");
        let path = dir.join("a.json");
        std::fs::File::create(&path)
            .unwrap()
            .write_all(b"{\"x\": 1}")
            .unwrap();
        let Input::Regular(mut file, metadata) = open_input(&path).unwrap() else {
            panic!("not a regular file");
        };
        assert_eq!(metadata.len(), 8);
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "{\"x\": 1}");
    }
}
