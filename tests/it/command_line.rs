//! The command line as a person meets it: help, completions, the man page,
//! `--display simple`, `--show` and `--sort`, on the built binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::util::{Need, Scratch, project, require, root, stderr};

fn case(name: &str) -> PathBuf {
    project("testdata/conformance/cases").join(name)
}

fn run_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = crate::util::command(dir);
    command.args(args).envs(env.iter().copied());
    command.output().unwrap()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    run_with(dir, args, &[])
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn widest_line(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The rows of the first table: the lines between its rule and the blank line.
fn table_rows(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.starts_with("|--"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .collect()
}

fn status_column(rows: &[&str]) -> Vec<String> {
    rows.iter()
        .map(|row| {
            let cells: Vec<&str> = row.split('|').collect();
            cells[cells.len() - 2].trim().to_string()
        })
        .collect()
}

#[test]
fn help_wraps_to_the_terminal_width() {
    let here = root();
    let narrow = run_with(here, &["--help"], &[("COLUMNS", "80")]);
    assert_eq!(narrow.status.code(), Some(0));
    let narrow = stdout(&narrow);
    assert!(widest_line(&narrow) <= 80, "{narrow}");
    let wide = stdout(&run_with(here, &["--help"], &[("COLUMNS", "200")]));
    let widest = widest_line(&wide);
    assert!(widest > 100 && widest <= 200, "widest line {widest}");
    // Not a terminal and no COLUMNS: at most 100 columns.
    let piped = stdout(&run(here, &["--help"]));
    assert!(widest_line(&piped) <= 100, "{piped}");
}

#[test]
fn long_help_groups_options_and_ends_with_examples_and_exit_codes() {
    let here = root();
    let help = stdout(&run_with(here, &["--help"], &[("COLUMNS", "100")]));
    let headings = [
        "Inputs and filters:",
        "Display:",
        "Thresholds:",
        "Outputs:",
        "CI gate:",
        "Shell integration:",
        "Examples:",
        "Exit codes:",
    ];
    let positions: Vec<usize> = headings
        .iter()
        .map(|h| {
            help.lines()
                .position(|l| l == *h)
                .unwrap_or_else(|| panic!("no heading {h}"))
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    assert!(help.contains("NAME[pow2]=[16,20]"), "the -a list syntax");
    assert!(help.contains("exactly this name"), "-b is an exact name");
    assert!(help.contains("  3  --fail-on"));
    let short = stdout(&run(here, &["-h"]));
    assert!(!short.contains("Exit codes:"), "-h stays short");
    assert!(short.lines().count() < help.lines().count() / 2);
}

#[test]
fn completions_parse_in_their_shells() {
    let here = root();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = run(here, &["--generate-completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout(&output);
        assert!(script.contains("nvbench-compare"), "{shell}");
        assert!(script.contains("fail-on"), "{shell}: options are listed");
    }
    let bash = run(here, &["--generate-completions", "bash"]);
    assert_shell_parses("bash", &bash.stdout);
    if require(Need::Zsh) {
        let zsh = run(here, &["--generate-completions", "zsh"]);
        assert_shell_parses("zsh", &zsh.stdout);
    }
    let unknown = run(here, &["--generate-completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2));
}

/// Bash completes `--fail-on` with the gate's categories, not file names.
#[test]
fn bash_completes_the_gate_categories() {
    let bash = run(root(), &["--generate-completions", "bash"]);
    let script = String::from_utf8(bash.stdout).unwrap();
    let complete = |line: &str| {
        let words: Vec<&str> = line.split(' ').collect();
        let probe = format!(
            "{script}\nCOMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; _nvbench__compare nvbench-compare '{cur}' '{prev}'; echo \"${{COMPREPLY[@]}}\"",
            words = words
                .iter()
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" "),
            cword = words.len() - 1,
            cur = words[words.len() - 1],
            prev = words[words.len() - 2],
        );
        let out = Command::new("bash").args(["-c", &probe]).output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    assert_eq!(
        complete("nvbench-compare --fail-on "),
        "slow ambg unknown missing"
    );
    assert_eq!(complete("nvbench-compare --fail-on am"), "ambg");
}

/// Runs `SHELL -n` on the script.
fn assert_shell_parses(shell: &str, script: &[u8]) {
    let mut child = Command::new(shell)
        .arg("-n")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{shell} cannot be run: {e}"));
    child.stdin.take().unwrap().write_all(script).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{shell} -n: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn man_page_renders() {
    let here = root();
    let page = stdout(&run(here, &["--generate-man"]));
    assert!(page.contains(".TH nvbench-compare 1"), "{page}");
    assert!(page.contains(".SH \"EXIT STATUS\"\n.TP\n.B 0\n"), "{page}");
    assert!(page.contains(".SH EXAMPLES\n"), "{page}");
    assert!(!page.contains("EXTRA"), "{page}");
    if !require(Need::Man) {
        return;
    }
    let dir = Scratch::new("man");
    let path = dir.write("nvbench-compare.1", &page);
    let rendered = Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .unwrap();
    assert!(rendered.status.success(), "{}", stderr(&rendered));
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(text.contains("--fail-on"), "{text}");
    assert!(text.contains("EXIT STATUS"), "{text}");
    assert!(
        text.contains("    ref.json cmp.json"),
        "continuation lines keep their indent: {text}"
    );
}

#[test]
fn display_simple_has_upstream_columns_and_formats() {
    // Robust summaries (quartiles) on both sides, one FAST state. The cells
    // up to %C Diff are what upstream's nvbench_compare_robust.py prints.
    let output = run(
        &case("004-gap-summary-cycles-fast"),
        &["--display", "simple", "--no-color", "ref.json", "cmp.json"],
    );
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains(
            "|  Elements{io}  |        Ref |   Ref Span |        Cmp |   Cmp Span |   %C Diff |   Change |  Status  |"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "|      2^20      | 119.982 us |       0.8% | 110.424 us |       0.8% |     -8.7% |"
        ),
        "{text}"
    );
    assert!(text.contains("🟢 FAST"));
}

#[test]
fn show_prints_only_the_listed_statuses_and_the_summary_counts_all() {
    let mixed = case("068-mixed-explain-nocolor");
    let all = stdout(&run(&mixed, &["--no-color", "ref.json", "cmp.json"]));
    let shown = stdout(&run(
        &mixed,
        &["--no-color", "--show", "slow,fast", "ref.json", "cmp.json"],
    ));
    assert_eq!(
        status_column(&table_rows(&shown)),
        ["🟢 FAST", "🔴 SLOW"],
        "{shown}"
    );
    let summary = |text: &str| text[text.find("# Summary").unwrap()..].to_string();
    assert_eq!(summary(&shown), summary(&all));
    let unknown = stdout(&run(
        &mixed,
        &["--no-color", "--show", "unknown", "ref.json", "cmp.json"],
    ));
    assert_eq!(status_column(&table_rows(&unknown)), ["🟡 ????", "🟡 ????"]);
    let typo = run(&mixed, &["--show", "slwo", "ref.json", "cmp.json"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("slow"));
}

#[test]
fn sort_change_orders_rows_by_change_within_each_table() {
    let mixed = case("068-mixed-explain-nocolor");
    let sorted = stdout(&run(
        &mixed,
        &[
            "--no-color",
            "--display",
            "simple",
            "--sort",
            "change",
            "ref.json",
            "cmp.json",
        ],
    ));
    let rows = table_rows(&sorted);
    let changes: Vec<Option<f64>> = rows
        .iter()
        .map(|row| {
            let cells: Vec<&str> = row.split('|').collect();
            let diff = cells[cells.len() - 4].trim();
            diff.strip_suffix('%').and_then(|d| d.parse().ok())
        })
        .collect();
    let known: Vec<f64> = changes.iter().flatten().copied().collect();
    assert!(known.len() >= 6, "{sorted}");
    assert!(known.windows(2).all(|w| w[0] >= w[1]), "{known:?}");
    // Rows without a change (`n/a`) come last.
    let first_missing = changes.iter().position(Option::is_none).unwrap();
    assert!(changes[first_missing..].iter().all(Option::is_none));
    let unsorted = stdout(&run(
        &mixed,
        &["--no-color", "--display", "simple", "ref.json", "cmp.json"],
    ));
    assert_ne!(table_rows(&unsorted), rows);
    let mut a = table_rows(&unsorted);
    let mut b = rows.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same rows, reordered");
}

/// In the intervals table only FAST and SLOW rows show a change (a bound):
/// `--sort change` orders by that, and the rows showing none follow in
/// their order (an AMBG row at +17 % is not put above a SLOW one).
#[test]
fn sort_change_orders_the_intervals_table_by_the_change_it_shows() {
    let mixed = case("068-mixed-explain-nocolor");
    let args = ["--no-color", "--sort", "change", "ref.json", "cmp.json"];
    let sorted = stdout(&run(&mixed, &args));
    let rows = table_rows(&sorted);
    let changes: Vec<Option<f64>> = rows
        .iter()
        .map(|row| {
            let cells: Vec<&str> = row.split('|').collect();
            let change = cells[cells.len() - 3].trim();
            let number = change.trim_start_matches(['<', '>', '=', ' ']);
            number.strip_suffix('%').and_then(|d| d.parse().ok())
        })
        .collect();
    let shown = changes.iter().take_while(|c| c.is_some()).count();
    assert!(shown >= 2, "{sorted}");
    assert!(changes[shown..].iter().all(Option::is_none), "{sorted}");
    let known: Vec<f64> = changes.iter().flatten().copied().collect();
    assert!(known.windows(2).all(|w| w[0] >= w[1]), "{known:?}");
    // The rest keep the order of the unsorted table.
    let unsorted = stdout(&run(
        &mixed,
        &args[..1]
            .iter()
            .chain(&args[3..])
            .copied()
            .collect::<Vec<_>>(),
    ));
    let unsorted = table_rows(&unsorted);
    let rest: Vec<&str> = unsorted
        .iter()
        .copied()
        .filter(|r| rows[shown..].contains(r))
        .collect();
    assert_eq!(rest, rows[shown..].to_vec());
}

/// A config file in a scratch directory of its own.
fn config_file(name: &str, text: &str) -> (Scratch, String) {
    let dir = Scratch::new(&format!("cli-{name}"));
    let path = dir.write("compare.toml", text);
    (dir, path)
}

#[test]
fn config_errors_name_the_file_and_suggest_close_keys() {
    let mixed = case("068-mixed-explain-nocolor");
    let cases = [
        (
            "top",
            "version = 1\n[clear_gapp]\nrelative = 0.1\n",
            "unknown top-level config key(s): clear_gapp\n",
            "unknown key 'clear_gapp' at the top level: did you mean 'clear_gap'?",
        ),
        (
            "section",
            "version = 1\n[same]\ncenter_relatve = 0.1\n",
            "unknown config key(s) in [same]: center_relatve\n",
            "unknown key 'center_relatve' in [same]: did you mean 'center_relative'?",
        ),
        (
            "nested",
            "version = 1\n[bulk.rare_support]\nsample_fractoin = 0.1\n",
            "unknown config key(s) in [bulk.rare_support]: sample_fractoin\n",
            "in [bulk.rare_support]: did you mean 'sample_fraction'?",
        ),
        (
            "preset",
            "version = 1\n[preset]\nname = \"strct\"\n",
            "unknown comparison preset 'strct'\n",
            "unknown preset 'strct': did you mean 'strict'?",
        ),
    ];
    for (name, text, reference_line, hint) in cases {
        let (_dir, path) = config_file(name, text);
        let output = run(&mixed, &["--config", &path, "ref.json", "cmp.json"]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        // stdout stays the reference's line.
        assert_eq!(stdout(&output), reference_line, "{name}");
        let notes = stderr(&output);
        assert!(
            notes.contains(&format!("in the config file {path}")),
            "{name}: {notes}"
        );
        assert!(notes.contains(hint), "{name}: {notes}");
    }
}

#[test]
fn a_fail_on_typo_gets_a_suggestion_and_a_bad_device_filter_is_echoed() {
    let mixed = case("068-mixed-explain-nocolor");
    let typo = run(&mixed, &["--fail-on", "slow,ambq", "ref.json", "cmp.json"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(
        stderr(&typo).contains("did you mean 'ambg'?"),
        "{}",
        stderr(&typo)
    );
    let devices = run(
        &mixed,
        &["--compare-devices", "0,x1", "ref.json", "cmp.json"],
    );
    assert_eq!(devices.status.code(), Some(1));
    assert!(stdout(&devices).starts_with("--compare-devices must be"));
    assert!(
        stderr(&devices).contains("--compare-devices was given \"0,x1\""),
        "{}",
        stderr(&devices)
    );
}

#[test]
fn a_filter_that_matched_nothing_is_named_even_when_others_matched() {
    let examples = project("testdata/examples");
    let files = ["reference.json", "compare.json"];
    let with = |filters: &[&str]| {
        let args: Vec<&str> = filters.iter().chain(&files).copied().collect();
        run(&examples, &args)
    };
    let plain = stdout(&with(&["-b", "copy_type_sweep"]));
    let typo = with(&["-b", "copy_type_swep", "-b", "copy_type_sweep"]);
    assert_eq!(typo.status.code(), Some(0));
    assert_eq!(stdout(&typo), plain, "stdout stays the reference's");
    assert!(
        stderr(&typo).contains(
            "warning: -b 'copy_type_swep' matched no benchmark (close names: 'copy_type_sweep')"
        ),
        "{}",
        stderr(&typo)
    );
    let value = with(&["-a", "T=[I9,I8]"]);
    assert!(
        stderr(&value).contains("-a T=[I9,I8]: axis 'T' has no value 'I9' (did you mean 'I8'?)"),
        "{}",
        stderr(&value)
    );
    let axis = with(&["-a", "Tt=I8", "-b", "copy_type_sweep", "-a", "T=I8"]);
    assert!(
        stderr(&axis).contains("no axis is named 'Tt' (close names: 'T')"),
        "{}",
        stderr(&axis)
    );
    let clean = with(&["-b", "copy_type_sweep", "-a", "T=I8"]);
    assert_eq!(stderr(&clean), "", "filters that match say nothing");
}

/// The README's completion and man page commands work as written in a
/// fresh home (no folders yet), and `man` then finds the page.
#[test]
fn readme_install_commands_work_in_a_fresh_home() {
    let readme = std::fs::read_to_string(crate::util::project("README.md")).unwrap();
    let section = &readme[readme
        .find("## Shell completions and the man page")
        .unwrap()..];
    let block = &section[section.find("```bash\n").unwrap() + 8..];
    let block = &block[..block.find("```").unwrap()];
    let home = Scratch::new("fresh-home");
    let bin = std::path::Path::new(crate::util::BIN).parent().unwrap();
    // `man` is the last line: it needs a terminal and a pager; `man -w`
    // says whether the page is found (without man, the files are still
    // written and checked).
    let has_man = require(Need::Man);
    let last = if has_man {
        "man -w nvbench-compare"
    } else {
        "true"
    };
    let script = block.replace("man nvbench-compare", last);
    let mut command = Command::new("bash");
    crate::util::plain_env(&mut command)
        .env("HOME", &*home)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .args(["-e", "-c", &script]);
    let completion = home.join(".local/share/bash-completion/completions/nvbench-compare");
    let page = home.join(".local/share/man/man1/nvbench-compare.1");
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        std::fs::read_to_string(completion)
            .unwrap()
            .contains("nvbench-compare")
    );
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains(".TH nvbench-compare 1")
    );
    if has_man {
        assert_eq!(stdout(&output).trim(), page.display().to_string());
    }
}

/// Every `nvbench-compare ...` command of the README and the docs is a
/// command line the tool accepts (options spelled right, values valid).
#[test]
fn documented_commands_parse() {
    let mut files = vec![crate::util::project("README.md")];
    let docs = crate::util::project("docs");
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut checked = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for command in documented_commands(&text) {
            let args = shell_words(&command);
            assert!(parses(&args), "{}: {command}", file.display());
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} commands found");
}

/// `args` (argv[0] first) parse as the command they choose.
fn parses(args: &[String]) -> bool {
    use nvbench_compare::cli::argparse::Outcome;
    use nvbench_compare::personality::Personality;
    let args = args.iter().map(std::ffi::OsString::from).collect();
    match nvbench_compare::cli::personality::select(args, Personality::Compare) {
        Ok(invocation) if invocation.personality == Personality::Legacy => {
            let rest: Vec<String> = invocation.args[1..]
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            matches!(
                nvbench_compare::cli::legacy::SPEC.parse_known(&rest),
                Outcome::Parsed(_)
            )
        }
        Ok(invocation) => nvbench_compare::cli::parse(invocation.args).is_ok(),
        Err(_) => false,
    }
}

/// The command lines of the three commands in the bash blocks of a markdown
/// text, continuation lines joined, trailing `# comments` dropped.
fn documented_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_bash = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_bash = line.starts_with("```bash") && !in_bash;
            continue;
        }
        if !in_bash {
            continue;
        }
        let line = match line.find("   #") {
            Some(at) => &line[..at],
            None => line,
        };
        let line = line.trim();
        let (line, continued) = match line.strip_suffix('\\') {
            Some(start) => (start, true),
            None => (line, false),
        };
        pending.push_str(line);
        pending.push(' ');
        if continued {
            continue;
        }
        let command = std::mem::take(&mut pending);
        let command = command.trim();
        let named = [
            "nvbench-compare ",
            "nvbench-compare-robust ",
            "nvbench-compare-legacy ",
        ];
        if named.iter().any(|name| command.starts_with(name))
            && !command.contains('|')
            && !command.contains('>')
        {
            commands.push(command.to_string());
        }
    }
    commands
}

/// Words as a POSIX shell splits them (quotes, no expansions).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}
