//! Memory-mapped JSON input whose already-parsed pages are handed back to
//! the kernel while parsing goes on, so that two large files can be parsed
//! at once without holding both in memory (peak RSS stays near the size of
//! the parsed data, not of the files).

use std::cell::RefCell;
use std::fs::File;
use std::io;

use memmap2::{Advice, Mmap, UncheckedAdvice};

use crate::loading::opening::{self, Input};
use crate::text::path_text::to_path;

/// How far behind the parser pages are released, and in what steps.
const RELEASE_STEP: usize = 16 << 20;
const RELEASE_MARGIN: usize = 1 << 20;

/// The bytes of an input file.
pub enum InputBytes {
    /// The registration (dropped first) turns a SIGBUS from a truncated
    /// file into an error message.
    Mapped {
        registration: crate::loading::sigbus::Registration,
        map: Mmap,
    },
    Read(Vec<u8>),
}

impl AsRef<[u8]> for InputBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            InputBytes::Mapped { map, .. } => map,
            InputBytes::Read(bytes) => bytes,
        }
    }
}

/// Maps a regular file; reads a pipe (process substitution) or an empty
/// regular file (which may be a kernel file whose size says 0). The file
/// is opened without blocking and a FIFO with a name, a device or a socket
/// is refused ([`crate::loading::opening`]).
pub fn open_input(path: &str) -> io::Result<InputBytes> {
    let (file, length) = match opening::open_input(to_path(path))? {
        Input::Regular(file, metadata) => (file, metadata.len()),
        Input::Pipe(file) => return read_whole(&file),
    };
    if length == 0 {
        return read_whole(&file);
    }
    // SAFETY: the map is read-only and dropped as soon as the file is parsed.
    // A concurrent truncation of the input raises SIGBUS on the next access
    // past the new end, which the registration turns into an error naming
    // the file (exit 1) instead of a silent death.
    let map = unsafe { Mmap::map(&file)? };
    // Only a hint: read ahead aggressively.
    let _ = map.advise(Advice::Sequential);
    let registration = crate::loading::sigbus::register(&map, path);
    Ok(InputBytes::Mapped { registration, map })
}

fn read_whole(file: &File) -> io::Result<InputBytes> {
    opening::read_all(file).map(InputBytes::Read)
}

/// The mapping being parsed on this thread and how much of it was released.
struct Window {
    map: *const Mmap,
    start: usize,
    len: usize,
    released: usize,
}

thread_local! {
    static WINDOW: RefCell<Option<Window>> = const { RefCell::new(None) };
}

/// Runs `parse` on the bytes; while it runs, [`reached`] may release pages.
pub fn parse_with_release<T>(bytes: &InputBytes, parse: impl FnOnce(&[u8]) -> T) -> T {
    let InputBytes::Mapped { map, .. } = bytes else {
        return parse(bytes.as_ref());
    };
    WINDOW.with(|w| {
        *w.borrow_mut() = Some(Window {
            map,
            start: map.as_ptr() as usize,
            len: map.len(),
            released: 0,
        })
    });
    let result = parse(map);
    WINDOW.with(|w| *w.borrow_mut() = None);
    result
}

/// A second parse starts from the beginning: release its pages again as it
/// goes.
pub fn rewind_release() {
    WINDOW.with(|w| {
        if let Some(window) = w.borrow_mut().as_mut() {
            window.released = 0;
        }
    });
}

/// The parser has reached the byte at `pointer` (taken from a string it
/// borrowed from the input). Pages well behind it are released.
pub fn reached(pointer: *const u8) {
    release(pointer, |offset, released| {
        (offset >= released + RELEASE_STEP + RELEASE_MARGIN).then(|| offset - RELEASE_MARGIN)
    });
}

/// Releases every page before `pointer` at once: the parser is about to
/// wait (for another run's reader, see `loading::anchor`), and never reads
/// them again.
pub fn release_before(pointer: *const u8) {
    release(pointer, |offset, released| {
        (offset > released).then_some(offset)
    });
}

/// Releases the pages before the offset `until` gives for the offset of
/// `pointer` and the offset released so far (`None`: none yet).
fn release(pointer: *const u8, until: impl FnOnce(usize, usize) -> Option<usize>) {
    WINDOW.with(|w| {
        let mut window = w.borrow_mut();
        let Some(window) = window.as_mut() else {
            return;
        };
        let address = pointer as usize;
        if address < window.start || address >= window.start + window.len {
            return;
        }
        let Some(until) = until(address - window.start, window.released) else {
            return;
        };
        let until = until & !(4095);
        if until <= window.released {
            return;
        }
        // SAFETY: `window.map` points to the mapping `parse_with_release`
        // is parsing, which outlives the parse. MADV_DONTNEED on a private,
        // read-only file mapping only drops pages: a later read (the parser
        // never goes back, except to count lines for an error message)
        // faults them in again from the file with the same contents.
        let released = unsafe {
            (*window.map).unchecked_advise_range(
                UncheckedAdvice::DontNeed,
                window.released,
                until - window.released,
            )
        };
        if released.is_ok() {
            window.released = until;
        }
    });
}
