//! How a pass is cut into parallel tasks: by data size, never by thread count, so
//! the tasks — and the order their outputs are concatenated in — are the same on any
//! number of threads.

use std::ops::Range;

/// Entries (box–cell incidences) per parallel task in the sweep.
pub(super) const TASK_ENTRIES: usize = 2048;

/// Consecutive ranges of about `chunk` items covering `0..n`, into `tasks` (emptied
/// first: a buffer the caller keeps).
pub(super) fn split_evenly(n: usize, chunk: usize, tasks: &mut Vec<Range<usize>>) {
    let chunk = chunk.max(1);
    tasks.clear();
    tasks.extend((0..n.div_ceil(chunk)).map(|i| i * chunk..((i + 1) * chunk).min(n)));
}

/// Consecutive cells grouped into tasks of at least [`TASK_ENTRIES`] entries (the last
/// one may be smaller), given the cells' start offsets (`offsets[k]..offsets[k + 1]`
/// are the entries of cell `k`), into `tasks` (emptied first).
pub(super) fn cell_tasks(offsets: &[u32], tasks: &mut Vec<Range<usize>>) {
    let cells = offsets.len().saturating_sub(1);
    tasks.clear();
    let mut start = 0usize;
    for k in 0..cells {
        if (offsets[k + 1] - offsets[start]) as usize >= TASK_ENTRIES {
            tasks.push(start..k + 1);
            start = k + 1;
        }
    }
    if start < cells {
        tasks.push(start..cells);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_cover_everything_once() {
        let mut tasks = vec![7..9, 9..11];
        split_evenly(5, 2, &mut tasks);
        assert_eq!(tasks, vec![0..2, 2..4, 4..5]);
        split_evenly(0, 2, &mut tasks);
        assert_eq!(tasks, Vec::<Range<usize>>::new());
        let offsets = [0, 1000, 2100, 2200, 4300, 4301];
        cell_tasks(&offsets, &mut tasks);
        assert_eq!(tasks, vec![0..2, 2..4, 4..5]);
    }
}
