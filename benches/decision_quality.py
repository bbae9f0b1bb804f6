#!/usr/bin/env python3
"""Decision quality of nvbench-compare when timings drift between processes.

Simulates NVBench result files (`--jsonbin` sidecars included) of the same
benchmarks measured in separate processes. Every process draws its machine
state: an SM clock factor and a memory-system factor, each normal with
standard deviation DRIFT around 1. Three kinds of kernels:

  * memory-bound: time follows the memory factor, which the clock does not show;
  * clock-bound:  time follows 1 / clock (its cycle count stays);
  * mixed:        half of each, time = 0.5 / clock + 0.5 * memory.

Within a process, samples scatter by 0.5 % (lognormal) with 0.1 % per-sample
clock jitter, and the summaries are computed from the samples as NVBench
computes them (quartiles by rank round(p * (n - 1))).

An experiment draws 5 reference and 5 compare processes (alternating,
A B A B, as benchmarking practice says) over the same states: every kind of
kernel with changes 0, +-2, +-5 and +-10 % on the compare side. It is judged

  * by the single-run rule: run i against run i, i = 1..5 (each pair is a
    process draw of its own);
  * in repetition mode: the first k runs a side with `--vs`, k = 2, 3, 5.

Rates are over states; the states of one experiment share its processes,
so the 95 % intervals treat each experiment as one cluster (Wilson's
interval on the effective count, `states / design effect`, the design
effect from the scatter between experiments; with no event at all, one
state per experiment is counted, as if all states of an experiment erred
together).

Scenarios (2 % drift; 3 and 5 runs a side): one compare process throttled
to 85 % of the clock (its clock shows it), one compare process 15 % slower
with its clock unchanged, bimodal samples (30 % at a level 5 % higher),
heavy-tailed samples (5 % of the samples slowed by 10 % times a Pareto(2)
draw), 20 and 2,000 samples, sample counts differing between runs (20, 64
or 200), half the states missing from the second reference run, and
summaries only (no sidecars).

The rerun loop (--part loop; 0.5 to 5 % drift): one run a side of every
kind of kernel, most unchanged and some changed by +-5 and +-10 %, compared
with --rerun-plan; two more processes a side re-measure the planned states
only (partial runs, alternating), and the runs are compared again, each
side's reruns after its first run. Three plans: the AMBG states (the
default), the AMBG, SLOW and FAST states, and every state (re-running
everything, for comparison). Reported: the share of AMBG states decided
after the loop, false FAST/SLOW among unchanged states before and after,
detection, wrong-direction calls, and the states re-measured (the GPU time
of the reruns relative to re-running everything).

Standard library only; deterministic for a given --seed.

    python3 benches/decision_quality.py [--binary target/release/nvbench-compare]
        [--experiments 500] [--scenario-experiments 200] [--loop-experiments 300]
        [--seed 1] [--part grid|scenarios|loop|all] [--raw counts.json]
"""

import argparse
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

DRIFTS = [0.005, 0.01, 0.02, 0.05]
REP_RUNS = [2, 3, 5]
MAX_RUNS = max(REP_RUNS)
SIZES = [0.0, 0.02, 0.05, 0.10]
KINDS = ["memory", "clock", "mixed"]
WITHIN = 0.005  # lognormal sigma of samples within one process
CLOCK_JITTER = 0.001
CLOCK = 1.5e9
MIXED_CLOCK_SHARE = 0.5
SCENARIO_DRIFT = 0.02
SCENARIO_RUNS = [3, 5]
SCENARIOS = [
    "throttled process",
    "slow process, clock unchanged",
    "bimodal samples",
    "heavy-tailed samples",
    "20 samples",
    "2000 samples",
    "sample counts differ between runs",
    "state missing from one run",
    "summaries only",
]


def quantile(sorted_values, p):
    return sorted_values[int(round(p * (len(sorted_values) - 1)))]


def summary(tag, value, kind="float64"):
    return {"tag": tag, "data": [{"name": "value", "type": kind, "value": repr(value)}]}


def sidecar(tag, filename, count):
    return {
        "tag": tag,
        "data": [
            {"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": str(count)},
        ],
    }


class Kernel:
    """One state: its base time, its kind and the change of the compare side."""

    def __init__(self, index, kind, change, rng):
        self.index = index
        self.kind = kind
        self.change = change
        self.base = 10 ** rng.uniform(-5, -2.5)  # 10 us .. 3 ms


def kernels_for(changes, replicates, rng):
    kernels = []
    for _ in range(replicates):
        for kind in KINDS:
            for change in changes:
                kernels.append(Kernel(len(kernels), kind, change, rng))
    return kernels


class Process:
    """One process's machine state and what the scenario does to it."""

    def __init__(self, drift, rng, slow=1.0, throttle=1.0):
        self.clock = rng.gauss(1.0, drift) * throttle
        self.memory = rng.gauss(1.0, drift)
        self.slow = slow


def sample_times(kernel, process, compare, count, shape, rng):
    """A state's samples in one process: times and SM clocks."""
    true_time = kernel.base * ((1 + kernel.change) if compare else 1.0) * process.slow
    gauss, lognorm, rand = rng.gauss, rng.lognormvariate, rng.random
    times, clocks = [], []
    for _ in range(count):
        clock = CLOCK * process.clock * gauss(1.0, CLOCK_JITTER)
        if kernel.kind == "memory":
            time = true_time * process.memory
        elif kernel.kind == "clock":
            time = true_time * (CLOCK / clock)
        else:
            time = true_time * (
                MIXED_CLOCK_SHARE * CLOCK / clock + (1 - MIXED_CLOCK_SHARE) * process.memory
            )
        time *= lognorm(0.0, WITHIN)
        if shape == "bimodal" and rand() < 0.3:
            time *= 1.05
        elif shape == "heavy" and rand() < 0.05:
            time *= 1 + 0.1 * rng.paretovariate(2.0)
        times.append(time)
        clocks.append(clock)
    return times, clocks


def state_json(kernel, times, clocks, sidecars):
    times_sorted = sorted(times)
    n = len(times)
    mean = sum(times) / n
    stdev = math.sqrt(sum((t - mean) ** 2 for t in times) / (n - 1))
    q1, median, q3 = (quantile(times_sorted, p) for p in (0.25, 0.5, 0.75))
    summaries = [
        summary("nv/cold/sample_size", n, "int64"),
        summary("nv/cold/time/gpu/min", times_sorted[0]),
        summary("nv/cold/time/gpu/max", times_sorted[-1]),
        summary("nv/cold/time/gpu/mean", mean),
        summary("nv/cold/time/gpu/stdev/absolute", stdev),
        summary("nv/cold/time/gpu/stdev/relative", stdev / mean),
        summary("nv/cold/time/gpu/q1", q1),
        summary("nv/cold/time/gpu/median", median),
        summary("nv/cold/time/gpu/q3", q3),
        summary("nv/cold/time/gpu/iqr/absolute", q3 - q1),
        summary("nv/cold/time/gpu/iqr/relative", (q3 - q1) / median),
        summary("nv/cold/sm_clock_rate/mean", sum(clocks) / n),
    ]
    if sidecars:
        summaries += [
            sidecar("nv/json/bin:nv/cold/sample_times", sidecars[0], n),
            sidecar("nv/json/freqs-bin:nv/cold/sample_freqs", sidecars[1], n),
        ]
    return {
        "name": "Device=0 Kernel=%d" % kernel.index,
        "device": 0,
        "axis_values": [{"name": "Kernel", "type": "int64", "value": str(kernel.index)}],
        "summaries": summaries,
        "is_skipped": False,
    }


class Setup:
    """How the files of an experiment are written: sample counts and shape."""

    def __init__(self, samples=64, shape="normal", varying_counts=False, missing=False, sidecars=True):
        self.samples = samples
        self.shape = shape
        self.varying_counts = varying_counts
        self.missing = missing
        self.sidecars = sidecars


def draw_samples(kernels, compare, process, setup, rng):
    """Every state's samples in one process: {kernel index: (times, clocks)}."""
    count = rng.choice([20, 64, 200]) if setup.varying_counts else setup.samples
    return {
        kernel.index: sample_times(kernel, process, compare, count, setup.shape, rng)
        for kernel in kernels
    }


def write_states(path, kernels, samples, setup):
    """A run's file holding the states of `kernels`, from their samples."""
    directory, base = os.path.dirname(path), os.path.basename(path)
    if setup.sidecars:
        for suffix in ("-bin", "-freqs-bin"):
            os.makedirs(os.path.join(directory, base + suffix), exist_ok=True)
    states = []
    for kernel in kernels:
        times, clocks = samples[kernel.index]
        names = None
        if setup.sidecars:
            names = ("%s-bin/%d.bin" % (base, kernel.index), "%s-freqs-bin/%d.bin" % (base, kernel.index))
            for name, values in zip(names, (times, clocks)):
                with open(os.path.join(directory, name), "wb") as f:
                    f.write(struct.pack("<%df" % len(values), *values))
        states.append(state_json(kernel, times, clocks, names))
    document = {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "Simulated GPU"}],
        "benchmarks": [
            {
                "name": "drift",
                "devices": [0],
                "axes": [{"name": "Kernel", "type": "int64", "flags": ""}],
                "states": states,
            }
        ],
    }
    with open(path, "w") as f:
        f.write(json.dumps(document))  # json.dump's iterative encoder is slower


def write_run(path, kernels, compare, process, setup, run, rng):
    samples = draw_samples(kernels, compare, process, setup, rng)
    # Half the states are missing from the second reference run.
    if setup.missing and not compare and run == 1:
        kernels = [kernel for kernel in kernels if kernel.index % 2 == 0]
    write_states(path, kernels, samples, setup)


def statuses(binary, args, cwd):
    """Status by state name, and the tests that decided the calls."""
    out = subprocess.run([binary, "--json", "-"] + args, cwd=cwd, capture_output=True, check=False)
    if out.returncode != 0:
        sys.exit("nvbench-compare failed: %s" % out.stderr.decode())
    found = {}
    for state in json.loads(out.stdout)["states"]:
        found[state["state_key"]] = state["status"]
    return found


class Cluster:
    """The counts of one experiment for one cell."""

    __slots__ = ("states", "called", "detected", "wrong", "ambg")

    def __init__(self):
        self.states = self.called = self.detected = self.wrong = self.ambg = 0


class Cell:
    """Counts per experiment (cluster) for one kind of state in one setting."""

    def __init__(self):
        self.clusters = []

    def add(self, kernels, found):
        cluster = Cluster()
        for kernel in kernels:
            status = found["Kernel=%d" % kernel.index]
            called = status in ("FAST", "SLOW")
            cluster.states += 1
            cluster.ambg += status == "AMBG"
            if kernel.change == 0:
                cluster.called += called
            else:
                direction = "SLOW" if kernel.change > 0 else "FAST"
                cluster.detected += status == direction
                cluster.wrong += called and status != direction
        self.clusters.append(cluster)

    def count(self, field):
        return sum(getattr(c, field) for c in self.clusters)

    def states(self):
        return sum(c.states for c in self.clusters)

    def rate(self, field):
        """The rate and its 95 % interval, in percent."""
        events = [getattr(c, field) for c in self.clusters]
        sizes = [c.states for c in self.clusters]
        return clustered_wilson(events, sizes)

    def merged(self, other):
        cell = Cell()
        cell.clusters = self.clusters + other.clusters
        return cell


def clustered_wilson(events, sizes):
    n, x, m = sum(sizes), sum(events), len(sizes)
    if n == 0:
        return (float("nan"),) * 3
    p = x / n
    if 0 < x < n and m > 1:
        between = m / (m - 1) * sum((e - p * s) ** 2 for e, s in zip(events, sizes)) / n**2
        design = min(max(between / (p * (1 - p) / n), 1.0), max(sizes))
    else:
        design = n / m
    effective = n / design
    z = 1.959964
    centre = (p + z * z / (2 * effective)) / (1 + z * z / effective)
    half = z / (1 + z * z / effective) * math.sqrt(p * (1 - p) / effective + z * z / (4 * effective**2))
    return 100 * p, 100 * max(0.0, centre - half), 100 * min(1.0, centre + half)


def pct(rate):
    value, lower, upper = rate
    return "%.1f [%.1f, %.1f]" % (value, lower, upper)


def run_experiment(work, name, kernels, drift, setup, rng, scenario=None, pairs=range(MAX_RUNS)):
    """Writes 5 + 5 processes and judges them: the single-run rule on the
    pairs given, repetition mode on k runs a side; {(rule, run or k): found}."""
    directory = os.path.join(work, name)
    os.makedirs(directory, exist_ok=True)
    for run in range(MAX_RUNS):
        for compare, prefix in ((False, "r"), (True, "c")):
            special = compare and run == 2
            process = Process(
                drift,
                rng,
                slow=1.15 if special and scenario == "slow process, clock unchanged" else 1.0,
                throttle=0.85 if special and scenario == "throttled process" else 1.0,
            )
            write_run(os.path.join(directory, "%s%d.json" % (prefix, run)), kernels, compare, process, setup, run, rng)
    results = {}
    for run in pairs:
        results[("single", run)] = statuses(binary_path, ["r%d.json" % run, "c%d.json" % run], directory)
    for k in REP_RUNS:
        args = ["r%d.json" % i for i in range(k)] + ["--vs"] + ["c%d.json" % i for i in range(k)]
        results[("rep", k)] = statuses(binary_path, args, directory)
    shutil.rmtree(directory)
    return results


def tally(cells, key, kernels, found):
    """Adds one experiment to the cells of (key..., kind, size)."""
    for kind in KINDS:
        for size in SIZES:
            chosen = [k for k in kernels if k.kind == kind and round(abs(k.change), 3) == size]
            if chosen:
                cells.setdefault(key + (kind, size), Cell()).add(chosen, found)


def pooled(cells, key, kinds=KINDS, sizes=SIZES):
    cell = Cell()
    for kind in kinds:
        for size in sizes:
            if key + (kind, size) in cells:
                cell = cell.merged(cells[key + (kind, size)])
    return cell


def run_grid(args, rng, work):
    cells = {}
    changes = [0.0] + [s * sign for s in SIZES[1:] for sign in (1, -1)]
    for drift in DRIFTS:
        for experiment in range(args.experiments):
            kernels = kernels_for(changes, 2, rng)
            results = run_experiment(work, "grid", kernels, drift, Setup(samples=args.samples), rng)
            # The single-run rule pools its five pairs of processes.
            single = {}
            for run in range(MAX_RUNS):
                tally(single, (drift, 1, run), kernels, results[("single", run)])
            for (d, runs, _, kind, size), cell in single.items():
                target = cells.setdefault((d, runs, kind, size), Cell())
                target.clusters += cell.clusters
            for k in REP_RUNS:
                tally(cells, (drift, k), kernels, results[("rep", k)])
            if experiment % 50 == 49:
                print("  grid: drift %g %%, %d experiments" % (drift * 100, experiment + 1), file=sys.stderr)
    return cells


def run_scenarios(args, rng, work):
    cells = {}
    changes = [0.0, 0.05, -0.05, 0.10, -0.10]
    setups = {
        "bimodal samples": Setup(shape="bimodal"),
        "heavy-tailed samples": Setup(shape="heavy"),
        "20 samples": Setup(samples=20),
        "2000 samples": Setup(samples=2000),
        "sample counts differ between runs": Setup(varying_counts=True),
        "state missing from one run": Setup(missing=True),
        "summaries only": Setup(sidecars=False),
    }
    for scenario in SCENARIOS:
        setup = setups.get(scenario, Setup(samples=args.samples))
        for experiment in range(args.scenario_experiments):
            kernels = kernels_for(changes, 1, rng)
            results = run_experiment(work, "scenario", kernels, SCENARIO_DRIFT, setup, rng, scenario, pairs=[2])
            # The single-run rule on the pair that holds the special process.
            tally(cells, (scenario, 1), kernels, results[("single", 2)])
            for k in SCENARIO_RUNS:
                tally(cells, (scenario, k), kernels, results[("rep", k)])
        print("  scenario done: %s" % scenario, file=sys.stderr)
    return cells


# The rerun loop: one run a side, a plan, two reruns a side of the planned
# states, the merged comparison. Three plans: the AMBG states (the
# default), the AMBG, SLOW and FAST states (every state the single-run rule
# did not call SAME), and every state (re-running everything).
LOOP_DRIFTS = [0.005, 0.01, 0.02, 0.05]
LOOP_CHANGES = [0.0, 0.0, 0.0, 0.0, 0.05, -0.05, 0.10, -0.10]
LOOP_PLANS = [("ambg", "AMBG"), ("ambg,slow,fast", "AMBG, SLOW, FAST"), ("all", "every state")]


class LoopCluster:
    """The counts of one experiment for one cell of the loop."""

    FIELDS = ("states", "planned", "ambg_first", "settled", "called_first", "called", "detected",
              "wrong", "ambg")
    __slots__ = FIELDS

    def __init__(self):
        for field in self.FIELDS:
            setattr(self, field, 0)


def planned_kernels(path):
    """The Kernel values a rerun plan's -a arguments name (the simulated
    benchmark has that one axis, so a plan is one instance)."""
    with open(path) as f:
        lines = [line for line in f.read().split("\n")[:-1] if not line.startswith("#")]
    planned = set()
    for option, value in zip(lines[::2], lines[1::2]):
        if option == "-a":
            name, _, values = value.partition("=")
            assert name == "Kernel", value
            planned.update(int(v) for v in values.strip("[]").split(","))
        else:
            assert option in ("-b", "-d"), option
    return planned


def loop_experiment(work, kernels, drift, setup, rng):
    """{plan: (first statuses, final statuses, planned kernel indices)}."""
    directory = os.path.join(work, "loop")
    os.makedirs(directory, exist_ok=True)
    for compare, name in ((False, "r0.json"), (True, "c0.json")):
        write_run(os.path.join(directory, name), kernels, compare, Process(drift, rng), setup, 0, rng)
    plans, first = {}, None
    for plan, _ in LOOP_PLANS:
        if plan == "all":
            plans[plan] = {kernel.index for kernel in kernels}
            continue
        args = ["--rerun-plan", "plan.txt", "--rerun-plan-statuses", plan, "r0.json", "c0.json"]
        first = statuses(binary_path, args, directory)
        plans[plan] = planned_kernels(os.path.join(directory, "plan.txt"))
    # Two more processes a side, alternating; each plan's reruns hold its
    # states, drawn once a process.
    for run in (1, 2):
        for compare, prefix in ((False, "r"), (True, "c")):
            samples = draw_samples(kernels, compare, Process(drift, rng), setup, rng)
            for plan, planned in plans.items():
                chosen = [kernel for kernel in kernels if kernel.index in planned]
                path = os.path.join(directory, "%s%d-%s.json" % (prefix, run, plan))
                write_states(path, chosen, samples, setup)
    results = {}
    for plan, planned in plans.items():
        final = first
        if planned:
            names = ["r0.json", "r1-%s.json" % plan, "r2-%s.json" % plan, "--vs",
                     "c0.json", "c1-%s.json" % plan, "c2-%s.json" % plan]
            final = statuses(binary_path, names, directory)
        results[plan] = (first, final, planned)
    shutil.rmtree(directory)
    return results


def tally_loop(cells, key, kernels, first, final, planned):
    for kind in KINDS:
        for size in SIZES:
            chosen = [k for k in kernels if k.kind == kind and round(abs(k.change), 3) == size]
            if not chosen:
                continue
            cluster = LoopCluster()
            for kernel in chosen:
                name = "Kernel=%d" % kernel.index
                before, after = first[name], final[name]
                cluster.states += 1
                cluster.planned += kernel.index in planned
                cluster.ambg_first += before == "AMBG"
                cluster.settled += before == "AMBG" and after != "AMBG"
                cluster.ambg += after == "AMBG"
                if kernel.change == 0:
                    cluster.called_first += before in ("FAST", "SLOW")
                    cluster.called += after in ("FAST", "SLOW")
                else:
                    direction = "SLOW" if kernel.change > 0 else "FAST"
                    cluster.detected += after == direction
                    cluster.wrong += after in ("FAST", "SLOW") and after != direction
            cells.setdefault(key + (kind, size), Cell()).clusters.append(cluster)


def run_loop(args, rng, work):
    cells = {}
    for drift in LOOP_DRIFTS:
        for experiment in range(args.loop_experiments):
            kernels = kernels_for(LOOP_CHANGES, 2, rng)
            results = loop_experiment(work, kernels, drift, Setup(samples=args.samples), rng)
            for plan, (first, final, planned) in results.items():
                tally_loop(cells, (drift, plan), kernels, first, final, planned)
            if experiment % 50 == 49:
                print("  loop: drift %g %%, %d experiments" % (drift * 100, experiment + 1), file=sys.stderr)
    return cells


def ratio(cell, numerator, denominator):
    """`numerator / denominator` over the clusters, in percent, with the
    clustered interval."""
    events = [getattr(c, numerator) for c in cell.clusters]
    sizes = [getattr(c, denominator) for c in cell.clusters]
    return clustered_wilson(events, sizes)


def loop_table(cells):
    lines = [
        "| drift | plan | states re-measured (of all) | AMBG after one run a side | of those, decided after the loop | false FAST/SLOW before -> after: memory, clock, mixed | detected ±5 % | detected ±10 % | wrong direction (±5/±10 %) | AMBG on changed after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for drift in LOOP_DRIFTS:
        for plan, label in LOOP_PLANS:
            key = (drift, plan)
            everything = pooled(cells, key)
            false = ", ".join(
                "%.1f -> %s" % (ratio(pooled(cells, key, [kind], [0.0]), "called_first", "states")[0],
                                pct(ratio(pooled(cells, key, [kind], [0.0]), "called", "states")))
                for kind in KINDS
            )
            changed = pooled(cells, key, KINDS, SIZES[1:])
            lines.append(
                "| %g %% | %s | %s | %s | %s | %s | %s | %s | %d | %s |"
                % (
                    drift * 100,
                    label,
                    pct(ratio(everything, "planned", "states")),
                    pct(ratio(everything, "ambg_first", "states")),
                    pct(ratio(everything, "settled", "ambg_first")),
                    false,
                    pct(ratio(pooled(cells, key, KINDS, [0.05]), "detected", "states")),
                    pct(ratio(pooled(cells, key, KINDS, [0.10]), "detected", "states")),
                    pooled(cells, key, KINDS, [0.05, 0.10]).count("wrong"),
                    pct(ratio(changed, "ambg", "states")),
                )
            )
    return "\n".join(lines)


def loop_targets(cells):
    """The loop's targets: false calls at most 3 % in every cell, no wrong
    direction, per plan."""
    lines = ["| plan | worst false FAST/SLOW on unchanged (drift, kind) | mean of the cells | wrong direction | met |",
             "|---|---|---|---|---|"]
    for plan, label in LOOP_PLANS:
        rated = [(ratio(pooled(cells, (d, plan), [kind], [0.0]), "called", "states"), d, kind)
                 for d in LOOP_DRIFTS for kind in KINDS]
        (rate, drift, kind) = max(rated)
        mean = sum(r[0][0] for r in rated) / len(rated)
        wrong = sum(pooled(cells, (d, plan), KINDS, [0.05, 0.10]).count("wrong") for d in LOOP_DRIFTS)
        lines.append("| %s | %s (%g %%, %s) | %.1f | %d | %s |"
                     % (label, pct(rate), drift * 100, kind, mean, wrong,
                        "yes" if rate[0] <= 3 and wrong == 0 else "no"))
    return "\n".join(lines)


def grid_table(cells):
    lines = [
        "| drift | runs/side | false FAST/SLOW %: memory, clock, mixed | detected ±2 % | detected ±5 % | detected ±10 % | wrong direction (±5/±10 %, ±2 %) | AMBG on changed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for drift in DRIFTS:
        for runs in [1] + REP_RUNS:
            key = (drift, runs)
            false = ", ".join(pct(pooled(cells, key, [kind], [0.0]).rate("called")) for kind in KINDS)
            detected = [pct(pooled(cells, key, KINDS, [size]).rate("detected")) for size in SIZES[1:]]
            big = pooled(cells, key, KINDS, [0.05, 0.10])
            small = pooled(cells, key, KINDS, [0.02])
            changed = pooled(cells, key, KINDS, SIZES[1:])
            lines.append(
                "| %g %% | %s | %s | %s | %d, %d | %s |"
                % (
                    drift * 100,
                    "1 (single-run rule)" if runs == 1 else str(runs),
                    false,
                    " | ".join(detected),
                    big.count("wrong"),
                    small.count("wrong"),
                    pct(changed.rate("ambg")),
                )
            )
    return "\n".join(lines)


def kind_table(cells):
    lines = [
        "| drift | runs/side | detected ±5 %: memory, clock, mixed | detected ±10 %: memory, clock, mixed |",
        "|---|---|---|---|",
    ]
    for drift in DRIFTS:
        for runs in REP_RUNS:
            key = (drift, runs)
            row = [
                ", ".join("%.1f" % pooled(cells, key, [kind], [size]).rate("detected")[0] for kind in KINDS)
                for size in (0.05, 0.10)
            ]
            lines.append("| %g %% | %d | %s | %s |" % (drift * 100, runs, row[0], row[1]))
    return "\n".join(lines)


def scenario_table(cells):
    lines = [
        "| scenario (2 % drift) | runs/side | false FAST/SLOW | detected ±5 % | detected ±10 % | wrong direction | AMBG on changed |",
        "|---|---|---|---|---|---|---|",
    ]
    for scenario in SCENARIOS:
        for runs in [1] + SCENARIO_RUNS:
            key = (scenario, runs)
            lines.append(
                "| %s | %s | %s | %s | %s | %d | %s |"
                % (
                    scenario,
                    "1 (single-run rule)" if runs == 1 else str(runs),
                    pct(pooled(cells, key, KINDS, [0.0]).rate("called")),
                    pct(pooled(cells, key, KINDS, [0.05]).rate("detected")),
                    pct(pooled(cells, key, KINDS, [0.10]).rate("detected")),
                    pooled(cells, key, KINDS, [0.05, 0.10]).count("wrong"),
                    pct(pooled(cells, key, KINDS, [0.05, 0.10]).rate("ambg")),
                )
            )
    return "\n".join(lines)


def worst(cells, keys, field):
    """The cell with the highest rate among those given, and its rate."""
    rated = [(pooled(cells, key, [kind], [size]).rate(field), key + (kind,)) for key, kind, size in keys]
    return max(rated)


def targets_table(grid, scenarios):
    """The repetition rule's targets against the measured figures."""
    lines = [
        "| target | measured (all kinds) | memory-bound alone | met |",
        "|---|---|---|---|",
    ]
    cells = [((d, k), kind, 0.0) for d in DRIFTS for k in REP_RUNS for kind in KINDS]
    (rate, where) = worst(grid, cells, "called")
    # The cells share processes (nested runs, kinds of one experiment), so
    # their mean gets no interval here.
    mean = sum(pooled(grid, key, [kind], [size]).rate("called")[0] for key, kind, size in cells) / len(cells)
    lines.append(
        "| false FAST/SLOW <= 3 %% in every cell (drift, runs, kind) | worst of %d cells %s (%g %% drift, %d runs, %s); mean of the cells %.1f | | %s |"
        % (len(cells), pct(rate), where[0] * 100, where[1], where[2], mean, "yes" if rate[0] <= 3 else "no")
    )
    wrong = sum(pooled(grid, (d, k), KINDS, [0.05, 0.10]).count("wrong") for d in DRIFTS for k in REP_RUNS)
    lines.append("| no wrong direction on ±5 %% or ±10 %% | %d calls | | %s |" % (wrong, "yes" if wrong == 0 else "no"))

    def detection(key, size, target, label, source=grid):
        both = pooled(source, key, KINDS, [size]).rate("detected")
        memory = pooled(source, key, ["memory"], [size]).rate("detected")
        lines.append("| %s >= %d %% | %s | %s | %s |" % (label, target, pct(both), pct(memory), "yes" if both[0] >= target else "no"))

    detection((0.02, 3), 0.05, 50, "2 % drift, 3 runs: 5 % changes detected")
    detection((0.02, 5), 0.05, 80, "2 % drift, 5 runs: 5 % changes detected")
    detection((0.02, 3), 0.10, 95, "2 % drift, 3 runs: 10 % changes detected")
    detection((0.02, 5), 0.10, 95, "2 % drift, 5 runs: 10 % changes detected")
    detection((0.05, 5), 0.10, 60, "5 % drift, 5 runs: 10 % changes detected")
    if scenarios:
        detection(("throttled process", 3), 0.10, 90, "1 of 3 processes throttled: 10 % changes detected", scenarios)
    return "\n".join(lines)


def load_raw(path):
    """The cells of a --raw file."""
    with open(path) as f:
        raw = json.load(f)
    parts = {}
    for part, cells in raw.items():
        parts[part] = {}
        if part == "loop":
            for text, clusters in cells.items():
                drift, plan, kind, size = text.split("|")
                cell = Cell()
                for counts in clusters:
                    cluster = LoopCluster()
                    for field, value in zip(LoopCluster.FIELDS, counts):
                        setattr(cluster, field, value)
                    cell.clusters.append(cluster)
                parts[part][(float(drift), plan, kind, float(size))] = cell
            continue
        for text, clusters in cells.items():
            first, runs, kind, size = text.split("|")
            key = (float(first) if part == "grid" else first, int(runs), kind, float(size))
            cell = Cell()
            for counts in clusters:
                cluster = Cluster()
                cluster.states, cluster.called, cluster.detected, cluster.wrong, cluster.ambg = counts
                cell.clusters.append(cluster)
            parts[part][key] = cell
    return parts


def print_tables(parts):
    grid, scenarios = parts.get("grid"), parts.get("scenarios")
    if grid:
        print("\n" + grid_table(grid) + "\n")
        print(kind_table(grid) + "\n")
    if scenarios:
        print(scenario_table(scenarios) + "\n")
    if grid:
        print(targets_table(grid, scenarios) + "\n")
    loop = parts.get("loop")
    if loop:
        print(loop_table(loop) + "\n")
        print(loop_targets(loop) + "\n")


def main():
    global binary_path
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="target/release/nvbench-compare")
    parser.add_argument("--experiments", type=int, default=500, help="process draws per cell of the grid")
    parser.add_argument("--scenario-experiments", type=int, default=200, help="process draws per scenario")
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loop-experiments", type=int, default=300, help="process draws per cell of the rerun loop")
    parser.add_argument("--part", choices=["grid", "scenarios", "loop", "all"], default="all")
    parser.add_argument("--raw", help="write the per-experiment counts here (JSON)")
    parser.add_argument("--from-raw", help="print the tables of a --raw file, simulating nothing")
    args = parser.parse_args()
    if args.from_raw:
        print_tables(load_raw(args.from_raw))
        return
    binary_path = os.path.abspath(args.binary)
    rng = random.Random(args.seed)
    # Thousands of small files a minute: memory-backed when there is one.
    work = tempfile.mkdtemp(prefix="nvbc-quality-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    raw = {}
    try:
        draws = {
            "grid": "%d process draws per grid cell" % args.experiments,
            "scenarios": "%d per scenario" % args.scenario_experiments,
            "loop": "%d per cell of the rerun loop" % args.loop_experiments,
        }
        parts = list(draws) if args.part == "all" else [args.part]
        print("seed %d, %s" % (args.seed, ", ".join(draws[part] for part in parts)))
        if args.part in ("grid", "all"):
            raw["grid"] = run_grid(args, rng, work)
        if args.part in ("scenarios", "all"):
            raw["scenarios"] = run_scenarios(args, rng, work)
        if args.part in ("loop", "all"):
            raw["loop"] = run_loop(args, rng, work)
        print_tables(raw)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.raw:
        with open(args.raw, "w") as f:
            json.dump(
                {
                    part: {
                        "|".join(map(str, key)): [counts(c) for c in cell.clusters]
                        for key, cell in cells.items()
                    }
                    for part, cells in raw.items()
                },
                f,
            )


def counts(cluster):
    """A cluster's counts as a --raw file lists them."""
    if isinstance(cluster, LoopCluster):
        return [getattr(cluster, field) for field in LoopCluster.FIELDS]
    return [cluster.states, cluster.called, cluster.detected, cluster.wrong, cluster.ambg]


binary_path = None

if __name__ == "__main__":
    main()
