//! `--rerun-plan`: the benchmark arguments that re-measure exactly the
//! states a comparison left AMBG (or of other chosen statuses), one
//! argument a line, after comments (`#`) that say how to run them and merge
//! the reruns with the runs they repeat. NVBench input gets `-b`, `-d` and
//! `-a` in NVBench's syntax ([`nvbench`], a benchmark named once per
//! product of chosen states by [`products`]); Google Benchmark input a
//! `--benchmark_filter` ([`gbench`]). A state its benchmark's command line
//! cannot name exactly is listed in a comment with the reason, never on a
//! line that could change what the plan runs; a plan that names no state
//! holds one argument no benchmark accepts, so that running it fails
//! instead of re-measuring everything.

pub mod gbench;
pub mod nvbench;
pub mod products;

use crate::deciding::status::Status;
use crate::loading::scalar::Scalar;
use crate::text::printable::printable;

/// What a plan holds when no state could be named: an argument that no
/// benchmark accepts (run without arguments, a benchmark re-measures every
/// state).
pub const NOTHING_TO_RUN: &str = "--nvbench-compare-rerun-plan-selects-no-state";

/// The chosen states, by file and benchmark.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: Vec<PlanFile>,
    /// Directory mode: the files are runs of different benchmarks, each
    /// its own section.
    pub directories: bool,
}

/// The chosen states of one input file (of every run of it).
#[derive(Debug)]
pub struct PlanFile {
    /// The file's name in the directories (directory mode).
    pub name: String,
    pub benchmarks: Vec<PlanBench>,
}

/// A benchmark: its axes as the file defines them, and the chosen states.
#[derive(Debug, Clone)]
pub struct PlanBench {
    pub name: String,
    /// `None` when the file lists none.
    pub axes: Option<Vec<PlanAxis>>,
    pub states: Vec<PlanState>,
}

/// An axis of a benchmark: its NVBench type (`int64`, `float64`,
/// `string`, `type`) and flags (`pow2`).
#[derive(Debug, Clone, PartialEq)]
pub struct PlanAxis {
    pub name: String,
    pub kind: String,
    pub flags: String,
}

impl PlanAxis {
    pub fn is_pow2(&self) -> bool {
        self.flags == "pow2"
    }
}

/// A chosen state.
#[derive(Debug, Clone)]
pub struct PlanState {
    /// How comments name it (its key: the name without the device).
    pub key: String,
    /// The reference's and the compare run's device.
    pub devices: (i64, i64),
    pub values: Vec<PlanValue>,
    /// The file holds the state more than once.
    pub repeated: bool,
    /// Google Benchmark: the run names of the state in every run.
    pub run_names: Vec<String>,
}

/// An axis value of a state, as the file writes it.
#[derive(Debug, Clone)]
pub struct PlanValue {
    pub name: String,
    pub value: Option<Scalar>,
}

/// What the comments name: the plan file, the runs compared (baseline
/// first) and the statuses chosen.
pub struct PlanContext<'a> {
    pub plan_path: &'a str,
    pub sides: Vec<&'a [String]>,
    pub statuses: &'a [Status],
}

/// The plan's text and its counts, for the messages.
#[derive(Debug, PartialEq)]
pub struct Rendered {
    pub text: String,
    pub chosen: usize,
    pub left_out: usize,
}

/// The arguments of one file's section, and what they leave out.
struct Section {
    lines: Vec<String>,
    planned: usize,
    instances: usize,
    left_out: Vec<(String, String)>,
    gbench: bool,
}

fn section(file: &PlanFile) -> Section {
    let states = || file.benchmarks.iter().flat_map(|b| &b.states);
    if states().any(|s| !s.run_names.is_empty()) {
        let filter = gbench::filter(&file.benchmarks);
        // Run names name the states themselves.
        return Section {
            instances: usize::from(filter.line.is_some()),
            lines: filter.line.into_iter().collect(),
            planned: filter.planned,
            left_out: filter.left_out,
            gbench: true,
        };
    }
    let mut out = Section {
        lines: Vec::new(),
        planned: 0,
        instances: 0,
        left_out: Vec::new(),
        gbench: false,
    };
    for bench in &file.benchmarks {
        let arguments = nvbench::benchmark_arguments(bench);
        out.lines.extend(arguments.lines);
        out.planned += arguments.planned;
        out.instances += arguments.instances;
        let named = arguments.left_out.into_iter();
        out.left_out
            .extend(named.map(|(key, why)| (format!("{} {key}", bench.name), why)));
    }
    out
}

/// The plan's text: the comments, then each file's arguments.
pub fn render_plan(plan: &Plan, context: &PlanContext) -> Rendered {
    let sections: Vec<Section> = plan.files.iter().map(section).collect();
    let chosen = plan
        .files
        .iter()
        .flat_map(|f| &f.benchmarks)
        .map(|b| b.states.len())
        .sum();
    let mut comments = header(plan, &sections, context, chosen);
    let left_out: usize = sections.iter().map(|s| s.left_out.len()).sum();
    let mut body: Vec<String> = Vec::new();
    if plan.files.is_empty() {
        comments.extend(wrap(&format!(
            "No state is {}: there is nothing to re-measure. The one argument below, which no benchmark accepts, makes a run with this plan fail instead of re-measuring every state.",
            status_names(context.statuses)
        )));
        body.push(NOTHING_TO_RUN.to_string());
    }
    for (file, section) in plan.files.iter().zip(&sections) {
        if plan.directories {
            body.push(format!("# file: {}", printable(&file.name)));
        }
        if !section.left_out.is_empty() {
            body.extend(left_out_comments(section));
        }
        if section.lines.is_empty() {
            body.push(
                "# No chosen state of this file can be named; the argument below makes a run fail instead of re-measuring every state."
                    .to_string(),
            );
            body.push(NOTHING_TO_RUN.to_string());
        }
        body.extend(section.lines.iter().cloned());
    }
    let mut text = String::new();
    for line in comments {
        text.push_str(if line.is_empty() { "#" } else { "# " });
        text.push_str(&line);
        text.push('\n');
    }
    for line in body {
        text.push_str(&line);
        text.push('\n');
    }
    Rendered {
        text,
        chosen,
        left_out,
    }
}

fn left_out_comments(section: &Section) -> Vec<String> {
    let mut lines = vec![format!(
        "# Left out, {} state(s) the {} cannot name exactly (re-run them by hand):",
        section.left_out.len(),
        if section.gbench {
            "filter"
        } else {
            "command line"
        }
    )];
    for (state, why) in &section.left_out {
        lines.push(format!("#   {}: {why}", printable(state)));
    }
    lines
}

/// `AMBG`, `AMBG or SLOW`, `AMBG, SLOW or FAST`.
fn status_names(statuses: &[Status]) -> String {
    let labels: Vec<&str> = statuses.iter().map(|s| s.label()).collect();
    match labels.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The comment lines before the arguments (without their `# `).
fn header(plan: &Plan, sections: &[Section], context: &PlanContext, chosen: usize) -> Vec<String> {
    let gbench = !sections.is_empty() && sections.iter().all(|s| s.gbench);
    let nvbench = sections.iter().all(|s| !s.gbench);
    let kind = match (nvbench, gbench) {
        (true, _) => "NVBench arguments",
        (_, true) => "Google Benchmark arguments",
        _ => "benchmark arguments",
    };
    let planned: usize = sections.iter().map(|s| s.planned).sum();
    let instances: usize = sections.iter().map(|s| s.instances).sum();
    let left_out = chosen - planned;
    let compared = compared_sides(&context.sides);
    let count = match left_out {
        0 => format!("the {chosen}"),
        _ => format!("{planned} of the {chosen}"),
    };
    let instances = match nvbench {
        true => format!(" ({instances} benchmark instance(s))"),
        false => String::new(),
    };
    let left_out = match left_out {
        0 => String::new(),
        n => format!("; {n} left out, listed with the reason"),
    };
    let mut out = wrap(&format!(
        "nvbench-compare --rerun-plan: {kind}, one a line, that re-measure exactly {count} {} state(s) of {compared}{instances}{left_out}.",
        status_names(context.statuses),
    ));
    if chosen == 0 {
        return out;
    }
    out.extend(usage(plan, context, gbench, nvbench));
    if context.statuses == [Status::Undecided] {
        out.extend(wrap(
            "A single run's FAST and SLOW rest on one process a side too: where processes drift, --rerun-plan-statuses ambg,slow,fast re-measures them as well (docs/repetitions.md).",
        ));
    }
    if sections.iter().any(names_a_benchmark_twice) {
        out.extend(wrap(
            "A benchmark whose chosen states form no Cartesian product of its devices and axis values is named once per product of chosen states: -b starts an instance of it, and -d and -a after it set that instance's devices and axis values.",
        ));
    }
    out
}

/// Some benchmark of the section is named by more than one `-b`.
fn names_a_benchmark_twice(section: &Section) -> bool {
    let mut seen = std::collections::HashSet::new();
    let names = section.lines.windows(2).filter(|pair| pair[0] == "-b");
    !section.gbench && names.map(|pair| &pair[1]).any(|name| !seen.insert(name))
}

/// `ref.json vs cmp.json`; a side of several runs by its first and count.
fn compared_sides(sides: &[&[String]]) -> String {
    let side = |paths: &[String]| match paths {
        [one] => printable(one).into_owned(),
        [first, rest @ ..] => format!("{} (+{} run(s))", printable(first), rest.len()),
        [] => String::new(),
    };
    let (baseline, candidates) = sides.split_first().expect("a comparison has sides");
    let candidates: Vec<String> = candidates.iter().map(|c| side(c)).collect();
    match candidates.len() {
        1 => format!("{} vs {}", side(baseline), candidates[0]),
        _ => format!("{} vs any of {}", side(baseline), candidates.join(", ")),
    }
}

/// How to read the arguments, re-run and compare again.
fn usage(plan: &Plan, context: &PlanContext, gbench: bool, nvbench: bool) -> Vec<String> {
    let plan_file = shell_word(context.plan_path);
    let mut out = vec!["Lines starting with '#' are comments. Read the arguments with".to_string()];
    if plan.directories {
        out.pop();
        out.extend(wrap(
            "The plan has a section for each file, from its line '# file: NAME' to the next; lines starting with '#' are comments. Read the arguments of file NAME with",
        ));
        out.push(format!(
            "  mapfile -t args < <(NAME=file.json awk '$0 == \"# file: \" ENVIRON[\"NAME\"] {{on = 1; next}} /^# file: / {{on = 0}} on && !/^#/' {plan_file})"
        ));
    } else {
        out.push(format!("  mapfile -t args < <(grep -v '^#' {plan_file})"));
    }
    let options = match (nvbench, gbench) {
        (true, _) => {
            "options of the original runs go before \"${args[@]}\": after a -b they would apply to that instance only"
        }
        (_, true) => "with the options of the original runs, e.g. --benchmark_repetitions",
        _ => "options of the original runs before \"${args[@]}\"",
    };
    out.extend(wrap(&format!(
        "and run each build twice with them, in separate processes, alternating the builds ({options}):"
    )));
    let names = rerun_names(context.sides.len());
    let output = |name: &str| match (gbench, nvbench) {
        (true, _) => format!("--benchmark_out={name}"),
        (_, true) => format!("--jsonbin {name}"),
        _ => format!("--jsonbin {name} (Google Benchmark: --benchmark_out={name})"),
    };
    for run in 0..2 {
        for (side, names) in names.iter().enumerate() {
            let name = if plan.directories {
                format!("{}/file.json", names[run])
            } else {
                format!("{}.json", names[run])
            };
            out.push(format!(
                "  ./bench_{} \"${{args[@]}}\" {}",
                bench_name(side, context.sides.len()),
                output(&name)
            ));
        }
    }
    out.extend(wrap(
        "Then compare again, each side's reruns after its runs (each state is decided on the runs that hold it):",
    ));
    let mut command = String::from("  nvbench-compare");
    for (side, (paths, names)) in context.sides.iter().zip(&names).enumerate() {
        if side > 0 {
            command.push_str(" --vs");
        }
        for path in paths.iter() {
            command.push(' ');
            command.push_str(&shell_word(path));
        }
        for name in names {
            command.push(' ');
            command.push_str(name);
            if !plan.directories {
                command.push_str(".json");
            }
        }
    }
    out.push(command);
    out
}

/// The reruns of each side: `r1 r2`, `c1 c2` (N-way: `c1-1 c1-2`, ...).
fn rerun_names(sides: usize) -> Vec<[String; 2]> {
    (0..sides)
        .map(|side| match (side, sides) {
            (0, _) => ["r1".to_string(), "r2".to_string()],
            (_, 2) => ["c1".to_string(), "c2".to_string()],
            _ => [format!("c{side}-1"), format!("c{side}-2")],
        })
        .collect()
}

fn bench_name(side: usize, sides: usize) -> String {
    match (side, sides) {
        (0, _) => "reference".to_string(),
        (_, 2) => "compare".to_string(),
        _ => format!("candidate{side}"),
    }
}

/// A path as one shell word: as it is when it holds only characters no
/// shell treats specially, else single-quoted; on one line.
fn shell_word(path: &str) -> String {
    let path = printable(path);
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./:=+,@%-".contains(c);
    if !path.is_empty() && path.chars().all(plain) {
        return path.into_owned();
    }
    format!("'{}'", path.replace('\'', "'\\''"))
}

/// Prose on lines of at most 78 characters (a longer word on its own).
fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > 78 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
