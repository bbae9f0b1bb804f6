//! The plot options' command-line rules and `--plot-along-output`
//! templates, as upstream NVBench (`main`, `_nvbench_compare_plotting.py`)
//! defines them: Python `str.format` fields, sanitized so that a benchmark
//! or axis name cannot leave the template's directory. Every message is
//! upstream's text, returned rather than printed.

/// Checks the plot options before any comparison work, in upstream `main`'s
/// order; the first failure is returned with upstream's text (upstream prints
/// it and exits with status 1). `plot_along` is `Some("")` for an empty
/// `--plot-along ""`.
pub fn validate_plot_options(
    plot: bool,
    plot_output: Option<&str>,
    plot_along: Option<&str>,
    plot_along_output: Option<&str>,
) -> Result<(), String> {
    if plot_output.is_some() && !plot {
        return Err("--plot-output requires --plot".to_string());
    }
    if plot_along_output.is_some() && plot_along.is_none() {
        return Err("--plot-along-output requires --plot-along".to_string());
    }
    if plot_along == Some("") {
        return Err("--plot-along requires a non-empty axis name".to_string());
    }
    if let Some(template) = plot_along_output {
        validate_along_template(template)?;
    }
    // Upstream also refuses to show one chart interactively while saving the
    // other; this tool never shows charts (every chart is written to a file),
    // so there is nothing to mix.
    Ok(())
}

/// Expands a `--plot-along-output` template for one chart. The fields
/// `{benchmark}`, `{device}` (compare device id), `{axis}` and `{pair}`
/// (position of the device pair in the benchmark) are sanitized so that a
/// name cannot leave the template's directory; `{{`/`}}` are literal braces.
pub fn along_output_path(
    template: &str,
    benchmark: &str,
    device_id: i64,
    axis: &str,
    pair: usize,
) -> Result<String, String> {
    let pieces = checked_template(template)?;
    let mut out = String::new();
    for piece in pieces {
        match piece {
            TemplatePiece::Literal(text) => out.push_str(&text),
            TemplatePiece::Field(name) => out.push_str(&match name.as_str() {
                "benchmark" => sanitize_component(benchmark),
                "device" => sanitize_component(&device_id.to_string()),
                "axis" => sanitize_component(axis),
                _ => sanitize_component(&pair.to_string()),
            }),
        }
    }
    Ok(out)
}

const TEMPLATE_FIELDS: [&str; 4] = ["axis", "benchmark", "device", "pair"];

#[derive(Debug, Clone, PartialEq)]
enum TemplatePiece {
    Literal(String),
    Field(String),
}

/// A replacement field as Python's `str.format` parser splits it.
struct RawField {
    name: String,
    conversion: Option<char>,
    spec: String,
}

/// Parses a template and checks that every field is a bare supported name,
/// with upstream's messages.
fn checked_template(template: &str) -> Result<Vec<TemplatePiece>, String> {
    let raw = parse_format_string(template)
        .map_err(|e| format!("--plot-along-output template is invalid: {e}"))?;
    let supported = TEMPLATE_FIELDS.map(|f| format!("{{{f}}}")).join(", ");
    raw.into_iter()
        .map(|piece| match piece {
            Ok(text) => Ok(TemplatePiece::Literal(text)),
            Err(field) => {
                let bare = field.conversion.is_none() && field.spec.is_empty();
                if bare && TEMPLATE_FIELDS.contains(&field.name.as_str()) {
                    Ok(TemplatePiece::Field(field.name))
                } else {
                    Err(format!(
                        "--plot-along-output supports template fields {supported}; got {{{}}}",
                        field.name
                    ))
                }
            }
        })
        .collect()
}

fn validate_along_template(template: &str) -> Result<(), String> {
    checked_template(template).map(|_| ())
}

/// Python's format-string grammar: literal text (`Ok`) and replacement
/// fields (`Err`, for brevity of the match above), or Python's error text.
fn parse_format_string(template: &str) -> Result<Vec<Result<String, RawField>>, String> {
    let chars: Vec<char> = template.chars().collect();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match (c, next) {
            ('{', Some('{')) | ('}', Some('}')) => {
                literal.push(c);
                i += 2;
            }
            ('}', _) => return Err("Single '}' encountered in format string".to_string()),
            ('{', None) => return Err("Single '{' encountered in format string".to_string()),
            ('{', Some(_)) => {
                let (body, end) = field_body(&chars, i + 1)?;
                if !literal.is_empty() {
                    pieces.push(Ok(std::mem::take(&mut literal)));
                }
                pieces.push(Err(parse_field(&body)?));
                i = end;
            }
            _ => {
                literal.push(c);
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        pieces.push(Ok(literal));
    }
    Ok(pieces)
}

/// The text of a replacement field starting at `start` (after its `{`),
/// with nested braces counted, and the index after its closing `}`.
fn field_body(chars: &[char], start: usize) -> Result<(String, usize), String> {
    let mut depth = 1;
    for (offset, &c) in chars[start..].iter().enumerate() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let end = start + offset;
                    return Ok((chars[start..end].iter().collect(), end + 1));
                }
            }
            _ => {}
        }
    }
    Err("expected '}' before end of string".to_string())
}

/// Splits `name[!conversion][:spec]` as Python does.
fn parse_field(body: &str) -> Result<RawField, String> {
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => return Err("unexpected '{' in field name".to_string()),
            // An index may contain ':' or '!' without ending the name.
            '[' => {
                while i < chars.len() && chars[i] != ']' {
                    i += 1;
                }
            }
            ':' | '!' => break,
            _ => {}
        }
        i += 1;
    }
    let i = i.min(chars.len());
    let name: String = chars[..i].iter().collect();
    let mut field = RawField {
        name,
        conversion: None,
        spec: String::new(),
    };
    match chars.get(i) {
        Some('!') => {
            let Some(&conversion) = chars.get(i + 1) else {
                return Err("end of string while looking for conversion specifier".to_string());
            };
            field.conversion = Some(conversion);
            match chars.get(i + 2) {
                None => {}
                Some(':') => field.spec = chars[i + 3..].iter().collect(),
                Some(_) => return Err("expected ':' after conversion specifier".to_string()),
            }
        }
        Some(':') => field.spec = chars[i + 1..].iter().collect(),
        _ => {}
    }
    Ok(field)
}

/// Replaces runs of characters other than ASCII letters, digits, `_` and `-`
/// with `_` and trims `.`, `_` and `-` from both ends (so `..` and `/` cannot
/// escape the template's directory); an empty result becomes `value`.
pub(super) fn sanitize_component(value: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in value.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    let trimmed = out.trim_matches(|c| c == '.' || c == '_' || c == '-');
    if trimmed.is_empty() {
        "value".to_string()
    } else {
        trimmed.to_string()
    }
}
