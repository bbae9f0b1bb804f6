#!/usr/bin/env python3
r"""Writes tests/regressions/output_safety/{ref,cmp}.json: benchmark, axis,
axis value and device names with table separators, newlines, ANSI escape
sequences (SGR, clear screen, OSC title) and markdown, and records the
expected output for them (see tests/it/regressions.rs, `hostile_names_*`).

nvbench-compare prints control characters in names escaped (`\n`,
`\u{1b}`); the reference prints them raw. So the expected tables are the
reference's output for the same files with the names escaped beforehand,
and the bulk-debug Python block (where names are Python string literals)
is the reference's output for the raw names.

Run from the repository root:
  python3 tests/regressions/make_output_safety.py [path/to/nvbench_compare.py]
"""

import json
import os
import subprocess
import sys
import tempfile

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


def escaped(text):
    """Control characters as Rust's char::escape_default writes them."""
    special = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

    def one(c):
        if c in special:
            return special[c]
        if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F:
            return "\\u{%x}" % ord(c)
        return c

    return "".join(one(c) for c in text)


def document(side, name=lambda text: text):
    states = [
        {
            "name": f"Device=0 {name(AXIS)}={name(value)}",
            "device": 0,
            "axis_values": [{"name": name(AXIS), "type": "string", "value": name(value)}],
            "summaries": summaries(t),
            "is_skipped": False,
        }
        for value, t in zip(VALUES, TIMINGS[side])
    ]
    return {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": name(DEVICE)}],
        "benchmarks": [
            {
                "name": name(BENCH),
                "devices": [0],
                "axes": [{"name": name(AXIS), "type": "string", "flags": ""}],
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


def write_inputs(directory, name=lambda text: text):
    for side in ("ref", "cmp"):
        with open(os.path.join(directory, f"{side}.json"), "w") as f:
            json.dump(document(side, name), f, indent=2)
            f.write("\n")


# The conformance corpus was recorded with tabulate lacking `wcwidth` (an
# emoji counts as one column), as nvbench-compare reproduces it.
WITHOUT_WCWIDTH = (
    "import os, runpy, sys; sys.modules['wcwidth'] = None; sys.argv = sys.argv[1:]; "
    "sys.path.insert(0, os.path.dirname(sys.argv[0])); "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def reference_stdout(directory, args):
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_WCWIDTH, REFERENCE, *args, "ref.json", "cmp.json"],
        cwd=directory,
        env=env,
        capture_output=True,
    )
    print(" ".join(args) or "(default)", "exit", run.returncode, run.stderr.decode()[-300:])
    return run.stdout


MARKER = b"# NVB-BULK-BEGIN\n"


def main():
    os.makedirs(HERE, exist_ok=True)
    write_inputs(HERE)
    with tempfile.TemporaryDirectory() as pre_escaped:
        write_inputs(pre_escaped, escaped)
        for name, args in VARIANTS.items():
            expected = reference_stdout(pre_escaped, args)
            if MARKER in expected:
                raw = reference_stdout(HERE, args)
                expected = expected[: expected.index(MARKER)] + raw[raw.index(MARKER) :]
            with open(os.path.join(HERE, f"expected_{name}.stdout"), "wb") as f:
                f.write(expected)


if __name__ == "__main__":
    main()
