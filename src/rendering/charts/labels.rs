//! Names that keep what tells rows apart: the parts every row of a chart
//! shares (the benchmark, an axis with one value, the only candidate) are
//! taken out to be said once above the chart, and what is left is wrapped
//! at part boundaries rather than cut. Shortening with an ellipsis is the
//! last resort, for a single part wider than the widest label column.

/// One part of a row's name, e.g. the axis value `T=F32`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePart {
    /// What the part names (`benchmark`, `axis T`, `device`, `candidate`):
    /// parts are alike across rows when their key and text are.
    pub key: String,
    pub text: String,
    /// Parts of one section are joined by a space, sections by ` | `.
    pub section: u8,
}

impl NamePart {
    pub fn new(key: impl Into<String>, text: impl Into<String>, section: u8) -> Self {
        NamePart {
            key: key.into(),
            text: text.into(),
            section,
        }
    }
}

/// Section numbers of the summary chart's row names, in label order.
pub mod section {
    pub const BENCHMARK: u8 = 0;
    pub const AXES: u8 = 1;
    pub const DEVICE: u8 = 2;
    pub const CANDIDATE: u8 = 3;
}

/// A name written out on one line: `bench | T=F32 N=2^20 | device 1`.
#[cfg(test)]
pub fn joined(parts: &[NamePart]) -> String {
    let mut out = String::new();
    for (index, part) in parts.iter().enumerate() {
        if index > 0 {
            out.push_str(separator(&parts[index - 1], part));
        }
        out.push_str(&part.text);
    }
    out
}

fn separator(previous: &NamePart, next: &NamePart) -> &'static str {
    if previous.section == next.section {
        " "
    } else {
        " | "
    }
}

/// The parts every name has alike (with two names or more), and each
/// name without them. A name made only of such parts (a state listed
/// twice) keeps them all, so that no row goes unlabelled.
pub fn split_common(names: &[Vec<NamePart>]) -> (Vec<NamePart>, Vec<Vec<NamePart>>) {
    let Some(first) = names.first().filter(|_| names.len() > 1) else {
        return (Vec::new(), names.to_vec());
    };
    let common: Vec<NamePart> = first
        .iter()
        .filter(|part| names.iter().all(|name| name.contains(part)))
        .cloned()
        .collect();
    let rest = names
        .iter()
        .map(|name| {
            let left: Vec<NamePart> = name
                .iter()
                .filter(|part| !common.contains(part))
                .cloned()
                .collect();
            if left.is_empty() { name.clone() } else { left }
        })
        .collect();
    (common, rest)
}

/// `parts` in lines of at most `max_width` (as `measure` gives widths),
/// broken between parts; a break between sections drops the ` | `. A part
/// wider than `max_width` gets a line of its own (the caller shortens it).
pub fn wrap(parts: &[NamePart], max_width: f64, measure: &dyn Fn(&str) -> f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (index, part) in parts.iter().enumerate() {
        if line.is_empty() {
            line.push_str(&part.text);
            continue;
        }
        let longer = format!("{line}{}{}", separator(&parts[index - 1], part), part.text);
        if measure(&longer) <= max_width {
            line = longer;
        } else {
            lines.push(std::mem::replace(&mut line, part.text.clone()));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` split after each `sep` into parts to wrap between, each part
/// keeping its `sep` without a trailing space (`a, b` gives `a,` and `b`;
/// with `" "`, the words).
pub fn words(text: &str, sep: &str) -> Vec<NamePart> {
    let pieces: Vec<&str> = text.split(sep).filter(|p| !p.is_empty()).collect();
    let last = pieces.len().saturating_sub(1);
    pieces
        .iter()
        .enumerate()
        .map(|(index, piece)| {
            let piece = if index < last {
                format!("{piece}{}", sep.trim_end())
            } else {
                piece.to_string()
            };
            NamePart::new("", piece, 0)
        })
        .collect()
}

/// `parts` in at most `most` lines of `max_width` (the rest joined into
/// the last line), a line that is still too wide shortened by `shorten`:
/// for titles and subtitles, which must not push the plot away.
pub fn wrap_lines(
    parts: &[NamePart],
    (most, max_width): (usize, f64),
    measure: &dyn Fn(&str) -> f64,
    shorten: &dyn Fn(&str, f64) -> String,
) -> Vec<String> {
    let mut lines = wrap(parts, max_width, measure);
    if lines.len() > most.max(1) {
        let rest = lines.split_off(most.max(1) - 1).join(" ");
        lines.push(rest);
    }
    lines
        .into_iter()
        .filter(|line| !line.is_empty())
        .map(|line| {
            if measure(&line) > max_width {
                shorten(&line, max_width)
            } else {
                line
            }
        })
        .collect()
}

/// Wrapped labels, and the widest of their lines in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Wrapped {
    pub lines: Vec<Vec<String>>,
    pub width: f64,
    /// Lines of the label with the most.
    pub most_lines: usize,
}

/// The first of `steps` (most lines, column width) in which every name
/// fits whole; when none does, the last step, with what does not fit
/// shortened by `shorten` (text, width).
pub fn fit_labels(
    names: &[Vec<NamePart>],
    steps: &[(usize, f64)],
    measure: &dyn Fn(&str) -> f64,
    shorten: &dyn Fn(&str, f64) -> String,
) -> Wrapped {
    let wrap_all = |width: f64| -> Vec<Vec<String>> {
        names
            .iter()
            .map(|name| wrap(name, width, measure))
            .collect()
    };
    let fits = |lines: &[Vec<String>], most: usize, width: f64| {
        lines
            .iter()
            .all(|label| label.len() <= most && label.iter().all(|l| measure(l) <= width))
    };
    let mut chosen = None;
    for &(most, width) in steps {
        let lines = wrap_all(width);
        if fits(&lines, most, width) {
            chosen = Some(lines);
            break;
        }
    }
    let lines = chosen.unwrap_or_else(|| {
        let (most, width) = steps.last().copied().unwrap_or((1, f64::INFINITY));
        wrap_all(width)
            .into_iter()
            .map(|mut label| {
                if label.len() > most {
                    let rest = label.split_off(most - 1).join(" ");
                    label.push(rest);
                }
                label
                    .into_iter()
                    .map(|l| {
                        if measure(&l) > width {
                            shorten(&l, width)
                        } else {
                            l
                        }
                    })
                    .collect()
            })
            .collect()
    });
    let width = lines
        .iter()
        .flatten()
        .map(|l| measure(l))
        .fold(0.0, f64::max);
    let most_lines = lines.iter().map(Vec::len).max().unwrap_or(1);
    Wrapped {
        lines,
        width,
        most_lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten pixels a character.
    fn measure(text: &str) -> f64 {
        10.0 * text.chars().count() as f64
    }

    fn shorten(text: &str, width: f64) -> String {
        let keep = (width / 10.0) as usize - 1;
        format!("{}…", text.chars().take(keep).collect::<String>())
    }

    fn row(bench: &str, axes: &[&str], device: Option<&str>) -> Vec<NamePart> {
        let mut parts = vec![NamePart::new("benchmark", bench, section::BENCHMARK)];
        for axis in axes {
            let key = format!("axis {}", axis.split('=').next().unwrap());
            parts.push(NamePart::new(key, *axis, section::AXES));
        }
        if let Some(device) = device {
            parts.push(NamePart::new("device", device, section::DEVICE));
        }
        parts
    }

    #[test]
    fn common_parts_are_said_once() {
        let names = vec![
            row(
                "cub.bench.radix_sort.keys.base.tuned",
                &["T=I16", "OffsetT=I32", "N=2^20"],
                None,
            ),
            row(
                "cub.bench.radix_sort.keys.base.tuned",
                &["T=I32", "OffsetT=I32", "N=2^20"],
                None,
            ),
            row(
                "cub.bench.radix_sort.keys.base.tuned",
                &["T=I32", "OffsetT=I32", "N=2^24"],
                None,
            ),
        ];
        let (common, rest) = split_common(&names);
        assert_eq!(
            joined(&common),
            "cub.bench.radix_sort.keys.base.tuned | OffsetT=I32"
        );
        let labels: Vec<String> = rest.iter().map(|r| joined(r)).collect();
        assert_eq!(labels, vec!["T=I16 N=2^20", "T=I32 N=2^20", "T=I32 N=2^24"]);
    }

    #[test]
    fn one_row_and_repeated_rows_keep_their_names() {
        let one = vec![row("b", &["T=F32"], None)];
        assert_eq!(split_common(&one), (Vec::new(), one.clone()));
        let twice = vec![row("b", &["T=F32"], None), row("b", &["T=F32"], None)];
        let (common, rest) = split_common(&twice);
        assert_eq!(joined(&common), "b | T=F32");
        assert_eq!(joined(&rest[1]), "b | T=F32");
        // Different benchmarks stay in their rows; a shared axis does not.
        let two = vec![
            row("a", &["T=F32"], Some("device 0")),
            row("b", &["T=F32"], Some("device 1")),
        ];
        let (common, rest) = split_common(&two);
        assert_eq!(joined(&common), "T=F32");
        assert_eq!(joined(&rest[0]), "a | device 0");
    }

    #[test]
    fn wrapping_breaks_between_parts() {
        let name = row(
            "bench",
            &["T=F32", "Elements=2^20"],
            Some("device 1: NVIDIA L4"),
        );
        assert_eq!(
            joined(&name),
            "bench | T=F32 Elements=2^20 | device 1: NVIDIA L4"
        );
        assert_eq!(
            wrap(&name, 300.0, &measure),
            vec!["bench | T=F32 Elements=2^20", "device 1: NVIDIA L4"]
        );
        assert_eq!(
            wrap(&name, 100.0, &measure),
            vec!["bench", "T=F32", "Elements=2^20", "device 1: NVIDIA L4"]
        );
    }

    #[test]
    fn titles_wrap_between_words_in_a_few_lines() {
        let title = words("copy_type_sweep - NVIDIA L4 (device 1)", " ");
        assert_eq!(title.len(), 6);
        let lines = wrap_lines(&title, (2, 200.0), &measure, &shorten);
        assert_eq!(lines, vec!["copy_type_sweep -", "NVIDIA L4 (device 1)"]);
        let lines = wrap_lines(&title, (1, 200.0), &measure, &shorten);
        assert_eq!(
            lines,
            vec![format!(
                "{}…",
                "copy_type_sweep - NVIDIA"
                    .chars()
                    .take(19)
                    .collect::<String>()
            )]
        );
        let list = words("A = 1, B = 2", ", ");
        assert_eq!(joined(&list), "A = 1, B = 2");
        assert!(wrap_lines(&words("", " "), (2, 100.0), &measure, &shorten).is_empty());
    }

    #[test]
    fn labels_wrap_or_widen_before_they_are_shortened() {
        let names = vec![row("bench", &["T=F32", "Elements=2^20"], None)];
        let steps = [(1, 150.0), (2, 150.0), (2, 300.0)];
        let fitted = fit_labels(&names, &steps, &measure, &shorten);
        assert_eq!(fitted.lines, vec![vec!["bench | T=F32", "Elements=2^20"]]);
        assert_eq!((fitted.width, fitted.most_lines), (130.0, 2));
        let long = vec![row(&"x".repeat(40), &["T=F32"], None)];
        let fitted = fit_labels(&long, &steps, &measure, &shorten);
        assert_eq!(
            fitted.lines[0],
            vec![format!("{}…", "x".repeat(29)), "T=F32".into()]
        );
        let many = vec![row("a", &["B=1", "C=2", "D=3"], None)];
        let fitted = fit_labels(&many, &[(2, 30.0)], &measure, &shorten);
        assert_eq!(fitted.lines[0], vec!["a", "B=…"]);
    }
}
