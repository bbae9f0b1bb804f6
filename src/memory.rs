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
    use libc::{M_MMAP_THRESHOLD, M_TOP_PAD, M_TRIM_THRESHOLD, c_int, mallopt};
    // SAFETY: `mallopt` is glibc's documented tuning call and these are
    // valid parameters (32 MiB is the largest mmap threshold it takes). It
    // runs before any thread is started; when it fails (returns 0) the
    // defaults simply stay.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TOP_PAD, TOP_PAD as c_int);
    }
}

/// How far glibc grows the main thread's heap past each request (its
/// default is 128 KiB: a 300 MB file's model took 400 `brk` calls).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: usize = 16 << 20;

/// Makes room for about `bytes` of small allocations on this thread's heap
/// in one step. A thread other than the main one gets its own glibc heap,
/// which grows by only the pages each request needs, with an `mprotect`
/// (and a TLB flush on every core) each time: 16,000 calls while a 300 MB
/// file was parsed. One block allocated and freed grows it at once; the
/// freed room stays (see [`keep_freed_memory`]), and its pages are only
/// touched when used.
///
/// Only a speed-up: under an address-space limit (`ulimit -v`) the room
/// is taken as far as it goes, never by an allocation that aborts the
/// process when it fails (the file may well need less than the estimate).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn reserve_heap(bytes: usize) {
    // Blocks from 32 MiB up get a mapping of their own, not heap room, so
    // the room is taken in smaller blocks, all held until the last is taken.
    const BLOCK: usize = 30 << 20;
    // Room this small costs a few system calls at most.
    if bytes <= TOP_PAD {
        return;
    }
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    for _ in 0..bytes.div_ceil(BLOCK) {
        let mut block = Vec::new();
        if blocks.try_reserve(1).is_err() || block.try_reserve_exact(BLOCK).is_err() {
            break;
        }
        blocks.push(block);
    }
    drop(std::hint::black_box(blocks));
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn reserve_heap(_bytes: usize) {}

/// Other allocators keep their own policies.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() {}

/// States compared in one device pair from which [`release_free_memory`]
/// is worth its cost (a walk over the heap's free blocks, about a
/// millisecond a hundred megabytes).
pub const HUGE_COMPARISON: usize = 50_000;

/// Hands the whole free pages of every heap back to the kernel. With the
/// thresholds of [`keep_freed_memory`] nothing is handed back on its own,
/// so on a huge comparison the temporaries of one step (the match's maps,
/// the matched states) would stay resident beside what the next step
/// allocates in other heaps: the peak RSS would be the sum of every heap's
/// high-water mark.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn release_free_memory() {
    // SAFETY: glibc's documented call; it only returns free pages.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_memory() {}
