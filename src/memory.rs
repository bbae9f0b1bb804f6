//! The allocator's settings for a run, made once by the executable.
//!
//! Deciding bulk samples allocates and frees buffers of a few hundred KiB to
//! a few MiB per state. With glibc's defaults such buffers are mapped and
//! unmapped each time, and freed heap memory is handed back to the kernel,
//! so each state faults its pages in again: bulk-2k took 3.5 to 5 times the
//! minor page faults and about 8 % more CPU and wall time (`benches/ab.py`,
//! 16 rounds). Keeping freed memory for reuse costs little peak memory,
//! since a buffer freed is the next state's buffer.

/// Keeps freed memory in the process for reuse (glibc only; elsewhere the
/// allocator's defaults stand).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_freed_memory() {
    use libc::{M_MMAP_THRESHOLD, M_TOP_PAD, M_TRIM_THRESHOLD, mallopt};
    // SAFETY: mallopt only sets the allocator's tunables; it is called
    // before the run starts its threads, and any value is valid for these
    // three parameters.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() {}
