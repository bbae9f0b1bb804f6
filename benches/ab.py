#!/usr/bin/env python3
"""Two builds of nvbench-compare on one input pair, alternated: is a fast
path worth its code?

    python3 benches/ab.py OLD_BIN NEW_BIN DIR [--rounds 20] [-- EXTRA ARGS]

Runs `BIN DIR/ref.json DIR/cmp.json EXTRA...` with each binary in turn
(A B B A A B ..., so that neither always goes first), after one untimed
run each that also checks both print the same bytes. Reports the medians
of wall and CPU (user + sys) time and of peak RSS for each, and the median
of the paired differences NEW - OLD with how many rounds NEW was faster.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def run(binary, args):
    """Wall seconds, CPU seconds and peak RSS (MiB) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) not in (0, 3):
        sys.exit(f"{binary} {' '.join(args)} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def same_output(old, new, args):
    outputs = [subprocess.run([b, *args], capture_output=True).stdout for b in (old, new)]
    return outputs[0] == outputs[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("dir", help="a directory with ref.json and cmp.json")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("extra", nargs="*", help="arguments after --, given to both")
    options = parser.parse_args()
    args = [os.path.join(options.dir, "ref.json"), os.path.join(options.dir, "cmp.json")]
    args += options.extra
    if not same_output(options.old, options.new, args):
        sys.exit("the two builds print different bytes")
    times = {"old": [], "new": []}
    for round_ in range(options.rounds):
        order = ("old", "new") if round_ % 4 in (0, 3) else ("new", "old")
        for which in order:
            times[which].append(run(getattr(options, which), args))
    for which in ("old", "new"):
        wall, cpu, rss = (statistics.median(t[i] for t in times[which]) for i in range(3))
        print(f"{which}: wall {wall * 1e3:.1f} ms, CPU {cpu * 1e3:.1f} ms, peak RSS {rss:.0f} MiB")
    for i, name in ((0, "wall"), (1, "CPU")):
        diffs = [n[i] - o[i] for o, n in zip(times["old"], times["new"])]
        faster = sum(d < 0 for d in diffs)
        old_median = statistics.median(t[i] for t in times["old"])
        median = statistics.median(diffs)
        print(f"paired {name} new - old: {median * 1e3:+.1f} ms "
              f"({median / old_median:+.1%}), new faster in {faster} of {len(diffs)}")


if __name__ == "__main__":
    main()
