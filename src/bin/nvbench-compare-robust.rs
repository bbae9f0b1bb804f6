//! The `nvbench-compare-robust` executable: NVBench's
//! `nvbench_compare_robust.py` (see `nvbench_compare::main_as`).

fn main() -> std::process::ExitCode {
    nvbench_compare::main_as(nvbench_compare::personality::Personality::Robust)
}
