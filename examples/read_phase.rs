//! The read phase alone, for measurements (benches/README.md): reads each
//! file into memory, then parses it with the schema reader (`schema`, the
//! default), the full reader (`full`) or the schema reader with the
//! portable classifier (`portable`), and prints the time per parse. Two
//! floors: `tokens` runs the schema reader's stage 1 alone (its token
//! positions, counted), `touch` reads every byte once.
//!
//! `cargo run --release --example read_phase -- [schema|full|portable|tokens|touch] FILE...`

use std::time::Instant;

use nvbench_compare::loading::{inputs, schema};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.first().map(String::as_str) {
        Some("schema" | "full" | "portable" | "tokens" | "touch") => args.remove(0),
        _ => "schema".to_string(),
    };
    for path in &args {
        let bytes = std::fs::read(path).expect("readable file");
        let start = Instant::now();
        let (ok, bailed) = match mode.as_str() {
            "full" => (inputs::read_full(&bytes).is_ok(), false),
            "touch" => {
                // The floor: every byte read once, in 8-byte words.
                let sum = bytes.chunks_exact(8).fold(0u64, |s, w| {
                    s ^ u64::from_le_bytes(w.try_into().unwrap_or_default())
                });
                eprintln!("{sum:x}");
                (true, false)
            }
            "tokens" => {
                let count = schema::count_tokens(&bytes);
                eprintln!("{count} tokens");
                (true, false)
            }
            other => match schema::read_with(&bytes, other == "schema") {
                Ok(_) => (true, false),
                Err(_) => (inputs::read_full(&bytes).is_ok(), true),
            },
        };
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{mode} {path}: {:.1} ms, {:.2} GB/s, {}{}",
            seconds * 1e3,
            bytes.len() as f64 / seconds / 1e9,
            if ok { "read" } else { "refused" },
            if bailed {
                " (schema reader gave up)"
            } else {
                ""
            }
        );
    }
}
