//! NVBench arguments that re-measure chosen states of a benchmark, in the
//! syntax of NVBench's option parser (`nvbench/option_parser.cu`):
//! `-b NAME` adds an instance of the benchmark, `-d` and `-a` after it set
//! that instance's devices and axis values (NVBench runs their Cartesian
//! product), a pow2 axis takes exponents (`-a 'Elements{io}[pow2]=[16,18]'`),
//! type and string axes their input strings. What that parser would read
//! differently from the value in the file is not written; the state is
//! left out with the reason:
//!
//! - a benchmark name that is empty, holds a control character, starts
//!   with `#` (a comment line of the plan), or reads as a number (`-b 3`
//!   selects the benchmark of index 3);
//! - an axis name that is empty, has surrounding white space (trimmed),
//!   holds `[`, `]`, `:` or `=` (the specification's separators), a control
//!   character, or starts with `#`;
//! - a string or type value that is empty, has surrounding white space,
//!   holds `,` `]` `:` (list, range and end separators) or a control
//!   character, or starts with `[`;
//! - an integer on a pow2 axis that is no power of two, a number that is
//!   not finite or not an integer of 64 bits.

use super::products::{Product, exact_cover};
use super::{PlanAxis, PlanBench, PlanState};
use crate::loading::scalar::Scalar;
use crate::text::printable::printable;

/// The arguments of a benchmark's instances and the states left out.
#[derive(Debug, Default, PartialEq)]
pub struct Arguments {
    pub lines: Vec<String>,
    /// States the arguments re-measure.
    pub planned: usize,
    /// `-b` instances.
    pub instances: usize,
    /// `(state, reason)` of each state left out.
    pub left_out: Vec<(String, String)>,
}

/// The instances that re-measure exactly the states of `bench` that can
/// be named; the others are left out with the reason.
pub fn benchmark_arguments(bench: &PlanBench) -> Arguments {
    let mut out = Arguments::default();
    let whole = benchmark_problem(bench);
    let mut points = Vec::new();
    for state in &bench.states {
        let point = match (&whole, &bench.axes) {
            (Some(problem), _) => Err(problem.clone()),
            (None, Some(axes)) => state_point(state, axes),
            (None, None) => Err("the file lists no axes of the benchmark".to_string()),
        };
        match point {
            Ok(point) => points.push(point),
            Err(reason) => out.left_out.push((state_name(state), reason)),
        }
    }
    out.planned = points.len();
    let axes = bench.axes.as_deref().unwrap_or(&[]);
    for product in exact_cover(&points) {
        out.instances += 1;
        out.lines
            .extend(instance_lines(&bench.name, axes, &product));
    }
    out
}

/// `-b NAME -d DEVICES` and an `-a` for each axis.
fn instance_lines(name: &str, axes: &[PlanAxis], product: &Product) -> Vec<String> {
    let mut lines = vec![
        "-b".to_string(),
        name.to_string(),
        "-d".to_string(),
        value_list(&product[0]),
    ];
    for (axis, values) in axes.iter().zip(&product[1..]) {
        let flags = if axis.is_pow2() { "[pow2]" } else { "" };
        lines.push("-a".to_string());
        lines.push(format!("{}{flags}={}", axis.name, value_list(values)));
    }
    lines
}

/// The state's name as NVBench writes it: the compare run's device, then
/// its key.
fn state_name(state: &PlanState) -> String {
    format!("Device={} {}", state.devices.1, state.key)
        .trim_end()
        .to_string()
}

/// One value as it is (NVBench's single-value form), several as a list.
fn value_list(values: &[String]) -> String {
    match values {
        [one] => one.clone(),
        _ => format!("[{}]", values.join(",")),
    }
}

/// Why no state of the benchmark can be named, if so.
fn benchmark_problem(bench: &PlanBench) -> Option<String> {
    let name = &bench.name;
    if name.is_empty() || name.starts_with('#') || name.chars().any(char::is_control) {
        return Some(format!(
            "the benchmark name {} cannot be an argument line",
            quoted(name)
        ));
    }
    if reads_as_index(name) {
        return Some(format!(
            "-b {} would select the benchmark of that index",
            quoted(name)
        ));
    }
    let axes = bench.axes.as_deref().unwrap_or(&[]);
    axes.iter()
        .find(|axis| !plain_axis_name(&axis.name))
        .map(|axis| format!("the axis name {} cannot be given to -a", quoted(&axis.name)))
}

/// NVBench reads `-b`'s value as a benchmark index when `std::stoll` reads
/// a non-negative number from its start (white space, a sign, digits), and
/// fails on one beyond 64 bits; only a negative number is taken as a name.
fn reads_as_index(name: &str) -> bool {
    let rest = name.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (negative, rest) = match rest.strip_prefix(['+', '-']) {
        Some(unsigned) => (rest.starts_with('-'), unsigned),
        None => (false, rest),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return false;
    }
    let magnitude = digits.parse::<u64>().ok().filter(|m| *m <= 1 << 63);
    !negative || !matches!(magnitude, Some(m) if m > 0)
}

fn plain_axis_name(name: &str) -> bool {
    !name.is_empty()
        && name.trim() == name
        && !name.starts_with('#')
        && !name.contains(['[', ']', ':', '='])
        && !name.chars().any(char::is_control)
}

/// A string or type value NVBench's list and single-value forms read back
/// as it is.
fn plain_string_value(value: &str) -> bool {
    !value.is_empty()
        && value.trim() == value
        && !value.starts_with('[')
        && !value.contains([',', ']', ':'])
        && !value.chars().any(char::is_control)
}

/// The state's device, then the command-line text of its value of each
/// axis.
fn state_point(state: &PlanState, axes: &[PlanAxis]) -> Result<Vec<String>, String> {
    if state.repeated {
        return Err("the file has the state more than once".to_string());
    }
    let (reference, compare) = state.devices;
    if reference != compare {
        return Err(format!(
            "the reference ran it on device {reference}, the compare run on device {compare}"
        ));
    }
    if let Some(extra) = state
        .values
        .iter()
        .find(|v| !axes.iter().any(|axis| axis.name == v.name))
    {
        return Err(format!(
            "its axis {} is not among the benchmark's axes",
            quoted(&extra.name)
        ));
    }
    let mut point = vec![compare.to_string()];
    for axis in axes {
        let mut values = state.values.iter().filter(|v| v.name == axis.name);
        let (Some(value), None) = (values.next(), values.next()) else {
            return Err(format!(
                "it has no single value of axis {}",
                quoted(&axis.name)
            ));
        };
        point.push(axis_token(axis, value.value.as_ref())?);
    }
    Ok(point)
}

/// A value as `-a` gives it on this axis.
fn axis_token(axis: &PlanAxis, value: Option<&Scalar>) -> Result<String, String> {
    let unusable = |what: &str| {
        let shown = value.map_or("nothing".to_string(), |v| quoted(&v.py_str()));
        Err(format!(
            "its value {shown} of axis {} {what}",
            quoted(&axis.name)
        ))
    };
    match axis.kind.as_str() {
        "string" | "type" => match value.and_then(Scalar::as_str) {
            Some(text) if plain_string_value(text) => Ok(text.to_string()),
            Some(_) => unusable("cannot be written in NVBench's value list"),
            None => unusable("is no string"),
        },
        "int64" => match integer(value) {
            Some(n) if axis.is_pow2() => match n > 0 && (n as u64).is_power_of_two() {
                true => Ok(n.trailing_zeros().to_string()),
                false => unusable("is no power of two"),
            },
            Some(n) => Ok(n.to_string()),
            None => unusable("is no 64-bit integer"),
        },
        "float64" => match float(value) {
            Some(x) if x.is_finite() => Ok(format!("{x:?}")),
            _ => unusable("is no finite number"),
        },
        other => Err(format!(
            "its axis {} has the type {}",
            quoted(&axis.name),
            quoted(other)
        )),
    }
}

/// NVBench writes int64 values as decimal strings.
fn integer(value: Option<&Scalar>) -> Option<i64> {
    match value? {
        Scalar::Int(n) => Some(*n),
        Scalar::Str(text) => text.parse().ok(),
        _ => None,
    }
}

/// NVBench writes float64 values as strings, in their shortest form.
fn float(value: Option<&Scalar>) -> Option<f64> {
    match value? {
        Scalar::Float(x) => Some(*x),
        Scalar::Int(n) => Some(*n as f64),
        Scalar::Str(text) => text.parse().ok(),
        _ => None,
    }
}

/// A name in a comment: quoted, on one line.
fn quoted(text: &str) -> String {
    format!("'{}'", printable(text))
}

#[cfg(test)]
mod tests {
    use super::super::PlanValue;
    use super::*;

    fn axis(name: &str, kind: &str, flags: &str) -> PlanAxis {
        PlanAxis {
            name: name.into(),
            kind: kind.into(),
            flags: flags.into(),
        }
    }

    fn state(device: i64, values: &[(&str, Scalar)]) -> PlanState {
        PlanState {
            key: format!("Device={device}"),
            devices: (device, device),
            values: values
                .iter()
                .map(|(name, value)| PlanValue {
                    name: name.to_string(),
                    value: Some(value.clone()),
                })
                .collect(),
            repeated: false,
            run_names: Vec::new(),
        }
    }

    fn text(value: &str) -> Scalar {
        Scalar::Str(value.into())
    }

    fn example_bench(states: Vec<PlanState>) -> PlanBench {
        PlanBench {
            name: "copy_type_sweep".into(),
            axes: Some(vec![
                axis("T", "type", ""),
                axis("Elements{io}", "int64", "pow2"),
            ]),
            states,
        }
    }

    #[test]
    fn two_states_of_no_product_are_two_instances() {
        let bench = example_bench(vec![
            state(0, &[("T", text("F32")), ("Elements{io}", text("262144"))]),
            state(1, &[("T", text("F32")), ("Elements{io}", text("16777216"))]),
        ]);
        let out = benchmark_arguments(&bench);
        assert_eq!(
            out.lines,
            [
                "-b",
                "copy_type_sweep",
                "-d",
                "0",
                "-a",
                "T=F32",
                "-a",
                "Elements{io}[pow2]=18",
                "-b",
                "copy_type_sweep",
                "-d",
                "1",
                "-a",
                "T=F32",
                "-a",
                "Elements{io}[pow2]=24"
            ]
        );
        assert_eq!((out.planned, out.instances), (2, 2));
        assert!(out.left_out.is_empty());
    }

    #[test]
    fn a_product_is_one_instance_with_lists() {
        let mut states = Vec::new();
        for device in [0, 1] {
            for t in ["I8", "F64"] {
                states.push(state(
                    device,
                    &[("T", text(t)), ("Elements{io}", Scalar::Int(1 << 20))],
                ));
            }
        }
        let out = benchmark_arguments(&example_bench(states));
        assert_eq!(
            out.lines[2..],
            [
                "-d",
                "[0,1]",
                "-a",
                "T=[I8,F64]",
                "-a",
                "Elements{io}[pow2]=20"
            ]
        );
        assert_eq!((out.planned, out.instances), (4, 1));
    }

    #[test]
    fn numbers_are_written_as_nvbench_reads_them_back() {
        let bench = PlanBench {
            name: "b".into(),
            axes: Some(vec![axis("N", "int64", ""), axis("Q", "float64", "")]),
            states: vec![
                state(0, &[("N", text("-5")), ("Q", text("1e-07"))]),
                state(0, &[("N", text("-5")), ("Q", text("0.1"))]),
            ],
        };
        let out = benchmark_arguments(&bench);
        assert_eq!(out.lines[4..], ["-a", "N=-5", "-a", "Q=[1e-7,0.1]"]);
    }

    #[test]
    fn values_the_parser_would_read_differently_are_left_out_with_the_reason() {
        let bench = PlanBench {
            name: "b".into(),
            axes: Some(vec![axis("S", "string", ""), axis("P", "int64", "pow2")]),
            states: vec![
                state(0, &[("S", text("a,b")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("x]")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text(" pad")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("line\nbreak")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("[open")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("t:u")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("")), ("P", Scalar::Int(4))]),
                state(0, &[("S", text("ok")), ("P", Scalar::Int(6))]),
                state(0, &[("S", text("ok")), ("P", text("x"))]),
                state(0, &[("S", text("ok"))]),
                // Kept: quotes, '=', '#', spaces inside and non-ASCII text.
                state(
                    0,
                    &[("S", text("it's \"q\" = #1 ü")), ("P", Scalar::Int(4))],
                ),
            ],
        };
        let out = benchmark_arguments(&bench);
        assert_eq!(out.planned, 1);
        assert_eq!(out.left_out.len(), 10, "{:?}", out.left_out);
        assert!(
            out.left_out[3].1.contains("'line\\nbreak'"),
            "{:?}",
            out.left_out[3]
        );
        assert!(out.left_out[7].1.contains("is no power of two"));
        assert!(out.left_out[9].1.contains("no single value of axis 'P'"));
        assert_eq!(
            out.lines[4..],
            ["-a", "S=it's \"q\" = #1 ü", "-a", "P[pow2]=2"]
        );
        assert!(
            out.lines
                .iter()
                .all(|l| !l.contains('\n') && !l.starts_with('#'))
        );
    }

    #[test]
    fn names_the_parser_would_misread_leave_out_the_benchmark() {
        for (name, axis_name) in [
            ("3", "N"),
            (" +1x", "N"),
            ("-0", "N"),
            ("#b", "N"),
            ("", "N"),
            ("b\n", "N"),
            ("b", "N[1]"),
            ("b", "A=B"),
            ("b", "t:u"),
            ("b", " N"),
            ("b", "#N"),
        ] {
            let bench = PlanBench {
                name: name.into(),
                axes: Some(vec![axis(axis_name, "int64", "")]),
                states: vec![state(0, &[(axis_name, Scalar::Int(1))])],
            };
            let out = benchmark_arguments(&bench);
            assert_eq!(out.left_out.len(), 1, "{name:?} {axis_name:?}");
            assert!(out.lines.is_empty());
        }
        // A negative number is a name to NVBench.
        let bench = PlanBench {
            name: "-1".into(),
            axes: Some(Vec::new()),
            states: vec![state(2, &[])],
        };
        assert_eq!(benchmark_arguments(&bench).lines, ["-b", "-1", "-d", "2"]);
    }

    #[test]
    fn states_of_two_devices_or_repeated_are_left_out() {
        let mut moved = state(0, &[("N", Scalar::Int(1))]);
        moved.devices = (0, 1);
        let mut twice = state(0, &[("N", Scalar::Int(2))]);
        twice.repeated = true;
        let bench = PlanBench {
            name: "b".into(),
            axes: Some(vec![axis("N", "int64", "")]),
            states: vec![moved, twice],
        };
        let out = benchmark_arguments(&bench);
        assert_eq!(out.planned, 0);
        assert!(out.left_out[0].1.contains("device 0"), "{:?}", out.left_out);
        let no_axes = PlanBench {
            axes: None,
            ..bench
        };
        assert_eq!(benchmark_arguments(&no_axes).left_out.len(), 2);
    }
}
