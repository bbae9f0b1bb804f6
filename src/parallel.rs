//! Order-preserving parallel maps over the two (or more) cores users have:
//! the work after parsing (decisions, table cells) is independent per item.

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The number of cores this process may use, asked once: on Linux each
/// `available_parallelism` call reads three cgroup files, and a run asks
/// once per table and per input pair.
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

thread_local! {
    static IN_WORKER: Cell<bool> = const { Cell::new(false) };
}

/// `f` over `items`, in order, on all cores when every thread gets at
/// least `min_per_thread` items; otherwise on this thread.
pub fn map_in_parallel<T: Sync, R: Send>(
    items: &[T],
    min_per_thread: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = cores().min(items.len() / min_per_thread.max(1)).min(16);
    // Inside a worker all cores are busy already.
    if threads < 2 || IN_WORKER.with(Cell::get) {
        return items.iter().map(f).collect();
    }
    // Workers take small runs of items as they go, so uneven items (a
    // benchmark of 400 states next to one of 50) still share the cores
    // evenly; the runs are put back in order at the end.
    let run = items.len().div_ceil(threads * 8);
    let next = AtomicUsize::new(0);
    let (f, next) = (&f, &next);
    let mut runs: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    IN_WORKER.with(|w| w.set(true));
                    let mut done = Vec::new();
                    loop {
                        let start = next.fetch_add(run, Ordering::Relaxed);
                        let Some(part) = items.get(start..(start + run).min(items.len())) else {
                            break;
                        };
                        if part.is_empty() {
                            break;
                        }
                        done.push((start, part.iter().map(f).collect::<Vec<R>>()));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    runs.sort_unstable_by_key(|(start, _)| *start);
    runs.into_iter().flat_map(|(_, results)| results).collect()
}

/// Drops `value` on a thread of its own: freeing a large parsed file takes
/// a noticeable time that no output depends on. The process may exit
/// before it is done.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    // If no thread can be started, the value comes back in the error and
    // is dropped here.
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

static EXITING_AFTER_RUN: AtomicBool = AtomicBool::new(false);

/// Declares that the process exits right after the run (the executable
/// does; tests and fuzzers that run many times in one process do not), so
/// that the last inputs can be left for the OS to reclaim.
pub fn exit_after_run() {
    EXITING_AFTER_RUN.store(true, Ordering::Relaxed);
}

pub fn exiting_after_run() -> bool {
    EXITING_AFTER_RUN.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_is_asked_once_and_agrees_with_the_standard_library() {
        let expected = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(cores(), expected);
        assert_eq!(cores(), expected);
        assert!(cores() >= 1);
    }

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u32> = (0..10_000).collect();
        let doubled = map_in_parallel(&items, 1, |x| x * 2);
        assert_eq!(doubled, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!(map_in_parallel(&items[..3], 32, |x| *x), vec![0, 1, 2]);
        assert!(map_in_parallel(&[] as &[u32], 1, |x| *x).is_empty());
        // Nested maps run inside the workers, in order.
        let nested = map_in_parallel(&items[..100], 1, |x| {
            map_in_parallel(&items[..50], 1, |y| x * y)
                .iter()
                .sum::<u32>()
        });
        let expected: Vec<u32> = items[..100].iter().map(|x| x * 1225).collect();
        assert_eq!(nested, expected);
    }
}
