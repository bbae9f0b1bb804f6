#!/usr/bin/env python3
"""Decision quality of nvbench-compare when timings drift between processes.

Simulates NVBench result files (`--jsonbin` sidecars included) of the same
benchmarks measured in separate processes. Every process gets its own
machine state: an SM clock factor and a memory-system factor, both drawn
from a normal distribution of standard deviation DRIFT around 1. A
compute-bound kernel's time follows the SM clock (its cycle count stays);
a memory-bound kernel's time follows the memory factor, which the SM clock
does not see. Within a process, samples scatter by 0.5 % (lognormal) with
per-sample clock jitter, and the summaries are computed from the samples
as NVBench computes them (quartiles by rank round(p * (n - 1))).

Each file holds unchanged states and states changed by +/-5 % and +/-10 %
(half memory-bound, half compute-bound). For every drift and number of
runs per side, several independent experiments are drawn; each is judged

  * one run per side (the reference's situation): run i vs. run i, i = 1..R;
  * repetition mode: `R1 .. Rk --vs C1 .. Ck`.

and the table reports, over all states of all experiments:

  * false FAST/SLOW: calls on unchanged states;
  * detected 5 % / 10 %: calls in the direction of the change;
  * wrong direction: calls against the change (expected 0).

Standard library only; deterministic for a given --seed.

    python3 benches/decision_quality.py [--binary target/release/nvbench-compare]
        [--experiments 12] [--states 40] [--samples 64] [--seed 1]
"""

import argparse
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

DRIFTS = [0.005, 0.01, 0.02, 0.05]
RUNS = [1, 3, 5]
CHANGES = [0.0, 0.05, 0.10]
WITHIN = 0.005  # lognormal sigma of samples within one process
CLOCK = 1.5e9


def quantile(sorted_values, p):
    return sorted_values[int(round(p * (len(sorted_values) - 1)))]


def summary(tag, value, kind="float64"):
    return {"tag": tag, "data": [{"name": "value", "type": kind, "value": repr(value)}]}


def sidecar(tag, filename, count):
    return {
        "tag": tag,
        "data": [
            {"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": str(count)},
        ],
    }


def write_floats(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))


class Kernel:
    """One state: its base time, kind and the change the compare side has."""

    def __init__(self, index, rng):
        self.index = index
        self.base = 10 ** rng.uniform(-5, -2.5)  # 10 us .. 3 ms
        self.memory_bound = index % 2 == 0
        change = CHANGES[(index // 2) % len(CHANGES)]
        self.change = change * (1 if (index // 6) % 2 == 0 else -1)


def state_json(kernel, times, clocks, name, sidecars):
    times_sorted = sorted(times)
    n = len(times)
    mean = sum(times) / n
    stdev = math.sqrt(sum((t - mean) ** 2 for t in times) / (n - 1))
    q1, median, q3 = (quantile(times_sorted, p) for p in (0.25, 0.5, 0.75))
    summaries = [
        summary("nv/cold/sample_size", n, "int64"),
        summary("nv/cold/time/gpu/min", times_sorted[0]),
        summary("nv/cold/time/gpu/max", times_sorted[-1]),
        summary("nv/cold/time/gpu/mean", mean),
        summary("nv/cold/time/gpu/stdev/absolute", stdev),
        summary("nv/cold/time/gpu/stdev/relative", stdev / mean),
        summary("nv/cold/time/gpu/q1", q1),
        summary("nv/cold/time/gpu/median", median),
        summary("nv/cold/time/gpu/q3", q3),
        summary("nv/cold/time/gpu/iqr/absolute", q3 - q1),
        summary("nv/cold/time/gpu/iqr/relative", (q3 - q1) / median),
        summary("nv/cold/sm_clock_rate/mean", sum(clocks) / n),
        sidecar("nv/json/bin:nv/cold/sample_times", sidecars[0], n),
        sidecar("nv/json/freqs-bin:nv/cold/sample_freqs", sidecars[1], n),
    ]
    return {
        "name": "Device=0 Kernel=%d" % kernel.index,
        "device": 0,
        "axis_values": [{"name": "Kernel", "type": "int64", "value": str(kernel.index)}],
        "summaries": summaries,
        "is_skipped": False,
    }


def write_run(path, kernels, compare, drift, samples, rng):
    """One process: its machine state, then every kernel's samples."""
    clock_factor = rng.gauss(1.0, drift)
    memory_factor = rng.gauss(1.0, drift)
    directory = os.path.dirname(path)
    base = os.path.basename(path)
    for suffix in ("-bin", "-freqs-bin"):
        os.makedirs(os.path.join(directory, base + suffix), exist_ok=True)
    states = []
    for kernel in kernels:
        true_time = kernel.base * ((1 + kernel.change) if compare else 1.0)
        times, clocks = [], []
        for _ in range(samples):
            clock = CLOCK * clock_factor * rng.gauss(1.0, 0.001)
            if kernel.memory_bound:
                time = true_time * memory_factor
            else:
                time = true_time * (CLOCK / clock)
            times.append(time * rng.lognormvariate(0.0, WITHIN))
            clocks.append(clock)
        names = (
            "%s-bin/%d.bin" % (base, kernel.index),
            "%s-freqs-bin/%d.bin" % (base, kernel.index),
        )
        write_floats(os.path.join(directory, names[0]), times)
        write_floats(os.path.join(directory, names[1]), clocks)
        states.append(state_json(kernel, times, clocks, base, names))
    document = {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "Simulated GPU"}],
        "benchmarks": [
            {
                "name": "drift",
                "devices": [0],
                "axes": [{"name": "Kernel", "type": "int64", "flags": ""}],
                "states": states,
            }
        ],
    }
    with open(path, "w") as f:
        json.dump(document, f)


def statuses(binary, args, cwd):
    out = subprocess.run(
        [binary, "--json", "-"] + args, cwd=cwd, capture_output=True, check=False
    )
    if out.returncode != 0:
        sys.exit("nvbench-compare failed: %s" % out.stderr.decode())
    return [s["status"] for s in json.loads(out.stdout)["states"]]


class Tally:
    def __init__(self):
        self.counts = {}

    def add(self, kernels, found):
        for kernel, status in zip(kernels, found):
            size = round(abs(kernel.change), 2)
            key = (size,)
            total, calls, wrong = self.counts.get(key, (0, 0, 0))
            direction = "SLOW" if kernel.change > 0 else "FAST"
            called = status in ("FAST", "SLOW")
            if size == 0:
                calls += called
            else:
                calls += status == direction
                wrong += called and status != direction
            self.counts[key] = (total + 1, calls, wrong)

    def rate(self, size):
        total, calls, _ = self.counts.get((size,), (0, 0, 0))
        return 100.0 * calls / total if total else float("nan")

    def wrong(self):
        return sum(w for _, _, w in self.counts.values())

    def states(self):
        return sum(t for t, _, _ in self.counts.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="target/release/nvbench-compare")
    parser.add_argument("--experiments", type=int, default=12)
    parser.add_argument("--states", type=int, default=48, help="states per file (multiple of 12)")
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="write the files here and keep them")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="nvbc-quality-")
    os.makedirs(work, exist_ok=True)
    max_runs = max(RUNS)
    rows = []
    try:
        for drift in DRIFTS:
            pair = {k: Tally() for k in RUNS}
            repeated = {k: Tally() for k in RUNS}
            for experiment in range(args.experiments):
                directory = os.path.join(work, "d%g-e%d" % (drift * 100, experiment))
                os.makedirs(directory, exist_ok=True)
                kernels = [Kernel(i, rng) for i in range(args.states)]
                # Alternating A B A B processes, as benchmarking practice says.
                for run in range(max_runs):
                    write_run(os.path.join(directory, "r%d.json" % run), kernels, False, drift, args.samples, rng)
                    write_run(os.path.join(directory, "c%d.json" % run), kernels, True, drift, args.samples, rng)
                pair_found = [
                    statuses(binary, ["r%d.json" % i, "c%d.json" % i], directory)
                    for i in range(max_runs)
                ]
                for k in RUNS:
                    for i in range(k):
                        pair[k].add(kernels, pair_found[i])
                    found = statuses(
                        binary,
                        ["r%d.json" % i for i in range(k)]
                        + ["--vs"]
                        + ["c%d.json" % i for i in range(k)],
                        directory,
                    )
                    repeated[k].add(kernels, found)
                if not args.keep:
                    shutil.rmtree(directory)
            for k in RUNS:
                rows.append((drift, k, pair[k], repeated[k]))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("| drift | runs/side | false FAST/SLOW: 1 run, rep. | 5 % detected: 1 run, rep. "
          "| 10 % detected: 1 run, rep. | wrong direction: 1 run, rep. | states (rep.) |")
    print("|---|---|---|---|---|---|---|")
    for drift, k, pair, repeated in rows:
        print(
            "| %g %% | %d | %.1f %%, %.1f %% | %.1f %%, %.1f %% | %.1f %%, %.1f %% | %d, %d | %d |"
            % (
                drift * 100, k,
                pair.rate(0.0), repeated.rate(0.0),
                pair.rate(0.05), repeated.rate(0.05),
                pair.rate(0.1), repeated.rate(0.1),
                pair.wrong(), repeated.wrong(),
                repeated.states(),
            )
        )


if __name__ == "__main__":
    main()
