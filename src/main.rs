//! The `nvbench-compare` executable (see `nvbench_compare::main`).

fn main() -> std::process::ExitCode {
    nvbench_compare::main()
}
