//! `--jsonbin` sidecars: float32 sample times and SM clock frequencies next
//! to the JSON file, read only when a decision needs them.

use std::cell::RefCell;
use std::fs::File;
use std::io;

use crate::loading::opening;
use crate::loading::timing::{SidecarRef, Timing, bulk_warning};
use crate::personality::SidecarSearch;
use crate::pycompat::oserror::os_error_text;
use crate::pycompat::paths::{py_dirname, py_join};
use crate::text::path_text::to_path;

/// Where a sidecar named in a JSON file lives: absolute names as given,
/// otherwise next to the JSON file, then next to its directory, then
/// relative to the working directory (NVBench writes the name relative to
/// the directory the benchmark ran in, e.g. `runs/base/ref.json-bin/0.bin`).
/// When none exists, the name next to the JSON file is reported.
pub fn resolve_sidecar_path(json_dir: &str, filename: &str) -> String {
    resolve_with_stat(json_dir, filename, Lookup::Compare).0
}

/// Where a relative sidecar name is looked for, after beside the JSON file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup<'a> {
    /// Beside the JSON file's directory, then in the working directory.
    Compare,
    /// The robust command's: from the name's first component named after
    /// the JSON file (`NAME-bin`, `NAME-freqs-bin`: a name written where
    /// the benchmark ran), beside the JSON file; then beside its
    /// directory; never in the working directory.
    Robust { json_name: &'a str },
}

impl<'a> Lookup<'a> {
    /// The lookup `search` names for the sidecars of the JSON file at `json_path`.
    pub fn of(search: SidecarSearch, json_path: &'a str) -> Lookup<'a> {
        match search {
            SidecarSearch::Compare => Lookup::Compare,
            SidecarSearch::Robust => Lookup::Robust {
                json_name: json_path.rsplit('/').next().unwrap_or(json_path),
            },
        }
    }
}

/// What the `stat` that resolved a sidecar said: enough for the material
/// check (a non-empty file), so that the path walk that found the file is
/// the only one it gets before it is opened (there was one more for that
/// check: a path walk each, for thousands of small files). The opened file
/// is judged and sized again by `fstat`, which walks no path.
#[derive(Debug, Clone, Copy)]
struct Stat {
    len: u64,
}

fn stat(path: &str) -> io::Result<Stat> {
    let metadata = std::fs::metadata(to_path(path))?;
    Ok(Stat {
        len: metadata.len(),
    })
}

/// [`resolve_sidecar_path`] with the stat of the chosen path, when the
/// search took one that succeeded (`Path::exists` is a successful stat).
fn resolve_with_stat(json_dir: &str, filename: &str, lookup: Lookup) -> (String, Option<Stat>) {
    if filename.starts_with('/') {
        return (filename.to_string(), None);
    }
    let beside_json = py_join(json_dir, filename);
    if let Ok(found) = stat(&beside_json) {
        return (beside_json, Some(found));
    }
    if let Lookup::Robust { json_name } = lookup {
        if let Some(found) = named_after_json(json_dir, filename, json_name) {
            return found;
        }
        let beside_parent = py_join(&py_dirname(json_dir), filename);
        return match stat(&beside_parent) {
            Ok(found) => (beside_parent, Some(found)),
            Err(_) => (beside_json, None),
        };
    }
    let beside_parent = py_join(&py_dirname(json_dir), filename);
    if let Ok(found) = stat(&beside_parent) {
        return (beside_parent, Some(found));
    }
    if let Ok(found) = stat(filename) {
        return (filename.to_string(), Some(found));
    }
    (beside_json, None)
}

/// The robust command's search from a component named after the JSON file:
/// the name normalized (`os.path.normpath`), split at `/` and `\\`, and
/// the first such component that exists with the rest of the name beside
/// the JSON file.
fn named_after_json(
    json_dir: &str,
    filename: &str,
    json_name: &str,
) -> Option<(String, Option<Stat>)> {
    let names = [format!("{json_name}-bin"), format!("{json_name}-freqs-bin")];
    let mut parts: Vec<&str> = Vec::new();
    for part in filename.split(['/', '\\']).filter(|p| !p.is_empty()) {
        match part {
            "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    (0..parts.len())
        .filter(|&index| names.iter().any(|name| name == parts[index]))
        .find_map(|index| {
            let candidate = py_join(json_dir, &parts[index..].join("/"));
            stat(&candidate).ok().map(|found| (candidate, Some(found)))
        })
}

/// Opens a sidecar that must be a regular file, with its length. It is
/// judged once open ([`opening::open_regular`]): a directory, FIFO or
/// device is refused without blocking or reading forever, also when the
/// path changed since the stat that resolved it.
fn open_regular_file(path: &str) -> io::Result<(File, u64)> {
    let (file, metadata) = opening::open_regular(to_path(path))?;
    Ok((file, metadata.len()))
}

/// Reads all complete little-endian float32 values of a file (a trailing
/// partial value is ignored, as `numpy.fromfile` does).
pub fn read_float32_file(path: &str) -> io::Result<Vec<f32>> {
    let (file, length) = open_regular_file(path)?;
    read_float32(&file, length)
}

/// The float32 values of an open regular file of `length` bytes.
///
/// Read straight into the value buffer, never mapped: memory stays at the
/// file's size (a map plus a converted copy took twice that), and a file
/// truncated while it is read is a read error (a warning), not a SIGBUS.
fn read_float32(file: &File, length: u64) -> io::Result<Vec<f32>> {
    let count = usize::try_from(length / 4)
        .map_err(|_| io::Error::new(io::ErrorKind::OutOfMemory, "file too large"))?;
    let mut values: Vec<f32> = Vec::new();
    values
        .try_reserve_exact(count)
        .map_err(|_| io::Error::new(io::ErrorKind::OutOfMemory, "not enough memory"))?;
    read_values(file, &mut values, count)?;
    if cfg!(target_endian = "big") {
        for value in &mut values {
            *value = f32::from_bits(u32::from_le(value.to_bits()));
        }
    }
    Ok(values)
}

/// Reads `count` values into the reserved capacity of the empty `values`,
/// as `read_exact` would, but without zero-filling the buffer first (a
/// memset of every sidecar's size, written over at once by the read).
#[cfg(unix)]
fn read_values(file: &File, values: &mut Vec<f32>, count: usize) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    debug_assert!(values.is_empty() && values.capacity() >= count);
    let bytes = count * size_of::<f32>();
    let start = values.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    let mut filled = 0;
    while filled < bytes {
        // SAFETY: `filled..bytes` lies within the capacity reserved for
        // `count` values; the kernel writes at most `bytes - filled` bytes.
        let read =
            unsafe { libc::read(file.as_raw_fd(), start.add(filled).cast(), bytes - filled) };
        match read {
            0 => {
                // read_exact's error, so the warning reads the same.
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "failed to fill whole buffer",
                ));
            }
            1.. => filled += read as usize,
            _ => {
                let error = io::Error::last_os_error();
                if error.kind() != io::ErrorKind::Interrupted {
                    return Err(error);
                }
            }
        }
    }
    // SAFETY: the first `count` values' bytes were all read just above.
    unsafe { values.set_len(count) };
    Ok(())
}

#[cfg(not(unix))]
fn read_values(file: &File, values: &mut Vec<f32>, count: usize) -> io::Result<()> {
    values.resize(count, 0.0);
    io::Read::read_exact(&mut &*file, bytemuck::cast_slice_mut(values))
}

/// De-duplicated warnings on stderr, like Python's default warning filter.
#[derive(Debug, Default)]
pub struct Warnings {
    seen: Vec<String>,
}

impl Warnings {
    pub fn warn(&mut self, message: String) {
        if !self.seen.contains(&message) {
            crate::messages::warning(&message);
            self.seen.push(message);
        }
    }
}

/// One advertised sidecar with its resolved path.
#[derive(Debug, Clone)]
struct Sidecar {
    count: u64,
    count_text: String,
    path: String,
    /// The stat that resolved `path`, if it succeeded.
    found: Option<Stat>,
    description: &'static str,
}

impl Sidecar {
    fn new(
        source: &Option<SidecarRef>,
        (json_dir, lookup): (&str, Lookup),
        description: &'static str,
    ) -> Option<Self> {
        source.as_ref().map(|s| {
            let (path, found) = resolve_with_stat(json_dir, &s.filename, lookup);
            Sidecar {
                count: s.count,
                count_text: s.count_text.clone(),
                path,
                found,
                description,
            }
        })
    }

    /// Advertises values and the file is non-empty.
    fn is_material(&self) -> bool {
        self.count > 0
            && self
                .found
                .map_or_else(|| stat(&self.path), Ok)
                .is_ok_and(|found| found.len > 0)
    }

    fn load(&self, warnings: &RefCell<Vec<String>>) -> Option<Vec<f32>> {
        let warn = |message: String| {
            warnings
                .borrow_mut()
                .push(bulk_warning(self.description, &message));
        };
        let path_repr = crate::pycompat::pyfmt::str_repr(&self.path);
        let read_failure = |error: io::Error| {
            // Python refuses such a name before any system call.
            let reason = if self.path.contains('\0') {
                "embedded null byte".to_string()
            } else {
                os_error_text(&error, &self.path)
            };
            format!("failed to read {path_repr}: {reason}")
        };
        // The length is checked before reading, so a `size` that claims far
        // more values than the file holds allocates nothing.
        let (file, length) = match open_regular_file(&self.path) {
            Ok(opened) => opened,
            Err(error) => {
                warn(read_failure(error));
                return None;
            }
        };
        if length / 4 != self.count {
            warn(format!(
                "expected {} values in {path_repr}, found {}",
                self.count_text,
                length / 4
            ));
            return None;
        }
        match read_float32(&file, length) {
            Ok(values) => Some(values),
            Err(error) => {
                warn(read_failure(error));
                None
            }
        }
    }
}

/// The two sidecars one state advertises (sample times, SM clock
/// frequencies) with their resolved paths; nothing is read until asked.
pub struct StateSidecars<'w> {
    samples: Option<Sidecar>,
    frequencies: Option<Sidecar>,
    /// Warnings of this state, printed by the caller in state order.
    warnings: &'w RefCell<Vec<String>>,
}

impl<'w> StateSidecars<'w> {
    pub fn new(
        timing: &Timing,
        json_dir: &str,
        lookup: Lookup,
        warnings: &'w RefCell<Vec<String>>,
    ) -> Self {
        let place = (json_dir, lookup);
        StateSidecars {
            samples: Sidecar::new(&timing.samples, place, "sample time"),
            frequencies: Sidecar::new(&timing.frequencies, place, "sample frequency"),
            warnings,
        }
    }

    /// Resolved `(path, exact count)` of the samples and frequencies sidecars.
    pub fn paths(&self) -> [Option<(&str, &str)>; 2] {
        [&self.samples, &self.frequencies]
            .map(|s| s.as_ref().map(|s| (s.path.as_str(), s.count_text.as_str())))
    }

    /// Both sidecars are advertised with a positive count and are non-empty files.
    pub fn are_material(&self) -> bool {
        let material = |s: &Option<Sidecar>| s.as_ref().is_some_and(Sidecar::is_material);
        material(&self.samples) && material(&self.frequencies)
    }

    /// The sample times and frequencies, each `None` (with a warning) when
    /// it cannot be read.
    pub fn read(&self) -> (Option<Vec<f32>>, Option<Vec<f32>>) {
        // Both files are read (and warned about) before either is judged.
        let times = self.samples.as_ref().and_then(|s| s.load(self.warnings));
        let frequencies = self
            .frequencies
            .as_ref()
            .and_then(|s| s.load(self.warnings));
        (times, frequencies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Scratch;

    #[test]
    fn a_fifo_sidecar_is_neither_material_nor_read() {
        let dir = Scratch::new("fifo");
        let fifo = dir.join("samples.bin");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
        let path = fifo.to_str().unwrap().to_string();
        let sidecar = Some(SidecarRef {
            count: 3,
            count_text: "3".to_string(),
            filename: path.clone(),
        });
        let timing = Timing {
            samples: sidecar.clone(),
            frequencies: sidecar,
            ..Timing::default()
        };
        let warnings = RefCell::new(Vec::new());
        let sidecars = StateSidecars::new(&timing, "", Lookup::Compare, &warnings);
        // Opening a FIFO for reading would block this test forever.
        assert!(!sidecars.are_material());
        assert_eq!(sidecars.read(), (None, None));
        assert!(
            warnings.borrow()[0].contains("not a regular file"),
            "{:?}",
            warnings.borrow()
        );
    }

    /// The path was a regular file when it was resolved (and judged
    /// material) and is a FIFO when it is read: refused once open, no wait.
    #[test]
    fn a_sidecar_that_becomes_a_fifo_after_its_stat_is_refused_without_waiting() {
        let dir = Scratch::new("fifo-swap");
        let path = dir.write("samples.bin", [0u8; 12]);
        let timing = Timing {
            samples: sidecar_ref(&path, 3),
            frequencies: sidecar_ref(&path, 3),
            ..Timing::default()
        };
        let warnings = RefCell::new(Vec::new());
        let sidecars = StateSidecars::new(&timing, "", Lookup::Compare, &warnings);
        assert!(sidecars.are_material());
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
        assert_eq!(sidecars.read(), (None, None));
        assert!(
            warnings.borrow()[0].contains("a FIFO, not a regular file"),
            "{:?}",
            warnings.borrow()
        );
    }

    fn sidecar_ref(filename: &str, count: u64) -> Option<SidecarRef> {
        Some(SidecarRef {
            count,
            count_text: count.to_string(),
            filename: filename.to_string(),
        })
    }

    #[test]
    fn the_resolving_stat_judges_and_sizes_the_sidecar_as_fresh_stats_did() {
        let dir = Scratch::new("resolve");
        let two = [1.5f32, 2.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>();
        let json_dir = dir.join("runs/base");
        let json_dir = json_dir.to_str().unwrap();
        dir.write("runs/base/near.bin", &two);
        dir.write("runs/far.bin", &two);
        dir.write("runs/base/empty.bin", b"");
        std::fs::create_dir_all(dir.join("runs/base/folder.bin")).unwrap();
        for (name, count) in [
            ("near.bin", 2),
            ("far.bin", 2),
            ("near.bin", 3),
            ("empty.bin", 2),
            ("folder.bin", 2),
            ("missing.bin", 2),
        ] {
            let timing = Timing {
                samples: sidecar_ref(name, count),
                frequencies: sidecar_ref(name, count),
                ..Timing::default()
            };
            let warnings = RefCell::new(Vec::new());
            let sidecars = StateSidecars::new(&timing, json_dir, Lookup::Compare, &warnings);
            // What a stat of the resolved path, taken now, says.
            let path = resolve_sidecar_path(json_dir, name);
            assert_eq!(sidecars.paths()[0].unwrap().0, path);
            let fresh = std::fs::metadata(&path);
            let material = fresh.as_ref().is_ok_and(|m| m.len() > 0);
            assert_eq!(sidecars.are_material(), material, "{name}");
            let (times, _) = sidecars.read();
            let readable = fresh
                .as_ref()
                .is_ok_and(|m| m.is_file() && m.len() / 4 == count);
            assert_eq!(times.is_some(), readable, "{name} {count}");
            if readable {
                assert_eq!(times.unwrap(), [1.5, 2.5]);
                continue;
            }
            let warned = warnings.borrow()[0].clone();
            let expected = match fresh {
                Err(error) => os_error_text(&error, path.as_str()),
                Ok(m) if m.is_dir() => "[Errno 21] Is a directory".to_string(),
                Ok(m) => format!("expected {count} values in '{path}', found {}", m.len() / 4),
            };
            assert!(warned.contains(&expected), "{warned} / {expected}");
        }
    }

    #[test]
    fn small_and_large_files_read_alike() {
        const SMALL_FILE: u64 = 1 << 20;
        let dir = Scratch::new("sizes");
        for count in [
            1usize,
            1000,
            (SMALL_FILE as usize) / 4 - 1,
            (SMALL_FILE as usize) / 4 + 3,
        ] {
            let values: Vec<f32> = (0..count).map(|i| i as f32 * 0.5 + 1e-3).collect();
            let mut bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            bytes.extend([7u8, 7]);
            let path = dir.write(format!("{count}.bin"), bytes);
            assert_eq!(read_float32_file(&path).unwrap(), values);
        }
    }

    #[test]
    fn a_file_shorter_than_its_length_fails_as_read_exact_does() {
        let dir = Scratch::new("short");
        let path = dir.write(
            "v.bin",
            [1.5f32, 2.25]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        let file = File::open(&path).unwrap();
        let mut values = Vec::with_capacity(3);
        let error = read_values(&file, &mut values, 3).unwrap_err();
        let mut buffer = [0u8; 12];
        let expected =
            io::Read::read_exact(&mut &File::open(&path).unwrap(), &mut buffer).unwrap_err();
        assert_eq!(error.kind(), expected.kind());
        assert_eq!(error.to_string(), expected.to_string());
        let mut values = Vec::with_capacity(2);
        read_values(&File::open(&path).unwrap(), &mut values, 2).unwrap();
        assert_eq!(values, [1.5, 2.25]);
    }

    #[test]
    fn reads_little_endian_floats_and_ignores_a_partial_tail() {
        let dir = Scratch::new("sidecar");
        let path = dir.join("v.bin");
        let mut bytes: Vec<u8> = [1.5f32, 2.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        bytes.extend([0u8, 1]);
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(
            read_float32_file(path.to_str().unwrap()).unwrap(),
            vec![1.5, 2.25]
        );
        std::fs::write(&path, b"").unwrap();
        assert!(
            read_float32_file(path.to_str().unwrap())
                .unwrap()
                .is_empty()
        );
    }
}
