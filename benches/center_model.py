#!/usr/bin/env python3
"""A fast model of the repetition rule on run centers alone (numpy, scipy).

The simulation of `decision_quality.py` reduced to what the tests on the run
centers see: per process a clock and a memory factor (normal, std = drift),
per run the median of 64 samples (0.5 % lognormal scatter, 0.1 % clock
jitter) and the mean clock. The three t-tests of
`src/deciding/repetitions/center_test.rs` are applied to the first k runs a
side, with the guards (no test pointing the other way by OPPOSED_T standard
errors; below 3 degrees of freedom time and cycles both passing). It runs
thousands of draws per cell in a minute, which is how the shares and the
repetition guards were chosen (seeds other than the benchmark's
1 and 2); the shipped figures come from `decision_quality.py`, which runs
the binary.

    python3 benches/center_model.py [--draws 8000] [--seed 7]
        [--time-share 0.0125] [--cycles-share 0.00125] [--adjusted-share 0.00875]
        [--opposed-t 1.0] [--no-guards]
"""

import argparse

import numpy as np
from scipy import stats

CLOCK = 1.5e9
SAMPLES = 64
KINDS = ["memory", "clock", "mixed"]
CHANGES = [0.0, 0.05, -0.05, 0.10, -0.10]
DRIFTS = [0.005, 0.01, 0.02, 0.05]


def centers(rng, n, drift, kind, change, throttle_third=False):
    """(n, 5) log centers and log clocks of 5 processes."""
    clock = rng.normal(1.0, drift, (n, 5))
    if throttle_third:
        clock[:, 2] *= 0.85
    memory = rng.normal(1.0, drift, (n, 5))
    clocks = clock[..., None] * rng.normal(1.0, 0.001, (n, 5, SAMPLES))
    scatter = rng.lognormal(0.0, 0.005, (n, 5, SAMPLES))
    if kind == "memory":
        times = memory[..., None] * scatter
    elif kind == "clock":
        times = scatter / clocks
    else:
        times = (0.5 / clocks + 0.5 * memory[..., None]) * scatter
    times = np.sort(times * (1 + change), axis=2)
    return np.log(times[..., SAMPLES // 2]), np.log(clocks.mean(axis=2) * CLOCK)


def pooled(r, c):
    nr, nc = r.shape[1], c.shape[1]
    df = nr + nc - 2
    squares = ((r - r.mean(1, keepdims=True)) ** 2).sum(1) + ((c - c.mean(1, keepdims=True)) ** 2).sum(1)
    return c.mean(1) - r.mean(1), np.sqrt(squares / df * (1 / nr + 1 / nc)), df


def adjusted(rt, rc, ct, cc):
    nr, nc = rt.shape[1], ct.shape[1]
    df = nr + nc - 3

    def side(t, k):
        tm, km = t.mean(1, keepdims=True), k.mean(1, keepdims=True)
        return tm[:, 0], km[:, 0], ((t - tm) ** 2).sum(1), ((k - km) ** 2).sum(1), ((t - tm) * (k - km)).sum(1)

    a, b = side(rt, rc), side(ct, cc)
    kk, tk = a[3] + b[3], a[4] + b[4]
    slope = tk / kk
    residual = np.maximum(a[2] + b[2] - slope * tk, 0) / df
    gap = b[1] - a[1]
    return (b[0] - a[0]) - slope * gap, np.sqrt(residual * (1 / nr + 1 / nc + gap * gap / kk)), df


def decide(rt, rc, ct, cc, args):
    """FAST and SLOW masks."""
    tests = {"time": pooled(rt, ct), "cycles": pooled(rt + rc, ct + cc)}
    if rt.shape[1] + ct.shape[1] - 3 >= 2:
        tests["adjusted"] = adjusted(rt, rc, ct, cc)
    shares = {"time": args.time_share, "cycles": args.cycles_share, "adjusted": args.adjusted_share}
    n = rt.shape[0]
    fast, slow = np.zeros(n, bool), np.zeros(n, bool)
    passes = {}
    for name, (change, error, df) in tests.items():
        t = change / error
        big = np.abs(np.expm1(change)) >= 0.005
        passed = (np.abs(t) >= stats.t.isf(shares[name] / 2, df)) & big
        passes[name] = (passed & (t < 0), passed & (t > 0))
        fast |= passes[name][0]
        slow |= passes[name][1]
    both = fast & slow
    fast, slow = fast & ~both, slow & ~both
    if args.no_guards:
        return fast, slow
    for change, error, _ in tests.values():
        t = change / error
        fast &= ~(t >= args.opposed_t)
        slow &= ~(t <= -args.opposed_t)
    if tests["time"][2] < 3:
        fast &= np.logical_and.reduce([p[0] for p in passes.values()])
        slow &= np.logical_and.reduce([p[1] for p in passes.values()])
    return fast, slow


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--time-share", type=float, default=0.0125)
    parser.add_argument("--cycles-share", type=float, default=0.00125)
    parser.add_argument("--adjusted-share", type=float, default=0.00875)
    parser.add_argument("--opposed-t", type=float, default=1.0)
    parser.add_argument("--no-guards", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.draws
    print("| drift | runs/side | kind | false FAST/SLOW % | detected ±5 % | detected ±10 % | wrong direction (±5/±10 %) |")
    print("|---|---|---|---|---|---|---|")
    for scenario in DRIFTS + ["throttled"]:
        drift = 0.02 if scenario == "throttled" else scenario
        for kind in KINDS:
            draws = {
                change: (centers(rng, n, drift, kind, 0.0), centers(rng, n, drift, kind, change, scenario == "throttled"))
                for change in CHANGES
            }
            for k in [2, 3, 5]:
                row = {}
                for change, ((rt, rc), (ct, cc)) in draws.items():
                    fast, slow = decide(rt[:, :k], rc[:, :k], ct[:, :k], cc[:, :k], args)
                    right, wrong = (slow, fast) if change > 0 else (fast, slow)
                    row[change] = ((fast | slow).mean(), right.mean(), wrong.sum())
                label = "throttled (2 %)" if scenario == "throttled" else "%g %%" % (drift * 100)
                print(
                    "| %s | %d | %s | %.2f | %.1f | %.1f | %d |"
                    % (
                        label,
                        k,
                        kind,
                        100 * row[0.0][0],
                        50 * (row[0.05][1] + row[-0.05][1]),
                        50 * (row[0.10][1] + row[-0.10][1]),
                        sum(row[c][2] for c in CHANGES[1:]),
                    )
                )


if __name__ == "__main__":
    main()
