#!/usr/bin/env python3
"""Writes two fixtures of presets that are not monotone in the reference
(see tests/it/regressions.rs, `presets_are_not_monotone_*`):

rare_support_nonmonotone/: a state pair whose verdict is AMBG under the
default preset and SAME under the stricter `strict` preset.

1000 samples per side. The reference run has three common values A, B, C, a
value D seen twice that no compare sample is near, and 8 singletons that the
compare run also has. The default preset drops the singletons from support
coverage (0.8% of the mass <= 1%), leaving D as one uncovered value of four:
support 75% < 80%, AMBG. The strict preset may drop at most 0.5%, so it keeps
every value: support 11/12 = 91.7% >= 90% and samples 99.8% >= 99.5%: SAME.

permissive_sample_coverage/: SAME under `default`, AMBG under `permissive`,
whose bulk.sample_coverage (0.98) is stricter than the default's (0.97).
1000 samples per side: nine common values that both runs have, and a value
that only the reference run has, 28 times. Sample coverage 97.2%, support
coverage 90%.

Run from the repository root (records the reference's outputs too):
  python3 tests/regressions/make_rare_support.py [path/to/nvbench_compare.py]
"""

import json
import os
import struct
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.abspath(__file__))
REFERENCE = sys.argv[1] if len(sys.argv) > 1 else "/work/refimpl/python/scripts/nvbench_compare.py"

A, B, C, D = 1.000e-3, 1.010e-3, 1.020e-3, 1.500e-3
SINGLETONS = [1.030e-3 * (1.01**i) for i in range(8)]
CLOCK = 1.5e9


COMMON = [1.000e-3 * 1.01**i for i in range(9)]

FIXTURES = {
    "rare_support_nonmonotone": (
        {
            "ref": [A] * 330 + [B] * 330 + [C] * 330 + [D] * 2 + SINGLETONS,
            "cmp": [A] * 333 + [B] * 333 + [C] * 326 + SINGLETONS,
        },
        ("default", "strict"),
    ),
    "permissive_sample_coverage": (
        {
            "ref": [v for v in COMMON for _ in range(108)] + [D] * 28,
            "cmp": [v for v in COMMON for _ in range(111)] + [COMMON[0]],
        },
        ("default", "permissive"),
    ),
}


def summary(tag, entries):
    return {"tag": tag, "data": entries}


def float_entry(value):
    return [{"name": "value", "type": "float64", "value": repr(float(value))}]


def document(side, values):
    v = np.asarray(values, dtype="<f4").astype(np.float64)
    q1, median, q3 = np.quantile(v, [0.25, 0.5, 0.75])
    stdev = float(np.std(v, ddof=1))
    mean = float(np.mean(v))
    summaries = [
        summary("nv/cold/time/gpu/min", float_entry(v.min())),
        summary("nv/cold/time/gpu/max", float_entry(v.max())),
        summary("nv/cold/time/gpu/mean", float_entry(mean)),
        summary("nv/cold/time/gpu/stdev/absolute", float_entry(stdev)),
        summary("nv/cold/time/gpu/stdev/relative", float_entry(stdev / mean)),
        summary("nv/cold/time/gpu/q1", float_entry(q1)),
        summary("nv/cold/time/gpu/median", float_entry(median)),
        summary("nv/cold/time/gpu/q3", float_entry(q3)),
        summary("nv/cold/time/gpu/iqr/absolute", float_entry(q3 - q1)),
        summary("nv/cold/time/gpu/iqr/relative", float_entry((q3 - q1) / median)),
        summary("nv/cold/sm_clock_rate/mean", float_entry(CLOCK)),
        summary(
            "nv/json/bin:nv/cold/sample_times",
            [
                {"name": "filename", "type": "string", "value": f"{side}.json-bin/0.bin"},
                {"name": "size", "type": "int64", "value": str(len(values))},
            ],
        ),
        summary(
            "nv/json/freqs-bin:nv/cold/sample_freqs",
            [
                {"name": "filename", "type": "string", "value": f"{side}.json-freqs-bin/0.bin"},
                {"name": "size", "type": "int64", "value": str(len(values))},
            ],
        ),
    ]
    return {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
        "benchmarks": [
            {
                "name": "rare_support",
                "devices": [0],
                "axes": [],
                "states": [
                    {
                        "name": "Device=0",
                        "device": 0,
                        "axis_values": [],
                        "summaries": summaries,
                        "is_skipped": False,
                    }
                ],
            }
        ],
    }


def main():
    for fixture, (samples, presets) in FIXTURES.items():
        write_fixture(os.path.join(ROOT, fixture), samples, presets)


def write_fixture(HERE, samples, presets):
    for side in ("ref", "cmp"):
        values = samples[side]
        assert len(values) == 1000
        os.makedirs(os.path.join(HERE, f"{side}.json-bin"), exist_ok=True)
        os.makedirs(os.path.join(HERE, f"{side}.json-freqs-bin"), exist_ok=True)
        with open(os.path.join(HERE, f"{side}.json-bin", "0.bin"), "wb") as f:
            f.write(struct.pack(f"<{len(values)}f", *values))
        with open(os.path.join(HERE, f"{side}.json-freqs-bin", "0.bin"), "wb") as f:
            f.write(struct.pack(f"<{len(values)}f", *([CLOCK] * len(values))))
        with open(os.path.join(HERE, f"{side}.json"), "w") as f:
            json.dump(document(side, values), f, indent=2)
            f.write("\n")
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    for preset in presets:
        run = subprocess.run(
            [sys.executable, REFERENCE, "--display", "explain", "--no-color",
             "--preset", preset, "ref.json", "cmp.json"],
            cwd=HERE, env=env, capture_output=True, check=True,
        )
        with open(os.path.join(HERE, f"expected_{preset}.stdout"), "wb") as f:
            f.write(run.stdout)


if __name__ == "__main__":
    main()
