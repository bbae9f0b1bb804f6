//! How a run fails: where the message goes and which exit code follows.

/// A failure that ends the run with exit status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The reference catches these and prints the message on stdout.
    Reported(String),
    /// The reference dies with an uncaught exception here; we print a clear
    /// message on stderr instead of a traceback.
    Fatal(String),
    /// The message was already printed as part of the output.
    AlreadyReported,
    /// Wrong number of paths: the help goes to stdout, as the reference prints it.
    Usage,
    /// An output would overwrite an input or another output: a usage
    /// error (exit 2), found before the output is written.
    Conflict(String),
}

impl Failure {
    pub fn fatal(message: impl Into<String>) -> Self {
        Failure::Fatal(message.into())
    }

    pub fn reported(message: impl Into<String>) -> Self {
        Failure::Reported(message.into())
    }

    /// Writing the report failed. A closed pipe (`| head`) ends the run
    /// quietly: nobody is left to read a message.
    pub fn write(error: std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::AlreadyReported
        } else {
            Failure::Fatal(format!("cannot write output: {error}"))
        }
    }
}
