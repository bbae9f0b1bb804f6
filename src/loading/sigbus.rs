//! A memory-mapped input truncated while it is read raises SIGBUS on the
//! next access to a page past its new end; without a handler the process
//! dies silently (exit 135). Mapped inputs are registered here with the
//! message to print, and a SIGBUS handler turns a fault inside one of them
//! into that message and exit status 1. Faults elsewhere keep the default
//! action.

use std::sync::Once;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// Slots per block of the registry. The first block is static; more are
/// added as mappings are registered at once (one per parsing thread, and
/// repetition mode parses many runs at a time), so every mapping is covered.
const SLOTS_PER_BLOCK: usize = 16;

struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

/// A block of slots and the next block. Blocks are never freed, so the
/// signal handler can walk the list with plain atomic loads.
struct Block {
    slots: [Slot; SLOTS_PER_BLOCK],
    next: AtomicPtr<Block>,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    message: AtomicPtr::new(std::ptr::null_mut()),
    message_len: AtomicUsize::new(0),
};

static FIRST_BLOCK: Block = Block {
    slots: [EMPTY; SLOTS_PER_BLOCK],
    next: AtomicPtr::new(std::ptr::null_mut()),
};
static INSTALL: Once = Once::new();

/// The blocks of the registry, first to last.
fn blocks() -> impl Iterator<Item = &'static Block> {
    std::iter::successors(Some(&FIRST_BLOCK), |block| {
        // SAFETY: a non-null `next` points to a leaked, never-freed block.
        unsafe { block.next.load(Ordering::SeqCst).as_ref() }
    })
}

/// Claims a free slot for a mapping starting at `start`, adding a block
/// when every slot is taken.
fn claim_slot(start: usize) -> &'static Slot {
    loop {
        let free = blocks().flat_map(|b| b.slots.iter()).find(|slot| {
            slot.start
                .compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        if let Some(slot) = free {
            return slot;
        }
        let block: &'static Block = Box::leak(Box::new(Block {
            slots: [EMPTY; SLOTS_PER_BLOCK],
            next: AtomicPtr::new(std::ptr::null_mut()),
        }));
        let new = std::ptr::from_ref(block).cast_mut();
        // Appended at the end; another thread appending first only means
        // this block goes after its.
        let mut last = blocks().last().unwrap_or(&FIRST_BLOCK);
        while let Err(next) = last.next.compare_exchange(
            std::ptr::null_mut(),
            new,
            Ordering::SeqCst,
            Ordering::SeqCst,
        ) {
            // SAFETY: as in `blocks`.
            last = unsafe { &*next };
        }
    }
}

/// Keeps a mapping registered until it is dropped (drop it before the map).
pub struct Registration {
    slot: &'static Slot,
    _message: Box<[u8]>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let slot = self.slot;
        slot.end.store(0, Ordering::SeqCst);
        slot.message.store(std::ptr::null_mut(), Ordering::SeqCst);
        slot.start.store(0, Ordering::SeqCst);
    }
}

/// Registers the mapped `bytes` of the file `path`, however many other
/// mappings are registered.
pub fn register(bytes: &[u8], path: &str) -> Registration {
    INSTALL.call_once(install_handler);
    let mut message = format!(
        "nvbench-compare: error: cannot read {}: the file was truncated while it was being read\n",
        crate::text::printable::printable(path)
    )
    .into_bytes()
    .into_boxed_slice();
    // An empty mapping has no page to fault on; a dangling start of 0
    // would read as a free slot.
    let start = (bytes.as_ptr() as usize).max(1);
    let slot = claim_slot(start);
    slot.message_len.store(message.len(), Ordering::SeqCst);
    slot.message.store(message.as_mut_ptr(), Ordering::SeqCst);
    slot.end.store(start + bytes.len(), Ordering::SeqCst);
    Registration {
        slot,
        _message: message,
    }
}

fn install_handler() {
    // SAFETY: a zeroed sigaction is a valid starting point; the handler
    // only reads atomics and calls the async-signal-safe write and _exit.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let address = unsafe { (*info).si_addr() } as usize;
    for region in blocks().flat_map(|b| b.slots.iter()) {
        let start = region.start.load(Ordering::SeqCst);
        let end = region.end.load(Ordering::SeqCst);
        let message = region.message.load(Ordering::SeqCst);
        if start != 0 && !message.is_null() && (start..end).contains(&address) {
            let len = region.message_len.load(Ordering::SeqCst);
            // SAFETY: the message outlives the registration that published it.
            unsafe {
                libc::write(2, message.cast(), len);
                libc::_exit(1);
            }
        }
    }
    // Not an input mapping: the default action, when the fault repeats.
    // SAFETY: resetting a signal's disposition is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    const CHILD: &str = "NVBC_SIGBUS_CHILD";

    /// In a child process (this test binary run again): map an input,
    /// truncate it, touch a page past the new end.
    /// More mappings than a block holds are registered first, so that the
    /// truncated one lives in an added block.
    fn truncate_while_mapped(path: &str) {
        let others: Vec<_> = (0..3 * super::SLOTS_PER_BLOCK)
            .map(|n| {
                let other = format!("{path}.{n}");
                std::fs::write(&other, b"{}").unwrap();
                crate::loading::mapped::open_input(&other).unwrap()
            })
            .collect();
        std::fs::write(path, vec![b' '; 3 * 4096]).unwrap();
        let bytes = crate::loading::mapped::open_input(path).unwrap();
        assert!(matches!(
            bytes,
            crate::loading::mapped::InputBytes::Mapped { .. }
        ));
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap()
            .set_len(0)
            .unwrap();
        let byte = std::hint::black_box(bytes.as_ref())[8192];
        println!("read {byte} without a fault");
        drop(others);
    }

    #[test]
    fn a_truncated_mapped_input_is_an_error_naming_the_file() {
        if let Ok(path) = std::env::var(CHILD) {
            truncate_while_mapped(&path);
            return;
        }
        let dir = crate::testing::Scratch::new("sigbus");
        let path = dir.join("shrinking.json");
        // This test's name as libtest knows it (without the crate's name).
        let module = module_path!().split_once("::").map_or("", |(_, m)| m);
        let name = format!("{module}::a_truncated_mapped_input_is_an_error_naming_the_file");
        let output = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", &name, "--nocapture", "--test-threads=1"])
            .env(CHILD, &path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
        assert!(
            stderr.contains(&format!(
                "nvbench-compare: error: cannot read {}: the file was truncated while it was being read",
                path.display()
            )),
            "stderr: {stderr}"
        );
    }
}
