#!/usr/bin/env python3
"""Writes the example NVBench result pair of testdata/examples/.

    python3 testdata/examples/make_example.py [--out DIR]   # default: beside this script
    python3 testdata/examples/make_example.py bench {old,new,fix} NVBENCH_ARGS... --jsonbin FILE.json

A simulated `copy_type_sweep` benchmark (axes `T`, a type axis of I8, I16, F32
and F64, and `Elements{io}`, a pow2 axis from 2^16 to 2^26) measured on two
GPUs, device 0 and device 1, by two builds of the same kernel:
reference.json is the old build, compare.json the new one, which copies with
vectorised loads. Both were written as NVBench 1.0.0 JSON with `--jsonbin`, so
every state has sample-time and SM-clock sidecars.

What the compare run is designed to show (tests/it/example.rs checks it):

- SAME: most states, re-measured with fresh noise.
- FAST: I8 and I16 from 2^22 elements up. The new build copies inputs of at
  least 2^22 elements with a vectorised kernel; the old one moved 1- and
  2-byte elements one at a time and left most of the bandwidth unused.
- SLOW: F64 from 2^22 elements up on device 1, where the vectorised kernel
  runs fewer blocks at once than the old one.
- AMBG: F32 at 2^18 on device 0, where another process shared the GPU during
  the compare run (a third of the samples are much slower), and F32 at 2^24
  on device 1, whose SM clock was throttled during the compare run (slower
  in time, unchanged in clock cycles).
- ????: F64 at 2^26 on device 1, which the compare run skipped (see its
  skip_reason).

r1.json, r2.json (old build) and c1.json, c2.json (new build) are the
reruns of the repetition example: each holds only the states that
rerun-plan.txt (written by `nvbench-compare --rerun-plan rerun-plan.txt
reference.json compare.json`) re-measures, the two AMBG ones, made by
running the benchmark with the plan's arguments. `bench` is that benchmark:
it reads NVBench's -b, -d, -a and --jsonbin as NVBench's option parser does
(the same regular expressions, the same scoping: -d and -a apply to the
latest -b, those before any -b to every one) and writes an instance per -b.
The reruns are separate processes: fresh noise, and none of the compare
run's disturbances or its skipped state.

compare-fix.json is a third build for the N-way example (`reference.json
--vs compare.json --vs compare-fix.json`): the vectorised kernel, but the old
one for F64 on device 1, measured without disturbances: FAST where compare is,
SAME where compare is SLOW, AMBG or ????.

Summaries are computed from the float32 samples the way NVBench computes them
(quartiles by rank round(p * (n - 1)), unbiased standard deviation, mean SM
clock). Deterministic: every state's random stream is seeded by its own name,
so the same script always writes the same bytes. Every simulated value is
rounded to float32 before anything is computed from it, and what is computed
uses only correctly rounded operations (+, *, /, sqrt, fsum), so a platform's
libm (exp, log, cos) cannot change the output. Standard library only.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import sys
from array import array

DEVICES = [
    {
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
    },
    {
        "id": 1,
        "name": "NVIDIA L4",
        "sm_version": 890,
        "ptx_version": 890,
        "sm_default_clock_rate": 2040000000,
        "number_of_sms": 58,
        "max_blocks_per_sm": 24,
        "max_threads_per_sm": 1536,
        "max_threads_per_block": 1024,
        "registers_per_sm": 65536,
        "registers_per_block": 65536,
        "global_memory_size": 23580639232,
        "global_memory_bus_peak_clock_rate": 6251000000,
        "global_memory_bus_width": 192,
        "global_memory_bus_bandwidth": 300048000000,
        "l2_cache_size": 50331648,
        "shared_memory_per_sm": 102400,
        "shared_memory_per_block": 49152,
        "ecc_state": True,
    },
]

BENCHMARK = "copy_type_sweep"
TYPES = [("I8", "int8_t", 1), ("I16", "int16_t", 2), ("F32", "float", 4), ("F64", "double", 8)]
EXPONENTS = [16, 18, 20, 22, 24, 26]

# Kernel launch latency (seconds) and the share of the peak bandwidth a copy
# reaches, per device and element size: the old build's 1- and 2-byte copies
# leave most of it unused.
LAUNCH = {0: 2.4e-6, 1: 3.1e-6}
OLD_EFFICIENCY = {1: 0.30, 2: 0.55, 4: 0.88, 8: 0.90}
NEW_EFFICIENCY = {1: 0.86, 2: 0.87, 4: 0.88, 8: 0.90}
# Device 1 runs the vectorised F64 kernel at lower occupancy.
NEW_EFFICIENCY_DEVICE_1_F64 = 0.80
# The new build dispatches to the vectorised kernel from 2^22 elements on and
# keeps the old kernel for smaller inputs.
VECTORISED_FROM_EXPONENT = 22

NOISY = (0, "F32", 18)  # another process shared the GPU during the compare run
THROTTLED = (1, "F32", 24)  # SM clock throttled during the compare run
SKIPPED = (1, "F64", 26)
SKIP_REASON = "Not enough free device memory: another process held 23 GiB of device 1."

HIDE = "Hidden by default."
NOT_IN_TABLE = "Not needed in table."


def fnum(x):
    """NVBench writes float64 values in their shortest round-trip form."""
    return repr(float(x))


def summary(tag, name, description, hint, data, hide=None):
    out = {"tag": tag, "name": name, "description": description, "hint": hint}
    if hide:
        out["hide"] = hide
    out["data"] = data
    return out


def value_summary(tag, name, description, hint, value, hide=None, kind="float64"):
    text = str(value) if kind == "int64" else fnum(value)
    return summary(tag, name, description, hint, [{"name": "value", "type": kind, "value": text}],
                   hide)


def file_summary(tag, name, description, hint, filename, size):
    data = [{"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": str(size)}]
    return summary(tag, name, description, hint, data, NOT_IN_TABLE)


def statistics(values):
    """min, max, mean, stdev, q1, median, q3 as NVBench computes them."""
    s = sorted(values)
    n = len(s)
    mean = math.fsum(s) / n
    stdev = math.sqrt(math.fsum((v - mean) * (v - mean) for v in s) / (n - 1))
    last = n - 1
    return (s[0], s[-1], mean, stdev, s[int(round(0.25 * last))], s[int(round(0.5 * last))],
            s[int(round(0.75 * last))])


def time_summaries(kind, where, values, robust):
    mn, mx, mean, stdev, q1, median, q3 = statistics(values)
    k = kind.upper()
    pre = f"nv/cold/time/{kind}"
    out = [
        value_summary(f"{pre}/min", f"Min {k} Time",
                      f"Fastest isolated kernel execution time (measured {where})", "duration",
                      mn, HIDE),
        value_summary(f"{pre}/max", f"Max {k} Time",
                      f"Slowest isolated kernel execution time (measured {where})", "duration",
                      mx, HIDE),
        value_summary(f"{pre}/mean", f"{k} Time",
                      f"Mean isolated kernel execution time (measured {where})", "duration",
                      mean),
        value_summary(f"{pre}/stdev/absolute", "Noise",
                      f"Standard deviation of isolated {k} times", "duration", stdev, HIDE),
        value_summary(f"{pre}/stdev/relative", "Noise",
                      f"Relative standard deviation of isolated {k} times", "percentage",
                      stdev / mean),
    ]
    if robust:
        out += [
            value_summary(f"{pre}/q1", f"Q1 {k} Time", f"First quartile of isolated {k} times",
                          "duration", q1, HIDE),
            value_summary(f"{pre}/median", f"Median {k} Time", f"Median of isolated {k} times",
                          "duration", median, HIDE),
            value_summary(f"{pre}/q3", f"Q3 {k} Time", f"Third quartile of isolated {k} times",
                          "duration", q3, HIDE),
            value_summary(f"{pre}/iqr/absolute", "IQR",
                          f"Interquartile range of isolated {k} times", "duration", q3 - q1,
                          HIDE),
            value_summary(f"{pre}/iqr/relative", "Rel IQR",
                          f"Relative interquartile range of isolated {k} times", "percentage",
                          (q3 - q1) / median, HIDE),
        ]
    return out, mean


def nominal_time(device, type_size, elements, build):
    """Seconds per copy of `elements` elements (read and written once).

    build: "old" (reference.json), "new" (compare.json) or "fix"
    (compare-fix.json: the new kernel, but the old one for F64 on device 1).
    """
    efficiency = OLD_EFFICIENCY[type_size]
    if build != "old" and elements >= 2 ** VECTORISED_FROM_EXPONENT:
        efficiency = NEW_EFFICIENCY[type_size]
        if device == 1 and type_size == 8:
            efficiency = NEW_EFFICIENCY_DEVICE_1_F64 if build == "new" else OLD_EFFICIENCY[8]
    bandwidth = DEVICES[device]["global_memory_bus_bandwidth"] * efficiency
    return LAUNCH[device] + 2 * type_size * elements / bandwidth


def sample_count(seconds, rng):
    """NVBench stops once the noise settles; short kernels collect more samples."""
    return min(2000, max(200, int(0.004 / seconds * rng.uniform(0.8, 1.2))))


def simulate(rng, seconds, clock, n, disturbance):
    """n float32 sample times and SM clocks of a kernel taking `seconds` at `clock` Hz.

    Kernels take a fixed number of cycles (lognormal noise with a right tail),
    so a lower clock makes them slower in time but not in cycles.
    """
    cycles = seconds * clock
    sigma = 0.006 if seconds < 2e-5 else 0.003
    clocks = array("f", [clock * (1.0 + round(rng.gauss(0.0, 0.0008) * 1000) / 1000)
                         for _ in range(n)])
    if disturbance == "throttled":
        clocks = array("f", [f * 0.85 for f in clocks])
    times = []
    for f in clocks:
        z = rng.gauss(0.0, 1.0) + 0.5 * (rng.expovariate(1.0) - 1.0)
        t = cycles * math.exp(sigma * z) / f
        if disturbance == "noisy" and rng.random() < 0.35:
            t *= rng.uniform(1.15, 1.9)
        times.append(t)
    return array("f", times), clocks


class Elements:
    """A value of the Elements{io} axis: 2^exponent on a pow2 axis (as the
    benchmark defines it), or a plain count when `-a` gave the axis no
    flags."""

    def __init__(self, input_value, pow2):
        self.input_value = input_value
        self.pow2 = pow2
        self.count = 2 ** input_value if pow2 else input_value

    def text(self):
        """How the state's name writes it."""
        return f"2^{self.input_value}" if self.pow2 else str(self.count)


def axis_values(type_name, elements):
    return [{"name": "T", "type": "string", "value": type_name},
            {"name": "Elements{io}", "type": "int64", "value": str(elements.count)}]


def state_head(device, type_index, type_name, elements):
    return {
        "name": f"Device={device} T={type_name} Elements{{io}}={elements.text()}",
        "min_samples": 10,
        "skip_time": -1.0,
        "timeout": 15.0,
        "device": device,
        "type_config_index": type_index,
        "axis_values": axis_values(type_name, elements),
    }


class Side:
    """One result file and its sidecar directories."""

    def __init__(self, out_dir, stem, build, disturbed=None):
        self.out_dir = out_dir
        self.json_name = f"{stem}.json"
        self.build = build
        # Only the compare run had a skipped state and disturbed
        # measurements: events of that one process, which no later run of
        # the same build repeats.
        self.disturbed = build == "new" if disturbed is None else disturbed
        self.bins = 0

    def write_bins(self, times, clocks):
        names = (f"{self.json_name}-bin/{self.bins}.bin",
                 f"{self.json_name}-freqs-bin/{self.bins}.bin")
        self.bins += 1
        for name, values in zip(names, (times, clocks)):
            path = os.path.join(self.out_dir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = array("f", values)
            if sys.byteorder != "little":
                data.byteswap()
            with open(path, "wb") as f:
                data.tofile(f)
        return names

    def state(self, device, type_index, type_info, elements):
        type_name, _, type_size = type_info
        key = (device, type_name, elements.input_value if elements.pow2 else None)
        out = state_head(device, type_index, type_name, elements)
        if self.disturbed and key == SKIPPED:
            out["summaries"] = None
            out["is_skipped"] = True
            out["skip_reason"] = SKIP_REASON
            return out
        disturbance = None
        if self.disturbed:
            disturbance = {NOISY: "noisy", THROTTLED: "throttled"}.get(key)
        rng = random.Random(f"{self.json_name}/{device}/{type_name}/{elements.input_value}"
                            + ("" if elements.pow2 else "/count"))
        seconds = nominal_time(device, type_size, elements.count, self.build)
        clock = float(DEVICES[device]["sm_default_clock_rate"])
        n = sample_count(seconds, rng)
        times, clocks = simulate(rng, seconds, clock, n, disturbance)
        cpu = array("f", [t + 4.5e-6 * math.exp(0.2 * rng.gauss(0.0, 1.0)) for t in times])
        out["summaries"] = self.summaries(device, type_size, elements.count, times, clocks, cpu)
        out["is_skipped"] = False
        return out

    def summaries(self, device, type_size, elements, times, clocks, cpu):
        n = len(times)
        out = [value_summary("nv/cold/sample_size", "Samples",
                             "Number of isolated kernel executions", "sample_size", n,
                             kind="int64")]
        cpu_out, _ = time_summaries("cpu", "on host CPU", cpu.tolist(), robust=False)
        gpu_out, gpu_mean = time_summaries("gpu", "with CUDA events", times.tolist(), robust=True)
        out += cpu_out + gpu_out
        out.append(value_summary("nv/cold/walltime", "Walltime",
                                 "Walltime used for isolated measurements", "duration",
                                 math.fsum(cpu) + 0.002 * math.sqrt(n), HIDE))
        bytes_per_second = 2 * type_size * elements / gpu_mean
        out += [
            value_summary("nv/cold/bw/item_rate", "Elem/s",
                          "Number of input elements processed per second", "item_rate",
                          elements / gpu_mean),
            value_summary("nv/cold/bw/global/bytes_per_second", "GlobalMem BW",
                          "Number of bytes read/written per second to the CUDA device's global "
                          "memory", "byte_rate", bytes_per_second),
            value_summary("nv/cold/bw/global/utilization", "BWUtil",
                          "Global device memory utilization as a percentage of the device's "
                          "peak bandwidth", "percentage",
                          bytes_per_second / DEVICES[device]["global_memory_bus_bandwidth"]),
        ]
        clock_mean = math.fsum(clocks) / n
        out += [
            value_summary("nv/cold/sm_clock_rate/mean", "Clock Rate", "Mean SM clock rate",
                          "frequency", clock_mean, HIDE),
            value_summary("nv/cold/sm_clock_rate/scaling/percent", "Clock Scaling",
                          "Mean SM clock rate as a percentage of default clock rate.",
                          "percentage", clock_mean / DEVICES[device]["sm_default_clock_rate"],
                          HIDE),
        ]
        times_bin, freqs_bin = self.write_bins(times, clocks)
        out += [
            file_summary("nv/json/bin:nv/cold/sample_times", "Samples Times File",
                         "Binary file containing sample times as little-endian float32.",
                         "file/sample_times", times_bin, n),
            file_summary("nv/json/freqs-bin:nv/cold/sample_freqs", "Samples Frequencies File",
                         "Binary file containing sample frequencies as little-endian float32.",
                         "file/sample_freqs", freqs_bin, n),
        ]
        return out

    def document(self, instances=None, argv=None):
        """The result file of a run of the benchmark instances (see
        `Instance`; default: one instance of every state)."""
        instances = instances or [Instance()]
        benchmarks = [self.benchmark(index, instance) for index, instance in enumerate(instances)]
        return {
            "meta": {
                "argv": argv or [f"./bin/{BENCHMARK}", "--jsonbin", self.json_name],
                "version": {
                    "json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"},
                    "nvbench": {"major": 0, "minor": 1, "patch": 0, "string": "0.1.0",
                                "git_branch": "main", "git_sha": "0" * 40,
                                "git_version": "0.1.0-0-g0000000", "git_is_dirty": False},
                },
            },
            "devices": DEVICES,
            "benchmarks": benchmarks,
        }

    def benchmark(self, index, instance):
        states = [self.state(device, type_index, type_info, elements)
                  for device in instance.devices
                  for type_index, type_info in enumerate(TYPES)
                  if type_info[0] in instance.types
                  for elements in instance.elements]
        return {
            "name": BENCHMARK,
            "index": index,
            "min_samples": 10,
            "skip_time": -1.0,
            "timeout": 15.0,
            "devices": instance.devices,
            "axes": axes(instance),
            "states": states,
        }


def axes(instance):
    elements = []
    for value in instance.elements:
        entry = {"input_string": str(value.input_value),
                 "description": f"2^{value.input_value} = {value.count}" if value.pow2 else "",
                 "value": value.count}
        elements.append(entry)
    pow2 = all(value.pow2 for value in instance.elements)
    return [
        {"name": "T", "type": "type", "flags": "",
         "values": [{"input_string": name, "description": description,
                     "is_active": name in instance.types}
                    for name, description, _ in TYPES]},
        {"name": "Elements{io}", "type": "int64", "flags": "pow2" if pow2 else "",
         "values": elements},
    ]


class Instance:
    """One instance of the benchmark as NVBench's command line sets it up:
    its devices, its active types and its Elements{io} values."""

    def __init__(self):
        self.devices = [device["id"] for device in DEVICES]
        self.types = [name for name, _, _ in TYPES]
        self.elements = [Elements(e, True) for e in EXPONENTS]

    def copy(self):
        other = Instance()
        other.devices, other.types, other.elements = (
            list(self.devices), list(self.types), list(self.elements))
        return other


class ArgumentError(Exception):
    """An argument NVBench would refuse."""


# NVBench's option parser (nvbench/option_parser.cu) reads axis
# specifications and their values with these regular expressions (searched,
# not matched, as std::regex_search does), and C++'s std::stoll reads an
# integer from the start of a string.
AXIS_SPEC = re.compile(r"\s*([^\[:]+?)\s*(?:\[\s*([^\]]*?)\s*\])?\s*=\s*(.+?)\s*$")
LIST_SPEC = re.compile(r"^\[\s*([^\]]+?,[^\]]+?)\s*\]$")
RANGE_SPEC = re.compile(r"^\[\s*([^\]]+?:[^\]]+?)\s*\]$")
SINGLE_SPEC = re.compile(r"^\[?\s*([^,\]:]+?)\s*\]?$")
LIST_ITEM = re.compile(r"\s*([^,]+?)\s*(?:,|$)")
RANGE_ITEM = re.compile(r"\s*([^:]+?)\s*(?:$|:)")
STOLL = re.compile(r"^[ \t\n\v\f\r]*([+-]?[0-9]+)")


def stoll(text):
    match = STOLL.match(text)
    if not match:
        raise ArgumentError(f"Failed to parse int64 value from string '{text}'")
    return int(match.group(1))


def parse_values(spec, integers):
    """The values of an axis or device specification, as NVBench reads them."""
    convert = stoll if integers else str
    match = LIST_SPEC.search(spec)
    if match:
        return [convert(m.group(1)) for m in LIST_ITEM.finditer(match.group(1))]
    match = RANGE_SPEC.search(spec)
    if match:
        if not integers:
            raise ArgumentError(f"Cannot use range syntax for string or type axis: `{spec}`.")
        bounds = [stoll(m.group(1)) for m in RANGE_ITEM.finditer(match.group(1))]
        if len(bounds) not in (2, 3):
            raise ArgumentError(f"Expected 2 or 3 values for range specification: {spec}")
        first, last, stride = bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else 1
        return list(range(first, last + 1, stride))
    match = SINGLE_SPEC.search(spec)
    if match:
        return [convert(match.group(1))]
    raise ArgumentError(f"Invalid axis value spec: {spec}")


def update_devices(instance, spec):
    if spec == "all":
        instance.devices = [device["id"] for device in DEVICES]
        return
    ids = [device["id"] for device in DEVICES]
    devices = parse_values(spec, integers=True)
    for device in devices:
        if device not in ids:
            raise ArgumentError(f"Error handling option --devices `{spec}`: no device {device}")
    instance.devices = devices


def update_axis(instance, spec):
    match = AXIS_SPEC.search(spec)
    if not match:
        raise ArgumentError(f"Error handling option --axis `{spec}`: Bad format.")
    name, flags, values = match.group(1), match.group(2) or "", match.group(3)
    if name == "T":
        if flags:
            raise ArgumentError(f"Invalid flag for type axis: `{flags}`")
        types = parse_values(values, integers=False)
        for type_name in types:
            if type_name not in [t for t, _, _ in TYPES]:
                raise ArgumentError(f"Error handling option --axis `{spec}`: no type {type_name}")
        instance.types = types
    elif name == "Elements{io}":
        if flags not in ("", "pow2"):
            raise ArgumentError(f"Invalid flag for int64 axis: `{flags}`")
        instance.elements = [Elements(v, flags == "pow2")
                             for v in parse_values(values, integers=True)]
    else:
        raise ArgumentError(f"Error handling option --axis `{spec}`: no axis {name!r}")


def benchmark_instances(args):
    """The instances and the --jsonbin file of a command line of the
    benchmark, scoped as NVBench scopes it: -b adds an instance, -d and -a
    apply to the latest one, and those given before any -b to every one."""
    instances, global_args, jsonbin = [], [], None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg not in ("-b", "--benchmark", "-d", "--devices", "--device", "-a", "--axis",
                       "--jsonbin"):
            raise ArgumentError(f"Unrecognized command-line argument: `{arg}`")
        if not rest:
            raise ArgumentError(f"Expected parameter for argument {arg}")
        value = rest.pop(0)
        if arg == "--jsonbin":
            jsonbin = value
        elif arg in ("-b", "--benchmark"):
            try:
                index = stoll(value)
            except ArgumentError:
                index = -1
            if (index >= 0 and index != 0) or (index < 0 and value != BENCHMARK):
                raise ArgumentError(f"Error handling option --benchmark `{value}`")
            instances.append(Instance())
            apply_args(instances[-1], global_args)
        elif instances:
            apply_args(instances[-1], [arg, value])
        else:
            global_args += [arg, value]
    if not instances:
        instances.append(Instance())
        apply_args(instances[-1], global_args)
    if jsonbin is None:
        raise ArgumentError("no --jsonbin FILE (the example writes only JSON)")
    return instances, jsonbin


def apply_args(instance, args):
    for arg, value in zip(args[::2], args[1::2]):
        if arg in ("-a", "--axis"):
            update_axis(instance, value)
        else:
            update_devices(instance, value)


def plan_arguments(path):
    """The arguments of a rerun plan: its lines but the comments."""
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().split("\n")[:-1] if not line.startswith("#")]


def write_document(out_dir, stem, build, disturbed=None, args=None):
    for suffix in (".json-bin", ".json-freqs-bin"):
        shutil.rmtree(os.path.join(out_dir, stem + suffix), ignore_errors=True)
    side = Side(out_dir, stem, build, disturbed)
    if args is None:
        document = side.document()
    else:
        instances, _ = benchmark_instances(args)
        document = side.document(instances, [f"./bin/{BENCHMARK}"] + args)
    text = json.dumps(document, indent=2) + "\n"  # nlohmann's dump(2) layout
    with open(os.path.join(out_dir, side.json_name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def run_benchmark(argv):
    """`make_example.py bench BUILD ARGS...`: the benchmark of build BUILD
    (old, new or fix) run with NVBench's arguments ARGS, which name the
    result file with --jsonbin."""
    if not argv or argv[0] not in ("old", "new", "fix"):
        sys.exit("usage: make_example.py bench {old,new,fix} NVBENCH_ARGS... --jsonbin FILE.json")
    build, args = argv[0], argv[1:]
    try:
        _, jsonbin = benchmark_instances(args)
    except ArgumentError as e:
        sys.exit(f"make_example.py bench: {e}")
    if not jsonbin.endswith(".json"):
        sys.exit("make_example.py bench: the --jsonbin file must end in .json")
    out_dir = os.path.dirname(jsonbin) or "."
    stem = os.path.basename(jsonbin)[:-len(".json")]
    args = [a for a in args]
    write_document(out_dir, stem, build, disturbed=False, args=args)


# The reruns of the repetition example: what rerun-plan.txt (written by
# `nvbench-compare --rerun-plan`) re-measures, by each build twice, in
# separate processes (their noise is their own; no disturbance recurs).
RERUNS = [("r1", "old"), ("c1", "new"), ("r2", "old"), ("c2", "new")]


def main():
    if sys.argv[1:2] == ["bench"]:
        run_benchmark(sys.argv[2:])
        return
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=here, help="output directory (default: %(default)s)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    write_document(args.out, "reference", build="old")
    write_document(args.out, "compare", build="new")
    write_document(args.out, "compare-fix", build="fix")
    plan = plan_arguments(os.path.join(here, "rerun-plan.txt"))
    for stem, build in RERUNS:
        write_document(args.out, stem, build, disturbed=False,
                       args=plan + ["--jsonbin", f"{stem}.json"])


if __name__ == "__main__":
    main()
