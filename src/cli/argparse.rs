//! Python 3.11 argparse's `parse_known_args` and `print_help`, for the HEAD
//! scripts that parse their command line with it. clap cannot stand in
//! here: argparse lets unknown options through among the positionals, in
//! command-line order (a script may print that list), takes `-5` as an
//! option's value but not `--x`, accepts any unambiguous prefix of a long
//! option, and words its errors and help its own way.
//!
//! The options are data ([`Spec`]); parsing gives their values and the
//! leftovers, or what argparse would print and the exit status.

use crate::pycompat::pyfmt::str_repr;

/// What an option does with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `-h/--help`: prints the help and exits 0.
    Help,
    /// `store_true`.
    Flag,
    /// One value, the last one given wins (`type=float` is checked here).
    Value { float: bool },
    /// One value per occurrence (`action="append"`).
    Append,
    /// One value out of `choices`, the last one given wins; the help shows
    /// the choices (`{a,b}`) where it would show the metavar.
    Choice(&'static [&'static str]),
}

impl Kind {
    fn takes_value(self) -> bool {
        matches!(self, Kind::Value { .. } | Kind::Append | Kind::Choice(_))
    }
}

/// One `add_argument` call.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Option strings in the order given (`-a`, `--axis`).
    pub strings: &'static [&'static str],
    pub dest: &'static str,
    pub kind: Kind,
    pub help: &'static str,
}

/// An `ArgumentParser(prog=..., usage=...)` and its options, `-h/--help` first.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub prog: &'static str,
    /// The usage text, `%(prog)s` already replaced.
    pub usage: &'static str,
    /// Positional arguments' names (shown in the help only: `parse_known`
    /// gives every argument it does not consume as an extra).
    pub positionals: &'static [&'static str],
    pub options: &'static [Opt],
}

/// The values given: per option (by index in [`Spec::options`]), every value
/// in order (a flag given holds one empty value per occurrence).
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    pub values: Vec<Vec<String>>,
    /// `type=float` options' last value, converted.
    pub floats: Vec<Option<f64>>,
    /// Everything argparse did not consume, in command-line order.
    pub extras: Vec<String>,
}

impl Known {
    pub fn flag(&self, spec: &Spec, dest: &str) -> bool {
        self.index(spec, dest)
            .is_some_and(|i| !self.values[i].is_empty())
    }

    pub fn last(&self, spec: &Spec, dest: &str) -> Option<&str> {
        self.index(spec, dest)
            .and_then(|i| self.values[i].last())
            .map(String::as_str)
    }

    pub fn all(&self, spec: &Spec, dest: &str) -> &[String] {
        self.index(spec, dest)
            .map_or(&[], |i| self.values[i].as_slice())
    }

    pub fn float(&self, spec: &Spec, dest: &str) -> Option<f64> {
        self.index(spec, dest).and_then(|i| self.floats[i])
    }

    fn index(&self, spec: &Spec, dest: &str) -> Option<usize> {
        spec.options.iter().position(|o| o.dest == dest)
    }
}

/// How parsing ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Parsed(Known),
    /// `-h`/`--help`: the help goes to stdout, exit 0.
    Help,
    /// An error: the usage and `PROG: error: MESSAGE` go to stderr, exit 2.
    Error(String),
}

/// How an argument was read before any is consumed.
#[derive(Debug, Clone)]
enum Pattern {
    /// A positional (or any argument after `--`).
    Arg,
    /// `--` itself.
    DoubleDash,
    /// An option string: the option (`None`: unknown), the option string
    /// matched, and the value given with it (`--x=V`, `-xV`).
    Opt(Option<usize>, String, Option<String>),
}

impl Spec {
    fn lookup(&self, string: &str) -> Option<usize> {
        self.options
            .iter()
            .position(|o| o.strings.contains(&string))
    }

    /// The option strings in the order argparse registers them.
    fn all_strings(&self) -> impl Iterator<Item = (usize, &'static str)> + '_ {
        self.options
            .iter()
            .enumerate()
            .flat_map(|(i, o)| o.strings.iter().map(move |s| (i, *s)))
    }

    fn name(&self, option: usize) -> String {
        self.options[option].strings.join("/")
    }

    /// `_parse_optional`: `Ok(None)` is a positional.
    fn classify(&self, arg: &str) -> Result<Option<Pattern>, String> {
        if !arg.starts_with('-') {
            return Ok(None);
        }
        if let Some(option) = self.lookup(arg) {
            return Ok(Some(Pattern::Opt(Some(option), arg.to_string(), None)));
        }
        if arg.len() == 1 {
            return Ok(None);
        }
        if let Some((name, value)) = arg.split_once('=')
            && let Some(option) = self.lookup(name)
        {
            return Ok(Some(Pattern::Opt(
                Some(option),
                name.to_string(),
                Some(value.to_string()),
            )));
        }
        let tuples = self.prefix_matches(arg);
        if tuples.len() > 1 {
            let names: Vec<&str> = tuples.iter().map(|(_, s, _)| *s).collect();
            return Err(format!(
                "ambiguous option: {arg} could match {}",
                names.join(", ")
            ));
        }
        if let Some((option, string, value)) = tuples.into_iter().next() {
            return Ok(Some(Pattern::Opt(Some(option), string.to_string(), value)));
        }
        if is_negative_number(arg) || arg.contains(' ') {
            return Ok(None);
        }
        Ok(Some(Pattern::Opt(None, arg.to_string(), None)))
    }

    /// `_get_option_tuples`: abbreviations of long options, and short
    /// options with their value attached.
    fn prefix_matches(&self, arg: &str) -> Vec<(usize, &'static str, Option<String>)> {
        let mut found = Vec::new();
        if arg[1..].starts_with('-') {
            let (prefix, value) = match arg.split_once('=') {
                Some((prefix, value)) => (prefix, Some(value.to_string())),
                None => (arg, None),
            };
            for (option, string) in self.all_strings() {
                if string.starts_with(prefix) {
                    found.push((option, string, value.clone()));
                }
            }
        } else {
            let short_len = arg.char_indices().nth(2).map_or(arg.len(), |(i, _)| i);
            let (short, attached) = arg.split_at(short_len);
            for (option, string) in self.all_strings() {
                if string == short {
                    found.push((option, string, Some(attached.to_string())));
                } else if string.starts_with(arg) {
                    found.push((option, string, None));
                }
            }
        }
        found
    }

    /// `parse_known_args(args)`.
    pub fn parse_known(&self, args: &[String]) -> Outcome {
        let mut patterns = Vec::with_capacity(args.len());
        let mut after_double_dash = false;
        for arg in args {
            let pattern = if after_double_dash {
                Pattern::Arg
            } else if arg == "--" {
                after_double_dash = true;
                Pattern::DoubleDash
            } else {
                match self.classify(arg) {
                    Ok(Some(pattern)) => pattern,
                    Ok(None) => Pattern::Arg,
                    Err(message) => return Outcome::Error(message),
                }
            };
            patterns.push(pattern);
        }
        let mut known = Known {
            values: vec![Vec::new(); self.options.len()],
            floats: vec![None; self.options.len()],
            extras: Vec::new(),
        };
        let mut index = 0;
        while index < args.len() {
            let Pattern::Opt(option, string, attached) = &patterns[index] else {
                known.extras.push(args[index].clone());
                index += 1;
                continue;
            };
            let Some(option) = *option else {
                known.extras.push(args[index].clone());
                index += 1;
                continue;
            };
            let (taken, next) = match self.consume(
                option,
                string,
                attached.clone(),
                &patterns[index + 1..],
                args,
                index,
            ) {
                Ok(consumed) => consumed,
                Err(message) => return Outcome::Error(message),
            };
            for (option, value) in taken {
                match self.options[option].kind {
                    Kind::Help => return Outcome::Help,
                    Kind::Value { float: true } => {
                        let text = value.unwrap_or_default();
                        match crate::pycompat::pyfmt::parse_py_float(&text) {
                            Some(x) => known.floats[option] = Some(x),
                            None => {
                                return Outcome::Error(format!(
                                    "argument {}: invalid float value: {}",
                                    self.name(option),
                                    str_repr(&text)
                                ));
                            }
                        }
                        known.values[option].push(text);
                    }
                    Kind::Choice(choices) => {
                        let text = value.unwrap_or_default();
                        if !choices.contains(&text.as_str()) {
                            let listed: Vec<String> = choices.iter().map(|c| str_repr(c)).collect();
                            return Outcome::Error(format!(
                                "argument {}: invalid choice: {} (choose from {})",
                                self.name(option),
                                str_repr(&text),
                                listed.join(", ")
                            ));
                        }
                        known.values[option].push(text);
                    }
                    _ => known.values[option].push(value.unwrap_or_default()),
                }
            }
            index = next;
        }
        Outcome::Parsed(known)
    }

    /// `consume_optional`: the actions taken (option, value) and the index
    /// of the next argument.
    #[allow(clippy::type_complexity)]
    fn consume(
        &self,
        mut option: usize,
        string: &str,
        mut attached: Option<String>,
        following: &[Pattern],
        args: &[String],
        index: usize,
    ) -> Result<(Vec<(usize, Option<String>)>, usize), String> {
        let mut taken = Vec::new();
        let mut string = string.to_string();
        loop {
            let takes_value = self.options[option].kind.takes_value();
            match attached {
                Some(value) => {
                    let single_dash = !string[1..].starts_with('-');
                    if !takes_value && single_dash && !value.is_empty() {
                        // `-hx`: the rest is another single-letter option.
                        taken.push((option, None));
                        let first = value.chars().next().unwrap_or_default();
                        let next_string = format!("-{first}");
                        let rest = &value[first.len_utf8()..];
                        match self.lookup(&next_string) {
                            Some(next) => {
                                option = next;
                                string = next_string;
                                attached = (!rest.is_empty()).then(|| rest.to_string());
                            }
                            None => {
                                return Err(format!(
                                    "argument {}: ignored explicit argument {}",
                                    self.name(option),
                                    str_repr(&value)
                                ));
                            }
                        }
                    } else if takes_value {
                        taken.push((option, Some(value)));
                        return Ok((taken, index + 1));
                    } else {
                        return Err(format!(
                            "argument {}: ignored explicit argument {}",
                            self.name(option),
                            str_repr(&value)
                        ));
                    }
                }
                None if takes_value => {
                    return match following.first() {
                        Some(Pattern::Arg) => {
                            taken.push((option, Some(args[index + 1].clone())));
                            Ok((taken, index + 2))
                        }
                        _ => Err(format!(
                            "argument {}: expected one argument",
                            self.name(option)
                        )),
                    };
                }
                None => {
                    taken.push((option, None));
                    return Ok((taken, index + 1));
                }
            }
        }
    }

    /// What argparse prints on stderr for an error.
    pub fn error_text(&self, message: &str) -> String {
        format!("usage: {}\n{}: error: {message}\n", self.usage, self.prog)
    }

    /// `print_help()` at `columns` terminal columns.
    pub fn help_text(&self, columns: usize) -> String {
        let width = columns.saturating_sub(2);
        let max_help_position = 24.min(width.saturating_sub(20).max(4));
        let invocations: Vec<String> = self.options.iter().map(invocation).collect();
        let longest = invocations
            .iter()
            .map(String::len)
            .chain(self.positionals.iter().map(|p| p.len()))
            .map(|length| length + 2)
            .max()
            .unwrap_or(0);
        let help_position = (longest + 2).min(max_help_position);
        let help_width = width.saturating_sub(help_position).max(11);
        let action_width = help_position.saturating_sub(4);
        let mut out = format!("usage: {}\n\n", self.usage);
        if !self.positionals.is_empty() {
            out.push_str("positional arguments:\n");
            for positional in self.positionals {
                out.push_str(&format!("  {positional}\n"));
            }
            out.push('\n');
        }
        out.push_str("options:\n");
        for (option, header) in self.options.iter().zip(&invocations) {
            let lines = wrap(option.help, help_width);
            if lines.is_empty() {
                // Without help argparse ends the line after the invocation.
                out.push_str(&format!("  {header}\n"));
                continue;
            }
            if header.len() <= action_width {
                out.push_str(&format!("  {header:<action_width$}  "));
            } else {
                out.push_str(&format!("  {header}\n"));
                out.push_str(&" ".repeat(help_position));
            }
            for (number, line) in lines.iter().enumerate() {
                if number > 0 {
                    out.push_str(&" ".repeat(help_position));
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

/// `-a AXIS, --axis AXIS`: the metavar is the destination in capitals,
/// or the choices in braces.
fn invocation(option: &Opt) -> String {
    let metavar = match option.kind {
        Kind::Choice(choices) => format!("{{{}}}", choices.join(",")),
        _ => option.dest.to_uppercase(),
    };
    let takes_value = option.kind.takes_value();
    let parts: Vec<String> = option
        .strings
        .iter()
        .map(|s| {
            if takes_value {
                format!("{s} {metavar}")
            } else {
                s.to_string()
            }
        })
        .collect();
    parts.join(", ")
}

/// `textwrap.wrap` of whitespace-collapsed text: words and the spaces
/// between them as chunks, words longer than the width broken (the help
/// texts have no hyphenated words to split at).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut chunks: Vec<String> = Vec::new();
    for (number, word) in text.split_whitespace().enumerate() {
        if number > 0 {
            chunks.push(" ".to_string());
        }
        chunks.push(word.to_string());
    }
    chunks.reverse();
    let len = |s: &str| s.chars().count();
    let mut lines = Vec::new();
    while !chunks.is_empty() {
        let mut line: Vec<String> = Vec::new();
        let mut used = 0;
        if chunks.last().is_some_and(|c| c == " ") && !lines.is_empty() {
            chunks.pop();
        }
        while let Some(chunk) = chunks.last() {
            if used + len(chunk) > width {
                break;
            }
            used += len(chunk);
            line.extend(chunks.pop());
        }
        if let Some(chunk) = chunks.pop_if(|c| len(c) > width) {
            let room = if width < 1 { 1 } else { width - used };
            let split = chunk
                .char_indices()
                .nth(room)
                .map_or(chunk.len(), |(i, _)| i);
            line.push(chunk[..split].to_string());
            chunks.push(chunk[split..].to_string());
        }
        if line.last().is_some_and(|c| c == " ") {
            line.pop();
        }
        if !line.is_empty() {
            lines.push(line.concat());
        }
    }
    lines
}

/// argparse's `^-\d+$|^-\d*\.\d+$` (Python's `\d` is any Unicode digit).
fn is_negative_number(arg: &str) -> bool {
    let Some(rest) = arg.strip_prefix('-') else {
        return false;
    };
    let digits = |s: &str| s.chars().all(char::is_numeric);
    match rest.split_once('.') {
        None => !rest.is_empty() && digits(rest),
        Some((whole, fraction)) => digits(whole) && !fraction.is_empty() && digits(fraction),
    }
}

/// The terminal width argparse formats for: `COLUMNS` when it is a
/// positive integer, else stdout's terminal, else 80.
pub fn terminal_columns() -> usize {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| crate::pycompat::pyfmt::parse_py_int(&c))
        .filter(|c| *c > 0)
    {
        return usize::try_from(columns).unwrap_or(usize::MAX);
    }
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes a winsize into the struct it is given,
    // which lives for the call; on a non-terminal it fails and writes nothing.
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    if ok && size.ws_col > 0 {
        usize::from(size.ws_col)
    } else {
        80
    }
}
