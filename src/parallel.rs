//! Order-preserving parallel maps over the cores (rayon's pool): the work
//! after parsing (decisions, table cells) is independent per item.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};

use rayon::prelude::*;

/// `f` over `items`, in order, on all cores; runs of fewer than
/// `min_per_thread` items are not split further (their cost would not
/// pay for a hand-off).
pub fn map_in_parallel<T: Sync, R: Send>(
    items: &[T],
    min_per_thread: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    if items.len() < min_per_thread.max(1).saturating_mul(2) {
        return items.iter().map(f).collect();
    }
    items
        .par_iter()
        .with_min_len(min_per_thread.max(1))
        .map(&f)
        .collect()
}

/// [`map_in_parallel`] of items whose costs differ a lot (benchmarks of
/// 50 and of 400 states): the cores take the items one at a time, the
/// costliest first, so that the last ones to finish are small and no core
/// waits long for the others at the end. Results are in the items' order.
pub fn map_in_parallel_largest_first<T: Sync, R: Send>(
    items: &[T],
    min_per_thread: usize,
    cost: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    if items.len() < min_per_thread.max(1).saturating_mul(2) {
        return items.iter().map(f).collect();
    }
    // A bridged iterator hands its items out in order, one per request.
    let mut done: Vec<(usize, R)> = largest_first(items, cost)
        .into_iter()
        .par_bridge()
        .map(|index| (index, f(&items[index])))
        .collect();
    done.sort_unstable_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}

/// The indices of `items`, costliest first; items of equal cost keep their
/// order.
fn largest_first<T>(items: &[T], cost: impl Fn(&T) -> usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&index| std::cmp::Reverse(cost(&items[index])));
    order
}

/// The number of threads the maps use.
pub fn cores() -> usize {
    rayon::current_num_threads()
}

/// A result being computed on another thread.
pub struct Pending<T>(Receiver<std::thread::Result<T>>);

impl<T> Pending<T> {
    /// Waits for the result; a panic in the job is resumed here.
    pub fn join(self) -> T {
        match self.0.recv() {
            Ok(Ok(value)) => value,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => panic!("the thread computing a result stopped"),
        }
    }
}

/// Runs `f` on the pool while the caller goes on (here and now when the
/// caller is one of the pool's threads, which could otherwise wait for
/// a job that no free thread takes).
pub fn run_on_helper<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Pending<T> {
    let (sender, receiver) = channel();
    let job = move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = sender.send(result);
    };
    match rayon::current_thread_index() {
        Some(_) => job(),
        None => rayon::spawn(job),
    }
    Pending(receiver)
}

/// Drops `value` on the pool: freeing a large parsed file takes a
/// noticeable time that no output depends on. The process may exit before
/// it is done.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    rayon::spawn(move || drop(value));
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
    use std::sync::Mutex;

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
    fn owned_results_come_back_whole_and_panics_are_raised_again() {
        let items: Vec<usize> = (0..5_003).collect();
        let texts = map_in_parallel(&items, 1, |x| format!("item {x}"));
        assert_eq!(texts.len(), items.len());
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
        // A minimum run as long as can be keeps the map on this thread.
        assert_eq!(map_in_parallel(&items, usize::MAX, |x| x * 2), doubled);
        assert_eq!(map_in_parallel(&items[..3], 32, |x| *x), vec![0, 1, 2]);
        assert!(map_in_parallel(&[] as &[u32], 1, |x| *x).is_empty());
        // Nested maps run inside the pool, in order.
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
