//! The schema reader against the full reader: whenever it succeeds, the
//! full reader succeeds with the same model, with either classifier.

use super::*;
use crate::loading::anchor::AxisAnchor;
use crate::loading::inputs::read_full;

/// Returns whether the schema reader accepted `input` (with both classifiers).
fn agree(input: &[u8]) -> bool {
    let portable = read_with(input, false);
    let simd = read_with(input, true);
    assert_eq!(
        portable.as_ref().map(|root| format!("{root:?}")).ok(),
        simd.as_ref().map(|root| format!("{root:?}")).ok(),
        "the classifiers disagree on {:?}",
        String::from_utf8_lossy(input)
    );
    let Ok(fast) = simd else {
        return false;
    };
    let full = read_full(input).unwrap_or_else(|e| {
        panic!(
            "the full reader refused what the schema reader accepted ({e}): {:?}",
            String::from_utf8_lossy(input)
        )
    });
    assert_eq!(
        format!("{fast:?}"),
        format!("{full:?}"),
        "{:?}",
        String::from_utf8_lossy(input)
    );
    true
}

#[test]
fn agrees_with_the_full_reader_on_every_shipped_file() {
    let (accepted, files) = crate::testing::accepted_shipped_files(agree);
    assert!(accepted * 10 >= files * 8, "{accepted}/{files}");
}

const STATE: &str = r#"{"name": "Device=0 N=1", "device": 0, "min_samples": 10,
  "axis_values": [{"name": "N", "type": "int64", "value": "1"}],
  "summaries": [
    {"tag": "nv/cold/sample_size", "name": "Samples", "data": [{"name": "value", "type": "int64", "value": "5"}]},
    {"tag": "nv/cold/time/gpu/mean", "name": "GPU Time", "hint": "duration",
     "data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]},
    {"tag": "nv/cold/time/gpu/stdev/relative", "data": [{"name": "value", "type": "float64", "value": "0.01"}]}
  ], "is_skipped": false}"#;

fn document(state: &str) -> String {
    format!(
        r#"{{"meta": {{"argv": ["b"], "version": {{"json": {{"string": "1.0.0"}}}}}},
 "devices": [{{"id": 0, "name": "GPU"}}],
 "benchmarks": [{{"name": "b", "devices": [0], "axes": [{{"name": "N", "type": "int64", "flags": ""}}],
   "states": [{state}]}}]}}"#
    )
}

#[test]
fn reads_the_usual_shape() {
    assert!(agree(document(STATE).as_bytes()));
}

/// Each edit of the usual document: accepted with the full reader's model,
/// or given up on (`false`: must give up, `true`: must be accepted).
#[test]
fn unusual_shapes_are_read_as_the_full_reader_reads_them() {
    let cases: &[(&str, &str, bool)] = &[
        // Escaped keys and tags, read by the full reader's deserializers.
        (
            r#""tag": "nv/cold/time/gpu/mean""#,
            r#""t\u0061g": "nv/cold/time/gpu/mean""#,
            true,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""d\u0061ta": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            true,
        ),
        ("nv/cold/time/gpu/mean", r"nv\/cold/time/gpu/mean", true),
        (r#""value": "1.5e-3""#, r#""value": "1.5\u0065-3""#, true),
        (
            r#""name": "Device=0 N=1""#,
            r#""n\u0061me": "Device=0 N=1""#,
            true,
        ),
        // Strings whose end is found from the next token: whitespace
        // before it, escapes and non-ASCII text in them.
        (
            r#""value": "1.5e-3"}"#,
            "\"value\": \"1.5e-3\" \n\t\r }",
            true,
        ),
        (
            r#""tag": "nv/cold/time/gpu/mean","#,
            "\"tag\": \"nv/cold/time/gpu/mean\"\n    ,",
            true,
        ),
        (r#""value": "1.5e-3""#, r#""value": "1.5e-3\"""#, true),
        (r#""value": "1.5e-3""#, r#""value": "1.5e-3\\""#, true),
        (r#""name": "GPU Time""#, r#""name": "GPU \"Time\"""#, true),
        (r#""value": "1.5e-3""#, r#""value": "1.5e-3é""#, true),
        (r#""type": "float64""#, r#""type": "float64 ""#, true),
        (r#""type": "float64""#, r#""type": "flo\u0061t64""#, true),
        (r#""name": "value""#, r#""name": "valu\u0065""#, true),
        // Float text the fast parser leaves to the standard one.
        (
            r#""value": "1.5e-3""#,
            r#""value": "0.1234567890123456789012""#,
            true,
        ),
        (r#""value": "1.5e-3""#, r#""value": "1.5e-320""#, true),
        (r#""value": "1.5e-3""#, r#""value": " 1.5e-3""#, true),
        (r#""value": "1.5e-3""#, r#""value": "1_5""#, true),
        (r#""value": "1.5e-3""#, r#""value": "-inf""#, true),
        (r#""value": "1.5e-3""#, r#""value": "x""#, true),
        // Other value types and orders.
        (r#""value": "1.5e-3""#, r#""value": 1.5e-3"#, true),
        (r#""value": "1.5e-3""#, r#""value": null"#, true),
        (
            r#""value": "1.5e-3""#,
            r#""value": 12345678901234567890123"#,
            true,
        ),
        (r#""value": "1.5e-3""#, r#""value": "NaN""#, true),
        (
            r#""type": "float64", "value": "1.5e-3""#,
            r#""value": "1.5e-3", "type": "float64""#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/time/gpu/mean", "name": "GPU Time","#,
            r#"{"name": "GPU Time", "tag": "nv/cold/time/gpu/mean","#,
            true,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": {}"#,
            true,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": 7"#,
            true,
        ),
        (r#""summaries": ["#, r#""summaries": [[], "#, false),
        (r#""summaries": ["#, r#""summaries": [{}, "#, true),
        // Axis values: walked, or read again by the full reader.
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "\u004e", "type": "int64", "value": "1"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": null, "value": "1"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": 5, "value": "1"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64", "value": null}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64", "value": 1}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64", "value": [1, 2]}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64", "value": "12345678901234567890123"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "flags": "x", "type": "int64", "value": "1"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"value": "1", "type": "int64", "name": "N"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "type": "int64", "value": "1"}, {"name": "M", "type": "string", "value": "x"}"#,
            true,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"type": "int64", "value": "1"}"#,
            false,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": 5, "type": "int64", "value": "1"}"#,
            false,
        ),
        (
            r#""axis_values": [{"name": "N", "type": "int64", "value": "1"}]"#,
            r#""axis_values": []"#,
            true,
        ),
        (
            r#""axis_values": [{"name": "N", "type": "int64", "value": "1"}]"#,
            r#""axis_values": null"#,
            true,
        ),
        (
            r#""axis_values": [{"name": "N", "type": "int64", "value": "1"}]"#,
            r#""axis_values": [7]"#,
            false,
        ),
        (
            r#"{"name": "N", "type": "int64", "value": "1"}"#,
            r#"{"name": "N", "name": "M", "type": "int64", "value": "1"}"#,
            false,
        ),
        (r#""device": 0"#, r#""device": 0.0"#, true),
        (r#""device": 0"#, r#""device": 7"#, true),
        (r#""device": 0"#, r#""device": 123456789012345678"#, true),
        (r#""device": 0"#, r#""device": 1234567890123456789"#, true),
        (r#""device": 0"#, r#""device": 9223372036854775808"#, true),
        (r#""device": 0"#, r#""device": -1"#, true),
        (r#""device": 0"#, r#""device": 1e3"#, true),
        (r#""device": 0"#, r#""device": 00"#, false),
        (r#""device": 0"#, r#""device": true"#, true),
        (r#""device": 0"#, r#""device": truex"#, false),
        (r#""device": 0"#, r#""device": 0 1"#, false),
        (r#""is_skipped": false"#, r#""is_skipped": true"#, true),
        (r#""is_skipped": false"#, r#""is_skipped": 0"#, true),
        (r#""is_skipped": false"#, r#""is_skipped": fals"#, false),
        (
            r#""name": "Device=0 N=1""#,
            r#""name": "Device=0 \"N\"=1""#,
            true,
        ),
        (r#""name": "Device=0 N=1""#, r#""name": 7"#, false),
        (r#""device": 0"#, r#""device": "0""#, true),
        (
            r#""is_skipped": false"#,
            r#""is_skipped": {"a": [1]}"#,
            true,
        ),
        // Duplicate keys: serde refuses them, Python keeps the last.
        (r#""device": 0"#, r#""device": 0, "device": 1"#, false),
        (
            r#""tag": "nv/cold/time/gpu/mean""#,
            r#""tag": "nv/cold/time/gpu/mean", "tag": "nv/cold/time/gpu/min""#,
            true,
        ),
        (
            r#""min_samples": 10"#,
            r#""min_samples": 10, "min_samples": 11"#,
            true,
        ),
        // Syntax the skipped values must still have.
        (r#""min_samples": 10"#, r#""min_samples": 01"#, false),
        (r#""min_samples": 10"#, r#""min_samples": 1.e5"#, false),
        (r#""min_samples": 10"#, r#""min_samples": -"#, false),
        (r#""min_samples": 10"#, r#""min_samples": tru"#, false),
        (r#""min_samples": 10"#, r#""min_samples": truex"#, false),
        (r#""min_samples": 10"#, r#""min_samples": NaN"#, false),
        (r#""min_samples": 10"#, r#""min_samples": [1 2]"#, false),
        (r#""min_samples": 10"#, r#""min_samples": [1,]"#, false),
        (r#""min_samples": 10"#, r#""min_samples": {"a" 1}"#, false),
        (r#""min_samples": 10"#, r#""min_samples": {"a": 1,}"#, false),
        (r#""min_samples": 10"#, r#""min_samples": {1: 2}"#, false),
        (r#""min_samples": 10"#, r#""min_samples": [}"#, false),
        (r#""min_samples": 10"#, r#""min_samples": "a\x""#, false),
        (r#""min_samples": 10"#, r#""min_samples": "a\u12""#, false),
        (
            r#""min_samples": 10"#,
            "\"min_samples\": \"tab\there\"",
            false,
        ),
        (r#""min_samples": 10"#, "\"min_samples\": 1\u{1}", false),
        (r#""min_samples": 10"#, r#""min_samples": "\ud800""#, true),
        (
            r#""min_samples": 10"#,
            r#""min_samples": "caf\u00e9 \"q\" \\""#,
            true,
        ),
        (
            r#""min_samples": 10"#,
            "\"min_samples\": \"caf\u{e9} \u{1F600}\"",
            true,
        ),
        (r#""min_samples": 10"#, r#""min_samples": 1e400"#, true),
        (r#""min_samples": 10"#, r#""min_samples": -0"#, true),
        // Float data the reader does not extract itself: read again whole.
        (r#""value": "1.5e-3""#, r#""value": "abc""#, true),
        (r#""value": "1.5e-3""#, r#""value": " 1.5e-3 ""#, true),
        (r#""value": "1.5e-3""#, r#""value": "1_5""#, true),
        (r#""value": "1.5e-3""#, r#""value": "nan""#, true),
        (
            r#""value": "1.5e-3""#,
            r#""value": "1.5e-3", "extra": 1"#,
            true,
        ),
        (r#""type": "float64""#, r#""type": "int64""#, true),
        (r#""type": "float64", "#, "", true),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": [{"name": "other", "type": "float64", "value": "2"}, {"name": "value", "type": "float64", "value": "1.5e-3"}, {"name": "value", "type": "float64", "value": "7"}]"#,
            true,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": [{"name": "other"}, {"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            true,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}, 3]"#,
            false,
        ),
        (
            r#""data": [{"name": "value", "type": "float64", "value": "1.5e-3"}]"#,
            r#""data": []"#,
            true,
        ),
        (
            r#""value": "1.5e-3""#,
            r#""value": "1.5e-3", "value": "2""#,
            false,
        ),
        // The data of a summary not read: skipped, with its syntax checked.
        (r#""value": "5"}]"#, r#""value": 5}]"#, true),
        (
            r#""value": "5"}]"#,
            r#""value": "5"}, {}, 3, [], {"a": [1, {"b": null}]}]"#,
            true,
        ),
        (
            r#""value": "5"}]"#,
            r#""value": "5", "x": {"y": "z"}}]"#,
            true,
        ),
        (r#""value": "5"}]"#, r#""value": "5"}, ]"#, false),
        (r#""value": "5"}]"#, r#""value": "5",}]"#, false),
        (r#""value": "5"}]"#, r#""value" "5"}]"#, false),
        (r#""value": "5"}]"#, r#""value": "5"} {}]"#, false),
        (r#""value": "5"}]"#, r#""value": "5" "x"}]"#, false),
        (r#""value": "5"}]"#, r#""value": "5", 1: 2}]"#, false),
        (r#""value": "5"}]"#, r#""value": 05}]"#, false),
        (r#""value": "5"}]"#, r#""value": "5"}, [}]"#, false),
        (r#""value": "5"}]"#, r#""value": "5"}]]"#, false),
        // A value the full reader reads, then a scalar byte right after it
        // (the blocks, classified ahead, saw one run of scalar bytes).
        (r#""device": 0"#, r#""device": 0x"#, false),
        (r#""is_skipped": false"#, r#""is_skipped": false1"#, false),
        // A byte the blocks refuse after a value the full reader reads
        // (the refusal came before the walker reached it).
        (r#""is_skipped": false"#, r#""is_skipped": false é "#, false),
        (r#""device": 0"#, r#""device": 0 \ "#, false),
        (r#""name": "Samples""#, r#""name": "Sam"ples""#, false),
        (r#""name": "Samples""#, r#""name" "Samples""#, false),
        (r#""name": "Samples""#, r#""name": "Samples" "x": 1"#, false),
    ];
    for (from, to, accepted) in cases {
        assert!(STATE.contains(from), "{from}");
        let input = document(&STATE.replacen(from, to, 1));
        assert_eq!(agree(input.as_bytes()), *accepted, "{to}");
    }
    // Bytes that are not UTF-8, in a skipped string and in a read one.
    for (from, to) in [
        (&b"Samples"[..], &b"Sam\xffples"[..]),
        (b"GPU Time", b"GPU \xc3\x28"),
    ] {
        let input = document(STATE).into_bytes();
        let at = input.windows(from.len()).position(|w| w == from).unwrap();
        let edited = [&input[..at], to, &input[at + from.len()..]].concat();
        assert!(!agree(&edited));
    }
    // After the document: whitespace only.
    for tail in [" x", "}", " 1", "\u{0}", " \"", "  ", "\n\t\r"] {
        let input = format!("{}{tail}", document(STATE));
        assert_eq!(agree(input.as_bytes()), tail.trim().is_empty(), "{tail:?}");
    }
}

/// The blocks are classified ahead of the walker: a byte they refuse may
/// be in a block classified while the walker is in an earlier value it then
/// hands to the full reader. Padding moves the edit across the classified
/// chunks, so that some refusal happens at each point of the walk.
#[test]
fn refusals_ahead_of_the_walker_are_kept() {
    let edited = STATE.replacen(
        r#""is_skipped": false"#,
        r#""is_skipped": false \u00e9 "#,
        1,
    );
    let plain = STATE.replacen(r#""device": 0"#, r#""device": 0.0"#, 1);
    for pad in (0..4200).step_by(11) {
        let first = plain.replacen(
            r#""min_samples": 10"#,
            &format!(r#""min_samples": 10, "pad": "{}""#, "x".repeat(pad)),
            1,
        );
        let input = document(&format!("{first}, {edited}"));
        assert!(!agree(input.as_bytes()), "pad {pad}");
    }
}

#[test]
fn deep_values_are_left_to_the_full_reader() {
    for depth in [10, 89, 90, 91, 95, 99, 100, 101, 130] {
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let input = document(&STATE.replacen("10", &deep, 1));
        agree(input.as_bytes());
    }
}

/// Random edits of shipped files and of the usual document (truncations,
/// byte flips, inserted escapes, whitespace and duplicate keys): whatever
/// the schema reader accepts, the full reader accepts with the same model.
#[test]
fn mutated_files_never_disagree() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        crate::testing::xorshift_step(&mut state);
        state
    };
    const INTERESTING: &[u8] = b"\"{}[],:\\ \n0123456789eE.+-tfnu\x00\x1f\x7f\x80\xc3\xff";
    const INSERTS: &[&[u8]] = &[
        b"\\\"",
        b"\\u0041",
        b"\\",
        b"   ",
        b"\n\t",
        b"\"tag\": \"x\", ",
        b"\"data\": [], ",
        b"\"name\": \"y\", ",
        b"\"device\": 1, ",
        b"\"summaries\": [], ",
        b"\"axis_values\": [{\"name\": \"A\"}], ",
        b"\"type\": null, ",
        b"\"value\": 7, ",
        b"\xc3\xa9",
    ];
    let mut bases: Vec<Vec<u8>> = crate::testing::shipped_json_files()
        .into_iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < 20_000))
        .step_by(8)
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    bases.push(document(STATE).into_bytes());
    assert!(bases.len() > 10);
    let (mut accepted, mut total) = (0, 0);
    for base in &bases {
        for _ in 0..150 {
            let mut input = base.clone();
            for _ in 0..1 + next() % 3 {
                if input.is_empty() {
                    break;
                }
                let at = (next() as usize) % input.len();
                let byte = INTERESTING[(next() as usize) % INTERESTING.len()];
                match next() % 5 {
                    0 => input[at] = byte,
                    1 => input.insert(at, byte),
                    2 => {
                        input.remove(at);
                    }
                    3 => {
                        let insert = INSERTS[(next() as usize) % INSERTS.len()];
                        input.splice(at..at, insert.iter().copied());
                    }
                    _ => input.truncate(at),
                }
            }
            total += 1;
            if agree(&input) {
                accepted += 1;
            }
        }
    }
    // The schema reader must not refuse everything (a sixth of the
    // mutated inputs stay valid documents it reads).
    assert!(accepted * 6 > total, "{accepted}/{total}");
}

/// A tag told apart by its first bytes is never one the comparison reads,
/// escapes and all; the names it reads are never told apart so.
#[test]
fn tags_told_apart_by_their_first_bytes_are_never_read_ones() {
    use crate::loading::summaries::Tag;
    let known = Tag::ALL.map(Tag::name);
    let others = [
        "nv/cold/sample_size",
        "nv/cold/walltime",
        "nv/cold/time/cpu/min",
        "nv/cold/time/cpu/stdev/relative",
        "nv/cold/bw/global/bytes_per_second",
        "nv/batch/time/gpu/mean",
        "nv/cold/sm_clock_rate/scaling/percent",
        "x",
        "",
    ];
    for name in known {
        assert!(Tag::from_name(name).is_some(), "{name}");
        let mut raw = format!("{name}\"").into_bytes();
        raw.resize(raw.len().max(16), b' ');
        assert!(!walk::surely_other_tag(&raw), "{name}");
    }
    let mut state = 0x243F_6A88_85A3_08D3u64;
    let mut next = move |n: u64| {
        crate::testing::xorshift_step(&mut state);
        state % n
    };
    let mut told = 0;
    for _ in 0..200_000 {
        let base = if next(2) == 0 {
            known[next(known.len() as u64) as usize]
        } else {
            others[next(others.len() as u64) as usize]
        };
        let mut body = base.to_string();
        for _ in 0..next(3) {
            let at = next(body.len() as u64 + 1) as usize;
            let piece = [
                "\\u0067", "\\u0074", "\\/", "\\\\", "g", "t", "s", "/", "c", "j", "\\u006e",
            ][next(11) as usize];
            let end = (at + next(2) as usize).min(body.len());
            if body.is_char_boundary(at) && body.is_char_boundary(end) {
                body.replace_range(at..end, piece);
            }
        }
        // The body as the full reader decodes it.
        let Ok(decoded) = serde_json::from_str::<String>(&format!("\"{body}\"")) else {
            continue;
        };
        let mut raw = format!("{body}\", \"name\\u0067\"").into_bytes();
        raw.truncate(16.max(body.len() + 1));
        if walk::surely_other_tag(&raw) {
            told += 1;
            assert!(
                Tag::from_name(&decoded).is_none(),
                "{body:?} is {decoded:?}"
            );
        }
    }
    assert!(told > 10_000, "{told}");
}

/// States repeating an axis value (whose handle is shared) and the same
/// value in other text (other spacing too) read as the full reader reads
/// them.
#[test]
fn repeated_axis_values_read_alike() {
    let second = STATE
        .replacen("Device=0 N=1", "Device=0 N=1 again", 1)
        .replacen(
            r#"[{"name": "N", "type": "int64", "value": "1"}]"#,
            r#"[{"name": "N", "type": "int64", "value": "1"}, {"name": "N", "type": "int64", "value":"1"}]"#,
            1,
        );
    let input = document(&format!("{STATE}, {second}"));
    assert!(agree(input.as_bytes()));
    let root = read_with(input.as_bytes(), true).unwrap();
    let states = root.benchmarks.as_ref().unwrap()[0].states();
    let (first, second) = (states[0].axis_values(), states[1].axis_values());
    assert_eq!(*first[0], *second[0]);
    assert_eq!(*second[0], *second[1]);
}

/// Axis-value lists are attached once every state is read: each goes to
/// its own state when states around it are given up on by the walker,
/// after their lists (an escaped key later in the state) or within them
/// (an escaped axis name), and read by the full reader.
#[test]
fn axis_value_lists_go_to_their_states_around_states_the_walker_gives_up_on() {
    let state = |n: usize| {
        STATE
            .replacen("Device=0 N=1", &format!("Device=0 N={n}"), 1)
            .replacen(r#""value": "1"}]"#, &format!(r#""value": "{n}"}}]"#), 1)
    };
    let after_list = state(2).replacen(r#""is_skipped""#, r#""is_sk\u0069pped""#, 1);
    let within_list = state(3).replacen(r#"[{"name": "N""#, r#"[{"name": "\u004e""#, 1);
    assert_ne!(after_list, state(2));
    assert_ne!(within_list, state(3));
    let input = document(&[state(1), after_list, within_list, state(4)].join(", "));
    assert!(agree(input.as_bytes()));
    let root = read_with(input.as_bytes(), true).unwrap();
    let states = root.benchmarks.as_ref().unwrap()[0].states();
    let values: Vec<String> = states
        .iter()
        .map(|s| format!("{:?}", s.axis_values()[0].value))
        .collect();
    assert_eq!(values.len(), 4);
    for (n, value) in (1..=4).zip(&values) {
        assert!(value.contains(&format!("\"{n}\"")), "{n}: {value}");
    }
}

/// A run read after the first one reads as it does alone, whether its
/// states and axis values are identical to the first run's, equal but
/// printed apart (`-0.0 == 0.0`), at other positions or beyond the first
/// run's states.
#[test]
fn a_run_read_after_the_first_reads_as_alone() {
    let state = |n: usize, x: &str| {
        STATE
            .replacen("Device=0 N=1", &format!("Device=0 N={n}"), 1)
            .replacen(
                r#"[{"name": "N", "type": "int64", "value": "1"}]"#,
                &format!(
                    r#"[{{"name": "N", "type": "int64", "value": "{n}"}}, {{"name": "X", "type": "float64", "value": {x}}}]"#
                ),
                1,
            )
    };
    let doc = |states: &[String]| document(&states.join(", "));
    let anchor_doc = doc(&[state(1, "0.5"), state(2, "0.0"), state(3, "0.5")]);
    let run_doc = doc(&[
        state(1, "0.5"),
        state(2, "-0.0"),
        state(4, "0.5"),
        state(5, "0.5"),
    ]);
    let anchor = AxisAnchor::of(&read_with(anchor_doc.as_bytes(), true).unwrap());
    for avx2 in [false, true] {
        let own = read_with(run_doc.as_bytes(), avx2).unwrap();
        let anchored = read_anchored_with(run_doc.as_bytes(), avx2, Role::Later(&anchor)).unwrap();
        assert_eq!(format!("{anchored:?}"), format!("{own:?}"));
    }
}

/// A run read beside the first one waits for its idents at the end of a
/// benchmark (the first run finishes the anchor when its reading ends),
/// and both read as they do alone.
#[test]
fn runs_read_side_by_side_read_as_alone() {
    let state = |n: usize| STATE.replace("Device=0 N=1", &format!("Device=0 N={n}"));
    let first_doc = document(&[state(1), state(2)].join(", "));
    let later_doc = document(&[state(1), state(3)].join(", "));
    let anchor = AxisAnchor::default();
    let (first, later) = std::thread::scope(|scope| {
        let later =
            scope.spawn(|| read_anchored_with(later_doc.as_bytes(), true, Role::Later(&anchor)));
        std::thread::sleep(std::time::Duration::from_millis(20));
        let first = {
            let _finish = anchor.finish_on_drop();
            read_anchored_with(first_doc.as_bytes(), true, Role::First(&anchor))
        };
        (first.unwrap(), later.join().unwrap().unwrap())
    });
    let alone = |doc: &str| format!("{:?}", read_with(doc.as_bytes(), true).unwrap());
    assert_eq!(format!("{first:?}"), alone(&first_doc));
    assert_eq!(format!("{later:?}"), alone(&later_doc));
}

/// A skip reason is the run's own: a later run neither takes the first
/// run's nor lends its own.
#[test]
fn skip_reasons_stay_with_their_runs() {
    let skipped = STATE.replace(
        r#""is_skipped": false"#,
        r#""is_skipped": true, "skip_reason": "no memory""#,
    );
    assert_ne!(skipped, STATE);
    let reason = |root: &Root| {
        let state = &root.benchmarks.as_ref().unwrap()[0].states()[0];
        state.skip_reason().map(|r| r.py_str())
    };
    for (first, later) in [(skipped.as_str(), STATE), (STATE, skipped.as_str())] {
        let first_root = read_with(document(first).as_bytes(), true).unwrap();
        let anchor = AxisAnchor::of(&first_root);
        let later_doc = document(later);
        let read = read_anchored_with(later_doc.as_bytes(), true, Role::Later(&anchor)).unwrap();
        let alone = read_with(later_doc.as_bytes(), true).unwrap();
        assert_eq!(reason(&read), reason(&alone));
        assert_ne!(reason(&read), reason(&first_root));
        assert_eq!(format!("{read:?}"), format!("{alone:?}"));
    }
}

/// [`agree`], and how many summaries the templates matched (the same
/// with either classifier).
fn agree_and_hits(input: &[u8]) -> (bool, usize) {
    let accepted = agree(input);
    let (_, hits) = read_and_hits(input, true);
    let (_, portable) = read_and_hits(input, false);
    assert_eq!(hits, portable, "{:?}", String::from_utf8_lossy(input));
    (accepted, hits)
}

/// Unread summaries put before those of [`STATE`] by [`repeated`]: the
/// summaries after them are then further from the walker than the blocks
/// are classified ahead of it (2 KB), so that the templates are tried on
/// them before the blocks see them.
const EXTRAS: usize = 16;

/// `n` states like [`STATE`] with [`EXTRAS`] more summaries each, each
/// with its own name and values, the `i`-th edited by `edit(i, state)`.
fn repeated(n: usize, edit: impl Fn(usize, String) -> String) -> String {
    let states: Vec<String> = (0..n)
        .map(|i| {
            let extras: String = (0..EXTRAS)
                .map(|j| {
                    format!(
                        r#"{{"tag": "nv/cold/extra/{j}", "name": "Extra {j}",
     "description": "a summary not read, of the usual shape",
     "data": [{{"name": "value", "type": "float64", "value": "{i}.{j}5"}}]}},
    "#
                    )
                })
                .collect();
            let state = STATE
                .replacen("Device=0 N=1", &format!("Device=0 N={i}"), 1)
                .replacen("1.5e-3", &format!("{}.25e-3", i + 1), 1)
                .replacen(r#""0.01""#, &format!(r#""0.0{i}1""#), 1)
                .replacen(r#""value": "5""#, &format!(r#""value": "{}""#, 5 + i), 1)
                .replacen(
                    r#"{"tag": "nv/cold/sample_size""#,
                    &format!(r#"{extras}{{"tag": "nv/cold/sample_size""#),
                    1,
                );
            edit(i, state)
        })
        .collect();
    document(&states.join(",\n "))
}

#[test]
fn repeated_summaries_are_matched() {
    let input = repeated(5, |_, state| state);
    assert_eq!(agree_and_hits(input.as_bytes()), (true, 4 * (EXTRAS + 3)));
    let root = read_with(input.as_bytes(), true).unwrap();
    let full = read_full(input.as_bytes()).unwrap();
    assert_eq!(format!("{root:?}"), format!("{full:?}"));
    // Another order of the same summaries: found by their tags.
    let input = repeated(4, |i, state| {
        if i == 2 {
            let (head, rest) = state
                .split_once(r#"{"tag": "nv/cold/time/gpu/mean""#)
                .unwrap();
            let (mean, tail) = rest.split_once(",\n    {").unwrap();
            let (relative, end) = tail.split_once("\n  ]").unwrap();
            format!("{head}{{{relative},\n    {{\"tag\": \"nv/cold/time/gpu/mean\"{mean}\n  ]{end}")
        } else {
            state
        }
    });
    let (accepted, hits) = agree_and_hits(input.as_bytes());
    assert!(accepted && hits >= 2 * (EXTRAS + 3) + 3, "{hits}");
}

/// Edits of a state whose summaries the templates are tried on: each is
/// read as the full reader reads it, or given up on (`false`: must be
/// given up on); the states before and after it are still matched.
#[test]
fn edits_of_matched_summaries_are_read_as_the_full_reader_reads_them() {
    let cases: &[(&str, &str, bool)] = &[
        // The holes: value strings.
        (r#""3.25e-3""#, r#""nan""#, true),
        (r#""3.25e-3""#, r#""-inf""#, true),
        (r#""3.25e-3""#, r#""1e400""#, true),
        (r#""3.25e-3""#, r#""""#, true),
        (r#""3.25e-3""#, r#"" 1""#, true),
        (r#""3.25e-3""#, r#""1_5""#, true),
        (r#""3.25e-3""#, r#""0x10""#, true),
        (r#""3.25e-3""#, r#""12345678901234567890123""#, true),
        (r#""3.25e-3""#, r#""3.25\u0065-3""#, true),
        (r#""3.25e-3""#, r#""3.25e-3\"""#, true),
        (r#""3.25e-3""#, r#""3.25e-3\x""#, false),
        (r#""3.25e-3""#, r#""3.25e-3\u12""#, false),
        (r#""3.25e-3""#, "\"3.25\u{e9}\"", true),
        (r#""3.25e-3""#, "\"3.25\u{1}\"", false),
        (r#""3.25e-3""#, "\"3.25\te-3\"", false),
        (r#""3.25e-3""#, "\"3.25\u{7f}\"", true),
        (r#""3.25e-3""#, r#"3.25e-3"#, true),
        (r#""3.25e-3""#, r#"null"#, true),
        (r#""3.25e-3""#, r#"03"#, false),
        (r#""3.25e-3""#, r#""3" "4""#, false),
        (r#""3.25e-3""#, r#""3", "x": "y""#, true),
        (r#""3.25e-3""#, r#""3", "value": "4""#, false),
        (r#""0.021""#, r#""0.021"#, false),
        (r#""7""#, r#"7"#, true),
        (r#""7""#, r#""7\x""#, false),
        (r#""7""#, "\"7\u{1f}\"", false),
        (r#""7""#, r#""7", "tag": "nv/cold/time/gpu/min""#, true),
        (r#""7""#, r#""7"}, {"#, true),
        (r#""7""#, r#""7",]"#, false),
        (r#""7""#, r#""7"]"#, false),
        (r#""7""#, r#""7" 1"#, false),
        // Around them: names, keys, structure, spacing.
        ("GPU Time", r"GPU \u0054ime", true),
        ("GPU Time", "GPU\tTime", false),
        ("GPU Time", "GPU\u{0}Time", false),
        ("GPU Time", r"GPU Time\", false),
        ("GPU Time", "GPU \u{1F600}", true),
        (r#""hint": "duration","#, r#""hint": "duration",,"#, false),
        (r#""hint": "duration","#, r#""hint" "duration","#, false),
        (
            r#""hint": "duration","#,
            r#""hint": "duration", "tag": "x","#,
            true,
        ),
        (
            r#""hint": "duration","#,
            r#""hint": "duration", "data": [],"#,
            true,
        ),
        (r#""hint": "duration","#, r#""hint":  "duration","#, true),
        (r#""hint": "duration","#, r#""hint": 1,"#, true),
        (r#""hint": "duration","#, r#""hint": 01,"#, false),
        (r#""hint": "duration","#, r#""hint": [1,],"#, false),
        (r#""hint": "duration","#, r#""hint": tru,"#, false),
        (
            r#""name": "Samples","#,
            r#""name": "Samples", "x": {"a" 1},"#,
            false,
        ),
        (
            r#""name": "Samples","#,
            r#""name": "Samples", "x": [}],"#,
            false,
        ),
        (r#""name": "Samples","#, r#""name": "Samples" "#, false),
        (r#""name": "Samples","#, r#""n\u0061me": "Samples","#, true),
        (r#""name": "Samples","#, r#""name": "Sam\"ples","#, true),
        (
            r#""type": "int64", "value": "7""#,
            r#""type": "int64"}, {, "value": "7""#,
            false,
        ),
        (
            r#""type": "float64", "value": "3.25e-3""#,
            r#""type": "int64", "value": "3.25e-3""#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/sample_size""#,
            r#"{"tag": "nv/cold/sample_size" "#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/sample_size""#,
            r#"{"tag": "nv/cold/sample_sizes""#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/time/gpu/mean""#,
            r#"{"tag": "nv/cold/time/gpu/min""#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/time/gpu/mean""#,
            r#"{"tag": "nv/cold/time/gpu/mea\u006e""#,
            true,
        ),
        (
            r#"{"tag": "nv/cold/time/gpu/mean""#,
            r#"{"tag": "nv/cold/time/gpu/mean" ,"#,
            false,
        ),
        ("}]},\n", "}]}\n,\n", true),
        ("}]},\n", "}]},,\n", false),
        ("}]},\n", "}]}]\n", false),
        ("}]},\n", "}]}\n", false),
    ];
    for (from, to, accepted) in cases {
        let input = repeated(5, |i, state| {
            if i == 2 {
                assert!(state.contains(from), "{from}");
                state.replacen(from, to, 1)
            } else {
                state
            }
        });
        let (read, hits) = agree_and_hits(input.as_bytes());
        assert_eq!(read, *accepted, "{to:?}");
        // The second state at least (those after a refusal are not reached).
        assert!(hits >= EXTRAS + 3, "{to:?}: {hits}");
    }
    // Bytes that are not UTF-8 in the strings of a matched state.
    for (from, to) in [
        (&b"Samples"[..], &b"Sam\xffples"[..]),
        (b"GPU Time", b"GPU \xc3\x28"),
        (b"3.25e-3", b"3.25\xe2\x82"),
        (b"\"7\"", b"\"7\xc3\""),
        (b"duration", b"duration\xed\xa0\x80"),
    ] {
        let input = repeated(5, |_, state| state).into_bytes();
        let third = input
            .windows(12)
            .position(|w| w == b"Device=0 N=2")
            .unwrap();
        let at = third
            + input[third..]
                .windows(from.len())
                .position(|w| w == from)
                .unwrap();
        let edited = [&input[..at], to, &input[at + from.len()..]].concat();
        let (read, hits) = agree_and_hits(&edited);
        assert!(!read && hits >= EXTRAS + 3, "{to:?}");
    }
}

/// Random edits inside the summaries of later states of multi-state
/// files (shipped ones, and those of `../shared/real` when present):
/// whatever the schema reader accepts, the full reader accepts with the
/// same model; templates matched summaries in most of them.
#[test]
fn mutated_repeated_summaries_never_disagree() {
    let mut state = 0x5851_F42D_4C95_7F2Du64;
    let mut next = move || {
        crate::testing::xorshift_step(&mut state);
        state
    };
    const INTERESTING: &[u8] =
        b"\"{}[],:\\ \t\n0123456789eE.+-xtfnu\x00\x01\x1f\x7f\x80\xc3\xed\xff";
    const INSERTS: &[&[u8]] = &[
        b"\\\"",
        b"\\u0041",
        b"\\u12",
        b"\\x",
        b"\\",
        b"  ",
        b"\xc3\xa9",
        b"\xc3\x28",
        b"\xe2\x82",
        b"\"tag\": \"x\", ",
        b"\"data\": [], ",
        b"\"x\": 01, ",
        b"\"x\": [1,], ",
        b"\"x\": tru, ",
        b"\"x\": {}, ",
        b"nan",
        b"1e400",
    ];
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real");
    let mut files = crate::testing::shipped_json_files();
    if let Ok(real) = std::fs::read_dir(&shared) {
        for dir in real.flatten() {
            for entry in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                files.push(entry.path());
            }
        }
    }
    let bases: Vec<Vec<u8>> = files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|bytes| bytes.len() < 150_000)
        .filter(|bytes| {
            let (accepted, hits) = agree_and_hits(bytes);
            accepted && hits > 0
        })
        .collect();
    assert!(bases.len() >= 20, "{}", bases.len());
    let (mut accepted, mut matched, mut total) = (0, 0, 0);
    for base in bases.iter().step_by(2) {
        // Tags after the first state's summaries.
        let tags: Vec<usize> = base
            .windows(6)
            .enumerate()
            .filter(|(_, w)| w == b"\"tag\":")
            .map(|(i, _)| i)
            .collect();
        let later = &tags[tags.len() / 3..];
        for _ in 0..40 {
            let mut input = base.clone();
            for _ in 0..1 + next() % 2 {
                let at = (later[(next() as usize) % later.len()] + (next() as usize) % 500)
                    .min(input.len() - 1);
                let byte = INTERESTING[(next() as usize) % INTERESTING.len()];
                match next() % 4 {
                    0 => input[at] = byte,
                    1 => input.insert(at, byte),
                    2 => {
                        input.remove(at);
                    }
                    _ => {
                        let insert = INSERTS[(next() as usize) % INSERTS.len()];
                        input.splice(at..at, insert.iter().copied());
                    }
                }
            }
            let (read, hits) = agree_and_hits(&input);
            total += 1;
            accepted += usize::from(read);
            matched += usize::from(hits > 0);
        }
    }
    assert!(accepted * 8 > total, "{accepted}/{total}");
    assert!(matched * 2 > total, "{matched}/{total}");
}

/// Summaries whose text differs in every state: read by the walker (their
/// templates are given up on), with the same model.
#[test]
fn summaries_differing_every_time_are_walked() {
    let input = repeated(60, |i, state| {
        state.replace(
            "a summary not read, of the usual shape",
            &format!("state {i}"),
        )
    });
    let (accepted, hits) = agree_and_hits(input.as_bytes());
    // Only the three summaries of `STATE` repeat.
    assert!(accepted && hits > 0 && hits <= 59 * 3, "{hits}");
}
