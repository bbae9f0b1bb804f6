#!/usr/bin/env python3
"""Writes tests/regressions/output_safety/{ref,cmp}.json: benchmark, axis,
axis value and device names with table separators, newlines, ANSI escape
sequences (SGR, clear screen, OSC title) and markdown, and records the
reference's output for them (see tests/regressions.rs, `hostile_names_*`).

Run from the repository root:
  python3 tests/regressions/make_output_safety.py [path/to/nvbench_compare.py]
"""

import json
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "output_safety")
REFERENCE = sys.argv[1] if len(sys.argv) > 1 else "/work/refimpl/python/scripts/nvbench_compare.py"

BENCH = "bench|pipe\n# Heading\x1b[31mRED\x1b[0m **bold** <b>x</b> [link](http://x)"
AXIS = "T|x\ny\x1b[1m"
VALUES = ["a|b\x1b]0;title\x07`code`", "line1\nline2 | ~~strike~~", "\x1b[2Jclear"]
DEVICE = "GPU | \x1b[2J evil\n## injected"

# (min, q1, median, q3, max, clock) per state, reference then compare.
TIMINGS = {
    "ref": [(1.00e-3, 1.00e-3, 1.01e-3, 1.02e-3, 1.05e-3, 1.5e9)] * 3,
    "cmp": [
        (0.90e-3, 0.90e-3, 0.91e-3, 0.92e-3, 0.95e-3, 1.5e9),
        (1.00e-3, 1.00e-3, 1.01e-3, 1.02e-3, 1.05e-3, 1.5e9),
        (1.10e-3, 1.10e-3, 1.11e-3, 1.12e-3, 1.15e-3, 1.5e9),
    ],
}


def summaries(t):
    names = ["min", "q1", "median", "q3", "max"]
    out = [
        {
            "tag": f"nv/cold/time/gpu/{name}",
            "data": [{"name": "value", "type": "float64", "value": repr(value)}],
        }
        for name, value in zip(names, t[:5])
    ]
    out.append(
        {
            "tag": "nv/cold/time/gpu/iqr/relative",
            "data": [{"name": "value", "type": "float64", "value": repr((t[3] - t[1]) / t[2])}],
        }
    )
    out.append(
        {
            "tag": "nv/cold/sm_clock_rate/mean",
            "data": [{"name": "value", "type": "float64", "value": repr(t[5])}],
        }
    )
    return out


def document(side):
    states = [
        {
            "name": f"Device=0 {AXIS}={value}",
            "device": 0,
            "axis_values": [{"name": AXIS, "type": "string", "value": value}],
            "summaries": summaries(t),
            "is_skipped": False,
        }
        for value, t in zip(VALUES, TIMINGS[side])
    ]
    return {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": DEVICE}],
        "benchmarks": [
            {
                "name": BENCH,
                "devices": [0],
                "axes": [{"name": AXIS, "type": "string", "flags": ""}],
                "states": states,
            }
        ],
    }


VARIANTS = {
    "intervals": [],
    "intervals_nocolor": ["--no-color"],
    "legacy": ["--display", "legacy"],
    "explain": ["--display", "explain", "--no-color"],
    "bulk_debug": ["--bulk-debug-python", "stdout", "--no-color"],
}


def main():
    os.makedirs(HERE, exist_ok=True)
    for side in ("ref", "cmp"):
        with open(os.path.join(HERE, f"{side}.json"), "w") as f:
            json.dump(document(side), f, indent=2)
            f.write("\n")
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    for name, args in VARIANTS.items():
        run = subprocess.run(
            [sys.executable, REFERENCE, *args, "ref.json", "cmp.json"],
            cwd=HERE,
            env=env,
            capture_output=True,
        )
        with open(os.path.join(HERE, f"expected_{name}.stdout"), "wb") as f:
            f.write(run.stdout)
        print(name, "exit", run.returncode, run.stderr.decode()[-300:])


if __name__ == "__main__":
    main()
