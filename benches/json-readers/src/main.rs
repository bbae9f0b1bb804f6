//! How fast can candidate crates get through a large pretty-printed NVBench
//! file? A measurement for benches/README.md, not part of nvbench-compare:
//! `cargo run --release -- FILE.json` (needs crates.io for its dependencies).
use std::time::Instant;

fn time<T>(label: &str, bytes: usize, f: impl Fn() -> T) -> T {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..3 {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    println!(
        "{label:40} {:.3} s  {:.2} GB/s",
        best,
        bytes as f64 / best / 1e9
    );
    out.unwrap()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: json-readers FILE.json");
    let data = std::fs::read(&path).unwrap();
    let n = data.len();
    time("serde_json IgnoredAny (validate all)", n, || {
        serde_json::from_slice::<serde::de::IgnoredAny>(&data).unwrap();
    });
    let count_states = |unchecked: bool| {
        let benches = if unchecked {
            unsafe { sonic_rs::get_unchecked(data.as_slice(), &["benchmarks"]).unwrap() }
        } else {
            sonic_rs::get(data.as_slice(), &["benchmarks"]).unwrap()
        };
        let mut states = 0usize;
        let mut name_bytes = 0usize;
        for bench in sonic_rs::to_array_iter(benches.as_raw_str()) {
            let bench = bench.unwrap();
            let st = sonic_rs::get(bench.as_raw_str(), &["states"]).unwrap();
            for state in sonic_rs::to_array_iter(st.as_raw_str()) {
                let state = state.unwrap();
                // visit every key of the state (as a reader extracting fields would)
                for kv in sonic_rs::to_object_iter(state.as_raw_str()) {
                    let (k, v) = kv.unwrap();
                    name_bytes += k.len() + v.as_raw_str().len() % 7;
                }
                states += 1;
            }
        }
        (states, name_bytes)
    };
    let a = time("sonic-rs get + lazy iterators (checked)", n, || {
        count_states(false)
    });
    let b = time("sonic-rs get_unchecked + lazy iterators", n, || {
        count_states(true)
    });
    println!("states {:?} {:?}", a, b);
    time("sonic-rs Value (full DOM)", n, || {
        sonic_rs::from_slice::<sonic_rs::Value>(&data).unwrap();
    });
    // simd-json parses in place: each round works on a fresh copy, timed apart.
    time("simd-json to_tape (structural index + tape)", n, || {
        let mut copy = data.clone();
        let tape = simd_json::to_tape(&mut copy).unwrap();
        tape.0.len()
    });
    time("  (the copy alone, part of the line above)", n, || {
        std::hint::black_box(data.clone()).len()
    });
}
