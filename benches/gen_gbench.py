#!/usr/bin/env python3
"""Google Benchmark JSON result pairs, written in the library's JSON reporter
layout (v1.9: context with json_schema_version 1, family_index,
per_family_instance_index, run_name, run_type, repetition_index, the
aggregates mean/median/stddev/cv after each instance's repetitions, doubles
as %.16e), for benchmarks and tests of nvbench-compare's Google Benchmark
input. Standard library only, deterministic for a seed.

    gen_gbench.py pair --benchmarks 1000 --reps 10 --seed 1 OUT_DIR
        OUT_DIR/ref.json and OUT_DIR/cmp.json: BM_family<k>/<arg> instances,
        lognormal noise of 1-3 %, the candidate 10 % faster on every 7th
        instance and 10 % slower on every 11th, else unchanged.
"""

import argparse
import json
import math
import os
import random

CONTEXT = {
    "date": "2026-01-01T00:00:00+00:00",
    "host_name": "bench-host",
    "executable": "./bench",
    "num_cpus": 8,
    "mhz_per_cpu": 3000,
    "cpu_scaling_enabled": False,
    "aslr_enabled": False,
    "caches": [
        {"type": "Data", "level": 1, "size": 32768, "num_sharing": 2},
        {"type": "Unified", "level": 2, "size": 1048576, "num_sharing": 2},
        {"type": "Unified", "level": 3, "size": 16777216, "num_sharing": 8},
    ],
    "load_avg": [0.5, 0.4, 0.3],
    "library_version": "v1.9.4",
    "library_build_type": "release",
    "json_schema_version": 1,
}


def d(x):
    """A double as the reporter prints it."""
    return "%.16e" % x


def entry(fields):
    """One entry, keys in the writer's order, doubles in its format."""
    parts = []
    for key, value in fields:
        if isinstance(value, float):
            text = d(value)
        else:
            text = json.dumps(value)
        parts.append('      "%s": %s' % (key, text))
    return "    {\n" + ",\n".join(parts) + "\n    }"


def instance_entries(family, instance, run_name, reps, times, cpu_ratio):
    out = []
    iterations = max(1, int(1e9 / (times[0] * 10)))
    for index, t in enumerate(times):
        out.append(entry([
            ("name", run_name), ("family_index", family),
            ("per_family_instance_index", instance), ("run_name", run_name),
            ("run_type", "iteration"), ("repetitions", reps), ("repetition_index", index),
            ("threads", 1), ("iterations", iterations), ("real_time", t),
            ("cpu_time", t * cpu_ratio), ("time_unit", "ns"),
            ("bytes_per_second", 1e9 / t * 64),
        ]))
    if reps > 1:
        n = len(times)
        mean = sum(times) / n
        ordered = sorted(times)
        median = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
        stddev = math.sqrt(sum((t - mean) ** 2 for t in times) / (n - 1))
        for name, value, unit in [("mean", mean, "time"), ("median", median, "time"),
                                  ("stddev", stddev, "time"), ("cv", stddev / mean, "percentage")]:
            scale = 1.0 if unit == "percentage" else cpu_ratio
            out.append(entry([
                ("name", "%s_%s" % (run_name, name)), ("family_index", family),
                ("per_family_instance_index", instance), ("run_name", run_name),
                ("run_type", "aggregate"), ("repetitions", reps), ("threads", 1),
                ("aggregate_name", name), ("aggregate_unit", unit), ("iterations", n),
                ("real_time", value), ("cpu_time", value * scale), ("time_unit", "ns"),
            ]))
    return out


def write_file(path, entries):
    with open(path, "w") as f:
        f.write('{\n  "context": ')
        f.write(json.dumps(CONTEXT, indent=2).replace("\n", "\n  "))
        f.write(',\n  "benchmarks": [\n')
        f.write(",\n".join(entries))
        f.write("\n  ]\n}\n")


def pair(args):
    rng = random.Random(args.seed)
    per_family = 8
    ref, cmp = [], []
    for k in range(args.benchmarks):
        family, instance = k // per_family, k % per_family
        run_name = "BM_family%d/%d" % (family, 8 << instance)
        base = rng.uniform(20.0, 2e6)
        noise = rng.uniform(0.01, 0.03)
        change = 0.9 if k % 7 == 3 else 1.1 if k % 11 == 5 else 1.0
        cpu_ratio = rng.uniform(0.97, 1.0)
        for side, factor in ((ref, 1.0), (cmp, change)):
            times = [base * factor * math.exp(rng.gauss(0.0, noise)) for _ in range(args.reps)]
            side.extend(instance_entries(family, instance, run_name, args.reps, times, cpu_ratio))
    os.makedirs(args.out_dir, exist_ok=True)
    write_file(os.path.join(args.out_dir, "ref.json"), ref)
    write_file(os.path.join(args.out_dir, "cmp.json"), cmp)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pair", help="a reference and a candidate file")
    p.add_argument("--benchmarks", type=int, default=1000)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("out_dir")
    args = parser.parse_args()
    pair(args)


if __name__ == "__main__":
    main()
