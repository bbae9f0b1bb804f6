//! How a run fails: where the message goes and which exit code follows.

/// A failure that ends the run with exit status 1 (2 for [`Failure::Conflict`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The reference catches these and prints the message on stdout.
    Reported(String),
    /// A [`Failure::Reported`] message (stdout, as the reference prints it)
    /// followed by notes of our own on stderr: what was wrong, what exists,
    /// which option avoids it.
    ReportedWithNotes(String, Vec<String>),
    /// The reference dies with an uncaught exception here; we print a clear
    /// message on stderr instead of a traceback.
    Fatal(String),
    /// The message was already printed as part of the output.
    AlreadyReported,
    /// Wrong number of paths: the help goes to stdout, as the reference
    /// prints it, and what was wrong (`problem`) to stderr. `help` is the
    /// text printed (`None`: the command's own `--help`).
    Usage {
        problem: String,
        help: Option<String>,
    },
    /// Options that contradict each other, or an output that would
    /// overwrite an input or another output: the message goes to stderr and
    /// the exit status is a usage error's (2), as for clap's own errors.
    Conflict(String),
}

impl Failure {
    pub fn fatal(message: impl Into<String>) -> Self {
        Failure::Fatal(message.into())
    }

    pub fn reported(message: impl Into<String>) -> Self {
        Failure::Reported(message.into())
    }

    /// The reference's stdout message with notes for stderr (none: plain `Reported`).
    pub fn reported_with_notes(message: impl Into<String>, notes: Vec<String>) -> Self {
        if notes.is_empty() {
            Failure::Reported(message.into())
        } else {
            Failure::ReportedWithNotes(message.into(), notes)
        }
    }

    /// Exit status of a run that ends with this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Conflict(_) => 2,
            _ => 1,
        }
    }

    /// Writing to stdout failed (a full disk, `/dev/full`). A closed pipe
    /// (`| head`) ends the run quietly: nobody is left to read a message.
    pub fn write(error: std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::AlreadyReported
        } else {
            Failure::Fatal(format!("cannot write to stdout: {error}"))
        }
    }
}
