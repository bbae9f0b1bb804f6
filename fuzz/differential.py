#!/usr/bin/env python3
"""Differential check of the pipeline corpus: runs the reference
nvbench_compare.py and nvbench-compare on each input (decoded as the
`pipeline` target does, with the reference's own options only) and lists
the inputs whose stdout or exit code differ.

  python3 differential.py BINARY REFERENCE_SCRIPT [CORPUS_DIR] [--limit N] [--self]

With --self, each corpus file is one JSON document (the json_loader
corpus), compared with itself. With --config, each file is a TOML config
(the config corpus), run as `--config FILE --dump-config`; its stdout is
compared only when the reference exits 0 (parse errors are worded by
tomllib).
"""

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

SEPARATOR = b"\n--8<--\n"
SIDECARS = [
    "ref.json-bin/0.bin",
    "ref.json-freqs-bin/0.bin",
    "cmp.json-bin/0.bin",
    "cmp.json-freqs-bin/0.bin",
]
# The pipeline target's option bits that the reference has.
OPTIONS = {
    0: ["--display", "explain"],
    1: ["--display", "legacy"],
    2: ["--no-color"],
    4: ["--bulk-debug-python", "stdout"],
    6: ["--preset", "strict"],
    7: ["--ignore-devices"],
    8: ["--threshold-diff", "0.05"],
    12: ["-a", "Elements{io}[pow2]=20"],
    13: ["--reference-devices", "0", "--compare-devices", "0"],
}


def decode(data):
    if len(data) < 2:
        return None
    (bits,) = struct.unpack("<H", data[:2])
    parts = data[2:].split(SEPARATOR)
    if len(parts) < 2:
        return None
    args = []
    for bit, option in sorted(OPTIONS.items()):
        if bits & (1 << bit):
            args += option
    return args, parts


def run(command, cwd):
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    try:
        p = subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def compare_config(binary, reference, name, data):
    work = tempfile.mkdtemp(prefix="nvbc-diff-")
    try:
        with open(os.path.join(work, "c.toml"), "wb") as f:
            f.write(data)
        args = ["--config", "c.toml", "--dump-config"]
        ours = run([binary, *args], work)
        theirs = run([sys.executable, reference, *args], work)
        same = ours[0] == theirs[0] and (theirs[0] != 0 or ours[1] == theirs[1])
        if not same:
            print(f"DIFFERENT config: {name} exit ours={ours[0]} reference={theirs[0]}")
            print("  input:", data[:300])
            print("  ours:", ours[1][-300:], ours[2][-200:])
            print("  reference:", theirs[1][-300:], theirs[2][-300:])
        return 0 if same else 1
    finally:
        shutil.rmtree(work)


def main():
    binary, reference = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    limit = None
    self_mode = "--self" in rest
    if self_mode:
        rest.remove("--self")
    config_mode = "--config" in rest
    if config_mode:
        rest.remove("--config")
    if "--limit" in rest:
        i = rest.index("--limit")
        limit = int(rest[i + 1])
        del rest[i : i + 2]
    corpus = rest[0] if rest else os.path.join(os.path.dirname(__file__), "corpus", "pipeline")
    names = sorted(os.listdir(corpus))
    random.Random(1).shuffle(names)
    if limit:
        names = names[:limit]
    differences = 0
    for name in names:
        with open(os.path.join(corpus, name), "rb") as f:
            data = f.read()
        if config_mode:
            differences += compare_config(binary, reference, name, data)
            continue
        decoded = ([], [data, data]) if self_mode else decode(data)
        if decoded is None:
            continue
        args, parts = decoded
        work = tempfile.mkdtemp(prefix="nvbc-diff-")
        try:
            for sub in ("ref.json-bin", "ref.json-freqs-bin", "cmp.json-bin", "cmp.json-freqs-bin"):
                os.makedirs(os.path.join(work, sub))
            for data, file in zip(parts, ["ref.json", "cmp.json"] + SIDECARS):
                with open(os.path.join(work, file), "wb") as f:
                    f.write(data)
            ours = run([binary, *args, "ref.json", "cmp.json"], work)
            theirs = run([sys.executable, reference, *args, "ref.json", "cmp.json"], work)
            traceback = b"Traceback (most recent call last)" in theirs[2]
            if ours[:2] != theirs[:2]:
                differences += 1
                kind = "reference traceback" if traceback else "DIFFERENT"
                print(f"{kind}: {name} args={args} exit ours={ours[0]} reference={theirs[0]}")
                if not traceback:
                    print("  ours:", ours[1][-300:], ours[2][-300:])
                    print("  reference:", theirs[1][-300:], theirs[2][-300:])
        finally:
            shutil.rmtree(work)
    print(f"{len(names)} inputs, {differences} differences")


if __name__ == "__main__":
    main()
