#!/usr/bin/env python3
"""Peak memory of nvbench-compare on inputs with very many small states.

    python3 benches/huge_inputs.py [--bin target/release/nvbench-compare]
        [--states 1000000] [--runs 3] [--out DIR]
        [--shape compact|padded|long-names]

Writes a reference/compare pair of one benchmark with --states states
(about 670 bytes each: two axes and the summaries NVBench writes without
--jsonbin), and --runs reruns a side for repetition mode, then reports the
wall time and peak RSS (/usr/bin/time) of a pair and of `R1..Rk --vs
C1..Ck`, with the size of the largest input for scale.

--shape: `compact` (no whitespace, the default), `padded` (each state
indented as `json.dumps(indent=12)` writes it: mostly whitespace), or
`long-names` (a 500-character type-axis value, so names and axis values
are most of the file).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


LONG = "x" * 496


def state(index, seconds, noise, shape="compact"):
    t, n = ("I32", "F32", "I64", "F64")[index % 4], index // 4
    if shape == "long-names":
        t = t + LONG
    summary = lambda tag, hint, value: {  # noqa: E731
        "tag": tag, "name": tag.rsplit("/", 1)[-1], "hint": hint,
        "data": [{"name": "value", "type": "float64", "value": repr(value)}],
    }
    return {
        "name": f"Device=0 T={t} N={n}",
        "device": 0,
        "axis_values": [
            {"name": "T", "type": "string", "value": t},
            {"name": "N", "type": "int64", "value": str(n)},
        ],
        "summaries": [
            summary("nv/cold/time/gpu/mean", "duration", seconds),
            summary("nv/cold/time/gpu/stdev/relative", "percentage", noise),
            summary("nv/cold/sample_size", "sample_size", 1000),
        ],
        "is_skipped": False,
    }


def write(path, count, factor, seed, shape="compact"):
    rng = random.Random(seed)
    with open(path, "w") as out:
        out.write('{"meta":{"version":{"json":{"string":"1.0.0"}}},')
        out.write('"devices":[{"id":0,"name":"GPU"}],"benchmarks":[{"name":"b","index":0,')
        out.write('"devices":[0],"axes":[{"name":"T","type":"string","flags":""},')
        out.write('{"name":"N","type":"int64","flags":""}],"states":[')
        for i in range(count):
            if i:
                out.write(",")
            seconds = 1e-3 * (1 + (i % 97) / 97) * factor * (1 + rng.gauss(0, 0.002))
            value = state(i, seconds, 0.005, shape)
            if shape == "padded":
                out.write(json.dumps(value, indent=12))
            else:
                out.write(json.dumps(value, separators=(",", ":")))
        out.write("]}]}\n")


def measure(command):
    timed = ["/usr/bin/time", "-f", "%e %M", *command]
    done = subprocess.run(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds, kib = done.stderr.strip().splitlines()[-1].split()
    if done.returncode not in (0, 3):
        sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr[-400:]}")
    return float(seconds), int(kib) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/nvbench-compare")
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", help="where the inputs go (default: a temporary directory)")
    parser.add_argument("--shape", choices=["compact", "padded", "long-names"], default="compact")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.out or scratch
        os.makedirs(directory, exist_ok=True)
        sides = {"r": 1.0, "c": 1.03}
        paths = {side: [] for side in sides}
        for side, factor in sides.items():
            for run in range(args.runs):
                path = os.path.join(directory, f"{args.shape}-{side}{run + 1}.json")
                if not os.path.exists(path):
                    seed = hash((side, run)) & 0xFFFF
                    write(path, args.states, factor, seed, args.shape)
                paths[side].append(path)
        largest = max(os.path.getsize(p) for side in paths.values() for p in side) / 2**20
        print(f"{args.shape}: {args.states} states a file, largest input {largest:.0f} MiB")
        pair = [args.bin, paths["r"][0], paths["c"][0]]
        seconds, peak = measure(pair)
        print(f"pair: {seconds:.2f} s, peak RSS {peak:.0f} MiB ({peak / largest:.2f}x the largest input)")
        repeated = [args.bin, *paths["r"], "--vs", *paths["c"]]
        seconds, peak = measure(repeated)
        print(f"{args.runs} runs a side (--vs): {seconds:.2f} s, peak RSS {peak:.0f} MiB "
              f"({peak / largest:.2f}x the largest input)")


if __name__ == "__main__":
    main()
