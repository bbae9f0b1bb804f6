//! The example pair of testdata/examples: the README's first command shows
//! every status for the reason the generator built in, `--plot-along
//! "Elements{io}"` draws it, its rerun plan re-measures the two AMBG
//! states, the reruns made with it merge with the full runs, and the
//! committed files are what testdata/examples/make_example.py writes
//! (the reruns by running the committed plan's arguments).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Need, Scratch, files_under, project, require, root, run};

fn examples() -> PathBuf {
    project("testdata/examples")
}

/// The arguments of the README's first `cargo run --release -- ...` command.
fn readme_first_command() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find_map(|line| line.trim().strip_prefix("cargo run --release -- "))
        .expect("the README has a `cargo run --release -- ...` command");
    line.split_whitespace().map(String::from).collect()
}

fn without_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI sequences end with a letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// (device, T, Elements{io}) -> (Change, Status) of every table row.
fn rows(table: &str) -> BTreeMap<(String, String, String), (String, String)> {
    let mut device = String::new();
    let mut found = BTreeMap::new();
    for line in table.lines() {
        if let Some(heading) = line.strip_prefix("## [") {
            device = heading.split(']').next().unwrap().to_string();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() == 8 && cells[1] != "T" && !cells[1].starts_with('-') {
            let key = (device.clone(), cells[1].to_string(), cells[2].to_string());
            found.insert(key, (cells[5].to_string(), cells[6].to_string()));
        }
    }
    found
}

/// The status the generator designed for a state (see make_example.py).
fn designed_status(device: &str, type_name: &str, elements: &str) -> &'static str {
    let exponent: u32 = elements.strip_prefix("2^").unwrap().parse().unwrap();
    match (device, type_name, exponent) {
        ("0", "F32", 18) | ("1", "F32", 24) => "AMBG",
        ("1", "F64", 26) => "????",
        ("1", "F64", e) if e >= 22 => "SLOW",
        (_, "I8" | "I16", e) if e >= 22 => "FAST",
        _ => "SAME",
    }
}

#[test]
fn readme_first_command_shows_every_status_where_the_example_puts_it() {
    let args = readme_first_command();
    assert!(
        args.iter().any(|a| a.starts_with("testdata/examples/")),
        "{args:?}"
    );
    let output = run(root(), &args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = without_ansi(&String::from_utf8(output.stdout).unwrap());
    let rows = rows(&stdout);
    assert_eq!(rows.len(), 48, "{stdout}");
    let statuses: Vec<&str> = rows.values().map(|(_, status)| status.as_str()).collect();
    for status in ["SAME", "FAST", "SLOW", "AMBG", "????"] {
        assert!(statuses.contains(&status), "no {status} row:\n{stdout}");
    }
    for ((device, type_name, elements), (change, status)) in &rows {
        let designed = designed_status(device, type_name, elements);
        assert_eq!(
            status, designed,
            "device {device}, T={type_name}, Elements{{io}}={elements}"
        );
        // FAST and SLOW rows show their change; no other row does.
        let sign = match designed {
            "FAST" => "<= -",
            "SLOW" => ">= +",
            _ => "",
        };
        assert_eq!(change.is_empty(), sign.is_empty(), "{change:?}");
        assert!(change.starts_with(sign), "{status} with change {change:?}");
    }
    assert!(stdout.contains("bulk_time_support_mismatch: 1"), "{stdout}");
    assert!(
        stdout.contains("bulk_cycle_gap_not_confirmed: 1"),
        "{stdout}"
    );
}

/// Width, height and RGB(A) pixels of a PNG file.
fn decode_png(path: &Path) -> (u32, u32, usize, Vec<u8>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(frame.buffer_size());
    let channels = frame.color_type.samples();
    (frame.width, frame.height, channels, pixels)
}

/// Pixels whose channels differ clearly: neither gray, black nor white.
fn colored_pixels(channels: usize, pixels: &[u8]) -> usize {
    pixels
        .chunks(channels)
        .filter(|p| {
            let (lo, hi) = (p[..3].iter().min().unwrap(), p[..3].iter().max().unwrap());
            hi - lo > 60
        })
        .count()
}

#[test]
fn plot_along_elements_draws_a_colored_chart_per_device_without_a_benchmark_filter() {
    let dir = Scratch::new("example-along");
    let example = examples();
    let args: Vec<String> = [
        "--plot-along".to_string(),
        "Elements{io}".to_string(),
        example.join("reference.json").display().to_string(),
        example.join("compare.json").display().to_string(),
    ]
    .to_vec();
    let output = run(&dir, &args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    for device in ["0", "1"] {
        let chart = dir.join(format!(
            "nvbench_compare-copy_type_sweep-Elements_io-{device}.png"
        ));
        let (width, height, channels, pixels) = decode_png(&chart);
        assert!(width >= 400 && height >= 300, "{width}x{height}");
        // Eight series (four types, compare and reference) in color.
        let colored = colored_pixels(channels, &pixels);
        assert!(
            colored * 200 > (width * height) as usize,
            "{}: only {colored} colored pixels",
            chart.display()
        );
    }
}

/// The example's data files (everything but the generator and the rerun
/// plan, which nvbench-compare writes), relative to `dir`.
fn data_files(dir: &Path) -> Vec<PathBuf> {
    let mut relative: Vec<PathBuf> = files_under(dir, &|_| false)
        .into_iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_path_buf())
        .filter(|p| p.extension().is_none_or(|e| e != "py"))
        .filter(|p| p != Path::new(PLAN))
        .collect();
    relative.sort();
    relative
}

#[test]
fn committed_example_is_what_the_generator_writes() {
    if !require(Need::Python3) {
        return;
    }
    let dir = Scratch::new("example-generated");
    let generated = Command::new("python3")
        .arg(examples().join("make_example.py"))
        .arg("--out")
        .arg(&*dir)
        .output()
        .unwrap();
    assert!(generated.status.success(), "{generated:?}");
    let committed = data_files(&examples());
    assert_eq!(committed, data_files(&dir));
    assert!(committed.len() > 100, "{} files", committed.len());
    for relative in &committed {
        assert!(
            std::fs::read(examples().join(relative)).unwrap()
                == std::fs::read(dir.join(relative)).unwrap(),
            "{} differs from what make_example.py writes",
            relative.display()
        );
    }
}

/// The rerun plan of the example, as `--rerun-plan rerun-plan.txt` writes it.
const PLAN: &str = "rerun-plan.txt";

#[test]
fn the_rerun_plan_re_measures_exactly_the_two_ambg_states() {
    let dir = Scratch::new("example-plan");
    for name in ["reference", "compare"] {
        for suffix in [".json", ".json-bin", ".json-freqs-bin"] {
            let from = examples().join(format!("{name}{suffix}"));
            if from.is_dir() {
                crate::util::copy_dir(&from, &dir.join(format!("{name}{suffix}")));
            } else {
                std::fs::copy(&from, dir.join(format!("{name}{suffix}"))).unwrap();
            }
        }
    }
    let output = run(
        &dir,
        &["--rerun-plan", PLAN, "reference.json", "compare.json"],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let written = std::fs::read_to_string(dir.join(PLAN)).unwrap();
    let committed = std::fs::read_to_string(examples().join(PLAN)).unwrap();
    assert_eq!(
        written, committed,
        "the committed plan is not what the tool writes"
    );
    assert!(
        written.starts_with("# nvbench-compare --rerun-plan: NVBench arguments, one a line, that re-measure\n# exactly the 2 AMBG state(s) of reference.json vs compare.json"),
        "{written}"
    );
    let arguments: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    let instance = |device: &str, exponent: &str| {
        [
            "-b".to_string(),
            "copy_type_sweep".to_string(),
            "-d".to_string(),
            device.to_string(),
            "-a".to_string(),
            "T=F32".to_string(),
            "-a".to_string(),
            format!("Elements{{io}}[pow2]={exponent}"),
        ]
    };
    let expected: Vec<String> = instance("0", "18")
        .into_iter()
        .chain(instance("1", "24"))
        .collect();
    assert_eq!(arguments, expected);
    // Without the option, a hint on stderr names it; stdout is unchanged.
    let plain = run(&dir, &["reference.json", "compare.json"]);
    assert_eq!(plain.stdout, output.stdout);
    let hint = String::from_utf8(plain.stderr).unwrap();
    assert!(
        hint.contains("hint: 2 state(s) are AMBG: --rerun-plan PATH writes the benchmark arguments that re-measure only them"),
        "{hint}"
    );
    assert!(!String::from_utf8(output.stderr).unwrap().contains("hint"));
    // The robust command stands in for NVBench's script: no hint of ours.
    let robust = run(
        &dir,
        &["--personality=robust", "reference.json", "compare.json"],
    );
    assert_eq!(robust.status.code(), Some(0), "{robust:?}");
    assert!(
        !String::from_utf8(robust.stderr)
            .unwrap()
            .contains("--rerun-plan")
    );
}

/// (device, T, Elements{io}) -> (Ref Reps, Cmp Reps, Status) of every row
/// of a repetition table.
fn repetition_rows(table: &str) -> BTreeMap<(String, String, String), (String, String, String)> {
    let mut device = String::new();
    let mut found = BTreeMap::new();
    for line in table.lines() {
        if let Some(heading) = line.strip_prefix("## [") {
            device = heading.split(']').next().unwrap().to_string();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() == 15 && cells[1] != "T" && !cells[1].starts_with('-') {
            let key = (device.clone(), cells[1].to_string(), cells[2].to_string());
            let value = (
                cells[11].to_string(),
                cells[12].to_string(),
                cells[13].to_string(),
            );
            found.insert(key, value);
        }
    }
    found
}

#[test]
fn reruns_of_the_plan_merge_with_the_full_runs_state_by_state() {
    let args = [
        "--no-color",
        "reference.json",
        "r1.json",
        "r2.json",
        "--vs",
        "compare.json",
        "c1.json",
        "c2.json",
    ];
    let output = run(examples(), &args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let rows = repetition_rows(&stdout);
    assert_eq!(rows.len(), 48, "{stdout}");
    for ((device, type_name, elements), (ref_reps, cmp_reps, status)) in &rows {
        let replanned = matches!(
            (device.as_str(), type_name.as_str(), elements.as_str()),
            ("0", "F32", "2^18") | ("1", "F32", "2^24")
        );
        let reps = if replanned { "3" } else { "1 of 3" };
        assert_eq!(
            (ref_reps.as_str(), cmp_reps.as_str()),
            (reps, reps),
            "{device} {type_name} {elements}"
        );
        // A state of one run a side keeps the single-run decision.
        if !replanned {
            let designed = designed_status(device, type_name, elements);
            assert!(
                status.ends_with(designed),
                "{device} {type_name} {elements}: {status}"
            );
        }
    }
    assert!(stdout.contains("- Total Matches: 48\n"), "{stdout}");
    assert!(
        stdout.contains("Note: 46 state(s) are missing from some runs and were merged from the runs that have them (see Reps).\n"),
        "{stdout}"
    );
    // The markdown summary says on how many runs each state was decided.
    let dir = Scratch::new("example-reruns-markdown");
    let summary = dir.join("summary.md");
    let mut with_summary: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    with_summary.extend([
        "--markdown-summary".to_string(),
        summary.display().to_string(),
    ]);
    let output = run(examples(), &with_summary);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(
        markdown.contains("| Change | Runs | Reason |"),
        "{markdown}"
    );
    assert_eq!(markdown.matches(" | 3 / 3 | ").count(), 2, "{markdown}");
    assert_eq!(
        markdown.matches(" | 1 of 3 / 1 of 3 | ").count(),
        46,
        "{markdown}"
    );
}

/// `--plot` keeps the example's `????` state (the L4's F64 2^26, whose
/// compare run has no usable time) as a row without a bar, marked `n/a`,
/// so that the chart has a row for each of the 48 states.
#[test]
fn plot_keeps_the_row_without_a_change_as_a_marked_gap() {
    let dir = Scratch::new("example-plot-gap");
    let example = examples();
    let args: Vec<String> = vec![
        "--plot".to_string(),
        "--plot-output".to_string(),
        "summary.svg".to_string(),
        example.join("reference.json").display().to_string(),
        example.join("compare.json").display().to_string(),
    ];
    let output = run(&dir, &args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let svg = std::fs::read_to_string(dir.join("summary.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    let rows = texts.iter().filter(|t| t.starts_with("T=")).count();
    assert_eq!(rows, 48, "{texts:?}");
    assert!(
        texts.contains(&"T=F64 Elements{io}=2^26 | device 1: NVIDIA L4"),
        "{texts:?}"
    );
    assert_eq!(
        texts.iter().filter(|t| **t == "n/a").count(),
        1,
        "{texts:?}"
    );
}
