//! `--bulk-debug-python` in repetition mode: one `bulk_rows` entry per run
//! of a displayed row. Entry `k` holds the `k`-th run of each side (`None`
//! files where a side has fewer runs), so `load_bulk_data` reads one
//! process's samples at a time.

use super::evidence::RunFiles;
use crate::deciding::report::StateRecord;
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::bulk_debug_row;

fn optional_index(run: Option<&RunFiles>) -> PyValue {
    run.map_or(PyValue::None, |r| {
        PyValue::Int(i64::try_from(r.run).unwrap_or(i64::MAX))
    })
}

/// The entries of one displayed row, `row_index` and `table_row_index`
/// shared by all of them (they describe the row, as with one run).
pub fn run_rows(
    row_index: usize,
    table_row_index: usize,
    record: &StateRecord,
    runs: &[Vec<RunFiles>; 2],
) -> Vec<PyValue> {
    let count = runs[0].len().max(runs[1].len());
    (0..count)
        .map(|k| {
            let (reference, compare) = (runs[0].get(k), runs[1].get(k));
            let mut entry = record.clone();
            let json = |run: Option<&RunFiles>, fallback: &str| {
                run.map_or_else(|| fallback.to_string(), |r| r.json.clone())
            };
            entry.reference_json = json(reference, &record.reference_json);
            entry.compare_json = json(compare, &record.compare_json);
            let [rs, rf] = reference.map(|r| r.sidecars.clone()).unwrap_or_default();
            let [cs, cf] = compare.map(|r| r.sidecars.clone()).unwrap_or_default();
            entry.sidecars = [rs, rf, cs, cf];
            let mut value = bulk_debug_row(row_index, table_row_index, &entry);
            if let PyValue::Dict(fields) = &mut value {
                fields.push(("reference_run".into(), optional_index(reference)));
                fields.push(("compare_run".into(), optional_index(compare)));
            }
            value
        })
        .collect()
}
