//! Google Benchmark run names, read right to left (the library writes
//! `function/args/min_time:X/min_warmup_time:X/iterations:N/repeats:N/
//! [process_time/](manual_time|real_time)/threads:N`, `benchmark_name()`
//! in src/reporter.cc): the known option tokens, then the integer
//! arguments (`8`, `-3`, `bytes:512`), and what remains is the function
//! name, which may hold `/`, quotes and spaces (`BENCHMARK_CAPTURE`,
//! templates, fixtures).

/// One run name, taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunName {
    /// The registered name (`BM_decode/"ubuntu"`, `Fixture/Test<int>`).
    pub function: String,
    /// The arguments in order, each named by `ArgName(s)` or `arg<i>`
    /// after its position; `threads:N` is the argument `threads`.
    pub args: Vec<(String, i64)>,
    /// Whether each argument was written with its name (`bytes:512`).
    named: Vec<bool>,
    /// The option tokens between the arguments and `threads:N`, in order.
    options: Vec<String>,
    /// `threads:N`, when written.
    threads: Option<i64>,
}

/// The option tokens of a run name: they change what is measured, so
/// they stay in the benchmark's name (but `repeats:N`, the sample count).
fn is_option(token: &str) -> bool {
    matches!(token, "real_time" | "manual_time" | "process_time")
        || ["min_time:", "min_warmup_time:", "iterations:", "repeats:"]
            .iter()
            .any(|prefix| token.strip_prefix(prefix).is_some_and(|v| !v.is_empty()))
}

fn integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `name:value` with an argument name the library could have written.
fn named_arg(token: &str) -> Option<(&str, i64)> {
    let (name, value) = token.rsplit_once(':')?;
    let valid = !name.is_empty() && !name.contains(':') && !name.contains('"');
    valid.then_some(())?;
    Some((name, integer(value)?))
}

impl RunName {
    pub fn parse(run_name: &str) -> RunName {
        let mut tokens: Vec<&str> = run_name.split('/').collect();
        // The function name keeps at least its first token.
        let mut threads = None;
        if tokens.len() > 1
            && let Some(n) = tokens
                .last()
                .and_then(|t| t.strip_prefix("threads:"))
                .and_then(integer)
        {
            threads = Some(n);
            tokens.pop();
        }
        let mut options = Vec::new();
        while tokens.len() > 1 && tokens.last().is_some_and(|t| is_option(t)) {
            options.push(tokens.pop().unwrap_or_default().to_string());
        }
        options.reverse();
        let mut args = Vec::new();
        while tokens.len() > 1 {
            let token = tokens[tokens.len() - 1];
            if let Some(value) = integer(token) {
                args.push((None, value));
            } else if let Some((name, value)) = named_arg(token) {
                args.push((Some(name.to_string()), value));
            } else {
                break;
            }
            tokens.pop();
        }
        args.reverse();
        let named = args.iter().map(|(name, _)| name.is_some()).collect();
        let args = args
            .into_iter()
            .enumerate()
            .map(|(i, (name, value))| (name.unwrap_or_else(|| format!("arg{i}")), value))
            .collect();
        RunName {
            function: tokens.join("/"),
            args,
            named,
            options,
            threads,
        }
    }

    /// The benchmark the run belongs to: the function name and the option
    /// tokens but `repeats:N` (the sample count, not the workload).
    pub fn benchmark(&self) -> String {
        let mut name = self.function.clone();
        for option in self.options.iter().filter(|o| !o.starts_with("repeats:")) {
            name.push('/');
            name.push_str(option);
        }
        name
    }

    /// The axes of the instance: the arguments, then `threads`.
    pub fn axes(&self) -> Vec<(String, i64)> {
        let mut axes = self.args.clone();
        if let Some(threads) = self.threads {
            axes.push(("threads".to_string(), threads));
        }
        axes
    }

    /// The run name again, as the library wrote it.
    pub fn to_run_name(&self) -> String {
        let mut parts = vec![self.function.clone()];
        for ((name, value), named) in self.args.iter().zip(&self.named) {
            parts.push(if *named {
                format!("{name}:{value}")
            } else {
                value.to_string()
            });
        }
        parts.extend(self.options.iter().cloned());
        if let Some(threads) = self.threads {
            parts.push(format!("threads:{threads}"));
        }
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(run_name: &str) -> (String, Vec<(String, i64)>) {
        let parsed = RunName::parse(run_name);
        assert_eq!(parsed.to_run_name(), run_name, "round trip");
        (parsed.benchmark(), parsed.axes())
    }

    fn axes(list: &[(&str, i64)]) -> Vec<(String, i64)> {
        list.iter().map(|(n, v)| (n.to_string(), *v)).collect()
    }

    #[test]
    fn positional_and_named_arguments() {
        assert_eq!(
            parts("BM_memcpy/8"),
            ("BM_memcpy".into(), axes(&[("arg0", 8)]))
        );
        assert_eq!(
            parts("BM_SetInsert/1024/128"),
            (
                "BM_SetInsert".into(),
                axes(&[("arg0", 1024), ("arg1", 128)])
            )
        );
        assert_eq!(
            parts("BM_memcpy/bytes:512"),
            ("BM_memcpy".into(), axes(&[("bytes", 512)]))
        );
        // Partly named, negative, zero.
        assert_eq!(
            parts("BM_pair/3/k:7"),
            ("BM_pair".into(), axes(&[("arg0", 3), ("k", 7)]))
        );
        assert_eq!(
            parts("BM_neg/-5/0"),
            ("BM_neg".into(), axes(&[("arg0", -5), ("arg1", 0)]))
        );
        assert_eq!(parts("BM_plain"), ("BM_plain".into(), vec![]));
    }

    #[test]
    fn option_tokens_stay_in_the_name_but_repeats() {
        assert_eq!(
            parts("BM_x/8/min_time:0.500/real_time"),
            ("BM_x/min_time:0.500/real_time".into(), axes(&[("arg0", 8)]))
        );
        assert_eq!(
            parts("BM_x/repeats:4/process_time/real_time/threads:2"),
            (
                "BM_x/process_time/real_time".into(),
                axes(&[("threads", 2)])
            )
        );
        assert_eq!(
            parts(
                "BM_x/64/min_time:0.5/min_warmup_time:0.1/iterations:1000/repeats:3/manual_time/threads:8"
            ),
            (
                "BM_x/min_time:0.5/min_warmup_time:0.1/iterations:1000/manual_time".into(),
                axes(&[("arg0", 64), ("threads", 8)])
            )
        );
    }

    #[test]
    fn captures_templates_and_fixtures_keep_their_text() {
        assert_eq!(
            parts(r#"BM_decode_value/"ubuntu""#),
            (r#"BM_decode_value/"ubuntu""#.into(), vec![])
        );
        assert_eq!(
            parts(r#"BM_f/"a/b"/16"#),
            (r#"BM_f/"a/b""#.into(), axes(&[("arg0", 16)]))
        );
        assert_eq!(
            parts("BM_T<std::pair<int, int>>/32"),
            ("BM_T<std::pair<int, int>>".into(), axes(&[("arg0", 32)]))
        );
        assert_eq!(
            parts("MyFixture/BarTest/2/threads:4"),
            (
                "MyFixture/BarTest".into(),
                axes(&[("arg0", 2), ("threads", 4)])
            )
        );
        // A name that is only digits keeps them.
        assert_eq!(parts("42"), ("42".into(), vec![]));
        assert_eq!(parts("BM_a:b/c:1"), ("BM_a:b".into(), axes(&[("c", 1)])));
    }
}
