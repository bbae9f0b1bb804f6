#!/usr/bin/env python3
"""Seeds the fuzz corpora (fuzz/corpus/<target>/) from the conformance corpus
and the examples. Run from fuzz/: python3 make_seeds.py"""

import glob
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = os.path.join(ROOT, "testdata", "conformance", "cases")
SEPARATOR = b"\n--8<--\n"
SIDECARS = [
    "ref.json-bin/0.bin",
    "ref.json-freqs-bin/0.bin",
    "cmp.json-bin/0.bin",
    "cmp.json-freqs-bin/0.bin",
]
# Bits of the pipeline target's option bytes (see fuzz_targets/pipeline.rs).
OPTION_BITS = {
    ("--display", "explain"): 0,
    ("--display", "legacy"): 1,
    ("--no-color",): 2,
    ("--preset", "strict"): 6,
    ("--ignore-devices",): 7,
    ("--threshold-diff",): 8,
}


MAX_LEN = 65536  # the -max_len the fuzz runs use (see README.md)


def write(target, data):
    if len(data) > MAX_LEN:
        return
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def option_bits(case):
    try:
        args = read(os.path.join(case, "args")).decode().split("\n")
    except OSError:
        return 0
    bits = 0
    for i, arg in enumerate(args):
        for option, bit in OPTION_BITS.items():
            if arg == option[0] and (len(option) == 1 or args[i + 1 : i + 2] == [option[1]]):
                bits |= 1 << bit
    return bits


def main():
    jsons = sorted(glob.glob(os.path.join(CASES, "**", "*.json"), recursive=True))
    jsons += sorted(glob.glob(os.path.join(ROOT, "testdata", "examples", "*.json")))
    for path in jsons:
        write("json_loader", read(path))
    for path in sorted(glob.glob(os.path.join(CASES, "**", "*.toml"), recursive=True)):
        write("config", read(path))
    for case in sorted(glob.glob(os.path.join(CASES, "*"))):
        ref, cmp = os.path.join(case, "ref.json"), os.path.join(case, "cmp.json")
        if not (os.path.isfile(ref) and os.path.isfile(cmp)):
            continue
        bits = option_bits(case)
        parts = [read(ref), read(cmp)]
        sidecars = [os.path.join(case, name) for name in SIDECARS]
        if all(os.path.isfile(s) for s in sidecars):
            parts += [read(s) for s in sidecars]
        for extra in (0, 1 << 3, 1 << 4, 1 << 5 | 1 << 9 | 1 << 11):
            write("pipeline", struct.pack("<H", bits | extra) + SEPARATOR.join(parts))
        if len(parts) == 6:
            for flags in (0, 1):
                a, b = parts[2], parts[3]
                header = struct.pack("<BQQH", flags, len(a) // 4, len(b) // 4, len(a))
                write("sidecar", header + a + b)


if __name__ == "__main__":
    main()
