//! The first run of a comparison lends what names its states to the runs
//! read after it or beside it: every run repeats each state's name, device
//! and axis values, and a run that takes the first one's identical
//! [`StateIdent`]s (and axis values) allocates none of its own. On huge
//! inputs that is the difference between one ident a state and one a
//! state and run: 21 % less peak memory for three runs a side of 200,000
//! states (benches/README.md, "Kept fast paths"). Allocated, then dropped
//! for the first run's, a run's own left holes nothing later took.
//!
//! The first run publishes each benchmark's idents as soon as it has read
//! it; a run read at the same time waits for them at the end of its own
//! benchmark (the first run never waits, so no reader waits forever).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use compact_str::CompactString;

use crate::loading::model::{AxisValue, Root, StateDevice, StateIdent};

/// What a run's reader does with the comparison's anchor.
#[derive(Clone, Copy)]
pub enum Role<'a> {
    /// Nothing: a run read on its own.
    Alone,
    /// Publishes its idents: the first run.
    First(&'a AxisAnchor),
    /// Takes the first run's identical idents and axis values.
    Later(&'a AxisAnchor),
}

/// One benchmark's idents, by state position.
pub type BenchmarkIdents = Arc<[Arc<StateIdent>]>;

/// The idents of the first run, benchmark by benchmark as it is read.
#[derive(Default)]
pub struct AxisAnchor {
    published: Mutex<Published>,
    ready: Condvar,
}

#[derive(Default)]
struct Published {
    benchmarks: Vec<BenchmarkIdents>,
    /// The first run's reader stopped publishing (done, gave up or failed).
    done: bool,
}

impl AxisAnchor {
    /// An anchor already complete: `root`'s idents.
    pub fn of(root: &Root) -> AxisAnchor {
        let anchor = AxisAnchor::default();
        for bench in root.benchmarks.as_deref().unwrap_or(&[]) {
            anchor.publish(
                bench
                    .states()
                    .iter()
                    .map(|s| Arc::clone(s.ident()))
                    .collect(),
            );
        }
        anchor.finish();
        anchor
    }

    fn lock(&self) -> MutexGuard<'_, Published> {
        // A reader that panicked while holding the lock left whole entries.
        self.published
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The next benchmark's idents, from the first run's reader.
    pub fn publish(&self, idents: BenchmarkIdents) {
        self.lock().benchmarks.push(idents);
        self.ready.notify_all();
    }

    /// The first run's reader publishes nothing more.
    pub fn finish(&self) {
        self.lock().done = true;
        self.ready.notify_all();
    }

    /// Finishes the anchor when dropped: the first run's reader holds it,
    /// so that the runs waiting for it go on whatever happens to it.
    pub fn finish_on_drop(&self) -> FinishOnDrop<'_> {
        FinishOnDrop(self)
    }

    /// The idents of the benchmark at `index`, if published yet.
    pub fn published(&self, index: usize) -> Option<BenchmarkIdents> {
        self.lock().benchmarks.get(index).cloned()
    }

    /// The idents of the benchmark at `index`, once published; `None`
    /// when the first run has none there.
    pub fn wait_for(&self, index: usize) -> Option<BenchmarkIdents> {
        let mut published = self.lock();
        loop {
            if let Some(idents) = published.benchmarks.get(index) {
                return Some(Arc::clone(idents));
            }
            if published.done {
                return None;
            }
            published = self
                .ready
                .wait(published)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// See [`AxisAnchor::finish_on_drop`].
pub struct FinishOnDrop<'a>(&'a AxisAnchor);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// The axis-value list of the state at `state` among `idents`.
pub fn list_at(idents: &[Arc<StateIdent>], state: usize) -> Option<&Arc<[AxisValue]>> {
    idents.get(state)?.axis_values()
}

/// The ident of a state read as `name`, `device` and `list` at `state`:
/// the anchor's when identical (`list` is then the anchor's list: the
/// reader takes it first), else a new one.
pub fn ident_of(
    idents: Option<&[Arc<StateIdent>]>,
    state: usize,
    name: CompactString,
    device: StateDevice,
    list: Arc<[AxisValue]>,
) -> Arc<StateIdent> {
    match idents.and_then(|idents| idents.get(state)) {
        Some(ident) if ident.is_of(&name, &device, &list) => Arc::clone(ident),
        _ => Arc::new(StateIdent::new(name, device, Some(list))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run waiting for a benchmark goes on when it is published, or
    /// when the first run's reader stops without it.
    #[test]
    fn a_waiting_reader_goes_on_when_published_or_finished() {
        let anchor = AxisAnchor::default();
        let idents: BenchmarkIdents = Arc::from(vec![Arc::new(StateIdent::default())]);
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| (anchor.wait_for(0), anchor.wait_for(1)));
            std::thread::sleep(std::time::Duration::from_millis(20));
            anchor.publish(Arc::clone(&idents));
            {
                let _finish = anchor.finish_on_drop();
            }
            let (first, second) = waiter.join().unwrap();
            assert_eq!(first.map(|idents| idents.len()), Some(1));
            assert!(second.is_none());
        });
        assert!(anchor.published(0).is_some() && anchor.published(1).is_none());
    }
}
