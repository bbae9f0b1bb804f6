#!/usr/bin/env python3
"""CPU time of the work after parsing (the target: decide+format and printing
<= 40 ms CPU on summary-20k), measured by difference on the real binary:

    python3 benches/after_parse_cpu.py [--rounds 40] [--states 20000] [--data DIR]

Builds the binary with the `bench-hooks` feature (its own target directory), which
exits right after parsing when NVBENCH_COMPARE_STOP_AFTER_PARSE is set, then runs,
alternating, the whole comparison and the parse alone on the summary pair (generated
by benches/gen_inputs.py when missing; the pair of benches/run.sh by default). Each
round's whole run minus its parse-only run is one sample of the work after parsing
(matching, deciding, cells, tables, writing); the median of those samples, with
their quartiles, is printed along with the user and system medians of both kinds.
Both kinds exit without freeing the parsed runs, as the tool always does.
"""

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build():
    target = os.path.join(ROOT, "target", "bench-hooks")
    subprocess.run(["cargo", "build", "--release", "--features", "bench-hooks",
                    "--target-dir", target], cwd=ROOT, check=True)
    return os.path.join(target, "release", "nvbench-compare")


def inputs(data, states):
    if not os.path.exists(os.path.join(data, "cmp.json")):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_inputs.py"), "--states",
                        str(states), "--samples", "0", "--out", data], check=True)
    return [os.path.join(data, "ref.json"), os.path.join(data, "cmp.json")]


def timed(command, env):
    """(user, system) CPU seconds of one run, stdout to /dev/null."""
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdout=null, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"{command} exited with status {status}")
    return usage.ru_utime, usage.ru_stime


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values) * 1e3:6.1f} ms [{q[0] * 1e3:.1f}-{q[2] * 1e3:.1f}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--states", type=int, default=20000)
    parser.add_argument("--data", default=os.path.join(ROOT, "target", "bench-data", "summary-20k"))
    args = parser.parse_args()
    binary = build()
    files = inputs(args.data, args.states)
    whole_env = {k: v for k, v in os.environ.items() if k != "NVBENCH_COMPARE_STOP_AFTER_PARSE"}
    parse_env = dict(whole_env, NVBENCH_COMPARE_STOP_AFTER_PARSE="1")
    command = [binary] + files
    # Page cache and binary warm before the first timed pair.
    timed(command, whole_env)
    whole, parse, after = [], [], []
    for _ in range(args.rounds):
        w = timed(command, whole_env)
        p = timed(command, parse_env)
        whole.append(w)
        parse.append(p)
        after.append(sum(w) - sum(p))
    for name, runs in (("whole run", whole), ("parse only", parse)):
        user = [u for u, _ in runs]
        system = [s for _, s in runs]
        print(f"{name:10s}  user {quartiles(user)}  system {quartiles(system)}  "
              f"total {quartiles([u + s for u, s in runs])}")
    print(f"after parsing (whole - parse only, {args.rounds} alternated pairs): {quartiles(after)}")
    if args.states == 20000:
        verdict = "met" if statistics.median(after) <= 0.040 else "NOT met"
        print(f"summary-20k target <= 40 ms: {verdict}")


if __name__ == "__main__":
    main()
