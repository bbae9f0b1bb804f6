#!/usr/bin/env python3
"""Writes tests/regressions/huge_sidecar_size/<name>/: states whose sidecar
`size` is beyond i64, beyond u64, beyond i128, or hugely negative, over a
three-value sidecar, and records the reference's `--bulk-debug-python
stdout` output and exit code for each (see tests/it/regressions.rs,
`huge_sidecar_sizes_match_the_reference`).

Run from the repository root:
  python3 tests/regressions/make_huge_sizes.py [path/to/nvbench_compare.py]
"""

import json
import os
import struct
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "huge_sidecar_size")
REFERENCE = sys.argv[1] if len(sys.argv) > 1 else "/work/refimpl/python/scripts/nvbench_compare.py"

SIZES = {
    "above_i64": "9223372036854775808",
    "above_u64": "100000000000000000000000000000",
    "above_i128": "1" + "0" * 50,
    "negative_above_i128": "-1" + "0" * 50,
}


def document(minimum, size):
    summaries = [
        {
            "tag": f"nv/cold/time/gpu/{name}",
            "data": [{"name": "value", "type": "float64", "value": repr(value)}],
        }
        for name, value in [
            ("min", minimum),
            ("q1", minimum),
            ("median", minimum * 1.01),
            ("q3", minimum * 1.02),
            ("max", minimum * 1.03),
        ]
    ]
    summaries.append(
        {
            "tag": "nv/cold/time/gpu/iqr/relative",
            "data": [{"name": "value", "type": "float64", "value": "0.01"}],
        }
    )
    for tag in ("nv/json/bin:nv/cold/sample_times", "nv/json/freqs-bin:nv/cold/sample_freqs"):
        summaries.append(
            {
                "tag": tag,
                "data": [
                    {"name": "filename", "type": "string", "value": "values.bin"},
                    {"name": "size", "type": "int64", "value": size},
                ],
            }
        )
    return {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
        "benchmarks": [
            {
                "name": "bench",
                "devices": [0],
                "axes": [],
                "states": [
                    {"name": "Device=0", "device": 0, "axis_values": [], "summaries": summaries}
                ],
            }
        ],
    }


def main():
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    for name, size in SIZES.items():
        here = os.path.join(ROOT, name)
        os.makedirs(here, exist_ok=True)
        with open(os.path.join(here, "values.bin"), "wb") as f:
            f.write(struct.pack("<3f", 1.0e-3, 1.01e-3, 1.02e-3))
        for side, minimum in (("ref", 1.0e-3), ("cmp", 0.9e-3)):
            with open(os.path.join(here, f"{side}.json"), "w") as f:
                json.dump(document(minimum, size), f, indent=2)
                f.write("\n")
        run = subprocess.run(
            [sys.executable, REFERENCE, "--no-color", "--bulk-debug-python", "stdout",
             "ref.json", "cmp.json"],
            cwd=here, env=env, capture_output=True,
        )
        with open(os.path.join(here, "expected_stdout"), "wb") as f:
            f.write(run.stdout)
        with open(os.path.join(here, "expected_exit"), "w") as f:
            f.write(f"{run.returncode}\n")
        print(name, "exit", run.returncode)


if __name__ == "__main__":
    main()
