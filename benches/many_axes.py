#!/usr/bin/env python3
"""Time nvbench-compare on one state with many axes (10k to 100k), to show
that time grows linearly with the number of axes of a state.

    python3 benches/many_axes.py [--bin target/release/nvbench-compare]
        [--axes 10000,20000,40000,100000] [--rounds 3] [--out DIR]

For each count it writes a reference/compare pair (one benchmark, one state,
every axis int64 with value 1) and times the plain comparison, an axis
filter that matches (-a A5=1), one that matches nothing (-a A5=7, which
explains what the axes offer) and --vs; it prints the median wall time of
each and the ratio to the smallest count. Linear growth keeps the ratio
near the ratio of the axis counts.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def write_pair(directory, count):
    """ref.json and cmp.json with one state of `count` axes, 10 % slower."""
    axes = [
        {"name": f"A{i}", "type": "int64", "flags": "",
         "values": [{"input_string": "1", "description": "", "value": 1}]}
        for i in range(count)
    ]
    paths = []
    for name, seconds in (("ref.json", 1e-3), ("cmp.json", 1.1e-3)):
        state = {
            "name": "Device=0 " + " ".join(f"A{i}=1" for i in range(count)),
            "device": 0,
            "min_samples": 10,
            "axis_values": [
                {"name": f"A{i}", "type": "int64", "value": "1"} for i in range(count)
            ],
            "summaries": [
                {"tag": "nv/cold/time/gpu/mean", "name": "mean", "hint": "duration",
                 "data": [{"name": "value", "type": "float64", "value": str(seconds)}]},
                {"tag": "nv/cold/time/gpu/stdev/relative", "name": "noise",
                 "hint": "percentage",
                 "data": [{"name": "value", "type": "float64", "value": "0.01"}]},
            ],
            "is_skipped": False,
        }
        root = {
            "meta": {"version": {"json": {"string": "1.0.0"}}},
            "devices": [{"id": 0, "name": "GPU"}],
            "benchmarks": [{"name": "b", "index": 0, "devices": [0], "axes": axes,
                            "states": [state]}],
        }
        path = os.path.join(directory, f"{count}-{name}")
        with open(path, "w") as out:
            json.dump(root, out)
        paths.append(path)
    return paths


def median_seconds(command, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 3):
            sys.exit(f"{' '.join(command)} exited with {done.returncode}")
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/nvbench-compare")
    parser.add_argument("--axes", default="10000,20000,40000,100000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", help="where the inputs go (default: a temporary directory)")
    args = parser.parse_args()
    counts = [int(c) for c in args.axes.split(",")]
    cases = {
        "pair": lambda r, c: [r, c],
        "-a A5=1": lambda r, c: ["-a", "A5=1", r, c],
        "-a A5=7": lambda r, c: ["-a", "A5=7", r, c],
        "--vs": lambda r, c: [r, "--vs", c],
    }
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.out or scratch
        os.makedirs(directory, exist_ok=True)
        print(f"{'axes':>8} " + " ".join(f"{name:>16}" for name in cases))
        first = {}
        for count in counts:
            reference, compare = write_pair(directory, count)
            cells = []
            for name, case in cases.items():
                seconds = median_seconds([args.bin, *case(reference, compare)], args.rounds)
                first.setdefault(name, (count, seconds))
                base_count, base_seconds = first[name]
                ratio = seconds / base_seconds if base_seconds > 0 else float("nan")
                cells.append(f"{seconds:7.3f} s ({ratio:4.1f}x)")
            print(f"{count:>8} " + " ".join(f"{cell:>16}" for cell in cells))
        print(f"(ratios to {counts[0]} axes; linear growth gives about the ratio of the counts)")


if __name__ == "__main__":
    main()
