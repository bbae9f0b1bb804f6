//! Hostile and unlucky inputs: names that try to inject code or
//! markup, outputs that would overwrite inputs, and inputs the reference
//! reads that must read the same here. Inputs are built by the tests.
//!
//! Each input is compared in every way the two sides can be given (see
//! [`Mode`]): a pair of files, two directories, and repetition mode with
//! one and with two runs a side. What is printed escaped, refused or read
//! in one mode is so in all of them.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::util::{
    BIN, Bench, Doc, Need, Scratch, State, Times, copy_dir, entries, plain_env, project, require,
    root, run, stderr, stdout,
};

/// A state `S=value` of 1 ms with 1 % noise and a 1.5 GHz clock.
fn state(value: &str) -> State {
    let times = Times::around(1.0e-3, [0.99, 0.99, 1.01])
        .max(1.0e-3 * 1.02)
        .iqr(0.01)
        .clock(1.5e9);
    State::on(0).at("S", value).times(times)
}

/// A benchmark `name` with a string axis `S` and the one state `state`.
fn bench(name: &str, state: State) -> Bench {
    Bench::new(name).axis("S", "string").state(state)
}

/// One document whose benchmarks are `(benchmark name, axis value)`, all on
/// one device named `device`, each with one state.
fn document(benchmarks: &[(&str, &str)], device: &str) -> Value {
    let mut doc = Doc::new().device(0, device);
    for (name, value) in benchmarks {
        doc = doc.bench(bench(name, state(value)));
    }
    doc.json()
}

// ---------------------------------------------------------------------------
// The modes
// ---------------------------------------------------------------------------

/// How the two sides are given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// `ref.json cmp.json`.
    Pair,
    /// `ref cmp`: two directories holding a file of the same name.
    Directories,
    /// `ref.json --vs cmp.json`: repetition mode, one run a side.
    Repetition,
    /// `ref.json run2/ref.json --vs cmp.json run2/cmp.json`: two runs a
    /// side, the second a copy of the first.
    Repetitions,
}

const MODES: [Mode; 4] = [
    Mode::Pair,
    Mode::Directories,
    Mode::Repetition,
    Mode::Repetitions,
];

/// A document to compare: its file name and JSON text.
type File<'a> = (&'a str, &'a str);

/// The inputs of a comparison as a mode lays them out.
struct Inputs {
    /// The paths to give, in order (`--vs` included).
    args: Vec<String>,
    /// The (first) reference and compare file, as the tool names them.
    reference: String,
    compare: String,
    /// The documents, each once, in the order of the arguments.
    documents: Vec<String>,
    /// Every file written, sidecars included.
    files: Vec<String>,
}

impl Inputs {
    /// `options`, then the inputs.
    fn after(&self, options: &[&str]) -> Vec<String> {
        let options = options.iter().map(|o| o.to_string());
        options.chain(self.args.iter().cloned()).collect()
    }

    /// The directory of the compare file, as a prefix (`""` or `cmp/`).
    fn compare_dir(&self) -> String {
        dir_prefix(&self.compare)
    }
}

/// The directory of `path` as a prefix of a path beside it (`""`, `cmp/`).
fn dir_prefix(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/"),
        None => String::new(),
    }
}

impl Mode {
    /// Writes `reference` and `compare` (`None`: the reference file itself,
    /// a file compared with itself) in `scratch` as the mode reads them,
    /// with the `sidecars` (path relative to the document, bytes) beside
    /// every compare document. Directories hold the files as `run.json`.
    fn inputs(
        self,
        scratch: &Scratch,
        reference: File,
        compare: Option<File>,
        sidecars: &[(&str, &[u8])],
    ) -> Inputs {
        let mut files = Vec::new();
        let mut documents = Vec::new();
        let mut write = |dir: &str, (name, text): File, compared: bool| -> String {
            let at = |name: &str| match dir {
                "" => name.to_string(),
                dir => format!("{dir}/{name}"),
            };
            if compared {
                for (sidecar, bytes) in sidecars {
                    scratch.write(at(sidecar), bytes);
                    files.push(at(sidecar));
                }
            }
            scratch.write(at(name), text);
            files.push(at(name));
            documents.push(at(name));
            at(name)
        };
        let itself = compare.is_none();
        let (r, c, reference, compare) = match self {
            Mode::Directories => (
                "ref",
                if itself { "ref" } else { "cmp" },
                ("run.json", reference.1),
                compare.map(|(_, text)| ("run.json", text)),
            ),
            _ => ("", "", reference, compare),
        };
        let reference_path = write(r, reference, itself);
        let compare_path = match compare {
            Some(file) => write(c, file, true),
            None => reference_path.clone(),
        };
        let args = match self {
            Mode::Pair => vec![reference_path.clone(), compare_path.clone()],
            Mode::Directories => vec![r.to_string(), c.to_string()],
            Mode::Repetition => vec![reference_path.clone(), "--vs".into(), compare_path.clone()],
            Mode::Repetitions => {
                let second_reference = write("run2", reference, itself);
                let second_compare = match compare {
                    Some(file) => write("run2", file, true),
                    None => second_reference.clone(),
                };
                vec![
                    reference_path.clone(),
                    second_reference,
                    "--vs".into(),
                    compare_path.clone(),
                    second_compare,
                ]
            }
        };
        files.sort();
        files.dedup();
        Inputs {
            args,
            reference: reference_path,
            compare: compare_path,
            documents,
            files,
        }
    }

    /// `reference` and `compare` as `ref.json` and `cmp.json`, no sidecars.
    fn pair(self, scratch: &Scratch, reference: &str, compare: &str) -> Inputs {
        self.inputs(
            scratch,
            ("ref.json", reference),
            Some(("cmp.json", compare)),
            &[],
        )
    }

    /// `doc` as `ref.json`, compared with itself (in directories: `ref ref`).
    fn itself(self, scratch: &Scratch, doc: &str) -> Inputs {
        self.inputs(scratch, ("ref.json", doc), None, &[])
    }

    /// How the tool says that the device sections of the two sides differ.
    fn device_mismatch(self) -> &'static str {
        match self {
            Mode::Pair | Mode::Directories => "Device sections do not match: ",
            // Repetition mode says which runs differ.
            Mode::Repetition | Mode::Repetitions => {
                "Device sections do not match (reference and compare): "
            }
        }
    }
}

/// Stderr without the warnings `--vs` gives about its runs (one run a side
/// is the single-run rule, two the tests' few degrees of freedom; the
/// second runs here are copies of the first), which the repetition modes
/// here always print.
fn without_run_count_warning(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with("nvbench-compare: warning: --vs with "))
        .filter(|l| !l.contains(" hold the same bytes: one run copied?"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Runs the binary in `scratch` with `options` and the inputs.
fn run_on(scratch: &Scratch, options: &[&str], inputs: &Inputs) -> Output {
    run(scratch, &inputs.after(options))
}

/// Runs the binary as [`run_on`] does; it must exit with `code`.
#[track_caller]
fn exits(scratch: &Scratch, options: &[&str], inputs: &Inputs, code: i32) -> Output {
    let args = inputs.after(options);
    let output = run(scratch, &args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}: {}",
        stderr(&output)
    );
    output
}

// ---------------------------------------------------------------------------
// No code through `sed | python`
// ---------------------------------------------------------------------------

/// Python that creates the file `ran` when executed.
const PAYLOAD: &str = "open('ran', 'w').write('injected')";

/// `(benchmark name, axis value)` of each benchmark of a document.
type Benchmarks<'a> = Vec<(&'a str, &'a str)>;

/// The same document with hostile names on both sides.
fn hostile_pair(
    mode: Mode,
    scratch: &Scratch,
    benchmarks: &[(&str, &str)],
    device: &str,
) -> Inputs {
    let doc = document(benchmarks, device).to_string();
    mode.pair(scratch, &doc, &doc)
}

/// Runs the spec's documented workflow, its `sed` filter verbatim, into
/// python3 and returns the filtered block (or `None` without python3 and
/// numpy); asserts that the block is valid Python and nothing else ran.
fn run_documented_workflow(scratch: &Scratch, inputs: &Inputs) -> Option<String> {
    if !require(Need::Numpy) {
        return None;
    }
    let _ = std::fs::remove_file(scratch.join("ran"));
    let python = plain_env(&mut Command::new("bash"))
        .arg("-c")
        .arg(
            "\"$0\" --bulk-debug-python stdout \"$@\" \
             | sed -n '/^# NVB-BULK-BEGIN$/,/^# NVB-BULK-END$/p' > block.py \
             && python3 block.py",
        )
        .arg(BIN)
        .args(&inputs.args)
        .current_dir(scratch)
        .output()
        .unwrap();
    let stderr = stderr(&python);
    assert!(!scratch.join("ran").exists(), "code from a name ran");
    assert!(
        python.status.success(),
        "the block is not valid Python: {stderr}"
    );
    let block = std::fs::read_to_string(scratch.join("block.py")).unwrap();
    assert!(
        block.starts_with("# NVB-BULK-BEGIN\n# Generated by"),
        "{block}"
    );
    assert!(block.ends_with("# NVB-BULK-END\n"), "{block}");
    Some(block)
}

/// Only the generated block's own markers are marker lines on stdout, and
/// no raw line break or other control character comes from a name.
fn assert_one_block(scratch: &Scratch, options: &[&str], inputs: &Inputs) -> String {
    let output = exits(scratch, options, inputs, 0);
    let stdout = stdout(&output);
    let lines: Vec<&str> = stdout.split('\n').collect();
    let count = |marker: &str| lines.iter().filter(|l| **l == marker).count();
    assert_eq!(count("# NVB-BULK-BEGIN"), 1, "{stdout}");
    assert_eq!(count("# NVB-BULK-END"), 1, "{stdout}");
    assert!(
        !stdout.contains(['\r', '\x0b', '\x0c', '\u{85}']),
        "{stdout}"
    );
    stdout
}

/// A name holding its own marker lines around code: the reference prints
/// it raw, and the filter passes that code to Python as a block of its own.
#[test]
fn names_cannot_inject_code_through_the_documented_sed_filter() {
    let smuggled = format!("x\n# NVB-BULK-BEGIN\n{PAYLOAD}\n# NVB-BULK-END\n");
    let cases: [(&str, Benchmarks, &str); 3] = [
        ("benchmark", vec![(&smuggled, "v")], "GPU"),
        ("device", vec![("bench", "v")], &smuggled),
        ("axis-value", vec![("bench", &smuggled)], "GPU"),
    ];
    for mode in MODES {
        for (case, benchmarks, device) in &cases {
            let scratch = Scratch::new(&format!("hostile-inject-{case}"));
            let inputs = hostile_pair(mode, &scratch, benchmarks, device);
            let stdout = assert_one_block(&scratch, &["--bulk-debug-python", "stdout"], &inputs);
            assert!(
                stdout.contains("x\\n# NVB-BULK-BEGIN\\nopen("),
                "{mode:?} {case}: {stdout}"
            );
            run_documented_workflow(&scratch, &inputs);
        }
    }
}

/// A benchmark named like a marker would start the filtered range at its
/// heading (and the tables after it are not Python); its heading is
/// escaped instead. CR line ends do not make marker lines either.
#[test]
fn marker_named_benchmarks_do_not_open_or_close_the_block() {
    let cr = format!("y\r\n# NVB-BULK-BEGIN\r\n{PAYLOAD}\r\n# NVB-BULK-END\r");
    for mode in MODES {
        let scratch = Scratch::new("hostile-marker-names");
        let inputs = hostile_pair(
            mode,
            &scratch,
            &[("NVB-BULK-BEGIN", "a"), ("NVB-BULK-END", "b"), (&cr, "c")],
            "GPU",
        );
        let options = ["--no-color", "--bulk-debug-python", "stdout"];
        let stdout = assert_one_block(&scratch, &options, &inputs);
        assert!(
            stdout.starts_with("# \\u{4e}VB-BULK-BEGIN\n"),
            "{mode:?}: {stdout}"
        );
        assert!(
            stdout.contains("\n# \\u{4e}VB-BULK-END\n"),
            "{mode:?}: {stdout}"
        );
        assert!(
            stdout.contains("# y\\r\\n# NVB-BULK-BEGIN\\r\\n"),
            "{mode:?}: {stdout}"
        );
        let block = run_documented_workflow(&scratch, &inputs);
        // The names themselves are kept exactly in the generated Python.
        if let Some(block) = block {
            assert!(
                block.contains("'benchmark': 'NVB-BULK-BEGIN'"),
                "{mode:?}: {block}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// No output overwrites an input or another output
// ---------------------------------------------------------------------------

/// A comparison whose compare side advertises the sidecars
/// `cmp.json-bin/0.bin` and `cmp.json-freqs-bin/0.bin` (beside the
/// compare file), and `link.json`, a symlink to the reference file.
fn pair_with_sidecars(mode: Mode, scratch: &Scratch) -> Inputs {
    let reference = document(&[("bench", "v")], "GPU").to_string();
    let with_sidecars = state("v")
        .sidecar(
            "nv/json/bin:nv/cold/sample_times",
            "cmp.json-bin/0.bin",
            "2",
        )
        .sidecar(
            "nv/json/freqs-bin:nv/cold/sample_freqs",
            "cmp.json-freqs-bin/0.bin",
            "2",
        );
    let compare = Doc::new()
        .device(0, "GPU")
        .bench(bench("bench", with_sidecars))
        .text();
    let sidecars: [(&str, &[u8]); 2] = [
        ("cmp.json-bin/0.bin", &[0u8; 8]),
        ("cmp.json-freqs-bin/0.bin", &[0u8; 8]),
    ];
    let inputs = mode.inputs(
        scratch,
        ("ref.json", &reference),
        Some(("cmp.json", &compare)),
        &sidecars,
    );
    std::os::unix::fs::symlink(scratch.join(&inputs.reference), scratch.join("link.json")).unwrap();
    inputs
}

/// Every file output naming an input file, a sidecar (through `..`, `./`
/// or a symlink) or another output: exit 2 before anything is written,
/// both named, every file as it was.
#[test]
fn outputs_never_overwrite_inputs_or_each_other() {
    for mode in MODES {
        let scratch = Scratch::new("hostile-collide");
        let inputs = pair_with_sidecars(mode, &scratch);
        let snapshot = || -> Vec<Vec<u8>> {
            inputs
                .files
                .iter()
                .map(|n| std::fs::read(scratch.join(n)).unwrap())
                .collect()
        };
        let before = snapshot();
        let (r, c, cd) = (&inputs.reference, &inputs.compare, inputs.compare_dir());
        let dotted = format!("./{c}");
        let through_dots = format!("{cd}cmp.json-bin/../cmp.json-bin/0.bin");
        let freqs = format!("{cd}cmp.json-freqs-bin/0.bin");
        let mut cases: Vec<(Vec<&str>, String, String)> = vec![
            (vec!["--json", r], format!("--json {r}"), r.clone()),
            (
                vec!["--markdown-summary", &dotted],
                format!("--markdown-summary {dotted}"),
                c.clone(),
            ),
            (
                vec!["--bulk-debug-python", "link.json"],
                "link.json".into(),
                r.clone(),
            ),
            (
                vec!["--json", &through_dots],
                "--json".into(),
                "0.bin".into(),
            ),
            (vec!["--json", &freqs], "--json".into(), freqs.clone()),
            (
                vec!["--json", "out.json", "--markdown-summary", "./out.json"],
                "--json out.json".into(),
                "--markdown-summary ./out.json".into(),
            ),
            (
                vec!["--bulk-debug-python", "x.py", "--json", "sub/../x.py"],
                "--bulk-debug-python x.py".into(),
                "--json sub/../x.py".into(),
            ),
        ];
        // Charts: repetition mode has none (--plot is a usage error there).
        if matches!(mode, Mode::Pair | Mode::Directories) {
            cases.push((
                vec![
                    "--plot",
                    "--plot-output",
                    "c.svg",
                    "--markdown-summary",
                    "./c.svg",
                ],
                "--plot-output c.svg".into(),
                "--markdown-summary ./c.svg".into(),
            ));
            cases.push((
                vec![
                    "--plot-along",
                    "S",
                    "--plot-along-output",
                    "a.png",
                    "--json",
                    "a.png",
                ],
                "--json a.png".into(),
                "--plot-along-output a.png".into(),
            ));
        }
        // Every input file of the mode (the second runs too).
        for file in &inputs.files {
            cases.push((vec!["--json", file], format!("--json {file}"), file.clone()));
        }
        for (options, first, second) in cases {
            let output = exits(&scratch, &options, &inputs, 2);
            let stderr = stderr(&output);
            assert!(
                stderr.contains(&first) && stderr.contains(&second),
                "{mode:?} {options:?}: {stderr}"
            );
            assert!(
                output.stdout.is_empty(),
                "{mode:?} {options:?}: work was done"
            );
            assert_eq!(snapshot(), before, "{mode:?} {options:?} changed an input");
            assert!(!scratch.join("out.json").exists() && !scratch.join("x.py").exists());
        }
    }
}

// ---------------------------------------------------------------------------
// Atomic writes, a closed stdout
// ---------------------------------------------------------------------------

/// Outputs replace earlier files whole, through symlinks, leaving no
/// temporary file behind; a write that fails leaves the earlier file.
#[test]
fn file_outputs_are_replaced_whole() {
    for mode in MODES {
        let scratch = Scratch::new("hostile-atomic");
        let inputs = hostile_pair(mode, &scratch, &[("bench", "v")], "GPU");
        std::fs::create_dir_all(scratch.join("reports")).unwrap();
        scratch.write("reports/real.md", "earlier summary");
        std::os::unix::fs::symlink("real.md", scratch.join("reports/summary.md")).unwrap();
        scratch.write("reports/report.json", "x".repeat(100_000));
        exits(
            &scratch,
            &[
                "--json",
                "reports/report.json",
                "--markdown-summary",
                "reports/summary.md",
                "--bulk-debug-python",
                "reports/rows.py",
            ],
            &inputs,
            0,
        );
        let dir = scratch.join("reports");
        assert_eq!(
            entries(&dir),
            ["real.md", "report.json", "rows.py", "summary.md"],
            "{mode:?}"
        );
        let summary = std::fs::read_to_string(dir.join("real.md")).unwrap();
        assert!(
            summary.starts_with("## nvbench-compare"),
            "{mode:?}: {summary}"
        );
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(report["summary"]["total"], 1, "{mode:?}");
        // A destination that cannot be replaced (a directory in its place):
        // an error naming it, the other outputs intact.
        std::fs::create_dir_all(scratch.join("reports/blocked.json")).unwrap();
        let failed = exits(&scratch, &["--json", "reports/blocked.json"], &inputs, 1);
        assert!(
            stderr(&failed).contains("blocked.json"),
            "{mode:?}: {}",
            stderr(&failed)
        );
        assert_eq!(
            entries(&dir),
            [
                "blocked.json",
                "real.md",
                "report.json",
                "rows.py",
                "summary.md"
            ],
            "{mode:?}"
        );
    }
}

/// `| head`: the reader goes away at once. The file outputs are written
/// anyway and the run ends quietly with its own exit status.
#[test]
fn a_closed_stdout_still_writes_the_file_outputs() {
    let many: Vec<(String, String)> = (0..300)
        .map(|i| (format!("bench{i}"), "v".to_string()))
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(b, v)| (b.as_str(), v.as_str())).collect();
    for mode in MODES {
        let scratch = Scratch::new("hostile-closed-stdout");
        let inputs = hostile_pair(mode, &scratch, &many, "GPU");
        for gate in [None, Some("slow,missing")] {
            let mut command = crate::util::command(&scratch);
            command.args(["--json", "report.json", "--markdown-summary", "summary.md"]);
            if let Some(gate) = gate {
                command.args(["--fail-on", gate]);
            }
            let mut child = command
                .args(&inputs.args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            drop(child.stdout.take());
            let output = child.wait_with_output().unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "{mode:?}: {}",
                stderr(&output)
            );
            assert_eq!(without_run_count_warning(&stderr(&output)), "", "{mode:?}");
            let report: Value = serde_json::from_str(
                &std::fs::read_to_string(scratch.join("report.json")).unwrap(),
            )
            .unwrap();
            assert_eq!(report["summary"]["total"], 300, "{mode:?}");
            assert!(
                std::fs::read_to_string(scratch.join("summary.md"))
                    .unwrap()
                    .contains("| 300 |"),
                "{mode:?}"
            );
            std::fs::remove_file(scratch.join("report.json")).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------
// Markdown names are inert
// ---------------------------------------------------------------------------

/// `line` without its CommonMark code spans (a run of N backticks up to the
/// next run of exactly N).
fn outside_code_spans(line: &str) -> String {
    let bytes = line.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|b| **b == b'`').count();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            out.push(bytes[i] as char);
            i += 1;
            continue;
        }
        let open = run_at(i);
        let mut j = i + open;
        let close = loop {
            if j >= bytes.len() {
                break None;
            }
            if bytes[j] == b'`' {
                let run = run_at(j);
                if run == open {
                    break Some(j + run);
                }
                j += run;
            } else {
                j += 1;
            }
        };
        match close {
            Some(end) => i = end,
            None => {
                out.push_str(&line[i..]);
                break;
            }
        }
    }
    out
}

/// Names that would make a link, a tracking image, emphasis, HTML, an
/// entity or a mention: in the markdown summary all of it stays inside
/// code spans.
#[test]
fn markdown_names_render_as_literal_text() {
    let hostile = [
        "![pixel](https://tracker.example/p.png)",
        "[click](https://evil.example) **bold** _em_",
        "@octocat <img src=x onerror=alert(1)> &amp; &#64;",
        "ticks `a`` b` | pipe \\| back\\",
        "`edge`",
    ];
    let benchmarks: Vec<(&str, &str)> = hostile.iter().map(|h| (*h, *h)).collect();
    // A benchmark only the compare side has: NEW, in the missing list.
    let mut with_new = benchmarks.clone();
    with_new.push(("new ![x](y) @team", "v"));
    let reference = document(&benchmarks, "GPU").to_string();
    let compare = document(&with_new, "GPU").to_string();
    for mode in MODES {
        let scratch = Scratch::new("hostile-markdown");
        let inputs = mode.pair(&scratch, &reference, &compare);
        let options = ["--report-missing", "--markdown-summary", "summary.md"];
        exits(&scratch, &options, &inputs, 0);
        let markdown = std::fs::read_to_string(scratch.join("summary.md")).unwrap();
        let mut seen = 0;
        // The summary's own markup (`**Gate: ...**`) is allowed; wherever a
        // name appears, nothing of it may be outside a code span.
        let names: Vec<&str> = hostile
            .iter()
            .copied()
            .chain(["new ![x](y) @team"])
            .collect();
        for line in markdown.lines() {
            let carried = names.iter().filter(|h| line.contains(&h[..6])).count();
            if carried == 0 {
                continue;
            }
            let outside = outside_code_spans(line);
            for active in [
                "![", "](", "**", "_em_", "@octo", "@team", "<img", "&amp;", "&#64;",
            ] {
                assert!(
                    !outside.contains(active),
                    "{mode:?}: {active:?} renders in: {line}"
                );
            }
            seen += carried;
        }
        assert!(
            seen >= hostile.len(),
            "{mode:?}: names missing from:\n{markdown}"
        );
        assert!(
            markdown.contains("- `NEW benchmark new ![x](y) @team"),
            "{mode:?}: {markdown}"
        );
    }
    assert!(outside_code_spans("a `b` c ``d`e`` f") == "a  c  f");
}

// ---------------------------------------------------------------------------
// Inputs the reference reads, this tool reads
// ---------------------------------------------------------------------------

fn statuses(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("Status"))
        .map(|l| l.rsplit('|').nth(1).unwrap().trim().to_string())
        .collect()
}

/// `is_skipped` is tested for Python truthiness: empty containers, 0 and
/// "" are false (compared), non-empty containers true (????), as in the
/// reference.
#[test]
fn is_skipped_follows_python_truthiness() {
    let values = [
        json!({}),
        json!([]),
        json!([0]),
        json!({"a": 1}),
        json!(0),
        json!(""),
    ];
    let mut doc = document(&[("bench", "v")], "GPU");
    let state = doc["benchmarks"][0]["states"][0].clone();
    let states: Vec<Value> = values
        .iter()
        .enumerate()
        .map(|(i, skipped)| {
            let mut s = state.clone();
            s["name"] = json!(format!("S={i}"));
            s["axis_values"][0]["value"] = json!(i.to_string());
            s["is_skipped"] = skipped.clone();
            s
        })
        .collect();
    doc["benchmarks"][0]["states"] = json!(states);
    for mode in MODES {
        let scratch = Scratch::new("hostile-skipped");
        let inputs = mode.itself(&scratch, &doc.to_string());
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        let found = statuses(&stdout(&output));
        let expected = [
            "🔵 SAME",
            "🔵 SAME",
            "🟡 ????",
            "🟡 ????",
            "🔵 SAME",
            "🔵 SAME",
        ];
        assert_eq!(found, expected, "{mode:?}: {}", stdout(&output));
    }
}

/// `NaN` / `Infinity` literals, `-0` ids and duplicate keys (the last
/// wins) read as Python's `json` reads them; `meta.version.json.string:
/// null` is a version ("None"), with the reference's warning.
#[test]
fn python_json_extensions_are_read_like_the_reference() {
    let plain = document(&[("bench", "v")], "GPU").to_string();
    // A summary value NaN: the reference cannot build an interval (AMBG).
    let nan = plain.replacen("\"value\":\"9.9e-4\"", "\"value\":NaN", 1);
    assert_ne!(nan, plain, "no summary value to replace");
    let inf = plain.replacen("\"value\":\"1.5e9\"", "\"value\":Infinity", 1);
    assert_ne!(inf, plain);
    // `-0` device ids and a duplicate benchmark name: the last one wins.
    let odd = plain
        .replace("\"id\":0", "\"id\":-0")
        .replace("\"device\":0", "\"device\":-0")
        .replacen(
            "\"name\":\"bench\"",
            "\"name\":\"first\",\"name\":\"bench\"",
            1,
        );
    assert!(odd.contains("\"id\":-0") && odd.contains("\"first\""));
    let null_version = plain.replace("\"string\":\"1.0.0\"", "\"string\":null");
    assert_ne!(null_version, plain);
    for mode in MODES {
        let scratch = Scratch::new("hostile-pyjson");
        let inputs = mode.inputs(&scratch, ("nan.json", &nan), None, &[]);
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        assert_eq!(statuses(&stdout(&output)), ["🤷 AMBG"], "{mode:?}");
        assert!(
            stdout(&output).contains("missing_interval: 1"),
            "{mode:?}: {}",
            stdout(&output)
        );

        // An infinite clock rate: no cycle-space evidence, AMBG in the reference.
        let against_plain = |name: &str, text: &str| {
            mode.inputs(&scratch, (name, text), Some(("plain.json", &plain)), &[])
        };
        let inputs = against_plain("inf.json", &inf);
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        assert_eq!(statuses(&stdout(&output)), ["🤷 AMBG"], "{mode:?}");

        let inputs = against_plain("odd.json", &odd);
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        let text = stdout(&output);
        assert!(
            text.starts_with("# bench\n\n## [0] GPU\n"),
            "{mode:?}: {text}"
        );
        assert_eq!(statuses(&text), ["🔵 SAME"], "{mode:?}");

        let inputs = against_plain("null.json", &null_version);
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        let warning = format!(
            "WARNING:\n  {} was written using a different NVBench JSON file version.\n  It may not read correctly.\n  (file version: None reader version: 1.0.0)\n",
            inputs.reference
        );
        assert!(
            stdout(&output).starts_with(&warning),
            "{mode:?}: {}",
            stdout(&output)
        );
    }
}

// ---------------------------------------------------------------------------
// What the pipeline fuzz target's oracle relies on
// ---------------------------------------------------------------------------

/// The last `--json` wins: `--json - --json FILE` writes the file and
/// prints the tables (the fuzz oracle took any `-` for `--json -`).
#[test]
fn a_later_json_file_overrides_json_to_stdout() {
    for mode in MODES {
        let scratch = Scratch::new("hostile-json-override");
        let inputs = hostile_pair(mode, &scratch, &[("bench", "v")], "GPU");
        let options = ["--json", "-", "--json", "report.json"];
        let output = exits(&scratch, &options, &inputs, 0);
        assert!(stdout(&output).starts_with("# bench\n"), "{mode:?}");
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(scratch.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(report["schema_version"], 1, "{mode:?}");
        let options = ["--json", "report.json", "--json", "-"];
        let output = run_on(&scratch, &options, &inputs);
        let stdout: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(stdout["summary"]["total"], 1, "{mode:?}");
    }
}

// ---------------------------------------------------------------------------
// Directory mode at scale
// ---------------------------------------------------------------------------

/// 200 file pairs: threads are started once per run, not per pair, and the
/// core count is asked once (counted with strace, when it is installed).
#[test]
fn directory_mode_sets_its_threads_up_once() {
    if !require(Need::Strace) {
        return;
    }
    let scratch = Scratch::new("hostile-dirmode");
    let doc = document(&[("bench", "v")], "GPU").to_string();
    for side in ["a", "b"] {
        std::fs::create_dir_all(scratch.join(side)).unwrap();
        for i in 0..200 {
            scratch.write(format!("{side}/r{i:03}.json"), &doc);
        }
    }
    let output = plain_env(&mut Command::new("strace"))
        .args([
            "-f",
            "-c",
            "-o",
            "calls.txt",
            "-e",
            "trace=clone,clone3,sched_getaffinity",
        ])
        .args([BIN, "a", "b"])
        .current_dir(&scratch)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output).matches("# bench\n").count(), 200);
    let calls = std::fs::read_to_string(scratch.join("calls.txt")).unwrap();
    let count = |name: &str| -> usize {
        calls
            .lines()
            .filter(|l| l.split_whitespace().last() == Some(name))
            .map(|l| {
                l.split_whitespace()
                    .nth(3)
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
            })
            .sum()
    };
    assert!(count("clone") + count("clone3") <= 4, "{calls}");
    // The old code asked about ten times per pair (2,000 here).
    assert!(count("sched_getaffinity") <= 8, "{calls}");
}

/// Sidecar sizes beyond 64 bits are printed exactly in the JSON report
/// and the bulk-debug rows, and device ids beyond 64 bits compare exactly
/// (serde_json alone reads both as rounded floats).
#[test]
fn numbers_beyond_64_bits_stay_exact() {
    let huge = "100000000000000000000000000000000000000000000000000";
    let samples = state("v").sidecar("nv/json/bin:nv/cold/sample_times", "values.bin", huge);
    let doc = Doc::new().device(0, "GPU").bench(bench("bench", samples));
    let big_id = |id: &str| {
        let mut d = document(&[("bench", "v")], "GPU");
        d["devices"] = json!([{"id": 0, "name": "GPU"}, {"id": "ID", "name": "other"}]);
        d.to_string().replace("\"ID\"", id)
    };
    let (a, b) = (
        big_id("123456789012345678901234567890"),
        big_id("123456789012345678901234567891"),
    );
    for mode in MODES {
        let scratch = Scratch::new("hostile-big-numbers");
        let values: [(&str, &[u8]); 1] = [("values.bin", &[0u8; 12])];
        let inputs = mode.inputs(&scratch, ("ref.json", &doc.text()), None, &values);
        let output = exits(&scratch, &["--json", "-"], &inputs, 0);
        assert!(
            stdout(&output).contains(&format!("\"count\": {huge}")),
            "{mode:?}: {}",
            stdout(&output)
        );
        assert!(
            stderr(&output).contains(&format!("expected {huge} values")),
            "{mode:?}: {}",
            stderr(&output)
        );
        let output = run_on(&scratch, &["--bulk-debug-python", "stdout"], &inputs);
        assert!(
            stdout(&output).contains(&format!("'reference_sample_count': {huge},")),
            "{mode:?}: {}",
            stdout(&output)
        );

        let inputs = mode.inputs(&scratch, ("a.json", &a), Some(("b.json", &b)), &[]);
        let output = exits(&scratch, &["--no-color"], &inputs, 1);
        assert_eq!(
            stdout(&output),
            format!(
                "{}{{1: {{'id': [123456789012345678901234567890, 123456789012345678901234567891]}}}}\n",
                mode.device_mismatch()
            ),
            "{mode:?}"
        );
    }
}

/// File names that are not UTF-8 are read as the reference reads them
/// (Python's `surrogateescape`): in directory mode, as arguments, and in a
/// directory that holds `--jsonbin` sidecars of such a name; with `--vs`
/// too, as runs and as directories of runs. A name that is printed (NEW /
/// DROPPED) shows the odd bytes as `\xff`.
#[test]
fn non_utf8_file_names_are_compared() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new("hostile-non-utf8");
    let doc = document(&[("bench", "v")], "GPU").to_string();
    let odd = std::ffi::OsStr::from_bytes(b"bad\xff.json");
    for side in ["a", "b"] {
        std::fs::create_dir_all(scratch.join(side)).unwrap();
        scratch.write(format!("{side}/good.json"), &doc);
        std::fs::write(scratch.join(side).join(odd), &doc).unwrap();
        // One more run of the side in repetition mode.
        scratch.write(format!("{side}2/good.json"), &doc);
    }
    let only_a = std::ffi::OsStr::from_bytes(b"only\xfe.json");
    std::fs::write(scratch.join("a").join(only_a), &doc).unwrap();
    let run = |args: &[&std::ffi::OsStr]| {
        crate::util::command(&scratch)
            .arg("--no-color")
            .args(args)
            .output()
            .unwrap()
    };
    let os = |text: &'static str| std::ffi::OsStr::new(text);
    for (mode, dirs) in [
        (Mode::Directories, vec![os("a"), os("b")]),
        (Mode::Repetition, vec![os("a"), os("--vs"), os("b")]),
    ] {
        let output = run(&[&[os("--report-missing")][..], &dirs].concat());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{mode:?}: {}",
            stderr(&output)
        );
        let text = stdout(&output);
        assert_eq!(text.matches("# bench\n").count(), 2, "{mode:?}: {text}");
        assert!(text.contains("only\\xfe.json"), "{mode:?}: {text}");
        let expected = match mode {
            Mode::Repetition => {
                "nvbench-compare: warning: --vs with one run a side compares two files"
            }
            _ => "",
        };
        let err = stderr(&output);
        // Directories name each group of files before its tables, the odd
        // bytes escaped as on stdout.
        let named = "nvbench-compare: the tables below compare ";
        let (notes, rest): (Vec<&str>, Vec<&str>) = err.lines().partition(|l| l.starts_with(named));
        assert_eq!(notes.len(), 2, "{mode:?}: {err}");
        assert!(
            notes
                .iter()
                .any(|l| l.contains("a/bad\\xff.json vs b/bad\\xff.json")),
            "{mode:?}: {err}"
        );
        let rest: String = rest.iter().map(|l| format!("{l}\n")).collect();
        assert!(rest.starts_with(expected), "{mode:?}");
        assert_eq!(without_run_count_warning(&rest), "", "{mode:?}");
    }
    // The same pair given as arguments compares as the UTF-8 one does.
    let (a_odd, b_odd) = (Path::new("a").join(odd), Path::new("b").join(odd));
    let (a_odd, b_odd) = (a_odd.as_os_str(), b_odd.as_os_str());
    let as_files: [(Vec<&std::ffi::OsStr>, Vec<&std::ffi::OsStr>); 3] = [
        (
            vec![a_odd, b_odd],
            vec![os("a/good.json"), os("b/good.json")],
        ),
        (
            vec![a_odd, os("--vs"), b_odd],
            vec![os("a/good.json"), os("--vs"), os("b/good.json")],
        ),
        (
            vec![
                a_odd,
                os("a2/good.json"),
                os("--vs"),
                b_odd,
                os("b2/good.json"),
            ],
            vec![
                os("a/good.json"),
                os("a2/good.json"),
                os("--vs"),
                os("b/good.json"),
                os("b2/good.json"),
            ],
        ),
    ];
    for (odd_args, good_args) in as_files {
        let by_name = run(&odd_args);
        let good = run(&good_args);
        assert_eq!(
            by_name.status.code(),
            Some(0),
            "{odd_args:?}: {}",
            stderr(&by_name)
        );
        assert_eq!(stdout(&by_name), stdout(&good), "{odd_args:?}");
    }
    // Sidecars found beside a JSON file in a directory of such a name: the
    // bulk decision is the one of the case in its own directory.
    let case = project("testdata/conformance/cases/001-fast-bulk-cycles");
    let odd_dir = scratch.join(std::ffi::OsStr::from_bytes(b"d\xff"));
    copy_dir(&case, &odd_dir);
    let args = ["--display", "explain", "--no-color"];
    let in_dir = |dir: &Path, vs: bool| {
        let mut command = crate::util::command(root());
        command.args(args).arg(dir.join("ref.json"));
        if vs {
            command.arg("--vs");
        }
        command.arg(dir.join("cmp.json")).output().unwrap()
    };
    let bulk = in_dir(&odd_dir, false);
    let expected = std::fs::read_to_string(case.join("expected_stdout")).unwrap();
    assert_eq!(stdout(&bulk), expected, "{}", stderr(&bulk));
    let bulk = in_dir(&odd_dir, true);
    let expected = in_dir(&case, true);
    assert_eq!(stdout(&bulk), stdout(&expected), "{}", stderr(&bulk));
}

/// A NUL in a sidecar file name: the reference's warning ("embedded null
/// byte"), the state compared without bulk data.
#[test]
fn a_nul_in_a_sidecar_name_is_the_references_warning() {
    let samples = state("v").sidecar("nv/json/bin:nv/cold/sample_times", "a\u{0}b.bin", "2");
    let doc = Doc::new().device(0, "GPU").bench(bench("bench", samples));
    for mode in MODES {
        let scratch = Scratch::new("hostile-nul-sidecar");
        let inputs = mode.itself(&scratch, &doc.text());
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        // The reference's warning for each file that is read.
        let warnings: String = inputs
            .documents
            .iter()
            .map(|document| {
                format!(
                    "nvbench-compare: warning: Could not use NVBench sample time data: failed to read '{}a\\x00b.bin': embedded null byte; treating it as unavailable\n",
                    dir_prefix(document)
                )
            })
            .collect();
        assert_eq!(
            without_run_count_warning(&stderr(&output)),
            warnings,
            "{mode:?}"
        );
        assert_eq!(statuses(&stdout(&output)), ["🔵 SAME"], "{mode:?}");
    }
}

/// A state without `device`: the reference prints the benchmark's heading,
/// then fails (KeyError) where it filters states by device; so do we, in
/// every mode (`--vs` too). Found by the differential run over the
/// `json_loader` corpus.
#[test]
fn a_state_without_a_device_fails_after_the_heading() {
    let mut doc = document(&[("bench", "v")], "GPU");
    doc["benchmarks"][0]["states"][0]
        .as_object_mut()
        .unwrap()
        .remove("device");
    for mode in MODES {
        let scratch = Scratch::new("hostile-no-device");
        let inputs = mode.itself(&scratch, &doc.to_string());
        let output = exits(&scratch, &["--no-color"], &inputs, 1);
        assert_eq!(stdout(&output), "# bench\n\n", "{mode:?}");
        assert!(
            stderr(&output).contains("has a state without a 'device'"),
            "{mode:?}: {}",
            stderr(&output)
        );
    }
}

/// Repetition mode prints names as pair mode does: an OSC title sequence
/// in a benchmark name is escaped, and a name holding a line break before
/// a marker makes no marker line on stdout (no `--bulk-debug-python`, so
/// no line of stdout may be a marker).
#[test]
fn repetition_mode_prints_names_escaped_and_forges_no_marker_line() {
    let names = [
        "evil\x1b]0;pwned\x07",
        "x\nNVB-BULK-BEGIN",
        "\nNVB-BULK-BEGIN",
        "y\n# NVB-BULK-BEGIN",
        "NVB-BULK-BEGIN",
    ];
    let benchmarks: Vec<(&str, &str)> = names.iter().map(|n| (*n, "v")).collect();
    for mode in [Mode::Repetition, Mode::Repetitions] {
        let scratch = Scratch::new("hostile-vs-names");
        let inputs = hostile_pair(mode, &scratch, &benchmarks, "GPU");
        let output = exits(&scratch, &["--no-color"], &inputs, 0);
        let text = stdout(&output);
        assert!(
            text.contains("\n# evil\\u{1b}]0;pwned\\u{7}\n") || text.starts_with("# evil\\u{1b}"),
            "{mode:?}: {text}"
        );
        assert!(!text.contains(['\x1b', '\x07']), "{mode:?}: {text:?}");
        for marker in ["# NVB-BULK-BEGIN", "NVB-BULK-BEGIN"] {
            assert!(
                !text.lines().any(|l| l == marker),
                "{mode:?}: a {marker:?} line in {text}"
            );
        }
    }
}
