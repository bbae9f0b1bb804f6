//! Checks of the crate's shape, read from its sources: the top-level
//! modules import each other without a circle, `settings` stays a leaf that
//! no stage below the pipeline imports, and no source file has more than
//! 1,000 lines of non-test code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// A file compiled only for tests: `tests.rs`, or a file under `tests/`.
fn is_test_file(relative: &Path) -> bool {
    relative.file_name().is_some_and(|n| n == "tests.rs")
        || relative.components().any(|c| c.as_os_str() == "tests")
        || relative == Path::new("layering.rs")
        || relative == Path::new("testing.rs")
}

/// The lines before the file's test module, without comments.
fn production_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut all = text.lines().peekable();
    while let Some(line) = all.next() {
        let trimmed = line.trim_start();
        if trimmed == "#[cfg(test)]"
            && all
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        if !trimmed.starts_with("//") {
            lines.push(line);
        }
    }
    lines
}

/// The top-level module a source file belongs to (`None` for lib.rs and main.rs).
fn top_module(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// `module -> the top-level modules its production code names`.
fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = source_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&root).unwrap().to_path_buf();
        let Some(module) = top_module(&relative) else {
            continue;
        };
        if is_test_file(&relative) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let named = imports.entry(module.clone()).or_default();
        for line in production_lines(&text) {
            for (index, _) in line.match_indices("crate::") {
                let rest = &line[index + "crate::".len()..];
                let other: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !other.is_empty() && other != module {
                    named.insert(other);
                }
            }
        }
    }
    imports
}

/// A circle of imports, when there is one.
fn find_circle(imports: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut circle = path[start..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in imports.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, imports, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    imports
        .keys()
        .find_map(|module| visit(module, imports, &mut Vec::new(), &mut done))
}

#[test]
fn top_level_modules_import_each_other_without_a_circle() {
    let imports = module_imports();
    assert!(imports.contains_key("app") && imports.contains_key("loading"));
    assert_eq!(find_circle(&imports), None, "imports: {imports:#?}");
}

#[test]
fn the_circle_check_finds_a_circle() {
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    imports.entry("a".into()).or_default().insert("b".into());
    imports.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_circle(&imports), None);
    imports.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_circle(&imports).unwrap(), ["a", "b", "c", "a"]);
}

#[test]
fn settings_is_a_leaf_only_the_front_end_and_the_pipeline_import() {
    let imports = module_imports();
    let importers: Vec<&String> = imports
        .iter()
        .filter(|(_, named)| named.contains("settings"))
        .map(|(module, _)| module)
        .collect();
    assert_eq!(importers, ["app", "cli", "output"], "{imports:#?}");
    let named = &imports["settings"];
    for pipeline in ["app", "cli", "output"] {
        assert!(!named.contains(pipeline), "settings imports {pipeline}");
    }
}

#[test]
fn no_source_file_has_over_1000_lines_of_non_test_code() {
    let root = source_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let long: Vec<(PathBuf, usize)> = files
        .into_iter()
        .filter(|f| !is_test_file(f.strip_prefix(&root).unwrap()))
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let count = production_lines(&text)
                .iter()
                .filter(|l| !l.trim().is_empty())
                .count();
            (f, count)
        })
        .filter(|(_, count)| *count > 1000)
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

#[test]
fn production_lines_stop_at_the_test_module_and_skip_comments() {
    let text = "//! doc\nfn a() {}\n// note\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\n";
    assert_eq!(production_lines(text), ["fn a() {}"]);
}
