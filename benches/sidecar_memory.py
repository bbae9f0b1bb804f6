#!/usr/bin/env python3
"""Peak RSS of one bulk comparison against the bytes of its sidecars.

Writes a one-state NVBench pair whose sample-time and frequency sidecars hold
N float32 values each (per side), runs the binary on it and reports the
child's peak RSS (os.wait4) as a multiple of all four sidecars' bytes.

    python3 benches/sidecar_memory.py target/release/nvbench-compare \
        --samples 16777216 --distinct

The two sides share one distribution, so the decision goes through the whole
bulk path: the cycle interval, then the time and cycle coverages.  Without
`--distinct` the times repeat (as timer resolution makes them do); with it
nearly every time and cycle value is distinct, the worst case.
"""
import argparse
import array
import json
import os
import random
import subprocess
import sys
import tempfile


def state(name, bins):
    def value(tag, v, kind="float64"):
        return {"tag": tag, "name": tag, "hint": "duration",
                "data": [{"name": "value", "type": kind, "value": repr(v)}]}

    summaries = [
        value("nv/cold/sample_size", 1000, "int64"),
        value("nv/cold/time/gpu/mean", 1.0e-4),
        value("nv/cold/time/gpu/stdev/relative", 0.01),
        value("nv/cold/time/gpu/min", 0.98e-4),
        value("nv/cold/time/gpu/median", 1.0e-4),
        value("nv/cold/time/gpu/q3", 1.01e-4),
        value("nv/cold/sm_clock_rate/mean", 1.98e9),
    ]
    for tag, (filename, size) in bins.items():
        summaries.append({"tag": tag, "name": tag, "data": [
            {"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": str(size)}]})
    return {"name": name, "device": 0, "type_config_index": 0,
            "axis_values": [], "summaries": summaries, "is_skipped": False}


def document(bins):
    return {
        "meta": {"version": {"json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "Simulated GPU"}],
        "benchmarks": [{"name": "bench", "index": 0, "devices": [0], "axes": [],
                        "states": [state("Device=0", bins)]}],
    }


def write_side(directory, side, samples, distinct, seed):
    rng = random.Random(seed)
    block = 1 << 16
    # One block of values, repeated: generating N random floats in Python
    # would dominate the run; the sort and coverage see the same cost.
    if distinct:
        times = array.array("f", (1.0e-4 * (1.0 + i / (4 * block)) for i in range(block)))
        rng.shuffle(times)
    else:
        times = array.array("f", (1.0e-4 * (1.0 + rng.randrange(64) / 1024) for _ in range(block)))
    freqs = array.array("f", (1.98e9 * (1.0 + rng.randrange(32) / 4096) for _ in range(block)))
    bins = {}
    for tag, values, suffix in (("nv/json/bin:nv/cold/sample_times", times, "bin"),
                                ("nv/json/freqs-bin:nv/cold/sample_freqs", freqs, "freqs")):
        path = os.path.join(directory, f"{side}.{suffix}")
        with open(path, "wb") as out:
            left = samples
            while left > 0:
                take = min(left, len(values))
                if distinct and suffix == "bin":
                    # Shift every block so that no time repeats across blocks.
                    scale = 1.0 + (samples - left) / (samples * 4.0)
                    out.write(array.array("f", (v * scale for v in values[:take])).tobytes())
                else:
                    out.write(values[:take].tobytes())
                left -= take
        bins[tag] = (os.path.basename(path), samples)
    with open(os.path.join(directory, f"{side}.json"), "w") as out:
        json.dump(document(bins), out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--samples", type=int, default=1 << 24)
    parser.add_argument("--distinct", action="store_true")
    parser.add_argument("--keep", help="write the pair into this directory and keep it")
    args = parser.parse_args()
    directory = args.keep or tempfile.mkdtemp(prefix="nvbc-sidecar-memory-")
    os.makedirs(directory, exist_ok=True)
    write_side(directory, "ref", args.samples, args.distinct, 1)
    write_side(directory, "cmp", args.samples, args.distinct, 2)
    sidecar_bytes = 4 * 4 * args.samples
    argv = [os.path.abspath(args.binary), "--no-color", "ref.json", "cmp.json"]
    pid = os.fork()
    if pid == 0:
        os.chdir(directory)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execv(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    if not args.keep:
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)
    rss = usage.ru_maxrss * 1024
    print(f"samples per sidecar {args.samples}  distinct {args.distinct}  "
          f"sidecars {sidecar_bytes / 2**20:.0f} MiB  exit {os.waitstatus_to_exitcode(status)}  "
          f"peak RSS {rss / 2**20:.0f} MiB  ratio {rss / sidecar_bytes:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
