"""Replays the grid of `decision_quality.py` for one seed, running the binary
only at some drifts (the others are drawn, not written or judged, so the
draws stay those of the full run), with 3 and 5 runs a side: prints each
wrong-direction call on ±5/±10 % and the false FAST/SLOW count per cell.
A quick check of a rule change on the cells that decide the targets; the
shipped figures come from a full run of `decision_quality.py`.

    python3 benches/replay_cells.py SEED BINARY [DRIFT ...]   # drifts in %, default 0.5 5
"""
import sys, os, json, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decision_quality as dq
import random, tempfile, shutil
SEL = {float(d) / 100 for d in sys.argv[3:]} or {0.005, 0.05}
dq.binary_path = os.path.abspath(sys.argv[2])
orig_write = dq.write_run
def light_write(path, kernels, compare, process, setup, run, rng):
    count = setup.samples
    for kernel in kernels:
        dq.sample_times(kernel, process, compare, count, setup.shape, rng)
current = {}
tot = {}
def run_experiment(work, name, kernels, drift, setup, rng, scenario=None, pairs=range(5)):
    directory = os.path.join(work, name); os.makedirs(directory, exist_ok=True)
    sel = drift in SEL
    for run in range(5):
        for compare, prefix in ((False, "r"), (True, "c")):
            process = dq.Process(drift, rng)
            (orig_write if sel else light_write)(os.path.join(directory, "%s%d.json" % (prefix, run)), kernels, compare, process, setup, run, rng)
    results = {}
    if sel:
        for k in (3, 5):
            args = ["r%d.json" % i for i in range(k)] + ["--vs"] + ["c%d.json" % i for i in range(k)]
            out = subprocess.run([dq.binary_path, "--json", "-"] + args, cwd=directory, capture_output=True)
            doc = json.loads(out.stdout)
            for st in doc["states"]:
                kernel = kernels[int(st["state_key"].split("=")[1])]
                s = st["status"]
                key = (drift, k, kernel.kind)
                if kernel.change == 0:
                    tot.setdefault(key, [0, 0]); tot[key][0] += 1; tot[key][1] += s in ("FAST", "SLOW")
                elif abs(kernel.change) >= 0.05 and s == ("FAST" if kernel.change > 0 else "SLOW"):
                    print("WRONG", drift, k, kernel.kind, kernel.change, st["reason"]["code"], flush=True)
    shutil.rmtree(directory)
    current["n"] += 1
    fake = {}
    return None
def run_grid(args, rng, work):
    changes = [0.0] + [s * sign for s in dq.SIZES[1:] for sign in (1, -1)]
    for drift in dq.DRIFTS:
        current["n"] = 0
        for experiment in range(500):
            kernels = dq.kernels_for(changes, 2, rng)
            run_experiment(work, "grid", kernels, drift, dq.Setup(samples=64), rng)
        print("done drift", drift, file=sys.stderr, flush=True)
rng = random.Random(int(sys.argv[1]))
work = tempfile.mkdtemp(dir="/dev/shm")
run_grid(None, rng, work)

for key, (n, c) in sorted(tot.items()):
    print("FALSE", key, n, c, "%.1f" % (100.0 * c / n))
