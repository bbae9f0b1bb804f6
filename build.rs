//! Links the executable statically against glibc where the machine has its
//! static libraries: the dynamic loader's work (three shared libraries to
//! map and relocate, a larger start-up of the C library and of each thread)
//! is half a millisecond to a millisecond of a run that takes two or three
//! on small files (see benches/README.md, session 18).
//!
//! rustc links a static executable on `*-linux-gnu` only with
//! `-C target-feature=+crt-static` and `--target`, which also moves the
//! executable out of `target/release`. Instead, this gives the link of the
//! executable alone (not the tests', not other crates') `-static-pie` and a
//! directory whose archives stand in for the shared libraries rustc names
//! after `-Bdynamic` (`-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc` today),
//! found before the system's. The names are asked of this rustc, and a
//! small Rust program linked the same way must build, run (a thread, a
//! caught panic) and have no program interpreter; otherwise, or for another
//! target, a cross build, a chosen linker or a sanitizer, the link stays as
//! rustc makes it. `NVBENCH_COMPARE_DYNAMIC=1` asks for the dynamic link.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

const OPT_OUT: &str = "NVBENCH_COMPARE_DYNAMIC";

/// The trial program: what the executable needs of the C library and of
/// the unwinder at least.
const TRIAL: &str = r#"fn main() {
    std::thread::spawn(|| ()).join().unwrap();
    std::panic::set_hook(Box::new(|_| ()));
    assert!(std::panic::catch_unwind(|| panic!()).is_err());
}
"#;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed={OPT_OUT}");
    let linking = match static_libraries() {
        Ok(dir) => {
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
            println!("cargo:rustc-link-arg-bins=-static-pie");
            "static".to_string()
        }
        Err(Dynamic::Chosen(why)) => format!("dynamic: {why}"),
        Err(Dynamic::Failed(why)) => {
            println!("cargo:warning=linking nvbench-compare dynamically: {why}");
            format!("dynamic: {why}")
        }
    };
    // Tests check that the executable is linked as the build says.
    println!("cargo:rustc-env=NVBENCH_COMPARE_LINKING={linking}");
}

/// Why the executable is linked as rustc links it.
enum Dynamic {
    /// Not attempted: asked for, or a build this does not handle.
    Chosen(&'static str),
    /// Attempted, and something was missing or did not work.
    Failed(String),
}

/// The directory of stand-in archives, once a trial link with it has run.
fn static_libraries() -> Result<PathBuf, Dynamic> {
    let var = |name: &str| env::var(name).unwrap_or_default();
    let refusal = [
        (!var(OPT_OUT).is_empty(), "NVBENCH_COMPARE_DYNAMIC is set"),
        (
            var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu",
            "not a *-linux-gnu target",
        ),
        (
            var("CARGO_CFG_TARGET_ENDIAN") != "little"
                || var("CARGO_CFG_TARGET_POINTER_WIDTH") != "64",
            "not a 64-bit little-endian target",
        ),
        (var("HOST") != var("TARGET"), "a cross build"),
        (
            env::var_os("RUSTC_LINKER").is_some(),
            "a linker is configured",
        ),
        (
            var("CARGO_ENCODED_RUSTFLAGS").contains("sanitizer"),
            "a sanitizer build",
        ),
    ];
    if let Some((_, why)) = refusal.into_iter().find(|(refused, _)| *refused) {
        return Err(Dynamic::Chosen(why));
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").ok_or(Dynamic::Chosen("no OUT_DIR"))?);
    let dir = out.join("static-glibc");
    fs::create_dir_all(&dir)
        .map_err(|e| Dynamic::Failed(format!("cannot create {}: {e}", dir.display())))?;
    let source = out.join("static_trial.rs");
    fs::write(&source, TRIAL)
        .map_err(|e| Dynamic::Failed(format!("cannot write {}: {e}", source.display())))?;
    write_stand_ins(&dir, &rustc_libraries(&source)?)?;
    trial_link(&source, &dir)?;
    Ok(dir)
}

/// rustc with the build's flags, on the trial program.
fn rustc(source: &Path) -> Command {
    let mut rustc = Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    rustc
        .args(flags.split('\x1f').filter(|flag| !flag.is_empty()))
        .args(["--edition", "2021", "-C", "opt-level=0"])
        .arg(source);
    rustc
}

/// The libraries rustc's std names in its link, in its order.
fn rustc_libraries(source: &Path) -> Result<Vec<String>, Dynamic> {
    // `true` as the linker: the line is printed, nothing is linked.
    let mut print = rustc(source);
    print
        .args(["--print", "link-args", "-C", "linker=true", "-o"])
        .arg(source.with_extension("printed"));
    let printed = succeeded(print, "rustc --print link-args")?;
    let text = String::from_utf8_lossy(&printed);
    let libraries: Vec<String> = text
        .split_whitespace()
        .filter_map(|word| word.trim_matches('"').strip_prefix("-l"))
        .map(str::to_string)
        .collect();
    if libraries.iter().any(|name| name == "c") {
        Ok(libraries)
    } else {
        Err(Dynamic::Failed(format!(
            "no -lc in rustc's link line: {}",
            text.trim()
        )))
    }
}

/// The archive `cc` would link for `-l{name}` in a static link.
fn archive(name: &str) -> Option<PathBuf> {
    let file = format!("lib{name}.a");
    let output = Command::new("cc")
        .arg(format!("-print-file-name={file}"))
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    // `cc` prints the bare name when it finds no such file.
    (output.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}

fn required(name: &str) -> Result<PathBuf, Dynamic> {
    archive(name).ok_or_else(|| {
        Dynamic::Failed(format!(
            "no static lib{name}.a (glibc's or gcc's static libraries are not installed)"
        ))
    })
}

/// A linker script naming archives by their full paths.
fn group(paths: &[&Path]) -> String {
    let quoted: Vec<String> = paths
        .iter()
        .map(|p| format!("\"{}\"", p.display()))
        .collect();
    format!("GROUP ( {} )\n", quoted.join(" "))
}

/// One stand-in per library rustc names: the C library together with
/// gcc's runtime (so that the order rustc gives them does not matter to the
/// linker), `gcc_s` as gcc's static unwinder and runtime, and the rest as
/// glibc's archives (empty ones for the libraries glibc 2.34 merged into
/// the C library, where it has none); any other library needs its archive.
fn write_stand_ins(dir: &Path, libraries: &[String]) -> Result<(), Dynamic> {
    let (c, gcc, gcc_eh) = (required("c")?, required("gcc")?, required("gcc_eh")?);
    for name in libraries {
        let merged_into_libc = ["util", "rt", "pthread", "dl"].contains(&name.as_str());
        let content = match name.as_str() {
            "c" => group(&[&c, &gcc, &gcc_eh]),
            "gcc_s" => group(&[&gcc_eh, &gcc]),
            _ => match archive(name) {
                Some(path) => group(&[&path]),
                None if merged_into_libc => "!<arch>\n".to_string(),
                None => return Err(Dynamic::Failed(format!("no static lib{name}.a"))),
            },
        };
        let path = dir.join(format!("lib{name}.a"));
        fs::write(&path, content)
            .map_err(|e| Dynamic::Failed(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Links the trial program as the executable will be linked and runs it:
/// it must run and have no program interpreter.
fn trial_link(source: &Path, dir: &Path) -> Result<(), Dynamic> {
    let program = source.with_extension("");
    let mut link = rustc(source);
    link.arg("-o")
        .arg(&program)
        .arg(format!("-Clink-arg=-L{}", dir.display()))
        .arg("-Clink-arg=-static-pie");
    succeeded(link, "the trial static link")?;
    let ran = Command::new(&program)
        .output()
        .map_err(|e| Dynamic::Failed(format!("the trial program did not run: {e}")))?;
    if !ran.status.success() {
        return Err(Dynamic::Failed(format!(
            "the trial program failed ({})",
            ran.status
        )));
    }
    match has_interpreter(&program) {
        Some(false) => Ok(()),
        Some(true) => Err(Dynamic::Failed(
            "the trial program was still linked dynamically".to_string(),
        )),
        None => Err(Dynamic::Failed(
            "the trial program is not a readable ELF file".to_string(),
        )),
    }
}

/// The standard output of rustc run as `command`, which must succeed.
fn succeeded(mut command: Command, what: &str) -> Result<Vec<u8>, Dynamic> {
    let output = command
        .output()
        .map_err(|e| Dynamic::Failed(format!("cannot run rustc: {e}")))?;
    if !output.status.success() {
        let messages = String::from_utf8_lossy(&output.stderr);
        return Err(Dynamic::Failed(format!(
            "{what} failed: {}",
            gist(&messages)
        )));
    }
    Ok(output.stdout)
}

/// rustc's messages on one line (cargo shows only the first line of a
/// warning), without the linker's command line and rustc's boilerplate.
fn gist(messages: &str) -> String {
    let lines: Vec<&str> = messages
        .lines()
        .map(|line| line.trim().trim_start_matches("= note:").trim())
        .filter(|line| {
            !(line.is_empty()
                || *line == "|"
                || line.starts_with('"')
                || line.starts_with("some arguments are omitted")
                || line.starts_with("error: aborting"))
        })
        .collect();
    lines.join(" / ")
}

/// Whether an ELF64 little-endian file has a `PT_INTERP` program header.
fn has_interpreter(path: &Path) -> Option<bool> {
    let bytes = fs::read(path).ok()?;
    let u16_at = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
    if bytes.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let table = usize::try_from(u64_at(0x20)?).ok()?;
    let (entry, count) = (usize::from(u16_at(0x36)?), usize::from(u16_at(0x38)?));
    const PT_INTERP: u32 = 3;
    let mut interpreter = false;
    for index in 0..count {
        interpreter |= u32_at(table.checked_add(index.checked_mul(entry)?)?)? == PT_INTERP;
    }
    Some(interpreter)
}
