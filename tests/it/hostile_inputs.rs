//! Hostile and unlucky inputs (issue 14): names that try to inject code or
//! markup, outputs that would overwrite inputs, and inputs the reference
//! reads that must read the same here. Inputs are built by the tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_nvbench-compare");

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("nvbc-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("cannot start nvbench-compare")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn float_summary(tag: &str, value: f64) -> Value {
    json!({"tag": tag, "data": [{"name": "value", "type": "float64", "value": format!("{value:e}")}]})
}

fn summaries(median: f64) -> Vec<Value> {
    vec![
        float_summary("nv/cold/time/gpu/min", median * 0.99),
        float_summary("nv/cold/time/gpu/q1", median * 0.99),
        float_summary("nv/cold/time/gpu/median", median),
        float_summary("nv/cold/time/gpu/q3", median * 1.01),
        float_summary("nv/cold/time/gpu/max", median * 1.02),
        float_summary("nv/cold/time/gpu/iqr/relative", 0.01),
        float_summary("nv/cold/sm_clock_rate/mean", 1.5e9),
    ]
}

/// One document whose benchmarks are `(benchmark name, axis value)`, all on
/// one device named `device`, with states of the given median time.
fn document(benchmarks: &[(&str, &str)], device: &str, median: f64) -> Value {
    let benchmarks: Vec<Value> = benchmarks
        .iter()
        .map(|(name, value)| {
            json!({
                "name": name,
                "devices": [0],
                "axes": [{"name": "S", "type": "string", "flags": ""}],
                "states": [{
                    "name": format!("Device=0 S={value}"),
                    "device": 0,
                    "axis_values": [{"name": "S", "type": "string", "value": value}],
                    "summaries": summaries(median),
                }],
            })
        })
        .collect();
    json!({
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": device}],
        "benchmarks": benchmarks,
    })
}

// ---------------------------------------------------------------------------
// No code through `sed | python`
// ---------------------------------------------------------------------------

/// Python that creates the file `ran` when executed.
const PAYLOAD: &str = "open('ran', 'w').write('injected')";

/// `(benchmark name, axis value)` of each benchmark of a document.
type Benchmarks<'a> = Vec<(&'a str, &'a str)>;

/// A pair of documents with hostile names (the same on both sides).
fn write_pair(scratch: &Scratch, benchmarks: &[(&str, &str)], device: &str) {
    let doc = document(benchmarks, device, 1.0e-3).to_string();
    scratch.write("ref.json", &doc);
    scratch.write("cmp.json", &doc);
}

/// Runs the spec's documented workflow, its `sed` filter verbatim, into
/// python3 and returns the filtered block (or `None` without python3 and
/// numpy); asserts that the block is valid Python and nothing else ran.
fn run_documented_workflow(scratch: &Scratch) -> Option<String> {
    let _ = std::fs::remove_file(scratch.path("ran"));
    let python = Command::new("bash")
        .arg("-c")
        .arg(
            "\"$0\" --bulk-debug-python stdout ref.json cmp.json \
             | sed -n '/^# NVB-BULK-BEGIN$/,/^# NVB-BULK-END$/p' > block.py \
             && python3 block.py",
        )
        .arg(BIN)
        .current_dir(&scratch.0)
        .output()
        .unwrap();
    let stderr = text(&python.stderr);
    if python.status.code() == Some(127) || stderr.contains("No module named 'numpy'") {
        eprintln!("SKIPPED the python run: python3 with numpy is not available");
        return None;
    }
    assert!(!scratch.path("ran").exists(), "code from a name ran");
    assert!(
        python.status.success(),
        "the block is not valid Python: {stderr}"
    );
    let block = std::fs::read_to_string(scratch.path("block.py")).unwrap();
    assert!(
        block.starts_with("# NVB-BULK-BEGIN\n# Generated by"),
        "{block}"
    );
    assert!(block.ends_with("# NVB-BULK-END\n"), "{block}");
    Some(block)
}

/// Only the generated block's own markers are marker lines on stdout, and
/// no raw line break or other control character comes from a name.
fn assert_one_block(scratch: &Scratch, args: &[&str]) -> String {
    let output = run_in(&scratch.0, args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
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
    for (case, benchmarks, device) in cases {
        let scratch = Scratch::new(&format!("inject-{case}"));
        write_pair(&scratch, &benchmarks, device);
        let stdout = assert_one_block(
            &scratch,
            &["--bulk-debug-python", "stdout", "ref.json", "cmp.json"],
        );
        assert!(
            stdout.contains("x\\n# NVB-BULK-BEGIN\\nopen("),
            "{case}: {stdout}"
        );
        run_documented_workflow(&scratch);
    }
}

/// A benchmark named like a marker would start the filtered range at its
/// heading (and the tables after it are not Python); its heading is
/// escaped instead. CR line ends do not make marker lines either.
#[test]
fn marker_named_benchmarks_do_not_open_or_close_the_block() {
    let cr = format!("y\r\n# NVB-BULK-BEGIN\r\n{PAYLOAD}\r\n# NVB-BULK-END\r");
    let scratch = Scratch::new("marker-names");
    write_pair(
        &scratch,
        &[("NVB-BULK-BEGIN", "a"), ("NVB-BULK-END", "b"), (&cr, "c")],
        "GPU",
    );
    let stdout = assert_one_block(
        &scratch,
        &[
            "--no-color",
            "--bulk-debug-python",
            "stdout",
            "ref.json",
            "cmp.json",
        ],
    );
    assert!(stdout.starts_with("# \\u{4e}VB-BULK-BEGIN\n"), "{stdout}");
    assert!(stdout.contains("\n# \\u{4e}VB-BULK-END\n"), "{stdout}");
    assert!(
        stdout.contains("# y\\r\\n# NVB-BULK-BEGIN\\r\\n"),
        "{stdout}"
    );
    let block = run_documented_workflow(&scratch);
    // The names themselves are kept exactly in the generated Python.
    if let Some(block) = block {
        assert!(block.contains("'benchmark': 'NVB-BULK-BEGIN'"), "{block}");
    }
}

// ---------------------------------------------------------------------------
// No output overwrites an input or another output
// ---------------------------------------------------------------------------

fn sidecar_summary(tag: &str, filename: &str) -> Value {
    json!({"tag": tag, "data": [
        {"name": "filename", "type": "string", "value": filename},
        {"name": "size", "type": "int64", "value": "2"},
    ]})
}

/// A pair whose compare side advertises the sidecars `cmp.json-bin/0.bin`
/// and `cmp.json-freqs-bin/0.bin`.
fn pair_with_sidecars(scratch: &Scratch) {
    write_pair(scratch, &[("bench", "v")], "GPU");
    let mut cmp = document(&[("bench", "v")], "GPU", 1.0e-3);
    let summaries = cmp["benchmarks"][0]["states"][0]["summaries"]
        .as_array_mut()
        .unwrap();
    summaries.push(sidecar_summary(
        "nv/json/bin:nv/cold/sample_times",
        "cmp.json-bin/0.bin",
    ));
    summaries.push(sidecar_summary(
        "nv/json/freqs-bin:nv/cold/sample_freqs",
        "cmp.json-freqs-bin/0.bin",
    ));
    scratch.write("cmp.json", cmp.to_string());
    for dir in ["cmp.json-bin", "cmp.json-freqs-bin"] {
        std::fs::create_dir_all(scratch.path(dir)).unwrap();
        scratch.write(&format!("{dir}/0.bin"), [0u8; 8]);
    }
    std::os::unix::fs::symlink(scratch.path("ref.json"), scratch.path("link.json")).unwrap();
}

/// Every file output naming an input file, a sidecar (through `..`, `./`
/// or a symlink) or another output: exit 2 before anything is written,
/// both named, every file as it was.
#[test]
fn outputs_never_overwrite_inputs_or_each_other() {
    let scratch = Scratch::new("collide");
    pair_with_sidecars(&scratch);
    let snapshot = |names: &[&str]| -> Vec<Vec<u8>> {
        names
            .iter()
            .map(|n| std::fs::read(scratch.path(n)).unwrap())
            .collect()
    };
    let inputs = [
        "ref.json",
        "cmp.json",
        "cmp.json-bin/0.bin",
        "cmp.json-freqs-bin/0.bin",
    ];
    let before = snapshot(&inputs);
    let cases: [(&[&str], &str, &str); 9] = [
        (&["--json", "ref.json"], "--json ref.json", "ref.json"),
        (
            &["--markdown-summary", "./cmp.json"],
            "--markdown-summary ./cmp.json",
            "cmp.json",
        ),
        (
            &["--bulk-debug-python", "link.json"],
            "link.json",
            "ref.json",
        ),
        (
            &["--json", "cmp.json-bin/../cmp.json-bin/0.bin"],
            "--json",
            "0.bin",
        ),
        (
            &["--json", "cmp.json-freqs-bin/0.bin"],
            "--json",
            "cmp.json-freqs-bin/0.bin",
        ),
        (
            &[
                "--plot",
                "--plot-output",
                "c.svg",
                "--markdown-summary",
                "./c.svg",
            ],
            "--plot-output c.svg",
            "--markdown-summary ./c.svg",
        ),
        (
            &[
                "--plot-along",
                "S",
                "--plot-along-output",
                "a.png",
                "--json",
                "a.png",
            ],
            "--json a.png",
            "--plot-along-output a.png",
        ),
        (
            &["--json", "out.json", "--markdown-summary", "./out.json"],
            "--json out.json",
            "--markdown-summary ./out.json",
        ),
        (
            &["--bulk-debug-python", "x.py", "--json", "sub/../x.py"],
            "--bulk-debug-python x.py",
            "--json sub/../x.py",
        ),
    ];
    for (options, first, second) in cases {
        let mut args = options.to_vec();
        args.extend(["ref.json", "cmp.json"]);
        let output = run_in(&scratch.0, &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{options:?}: {stderr}");
        assert!(
            stderr.contains(first) && stderr.contains(second),
            "{options:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{options:?}: work was done");
        assert_eq!(snapshot(&inputs), before, "{options:?} changed an input");
        assert!(!scratch.path("out.json").exists() && !scratch.path("x.py").exists());
    }
}

// ---------------------------------------------------------------------------
// Atomic writes, a closed stdout
// ---------------------------------------------------------------------------

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Outputs replace earlier files whole, through symlinks, leaving no
/// temporary file behind; a write that fails leaves the earlier file.
#[test]
fn file_outputs_are_replaced_whole() {
    let scratch = Scratch::new("atomic");
    write_pair(&scratch, &[("bench", "v")], "GPU");
    std::fs::create_dir_all(scratch.path("reports")).unwrap();
    scratch.write("reports/real.md", "earlier summary");
    std::os::unix::fs::symlink("real.md", scratch.path("reports/summary.md")).unwrap();
    scratch.write("reports/report.json", "x".repeat(100_000));
    let output = run_in(
        &scratch.0,
        &[
            "--json",
            "reports/report.json",
            "--markdown-summary",
            "reports/summary.md",
            "--bulk-debug-python",
            "reports/rows.py",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let dir = scratch.path("reports");
    assert_eq!(
        entries(&dir),
        ["real.md", "report.json", "rows.py", "summary.md"]
    );
    let summary = std::fs::read_to_string(dir.join("real.md")).unwrap();
    assert!(summary.starts_with("## nvbench-compare"), "{summary}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["summary"]["total"], 1);
    // A destination that cannot be replaced (a directory in its place):
    // an error naming it, the other outputs intact.
    std::fs::create_dir_all(scratch.path("reports/blocked.json")).unwrap();
    let failed = run_in(
        &scratch.0,
        &["--json", "reports/blocked.json", "ref.json", "cmp.json"],
    );
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        text(&failed.stderr).contains("blocked.json"),
        "{}",
        text(&failed.stderr)
    );
    assert_eq!(
        entries(&dir),
        [
            "blocked.json",
            "real.md",
            "report.json",
            "rows.py",
            "summary.md"
        ]
    );
}

/// `| head`: the reader goes away at once. The file outputs are written
/// anyway and the run ends quietly with its own exit status.
#[test]
fn a_closed_stdout_still_writes_the_file_outputs() {
    let scratch = Scratch::new("closed-stdout");
    let many: Vec<(String, String)> = (0..300)
        .map(|i| (format!("bench{i}"), "v".to_string()))
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(b, v)| (b.as_str(), v.as_str())).collect();
    write_pair(&scratch, &many, "GPU");
    for gate in [None, Some("slow,missing")] {
        let mut command = Command::new(BIN);
        command.args(["--json", "report.json", "--markdown-summary", "summary.md"]);
        if let Some(gate) = gate {
            command.args(["--fail-on", gate]);
        }
        let mut child = command
            .args(["ref.json", "cmp.json"])
            .current_dir(&scratch.0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        assert_eq!(text(&output.stderr), "");
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(scratch.path("report.json")).unwrap())
                .unwrap();
        assert_eq!(report["summary"]["total"], 300);
        assert!(
            std::fs::read_to_string(scratch.path("summary.md"))
                .unwrap()
                .contains("| 300 |")
        );
        std::fs::remove_file(scratch.path("report.json")).unwrap();
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
    let scratch = Scratch::new("markdown");
    let benchmarks: Vec<(&str, &str)> = hostile.iter().map(|h| (*h, *h)).collect();
    write_pair(&scratch, &benchmarks, "GPU");
    // A benchmark only the compare side has: NEW, in the missing list.
    let mut with_new = benchmarks.clone();
    with_new.push(("new ![x](y) @team", "v"));
    scratch.write("cmp.json", document(&with_new, "GPU", 1.0e-3).to_string());
    let output = run_in(
        &scratch.0,
        &[
            "--report-missing",
            "--markdown-summary",
            "summary.md",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let markdown = std::fs::read_to_string(scratch.path("summary.md")).unwrap();
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
            assert!(!outside.contains(active), "{active:?} renders in: {line}");
        }
        seen += carried;
    }
    assert!(seen >= hostile.len(), "names missing from:\n{markdown}");
    assert!(
        markdown.contains("- `NEW benchmark new ![x](y) @team"),
        "{markdown}"
    );
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
    let scratch = Scratch::new("skipped");
    let values = [
        json!({}),
        json!([]),
        json!([0]),
        json!({"a": 1}),
        json!(0),
        json!(""),
    ];
    let mut doc = document(&[("bench", "v")], "GPU", 1.0e-3);
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
    scratch.write("ref.json", doc.to_string());
    let output = run_in(&scratch.0, &["--no-color", "ref.json", "ref.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let found = statuses(&text(&output.stdout));
    let expected = [
        "🔵 SAME",
        "🔵 SAME",
        "🟡 ????",
        "🟡 ????",
        "🔵 SAME",
        "🔵 SAME",
    ];
    assert_eq!(found, expected, "{}", text(&output.stdout));
}

/// `NaN` / `Infinity` literals, `-0` ids and duplicate keys (the last
/// wins) read as Python's `json` reads them; `meta.version.json.string:
/// null` is a version ("None"), with the reference's warning.
#[test]
fn python_json_extensions_are_read_like_the_reference() {
    let scratch = Scratch::new("pyjson");
    let plain = document(&[("bench", "v")], "GPU", 1.0e-3).to_string();
    // A summary value NaN: the reference cannot build an interval (AMBG).
    let nan = plain.replacen("\"value\":\"9.9e-4\"", "\"value\":NaN", 1);
    assert_ne!(nan, plain, "no summary value to replace");
    scratch.write("nan.json", &nan);
    let output = run_in(&scratch.0, &["--no-color", "nan.json", "nan.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(statuses(&text(&output.stdout)), ["🤷 AMBG"]);
    assert!(text(&output.stdout).contains("missing_interval: 1"));

    let inf = plain.replacen("\"value\":\"1.5e9\"", "\"value\":Infinity", 1);
    assert_ne!(inf, plain);
    scratch.write("inf.json", &inf);
    scratch.write("plain.json", &plain);
    // An infinite clock rate: no cycle-space evidence, AMBG in the reference.
    let output = run_in(&scratch.0, &["--no-color", "inf.json", "plain.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(statuses(&text(&output.stdout)), ["🤷 AMBG"]);

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
    scratch.write("odd.json", &odd);
    let output = run_in(&scratch.0, &["--no-color", "odd.json", "plain.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with("# bench\n\n## [0] GPU\n"), "{stdout}");
    assert_eq!(statuses(&stdout), ["🔵 SAME"]);

    let null_version = plain.replace("\"string\":\"1.0.0\"", "\"string\":null");
    assert_ne!(null_version, plain);
    scratch.write("null.json", &null_version);
    let output = run_in(&scratch.0, &["--no-color", "null.json", "plain.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with(
        "WARNING:\n  null.json was written using a different NVBench JSON file version.\n  It may not read correctly.\n  (file version: None reader version: 1.0.0)\n"
    ));
}

// ---------------------------------------------------------------------------
// What the pipeline fuzz target's oracle relies on
// ---------------------------------------------------------------------------

/// The last `--json` wins: `--json - --json FILE` writes the file and
/// prints the tables (the fuzz oracle took any `-` for `--json -`).
#[test]
fn a_later_json_file_overrides_json_to_stdout() {
    let scratch = Scratch::new("json-override");
    write_pair(&scratch, &[("bench", "v")], "GPU");
    let output = run_in(
        &scratch.0,
        &[
            "--json",
            "-",
            "--json",
            "report.json",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("# bench\n"));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(scratch.path("report.json")).unwrap())
            .unwrap();
    assert_eq!(report["schema_version"], 1);
    let output = run_in(
        &scratch.0,
        &[
            "--json",
            "report.json",
            "--json",
            "-",
            "ref.json",
            "cmp.json",
        ],
    );
    let stdout: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stdout["summary"]["total"], 1);
}

// ---------------------------------------------------------------------------
// Directory mode at scale
// ---------------------------------------------------------------------------

/// 200 file pairs: threads are started once per run, not per pair, and the
/// core count is asked once (counted with strace, when it is installed).
#[test]
fn directory_mode_sets_its_threads_up_once() {
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("SKIPPED: strace is not installed");
        return;
    }
    let scratch = Scratch::new("dirmode");
    let doc = document(&[("bench", "v")], "GPU", 1.0e-3).to_string();
    for side in ["a", "b"] {
        std::fs::create_dir_all(scratch.path(side)).unwrap();
        for i in 0..200 {
            scratch.write(&format!("{side}/r{i:03}.json"), &doc);
        }
    }
    let output = Command::new("strace")
        .args([
            "-f",
            "-c",
            "-o",
            "calls.txt",
            "-e",
            "trace=clone,clone3,sched_getaffinity",
        ])
        .args([BIN, "a", "b"])
        .current_dir(&scratch.0)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).matches("# bench\n").count(), 200);
    let calls = std::fs::read_to_string(scratch.path("calls.txt")).unwrap();
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
    let scratch = Scratch::new("big-numbers");
    let huge = "100000000000000000000000000000000000000000000000000";
    let mut doc = document(&[("bench", "v")], "GPU", 1.0e-3);
    let summaries = doc["benchmarks"][0]["states"][0]["summaries"]
        .as_array_mut()
        .unwrap();
    summaries.push(json!({"tag": "nv/json/bin:nv/cold/sample_times", "data": [
        {"name": "filename", "type": "string", "value": "values.bin"},
        {"name": "size", "type": "int64", "value": huge},
    ]}));
    scratch.write("ref.json", doc.to_string());
    scratch.write("values.bin", [0u8; 12]);
    let output = run_in(&scratch.0, &["--json", "-", "ref.json", "ref.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains(&format!("\"count\": {huge}")),
        "{}",
        text(&output.stdout)
    );
    assert!(text(&output.stderr).contains(&format!("expected {huge} values")));
    let output = run_in(
        &scratch.0,
        &["--bulk-debug-python", "stdout", "ref.json", "ref.json"],
    );
    assert!(text(&output.stdout).contains(&format!("'reference_sample_count': {huge},")));

    let big_id = |id: &str| {
        let mut d = document(&[("bench", "v")], "GPU", 1.0e-3);
        d["devices"] = json!([{"id": 0, "name": "GPU"}, {"id": "ID", "name": "other"}]);
        d.to_string().replace("\"ID\"", id)
    };
    scratch.write("a.json", big_id("123456789012345678901234567890"));
    scratch.write("b.json", big_id("123456789012345678901234567891"));
    let output = run_in(&scratch.0, &["--no-color", "a.json", "b.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    assert_eq!(
        text(&output.stdout),
        "Device sections do not match: {1: {'id': [123456789012345678901234567890, 123456789012345678901234567891]}}\n"
    );
}

/// File names that are not UTF-8 are read as the reference reads them
/// (Python's `surrogateescape`): in directory mode, as arguments, and in a
/// directory that holds `--jsonbin` sidecars of such a name. A name that is
/// printed (NEW / DROPPED) shows the odd bytes as `\xff`.
#[test]
fn non_utf8_file_names_are_compared() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new("non-utf8");
    let doc = document(&[("bench", "v")], "GPU", 1.0e-3).to_string();
    let odd = std::ffi::OsStr::from_bytes(b"bad\xff.json");
    for side in ["a", "b"] {
        std::fs::create_dir_all(scratch.path(side)).unwrap();
        scratch.write(&format!("{side}/good.json"), &doc);
        std::fs::write(scratch.path(side).join(odd), &doc).unwrap();
    }
    let only_a = std::ffi::OsStr::from_bytes(b"only\xfe.json");
    std::fs::write(scratch.path("a").join(only_a), &doc).unwrap();
    let output = run_in(&scratch.0, &["--no-color", "--report-missing", "a", "b"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.matches("# bench\n").count(), 2, "{stdout}");
    assert!(stdout.contains("only\\xfe.json"), "{stdout}");
    assert_eq!(text(&output.stderr), "");
    // The same pair given as arguments compares as the UTF-8 one does.
    let by_name = Command::new(env!("CARGO_BIN_EXE_nvbench-compare"))
        .arg("--no-color")
        .arg(std::path::Path::new("a").join(odd))
        .arg(std::path::Path::new("b").join(odd))
        .current_dir(&scratch.0)
        .output()
        .unwrap();
    let good = run_in(&scratch.0, &["--no-color", "a/good.json", "b/good.json"]);
    assert_eq!(by_name.status.code(), Some(0), "{}", text(&by_name.stderr));
    assert_eq!(text(&by_name.stdout), text(&good.stdout));
    // Sidecars found beside a JSON file in a directory of such a name: the
    // bulk decision is the one of the case in its own directory.
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/conformance/cases/001-fast-bulk-cycles");
    let odd_dir = scratch.0.join(std::ffi::OsStr::from_bytes(b"d\xff"));
    copy_tree(&case, &odd_dir);
    let args = ["--display", "explain", "--no-color"];
    let bulk = Command::new(env!("CARGO_BIN_EXE_nvbench-compare"))
        .args(args)
        .arg(odd_dir.join("ref.json"))
        .arg(odd_dir.join("cmp.json"))
        .output()
        .unwrap();
    let expected = std::fs::read_to_string(case.join("expected_stdout")).unwrap();
    assert_eq!(text(&bulk.stdout), expected, "{}", text(&bulk.stderr));
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A NUL in a sidecar file name: the reference's warning ("embedded null
/// byte"), the state compared without bulk data.
#[test]
fn a_nul_in_a_sidecar_name_is_the_references_warning() {
    let scratch = Scratch::new("nul-sidecar");
    let mut doc = document(&[("bench", "v")], "GPU", 1.0e-3);
    let summaries = doc["benchmarks"][0]["states"][0]["summaries"]
        .as_array_mut()
        .unwrap();
    summaries.push(json!({"tag": "nv/json/bin:nv/cold/sample_times", "data": [
        {"name": "filename", "type": "string", "value": "a\u{0}b.bin"},
        {"name": "size", "type": "int64", "value": "2"},
    ]}));
    scratch.write("ref.json", doc.to_string());
    let output = run_in(&scratch.0, &["--no-color", "ref.json", "ref.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        "nvbench-compare: warning: Could not use NVBench sample time data: failed to read 'a\\x00b.bin': embedded null byte; treating it as unavailable\n"
    );
    assert_eq!(statuses(&text(&output.stdout)), ["🔵 SAME"]);
}

/// A state without `device`: the reference prints the benchmark's heading,
/// then fails (KeyError) where it filters states by device; so do we.
/// Found by the differential run over the `json_loader` corpus.
#[test]
fn a_state_without_a_device_fails_after_the_heading() {
    let scratch = Scratch::new("no-device");
    let mut doc = document(&[("bench", "v")], "GPU", 1.0e-3);
    doc["benchmarks"][0]["states"][0]
        .as_object_mut()
        .unwrap()
        .remove("device");
    scratch.write("ref.json", doc.to_string());
    let output = run_in(&scratch.0, &["--no-color", "ref.json", "ref.json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "# bench\n\n");
    assert!(text(&output.stderr).contains("has a state without a 'device'"));
}
