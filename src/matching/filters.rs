//! Benchmark, axis and device filters (spec "Matching Inputs"): parsing of
//! `-b`/`-a` in command-line order and of `--reference-devices`/`--compare-devices`.

use crate::loading::model::State;

/// One `-a NAME=VALUE` filter: the state's axis value (as its JSON string)
/// must be one of `values`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisFilter {
    pub name: String,
    pub values: Vec<String>,
    /// `NAME=VALUE` as shown in plot titles (`2^EXP` for pow2 filters).
    pub display: String,
}

/// A `-b` option with the `-a` options that follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchmarkScope {
    pub benchmark: String,
    pub axis_filters: Vec<AxisFilter>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterPlan {
    /// `-a` options given before any `-b`.
    pub global_axis_filters: Vec<AxisFilter>,
    pub scopes: Vec<BenchmarkScope>,
}

/// A `-b` or `-a` option, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterArg {
    Benchmark(String),
    Axis(String),
}

fn not_name_value(arg: &str) -> String {
    format!("Axis filter must be NAME=VALUE: {arg}")
}

fn split_values(value: &str) -> Vec<String> {
    match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        Some(inner) => inner
            .trim()
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(str::to_string)
            .collect(),
        None => vec![value.to_string()],
    }
}

fn display_of(name: &str, values: &[String]) -> String {
    if values.len() > 1 {
        format!("{name}=[{}]", values.join(","))
    } else {
        format!("{name}={}", values.join(","))
    }
}

/// Parses `NAME=VALUE`, `NAME=[V1,V2]` and `NAME[pow2]=EXP`.
pub fn parse_axis_filter(arg: &str) -> Result<AxisFilter, String> {
    let (name, value) = arg.split_once('=').ok_or_else(|| not_name_value(arg))?;
    let (name, value) = (name.trim(), value.trim());
    if name.is_empty() || value.is_empty() {
        return Err(not_name_value(arg));
    }
    let mut values = split_values(value);
    let mut display_values = values.clone();
    let mut name = name.to_string();
    if let Some(base) = name.strip_suffix("[pow2]") {
        let base = base.trim();
        if base.is_empty() {
            return Err(format!("Axis filter missing name before [pow2]: {arg}"));
        }
        let exponents = values
            .iter()
            .map(|v| crate::pycompat::pyfmt::parse_py_int(v))
            .collect::<Option<Vec<i128>>>()
            .ok_or_else(|| format!("Axis filter [pow2] value must be integer: {arg}"))?;
        values = exponents.iter().map(|e| pow2_string(*e)).collect();
        display_values = exponents.iter().map(|e| format!("2^{e}")).collect();
        name = base.to_string();
    }
    if values.is_empty() {
        return Err(format!(
            "Axis filter must specify at least one value: {arg}"
        ));
    }
    Ok(AxisFilter {
        display: display_of(&name, &display_values),
        name,
        values,
    })
}

/// `str(2**e)` in Python. Negative exponents give a float (`0.5`) and huge
/// ones a number beyond int64: neither can equal an NVBench int64 axis
/// value, so a non-numeric stand-in is equivalent for matching.
fn pow2_string(exponent: i128) -> String {
    match exponent {
        e if e < 0 => crate::pycompat::pyfmt::float_repr(2f64.powi(e.max(-1100) as i32)),
        e if e < 127 => (1i128 << e).to_string(),
        e => format!("2**{e}"),
    }
}

pub fn build_filter_plan(args: &[FilterArg]) -> Result<FilterPlan, String> {
    let mut global_args = Vec::new();
    let mut scopes: Vec<(String, Vec<&str>)> = Vec::new();
    for arg in args {
        match arg {
            FilterArg::Benchmark(name) => scopes.push((name.clone(), Vec::new())),
            FilterArg::Axis(text) => match scopes.last_mut() {
                Some((_, scoped)) => scoped.push(text),
                None => global_args.push(text.as_str()),
            },
        }
    }
    let parse_all = |items: &[&str]| {
        items
            .iter()
            .map(|a| parse_axis_filter(a))
            .collect::<Result<Vec<_>, _>>()
    };
    // The reference parses the global filters first, then each scope in order.
    let global_axis_filters = parse_all(&global_args)?;
    let scopes = scopes
        .into_iter()
        .map(|(benchmark, items)| {
            Ok(BenchmarkScope {
                benchmark,
                axis_filters: parse_all(&items)?,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(FilterPlan {
        global_axis_filters,
        scopes,
    })
}

impl FilterPlan {
    /// Any `-b` or `-a` on the command line.
    pub fn is_given(&self) -> bool {
        !self.global_axis_filters.is_empty() || !self.scopes.is_empty()
    }

    pub fn selects_benchmark(&self, name: &str) -> bool {
        self.scopes.is_empty() || self.scopes.iter().any(|s| s.benchmark == name)
    }

    /// Alternative filter groups for a benchmark: a state is kept when it
    /// matches any group (one group per matching `-b`).
    pub fn axis_filter_groups(&self, name: &str) -> Vec<Vec<AxisFilter>> {
        if self.scopes.is_empty() {
            return vec![self.global_axis_filters.clone()];
        }
        self.scopes
            .iter()
            .filter(|s| s.benchmark == name)
            .map(|s| {
                let mut group = self.global_axis_filters.clone();
                group.extend(s.axis_filters.iter().cloned());
                group
            })
            .collect()
    }
}

fn matches_filters(state: &State, filters: &[AxisFilter]) -> bool {
    filters.iter().all(|filter| {
        state.axis_values().iter().any(|axis_value| {
            axis_value.name == filter.name
                && axis_value
                    .value
                    .as_ref()
                    .filter(|v| **v != crate::loading::scalar::Scalar::Null)
                    .is_some_and(|v| filter.values.contains(&v.py_str()))
        })
    })
}

pub fn matches_any_group(state: &State, groups: &[Vec<AxisFilter>]) -> bool {
    groups.iter().any(|group| matches_filters(state, group))
}

/// The position of [`matching_group`] among the groups.
pub fn matching_group_index(state: &State, groups: &[Vec<AxisFilter>]) -> Option<usize> {
    groups
        .iter()
        .position(|group| matches_filters(state, group))
}

/// `None` means all devices.
pub type DeviceFilter = Option<Vec<i64>>;

pub fn parse_device_filter(arg: &str, option: &str) -> Result<DeviceFilter, String> {
    let arg = arg.trim();
    if arg.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    let invalid = || {
        format!(
            "{option} must be 'all', a non-negative integer, or comma-separated non-negative integers"
        )
    };
    arg.split(',')
        .map(|item| {
            crate::pycompat::pyfmt::parse_py_int(item.trim())
                .and_then(|id| i64::try_from(id).ok())
                .filter(|id| *id >= 0)
                .ok_or_else(invalid)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_filter_forms() {
        let plain = parse_axis_filter(" T = F32 ").unwrap();
        assert_eq!(
            (
                plain.name.as_str(),
                plain.values.clone(),
                plain.display.as_str()
            ),
            ("T", vec!["F32".to_string()], "T=F32")
        );
        let list = parse_axis_filter("T=[F32, I32,]").unwrap();
        assert_eq!(list.values, vec!["F32", "I32"]);
        assert_eq!(list.display, "T=[F32,I32]");
        let pow2 = parse_axis_filter("Elements{io}[pow2]=20").unwrap();
        assert_eq!(pow2.name, "Elements{io}");
        assert_eq!(pow2.values, vec!["1048576"]);
        assert_eq!(pow2.display, "Elements{io}=2^20");
    }

    #[test]
    fn axis_filter_errors() {
        assert_eq!(
            parse_axis_filter("T").unwrap_err(),
            "Axis filter must be NAME=VALUE: T"
        );
        assert_eq!(
            parse_axis_filter("=x").unwrap_err(),
            "Axis filter must be NAME=VALUE: =x"
        );
        assert_eq!(
            parse_axis_filter("[pow2]=3").unwrap_err(),
            "Axis filter missing name before [pow2]: [pow2]=3"
        );
        assert_eq!(
            parse_axis_filter("N[pow2]=x").unwrap_err(),
            "Axis filter [pow2] value must be integer: N[pow2]=x"
        );
        assert_eq!(
            parse_axis_filter("T=[]").unwrap_err(),
            "Axis filter must specify at least one value: T=[]"
        );
    }

    #[test]
    fn scoping_follows_command_line_order() {
        let args = [
            FilterArg::Axis("A=1".into()),
            FilterArg::Benchmark("b1".into()),
            FilterArg::Axis("B=2".into()),
            FilterArg::Benchmark("b2".into()),
        ];
        let plan = build_filter_plan(&args).unwrap();
        assert_eq!(plan.global_axis_filters.len(), 1);
        assert_eq!(plan.axis_filter_groups("b1")[0].len(), 2);
        assert_eq!(plan.axis_filter_groups("b2")[0].len(), 1);
        assert!(plan.axis_filter_groups("b3").is_empty());
        assert!(!plan.selects_benchmark("b3"));
    }

    #[test]
    fn device_filters() {
        assert_eq!(parse_device_filter(" ALL ", "--x"), Ok(None));
        assert_eq!(parse_device_filter("0, 2", "--x"), Ok(Some(vec![0, 2])));
        assert!(parse_device_filter("-1", "--x").is_err());
        assert!(parse_device_filter("0,", "--x").is_err());
        assert!(parse_device_filter("", "--x").is_err());
    }
}
