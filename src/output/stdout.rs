//! Stdout that may be closed early (`nvbench-compare ... | head`).

use std::io::{self, ErrorKind, Write};

/// Once the reader has gone (a broken pipe), further output is discarded
/// instead of failing: the run goes on, its file outputs (`--json FILE`,
/// `--markdown-summary`, charts) are still written, and the exit status is
/// the run's own, without a message (nobody is left to read stdout).
pub struct ClosedPipeTolerant<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> ClosedPipeTolerant<W> {
    pub fn new(inner: W) -> Self {
        ClosedPipeTolerant {
            inner,
            closed: false,
        }
    }

    /// The reader closed the pipe at some point.
    #[cfg(test)]
    pub fn was_closed(&self) -> bool {
        self.closed
    }

    fn absorb(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

impl<W: Write> Write for ClosedPipeTolerant<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(bytes.len());
        }
        let result = self.inner.write_all(bytes);
        self.absorb(result).map(|()| bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.absorb(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closing {
        accepted: usize,
    }

    impl Write for Closing {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.accepted >= 4 {
                return Err(io::Error::from(ErrorKind::BrokenPipe));
            }
            self.accepted += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn output_after_a_broken_pipe_is_discarded() {
        let mut out = ClosedPipeTolerant::new(Closing { accepted: 0 });
        out.write_all(b"line\n").unwrap();
        assert!(!out.was_closed());
        out.write_all(b"more\n").unwrap();
        assert!(out.was_closed());
        assert_eq!(out.inner.accepted, 5);
        out.flush().unwrap();
    }

    #[test]
    fn other_errors_still_fail() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::from(ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut out = ClosedPipeTolerant::new(Full);
        assert!(out.write_all(b"x").is_err());
        assert!(!out.was_closed());
    }
}
