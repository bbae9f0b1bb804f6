//! The command line of the common call, `nvbench-compare ref.json
//! cmp.json`: two paths and no option, read without building clap's
//! command. Building it (some fifty options with their help) and matching
//! against it is a quarter of a millisecond of a run that takes two or
//! three on small files, nearly all of it code and data touched for the
//! first time. The result must equal clap's for the same words, which the
//! tests check; anything else goes to clap.

use std::ffi::OsString;

use super::{Cli, DisplayArg, FormatArg, TimeArg};

/// The options clap would give `[program, first, second]`, when neither
/// path can be read as an option (clap reads any word starting with `-`,
/// `-` and `--` included, as something other than a plain path).
pub(super) fn parse_two_paths(args: &[OsString]) -> Option<Cli> {
    let [_, first, second] = args else {
        return None;
    };
    if [first, second]
        .iter()
        .any(|word| word.as_encoded_bytes().first() == Some(&b'-'))
    {
        return None;
    }
    Some(with_paths(vec![
        crate::text::path_text::to_text(first),
        crate::text::path_text::to_text(second),
    ]))
}

/// Every option at clap's default value.
fn with_paths(paths: Vec<String>) -> Cli {
    Cli {
        paths,
        vs: Vec::new(),
        vs_positions: Vec::new(),
        labels: None,
        layout: None,
        speedup_base: None,
        ignore_devices: false,
        threshold: 0.0,
        preset: None,
        config: None,
        dump_config: false,
        display: DisplayArg::Intervals,
        format: FormatArg::Auto,
        time: TimeArg::Real,
        aggregates_only: false,
        no_utest: false,
        alpha: None,
        bulk_debug_python: None,
        plot_along: None,
        plot: false,
        plot_output: None,
        plot_along_output: None,
        dark: false,
        show: Vec::new(),
        sort: None,
        no_color: false,
        reference_devices: "all".to_string(),
        compare_devices: "all".to_string(),
        benchmark: Vec::new(),
        axis: Vec::new(),
        fail_on: None,
        fail_on_label: None,
        csv: None,
        json: None,
        report_missing: false,
        markdown_summary: None,
        max_bytes: crate::rendering::markdown::DEFAULT_MAX_BYTES,
        explain_ambg: false,
        generate_completions: None,
        generate_man: false,
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;

    use super::parse_two_paths;

    fn words() -> Vec<OsString> {
        let mut words: Vec<OsString> = [
            "ref.json",
            "dir/cmp.json",
            "",
            "help",
            "a=b",
            "with space.json",
            "ünïcødé.json",
            "x-y",
            "+1",
            "1e3",
            "--vs",
        ]
        .map(OsString::from)
        .into();
        words.push(OsString::from_vec(b"bad\xffutf8.json".to_vec()));
        words.push(OsString::from_vec(b"tab\there\x1b[31m.json".to_vec()));
        words
    }

    fn command(words: &[&OsString]) -> Vec<OsString> {
        std::iter::once(OsString::from("nvbench-compare"))
            .chain(words.iter().map(|w| (*w).clone()))
            .collect()
    }

    #[test]
    fn two_plain_paths_read_as_clap_reads_them() {
        let words = words();
        let plain = words
            .iter()
            .filter(|w| !w.as_encoded_bytes().starts_with(b"-"));
        let mut compared = 0;
        for first in plain.clone() {
            for second in plain.clone() {
                let args = command(&[first, second]);
                let fast = parse_two_paths(&args).expect("two plain paths take the fast path");
                let clap = super::super::parse_with_clap(args).expect("clap accepts two paths");
                assert_eq!(
                    format!("{:?}", (fast, Vec::<()>::new())),
                    format!("{clap:?}")
                );
                compared += 1;
            }
        }
        assert_eq!(compared, 12 * 12);
    }

    #[test]
    fn anything_else_is_left_to_clap() {
        let words = words();
        let (a, b) = (&words[0], &words[1]);
        let (dash, double_dash, vs) = (OsString::from("-"), OsString::from("--"), &words[10]);
        for refused in [
            command(&[]),
            command(&[a]),
            command(&[a, b, a]),
            command(&[vs, b]),
            command(&[a, vs]),
            command(&[&dash, b]),
            command(&[a, &double_dash]),
            command(&[&OsString::from("-b"), a]),
            command(&[a, &OsString::from("--help")]),
        ] {
            assert!(parse_two_paths(&refused).is_none(), "{refused:?}");
        }
    }
}
