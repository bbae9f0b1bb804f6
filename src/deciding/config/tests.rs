//! The config's tests: the reference's messages, precedence, the dump, and
//! the checks of every key at its bounds.

use std::path::Path;

use super::keys::{KEYS, known_keys, sections};
use super::*;
use crate::pycompat::pyfmt::str_repr;
use crate::testing::Scratch;

/// A config file in a scratch directory of its own, removed when dropped.
struct TempConfig {
    _dir: Scratch,
    path: String,
}

impl TempConfig {
    fn new(content: impl AsRef<[u8]>) -> Self {
        let dir = Scratch::new("config");
        let path = dir.write("config.toml", content);
        TempConfig { _dir: dir, path }
    }

    fn path(&self) -> &str {
        &self.path
    }
}

/// `nvbench-compare`'s resolution.
fn resolve(
    cli_preset: Option<&str>,
    config_path: Option<&str>,
) -> Result<(String, Thresholds), String> {
    super::resolve(
        cli_preset,
        config_path,
        crate::personality::Personality::Compare.dialect(),
    )
}

#[test]
fn the_robust_permissive_preset_has_its_own_sample_coverage() {
    let robust = crate::personality::Personality::Robust.dialect();
    let (name, thresholds) = super::resolve(Some("permissive"), None, robust).unwrap();
    assert_eq!(name, "permissive");
    assert_eq!(thresholds.bulk_sample_coverage, 0.90);
    assert_eq!(thresholds.rules, Rules::Robust);
    let (_, default) = super::resolve(None, None, robust).unwrap();
    assert_eq!(default.bulk_sample_coverage, 0.97);
    let permissive = resolve(Some("permissive"), None).unwrap().1;
    assert_eq!(permissive.bulk_sample_coverage, 0.98);
    assert_eq!(permissive.rules, Rules::Compare);
}

fn resolve_text(cli_preset: Option<&str>, content: &str) -> Result<(String, Thresholds), String> {
    let config = TempConfig::new(content);
    resolve(cli_preset, Some(config.path()))
}

fn error_for(content: &str) -> String {
    match resolve_text(None, content) {
        Ok(resolved) => panic!("expected an error for {content:?}, got {resolved:?}"),
        Err(message) => message,
    }
}

fn thresholds_for(content: &str) -> Thresholds {
    match resolve_text(None, content) {
        Ok((_, thresholds)) => thresholds,
        Err(message) => panic!("unexpected error for {content:?}: {message}"),
    }
}

const ALL_KEYS: [(&str, &str); 8] = [
    ("clear_gap", "relative"),
    ("same", "center_relative"),
    ("same", "overlap_fraction"),
    ("same", "relative_dispersion_ceiling"),
    ("bulk", "sample_coverage"),
    ("bulk", "support_coverage"),
    ("bulk.rare_support", "sample_fraction"),
    ("bulk.rare_support", "max_removed_sample_fraction"),
];

fn single_value_config(section: &str, key: &str, value: &str) -> String {
    format!("version = 1\n[{section}]\n{key} = {value}\n")
}

fn has_upper_limit(key: &str) -> bool {
    !matches!(
        key,
        "relative" | "center_relative" | "relative_dispersion_ceiling"
    )
}

// -- conformance cases 136-160 -------------------------------------------

/// (case, TOML content, expected stdout line) copied from the corpus.
const CONFORMANCE_ERRORS: [(&str, &str, &str); 22] = [
    (
        "136",
        "version = 1\n[thresholds]\nx = 1\n",
        "unknown top-level config key(s): thresholds",
    ),
    (
        "137",
        "version = 1\n[same]\ncenter = 0.1\n",
        "unknown config key(s) in [same]: center",
    ),
    (
        "138",
        "version = 1\n[clear_gap]\nrelative = 0.1\nabsolute = 0.2\n",
        "unknown config key(s) in [clear_gap]: absolute",
    ),
    (
        "139",
        "version = 1\n[bulk]\ncoverage = 0.5\n",
        "unknown config key(s) in [bulk]: coverage",
    ),
    (
        "140",
        "version = 1\n[bulk.rare_support]\nfraction = 0.5\n",
        "unknown config key(s) in [bulk.rare_support]: fraction",
    ),
    (
        "141",
        "version = 1\n[preset]\nname = \"strict\"\nbase = \"x\"\n",
        "unknown config key(s) in [preset]: base",
    ),
    (
        "142",
        "version = 1\nsame = 0.1\n",
        "config table [same] must be a TOML table",
    ),
    (
        "143",
        "version = 1\n[bulk]\nrare_support = 0.1\n",
        "config table [bulk.rare_support] must be a TOML table",
    ),
    (
        "144",
        "version = 2\n",
        "unsupported comparison config version 2; expected 1",
    ),
    (
        "145",
        "[same]\ncenter_relative = 0.1\n",
        "comparison config must specify integer version = 1",
    ),
    (
        "146",
        "version = \"1\"\n",
        "comparison config must specify integer version = 1",
    ),
    (
        "147",
        "version = true\n",
        "comparison config must specify integer version = 1",
    ),
    (
        "148",
        "version = 1.0\n",
        "comparison config must specify integer version = 1",
    ),
    (
        "149",
        "version = 1\n[same]\ncenter_relative = \"0.1\"\n",
        "config value 'same.center_relative' must be a finite number",
    ),
    (
        "150",
        "version = 1\n[bulk]\nsample_coverage = false\n",
        "config value 'bulk.sample_coverage' must be a finite number",
    ),
    (
        "151",
        "version = 1\n[clear_gap]\nrelative = nan\n",
        "config value 'clear_gap.relative' must be finite",
    ),
    (
        "152",
        "version = 1\n[same]\nrelative_dispersion_ceiling = inf\n",
        "config value 'same.relative_dispersion_ceiling' must be finite",
    ),
    (
        "153",
        "version = 1\n[clear_gap]\nrelative = -0.01\n",
        "config value 'clear_gap.relative' must be >= 0",
    ),
    (
        "154",
        "version = 1\n[same]\noverlap_fraction = 1.5\n",
        "config value 'same.overlap_fraction' must be <= 1",
    ),
    (
        "155",
        "version = 1\n[preset]\nname = \"fast\"\n",
        "unknown comparison preset 'fast'",
    ),
    (
        "157",
        "version = 1\nbulk = { rare_support = { sample_fraction = \"x\" } }\n",
        "config value 'bulk.rare_support.sample_fraction' must be a finite number",
    ),
    (
        "159",
        "version = 1\n[same]\nx = 1\n",
        "unknown config key(s) in [same]: x",
    ),
];

#[test]
fn conformance_error_messages_match_exactly() {
    for (case, content, expected) in CONFORMANCE_ERRORS {
        assert_eq!(error_for(content), expected, "case {case}");
    }
}

/// Where the toml crate's message always stands for one of tomllib's, the
/// error is in tomllib's words (checked against Python 3.11's tomllib).
#[test]
fn common_syntax_errors_in_tomllibs_words() {
    let cases = [
        (
            "version = 1\n[same\ncenter_relative = 0.1\n",
            "Expected ']' at the end of a table declaration (at line 2, column 6)",
        ),
        (
            "[a",
            "Expected ']' at the end of a table declaration (at end of document)",
        ),
        (
            "[[a.b]\n",
            "Expected ']]' at the end of an array declaration (at line 1, column 6)",
        ),
        (
            "a.b c\n",
            "Expected '=' after a key in a key/value pair (at line 1, column 5)",
        ),
        (
            "[a] x\n",
            "Expected newline or end of document after a statement (at line 1, column 5)",
        ),
        (
            "a = 1.5.3\n",
            "Expected newline or end of document after a statement (at line 1, column 8)",
        ),
        ("a = tru\n", "Invalid value (at line 1, column 5)"),
    ];
    for (content, expected) in cases {
        let message = error_for(content);
        let detail = message.split_once(": ").map_or("", |(_, detail)| detail);
        assert_eq!(detail, expected, "{content:?}");
    }
}

#[test]
fn syntax_error_names_file_line_and_column() {
    // Case 156: only the exit code is held; the text is ours.
    let config = TempConfig::new("version = 1\n[same\ncenter_relative = 0.1\n");
    let message = resolve(None, Some(config.path())).unwrap_err();
    let prefix = format!(
        "failed to parse comparison config {}: ",
        str_repr(config.path())
    );
    assert!(message.starts_with(&prefix), "{message}");
    assert!(message.ends_with("(at line 2, column 6)"), "{message}");
    assert!(!message.contains('\n'), "{message}");
}

#[test]
fn missing_file_is_reported_like_python() {
    // Case 158, with the same relative path (tests run in the package root).
    assert!(!Path::new("nope.toml").exists());
    assert_eq!(
        resolve(None, Some("nope.toml")).unwrap_err(),
        "failed to read comparison config 'nope.toml': [Errno 2] No such file or directory: 'nope.toml'"
    );
    assert_eq!(
        resolve(None, Some("")).unwrap_err(),
        "failed to read comparison config '': [Errno 2] No such file or directory: ''"
    );
}

#[test]
fn directory_is_reported_like_python() {
    // Case 160.
    let dir = Scratch::new("confdir");
    let path = dir.to_str().unwrap();
    let quoted = str_repr(path);
    let message = resolve(None, Some(path)).unwrap_err();
    assert_eq!(
        message,
        format!("failed to read comparison config {quoted}: [Errno 21] Is a directory: {quoted}")
    );
}

#[test]
fn path_below_a_file_is_not_a_directory() {
    let config = TempConfig::new("version = 1\n");
    let path = format!("{}/x", config.path());
    let quoted = str_repr(&path);
    assert_eq!(
        resolve(None, Some(&path)).unwrap_err(),
        format!("failed to read comparison config {quoted}: [Errno 20] Not a directory: {quoted}")
    );
}

#[test]
fn embedded_null_byte_is_python_value_error() {
    assert_eq!(
        resolve(None, Some("a\0b")).unwrap_err(),
        "embedded null byte"
    );
}

#[test]
fn invalid_utf8_reports_python_decode_error() {
    // Texts produced by Python 3.11's bytes.decode().
    let cases: [(&[u8], &str); 10] = [
        (b"ab\xff", "byte 0xff in position 2: invalid start byte"),
        (b"\xc0\xaf", "byte 0xc0 in position 0: invalid start byte"),
        (
            b"\xe2(\xa1",
            "byte 0xe2 in position 0: invalid continuation byte",
        ),
        (
            b"ok\xe2\x82",
            "bytes in position 2-3: unexpected end of data",
        ),
        (
            b"\xf0\x90(",
            "bytes in position 0-1: invalid continuation byte",
        ),
        (
            b"\xf0\x90\x8c",
            "bytes in position 0-2: unexpected end of data",
        ),
        (
            b"a\xed\xa0",
            "byte 0xed in position 1: invalid continuation byte",
        ),
        (
            b"\xe0\x80",
            "byte 0xe0 in position 0: invalid continuation byte",
        ),
        (b"\xc3", "byte 0xc3 in position 0: unexpected end of data"),
        (b"\xf5", "byte 0xf5 in position 0: invalid start byte"),
    ];
    for (bytes, detail) in cases {
        let config = TempConfig::new(bytes);
        assert_eq!(
            resolve(None, Some(config.path())).unwrap_err(),
            format!("'utf-8' codec can't decode {detail}"),
            "{bytes:?}"
        );
    }
}

#[test]
fn byte_order_mark_is_a_parse_error() {
    let message = error_for("\u{feff}version = 1\n");
    assert!(
        message.starts_with("failed to parse comparison config "),
        "{message}"
    );
    assert!(message.ends_with("(at line 1, column 1)"), "{message}");
}

#[test]
fn toml_1_1_syntax_is_rejected_like_tomllib() {
    for content in [
        "version = 1\n[preset]\nname = \"\\e\"\n",
        "version = 1\n[preset]\nname = \"\\x41\"\n",
        "version = 1\nsame = {\n center_relative = 0.1 }\n",
        "version = 1\nsame = {center_relative = 0.1,}\n",
        "version = 1\n[clear_gap]\nrelative = 07:32\n",
    ] {
        let message = error_for(content);
        assert!(
            message.starts_with("failed to parse comparison config "),
            "{content:?}: {message}"
        );
    }
}

#[test]
fn datetimes_python_cannot_represent_are_parse_errors() {
    for value in ["1979-05-27T23:59:60Z", "0000-01-01", "23:59:60"] {
        let message = error_for(&single_value_config("clear_gap", "relative", value));
        assert!(
            message.starts_with("failed to parse comparison config "),
            "{value}: {message}"
        );
        assert!(
            message.contains("(at line 3, column 12)"),
            "{value}: {message}"
        );
    }
}

// -- presets and precedence ----------------------------------------------

#[test]
fn preset_values_match_the_reference() {
    let default = preset("default").unwrap();
    assert_eq!(default, Thresholds::default());
    assert_eq!(
        [
            default.clear_gap_relative,
            default.same_center_relative,
            default.same_overlap_fraction,
            default.same_relative_dispersion_ceiling,
            default.bulk_sample_coverage,
            default.bulk_support_coverage,
            default.rare_sample_fraction,
            default.rare_max_removed_sample_fraction,
        ],
        [0.005, 0.005, 0.5, 0.02, 0.97, 0.8, 0.001, 0.01]
    );
    let strict = preset("strict").unwrap();
    assert_eq!(
        [
            strict.clear_gap_relative,
            strict.same_center_relative,
            strict.same_overlap_fraction,
            strict.same_relative_dispersion_ceiling,
            strict.bulk_sample_coverage,
            strict.bulk_support_coverage,
            strict.rare_sample_fraction,
            strict.rare_max_removed_sample_fraction,
        ],
        [0.01, 0.0025, 0.75, 0.01, 0.995, 0.9, 0.001, 0.005]
    );
    let permissive = preset("permissive").unwrap();
    assert_eq!(
        [
            permissive.clear_gap_relative,
            permissive.same_center_relative,
            permissive.same_overlap_fraction,
            permissive.same_relative_dispersion_ceiling,
            permissive.bulk_sample_coverage,
            permissive.bulk_support_coverage,
            permissive.rare_sample_fraction,
            permissive.rare_max_removed_sample_fraction,
        ],
        [0.0025, 0.01, 0.25, 0.05, 0.98, 0.6, 0.001, 0.02]
    );
}

#[test]
fn preset_names_are_sorted_and_known() {
    let mut sorted = PRESET_NAMES;
    sorted.sort_unstable();
    assert_eq!(sorted, PRESET_NAMES);
    for name in PRESET_NAMES {
        assert!(preset(name).is_some(), "{name}");
        assert_eq!(
            resolve(Some(name), None).unwrap(),
            (name.to_string(), preset(name).unwrap())
        );
    }
    assert_eq!(preset("fast"), None);
    assert_eq!(preset("Default"), None);
}

#[test]
fn no_preset_anywhere_means_default() {
    assert_eq!(
        resolve(None, None).unwrap(),
        ("default".to_string(), Thresholds::default())
    );
    assert_eq!(
        resolve(Some(""), None).unwrap(),
        ("default".to_string(), Thresholds::default())
    );
    let resolved = resolve_text(None, "version = 1\n").unwrap();
    assert_eq!(resolved, ("default".to_string(), Thresholds::default()));
}

#[test]
fn toml_preset_replaces_default() {
    let resolved = resolve_text(None, "version = 1\n[preset]\nname = \"permissive\"\n").unwrap();
    assert_eq!(
        resolved,
        ("permissive".to_string(), preset("permissive").unwrap())
    );
}

#[test]
fn cli_preset_replaces_toml_preset() {
    let resolved = resolve_text(
        Some("strict"),
        "version = 1\n[preset]\nname = \"permissive\"\n",
    )
    .unwrap();
    assert_eq!(resolved, ("strict".to_string(), preset("strict").unwrap()));
}

#[test]
fn explicit_toml_values_override_any_preset() {
    // Case 130: permissive in TOML, strict on the command line, one explicit value.
    let content = "version = 1\n[preset]\nname = \"permissive\"\n[bulk]\nsample_coverage = 0.99\n";
    let (name, thresholds) = resolve_text(Some("strict"), content).unwrap();
    assert_eq!(name, "strict");
    let expected = Thresholds {
        bulk_sample_coverage: 0.99,
        ..preset("strict").unwrap()
    };
    assert_eq!(thresholds, expected);
    let (name, thresholds) = resolve_text(None, content).unwrap();
    assert_eq!(name, "permissive");
    let expected = Thresholds {
        bulk_sample_coverage: 0.99,
        ..preset("permissive").unwrap()
    };
    assert_eq!(thresholds, expected);
}

#[test]
fn every_key_lands_in_its_field() {
    let content = "version = 1\n[clear_gap]\nrelative = 0.11\nwithout_clock = \"ambg\"\n\
                   [same]\ncenter_relative = 0.12\n\
                   overlap_fraction = 0.13\nrelative_dispersion_ceiling = 0.14\n[bulk]\n\
                   sample_coverage = 0.15\nsupport_coverage = 0.16\n[bulk.rare_support]\n\
                   sample_fraction = 0.17\nmax_removed_sample_fraction = 0.18\n";
    let expected = Thresholds {
        clear_gap_relative: 0.11,
        clear_gap_without_clock: 1.0,
        same_center_relative: 0.12,
        same_overlap_fraction: 0.13,
        same_relative_dispersion_ceiling: 0.14,
        bulk_sample_coverage: 0.15,
        bulk_support_coverage: 0.16,
        rare_sample_fraction: 0.17,
        rare_max_removed_sample_fraction: 0.18,
        rules: Rules::Compare,
    };
    for cli in [None, Some("strict"), Some("permissive")] {
        assert_eq!(resolve_text(cli, content).unwrap().1, expected);
    }
}

#[test]
fn empty_tables_and_dotted_keys_are_accepted() {
    // Case 131 and the other ways TOML spells the same tables.
    let empty = "version = 1\n[clear_gap]\n[same]\n[bulk]\n[bulk.rare_support]\n[preset]\n";
    assert_eq!(thresholds_for(empty), Thresholds::default());
    let dotted =
        "version = 1\nsame.center_relative = 0.2\nbulk.rare_support.sample_fraction = 0.5\n";
    let thresholds = thresholds_for(dotted);
    assert_eq!(thresholds.same_center_relative, 0.2);
    assert_eq!(thresholds.rare_sample_fraction, 0.5);
    let inline =
        "version = 1\nbulk = { sample_coverage = 0.3, rare_support = { sample_fraction = 0.4 } }\n";
    let thresholds = thresholds_for(inline);
    assert_eq!(thresholds.bulk_sample_coverage, 0.3);
    assert_eq!(thresholds.rare_sample_fraction, 0.4);
}

#[test]
fn unknown_cli_preset_is_rejected_after_the_file() {
    assert_eq!(
        resolve(Some("fast"), None).unwrap_err(),
        "unknown comparison preset 'fast'"
    );
    // File errors come first.
    assert_eq!(
        resolve_text(Some("fast"), "version = 2\n").unwrap_err(),
        "unsupported comparison config version 2; expected 1"
    );
    // A bad TOML preset is an error even when the CLI preset overrides it.
    assert_eq!(
        resolve_text(Some("strict"), "version = 1\n[preset]\nname = \"fast\"\n").unwrap_err(),
        "unknown comparison preset 'fast'"
    );
}

// -- dump ------------------------------------------------------------------

const DUMP_DEFAULT: &str = "version = 1\n\n[preset]\nname = \"default\"\n\n[clear_gap]\nrelative = 0.005\n\n[same]\ncenter_relative = 0.005\noverlap_fraction = 0.5\nrelative_dispersion_ceiling = 0.02\n\n[bulk]\nsample_coverage = 0.97\nsupport_coverage = 0.8\n\n[bulk.rare_support]\nsample_fraction = 0.001\nmax_removed_sample_fraction = 0.01\n";
const DUMP_STRICT: &str = "version = 1\n\n[preset]\nname = \"strict\"\n\n[clear_gap]\nrelative = 0.01\n\n[same]\ncenter_relative = 0.0025\noverlap_fraction = 0.75\nrelative_dispersion_ceiling = 0.01\n\n[bulk]\nsample_coverage = 0.995\nsupport_coverage = 0.9\n\n[bulk.rare_support]\nsample_fraction = 0.001\nmax_removed_sample_fraction = 0.005\n";
const DUMP_FROM_TOML: &str = "version = 1\n\n[preset]\nname = \"permissive\"\n\n[clear_gap]\nrelative = 0.0025\n\n[same]\ncenter_relative = 0.01\noverlap_fraction = 0.25\nrelative_dispersion_ceiling = 0.05\n\n[bulk]\nsample_coverage = 0.99\nsupport_coverage = 0.6\n\n[bulk.rare_support]\nsample_fraction = 0.002\nmax_removed_sample_fraction = 0.02\n";

fn dump_of(resolved: (String, Thresholds)) -> String {
    dump(&resolved.0, &resolved.1, false)
}

#[test]
fn dump_matches_reference_layout() {
    // Cases 132, 133 and 134.
    assert_eq!(dump_of(resolve(None, None).unwrap()), DUMP_DEFAULT);
    assert_eq!(dump_of(resolve(Some("strict"), None).unwrap()), DUMP_STRICT);
    let content = "version = 1\n[preset]\nname = \"permissive\"\n[bulk]\nsample_coverage = 0.99\n\
                   [bulk.rare_support]\nsample_fraction = 0.002\n";
    assert_eq!(
        dump_of(resolve_text(None, content).unwrap()),
        DUMP_FROM_TOML
    );
}

#[test]
fn dump_round_trips_through_resolve() {
    let odd_values = "version = 1\n[clear_gap]\nrelative = 1e+20\n[same]\ncenter_relative = 1e-05\n\
                      overlap_fraction = 0.30000000000000004\nrelative_dispersion_ceiling = 123456789.125\n\
                      [bulk]\nsample_coverage = -0.0\nsupport_coverage = 1\n[bulk.rare_support]\n\
                      sample_fraction = 5e-324\nmax_removed_sample_fraction = 0.9999999999999999\n";
    let mut originals: Vec<(String, Thresholds)> = PRESET_NAMES
        .iter()
        .map(|name| resolve(Some(name), None).unwrap())
        .collect();
    originals.push(resolve_text(Some("strict"), odd_values).unwrap());
    for original in originals {
        let text = dump_of(original.clone());
        let reread = resolve_text(None, &text).unwrap();
        assert_eq!(reread.0, original.0);
        // Compare bit patterns so -0.0 must survive too.
        assert_eq!(format!("{:?}", reread.1), format!("{:?}", original.1));
        assert_eq!(dump_of(reread), text);
    }
}

#[test]
fn dump_prints_python_float_repr() {
    let thresholds = thresholds_for(
        "version = 1\n[clear_gap]\nrelative = 1e16\n[same]\ncenter_relative = 1e-5\n[bulk]\nsample_coverage = 0\n",
    );
    let text = dump("default", &thresholds, false);
    assert!(text.contains("\nrelative = 1e+16\n"), "{text}");
    assert!(text.contains("\ncenter_relative = 1e-05\n"), "{text}");
    assert!(text.contains("\nsample_coverage = 0.0\n"), "{text}");
}

#[test]
fn keys_are_grouped_by_table_with_sub_tables_after_their_parent() {
    let sections: Vec<&str> = sections().collect();
    assert_eq!(sections, ["clear_gap", "same", "bulk", "bulk.rare_support"]);
    // `sections` lists a table once only if its rows stand together.
    for section in &sections {
        let rows: Vec<usize> = (0..KEYS.len())
            .filter(|&i| KEYS[i].section == *section)
            .collect();
        assert_eq!(rows[rows.len() - 1] - rows[0] + 1, rows.len(), "{section}");
    }
    assert_eq!(
        known_keys(""),
        ["version", "preset", "clear_gap", "same", "bulk"]
    );
    assert_eq!(
        known_keys("bulk"),
        ["sample_coverage", "support_coverage", "rare_support"]
    );
}

// -- hints -------------------------------------------------------------------

#[test]
fn hints_cover_every_table_in_reference_order() {
    let config = TempConfig::new(
        "versio = 1\npresett = 2\nclear_gapp = 1\n\
         same = { center_relatve = 0.1, overlap_fractio = 3 }\n\
         [clear_gap]\nrelativ = 1\n[bulk]\nsample_coverag = 1\nrare_suport = 2\n\
         [bulk.rare_support]\nsample_fractio = 1\nmax_removed_sample_fractin = 2\n\
         [preset]\nnam = \"x\"\nname = \"strct\"\n",
    );
    assert_eq!(
        unknown_key_hints(config.path()),
        [
            "unknown key 'clear_gapp' at the top level: did you mean 'clear_gap'?",
            "unknown key 'presett' at the top level: did you mean 'preset'?",
            "unknown key 'versio' at the top level: did you mean 'version'?",
            "unknown key 'nam' in [preset]: did you mean 'name'?",
            "unknown key 'relativ' in [clear_gap]: did you mean 'relative'?",
            "unknown key 'center_relatve' in [same]: did you mean 'center_relative'?",
            "unknown key 'overlap_fractio' in [same]: did you mean 'overlap_fraction'?",
            "unknown key 'rare_suport' in [bulk]: did you mean 'rare_support'?",
            "unknown key 'sample_coverag' in [bulk]: did you mean 'sample_coverage'?",
            "unknown key 'max_removed_sample_fractin' in [bulk.rare_support]: \
             did you mean 'max_removed_sample_fraction'?",
            "unknown key 'sample_fractio' in [bulk.rare_support]: \
             did you mean 'sample_fraction' or 'max_removed_sample_fraction'?",
            "unknown preset 'strct': did you mean 'strict'?",
        ]
    );
    assert!(unknown_key_hints("nope.toml").is_empty());
}

// -- value checks ------------------------------------------------------------

#[test]
fn integers_are_accepted_as_numbers() {
    // Case 128.
    let thresholds = thresholds_for(
        "version = 1\n[clear_gap]\nrelative = 0\n[bulk]\nsample_coverage = 1\nsupport_coverage = 0\n",
    );
    assert_eq!(thresholds.clear_gap_relative, 0.0);
    assert_eq!(thresholds.bulk_sample_coverage, 1.0);
    assert_eq!(thresholds.bulk_support_coverage, 0.0);
    let big = thresholds_for("version = 1\n[clear_gap]\nrelative = 9223372036854775807\n");
    assert_eq!(big.clear_gap_relative, 9.223372036854776e18);
    let hex = thresholds_for("version = 1\n[same]\nrelative_dispersion_ceiling = 0x10\n");
    assert_eq!(hex.same_relative_dispersion_ceiling, 16.0);
}

#[test]
fn integers_beyond_i64_behave_like_python_ints() {
    let thresholds = thresholds_for("version = 1\n[clear_gap]\nrelative = 99999999999999999999\n");
    assert_eq!(thresholds.clear_gap_relative, 1e20);
    assert_eq!(
        error_for("version = 1\n[same]\noverlap_fraction = 1_0000000000000000000\n"),
        "config value 'same.overlap_fraction' must be <= 1"
    );
    assert_eq!(
        error_for("version = -99999999999999999999\n"),
        "unsupported comparison config version -99999999999999999999; expected 1"
    );
    assert_eq!(
        error_for("version = 1\n[preset]\nname = 99999999999999999999\n"),
        "config value 'preset.name' must be a string"
    );
}

#[test]
fn booleans_are_rejected() {
    for (section, key) in ALL_KEYS {
        for value in ["true", "false"] {
            assert_eq!(
                error_for(&single_value_config(section, key, value)),
                format!("config value '{section}.{key}' must be a finite number")
            );
        }
    }
    assert_eq!(
        error_for("version = true\n"),
        "comparison config must specify integer version = 1"
    );
}

#[test]
fn non_numbers_are_rejected() {
    for value in [
        "\"0.1\"",
        "'x'",
        "[]",
        "[0.1]",
        "{}",
        "{ a = 1 }",
        "1979-05-27",
        "07:32:00",
        "1979-05-27T07:32:00Z",
    ] {
        for (section, key) in ALL_KEYS {
            assert_eq!(
                error_for(&single_value_config(section, key, value)),
                format!("config value '{section}.{key}' must be a finite number"),
                "{value}"
            );
        }
    }
}

#[test]
fn non_finite_values_are_rejected() {
    for value in [
        "nan",
        "+nan",
        "-nan",
        "inf",
        "+inf",
        "-inf",
        "1e400",
        "-1e400",
        "+1_0e4_00",
    ] {
        for (section, key) in ALL_KEYS {
            assert_eq!(
                error_for(&single_value_config(section, key, value)),
                format!("config value '{section}.{key}' must be finite"),
                "{value}"
            );
        }
    }
}

#[test]
fn range_boundaries() {
    for (section, key) in ALL_KEYS {
        let full_key = format!("{section}.{key}");
        for at_or_inside in ["0", "0.0", "-0.0", "5e-324", "1e-400", "0.5", "1", "1.0"] {
            let config = single_value_config(section, key, at_or_inside);
            assert!(
                resolve_text(None, &config).is_ok(),
                "{full_key} = {at_or_inside}"
            );
        }
        for below in ["-5e-324", "-0.01", "-1"] {
            assert_eq!(
                error_for(&single_value_config(section, key, below)),
                format!("config value '{full_key}' must be >= 0")
            );
        }
        for above in ["1.0000000000000002", "2", "1e300"] {
            let config = single_value_config(section, key, above);
            if has_upper_limit(key) {
                assert_eq!(
                    error_for(&config),
                    format!("config value '{full_key}' must be <= 1")
                );
            } else {
                assert!(resolve_text(None, &config).is_ok(), "{full_key} = {above}");
            }
        }
    }
}

// -- order of checks ---------------------------------------------------------

#[test]
fn checks_run_in_reference_order() {
    let cases = [
        // unknown top-level keys come before the version, sorted
        (
            "zz = 1\naa = 2\n",
            "unknown top-level config key(s): aa, zz",
        ),
        (
            "version = 2\n[thresholds]\n",
            "unknown top-level config key(s): thresholds",
        ),
        // version before [preset]
        (
            "version = 2\n[preset]\nname = \"fast\"\n",
            "unsupported comparison config version 2; expected 1",
        ),
        (
            "version = -1\n",
            "unsupported comparison config version -1; expected 1",
        ),
        ("version = 0x1\n", ""),
        // [preset] before the threshold tables
        (
            "version = 1\n[clear_gap]\nrelative = -1\n[preset]\nname = 1\n",
            "config value 'preset.name' must be a string",
        ),
        (
            "version = 1\n[preset]\nname = 1\nbase = 2\n",
            "unknown config key(s) in [preset]: base",
        ),
        (
            "version = 1\npreset = [1]\n",
            "config table [preset] must be a TOML table",
        ),
        // [clear_gap] before [same] before [bulk]
        (
            "version = 1\n[bulk]\nx = 1\n[same]\ny = 1\n[clear_gap]\nrelative = -1\n",
            "config value 'clear_gap.relative' must be >= 0",
        ),
        (
            "version = 1\n[bulk]\nx = 1\n[same]\ny = 1\n",
            "unknown config key(s) in [same]: y",
        ),
        // unknown keys of a table before its values, sorted
        (
            "version = 1\n[same]\ncenter_relative = -1\nzeta = 1\nalpha = 2\n",
            "unknown config key(s) in [same]: alpha, zeta",
        ),
        // within a table, the reference's key order, not the file's
        (
            "version = 1\n[same]\nrelative_dispersion_ceiling = nan\noverlap_fraction = 2\ncenter_relative = true\n",
            "config value 'same.center_relative' must be a finite number",
        ),
        (
            "version = 1\n[same]\nrelative_dispersion_ceiling = nan\noverlap_fraction = 2\n",
            "config value 'same.overlap_fraction' must be <= 1",
        ),
        // [bulk]: unknown keys, then its own values, then [bulk.rare_support]
        (
            "version = 1\n[bulk]\nrare_support = 1\nzz = 1\n",
            "unknown config key(s) in [bulk]: zz",
        ),
        (
            "version = 1\n[bulk]\nrare_support = 1\nsupport_coverage = 2\nsample_coverage = -1\n",
            "config value 'bulk.sample_coverage' must be >= 0",
        ),
        (
            "version = 1\n[bulk]\nrare_support = 1\nsupport_coverage = 2\n",
            "config value 'bulk.support_coverage' must be <= 1",
        ),
        (
            "version = 1\n[bulk]\nrare_support = 1\n",
            "config table [bulk.rare_support] must be a TOML table",
        ),
        (
            "version = 1\n[bulk.rare_support]\nmax_removed_sample_fraction = 2\nsample_fraction = 2\n",
            "config value 'bulk.rare_support.sample_fraction' must be <= 1",
        ),
        (
            "version = 1\n[[bulk.rare_support]]\nsample_fraction = 0.1\n",
            "config table [bulk.rare_support] must be a TOML table",
        ),
        (
            "version = 1\n[[same]]\ncenter_relative = 0.1\n",
            "config table [same] must be a TOML table",
        ),
        (
            "version = 1\nbulk = 1979-05-27\n",
            "config table [bulk] must be a TOML table",
        ),
        (
            "version.x = 1\n",
            "comparison config must specify integer version = 1",
        ),
        ("", "comparison config must specify integer version = 1"),
    ];
    for (content, expected) in cases {
        match resolve_text(None, content) {
            Ok(_) => assert_eq!(expected, "", "{content:?}"),
            Err(message) => assert_eq!(message, expected, "{content:?}"),
        }
    }
}

#[test]
fn unknown_preset_names_are_shown_as_python_repr() {
    let cases = [
        ("\"\"", "''"),
        ("\"it's\"", "\"it's\""),
        ("'a\"b'", "'a\"b'"),
        ("\"a'\\\"b\"", "'a\\'\"b'"),
        ("\"tab\\tnl\\n\"", "'tab\\tnl\\n'"),
        // unassigned (U+0378), private-use and format characters are escaped
        ("\"\\u0378\\ue000\\u200b\"", "'\\u0378\\ue000\\u200b'"),
        ("\"é\\U0001F600\"", "'é\u{1f600}'"),
    ];
    for (literal, shown) in cases {
        assert_eq!(
            error_for(&format!("version = 1\n[preset]\nname = {literal}\n")),
            format!("unknown comparison preset {shown}")
        );
    }
}

/// Pathological documents end in an answer, never a panic: the validation
/// errors are the reference's lines; syntax errors are ours (only the exit
/// code is held), one line with the position where the crate gives one.
#[test]
fn hostile_inputs_give_an_answer() {
    let deep = format!("version = 1\nx = {}{}\n", "[".repeat(500), "]".repeat(500));
    let syntax_errors = [
        // How deep the crate goes before giving up is its own business.
        (deep.as_str(), None),
        (
            "version = 1\n[clear_gap]\nrelative = 1e400 2\n",
            Some("(at line 3, column 16)"),
        ),
        (
            "version = 1\n[clear_gap]\nrelative = 0xFFFFFFFFFFFFFFFFFFFF\n",
            Some("(at line 3, column 12)"),
        ),
        ("\0", Some("(at line 1, column 1)")),
        (
            "version = 1\n[a.b]\n[a]\n[a]\n",
            Some("(at line 4, column 1)"),
        ),
        ("é = 1\n", Some("(at line 1, column 1)")),
    ];
    for (content, position) in syntax_errors {
        let message = error_for(content);
        assert!(
            message.starts_with("failed to parse comparison config "),
            "{content:?}: {message}"
        );
        assert!(!message.contains('\n'), "{content:?}: {message}");
        if let Some(position) = position {
            assert!(message.ends_with(position), "{content:?}: {message}");
        }
    }
    assert_eq!(
        error_for("version = 1\nx = [1e400, 2e999, { a = 3e500 }]\n"),
        "unknown top-level config key(s): x"
    );
    assert_eq!(
        error_for("version = 1\n\"é\" = 1\n"),
        "unknown top-level config key(s): é"
    );
    // No newline at the end of the file is fine.
    assert_eq!(
        thresholds_for("version = 1\n[clear_gap]\nrelative = 1"),
        Thresholds {
            clear_gap_relative: 1.0,
            ..Thresholds::default()
        }
    );
}

// -- clear_gap.without_clock (an input without a clock domain) --------------

#[test]
fn without_clock_takes_its_two_words_and_strict_says_ambg() {
    assert_eq!(Thresholds::default().without_clock(), WithoutClock::Confirm);
    assert_eq!(
        preset("permissive").unwrap().without_clock(),
        WithoutClock::Confirm
    );
    assert_eq!(
        preset("strict").unwrap().without_clock(),
        WithoutClock::Ambg
    );
    let ambg = thresholds_for("version = 1\n[clear_gap]\nwithout_clock = \"ambg\"\n");
    assert_eq!(ambg.without_clock(), WithoutClock::Ambg);
    let (_, confirm) = resolve_text(
        Some("strict"),
        "version = 1\n[clear_gap]\nwithout_clock = \"confirm\"\n",
    )
    .unwrap();
    assert_eq!(confirm.without_clock(), WithoutClock::Confirm);
    for bad in ["\"yes\"", "1", "true", "\"AMBG\""] {
        assert_eq!(
            error_for(&single_value_config("clear_gap", "without_clock", bad)),
            "config value 'clear_gap.without_clock' must be one of \"confirm\", \"ambg\""
        );
    }
}

#[test]
fn without_clock_is_dumped_where_it_matters_and_reads_back() {
    // Every config the reference reads dumps as the reference dumps it.
    for name in PRESET_NAMES {
        let text = dump(name, &preset(name).unwrap(), false);
        assert!(!text.contains("without_clock"), "{text}");
        let all = dump(name, &preset(name).unwrap(), true);
        let word = if name == "strict" { "ambg" } else { "confirm" };
        assert!(
            all.contains(&format!(
                "[clear_gap]\nrelative = {}\nwithout_clock = \"{word}\"\n",
                crate::pycompat::pyfmt::float_repr(preset(name).unwrap().clear_gap_relative)
            )),
            "{all}"
        );
    }
    let (name, t) = resolve_text(
        Some("strict"),
        "version = 1\n[clear_gap]\nwithout_clock = \"confirm\"\n",
    )
    .unwrap();
    let text = dump(&name, &t, false);
    assert!(text.contains("without_clock = \"confirm\""), "{text}");
    let config = TempConfig::new(&text);
    assert_eq!(resolve(None, Some(config.path())).unwrap(), (name, t));
}
