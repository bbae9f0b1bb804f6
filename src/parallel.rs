//! Order-preserving parallel maps over the two (or more) cores users have:
//! the work after parsing (decisions, table cells) is independent per item.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Mutex, OnceLock};

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
    let Some(threads) = worker_threads(items.len(), min_per_thread) else {
        return items.iter().map(f).collect();
    };
    // Workers take small runs of items as they go, so uneven items still
    // share the cores evenly (when a few items cost far more than the
    // rest, see `map_in_parallel_largest_first`). Each run is written in
    // place into the result, which is allocated once at its length: no
    // slack, and no second copy of the results while they are put in order
    // (a decided state is 544 bytes).
    let run = items.len().div_ceil(threads * 8);
    let mut results: Vec<R> = Vec::with_capacity(items.len());
    let slots = &mut results.spare_capacity_mut()[..items.len()];
    let parts = Mutex::new(items.chunks(run).zip(slots.chunks_mut(run)));
    on_workers(threads, || {
        while let Some((part, slots)) = next_part(&parts) {
            for (item, slot) in part.iter().zip(slots) {
                slot.write(f(item));
            }
        }
    });
    // SAFETY: the runs cover the `items.len()` slots exactly once
    // (`chunks` and `chunks_mut` of equal lengths and run size), and every
    // worker took runs until none was left, writing each slot of its runs,
    // and returned without panicking (checked above).
    unsafe { results.set_len(items.len()) };
    results
}

/// [`map_in_parallel`] of items whose costs differ a lot (benchmarks of
/// 50 and of 400 states): workers take the items one at a time, the
/// costliest first, so that the last ones to finish are small and no core
/// waits long for the other at the end. Results are in the items' order.
pub fn map_in_parallel_largest_first<T: Sync, R: Send>(
    items: &[T],
    min_per_thread: usize,
    cost: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let Some(threads) = worker_threads(items.len(), min_per_thread) else {
        return items.iter().map(f).collect();
    };
    let order = largest_first(items, cost);
    let mut results: Vec<R> = Vec::with_capacity(items.len());
    let slots = Slots(results.as_mut_ptr());
    let taken = AtomicUsize::new(0);
    on_workers(threads, || {
        while let Some(&index) = order.get(taken.fetch_add(1, Ordering::Relaxed)) {
            let result = f(&items[index]);
            // SAFETY: `order` holds every index below `items.len()` (the
            // capacity) once, and each is taken by one worker only
            // (`fetch_add`).
            unsafe { slots.write(index, result) };
        }
    });
    // SAFETY: the workers took indices until none was left, wrote the slot
    // of each, and returned without panicking (checked above).
    unsafe { results.set_len(items.len()) };
    results
}

/// How many workers a map of `len` items takes, when every one gets at
/// least `min_per_thread` items; `None` for fewer than two, and inside a
/// worker, where all cores are busy already.
fn worker_threads(len: usize, min_per_thread: usize) -> Option<usize> {
    let threads = cores().min(len / min_per_thread.max(1)).min(16);
    (threads >= 2 && !IN_WORKER.with(Cell::get)).then_some(threads)
}

/// The indices of `items`, costliest first; items of equal cost keep their
/// order.
fn largest_first<T>(items: &[T], cost: impl Fn(&T) -> usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&index| std::cmp::Reverse(cost(&items[index])));
    order
}

/// The result slots the workers of [`map_in_parallel_largest_first`] write,
/// each slot by one worker.
struct Slots<R>(*mut R);

// SAFETY: workers write distinct slots (see its use); values of `R` are
// only moved in, from the thread that made them, so `R: Send` suffices.
unsafe impl<R: Send> Sync for Slots<R> {}

impl<R> Slots<R> {
    /// Writes the slot at `index`.
    ///
    /// # Safety
    /// `index` is below the capacity, and no other write of it is made.
    unsafe fn write(&self, index: usize, value: R) {
        // SAFETY: as the caller promises.
        unsafe { self.0.add(index).write(value) };
    }
}

/// Runs `work` on `threads` scoped threads, marked as workers, and waits
/// for them all. A panic in one is raised again here, before the caller
/// takes any result: the results written so far are leaked, never read.
fn on_workers(threads: usize, work: impl Fn() + Sync) {
    let work = &work;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    IN_WORKER.with(|w| w.set(true));
                    work();
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
    });
}

/// The next run of items and the result slots it fills.
fn next_part<I: Iterator>(parts: &Mutex<I>) -> Option<I::Item> {
    parts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .next()
}

/// The number of cores, asked once: `available_parallelism` reads the
/// cgroup files and the affinity mask on every call (about ten system calls
/// per input pair in directory mode).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

type Job = Box<dyn FnOnce() + Send>;

/// A thread for the whole run, started on first use: parsing the second
/// file of each pair and freeing parsed pairs in the background need no
/// thread spawn per pair (1,000 pairs cost a millisecond of system time
/// each that way). Parsing and freeing have a thread each, so that freeing
/// one pair never delays parsing the next.
struct Helper(OnceLock<Option<Mutex<Sender<Job>>>>);

static PARSER: Helper = Helper(OnceLock::new());
static FREER: Helper = Helper(OnceLock::new());

thread_local! {
    static ON_HELPER: Cell<bool> = const { Cell::new(false) };
}

impl Helper {
    /// Sends `job` to the thread; gives it back when there is none (or
    /// when called from a helper thread, which would wait for itself).
    fn send(&self, job: Job) -> Result<(), Job> {
        if ON_HELPER.with(Cell::get) {
            return Err(job);
        }
        let started = self.0.get_or_init(|| {
            let (sender, jobs) = channel::<Job>();
            let thread = std::thread::Builder::new().spawn(move || {
                ON_HELPER.with(|h| h.set(true));
                for job in jobs {
                    job();
                }
            });
            thread.ok().map(|_| Mutex::new(sender))
        });
        let Some(sender) = started else {
            return Err(job);
        };
        let sender = sender
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        sender.send(job).map_err(|returned| returned.0)
    }
}

/// A result being computed on a helper thread.
pub struct Pending<T>(Receiver<std::thread::Result<T>>);

impl<T> Pending<T> {
    /// Waits for the result; a panic in the job is resumed here.
    pub fn join(self) -> T {
        match self.0.recv() {
            Ok(Ok(value)) => value,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => panic!("the helper thread stopped"),
        }
    }
}

/// Runs `f` on the parsing helper thread (here, when there is none).
pub fn run_on_helper<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Pending<T> {
    let (sender, receiver) = channel();
    let job: Job = Box::new(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = sender.send(result);
    });
    if let Err(job) = PARSER.send(job) {
        job();
    }
    Pending(receiver)
}

/// Drops `value` on the freeing helper thread: freeing a large parsed file takes
/// a noticeable time that no output depends on. The process may exit
/// before it is done.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    // Without a helper, the job comes back and the value is dropped here.
    let _ = FREER.send(Box::new(move || drop(value)));
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
    fn helper_jobs_return_their_results_and_panics() {
        let pending: Vec<Pending<usize>> = (0..100).map(|i| run_on_helper(move || i * 3)).collect();
        let results: Vec<usize> = pending.into_iter().map(Pending::join).collect();
        assert_eq!(results, (0..100).map(|i| i * 3).collect::<Vec<_>>());
        let panicked = std::panic::catch_unwind(|| run_on_helper(|| panic!("boom")).join());
        assert!(panicked.is_err());
        // The helper survives a panicking job.
        assert_eq!(run_on_helper(|| 7).join(), 7);
        assert!(cores() >= 1);
    }

    #[test]
    fn owned_results_fill_the_result_in_place_and_panics_are_raised_again() {
        let items: Vec<usize> = (0..5_003).collect();
        let texts = map_in_parallel(&items, 1, |x| format!("item {x}"));
        assert_eq!(texts.len(), items.len());
        assert_eq!(texts.capacity(), items.len(), "no slack in the result");
        assert!(
            texts
                .iter()
                .zip(&items)
                .all(|(t, x)| *t == format!("item {x}"))
        );
        let panicked = std::panic::catch_unwind(|| {
            map_in_parallel(&items, 1, |x| {
                assert_ne!(*x, 4_000, "boom");
                x.to_string()
            })
        });
        assert!(panicked.is_err());
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

    #[test]
    fn costliest_items_are_taken_first() {
        let costs = [3, 9, 1, 9, 0, 4];
        assert_eq!(largest_first(&costs, |&c| c), [1, 3, 5, 0, 2, 4]);
        assert!(largest_first(&[] as &[usize], |&c| c).is_empty());
    }

    #[test]
    fn largest_first_results_keep_the_input_order() {
        let items: Vec<usize> = (0..2_001).map(|i| i * 7 % 2_001).collect();
        let started = Mutex::new(Vec::new());
        let texts = map_in_parallel_largest_first(
            &items,
            1,
            |&x| x,
            |&x| {
                started.lock().unwrap().push(x);
                format!("item {x}")
            },
        );
        assert_eq!(texts.capacity(), items.len(), "no slack in the result");
        let expected: Vec<String> = items.iter().map(|x| format!("item {x}")).collect();
        assert_eq!(texts, expected);
        // Each item once (the order they started in is the scheduler's).
        let mut started = started.into_inner().unwrap();
        started.sort_unstable();
        assert_eq!(started, (0..2_001).collect::<Vec<_>>());
        assert!(map_in_parallel_largest_first(&[] as &[u32], 1, |_| 0, |x| *x).is_empty());
        let panicked = std::panic::catch_unwind(|| {
            map_in_parallel_largest_first(
                &items,
                1,
                |&x| x,
                |x| {
                    assert_ne!(*x, 1_500, "boom");
                    x.to_string()
                },
            )
        });
        assert!(panicked.is_err());
    }
}
