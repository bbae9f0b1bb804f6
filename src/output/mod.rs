//! Output: the one owner of every destination. Renderers and charts return
//! text and bytes; [`Outputs`] decides where they go and performs every
//! write: files whole and atomically ([`atomic`]), never over an input or
//! another output ([`collisions`]); stdout ends quietly when its reader
//! goes away ([`stdout`]). [`Console`] is stdout and stderr as the run sees
//! them: the tables, and the notes printed among them.

pub mod atomic;
pub mod collisions;
pub mod stdout;

use std::io::Write;

use crate::failure::Failure;
use crate::loading::model::Root;
use crate::pycompat::oserror::os_error_text;
use crate::settings::{Destination, Settings};
use crate::text::printable::printable;
use collisions::Collisions;

/// Stdout and stderr of a run. With `--json -` stdout carries the JSON
/// document alone: the tables are dropped and the notes the reference
/// prints among them (warnings, device differences, chart messages) go to
/// stderr, so that none is lost.
pub struct Console<'o> {
    stdout: &'o mut dyn Write,
    tables_on_stdout: bool,
    stderr: std::io::Stderr,
    sink: std::io::Sink,
}

impl<'o> Console<'o> {
    pub fn new(stdout: &'o mut dyn Write, settings: &Settings) -> Self {
        Console {
            stdout,
            tables_on_stdout: settings.outputs.stdout_document().is_none(),
            stderr: crate::messages::stream(),
            sink: std::io::sink(),
        }
    }

    /// Where the tables and the summary go.
    pub fn tables(&mut self) -> &mut dyn Write {
        if self.tables_on_stdout {
            self.stdout
        } else {
            &mut self.sink
        }
    }

    /// Where notes printed among the tables go.
    pub fn notes(&mut self) -> &mut dyn Write {
        if self.tables_on_stdout {
            self.stdout
        } else {
            &mut self.stderr
        }
    }

    /// The real stdout, for a document sent there.
    pub fn stdout(&mut self) -> &mut dyn Write {
        self.stdout
    }

    /// Flushes stdout before something is printed on stderr, so that the
    /// two streams interleave as they were written.
    pub fn flush(&mut self) {
        let _ = self.stdout.flush();
    }

    /// A warning of the output owner on stderr, after what stdout holds.
    pub fn warn(&mut self, message: &str) {
        self.flush();
        crate::messages::warning(message);
    }
}

/// A document and where it goes.
pub struct Document<'a> {
    pub destination: &'a Destination,
    pub text: &'a str,
}

/// The owner of every output of a run: checks collisions, writes.
pub struct Outputs {
    collisions: Collisions,
}

impl Outputs {
    /// Checks the outputs against each other and the config file.
    pub fn new(settings: &Settings) -> Result<Self, Failure> {
        Ok(Outputs {
            collisions: Collisions::new(settings)?,
        })
    }

    /// An input JSON file: no output may name it.
    pub fn check_input(&mut self, path: &str) -> Result<(), Failure> {
        self.collisions.check_input("input file", path)
    }

    /// The sidecars a loaded run references: no output may name them.
    pub fn check_sidecars(&mut self, json_path: &str, root: &Root) -> Result<(), Failure> {
        self.collisions.check_sidecars(json_path, root)
    }

    /// Writes `--json` or `--markdown-summary` to its destination.
    pub fn write_document(&self, document: Document, console: &mut Console) -> Result<(), Failure> {
        let fail =
            |e: std::io::Error, path: &str| Failure::fatal(format!("cannot write {path}: {e}"));
        match document.destination {
            Destination::Stdout => console
                .stdout()
                .write_all(document.text.as_bytes())
                .map_err(Failure::write),
            Destination::File(path) => {
                let written = atomic::write_file(path, document.text.as_bytes())
                    .map_err(|e| fail(e, path))?;
                warn_if_in_place(written, path, console);
                Ok(())
            }
            Destination::Append(path) => append(path, document.text).map_err(|e| fail(e, path)),
        }
    }

    /// Writes the `--bulk-debug-python` script, with the reference's
    /// message when the file cannot be written.
    pub fn write_bulk_debug(
        &self,
        destination: &Destination,
        script: &str,
        console: &mut Console,
    ) -> Result<(), Failure> {
        let Some(path) = destination.file() else {
            return console
                .tables()
                .write_all(script.as_bytes())
                .map_err(Failure::write);
        };
        let written = atomic::write_file(path, script.as_bytes()).map_err(|e| {
            Failure::reported(format!(
                "failed to write bulk debug Python output: {}",
                os_error_text(&e, path)
            ))
        })?;
        warn_if_in_place(written, path, console);
        Ok(())
    }

    /// Writes a chart file (its name checked first against the inputs and
    /// the other outputs: it may have been chosen during the run); its
    /// directory is created as needed. `failed` gives the message of a
    /// failed write from the system's reason.
    pub fn write_chart(
        &self,
        (option, path): (&str, &str),
        bytes: &[u8],
        failed: impl FnOnce(String) -> String,
        console: &mut Console,
    ) -> Result<(), Failure> {
        self.collisions.check_chart(option, path)?;
        let target = std::path::Path::new(path);
        let parent = target.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(parent) = parent
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            let shown = parent.to_string_lossy();
            return Err(Failure::Fatal(failed(os_error_text(&e, &shown))));
        }
        let written = atomic::write_file(target, bytes)
            .map_err(|e| Failure::Fatal(failed(os_error_text(&e, path))))?;
        warn_if_in_place(written, path, console);
        Ok(())
    }
}

/// A file written in place says so: an interruption could have left it
/// partly written, which a rename never does.
fn warn_if_in_place(written: atomic::Written, path: &str, console: &mut Console) {
    if let atomic::Written::InPlace(why) = written {
        console.warn(&format!(
            "{} was written in place, not atomically: no temporary file can be created beside it ({})",
            printable(path),
            os_error_text(&why, None)
        ));
    }
}

/// A write beyond the file size limit (`ulimit -f`) fails with EFBIG, which
/// is reported and leaves the destination as it was, instead of killing
/// the process with SIGXFSZ halfway through a temporary file.
pub fn report_oversized_writes() {
    // SAFETY: setting a signal's disposition to "ignore" is always sound.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The file keeps what it had (as GitHub does with step summaries) and the
/// document is added in one write.
fn append(path: &str, text: &str) -> std::io::Result<()> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_settings() -> Settings {
        let args = ["nvbench-compare", "r.json", "c.json"].map(std::ffi::OsString::from);
        let (cli, filters) = crate::cli::parse(args).unwrap();
        let Ok(crate::cli::Command::Compare(settings)) = crate::cli::into_command(cli, &filters)
        else {
            panic!("not a comparison");
        };
        *settings
    }

    #[test]
    fn a_chart_gets_its_directories_and_errors_use_python_wording() {
        let dir = crate::testing::Scratch::new("owner");
        let settings = plain_settings();
        let outputs = Outputs::new(&settings).unwrap();
        let mut stdout = Vec::new();
        let mut console = Console::new(&mut stdout, &settings);
        let nested = dir.join("plots/nested/compare.svg");
        let nested = nested.to_str().unwrap();
        let failed = |why: String| format!("failed: {why}");
        outputs
            .write_chart(("--plot-output", nested), b"<svg/>", failed, &mut console)
            .unwrap();
        assert_eq!(std::fs::read(nested).unwrap(), b"<svg/>");
        let blocker = dir.join("not-a-directory");
        std::fs::write(&blocker, "").unwrap();
        let target = blocker.join("compare.png");
        let error = outputs
            .write_chart(
                ("--plot-output", target.to_str().unwrap()),
                b"png",
                failed,
                &mut console,
            )
            .unwrap_err();
        let Failure::Fatal(message) = error else {
            panic!("not fatal: {error:?}");
        };
        assert!(message.starts_with("failed: [Errno "), "{message}");
        assert!(
            message.contains(&format!("'{}'", blocker.display())),
            "{message}"
        );
    }
}
