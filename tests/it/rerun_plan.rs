//! `--rerun-plan` on the built binary: the arguments, read back the way
//! the plan's comments say (bash's mapfile, the awk of directory mode) and
//! parsed with NVBench's own regular expressions (those of
//! testdata/examples/make_example.py), re-measure exactly the chosen
//! states; names NVBench would misread are left out in comments; Google
//! Benchmark gets a filter that matches exactly the chosen run names;
//! N-way plans the union; stdout, collisions, the empty plan and the hint.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::util::{Bench, Doc, Need, Scratch, State, Times, project, require, run, stderr, stdout};

/// A state's summaries around `median`, clock constant: identical times
/// on both sides are SAME, 1.5 times slower SLOW.
fn times(median: f64) -> Times {
    Times::around(median, [0.998, 0.999, 1.002])
        .iqr(0.003)
        .clock(1.5e9)
}

const STRINGS: [&str; 5] = ["plain", "it's \"q\" = #1", "sp ace", "ü-ñ", "a,b"];
const TYPES: [&str; 2] = ["I8", "F32"];
const COUNTS: [u64; 2] = [1024, 4096];
const FLOATS: [&str; 2] = ["0.25", "1e-07"];

/// A state of the sweep: device, S, T, P, Q.
type Key = (i64, String, String, u64, String);

fn every_key() -> Vec<Key> {
    let mut keys = Vec::new();
    for device in [0, 1] {
        for s in STRINGS {
            for t in TYPES {
                for p in COUNTS {
                    for q in FLOATS {
                        keys.push((device, s.to_string(), t.to_string(), p, q.to_string()));
                    }
                }
            }
        }
    }
    keys
}

/// About half the states, no product: the compare run's slow ones.
fn slow(index: usize) -> bool {
    (index * 7 + index / 3) % 5 < 2 || index == 8
}

/// Benchmark `b x` over a string, a type, a pow2 and a float axis on two
/// devices; `factor(index)` scales each state's time.
fn sweep(factor: impl Fn(usize) -> f64) -> Value {
    let states = every_key()
        .into_iter()
        .enumerate()
        .map(|(index, (d, s, t, p, q))| {
            State::on(d)
                .at("S", s)
                .at("T", t)
                .at("P", p)
                .at("Q", q)
                .times(times(1e-3 * factor(index)))
        });
    let bench = Bench::new("b x")
        .axis("S", "string")
        .axis("T", "type")
        .pow2_axis("P")
        .axis("Q", "float64")
        .states(states);
    Doc::new()
        .device(0, "GPU")
        .device(1, "GPU")
        .bench(bench)
        .json()
}

fn write(dir: &Path, name: &str, value: &Value) {
    std::fs::write(dir.join(name), serde_json::to_vec(value).unwrap()).unwrap();
}

/// The plan's argument lines: every line not starting with '#'.
fn arguments(plan: &str) -> Vec<String> {
    plan.lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The plan's `mapfile` command.
fn mapfile_command(plan: &str) -> &str {
    let line = plan
        .lines()
        .find(|l| l.starts_with("#   mapfile -t args < <("))
        .unwrap();
    line.strip_prefix("#   ").unwrap()
}

/// The arguments as `command` (the plan's `mapfile`) reads them in bash.
fn read_with(dir: &Path, command: &str) -> Vec<String> {
    let script = format!("{command}\nprintf '%s\\0' \"${{args[@]}}\"");
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_terminator('\0').map(String::from).collect()
}

/// Each `-b` instance's devices and axis values as NVBench's option
/// parser reads them (make_example.py's regular expressions).
fn parse_as_nvbench(dir: &Path, plan_file: &str, kinds: &Value) -> Value {
    const PARSER: &str = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import make_example as m
kinds = json.loads(sys.argv[3])
args = m.plan_arguments(sys.argv[2])
instances = []
for option, value in zip(args[::2], args[1::2]):
    if option == "-b":
        instances.append({"bench": value, "devices": None, "axes": {}})
    elif option == "-d":
        instances[-1]["devices"] = m.parse_values(value, True)
    elif option == "-a":
        match = m.AXIS_SPEC.search(value)
        name, flags, spec = match.group(1), match.group(2) or "", match.group(3)
        values = m.parse_values(spec, kinds[name] == "int64")
        if kinds[name] == "float64":
            values = [float(v) for v in values]
        instances[-1]["axes"][name] = [flags, values]
    else:
        raise SystemExit("unexpected option " + option)
print(json.dumps(instances))
"#;
    let output = Command::new("python3")
        .args(["-c", PARSER])
        .arg(project("testdata/examples"))
        .arg(plan_file)
        .arg(kinds.to_string())
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The states the instances run: the product of each one's values.
fn states_run(instances: &Value) -> Vec<Key> {
    let mut keys = Vec::new();
    for instance in instances.as_array().unwrap() {
        assert_eq!(instance["bench"], "b x");
        let axes = &instance["axes"];
        let list = |name: &str| axes[name][1].as_array().unwrap().clone();
        assert_eq!(axes["P"][0], "pow2");
        for device in instance["devices"].as_array().unwrap() {
            for s in list("S") {
                for t in list("T") {
                    for p in list("P") {
                        for q in list("Q") {
                            let q = q.as_f64().unwrap();
                            let q = FLOATS.iter().find(|f| f.parse::<f64>().unwrap() == q);
                            keys.push((
                                device.as_i64().unwrap(),
                                s.as_str().unwrap().to_string(),
                                t.as_str().unwrap().to_string(),
                                1 << p.as_u64().unwrap(),
                                q.unwrap().to_string(),
                            ));
                        }
                    }
                }
            }
        }
    }
    keys
}

#[test]
fn the_plan_re_measures_exactly_the_chosen_states_as_nvbench_reads_it() {
    let dir = Scratch::new("plan-nvbench");
    write(&dir, "ref.json", &sweep(|_| 1.0));
    write(
        &dir,
        "cmp.json",
        &sweep(|i| if slow(i) { 1.5 } else { 1.0 }),
    );
    let out = run(
        &dir,
        &[
            "--rerun-plan",
            "plan.txt",
            "--rerun-plan-statuses",
            "slow",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    let chosen: Vec<Key> = every_key()
        .into_iter()
        .enumerate()
        .filter(|(index, _)| slow(*index))
        .map(|(_, key)| key)
        .collect();
    let (named, left_out): (Vec<Key>, Vec<Key>) =
        chosen.iter().cloned().partition(|k| k.1 != "a,b");
    assert!(left_out.len() >= 2 && named.len() > 20, "{left_out:?}");
    // Every chosen state NVBench can be told of is run, once; no other.
    if require(Need::Python3) {
        let kinds = json!({"S": "string", "T": "type", "P": "int64", "Q": "float64"});
        let run_keys = states_run(&parse_as_nvbench(&dir, "plan.txt", &kinds));
        let distinct: BTreeSet<Key> = run_keys.iter().cloned().collect();
        assert_eq!(distinct.len(), run_keys.len(), "a state run twice");
        assert_eq!(
            distinct,
            named.iter().cloned().collect::<BTreeSet<Key>>(),
            "{plan}"
        );
    }
    assert!(
        plan.contains(&format!(
            "re-measure exactly {} of the {} SLOW state(s) of ref.json vs cmp.json",
            named.len(),
            chosen.len()
        )) || plan.replace("\n# ", " ").contains(&format!(
            "re-measure exactly {} of the {} SLOW state(s) of ref.json vs cmp.json",
            named.len(),
            chosen.len()
        )),
        "{plan}"
    );
    // The ones it cannot name are listed, each with the reason.
    let listed = plan
        .lines()
        .filter(|l| l.starts_with("#   b x ") && l.contains("'a,b'"))
        .count();
    assert_eq!(listed, left_out.len(), "{plan}");
    assert!(stderr(&out).contains(&format!(
        "warning: --rerun-plan plan.txt: {} of the {} chosen state(s) cannot be named",
        left_out.len(),
        chosen.len()
    )));
    // bash reads the arguments exactly as the plan's lines.
    let read = read_with(&dir, mapfile_command(&plan));
    assert_eq!(read, arguments(&plan));
    assert!(read.len() > 8);
    // The table is unchanged by the option.
    let plain = run(&dir, &["ref.json", "cmp.json"]);
    assert_eq!(plain.stdout, out.stdout);
}

/// A Google Benchmark file of the run names, each with ten repetitions
/// around 1 ms times its factor.
fn gbench_file(names: &[(&str, f64)]) -> Value {
    let mut entries = Vec::new();
    for (family, (name, factor)) in names.iter().enumerate() {
        for index in 0..10 {
            let time = 1e6 * factor * (1.0 + 0.0004 * (index as f64 - 4.5));
            entries.push(json!({
                "name": name, "family_index": family, "per_family_instance_index": 0,
                "run_name": name, "run_type": "iteration", "repetitions": 10,
                "repetition_index": index, "threads": 1, "iterations": 1000,
                "real_time": time, "cpu_time": time, "time_unit": "ns",
            }));
        }
    }
    json!({
        "context": {"host_name": "h", "num_cpus": 8, "caches": [], "library_build_type": "release",
                    "json_schema_version": 1},
        "benchmarks": entries,
    })
}

#[test]
fn google_benchmark_gets_a_filter_that_matches_exactly_the_chosen_run_names() {
    let dir = Scratch::new("plan-gbench");
    let names = [
        "BM_copy/64",
        "BM_copy/640",
        "BM_t<int>/8/real_time",
        "BM_x.y(1)+z/min_time:0.500",
        "BM_odd]",
    ];
    let reference: Vec<(&str, f64)> = names.iter().map(|n| (*n, 1.0)).collect();
    let compare: Vec<(&str, f64)> = names
        .iter()
        .enumerate()
        .map(|(index, n)| (*n, if index == 1 { 1.0 } else { 1.5 }))
        .collect();
    write(&dir, "a.json", &gbench_file(&reference));
    write(&dir, "b.json", &gbench_file(&compare));
    let out = run(
        &dir,
        &[
            "--rerun-plan",
            "-",
            "--rerun-plan-statuses",
            "slow",
            "a.json",
            "b.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // `-`: the plan alone on stdout.
    let plan = stdout(&out);
    assert!(
        plan.starts_with("# nvbench-compare --rerun-plan: Google Benchmark arguments"),
        "{plan}"
    );
    let lines = arguments(&plan);
    assert_eq!(lines.len(), 1, "{plan}");
    let filter = lines[0].strip_prefix("--benchmark_filter=").unwrap();
    assert!(plan.contains("#   BM_odd]: the run name"), "{plan}");
    if require(Need::Python3) {
        // Python's re reads these escapes as POSIX ERE and ECMAScript do.
        let script = "import re, sys\nf = re.compile(sys.argv[1])\nfor n in sys.argv[2:]:\n    print(1 if f.search(n) else 0)";
        let output = Command::new("python3")
            .args(["-c", script, filter])
            .args(names)
            .args(["BM_copy/6400", "xBM_copy/64", "BM_x.y(1)+z/min_time:0x500"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let matched = String::from_utf8(output.stdout).unwrap();
        assert_eq!(
            matched.split_whitespace().collect::<Vec<_>>(),
            ["1", "0", "1", "1", "0", "0", "0", "0"]
        );
    }
}

#[test]
fn directories_get_a_section_per_file_that_the_plans_awk_reads() {
    let dir = Scratch::new("plan-dirs");
    for side in ["base", "pr"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
    }
    let doc = |factor: f64, bench: &str| {
        Doc::n_sweep(
            "GPU",
            bench,
            &[(1, 1e-3), (2, 2e-3 * factor), (3, 3e-3)],
            times,
        )
        .json()
    };
    write(&dir.join("base"), "one.json", &doc(1.0, "one"));
    write(&dir.join("pr"), "one.json", &doc(1.5, "one"));
    write(&dir.join("base"), "two.json", &doc(1.0, "two"));
    write(&dir.join("pr"), "two.json", &doc(1.0, "two"));
    write(&dir.join("base"), "three.json", &doc(1.0, "three"));
    write(&dir.join("pr"), "three.json", &doc(1.5, "three"));
    let out = run(
        &dir,
        &[
            "--rerun-plan",
            "plan.txt",
            "--rerun-plan-statuses",
            "slow,fast",
            "base",
            "pr",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    assert!(
        plan.contains("\n# file: one.json\n-b\none\n-d\n0\n-a\nN=2\n"),
        "{plan}"
    );
    assert!(plan.contains("\n# file: three.json\n-b\nthree\n"), "{plan}");
    assert!(!plan.contains("two.json"), "{plan}");
    assert!(
        plan.contains("#   nvbench-compare base r1 r2 --vs pr c1 c2\n"),
        "{plan}"
    );
    // The plan's awk takes one file's arguments.
    let command = mapfile_command(&plan).replace("NAME=file.json", "NAME=three.json");
    assert_eq!(
        read_with(&dir, &command),
        ["-b", "three", "-d", "0", "-a", "N=2"]
    );
    let command = mapfile_command(&plan).replace("NAME=file.json", "NAME=one.json");
    assert_eq!(
        read_with(&dir, &command),
        ["-b", "one", "-d", "0", "-a", "N=2"]
    );
}

#[test]
fn an_nway_plan_holds_the_states_of_every_candidate_once() {
    let dir = Scratch::new("plan-nway");
    let doc = |slow: &[i64]| {
        let states: Vec<(i64, f64)> = (1..=4)
            .map(|n| {
                (
                    n,
                    1e-3 * n as f64 * if slow.contains(&n) { 1.5 } else { 1.0 },
                )
            })
            .collect();
        Doc::n_sweep("GPU", "b", &states, times).json()
    };
    write(&dir, "base.json", &doc(&[]));
    write(&dir, "a.json", &doc(&[1, 2]));
    write(&dir, "b.json", &doc(&[2, 4]));
    let args = [
        "--rerun-plan",
        "plan.txt",
        "--rerun-plan-statuses",
        "slow",
        "base.json",
        "--vs",
        "a.json",
        "--vs",
        "b.json",
    ];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    assert_eq!(arguments(&plan), ["-b", "b", "-d", "0", "-a", "N=[1,2,4]"]);
    assert!(
        plan.contains("the 3 SLOW state(s) of base.json vs any of a.json, b.json"),
        "{plan}"
    );
    assert!(
        plan.contains("#   nvbench-compare base.json r1.json r2.json --vs a.json c1-1.json c1-2.json --vs b.json c2-1.json c2-2.json\n"),
        "{plan}"
    );
}

#[test]
fn a_plan_of_no_state_fails_when_run_instead_of_re_measuring_everything() {
    let dir = Scratch::new("plan-empty");
    let doc = Doc::n_sweep("GPU", "b", &[(1, 1e-3)], times).json();
    write(&dir, "r.json", &doc);
    write(&dir, "c.json", &doc);
    let out = run(&dir, &["--rerun-plan", "plan.txt", "r.json", "c.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    assert_eq!(
        arguments(&plan),
        ["--nvbench-compare-rerun-plan-selects-no-state"]
    );
    assert!(
        plan.contains("No state is AMBG: there is nothing to re-measure."),
        "{plan}"
    );
    assert!(!stderr(&out).contains("hint"), "{}", stderr(&out));
}

#[test]
fn the_plan_is_an_output_like_the_others() {
    let dir = Scratch::new("plan-output");
    let doc = Doc::n_sweep("GPU", "b", &[(1, 1e-3)], times).json();
    write(&dir, "r.json", &doc);
    write(&dir, "c.json", &doc);
    let over_input = run(&dir, &["--rerun-plan", "r.json", "r.json", "c.json"]);
    assert_eq!(over_input.status.code(), Some(2));
    assert!(
        stderr(&over_input).contains("--rerun-plan r.json would overwrite the input file r.json"),
        "{}",
        stderr(&over_input)
    );
    let two_on_stdout = run(
        &dir,
        &["--rerun-plan", "-", "--json", "-", "r.json", "c.json"],
    );
    assert_ne!(two_on_stdout.status.code(), Some(0));
    assert!(
        stderr(&two_on_stdout).contains("cannot both write to stdout"),
        "{}",
        stderr(&two_on_stdout)
    );
    let statuses_alone = run(&dir, &["--rerun-plan-statuses", "slow", "r.json", "c.json"]);
    assert_ne!(statuses_alone.status.code(), Some(0));
    assert!(
        stderr(&statuses_alone)
            .contains("--rerun-plan-statuses chooses the states of --rerun-plan PATH"),
        "{}",
        stderr(&statuses_alone)
    );
    let compare_py = run(
        &dir,
        &[
            "--display",
            "gbench",
            "--rerun-plan",
            "p.txt",
            "r.json",
            "c.json",
        ],
    );
    assert_ne!(compare_py.status.code(), Some(0));
    assert!(
        stderr(&compare_py).contains("--rerun-plan needs this tool's decisions"),
        "{}",
        stderr(&compare_py)
    );
    assert!(!dir.join("p.txt").exists());
    let help = run(&dir, &["--help"]);
    assert!(
        stdout(&help).contains("--rerun-plan <PATH>"),
        "{}",
        stdout(&help)
    );
}
