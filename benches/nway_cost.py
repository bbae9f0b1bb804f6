#!/usr/bin/env python3
"""Cost of an N-way comparison against N pairs (the target: N candidates cost at
most N times one pair's decide time plus one parse per file).

    python3 benches/nway_cost.py [--bin target/release/nvbench-compare]
        [--states 2000] [--candidates 3] [--out DIR]

Generates a baseline and N candidate files (benches/gen_inputs.py, candidate k is the
compare file of rerun k: the same changes, other noise) and counts instructions with
callgrind, which do not move with the machine's load:

  pair    `base --vs c1`: total P, of which parsing (`loading::inputs::parse_input`) Pp
  N-way   `base --vs c1 ... --vs cN`: total W, of which parsing Wp

The work after parsing must grow at most linearly: (W - Wp) <= N x (P - Pp), the ratio
printed as "after parsing / (N x pair)"; and parsing is one parse per file:
Wp / ((N + 1) / 2 x Pp), about 1. Needs valgrind (callgrind_annotate).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def generate(directory, states, candidates):
    """The baseline (rerun 0's ref.json) and the compare file of each rerun."""
    paths = []
    for rerun in range(candidates):
        run_dir = os.path.join(directory, f"rerun{rerun}")
        if not os.path.exists(os.path.join(run_dir, "cmp.json")):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_inputs.py"), "--states",
                            str(states), "--out", run_dir, "--rerun", str(rerun)],
                           check=True, stdout=subprocess.DEVNULL)
        paths.append(os.path.join(run_dir, "cmp.json"))
    return os.path.join(directory, "rerun0", "ref.json"), paths


def instructions(command, scratch):
    """Total instructions and those under parse_input (inclusive)."""
    out = os.path.join(scratch, "callgrind.out")
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                           *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 3):
        sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr[-400:]}")
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                            capture_output=True, text=True, check=True).stdout
    number = lambda line: int(line.split()[0].replace(",", ""))  # noqa: E731
    total = next(number(l) for l in report.splitlines() if "PROGRAM TOTALS" in l)
    parse = [number(l) for l in report.splitlines()
             if re.search(r"loading::inputs::parse_input \[", l)]
    return total, (parse[0] if parse else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/nvbench-compare")
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--out", help="where the inputs go (default: a temporary directory)")
    args = parser.parse_args()
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("nway_cost.py needs valgrind and callgrind_annotate")
    binary = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.out or scratch
        base, candidates = generate(directory, args.states, args.candidates)
        pair, pair_parse = instructions([binary, base, "--vs", candidates[0]], scratch)
        print(f"{args.states} states a file; instructions (callgrind):")
        print(f"  pair (base --vs c1): {pair / 1e6:.1f} M, parsing {pair_parse / 1e6:.1f} M, "
              f"after parsing {(pair - pair_parse) / 1e6:.1f} M")
        for n in range(2, args.candidates + 1):
            command = [binary, base]
            for path in candidates[:n]:
                command += ["--vs", path]
            total, parse = instructions(command, scratch)
            after, bound = total - parse, n * (pair - pair_parse)
            print(f"  {n} candidates: {total / 1e6:.1f} M, parsing {parse / 1e6:.1f} M "
                  f"({parse / ((n + 1) / 2 * pair_parse):.2f}x one parse a file), after parsing "
                  f"{after / 1e6:.1f} M = {after / bound:.2f} x (N x pair) (target <= 1): "
                  + ("met" if after <= bound else "NOT met"))


if __name__ == "__main__":
    main()
