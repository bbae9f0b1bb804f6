#!/usr/bin/env python3
"""Writes tests/regressions/loose_types/<case>/: documents whose fields have
JSON types the reference copes with (it reads the file as plain Python
objects and only fails, if at all, where a value is used), compared with
themselves; records the reference's stdout and exit code (see
tests/it/regressions.rs, `loosely_typed_fields_match_the_reference`).

Run from the repository root:
  python3 tests/regressions/make_loose_types.py [path/to/nvbench_compare.py]
"""

import copy
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "loose_types")
REFERENCE = sys.argv[1] if len(sys.argv) > 1 else "/work/refimpl/python/scripts/nvbench_compare.py"


def summaries(minimum):
    out = [
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
    out.append(
        {
            "tag": "nv/cold/time/gpu/iqr/relative",
            "data": [{"name": "value", "type": "float64", "value": "0.01"}],
        }
    )
    return out


BASE = {
    "meta": {"version": {"json": {"string": "1.0.0"}}},
    "devices": [{"id": 0, "name": "GPU"}],
    "benchmarks": [
        {
            "name": "bench",
            "devices": [0],
            "axes": [{"name": "S", "type": "string", "flags": ""}],
            "states": [
                {
                    "name": f"Device=0 S={value}",
                    "device": 0,
                    "axis_values": [{"name": "S", "type": "string", "value": value}],
                    "summaries": summaries(1.0e-3),
                }
                for value in ("a", "b")
            ],
        }
    ],
}


def variant(edit):
    document = copy.deepcopy(BASE)
    replaced = edit(document)
    return document if replaced is None else replaced


def set_path(*path_and_value):
    *path, value = path_and_value

    def edit(document):
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def two_errors(document):
    states = document["benchmarks"][0]["states"]
    states[0]["summaries"][0]["data"][0]["type"] = "float90"
    states[1]["summaries"] = -1.0


def duplicate_keys(document):
    # json.dump cannot write duplicate keys: mark them, patched in main().
    benchmark = document["benchmarks"][0]
    benchmark["name"] = "first@@DUPLICATE_NAME@@"
    entry = benchmark["states"][0]["summaries"][2]["data"][0]
    entry["value"] = "9.0@@DUPLICATE_VALUE@@"


DUPLICATES = {
    '"first@@DUPLICATE_NAME@@"': '"first", "name": "bench"',
    '"9.0@@DUPLICATE_VALUE@@"': '"9.0", "value": "0.00101"',
}

def without_axis_values(document):
    del document["benchmarks"][0]["states"][1]["axis_values"]


def positional_root(document):
    return [document["meta"], document["devices"], document["benchmarks"]]


def positional_state(document):
    state = document["benchmarks"][0]["states"][1]
    document["benchmarks"][0]["states"][1] = [
        state["name"], state["device"], state["axis_values"], state["summaries"]
    ]


def second_benchmark_without_states(document):
    second = copy.deepcopy(document["benchmarks"][0])
    second["name"] = "second"
    del second["states"]
    document["benchmarks"].append(second)


CASES = {
    "benchmark_name_int": set_path("benchmarks", 0, "name", 5),
    "state_device_float": set_path("benchmarks", 0, "states", 0, "device", 0.0),
    "benchmark_devices_float": set_path("benchmarks", 0, "devices", [0.0]),
    "summaries_number_after_schema_error": two_errors,
    "duplicate_keys": duplicate_keys,
    "state_without_axis_values": without_axis_values,
    "empty_array_root": lambda document: [],
    "positional_array_root": positional_root,
    "positional_array_state": positional_state,
    "second_benchmark_without_states": second_benchmark_without_states,
    # Python's json reads a lone surrogate escape (and prints it through
    # surrogateescape); a strict parser refuses it.
    "benchmark_name_lone_surrogate": set_path("benchmarks", 0, "name", "bench\udcff"),
    # A number beyond the float range is Python's inf.
    "summary_value_overflow": set_path(
        "benchmarks", 0, "states", 0, "summaries", 0, "data", 0, "value", "@@OVERFLOW@@"
    ),
    # `state["device"] == id` in Python: "0", None, 1.5 and 2**63 equal no
    # id (the state is never compared), True equals 1.
    "state_device_string": set_path("benchmarks", 0, "states", 0, "device", "0"),
    "state_device_true": set_path("benchmarks", 0, "states", 0, "device", True),
    "state_device_null": set_path("benchmarks", 0, "states", 0, "device", None),
    "state_device_fraction": set_path("benchmarks", 0, "states", 0, "device", 1.5),
    "state_device_big": set_path("benchmarks", 0, "states", 0, "device", 2**63),
}

# Literals json.dumps does not write.
RAW = {
    '"@@OVERFLOW@@"': "1e309",
}


def deep_device_nesting(env):
    """deep_device_nesting/: device sections that differ by a field nested
    200 deep (Python's json accepts ~990 levels, serde_json 128)."""
    here = os.path.join(os.path.dirname(ROOT), "deep_device_nesting")
    os.makedirs(here, exist_ok=True)
    with open(os.path.join(here, "cmp.json"), "w") as f:
        json.dump(BASE, f, indent=1)
        f.write("\n")
    deep = copy.deepcopy(BASE)
    deep["devices"][0]["x"] = "@@DEEP@@"
    text = json.dumps(deep, indent=1).replace('"@@DEEP@@"', "[" * 200 + "]" * 200)
    with open(os.path.join(here, "ref.json"), "w") as f:
        f.write(text + "\n")
    run = subprocess.run(
        [sys.executable, REFERENCE, "--no-color", "ref.json", "cmp.json"],
        cwd=here, env=env, capture_output=True,
    )
    with open(os.path.join(here, "expected_stdout"), "wb") as f:
        f.write(run.stdout)
    with open(os.path.join(here, "expected_exit"), "w") as f:
        f.write(f"{run.returncode}\n")
    print("deep_device_nesting exit", run.returncode)


def device_float_on_one_side(env):
    """loose_types/state_device_float_one_side/: `"device": 0.0` in the
    reference only. 0.0 == 0 selects the state, but its match key keeps
    `Device=0 ...` (the prefix stripped is `Device=0.0`), so the state sets
    differ and the reference fails on mismatched occurrences."""
    here = os.path.join(ROOT, "state_device_float_one_side")
    os.makedirs(here, exist_ok=True)
    with open(os.path.join(here, "cmp.json"), "w") as f:
        json.dump(BASE, f, indent=1)
        f.write("\n")
    with open(os.path.join(here, "ref.json"), "w") as f:
        edit = set_path("benchmarks", 0, "states", 0, "device", 0.0)
        json.dump(variant(edit), f, indent=1)
        f.write("\n")
    run = subprocess.run(
        [sys.executable, REFERENCE, "--no-color", "ref.json", "cmp.json"],
        cwd=here, env=env, capture_output=True,
    )
    with open(os.path.join(here, "expected_stdout"), "wb") as f:
        f.write(run.stdout)
    with open(os.path.join(here, "expected_exit"), "w") as f:
        f.write(f"{run.returncode}\n")
    print("state_device_float_one_side exit", run.returncode)


def main():
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    deep_device_nesting(env)
    device_float_on_one_side(env)
    for name, edit in CASES.items():
        here = os.path.join(ROOT, name)
        os.makedirs(here, exist_ok=True)
        text = json.dumps(variant(edit), indent=1) + "\n"
        for marker, replacement in {**DUPLICATES, **RAW}.items():
            text = text.replace(marker, replacement)
        with open(os.path.join(here, "ref.json"), "w") as f:
            f.write(text)
        run = subprocess.run(
            [sys.executable, REFERENCE, "--no-color", "ref.json", "ref.json"],
            cwd=here, env=env, capture_output=True,
        )
        with open(os.path.join(here, "expected_stdout"), "wb") as f:
            f.write(run.stdout)
        with open(os.path.join(here, "expected_exit"), "w") as f:
            f.write(f"{run.returncode}\n")
        print(name, "exit", run.returncode, run.stderr.decode()[-120:].strip())


if __name__ == "__main__":
    main()
