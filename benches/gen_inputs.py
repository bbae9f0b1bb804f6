#!/usr/bin/env python3
"""Generate a large, realistic NVBench JSON result pair for benchmarking nvbench-compare.

Writes DIR/ref.json and DIR/cmp.json in NVBench's current JSON format (json
version 1.0.0): meta, full device dicts, benchmarks with type, int64 (flags
"pow2" and ""), string and float64 axes, and states named "Device=0 ..." whose
summaries carry every tag NVBench's cold measurement writes (sample size,
walltime, CPU and GPU min/max/mean/stdev/quartiles/IQR, bandwidth, SM clock)
plus the batch measurement tags.  Values are written as strings, as NVBench
does.  With --samples M > 0 every state also gets `--jsonbin` sidecars:
DIR/ref.json-bin/N.bin (float32 little-endian sample times) and
DIR/ref.json-freqs-bin/N.bin (float32 SM clock Hz), referenced by the
`nv/json/bin:nv/cold/sample_times` / `nv/json/freqs-bin:nv/cold/sample_freqs`
summaries (filename relative to the JSON file's directory, size as int64).

Every summary is computed from simulated samples, as NVBench computes it
(quartiles by rank round(p * (n - 1)), unbiased stdev, mean SM clock):
per-state cycle counts with right-skewed lognormal noise, some bimodal kernels,
rare outliers, timer quantization for short kernels, per-sample SM clock jitter
and throttled runs.  About a third of the states change in the compare file
(large and small improvements and regressions, noise changes, mode shifts); the
rest are re-measured with fresh noise, some of them under a throttled clock.

Deterministic: the same arguments give byte-identical output (random.Random
with a fixed seed; no hash()-dependent ordering).  Standard library only.

    python3 gen_inputs.py --states 20000 --samples 0 --out DIR      # summary-only
    python3 gen_inputs.py --states 2000 --samples 10000 --out DIR   # with sidecars
"""

import argparse
import itertools
import json
import math
import os
import random
import shutil
import sys
from array import array
from operator import add, truediv

SCHEMA_VERSION = "gen_inputs/1"

# --------------------------------------------------------------------------
# Static NVBench metadata

DEVICE = {
    "id": 0,
    "name": "NVIDIA H100 80GB HBM3",
    "sm_version": 900,
    "ptx_version": 900,
    "sm_default_clock_rate": 1980000000,
    "number_of_sms": 132,
    "max_blocks_per_sm": 32,
    "max_threads_per_sm": 2048,
    "max_threads_per_block": 1024,
    "registers_per_sm": 65536,
    "registers_per_block": 65536,
    "global_memory_size": 84929347584,
    "global_memory_bus_peak_clock_rate": 2619000000,
    "global_memory_bus_width": 5120,
    "global_memory_bus_bandwidth": 3352320000000,
    "l2_cache_size": 52428800,
    "shared_memory_per_sm": 233472,
    "shared_memory_per_block": 49152,
    "ecc_state": True,
}
DEFAULT_CLOCK = float(DEVICE["sm_default_clock_rate"])
PEAK_BW = float(DEVICE["global_memory_bus_bandwidth"])

TYPES = {  # input_string -> (description, size in bytes)
    "I8": ("int8_t", 1),
    "I16": ("int16_t", 2),
    "I32": ("int32_t", 4),
    "I64": ("int64_t", 8),
    "I128": ("__int128", 16),
    "F32": ("float", 4),
    "F64": ("double", 8),
    "U32": ("uint32_t", 4),
    "U64": ("uint64_t", 8),
}


def type_axis(name, values):
    return ("type", name, "", list(values))


def pow2_axis(name, exponents):
    return ("int64", name, "pow2", list(exponents))


def int_axis(name, values):
    return ("int64", name, "", list(values))


def string_axis(name, values):
    return ("string", name, "", list(values))


def float_axis(name, values):
    return ("float64", name, "", list(values))


# Benchmark families modelled on CUB/Thrust/NVBench benchmark suites.
# (name, axes, bytes moved per element)
FAMILIES = [
    ("cub.bench.radix_sort.keys.base",
     [type_axis("T{ct}", ["I8", "I16", "I32", "I64", "F32", "F64"]),
      type_axis("OffsetT{ct}", ["I32", "I64"]),
      pow2_axis("Elements{io}", [16, 20, 24, 28]),
      string_axis("Entropy", ["1.000", "0.811", "0.544", "0.337", "0.201"])], 6.0),
    ("cub.bench.reduce.sum.base",
     [type_axis("T{ct}", ["I8", "I16", "I32", "I64", "I128", "F32", "F64"]),
      type_axis("OffsetT{ct}", ["I32", "I64"]),
      pow2_axis("Elements{io}", [16, 18, 20, 22, 24, 26, 28])], 1.0),
    ("cub.bench.segmented_sort.keys.base",
     [type_axis("T{ct}", ["I8", "I16", "I32", "I64", "F32", "F64"]),
      pow2_axis("Elements{io}", [22, 24, 26, 28]),
      int_axis("Segments{io}", [1, 64, 4096, 262144]),
      string_axis("Entropy", ["1.000", "0.544", "0.201"])], 8.0),
    ("thrust.bench.transform.basic",
     [type_axis("T", ["I8", "I16", "I32", "I64", "F32", "F64"]),
      pow2_axis("Elements", [16, 18, 20, 22, 24, 26, 28]),
      float_axis("Alpha", [0.5, 1.0, 2.5, 1e-05])], 2.0),
    ("cub.bench.histogram.even.base",
     [type_axis("SampleT{ct}", ["I8", "I16", "I32", "F32"]),
      type_axis("CounterT{ct}", ["I32"]),
      type_axis("OffsetT{ct}", ["I32", "I64"]),
      pow2_axis("Elements{io}", [16, 20, 24, 28]),
      int_axis("Bins", [32, 128, 2048, 2097152]),
      string_axis("Entropy", ["1.000", "0.544", "0.000"])], 1.2),
    ("copy_type_sweep",
     [type_axis("T", ["I8", "I16", "I32", "I64", "F32", "F64", "U32", "U64"]),
      pow2_axis("Elements{io}", [16, 18, 20, 22, 24, 26])], 2.0),
    ("cub.bench.select.if.base",
     [type_axis("T{ct}", ["I8", "I16", "I32", "I64", "F32", "F64"]),
      type_axis("OffsetT{ct}", ["I32", "I64"]),
      pow2_axis("Elements{io}", [16, 20, 24, 28]),
      float_axis("MatchFraction", [0.01, 0.5, 0.99]),
      string_axis("InPlace", ["false", "true"])], 2.5),
    ("cub.bench.merge_sort.pairs.base",
     [type_axis("KeyT{ct}", ["I8", "I16", "I32", "I64"]),
      type_axis("ValueT{ct}", ["I8", "I32", "I64"]),
      type_axis("OffsetT{ct}", ["I64"]),
      pow2_axis("Elements{io}", [16, 20, 24, 28]),
      string_axis("Entropy", ["1.000", "0.201"])], 12.0),
    ("nvbench.example.throughput",
     [int_axis("Stride", [1, 2, 4, 8]),
      pow2_axis("BlockSize", [6, 7, 8, 9, 10]),
      int_axis("ItemsPerThread", [1, 2, 4, 8, 16]),
      pow2_axis("Elements", [20, 24])], 8.0),
]
VARIANTS = ["", ".tuned", ".policy1", ".policy2", ".policy3", ".large", ".small",
            ".lookback", ".onesweep", ".vsmem"]

# --------------------------------------------------------------------------
# Output templates (nlohmann::ordered_json dump(2) layout, as NVBench writes)


class Layout:
    """Pre-rendered JSON fragments for one indentation style."""

    def __init__(self, indent):
        self.indent = indent  # None = compact
        self.sep = (",", ":") if indent is None else (",", ": ")
        self.summary_tpl = {}

    def dumps(self, obj, depth):
        if self.indent is None:
            return json.dumps(obj, separators=self.sep)
        text = json.dumps(obj, indent=self.indent, separators=self.sep)
        pad = " " * (self.indent * depth)
        return text.replace("\n", "\n" + pad)

    def nl(self, depth):
        return "" if self.indent is None else "\n" + " " * (self.indent * depth)

    def summary(self, depth, tag, name, description, hint, hide, data_types):
        """Return a template for one summary with %s placeholders for its values."""
        key = (tag, depth)
        tpl = self.summary_tpl.get(key)
        if tpl is None:
            obj = {"tag": tag, "name": name, "description": description, "hint": hint}
            if hide:
                obj["hide"] = hide
            obj["data"] = [
                {"name": dname, "type": dtype, "value": "\x00"} for dname, dtype in data_types
            ]
            tpl = self.dumps(obj, depth).replace("%", "%%").replace('"\\u0000"', '"%s"')
            self.summary_tpl[key] = tpl
        return tpl


HIDE = "Hidden by default."
F64 = [("value", "float64")]
I64 = [("value", "int64")]
BIN = [("filename", "string"), ("size", "int64")]


def cold_stat_specs(kind, where):
    k = kind.upper()
    return [
        (f"nv/cold/time/{kind}/min", f"Min {k} Time",
         f"Fastest isolated kernel execution time (measured {where})", "duration", HIDE),
        (f"nv/cold/time/{kind}/max", f"Max {k} Time",
         f"Slowest isolated kernel execution time (measured {where})", "duration", HIDE),
        (f"nv/cold/time/{kind}/mean", f"{k} Time",
         f"Mean isolated kernel execution time (measured {where})", "duration", None),
        (f"nv/cold/time/{kind}/stdev/absolute", "Noise",
         f"Standard deviation of isolated kernel execution {k} times", "duration", HIDE),
        (f"nv/cold/time/{kind}/stdev/relative", "Noise",
         f"Relative standard deviation of isolated kernel execution {k} times", "percentage",
         None),
        (f"nv/cold/time/{kind}/q1", f"Q1 {k} Time",
         f"First quartile of isolated kernel execution {k} times", "duration", HIDE),
        (f"nv/cold/time/{kind}/median", f"Median {k} Time",
         f"Median of isolated kernel execution {k} times", "duration", HIDE),
        (f"nv/cold/time/{kind}/q3", f"Q3 {k} Time",
         f"Third quartile of isolated kernel execution {k} times", "duration", HIDE),
        (f"nv/cold/time/{kind}/iqr/absolute", "IQR",
         f"Interquartile range of isolated kernel execution {k} times", "duration", HIDE),
        (f"nv/cold/time/{kind}/iqr/relative", "Rel IQR",
         f"Relative interquartile range of isolated kernel execution {k} times", "percentage",
         HIDE),
    ]


CPU_SPECS = cold_stat_specs("cpu", "on host CPU")
GPU_SPECS = cold_stat_specs("gpu", "with CUDA events")
S_SAMPLES = ("nv/cold/sample_size", "Samples", "Number of isolated kernel executions",
             "sample_size", None)
S_WALL = ("nv/cold/walltime", "Walltime", "Walltime used for isolated measurements",
          "duration", HIDE)
S_ITEMS = ("nv/cold/bw/item_rate", "Elem/s", "Number of input elements processed per second",
           "item_rate", None)
S_BYTES = ("nv/cold/bw/global/bytes_per_second", "GlobalMem BW",
           "Number of bytes read/written per second to the CUDA device's global memory",
           "byte_rate", None)
S_UTIL = ("nv/cold/bw/global/utilization", "BWUtil",
          "Global device memory utilization as a percentage of the device's peak bandwidth",
          "percentage", None)
S_CLOCK = ("nv/cold/sm_clock_rate/mean", "Clock Rate", "Mean SM clock rate", "frequency", HIDE)
S_SCALE = ("nv/cold/sm_clock_rate/scaling/percent", "Clock Scaling",
           "Mean SM clock rate as a percentage of default clock rate.", "percentage", HIDE)
S_TIMES_BIN = ("nv/json/bin:nv/cold/sample_times", "Samples Times File",
               "Binary file containing sample times as little-endian float32.",
               "file/sample_times", "Not needed in table.")
S_FREQS_BIN = ("nv/json/freqs-bin:nv/cold/sample_freqs", "Samples Frequencies File",
               "Binary file containing sample frequencies as little-endian float32.",
               "file/sample_freqs", "Not needed in table.")
S_BATCH_N = ("nv/batch/sample_size", "Samples", "Number of batch kernel executions",
             "sample_size", None)
S_BATCH_T = ("nv/batch/time/gpu/mean", "Batch GPU",
             "Mean batch kernel execution time (measured by CUDA events)", "duration", None)
S_BATCH_W = ("nv/batch/walltime", "Walltime", "Walltime used for batch measurements",
             "duration", HIDE)


def fnum(x):
    """NVBench writes float64 values with fmt::to_string (shortest round-trip)."""
    return repr(float(x))


# --------------------------------------------------------------------------
# Statistics (as nvbench/detail/statistics.cuh)


def stats(values):
    """values: list of floats. Returns min, max, mean, stdev, q1, median, q3."""
    n = len(values)
    s = sorted(values)
    mean = sum(s) / n
    if n >= 5:
        # unbiased sample standard deviation (Bessel's correction)
        d = list(map((-mean).__add__, s))
        stdev = math.sqrt(sum(map(float.__mul__, d, d)) / (n - 1))
    else:
        stdev = math.inf
    last = n - 1
    q1 = s[int(round(0.25 * last))]
    q2 = s[int(round(0.50 * last))]
    q3 = s[int(round(0.75 * last))]
    return s[0], s[-1], mean, stdev, q1, q2, q3


def stat_values(n, st):
    mn, mx, mean, stdev, q1, med, q3 = st
    rel_stdev = stdev / mean if (n >= 5 and math.isfinite(stdev) and mean > 0) else math.inf
    iqr = q3 - q1
    out = [fnum(mn), fnum(mx), fnum(mean), fnum(stdev), fnum(rel_stdev), fnum(q1), fnum(med),
           fnum(q3), fnum(iqr)]
    rel_iqr = fnum(iqr / med) if (n >= 5 and med > 0) else None
    return out, rel_iqr


# --------------------------------------------------------------------------
# Simulation


class Pools:
    """Large pools of pre-drawn noise; states read random strided windows of them.

    Keeps the 2,000 x 10,000-sample case fast in pure Python: per-sample work is
    done by C-level map()/slicing instead of Python loops.
    """

    SIGMAS = [0.0004, 0.0012, 0.003, 0.008, 0.02, 0.05]

    def __init__(self, seed, size):
        rng = random.Random(seed * 7919 + 17)
        self.size = size
        z = [rng.gauss(0.0, 1.0) + 0.6 * (rng.expovariate(1.0) - 1.0) for _ in range(size)]
        self.noise = [array("d", [math.exp(s * v) for v in z]) for s in self.SIGMAS]
        jitter = [rng.gauss(0.0, 1.0) for _ in range(size)]
        # SM clock readings: small jitter, quantized to 1 MHz steps around nominal.
        self.clock = array("d", [1.0 + round(0.0012 * v * 1000.0) / 1000.0 for v in jitter])
        self.launch = array("d", [math.exp(0.15 * rng.gauss(0.0, 1.0)) for _ in range(size)])

    def window(self, pool, n, rng):
        stride = rng.choice((1, 1, 2, 3, 5))
        if n * stride > self.size:
            stride = 1
        if n > self.size:  # very long runs: tile the pool
            reps = n // self.size + 1
            return (pool * reps)[rng.randrange(self.size):][:n]
        start = rng.randrange(self.size - n * stride + 1)
        return pool[start:start + n * stride:stride]


def simulate(kp, n, rng, pools):
    """Simulate one cold measurement of n samples.

    kp: kernel parameters (cycles, sigma level, modes, outliers, quantum, clock).
    Returns (times as array('f'), the same as a list, SM clocks as array('f'), CPU times).
    """
    cycles = list(map(kp["cycles"].__mul__, pools.window(pools.noise[kp["sigma"]], n, rng)))
    for period, factor in kp["modes"]:
        phase = rng.randrange(period)
        cycles[phase::period] = map(factor.__mul__, cycles[phase::period])
    if kp["outliers"]:
        period = kp["outliers"]
        phase = rng.randrange(period)
        cycles[phase::period] = map((1.3 + rng.random()).__mul__, cycles[phase::period])

    freqs = list(map(kp["clock"].__mul__, pools.window(pools.clock, n, rng)))
    throttle = kp["throttle"]
    if throttle:
        # A throttling episode: a contiguous stretch of samples at a lower clock.
        length = int(n * throttle[0])
        a = rng.randrange(max(n - length, 1))
        freqs[a:a + length] = map(throttle[1].__mul__, freqs[a:a + length])
    freqs32 = array("f", freqs)

    times = list(map(truediv, cycles, freqs32))
    quantum = kp["quantum"]
    if quantum:
        ticks = map(round, map((1.0 / quantum).__mul__, times))
        times = list(map(quantum.__mul__, map(max, ticks, itertools.repeat(1))))
    times32 = array("f", times)
    times = times32.tolist()

    # Host-side (CPU) times: GPU time plus a noisy launch overhead.  CPU summaries
    # are not used by nvbench-compare, so long runs use an evenly strided subset
    # of at most ~1,000 samples to keep generation fast.
    step = max(1, n // 1000)
    sub = times[::step]
    launch = kp["launch"]
    cpu = list(map(add, sub, map(launch.__mul__, pools.window(pools.launch, len(sub), rng))))
    return times32, times, freqs32, cpu


def kernel_params(rng, t_nominal, elements):
    """Random per-state kernel personality (reference run)."""
    sigma = rng.choices(range(len(Pools.SIGMAS)), weights=[18, 34, 26, 12, 7, 3])[0]
    modes = []
    if rng.random() < 0.10:  # bimodal kernel (e.g. atomics / scheduling)
        modes.append((rng.choice((2, 3, 4, 5, 8)), 1.0 + rng.uniform(0.01, 0.12)))
    outliers = rng.choice((0, 0, 0, 97, 211, 1009)) if rng.random() < 0.5 else 0
    quantum = 32e-9 if (t_nominal < 60e-6 and rng.random() < 0.7) else 0.0
    throttle = None
    clock = DEFAULT_CLOCK
    if rng.random() < 0.02:
        clock = DEFAULT_CLOCK * rng.uniform(0.9, 0.99)  # whole run at lower clock
    if rng.random() < 0.02:
        throttle = (rng.uniform(0.05, 0.4), rng.uniform(0.85, 0.97))
    return {
        "cycles": t_nominal * DEFAULT_CLOCK,
        "sigma": sigma,
        "modes": modes,
        "outliers": outliers,
        "quantum": quantum,
        "clock": clock,
        "throttle": throttle,
        "launch": rng.uniform(3e-6, 9e-6),
    }


def compare_params(rng, ref):
    """Parameters of the compare run: ~1/3 of states really change."""
    kp = dict(ref)
    kp["modes"] = list(ref["modes"])
    # Fresh run conditions for everybody.
    kp["clock"] = DEFAULT_CLOCK
    kp["throttle"] = None
    if rng.random() < 0.02:
        kp["clock"] = DEFAULT_CLOCK * rng.uniform(0.9, 0.99)
    if rng.random() < 0.02:
        kp["throttle"] = (rng.uniform(0.05, 0.4), rng.uniform(0.85, 0.97))
    changed = rng.random() < 1.0 / 3.0
    if changed:
        what = rng.random()
        sign = 1.0 if rng.random() < 0.5 else -1.0
        if what < 0.45:
            factor = 1.0 + sign * rng.uniform(0.03, 0.40)  # clear improvement/regression
        elif what < 0.70:
            factor = 1.0 + sign * rng.uniform(0.01, 0.03)  # moderate
        elif what < 0.85:
            factor = 1.0 + sign * rng.uniform(0.002, 0.01)  # small, usually ambiguous
        else:
            factor = 1.0
        if factor < 0.05:
            factor = 0.05
        kp["cycles"] = ref["cycles"] * factor
        if what >= 0.85 or rng.random() < 0.15:
            # noise / shape change: different sigma or a mode appears/disappears
            if ref["modes"] and rng.random() < 0.5:
                kp["modes"] = []
            elif rng.random() < 0.5:
                kp["modes"] = [(rng.choice((2, 3, 4, 8)), 1.0 + rng.uniform(0.01, 0.1))]
            else:
                kp["sigma"] = min(len(Pools.SIGMAS) - 1, max(0, ref["sigma"] + rng.choice((-1, 1, 2))))
    return kp, changed


# --------------------------------------------------------------------------
# Writer


class PairWriter:
    def __init__(self, out_dir, samples, layout):
        self.out_dir = out_dir
        self.samples = samples
        self.lay = layout
        self.files = {}
        self.bin_count = {"ref": 0, "cmp": 0}
        for side in ("ref", "cmp"):
            path = os.path.join(out_dir, f"{side}.json")
            self.files[side] = open(path, "w", encoding="utf-8", newline="\n")
            if samples > 0:
                for suffix in ("-bin", "-freqs-bin"):
                    os.makedirs(os.path.join(out_dir, f"{side}.json{suffix}"), exist_ok=True)

    def header(self, side):
        lay = self.lay
        meta = {
            "argv": ["./bin/nvbench.bench", "--jsonbin", f"{side}.json"]
            if self.samples > 0 else ["./bin/nvbench.bench", "--json", f"{side}.json"],
            "version": {
                "json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"},
                "nvbench": {"major": 0, "minor": 1, "patch": 0, "string": "0.1.0",
                            "git_branch": "main",
                            "git_sha": "4fabe3f5e1a0d1c7e94b6b0f1d2c3a4b5c6d7e8f",
                            "git_version": "0.1.0-386-g4fabe3f", "git_is_dirty": False},
            },
        }
        nl1 = lay.nl(1)
        return ("{" + nl1 + '"meta"' + lay.sep[1] + lay.dumps(meta, 1) + "," + nl1
                + '"devices"' + lay.sep[1] + lay.dumps([DEVICE], 1) + "," + nl1
                + '"benchmarks"' + lay.sep[1] + "[")

    def write(self, side, text):
        self.files[side].write(text)

    def write_bins(self, side, times32, freqs32):
        idx = self.bin_count[side]
        self.bin_count[side] += 1
        rel_t = f"{side}.json-bin/{idx}.bin"
        rel_f = f"{side}.json-freqs-bin/{idx}.bin"
        with open(os.path.join(self.out_dir, rel_t), "wb") as f:
            if sys.byteorder != "little":
                times32 = array("f", times32)
                times32.byteswap()
            times32.tofile(f)
        with open(os.path.join(self.out_dir, rel_f), "wb") as f:
            if sys.byteorder != "little":
                freqs32 = array("f", freqs32)
                freqs32.byteswap()
            freqs32.tofile(f)
        return rel_t, rel_f

    def close(self):
        for f in self.files.values():
            f.close()


def render_summaries(lay, depth, n, sim, gpu_stats, elements, bytes_moved, bins, batch):
    times32, times, freqs32, cpu = sim
    parts = []

    def add(spec, values, types=F64):
        tag, name, desc, hint, hide = spec
        parts.append(lay.summary(depth, tag, name, desc, hint, hide, types) % tuple(values))

    walltime = (sum(cpu) / len(cpu) + 1.4e-5) * n + 0.003
    add(S_SAMPLES, [str(n)], I64)
    add(S_WALL, [fnum(walltime)])
    gpu_mean = gpu_stats[2]
    for specs, st, m in ((CPU_SPECS, stats(cpu), len(cpu)), (GPU_SPECS, gpu_stats, n)):
        out, rel_iqr = stat_values(m, st)
        for spec, v in zip(specs[:9], out):
            add(spec, [v])
        if rel_iqr is not None:
            add(specs[9], [rel_iqr])
    if elements:
        add(S_ITEMS, [fnum(elements / gpu_mean)])
    if bytes_moved:
        bw = bytes_moved / gpu_mean
        add(S_BYTES, [fnum(bw)])
        add(S_UTIL, [fnum(bw / PEAK_BW)])
    clock_mean = sum(freqs32) / n
    add(S_CLOCK, [fnum(clock_mean)])
    add(S_SCALE, [fnum(clock_mean / DEFAULT_CLOCK)])
    if bins is not None:
        rel_t, rel_f = bins
        add(S_TIMES_BIN, [rel_t, str(n)], BIN)
        add(S_FREQS_BIN, [rel_f, str(n)], BIN)
    b_n, b_mean = batch
    add(S_BATCH_N, [str(b_n)], I64)
    add(S_BATCH_T, [fnum(b_mean)])
    add(S_BATCH_W, [fnum(b_n * b_mean * 1.02 + 0.001)])
    sep = "," + lay.nl(depth)
    return lay.nl(depth) + sep.join(parts)


def plan_benchmarks(n_states):
    """Yield (bench_name, axes, bytes_per_element, states) until n_states are planned."""
    planned = 0
    for round_idx in itertools.count():
        for fam_idx, (name, axes, bpe) in enumerate(FAMILIES):
            if planned >= n_states:
                return
            variant = VARIANTS[round_idx % len(VARIANTS)]
            if round_idx >= len(VARIANTS):
                variant += f".r{round_idx // len(VARIANTS)}"
            combos = list(itertools.product(*[range(len(a[3])) for a in axes]))
            take = min(len(combos), n_states - planned)
            planned += take
            yield name + variant, axes, bpe, combos[:take]


def axis_json(axis):
    kind, name, flags, values = axis
    out = {"name": name, "type": kind, "flags": flags, "values": []}
    for v in values:
        if kind == "type":
            out["values"].append({"input_string": v, "description": TYPES[v][0], "is_active": True})
        elif kind == "int64":
            if flags == "pow2":
                out["values"].append({"input_string": str(v), "description": f"2^{v} = {2 ** v}",
                                      "value": 2 ** v})
            else:
                out["values"].append({"input_string": str(v), "description": "", "value": v})
        elif kind == "float64":
            out["values"].append({"input_string": repr(float(v)), "description": "",
                                  "value": float(v)})
        else:
            out["values"].append({"input_string": v, "description": "", "value": v})
    return out


def state_axis_values(axes, combo):
    """Returns (state name, axis_values list, type_config_index, elements, elem_bytes)."""
    name_parts = ["Device=0"]
    avs = []
    type_index = 0
    elements = 0
    elem_bytes = 0
    for axis, i in zip(axes, combo):
        kind, name, flags, values = axis
        v = values[i]
        if kind == "type":
            type_index = type_index * len(values) + i
            avs.append({"name": name, "type": "string", "value": v})
            name_parts.append(f"{name}={v}")
            if elem_bytes == 0:
                elem_bytes = TYPES[v][1]
        elif kind == "int64":
            value = 2 ** v if flags == "pow2" else v
            avs.append({"name": name, "type": "int64", "value": str(value)})
            name_parts.append(f"{name}=2^{v}" if flags == "pow2" else f"{name}={v}")
            if name.startswith("Elements"):
                elements = value
        elif kind == "float64":
            avs.append({"name": name, "type": "float64", "value": repr(float(v))})
            name_parts.append(f"{name}={float(v):.5g}")
        else:
            avs.append({"name": name, "type": "string", "value": v})
            name_parts.append(f"{name}={v}")
    return " ".join(name_parts), avs, type_index, elements, elem_bytes or 4


def generate(out_dir, n_states, n_samples, seed, indent, rerun=0):
    lay = Layout(indent)
    os.makedirs(out_dir, exist_ok=True)
    for side in ("ref", "cmp"):
        for suffix in (".json", ".json-bin", ".json-freqs-bin"):
            path = os.path.join(out_dir, side + suffix)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)

    pools = Pools(seed, 1 << 17 if n_samples <= 0 else max(1 << 18, 4 * n_samples))
    master = random.Random(seed)
    w = PairWriter(out_dir, n_samples, lay)
    for side in ("ref", "cmp"):
        w.write(side, w.header(side))

    n_changed = 0
    state_no = 0
    first_bench = True
    for b_index, (b_name, axes, bpe, combos) in enumerate(plan_benchmarks(n_states)):
        bench_head = {
            "name": b_name, "index": b_index, "min_samples": 10, "cold_warmup_runs": 1,
            "cold_max_warmup_walltime": 0.5, "batch_target_time": 0.5, "skip_time": -1.0,
            "timeout": 15.0, "devices": [0], "axes": [axis_json(a) for a in axes],
        }
        head_text = lay.dumps(bench_head, 2)
        # open the benchmark object, keep its "states" array open
        head_text = head_text[:head_text.rfind("}")].rstrip()
        head_text = (("" if first_bench else ",") + lay.nl(2) + head_text + "," + lay.nl(3)
                     + '"states"' + lay.sep[1] + "[")
        first_bench = False
        for side in ("ref", "cmp"):
            w.write(side, head_text)

        bench_rng = random.Random(master.getrandbits(64))
        bench_speed = bench_rng.uniform(0.6, 1.6)
        for s_index, combo in enumerate(combos):
            st_rng = random.Random(master.getrandbits(64))
            name, avs, type_index, elements, elem_bytes = state_axis_values(axes, combo)
            if elements:
                bytes_moved = int(elements * elem_bytes * bpe)
                t_nom = (2.2e-6 + bytes_moved / (2.9e12 * st_rng.uniform(0.55, 0.95))) * bench_speed
            else:
                bytes_moved = 0
                t_nom = math.exp(st_rng.uniform(math.log(4e-6), math.log(2e-3)))
            t_nom *= st_rng.uniform(0.9, 1.25)
            ref_kp = kernel_params(st_rng, t_nom, elements)
            cmp_kp, changed = compare_params(st_rng, ref_kp)
            n_changed += changed
            if n_samples > 0:
                n_ref = n_cmp = n_samples
            else:
                # NVBench's stopping criterion gives a wide range of sample counts.
                n_ref = min(max(int(st_rng.lognormvariate(math.log(220.0), 0.6)), 11), 1500)
                n_cmp = min(max(int(n_ref * st_rng.uniform(0.8, 1.25)), 11), 1500)
            skipped = st_rng.random() < 0.001
            head = {
                "name": name, "min_samples": 10, "cold_warmup_runs": 1,
                "cold_max_warmup_walltime": 0.5, "batch_target_time": 0.5, "skip_time": -1.0,
                "timeout": 15.0, "device": 0, "type_config_index": type_index,
                "axis_values": avs,
            }
            head_text = lay.dumps(head, 4)
            head_text = head_text[:head_text.rfind("}")].rstrip()
            for side, kp, n in (("ref", ref_kp, n_ref), ("cmp", cmp_kp, n_cmp)):
                parts = [("," if s_index else "") + lay.nl(4) + head_text + "," + lay.nl(5)]
                if skipped and side == "cmp":
                    parts.append('"summaries"' + lay.sep[1] + "null," + lay.nl(5) + '"is_skipped"'
                                 + lay.sep[1] + "true," + lay.nl(5) + '"skip_reason"' + lay.sep[1]
                                 + json.dumps("Unsupported type combination.")
                                 + lay.nl(4) + "}")
                    w.write(side, "".join(parts))
                    continue
                # A rerun keeps every state's kernel and change, and draws new noise.
                sim_rng = random.Random(st_rng.getrandbits(64) ^ (rerun * 0x9E3779B97F4A7C15))
                sim = simulate(kp, n, sim_rng, pools)
                bins = w.write_bins(side, sim[0], sim[2]) if n_samples > 0 else None
                gpu_stats = stats(sim[1])
                b_mean = gpu_stats[2] * sim_rng.uniform(0.93, 0.995)
                b_n = max(int(0.5 / b_mean), n)
                body = render_summaries(lay, 6, n, sim, gpu_stats, elements, bytes_moved, bins,
                                        (b_n, b_mean))
                parts.append('"summaries"' + lay.sep[1] + "[" + body + lay.nl(5) + "],"
                             + lay.nl(5) + '"is_skipped"' + lay.sep[1] + "false" + lay.nl(4) + "}")
                w.write(side, "".join(parts))
            state_no += 1
        for side in ("ref", "cmp"):
            w.write(side, lay.nl(3) + "]" + lay.nl(2) + "}")
    for side in ("ref", "cmp"):
        w.write(side, lay.nl(1) + "]" + lay.nl(0) + "}\n")
    w.close()
    return state_no, n_changed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--states", type=int, required=True, help="number of states per file")
    ap.add_argument("--samples", type=int, default=0,
                    help="samples per state written to --jsonbin sidecars (0 = summary-only)")
    ap.add_argument("--out", required=True, help="output directory (ref.json, cmp.json, ...)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--compact", action="store_true",
                    help="write compact JSON (no whitespace) instead of NVBench's 2-space indent")
    ap.add_argument("--rerun", type=int, default=0,
                    help="repetition number: the same states and changes with other sample noise, "
                         "as when a benchmark is run again (0 = the first run)")
    ap.add_argument("--version", action="store_true", help="print the generator schema version")
    args = ap.parse_args()
    if args.states <= 0:
        ap.error("--states must be positive")
    if args.rerun < 0:
        ap.error("--rerun must not be negative")
    n, changed = generate(args.out, args.states, args.samples, args.seed,
                          None if args.compact else 2, args.rerun)
    sizes = [os.path.getsize(os.path.join(args.out, f"{s}.json")) for s in ("ref", "cmp")]
    print(f"wrote {n} states ({changed} changed in cmp) to {args.out}: "
          f"ref.json {sizes[0] / 1e6:.1f} MB, cmp.json {sizes[1] / 1e6:.1f} MB"
          + (f", {args.samples} samples/state in sidecars" if args.samples > 0 else ""),
          file=sys.stderr)


if __name__ == "__main__":
    main()
