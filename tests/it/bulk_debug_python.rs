//! `--bulk-debug-python` output executed by a real Python: `load_bulk_data`
//! returns the sidecar values, and strings from input files cannot inject code.

use std::path::Path;
use std::process::Command;

use crate::util::{Need, Scratch, copy_dir, project, require, run, stderr};

/// A copy of the case whose sidecars the generated code loads.
fn case_copy(name: &str) -> Scratch {
    let target = Scratch::new(&format!("bulkpy-{name}"));
    copy_dir(
        &project("testdata/conformance/cases/161-bulk-debug-stdout"),
        &target,
    );
    target
}

/// The generated code between the markers, as `sed -n '/^# NVB-BULK-BEGIN$/,/^# NVB-BULK-END$/p'` extracts it.
fn generated_python(dir: &Path) -> String {
    let output = run(
        dir,
        &[
            "--no-color",
            "--bulk-debug-python",
            "stdout",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut inside = false;
    let mut code = String::new();
    for line in stdout.split_inclusive('\n') {
        if line == "# NVB-BULK-BEGIN\n" {
            inside = true;
        }
        if inside {
            code.push_str(line);
        }
        if line == "# NVB-BULK-END\n" {
            inside = false;
        }
    }
    assert!(code.ends_with("# NVB-BULK-END\n"), "markers missing");
    code
}

/// Runs `driver` in python3 with the generated code at `code_path`.
fn run_python(dir: &Path, driver: &str) -> String {
    let output = Command::new("python3")
        .args(["-c", driver])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn read_f32(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn load_bulk_data_returns_the_sidecar_values() {
    if !require(Need::Numpy) {
        return;
    }
    let dir = case_copy("roundtrip");
    std::fs::write(dir.join("rows.py"), generated_python(&dir)).unwrap();
    let driver = "exec(open('rows.py').read())\n\
                  import json\n\
                  out = []\n\
                  for row in bulk_rows:\n\
                  \x20   arrays = load_bulk_data(row)\n\
                  \x20   out.append({k: (None if v is None else [float(x) for x in v]) for k, v in arrays.items()})\n\
                  \x20   out[-1]['files'] = [row['compare_sample_filename'], row['reference_frequency_filename']]\n\
                  print(json.dumps(out))\n";
    let printed: serde_json::Value = serde_json::from_str(&run_python(&dir, driver)).unwrap();
    let rows = printed.as_array().unwrap();
    assert!(!rows.is_empty());
    let mut checked = 0;
    for row in rows {
        let files = row["files"].as_array().unwrap();
        for (key, file) in [
            ("compare_samples", &files[0]),
            ("reference_frequencies", &files[1]),
        ] {
            let Some(file) = file.as_str() else { continue };
            let expected: Vec<f64> = read_f32(&dir.join(file))
                .into_iter()
                .map(f64::from)
                .collect();
            let actual: Vec<f64> = row[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(actual, expected, "{key} of {file}");
            assert!(!expected.is_empty());
            checked += 1;
        }
    }
    assert!(checked >= 2, "no row had sidecars to check");
}

/// Under a directory whose name is not UTF-8 (`d\xff`), the generated
/// code names the files as Python's surrogateescape holds them
/// (`'\udcff'`), so `load_bulk_data` reads the samples; the JSON report is
/// strict JSON (`d\\xff` as text) with the exact bytes in hex beside each
/// name, from which Python opens the files.
#[test]
fn file_names_that_are_not_utf8_reach_python_intact() {
    use std::os::unix::ffi::OsStrExt;
    if !require(Need::Numpy) {
        return;
    }
    let dir = Scratch::new("bulkpy-not-utf8");
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"d\xff"));
    copy_dir(
        &project("testdata/conformance/cases/161-bulk-debug-stdout"),
        &odd,
    );
    let inputs = [odd.join("ref.json"), odd.join("cmp.json")];
    let args = ["--bulk-debug-python", "rows.py", "--json", "report.json"];
    let mut command = crate::util::command(&dir);
    let output = command.args(args).args(&inputs).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let code = std::fs::read_to_string(dir.join("rows.py")).unwrap();
    assert!(code.contains("d\\udcff/"), "{code}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let first = &report["states"][0];
    assert!(
        first["reference_json"]
            .as_str()
            .unwrap()
            .ends_with("d\\xff/ref.json")
    );
    let driver = "exec(open('rows.py').read())\n\
                  import json, os\n\
                  arrays = [load_bulk_data(row) for row in bulk_rows]\n\
                  loaded = sum(len(v) for a in arrays for v in a.values() if v is not None)\n\
                  report = json.load(open('report.json'))\n\
                  paths = [os.fsdecode(bytes.fromhex(s['reference_json_bytes']))\n\
                           for s in report['states']]\n\
                  print(loaded, all(os.path.exists(p) for p in paths), len(paths))\n";
    let printed = run_python(&dir, driver);
    let fields: Vec<&str> = printed.split_whitespace().collect();
    assert!(fields[0].parse::<usize>().unwrap() > 0, "{printed}");
    assert_eq!(fields[1], "True", "{printed}");
    assert_ne!(fields[2], "0", "{printed}");
}

/// Rewrites a JSON file's benchmark names and one sidecar filename.
fn inject(path: &Path, benchmark: &str, sidecar: Option<(&str, &str)>) {
    let mut root: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    for bench in root["benchmarks"].as_array_mut().unwrap() {
        bench["name"] = benchmark.into();
        let Some((old, new)) = sidecar else { continue };
        for state in bench["states"].as_array_mut().unwrap() {
            for summary in state["summaries"].as_array_mut().into_iter().flatten() {
                for data in summary["data"].as_array_mut().into_iter().flatten() {
                    if data["value"] == old {
                        data["value"] = new.into();
                    }
                }
            }
        }
    }
    std::fs::write(path, serde_json::to_vec(&root).unwrap()).unwrap();
}

#[test]
fn strings_from_input_files_cannot_inject_code() {
    if !require(Need::Python3) {
        return;
    }
    let dir = case_copy("inject");
    let evil_bench = "x\"\"\"; import os #";
    let evil_file = "cmp.json-bin/we'ird\"\n\\name''' ).bin";
    std::fs::rename(dir.join("cmp.json-bin/0.bin"), dir.join(evil_file)).unwrap();
    inject(&dir.join("ref.json"), evil_bench, None);
    inject(
        &dir.join("cmp.json"),
        evil_bench,
        Some(("cmp.json-bin/0.bin", evil_file)),
    );
    std::fs::write(dir.join("rows.py"), generated_python(&dir)).unwrap();
    // numpy is only needed by load_bulk_data; a stand-in keeps this test
    // independent of it.
    let driver = "import sys, types, json\n\
                  sys.modules.setdefault('numpy', types.ModuleType('numpy'))\n\
                  code = open('rows.py').read()\n\
                  namespace = {}\n\
                  exec(compile(code, 'rows.py', 'exec'), namespace)\n\
                  print(json.dumps({'os_imported': 'os' in namespace, 'rows': namespace['bulk_rows']}))\n";
    let printed: serde_json::Value = serde_json::from_str(&run_python(&dir, driver)).unwrap();
    assert_eq!(printed["os_imported"], false);
    let rows = printed["rows"].as_array().unwrap();
    assert!(rows.iter().all(|row| row["benchmark"] == evil_bench));
    assert_eq!(rows[0]["compare_sample_filename"], evil_file);
}

/// The script of `--vs` (which the reference does not have, so the reader
/// in it is ours), written to `rows.py` in `dir`.
fn repetition_script(dir: &Path) {
    let args = [
        "--bulk-debug-python",
        "rows.py",
        "ref.json",
        "--vs",
        "cmp.json",
    ];
    let output = run(dir, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// Runs `driver` in python3 in `dir`, killed after `seconds`: `None` when
/// it had to be killed, else its stdout (it must succeed).
fn run_python_within(dir: &Path, driver: &str, seconds: u64) -> Option<String> {
    use std::io::Read;
    let mut child = Command::new("python3")
        .args(["-c", driver])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(child.wait().unwrap().success(), "python failed: {err}");
    Some(out)
}

/// Our reader takes a relative sidecar name from the directory
/// nvbench-compare ran in, not from Python's working directory: the script
/// run from elsewhere loads the same values.
#[test]
fn the_repetition_reader_finds_sidecars_from_any_working_directory() {
    if !require(Need::Numpy) {
        return;
    }
    let dir = case_copy("vs-elsewhere");
    repetition_script(&dir);
    let elsewhere = Scratch::new("bulkpy-elsewhere");
    let script = dir.join("rows.py");
    let driver = format!(
        "exec(open({:?}).read())\n\
         row = next(r for r in bulk_rows if r['compare_sample_filename'])\n\
         print(row['compare_sample_filename'])\n\
         print(' '.join(repr(float(v)) for v in load_bulk_data(row)['compare_samples']))\n",
        script.to_str().unwrap()
    );
    let printed = run_python_within(&elsewhere, &driver, 60).expect("python timed out");
    let (file, values) = printed.split_once('\n').unwrap();
    assert!(!file.starts_with('/'), "not a relative name: {file}");
    let expected: Vec<f64> = read_f32(&dir.join(file))
        .into_iter()
        .map(f64::from)
        .collect();
    let loaded: Vec<f64> = values
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(loaded, expected);
}

/// A sidecar that is a FIFO: a plain open (numpy.fromfile's) waits for a
/// writer forever; our reader opens it without blocking and refuses it.
#[test]
fn the_repetition_reader_refuses_a_fifo_without_waiting() {
    if !require(Need::Numpy) {
        return;
    }
    let dir = case_copy("vs-fifo");
    repetition_script(&dir);
    let made = Command::new("mkfifo").arg(dir.join("fifo.bin")).status();
    assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
    let elsewhere = Scratch::new("bulkpy-fifo-elsewhere");
    let driver = format!(
        "exec(open({:?}).read())\n\
         row = dict(bulk_rows[0], compare_sample_filename='fifo.bin')\n\
         try:\n\
         \x20   load_bulk_data(row)\n\
         except ValueError as error:\n\
         \x20   print(error)\n",
        dir.join("rows.py").to_str().unwrap()
    );
    let printed = run_python_within(&elsewhere, &driver, 30).expect("load_bulk_data blocked");
    let fifo = dir.join("fifo.bin");
    assert_eq!(
        printed.trim_end(),
        format!("'{}': not a regular file", fifo.display())
    );
}
