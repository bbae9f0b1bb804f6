//! Process-wide allocator settings of the executable.

/// glibc hands the free memory at the top of a thread's heap back to the
/// kernel as soon as 128 KiB of it are free, and serves blocks above 128 KiB
/// with their own mappings. The bulk decisions allocate and free sample
/// buffers of tens of KiB per state on every thread, so memory went back
/// and forth all the time, each time with a `madvise` and a TLB flush on
/// every core: about 0.3 s of system time for 2,000 bulk states. With
/// higher thresholds freed memory stays for reuse until the process exits.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_freed_memory() {
    use std::ffi::c_int;
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_THRESHOLD: c_int = -3;
    unsafe extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    // SAFETY: `mallopt` is glibc's documented tuning call and these are
    // valid parameters (32 MiB is the largest mmap threshold it takes). It
    // runs before any thread is started; when it fails (returns 0) the
    // defaults simply stay.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
}

/// Other allocators keep their own policies.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() {}
