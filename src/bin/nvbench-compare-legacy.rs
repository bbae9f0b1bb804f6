//! The `nvbench-compare-legacy` executable: NVBench's classic
//! `nvbench_compare.py` (see `nvbench_compare::main_as`).

fn main() -> std::process::ExitCode {
    nvbench_compare::main_as(nvbench_compare::personality::Personality::Legacy)
}
