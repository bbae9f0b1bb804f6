//! What the reference prints after "Device sections do not match: ".
//!
//! The Python tool prints `jsondiff.diff(ref_devices, cmp_devices,
//! syntax="symmetric")`, so the text is Python's `repr()` of jsondiff 2.2.1's
//! symmetric diff structure. This module rebuilds that structure and its repr:
//!
//! * two objects → `{key: <diff>, ..., insert: {key: value}, delete: {key: value}}`
//!   (changed keys in reference order, inserted keys in compare order);
//! * two arrays → `{pos: <diff>, ..., insert: [(pos, value)], delete: [(pos, value)]}`,
//!   aligned by jsondiff's similarity-weighted LCS, `delete` in descending order;
//! * anything else → `{}` when Python considers the values equal, else `[a, b]`.
//!
//! Equality is Python's (`1 == 1.0 == True`, int/float compared exactly) and
//! every similarity score is computed with the same floating-point operations
//! in the same order as jsondiff, because the alignment depends on exact ties.
//!
//! Guards, for inputs no device list comes close to: arrays whose alignment
//! tables would exceed a total cell budget, and values nested deeper than
//! `MAX_DETAILED_DEPTH`, are reported whole (`[a, b]`, or `{}` when equal)
//! instead of in detail. Printing JSON values never recurses, so depth cannot
//! exhaust the stack there.

use serde_json::{Map, Number, Value};

use crate::pycompat::pyfmt::{float_repr, str_repr};

/// Python repr of `jsondiff.diff(reference, compare, syntax="symmetric")` for two JSON values.
pub fn symmetric_diff_repr(reference: &Value, compare: &Value) -> String {
    let mut differ = Differ {
        lcs_cells_left: LCS_CELL_BUDGET,
    };
    let (diff, _similarity) = differ.diff_values(reference, compare, 0);
    let mut out = String::new();
    write_diff(&mut out, &diff);
    out
}

/// Total alignment-table cells (summed over every pair of arrays compared,
/// nested ones included) before arrays are reported whole. Bounds both time
/// and the memory of one table (about 40 bytes per cell).
const LCS_CELL_BUDGET: usize = 1 << 20;

/// Nesting depth beyond which values are compared for equality only.
/// serde_json's parser refuses inputs nested deeper than 128, so parsed
/// files never reach it; it only protects the stack from hand-built values.
const MAX_DETAILED_DEPTH: usize = 200;

// ---------------------------------------------------------------------------
// The diff structure

/// jsondiff's symmetric diff of one pair of values.
enum Diff<'a> {
    /// `{}`: nothing to report.
    Identical,
    /// `[a, b]`: reported as a whole.
    Replaced(&'a Value, &'a Value),
    // Boxed to keep the cached per-cell diffs of an alignment table small.
    Object(Box<ObjectDiff<'a>>),
    Array(Box<ArrayDiff<'a>>),
}

#[derive(Default)]
struct ObjectDiff<'a> {
    changed: Vec<(&'a str, Diff<'a>)>,
    inserted: Vec<(&'a str, &'a Value)>,
    deleted: Vec<(&'a str, &'a Value)>,
}

/// Positions of `changed` and `inserted` index the compare array, those of
/// `deleted` the reference array.
#[derive(Default)]
struct ArrayDiff<'a> {
    changed: Vec<(usize, Diff<'a>)>,
    inserted: Vec<(usize, &'a Value)>,
    deleted: Vec<(usize, &'a Value)>,
}

// An empty container diff prints `{}` like `Identical`. With nothing
// changed every part matched fully, so the score is exactly 1.0 and
// jsondiff's "score 0 and nothing changed → `[a, b]`" branch never fires
// for containers.
impl ObjectDiff<'_> {
    fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.inserted.is_empty() && self.deleted.is_empty()
    }
}

impl ArrayDiff<'_> {
    fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.inserted.is_empty() && self.deleted.is_empty()
    }
}

/// A diff with jsondiff's similarity score in `[0, 1]`.
type Scored<'a> = (Diff<'a>, f64);

// ---------------------------------------------------------------------------
// Diffing (jsondiff's `_obj_diff`, `_dict_diff`, `_list_diff`)

struct Differ {
    lcs_cells_left: usize,
}

impl Differ {
    fn diff_values<'a>(&mut self, a: &'a Value, b: &'a Value, depth: usize) -> Scored<'a> {
        if depth >= MAX_DETAILED_DEPTH {
            return diff_as_whole(a, b);
        }
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => self.diff_objects(x, y, depth),
            (Value::Array(x), Value::Array(y)) => {
                if self.take_cells(x.len(), y.len()) {
                    self.diff_arrays(x, y, depth)
                } else {
                    diff_as_whole(a, b)
                }
            }
            _ if scalars_equal(a, b) => (Diff::Identical, 1.0),
            _ => (Diff::Replaced(a, b), 0.0),
        }
    }

    /// Charges an alignment table to the budget; false once it is spent.
    fn take_cells(&mut self, rows: usize, cols: usize) -> bool {
        match table_cells(rows, cols) {
            Some(cells) if cells <= self.lcs_cells_left => {
                self.lcs_cells_left -= cells;
                true
            }
            _ => false,
        }
    }

    fn diff_objects<'a>(
        &mut self,
        reference: &'a Map<String, Value>,
        compare: &'a Map<String, Value>,
        depth: usize,
    ) -> Scored<'a> {
        let mut diff = ObjectDiff::default();
        let mut matched = 0usize;
        let mut matched_score = 0.0f64;
        for (key, old) in reference {
            let Some(new) = compare.get(key) else {
                diff.deleted.push((key, old));
                continue;
            };
            matched += 1;
            let (child, score) = self.diff_values(old, new, depth + 1);
            if score < 1.0 {
                diff.changed.push((key, child));
            }
            // A shared key counts at least half, even if its values differ.
            matched_score += 0.5 + 0.5 * score;
        }
        for (key, new) in compare {
            if !reference.contains_key(key) {
                diff.inserted.push((key, new));
            }
        }
        let total = matched + diff.inserted.len() + diff.deleted.len();
        let score = ratio_or_one(matched_score, total);
        let diff = if diff.is_empty() {
            Diff::Identical
        } else {
            Diff::Object(Box::new(diff))
        };
        (diff, score)
    }

    fn diff_arrays<'a>(
        &mut self,
        reference: &'a [Value],
        compare: &'a [Value],
        depth: usize,
    ) -> Scored<'a> {
        let mut table = self.alignment_table(reference, compare, depth);
        let mut diff = ArrayDiff::default();
        // Summed front to back like jsondiff: float addition order matters.
        let mut total_score = 0.0f64;
        for step in table.trace_alignment().into_iter().rev() {
            match step {
                Step::Pair { old, new, score } => {
                    if score < 1.0 {
                        diff.changed.push((new, table.take_pair_diff(old, new)));
                    }
                    total_score += score;
                }
                Step::Insert { new } => diff.inserted.push((new, &compare[new])),
                Step::Delete { old } => diff.deleted.push((old, &reference[old])),
            }
        }
        // jsondiff lists deletions last position first.
        diff.deleted.reverse();
        let score = ratio_or_one(total_score, reference.len() + diff.inserted.len());
        let diff = if diff.is_empty() {
            Diff::Identical
        } else {
            Diff::Array(Box::new(diff))
        };
        (diff, score)
    }

    /// Fills the similarity-weighted LCS table. jsondiff diffs each pair
    /// again while tracing back; keeping the diffs instead gives the same
    /// result without that recomputation, which compounds exponentially
    /// with nesting depth.
    fn alignment_table<'a>(
        &mut self,
        reference: &'a [Value],
        compare: &'a [Value],
        depth: usize,
    ) -> AlignmentTable<'a> {
        let (rows, cols) = (reference.len(), compare.len());
        let mut table = AlignmentTable {
            rows,
            cols,
            pair_scores: Vec::with_capacity(rows * cols),
            pair_diffs: Vec::with_capacity(rows * cols),
            best: vec![0.0; (rows + 1) * (cols + 1)],
        };
        for (i, old) in reference.iter().enumerate() {
            for (j, new) in compare.iter().enumerate() {
                let (diff, score) = self.diff_values(old, new, depth + 1);
                table.pair_scores.push(score);
                // Only partly similar pairs can be reported as changed.
                let worth_keeping = score > 0.0 && score < 1.0;
                table
                    .pair_diffs
                    .push(if worth_keeping { diff } else { Diff::Identical });
                let best = table
                    .best_at(i + 1, j)
                    .max(table.best_at(i, j + 1))
                    .max(table.best_at(i, j) + score);
                table.set_best(i + 1, j + 1, best);
            }
        }
        table
    }
}

/// `(rows + 1) * (cols + 1)`, or `None` on overflow.
fn table_cells(rows: usize, cols: usize) -> Option<usize> {
    rows.checked_add(1)?.checked_mul(cols.checked_add(1)?)
}

/// jsondiff's score of a container: the mean over its parts, 1.0 if empty.
fn ratio_or_one(score: f64, count: usize) -> f64 {
    if count == 0 {
        1.0
    } else {
        score / count as f64
    }
}

/// The fallback past the guards: no detail, but still `{}` for equal values.
fn diff_as_whole<'a>(a: &'a Value, b: &'a Value) -> Scored<'a> {
    if python_equal(a, b) {
        (Diff::Identical, 1.0)
    } else {
        (Diff::Replaced(a, b), 0.0)
    }
}

// ---------------------------------------------------------------------------
// Alignment (jsondiff's `_list_diff_0`)

/// One step of the alignment, recorded while walking back from the end.
enum Step {
    /// `reference[old]` and `compare[new]` are aligned with `score > 0`.
    Pair {
        old: usize,
        new: usize,
        score: f64,
    },
    Insert {
        new: usize,
    },
    Delete {
        old: usize,
    },
}

struct AlignmentTable<'a> {
    rows: usize,
    cols: usize,
    /// Similarity of `reference[i]` vs `compare[j]`, row-major.
    pair_scores: Vec<f64>,
    /// Their diffs, kept only where `0 < score < 1`.
    pair_diffs: Vec<Diff<'a>>,
    /// `(rows + 1) x (cols + 1)` prefix optima, row-major.
    best: Vec<f64>,
}

impl<'a> AlignmentTable<'a> {
    fn best_at(&self, i: usize, j: usize) -> f64 {
        self.best
            .get(i * (self.cols + 1) + j)
            .copied()
            .unwrap_or(0.0)
    }

    fn set_best(&mut self, i: usize, j: usize, value: f64) {
        if let Some(cell) = self.best.get_mut(i * (self.cols + 1) + j) {
            *cell = value;
        }
    }

    fn pair_score(&self, old: usize, new: usize) -> f64 {
        self.pair_scores
            .get(old * self.cols + new)
            .copied()
            .unwrap_or(0.0)
    }

    fn take_pair_diff(&mut self, old: usize, new: usize) -> Diff<'a> {
        match self.pair_diffs.get_mut(old * self.cols + new) {
            Some(diff) => std::mem::replace(diff, Diff::Identical),
            None => Diff::Identical,
        }
    }

    /// Walks from the bottom-right corner, preferring (in this order) a
    /// diagonal step that explains the cell exactly, an insertion when the
    /// left neighbour is at least as good as the upper one, then a deletion.
    /// These tie-breaks decide which of several equally good alignments
    /// jsondiff reports, so they are kept exactly. Steps come out last first.
    fn trace_alignment(&self) -> Vec<Step> {
        let (mut i, mut j) = (self.rows, self.cols);
        let mut steps = Vec::with_capacity(i + j);
        loop {
            if i > 0 && j > 0 {
                let score = self.pair_score(i - 1, j - 1);
                if score > 0.0 && self.best_at(i, j) == self.best_at(i - 1, j - 1) + score {
                    steps.push(Step::Pair {
                        old: i - 1,
                        new: j - 1,
                        score,
                    });
                    i -= 1;
                    j -= 1;
                    continue;
                }
            }
            if j > 0 && (i == 0 || self.best_at(i, j - 1) >= self.best_at(i - 1, j)) {
                steps.push(Step::Insert { new: j - 1 });
                j -= 1;
            } else if i > 0 {
                steps.push(Step::Delete { old: i - 1 });
                i -= 1;
            } else {
                return steps;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Python equality

/// A JSON number or bool as Python sees it after `json.load`.
enum PyNumber {
    Int(i128),
    /// An integer outside `i128`, as its decimal digits (only produced when
    /// serde_json keeps number text, i.e. with `arbitrary_precision`).
    BigInt(String),
    Float(f64),
}

impl PyNumber {
    fn from_json(number: &Number) -> PyNumber {
        if let Some(value) = number.as_i64() {
            return PyNumber::Int(value.into());
        }
        if let Some(value) = number.as_u64() {
            return PyNumber::Int(value.into());
        }
        if number.is_f64() {
            return PyNumber::Float(number.as_f64().unwrap_or(f64::NAN));
        }
        // Only with `arbitrary_precision`: an integer beyond u64/i64, or a
        // float literal that overflows (Python reads it as ±inf).
        let text = number.to_string();
        if is_integer_literal(&text) {
            return match text.parse::<i128>() {
                Ok(value) => PyNumber::Int(value),
                Err(_) => PyNumber::BigInt(text),
            };
        }
        PyNumber::Float(text.parse().unwrap_or(f64::NAN))
    }

    /// An integer literal beyond 64 bits (see `pyjson::big_integers_as_markers`).
    fn big(digits: &str) -> PyNumber {
        match digits.parse::<i128>() {
            Ok(value) => PyNumber::Int(value),
            Err(_) => PyNumber::BigInt(digits.to_string()),
        }
    }

    fn repr(&self) -> String {
        match self {
            PyNumber::Int(value) => value.to_string(),
            PyNumber::BigInt(digits) => digits.clone(),
            PyNumber::Float(value) => float_repr(*value),
        }
    }
}

fn is_integer_literal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Python `==` on numbers: floats compare with ints by exact value.
fn numbers_equal(a: &PyNumber, b: &PyNumber) -> bool {
    match (a, b) {
        (PyNumber::Int(x), PyNumber::Int(y)) => x == y,
        (PyNumber::BigInt(x), PyNumber::BigInt(y)) => x == y,
        (PyNumber::Float(x), PyNumber::Float(y)) => x == y,
        (PyNumber::Float(f), int) | (int, PyNumber::Float(f)) => int_equals_float(int, *f),
        // A `BigInt` lies outside the range of every `Int`.
        (PyNumber::Int(_), PyNumber::BigInt(_)) | (PyNumber::BigInt(_), PyNumber::Int(_)) => false,
    }
}

fn int_equals_float(int: &PyNumber, float: f64) -> bool {
    if !float.is_finite() || float.fract() != 0.0 {
        return false;
    }
    const TWO_POW_127: f64 = 170141183460469231731687303715884105728.0;
    match int {
        PyNumber::Int(value) => {
            (-TWO_POW_127..TWO_POW_127).contains(&float) && float as i128 == *value
        }
        // Rust prints integral floats exactly with `{:.0}`.
        PyNumber::BigInt(digits) => format!("{float:.0}") == *digits,
        PyNumber::Float(_) => false,
    }
}

/// Python `==` for two values that are not both objects or both arrays
/// (those are diffed, never compared whole, by jsondiff).
fn scalars_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y))
            if as_py_number(a).is_none() && as_py_number(b).is_none() =>
        {
            x == y
        }
        _ => match (as_py_number(a), as_py_number(b)) {
            (Some(x), Some(y)) => numbers_equal(&x, &y),
            _ => false,
        },
    }
}

/// bools are ints in Python (`True == 1 == 1.0`).
fn as_py_number(value: &Value) -> Option<PyNumber> {
    match value {
        Value::Bool(flag) => Some(PyNumber::Int(i128::from(*flag))),
        Value::Number(number) => Some(PyNumber::from_json(number)),
        Value::String(text) => crate::pycompat::pyjson::big_integer(text)
            .map(PyNumber::big)
            .or_else(|| crate::pycompat::pyjson::special_float(text).map(PyNumber::Float)),
        _ => None,
    }
}

/// Python `==` on whole values (objects compare regardless of key order).
/// Iterative, so arbitrarily deep values cannot exhaust the stack.
pub fn python_equal(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                pending.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (key, old) in x {
                    match y.get(key) {
                        Some(new) => pending.push((old, new)),
                        None => return false,
                    }
                }
            }
            _ if !scalars_equal(a, b) => return false,
            _ => {}
        }
    }
    true
}

// ---------------------------------------------------------------------------
// Python repr of the diff

/// jsondiff's `insert` / `delete` symbols print as their bare labels.
const INSERT_SYMBOL: &str = "insert";
const DELETE_SYMBOL: &str = "delete";

fn write_diff(out: &mut String, diff: &Diff<'_>) {
    match diff {
        Diff::Identical => out.push_str("{}"),
        Diff::Replaced(a, b) => {
            out.push('[');
            write_value(out, a);
            out.push_str(", ");
            write_value(out, b);
            out.push(']');
        }
        Diff::Object(diff) => write_object_diff(out, diff),
        Diff::Array(diff) => write_array_diff(out, diff),
    }
}

/// `{'key': <diff>, ..., insert: {'key': value}, delete: {'key': value}}`
fn write_object_diff(out: &mut String, diff: &ObjectDiff<'_>) {
    let mut entries = EntryWriter::open(out, '{');
    for (key, child) in &diff.changed {
        entries.next_entry().push_str(&str_repr(key));
        entries.out.push_str(": ");
        write_diff(entries.out, child);
    }
    if !diff.inserted.is_empty() {
        entries.symbol_entry(INSERT_SYMBOL);
        write_keyed_values(entries.out, &diff.inserted);
    }
    if !diff.deleted.is_empty() {
        entries.symbol_entry(DELETE_SYMBOL);
        write_keyed_values(entries.out, &diff.deleted);
    }
    entries.close('}');
}

/// `{pos: <diff>, ..., insert: [(pos, value)], delete: [(pos, value)]}`
fn write_array_diff(out: &mut String, diff: &ArrayDiff<'_>) {
    let mut entries = EntryWriter::open(out, '{');
    for (position, child) in &diff.changed {
        entries.next_entry().push_str(&position.to_string());
        entries.out.push_str(": ");
        write_diff(entries.out, child);
    }
    if !diff.inserted.is_empty() {
        entries.symbol_entry(INSERT_SYMBOL);
        write_positioned_values(entries.out, &diff.inserted);
    }
    if !diff.deleted.is_empty() {
        entries.symbol_entry(DELETE_SYMBOL);
        write_positioned_values(entries.out, &diff.deleted);
    }
    entries.close('}');
}

/// A dict of JSON values: `{'key': value, ...}`.
fn write_keyed_values(out: &mut String, entries: &[(&str, &Value)]) {
    let mut writer = EntryWriter::open(out, '{');
    for (key, value) in entries {
        writer.next_entry().push_str(&str_repr(key));
        writer.out.push_str(": ");
        write_value(writer.out, value);
    }
    writer.close('}');
}

/// A list of `(position, value)` tuples.
fn write_positioned_values(out: &mut String, entries: &[(usize, &Value)]) {
    let mut writer = EntryWriter::open(out, '[');
    for (position, value) in entries {
        let out = writer.next_entry();
        out.push('(');
        out.push_str(&position.to_string());
        out.push_str(", ");
        write_value(out, value);
        out.push(')');
    }
    writer.close(']');
}

/// Writes `, ` between the entries of a bracketed collection.
struct EntryWriter<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> EntryWriter<'o> {
    fn open(out: &'o mut String, bracket: char) -> Self {
        out.push(bracket);
        EntryWriter { out, first: true }
    }

    fn next_entry(&mut self) -> &mut String {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        self.out
    }

    fn symbol_entry(&mut self, symbol: &str) {
        self.next_entry().push_str(symbol);
        self.out.push_str(": ");
    }

    fn close(self, bracket: char) {
        self.out.push(bracket);
    }
}

// ---------------------------------------------------------------------------
// Python repr of JSON values (as `json.load` builds them)

/// Pieces still to print; an explicit stack instead of recursion.
enum Pending<'a> {
    Text(&'static str),
    Key(&'a str),
    Value(&'a Value),
}

fn write_value(out: &mut String, value: &Value) {
    write_pending(out, vec![Pending::Value(value)]);
}

fn write_pending<'a>(out: &mut String, mut stack: Vec<Pending<'a>>) {
    while let Some(piece) = stack.pop() {
        match piece {
            Pending::Text(text) => out.push_str(text),
            Pending::Key(key) => {
                out.push_str(&str_repr(key));
                out.push_str(": ");
            }
            Pending::Value(Value::Array(items)) => push_array_pieces(&mut stack, items),
            Pending::Value(Value::Object(map)) => push_object_pieces(&mut stack, map),
            Pending::Value(scalar) => write_scalar(out, scalar),
        }
    }
}

/// Pushes `[item, item]` in reverse, so it pops in reading order.
fn push_array_pieces<'a>(stack: &mut Vec<Pending<'a>>, items: &'a [Value]) {
    stack.push(Pending::Text("]"));
    for (index, item) in items.iter().enumerate().rev() {
        stack.push(Pending::Value(item));
        if index > 0 {
            stack.push(Pending::Text(", "));
        }
    }
    stack.push(Pending::Text("["));
}

/// Pushes `{'key': value, ...}` in reverse, so it pops in reading order.
fn push_object_pieces<'a>(stack: &mut Vec<Pending<'a>>, map: &'a Map<String, Value>) {
    stack.push(Pending::Text("}"));
    let entries: Vec<(&String, &Value)> = map.iter().collect();
    for (index, (key, value)) in entries.into_iter().enumerate().rev() {
        stack.push(Pending::Value(value));
        stack.push(Pending::Key(key));
        if index > 0 {
            stack.push(Pending::Text(", "));
        }
    }
    stack.push(Pending::Text("{"));
}

fn write_scalar(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(number) => out.push_str(&PyNumber::from_json(number).repr()),
        Value::String(text) => match crate::pycompat::pyjson::big_integer(text) {
            Some(digits) => out.push_str(&PyNumber::big(digits).repr()),
            None => match crate::pycompat::pyjson::special_float(text) {
                Some(x) => out.push_str(&float_repr(x)),
                None => out.push_str(&str_repr(text)),
            },
        },
        // Containers are expanded by `write_pending` before reaching here.
        Value::Array(_) | Value::Object(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expectations below were printed by Python 3.11 + jsondiff 2.2.1:
    /// `repr(jsondiff.diff(json.loads(a), json.loads(b), syntax="symmetric"))`.
    fn diff_text(reference: &str, compare: &str) -> String {
        let reference: Value = serde_json::from_str(reference).unwrap();
        let compare: Value = serde_json::from_str(compare).unwrap();
        symmetric_diff_repr(&reference, &compare)
    }

    #[test]
    fn changed_device_names_and_numbers() {
        assert_eq!(
            diff_text(
                r#"[{"id": 0, "name": "NVIDIA H100 80GB HBM3", "sm_version": 900, "ecc_state": true}]"#,
                r#"[{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "sm_version": 800, "ecc_state": true}]"#,
            ),
            "{0: {'name': ['NVIDIA H100 80GB HBM3', 'NVIDIA A100-SXM4-80GB'], 'sm_version': [900, 800]}}"
        );
    }

    #[test]
    fn added_key() {
        assert_eq!(
            diff_text(
                r#"[{"id": 0, "name": "GPU"}]"#,
                r#"[{"id": 0, "name": "GPU", "l2_cache_size": 52428800}]"#,
            ),
            "{0: {insert: {'l2_cache_size': 52428800}}}"
        );
    }

    #[test]
    fn removed_key() {
        assert_eq!(
            diff_text(
                r#"[{"id": 0, "name": "GPU", "ecc_state": false}, {"id": 1}]"#,
                r#"[{"id": 0, "name": "GPU"}, {"id": 1}]"#,
            ),
            "{0: {delete: {'ecc_state': False}}}"
        );
    }

    #[test]
    fn completely_different_dicts_are_deleted_and_inserted() {
        assert_eq!(
            diff_text(r#"[{"a": 1}]"#, r#"[{"b": 2}]"#),
            "{insert: [(0, {'b': 2})], delete: [(0, {'a': 1})]}"
        );
    }

    #[test]
    fn nested_arrays() {
        assert_eq!(
            diff_text(r#"[[1, 2, [3, 4]], "x"]"#, r#"[[1, 2, [3, 5]], "x"]"#),
            "{0: {2: {insert: [(1, 5)], delete: [(1, 4)]}}}"
        );
    }

    #[test]
    fn inserted_and_deleted_items() {
        assert_eq!(
            diff_text("[1, 2, 3, 4]", "[0, 1, 3, 4, 5]"),
            "{insert: [(0, 0), (4, 5)], delete: [(1, 2)]}"
        );
    }

    #[test]
    fn changed_items_are_keyed_by_compare_position_and_deletions_descend() {
        assert_eq!(
            diff_text(r#"[5, 6, {"k": 1, "j": 0}]"#, r#"[{"k": 2, "j": 0}, 7]"#),
            "{0: {'k': [1, 2]}, insert: [(1, 7)], delete: [(1, 6), (0, 5)]}"
        );
    }

    #[test]
    fn repeated_item_aligns_with_the_last_copy() {
        assert_eq!(diff_text("[1]", "[1, 1]"), "{insert: [(0, 1)]}");
    }

    #[test]
    fn identical_inputs_ignore_key_order() {
        assert_eq!(
            diff_text(
                r#"[{"id": 0, "name": "GPU", "x": [1, 2.5, null]}]"#,
                r#"[{"name": "GPU", "id": 0, "x": [1, 2.5, null]}]"#,
            ),
            "{}"
        );
    }

    #[test]
    fn ints_and_floats_compare_exactly() {
        assert_eq!(
            diff_text(
                r#"[{"a": 1, "b": 9007199254740993, "c": 0.5}]"#,
                r#"[{"a": 1.0, "b": 9007199254740992.0, "c": 1e-05}]"#,
            ),
            "{0: {'b': [9007199254740993, 9007199254740992.0], 'c': [0.5, 1e-05]}}"
        );
    }

    #[test]
    fn bools_equal_their_numeric_values() {
        assert_eq!(
            diff_text(
                r#"[{"ecc": true, "x": 1, "y": false}]"#,
                r#"[{"ecc": false, "x": true, "y": 0.0}]"#,
            ),
            "{0: {'ecc': [True, False]}}"
        );
    }

    #[test]
    fn unicode_and_quote_containing_strings() {
        assert_eq!(
            diff_text(
                r#"[{"name": "it's \"q\"", "k'": "caf\u00e9\n\u2028\u0001"}]"#,
                r#"[{"name": "it's", "k'": "\ud83d\ude00"}]"#,
            ),
            "{0: {'name': ['it\\'s \"q\"', \"it's\"], \"k'\": ['café\\n\\u2028\\x01', '😀']}}"
        );
    }

    #[test]
    fn float_reprs() {
        assert_eq!(
            diff_text("[1e16, 1.5, 100.0]", "[1e15, 1e-07, 1e22]"),
            "{insert: [(0, 1000000000000000.0), (1, 1e-07), (2, 1e+22)], \
             delete: [(2, 100.0), (1, 1.5), (0, 1e+16)]}"
        );
    }

    #[test]
    fn type_change_is_reported_whole() {
        assert_eq!(
            diff_text(r#"[{"a": {"b": 1}}]"#, r#"[{"a": [1]}]"#),
            "{0: {'a': [{'b': 1}, [1]]}}"
        );
    }

    #[test]
    fn top_level_values_that_are_not_lists() {
        assert_eq!(diff_text(r#""old""#, "null"), "['old', None]");
        assert_eq!(
            diff_text(
                r#"{"devices": [1, 2], "x": "s"}"#,
                r#"{"x": "s", "devices": [2], "y": {"z": []}}"#,
            ),
            "{'devices': {delete: [(0, 1)]}, insert: {'y': {'z': []}}}"
        );
    }

    #[test]
    fn string_keys_named_like_symbols_stay_quoted() {
        assert_eq!(
            diff_text(
                r#"{"insert": 1, "delete": [1]}"#,
                r#"{"insert": 2, "delete": [], "new": 0}"#,
            ),
            "{'insert': [1, 2], 'delete': {delete: [(0, 1)]}, insert: {'new': 0}}"
        );
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value_like_json_load() {
        assert_eq!(
            diff_text(r#"[{"a": 1, "b": 2, "a": 3}]"#, r#"[{"b": 2, "a": 1}]"#),
            "{0: {'a': [3, 1]}}"
        );
    }

    // --- guards (no Python counterpart: these inputs are outside what it handles) ---

    fn nested_arrays_of_depth(depth: usize, leaf: i64) -> Value {
        let mut value = Value::from(leaf);
        for _ in 0..depth {
            value = Value::Array(vec![value]);
        }
        value
    }

    #[test]
    fn nested_lists_of_dicts() {
        // Python: 12 levels of `[{"k": ..., "n": 1}]` around `[1, 9]` / `[2, 9]`.
        let nest = |leaf: &str| {
            format!(
                "{}{leaf}{}",
                r#"[{"k": "#.repeat(12),
                r#", "n": 1}]"#.repeat(12)
            )
        };
        let expected = format!(
            "{}{{insert: [(0, 2)], delete: [(0, 1)]}}{}",
            "{0: {'k': ".repeat(12),
            "}}".repeat(12)
        );
        assert_eq!(diff_text(&nest("[1, 9]"), &nest("[2, 9]")), expected);
    }

    #[test]
    fn depth_128_is_diffed_in_detail_and_quickly() {
        // jsondiff re-diffs aligned pairs while tracing back, which doubles
        // the work per nesting level; cached pair diffs keep this linear.
        let nest = |leaf: i64| {
            let mut value = Value::Array(vec![Value::from(leaf), Value::from(9)]);
            for _ in 0..127 {
                value = Value::Array(vec![value]);
            }
            value
        };
        let got = symmetric_diff_repr(&nest(1), &nest(2));
        let expected = format!(
            "{}{{insert: [(0, 2)], delete: [(0, 1)]}}{}",
            "{0: ".repeat(127),
            "}".repeat(127)
        );
        assert_eq!(got, expected);
    }

    #[test]
    fn very_deep_values_do_not_overflow_the_stack() {
        use std::mem::ManuallyDrop;
        const DEPTH: usize = 20_000;
        // serde_json drops nested values recursively; leak them instead,
        // even if an assertion fails.
        let deep_one = ManuallyDrop::new(nested_arrays_of_depth(DEPTH, 1));
        let also_deep_one = ManuallyDrop::new(nested_arrays_of_depth(DEPTH, 1));
        let deep_two = ManuallyDrop::new(nested_arrays_of_depth(DEPTH, 2));
        assert_eq!(symmetric_diff_repr(&deep_one, &also_deep_one), "{}");
        // Arrays with nothing similar: the single items are swapped whole.
        let item = |leaf: i64| format!("{}{leaf}{}", "[".repeat(DEPTH - 1), "]".repeat(DEPTH - 1));
        assert_eq!(
            symmetric_diff_repr(&deep_one, &deep_two),
            format!("{{insert: [(0, {})], delete: [(0, {})]}}", item(2), item(1))
        );
    }

    #[test]
    fn huge_arrays_fall_back_to_whole_comparison() {
        let big: Vec<Value> = (0..3000).map(Value::from).collect();
        let mut changed = big.clone();
        changed[5] = Value::from(-1);
        let (big, changed) = (Value::Array(big), Value::Array(changed));
        assert_eq!(symmetric_diff_repr(&big, &big.clone()), "{}");
        let got = symmetric_diff_repr(&big, &changed);
        assert!(got.starts_with("[[0, 1, 2, 3, 4, 5, 6,"));
        assert!(got.contains("2999], [0, 1, 2, 3, 4, -1, 6,"));
    }

    #[test]
    fn big_integers_compare_exactly_with_floats() {
        let two_pow_64 = PyNumber::BigInt("18446744073709551616".to_string());
        assert!(numbers_equal(
            &two_pow_64,
            &PyNumber::Float(18446744073709551616.0)
        ));
        assert!(!numbers_equal(
            &two_pow_64,
            &PyNumber::Float(1.8446744073709556e19)
        ));
        assert!(numbers_equal(&PyNumber::Int(1), &PyNumber::Float(1.0)));
        assert!(!numbers_equal(
            &PyNumber::Int(i128::MAX),
            &PyNumber::Float(1.7014118346046923e38)
        ));
        assert!(!numbers_equal(&PyNumber::Int(0), &PyNumber::Float(0.5)));
    }
}
