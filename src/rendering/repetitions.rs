//! The repetition-mode table (`--vs`): per row the merged Ref and Cmp
//! (center with the hull of the runs' intervals), Change, both sides'
//! merged noise, the test's Δ ± σ, its significance and threshold, the runs
//! merged per side and the status; `--display explain` adds the reason and
//! each run's center.

use crate::deciding::decision::Comparison;
use crate::deciding::repetitions::center_test::CenterTest;
use crate::deciding::repetitions::{RepetitionStats, SideStats};
use crate::text::digits::push_decimal;

use crate::deciding::report::AxisCells;
use crate::pycompat::pyfmt::{format_f, push_f, push_f_signed};
use crate::pycompat::tabulate::{Align, CellPart, CellTable};
use crate::rendering::axes::axis_headers;
use crate::rendering::push_status_cell;
use crate::rendering::table::{
    DisplayMode, PiecewiseTable, github_text, push_axis_cells, push_timing_cells, table_cells,
    timing_widths, write_in_pieces,
};
use crate::rendering::units::{IntervalWidths, duration_units, push_change, push_percentage};

/// The `repetitions` object of a state in the JSON report.
#[derive(serde::Serialize)]
pub struct RepetitionsJson {
    reference: SideJson,
    compare: SideJson,
    /// `cmp center / ref center - 1` of the merged centers.
    delta: Option<f64>,
    /// `sqrt(noise_ref² + noise_cmp²)`.
    sigma: Option<f64>,
    /// `|delta| / sigma`.
    significance: Option<f64>,
    /// A side has one run: its scatter between processes is unknown.
    single_run: bool,
    /// The test on the run centers shown (the one that called, or the
    /// closest to calling); `null` when none can be made.
    test: Option<TestJson>,
}

#[derive(serde::Serialize)]
struct TestJson {
    /// `time`, `cycles` or `clock_adjusted`.
    name: &'static str,
    /// `|t|`: equal to `significance`.
    statistic: f64,
    /// Degrees of freedom of the t distribution.
    df: usize,
    /// The `|t|` FAST or SLOW needs.
    threshold: f64,
    /// The test's share of the false-call bound.
    false_call_share: f64,
    /// The significance reaches the threshold.
    passed: bool,
}

impl TestJson {
    fn of(test: &CenterTest) -> Self {
        TestJson {
            name: test.kind.name(),
            statistic: test.significance(),
            df: test.df,
            threshold: test.threshold,
            false_call_share: test.kind.share(),
            passed: test.margin() >= 1.0,
        }
    }
}

#[derive(serde::Serialize)]
struct SideJson {
    /// Runs merged into the state.
    reps: usize,
    /// Runs the side has (more than `reps` when some lack the state).
    runs: usize,
    /// The merged relative noise.
    noise: Option<f64>,
    run_centers: Vec<RunCenterJson>,
}

#[derive(serde::Serialize)]
struct RunCenterJson {
    /// Zero-based position of the run among the side's paths.
    run: usize,
    center: Option<f64>,
}

fn finite(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite())
}

impl SideJson {
    fn of(side: &SideStats) -> Self {
        SideJson {
            reps: side.reps(),
            runs: side.total_runs,
            noise: finite(side.noise),
            run_centers: side
                .runs
                .iter()
                .map(|r| RunCenterJson {
                    run: r.run,
                    center: finite(r.center),
                })
                .collect(),
        }
    }
}

impl RepetitionsJson {
    pub fn of(stats: &RepetitionStats) -> Self {
        RepetitionsJson {
            reference: SideJson::of(&stats.reference),
            compare: SideJson::of(&stats.compare),
            delta: finite(stats.delta),
            sigma: finite(stats.sigma),
            significance: finite(stats.significance),
            single_run: stats.single_run(),
            test: stats.test.as_ref().map(TestJson::of),
        }
    }
}

/// A displayed row: its formatted axis values, its decision and its runs.
pub struct RepetitionRow<'a> {
    pub axis_cells: AxisCells<'a>,
    pub comparison: &'a Comparison,
    pub stats: &'a RepetitionStats,
}

fn columns(mode: DisplayMode) -> Vec<(&'static str, Align)> {
    use Align::{Center, Left, Right};
    let mut columns = vec![
        ("Ref", Right),
        ("Cmp", Right),
        ("Change", Right),
        ("Ref Noise", Right),
        ("Cmp Noise", Right),
        ("Δ ± σ", Right),
        ("Signif", Right),
        ("Test", Left),
        ("Ref Reps", Right),
        ("Cmp Reps", Right),
        ("Status", Center),
    ];
    if mode == DisplayMode::Explain {
        columns.extend([("Reason", Left), ("Ref Runs", Left), ("Cmp Runs", Left)]);
    }
    columns
}

/// `+1.2 ± 0.8` in percent: the change of the merged centers and its scatter.
#[cfg(test)]
pub fn delta_cell(stats: &RepetitionStats) -> String {
    let mut text = String::with_capacity(16);
    push_delta_cell(&mut text, stats);
    text
}

/// [`delta_cell`] written at the end of `text` (table cells are written in place).
pub fn push_delta_cell(text: &mut String, stats: &RepetitionStats) {
    let Some(delta) = stats.delta.filter(|d| d.is_finite()) else {
        return text.push_str("n/a");
    };
    push_f_signed(text, delta * 100.0, 1);
    text.push_str(" ± ");
    match stats.sigma {
        Some(sigma) => push_f(text, sigma * 100.0, 1),
        None => text.push_str("n/a"),
    }
}

/// `|Δ|/σ` with one decimal; `*` when a side has a single run, whose σ
/// holds only the scatter within one process.
#[cfg(test)]
pub fn significance_cell(stats: &RepetitionStats) -> String {
    let mut text = String::with_capacity(8);
    push_significance_cell(&mut text, stats);
    text
}

pub fn push_significance_cell(text: &mut String, stats: &RepetitionStats) {
    let Some(significance) = stats.significance else {
        return text.push_str("n/a");
    };
    push_f(text, significance, 1);
    if stats.single_run() {
        text.push('*');
    }
}

/// The test shown and the significance it needs: `time ≥ 4.0`; without a
/// test (one run a side), the single-run rule decided.
#[cfg(test)]
pub fn test_cell(stats: &RepetitionStats) -> String {
    let mut text = String::with_capacity(16);
    push_test_cell(&mut text, stats);
    text
}

pub fn push_test_cell(text: &mut String, stats: &RepetitionStats) {
    match &stats.test {
        Some(test) => {
            text.push_str(test.kind.label());
            text.push_str(" ≥ ");
            push_f(text, test.threshold, 1);
        }
        None if stats.single_run() => text.push_str("single-run"),
        // No test could be made (no scatter between the runs): Signif is
        // |Δ| over the runs' own noise.
        None if stats.significance.is_some() => text.push_str("noise"),
        None => text.push_str("n/a"),
    }
}

/// What the repetition columns mean, printed under the summary.
pub const COLUMNS_LEGEND: &str = "Columns: Δ ± σ = change of the run centers in % ± its standard error; Signif = |Δ| / σ, the shown test's |t| (* = a side has one run); Test = the test on the run centers shown and the |t| it needs (noise: no test, the runs do not scatter, Signif is |Δ| over their own noise; single-run: the single-run rule decided); Ref Reps / Cmp Reps = the runs that hold the state (2 of 3: the others lack it)\n";

/// `3`, or `2 of 3` when some runs lack the state.
#[cfg(test)]
pub fn reps_cell(side: &SideStats) -> String {
    let mut text = String::with_capacity(8);
    push_reps_cell(&mut text, side);
    text
}

pub fn push_reps_cell(text: &mut String, side: &SideStats) {
    push_decimal(text, side.reps() as u64);
    if side.incomplete() {
        text.push_str(" of ");
        push_decimal(text, side.total_runs as u64);
    }
}

/// Each run's center, in one unit: `1.234 1.251 1.300 ms`.
pub fn run_centers_cell(side: &SideStats) -> String {
    let centers: Vec<Option<f64>> = side.runs.iter().map(|r| r.center).collect();
    let (multiplier, unit) = duration_units(&centers);
    let texts: Vec<String> = centers
        .iter()
        .map(|c| match c.filter(|c| c.is_finite()) {
            Some(c) => format_f(c * multiplier, 3),
            None => "n/a".to_string(),
        })
        .collect();
    format!("{} {unit}", texts.join(" "))
}

fn row_cells(
    part: &mut CellPart,
    row: &RepetitionRow,
    widths: [IntervalWidths; 2],
    mode: DisplayMode,
    no_color: bool,
) {
    let (c, stats) = (row.comparison, row.stats);
    push_timing_cells(part, c, widths);
    part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval()));
    part.write_cell(|text| push_percentage(text, stats.reference.noise));
    part.write_cell(|text| push_percentage(text, stats.compare.noise));
    part.write_cell(|text| push_delta_cell(text, stats));
    part.write_cell(|text| push_significance_cell(text, stats));
    part.write_cell(|text| push_test_cell(text, stats));
    part.write_cell(|text| push_reps_cell(text, &stats.reference));
    part.write_cell(|text| push_reps_cell(text, &stats.compare));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
    if mode == DisplayMode::Explain {
        part.push_cell(c.reason.code.display());
        part.push_cell(&run_centers_cell(&stats.reference));
        part.push_cell(&run_centers_cell(&stats.compare));
    }
}

/// The table text (without a trailing newline). The legacy display has no
/// repetition form; it shows the intervals table.
pub fn render_repetition_table(
    axis_names: &[String],
    rows: &[RepetitionRow],
    mode: DisplayMode,
    no_color: bool,
) -> String {
    let layout = RepetitionLayout::of(axis_names, rows, mode, no_color);
    github_text(&layout.headers, &layout.aligns, &layout.cells(rows), &[])
}

/// The text of [`render_repetition_table`] written to `out` in pieces: a
/// huge table is never held whole.
pub fn write_repetition_table_in_pieces(
    axis_names: &[String],
    rows: &[RepetitionRow],
    (mode, no_color): (DisplayMode, bool),
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let layout = RepetitionLayout::of(axis_names, rows, mode, no_color);
    write_in_pieces(&layout, rows, out)
}

/// The repetition table's head, and what its rows' cells need.
struct RepetitionLayout {
    headers: Vec<String>,
    aligns: Vec<Align>,
    widths: [IntervalWidths; 2],
    mode: DisplayMode,
    no_color: bool,
}

impl RepetitionLayout {
    fn of(
        axis_names: &[String],
        rows: &[RepetitionRow],
        mode: DisplayMode,
        no_color: bool,
    ) -> Self {
        let columns = columns(mode);
        let mut headers = axis_headers(axis_names);
        let mut aligns = vec![Align::Center; axis_names.len()];
        headers.extend(columns.iter().map(|(name, _)| name.to_string()));
        aligns.extend(columns.iter().map(|(_, align)| *align));
        RepetitionLayout {
            headers,
            aligns,
            widths: timing_widths(rows, |row| row.comparison),
            mode,
            no_color,
        }
    }
}

impl<'r> PiecewiseTable<RepetitionRow<'r>> for RepetitionLayout {
    fn headers(&self) -> &[String] {
        &self.headers
    }

    fn aligns(&self) -> &[Align] {
        &self.aligns
    }

    fn cells(&self, rows: &[RepetitionRow]) -> CellTable {
        table_cells(rows, self.headers.len(), |part, row| {
            push_axis_cells(part, row.axis_cells);
            row_cells(part, row, self.widths, self.mode, self.no_color);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::repetitions::RunCenter;

    fn side(centers: &[f64], total_runs: usize, noise: f64) -> SideStats {
        SideStats {
            runs: centers
                .iter()
                .enumerate()
                .map(|(run, c)| RunCenter {
                    run,
                    center: Some(*c),
                })
                .collect(),
            total_runs,
            noise: Some(noise),
        }
    }

    #[test]
    fn delta_sigma_and_significance_cells() {
        let stats = RepetitionStats::new(
            side(&[1.0, 1.1, 1.05], 3, 0.03),
            side(&[0.9, 0.95, 0.93], 3, 0.04),
            Some(-0.1),
            None,
        );
        assert_eq!(delta_cell(&stats), "-10.0 ± 5.0");
        assert_eq!(significance_cell(&stats), "2.0");
        let single = RepetitionStats::new(
            side(&[1.0], 1, 0.03),
            side(&[0.9], 1, 0.04),
            Some(-0.1),
            None,
        );
        assert_eq!(significance_cell(&single), "2.0*");
        let none = RepetitionStats::new(side(&[1.0], 1, 0.0), side(&[1.0], 1, 0.0), None, None);
        assert_eq!(delta_cell(&none), "n/a");
        assert_eq!(significance_cell(&none), "n/a");
    }

    #[test]
    fn test_cell_names_the_test_and_its_threshold() {
        use crate::deciding::repetitions::center_test::{CenterTest, TestKind};
        let test = CenterTest {
            kind: TestKind::ClockAdjusted,
            log_change: 0.1,
            standard_error: 0.01,
            df: 3,
            threshold: 7.453,
        };
        let three = || side(&[1.0, 1.1, 1.05], 3, 0.03);
        let tested = RepetitionStats::new(three(), three(), Some(0.1), Some(test));
        assert_eq!(test_cell(&tested), "clk-adj ≥ 7.5");
        assert_eq!(significance_cell(&tested), "10.0");
        let single = RepetitionStats::new(side(&[1.0], 1, 0.0), side(&[1.0], 1, 0.0), None, None);
        assert_eq!(test_cell(&single), "single-run");
        let untested = RepetitionStats::new(three(), three(), None, None);
        assert_eq!(test_cell(&untested), "n/a");
    }

    #[test]
    fn reps_and_run_centers() {
        assert_eq!(reps_cell(&side(&[1.0, 2.0, 3.0], 3, 0.0)), "3");
        assert_eq!(reps_cell(&side(&[1.0, 2.0], 3, 0.0)), "2 of 3");
        let runs = side(&[1.5e-3, 1.25e-3], 2, 0.0);
        assert_eq!(run_centers_cell(&runs), "1.500 1.250 ms");
        let micro = side(&[2.0e-6], 1, 0.0);
        assert_eq!(run_centers_cell(&micro), "2.000 us");
    }
}
