//! Python's `str(OSError)`: how the reference words a failed system call.

use std::io;

use crate::pycompat::pyfmt::str_repr;

/// The file an `OSError` names: a path (`&str`, `&String`), or `None` for a
/// failure Python reports without one (a read after a successful open).
pub trait OsErrorFilename {
    fn filename(&self) -> Option<&str>;
}

impl<T: AsRef<str> + ?Sized> OsErrorFilename for &T {
    fn filename(&self) -> Option<&str> {
        Some((**self).as_ref())
    }
}

impl OsErrorFilename for Option<&str> {
    fn filename(&self) -> Option<&str> {
        *self
    }
}

/// `[Errno N] strerror: 'filename'` (without the filename when there is
/// none), e.g. `[Errno 2] No such file or directory: 'x.bin'`. Rust and
/// Python both take the text from the C library's `strerror()`; Rust adds
/// ` (os error N)`, which Python does not print.
///
/// An error without an errno (ours: "not a regular file", a short read) has
/// no Python wording; it keeps its own text and still names the file, which
/// the messages built on this one (`cannot read ...`) would otherwise lose.
pub fn os_error_text(error: &io::Error, filename: impl OsErrorFilename) -> String {
    let rendered = error.to_string();
    let (errno, reason) = match error.raw_os_error() {
        Some(code) => {
            let suffix = format!(" (os error {code})");
            let reason = rendered.strip_suffix(&suffix).unwrap_or(&rendered);
            (format!("[Errno {code}] "), reason)
        }
        None => (String::new(), rendered.as_str()),
    };
    match filename.filename() {
        Some(name) => format!("{errno}{reason}: {}", str_repr(name)),
        None => format!("{errno}{reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_with_an_errno_read_as_python_prints_them() {
        let missing = io::Error::from_raw_os_error(2);
        assert_eq!(
            os_error_text(&missing, "x.bin"),
            "[Errno 2] No such file or directory: 'x.bin'"
        );
        assert_eq!(
            os_error_text(&missing, "it's.toml"),
            "[Errno 2] No such file or directory: \"it's.toml\""
        );
        let denied = io::Error::from_raw_os_error(13);
        assert_eq!(
            os_error_text(&denied, &"x".to_string()),
            "[Errno 13] Permission denied: 'x'"
        );
        let io_failure = io::Error::from_raw_os_error(5);
        assert_eq!(
            os_error_text(&io_failure, None),
            "[Errno 5] Input/output error"
        );
    }

    #[test]
    fn errors_without_an_errno_keep_their_text_and_the_file() {
        let irregular = io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
        assert_eq!(
            os_error_text(&irregular, "a.bin"),
            "not a regular file: 'a.bin'"
        );
        assert_eq!(os_error_text(&irregular, None), "not a regular file");
        let short = io::Error::from(io::ErrorKind::UnexpectedEof);
        assert_eq!(os_error_text(&short, None), short.to_string());
    }
}
