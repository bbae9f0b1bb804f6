#!/usr/bin/env bash
# End-to-end benchmark: nvbench-compare (this crate) vs. the Python reference
# nvbench_compare.py on large generated NVBench result pairs.  See benches/README.md.
#
#   benches/run.sh
#   NVBENCH_COMPARE_REF=/path/to/nvbench/python/scripts/nvbench_compare.py benches/run.sh
#
# Environment:
#   NVBENCH_COMPARE_REF  reference script; timed only if set and python3 can import
#                        numpy, tabulate, colorama and jsondiff
#   BENCH_ROUNDS_OURS    timed runs of our binary per pair (default 5)
#   BENCH_ROUNDS_REF     timed runs of the reference per pair (default 3)
#   BENCH_ROUNDS_SMALL   timed runs of our binary for pairs of at most 500 states (default 30)
#   BENCH_PAIRS          subset of pairs by name, space separated (default: all), or explicit
#                        name:states:samples[:runs] specs, e.g. for a quick smoke test:
#                        "small-60:60:0 summary-10k:500:0 summary-20k:1000:0 bulk-1k:50:1000 bulk-2k:100:1000"
#                        runs > 1 makes a repetition pair: runs generated reruns a side, compared
#                        as `R1 .. Rk --vs C1 .. Ck` (skipped when the binary has no --vs)
#   BENCH_DATA_DIR       where inputs, outputs and raw results go (default target/bench-data)
#   BENCH_GEN_ARGS       extra gen_inputs.py arguments, e.g. "--compact" (part of the cache key)
#   BENCH_ARGS           extra arguments passed to both tools (default: none)
#   BENCH_WARM_EACH=1    read the pair's files again before every timed run of either tool
#                        (outside the timed region), not only once per pair: on a machine that
#                        reclaims idle page cache (DAMON), the bulk pairs' sidecars otherwise
#                        come partly from disk and the timing measures the disk
#   BENCH_FRESH_TIMER=1  start the timing wrapper (benches/timer.py) afresh for every run
#                        instead of one warm process for the whole run
#   BENCH_SKIP_BUILD=1   do not run cargo build; use NVBENCH_COMPARE_BIN or target/release
#   NVBENCH_COMPARE_BIN  binary to time (default target/release/nvbench-compare)
#   BENCH_COMMIT         commit id to print instead of `git rev-parse --short HEAD`
#   PYTHON               python interpreter (default python3)
#   GBENCH_COMPARE_PY    google/benchmark's tools/compare.py: when set, benches/gbench.sh
#                        times --display gbench against it at the end
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PY=${PYTHON:-python3}
DATA=${BENCH_DATA_DIR:-$ROOT/target/bench-data}
ROUNDS_OURS=${BENCH_ROUNDS_OURS:-5}
ROUNDS_REF=${BENCH_ROUNDS_REF:-3}
ROUNDS_SMALL=${BENCH_ROUNDS_SMALL:-30}
REF=${NVBENCH_COMPARE_REF:-}
GEN=$HERE/gen_inputs.py
GEN_ARGS=${BENCH_GEN_ARGS:-}
read -r -a TOOL_ARGS <<<"${BENCH_ARGS:-}"

# name:states:samples[:runs]   (samples 0 = summary-only; runs > 1 = repetition pair)
ALL_PAIRS="small-60:60:0 summary-10k:10000:0 summary-20k:20000:0 bulk-1k:1000:10000 bulk-2k:2000:10000 bulk-1k-x3:1000:10000:3"
PAIRS=()
if [[ "${BENCH_PAIRS:-}" == *:* ]]; then
  read -r -a PAIRS <<<"$BENCH_PAIRS" # explicit name:states:samples specs (smoke tests)
else
  for spec in $ALL_PAIRS; do
    if [[ -z "${BENCH_PAIRS:-}" || " $BENCH_PAIRS " == *" ${spec%%:*} "* ]]; then
      PAIRS+=("$spec")
    fi
  done
fi
if ((${#PAIRS[@]} == 0)); then
  echo "BENCH_PAIRS='${BENCH_PAIRS:-}' selects none of: $ALL_PAIRS" >&2
  exit 2
fi

# Same conditions for both tools: the reference ignores NO_COLOR, ours honours it.
unset NO_COLOR
export LC_ALL=C.UTF-8 COLUMNS=80

mkdir -p "$DATA/out" "$DATA/results"
DATA=$(cd "$DATA" && pwd)
if [[ -n "$REF" && -f "$REF" ]]; then # the tools run in each pair's directory
  REF=$(cd "$(dirname "$REF")" && pwd)/$(basename "$REF")
fi
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS=$DATA/results/$STAMP.tsv
LOG=$DATA/results/$STAMP.log
STATUS=$DATA/results/$STAMP.status
: >"$STATUS"
printf 'pair\tstates\tsamples\ttool\tround\twall_s\tmaxrss_kb\texit\tuser_s\tsys_s\tloadavg\n' >"$RESULTS"

log() { printf '%s\n' "$*" | tee -a "$LOG"; }

# Runs a command in a directory, stdout to a file; sets MEASURED to
# "wall_s maxrss_kb exit user_s sys_s" (see benches/timer.py). One timing
# process serves the whole run (BENCH_FRESH_TIMER=1: a fresh one per run,
# whose own cold start adds about 0.7 ms to every run).
FRESH_TIMER=${BENCH_FRESH_TIMER:-0}
if [[ "$FRESH_TIMER" == 1 ]]; then
  measure() { MEASURED=$("$PY" "$HERE/timer.py" "$@"); }
else
  coproc TIMER { "$PY" "$HERE/timer.py" --serve; }
  measure() {
    local arg
    for arg in "$@"; do
      if [[ "$arg" == *$'\n'* ]]; then
        echo "run.sh: an argument holds a newline, which the timer cannot take: $arg" >&2
        exit 2
      fi
    done
    printf '%s\n' "$#" "$@" >&"${TIMER[1]}"
    if ! read -r MEASURED <&"${TIMER[0]}"; then
      echo "run.sh: the timing process (benches/timer.py --serve) stopped" >&2
      exit 1
    fi
  }
fi

# ---------------------------------------------------------------- header
cpu_model=$( (lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1) || true)
[[ -n "$cpu_model" ]] || cpu_model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1 || true)
[[ -n "$cpu_model" ]] || cpu_model=$(sysctl -n machdep.cpu.brand_string 2>/dev/null || echo unknown)
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
commit=${BENCH_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}

log "# nvbench-compare benchmark  ($STAMP)"
log "commit:   $commit"
log "host:     $(uname -srm), $ncpu CPUs, $cpu_model"
log "load:     $(uptime 2>/dev/null || cat /proc/loadavg)"
log "rustc:    $(rustc --version 2>/dev/null || echo '?')  (cargo build --release; profile.release in Cargo.toml)"
log "python:   $($PY --version 2>&1)"
WARM_EACH=${BENCH_WARM_EACH:-0}
if [[ "$WARM_EACH" == 1 ]]; then warmed="before each timed run of either tool"; else warmed="before each pair"; fi
log "rounds:   ours $ROUNDS_OURS, reference $ROUNDS_REF (alternating A,B,A,B; page cache warmed $warmed)"
log "data:     $DATA   raw results: $RESULTS"
if [[ "$FRESH_TIMER" == 1 ]]; then
  log "timer:    a fresh benches/timer.py per run (BENCH_FRESH_TIMER=1)"
else
  log "timer:    one benches/timer.py process for every run"
fi
# Peak RSS is read from wait4's rusage; Linux keeps the forking Python wrapper's
# pre-exec RSS in it, so values near this floor are not meaningful.
measure "$DATA/out/rss-floor.txt" . true
rss_floor=$(cut -d' ' -f2 <<<"$MEASURED")
rm -f "$DATA/out/rss-floor.txt" "$DATA/out/rss-floor.txt.stderr"
log "rss floor: $(awk "BEGIN{printf \"%.1f\", $rss_floor/1024}") MB (peak RSS of \`true\` through the timing wrapper)"
# The wrapper's own fork/exec/wait cost is in every wall time; small pairs are near it.
# (Measured here, not in a subshell: the timing process's pipes are this shell's.)
floor_walls=()
for _ in $(seq 20); do
  measure "$DATA/out/spawn-floor.txt" . true
  floor_walls+=("${MEASURED%% *}")
done
spawn_floor=$(printf '%s\n' "${floor_walls[@]}" | sort -n | sed -n 10p)
rm -f "$DATA/out/spawn-floor.txt" "$DATA/out/spawn-floor.txt.stderr"
log "spawn floor: $(awk "BEGIN{printf \"%.2f\", $spawn_floor*1000}") ms (median wall time of \`true\` through the timing wrapper)"

# ---------------------------------------------------------------- build
BIN=${NVBENCH_COMPARE_BIN:-$ROOT/target/release/nvbench-compare}
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  log "build:    cargo build --release"
  if ! (cd "$ROOT" && cargo build --release) >>"$LOG" 2>&1; then
    echo "cargo build --release failed (log: $LOG); set BENCH_SKIP_BUILD=1 to time an existing binary" >&2
    tail -n 20 "$LOG" >&2
    exit 1
  fi
fi
if [[ ! -x "$BIN" ]]; then
  echo "binary not found: $BIN" >&2
  exit 1
fi
# Time a private copy, so a concurrent `cargo build` cannot swap the binary mid-run.
mkdir -p "$DATA/bin"
cp "$BIN" "$DATA/bin/nvbench-compare"
bin_sum=$( (sha256sum "$DATA/bin/nvbench-compare" 2>/dev/null || shasum -a 256 "$DATA/bin/nvbench-compare") | cut -c1-12)
log "binary:   $BIN ($(stat -c '%y' "$BIN" 2>/dev/null | cut -d. -f1 || echo '?'), sha256 $bin_sum), timed as $DATA/bin/nvbench-compare"
BIN=$DATA/bin/nvbench-compare
HAS_VS=0 # repetition pairs need the --vs option
if "$BIN" --help 2>/dev/null | grep -q -- '--vs'; then HAS_VS=1; fi

# ---------------------------------------------------------------- reference
HAVE_REF=0
if [[ -z "$REF" ]]; then
  log "reference: not timed (set NVBENCH_COMPARE_REF=/path/to/nvbench_compare.py)"
elif [[ ! -f "$REF" ]]; then
  log "reference: not timed ($REF does not exist)"
elif ! "$PY" -c 'import numpy, tabulate, colorama, jsondiff' 2>/dev/null; then
  log "reference: not timed ($PY cannot import numpy, tabulate, colorama, jsondiff)"
else
  HAVE_REF=1
  log "reference: $REF ($("$PY" -c 'import numpy, tabulate; print("numpy", numpy.__version__, "tabulate", tabulate.__version__)'))"
fi
log ""

# ---------------------------------------------------------------- inputs
gen_key() {
  local states=$1 samples=$2
  printf '%s states=%s samples=%s args=%s\n' \
    "$( (sha256sum "$GEN" 2>/dev/null || shasum -a 256 "$GEN") | cut -d' ' -f1)" \
    "$states" "$samples" "$GEN_ARGS"
}

for spec in "${PAIRS[@]}"; do
  IFS=: read -r name states samples runs <<<"$spec"
  runs=${runs:-1}
  dir=$DATA/$name
  key="$(gen_key "$states" "$samples") runs=$runs"
  if ((runs > 1 && !HAS_VS)); then
    log "inputs:   $name not generated (a repetition pair; the binary has no --vs option)"
    continue
  fi
  if [[ -f "$dir/.stamp" && "$(cat "$dir/.stamp")" == "$key" ]]; then
    log "inputs:   $name cached"
    continue
  fi
  rm -f "$dir/.stamp"
  mkdir -p "$dir"
  t0=$(date +%s)
  if ((runs == 1)); then
    # shellcheck disable=SC2086
    "$PY" "$GEN" --states "$states" --samples "$samples" --out "$dir" $GEN_ARGS 2>&1 | tee -a "$LOG"
  else
    for ((r = 1; r <= runs; r++)); do # the same states and changes, new noise per rerun
      # shellcheck disable=SC2086
      "$PY" "$GEN" --states "$states" --samples "$samples" --out "$dir/run-$r" --rerun $((r - 1)) \
        $GEN_ARGS 2>&1 | tee -a "$LOG"
    done
  fi
  printf '%s\n' "$key" >"$dir/.stamp"
  log "inputs:   $name generated in $(($(date +%s) - t0)) s"
done
log ""

# ---------------------------------------------------------------- runs
run_one() { # pair states samples tool round dir out -- cmd...
  local pair=$1 states=$2 samples=$3 tool=$4 round=$5 dir=$6 out=$7
  shift 8
  local load res
  if [[ "$WARM_EACH" == 1 ]]; then
    find "$dir" -type f -exec cat {} + >/dev/null
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null | tr ' ' '/' || echo '?')
  measure "$out" "$dir" "$@"
  read -r wall rss code user sys <<<"$MEASURED"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$pair" "$states" "$samples" "$tool" "$round" "$wall" "$rss" "$code" "$user" "$sys" "$load" >>"$RESULTS"
  printf '  %-5s #%s  %8.3f s  %7.1f MB  exit %s  load %s\n' \
    "$tool" "$round" "$wall" "$(awk "BEGIN{print $rss/1024}")" "$code" "$load" | tee -a "$LOG"
  if [[ "$code" != 0 ]]; then
    log "  !! $tool exited with status $code; stderr:"
    head -n 5 "$out.stderr" | tee -a "$LOG"
    printf '%s\t%s\tFAILED(%s exit %s)\n' "$pair" "$tool" "$tool" "$code" >>"$STATUS"
  fi
}

for spec in "${PAIRS[@]}"; do
  IFS=: read -r name states samples runs <<<"$spec"
  runs=${runs:-1}
  dir=$DATA/$name
  if ((runs > 1 && !HAS_VS)); then
    log "== $name: skipped (a repetition pair, and $BIN has no --vs option)"
    printf '%s\tours\tskipped(no --vs)\n' "$name" >>"$STATUS"
    log ""
    continue
  fi
  log "== $name: $states states, $( ((samples > 0)) && echo "$samples samples/state in sidecars" || echo summary-only)$( ((runs > 1)) && echo ", $runs runs a side (--vs)")"
  # Warm the page cache so neither tool pays for the first read from disk.
  find "$dir" -type f -exec cat {} + >/dev/null
  rounds_ours=$ROUNDS_OURS
  ((states <= 500)) && rounds_ours=$ROUNDS_SMALL
  maxr=$rounds_ours
  if ((HAVE_REF && ROUNDS_REF > maxr)); then maxr=$ROUNDS_REF; fi
  # What each tool is given. A repetition pair is timed three ways: ours pooled over every
  # run ("ours"), ours on the first run pair alone ("ours1", its per-run yardstick) and the
  # reference on that first pair (it cannot pool runs); outputs are checked on the first pair.
  ours_args=(ref.json cmp.json)
  one_args=()
  if ((runs > 1)); then
    ours_args=()
    for ((r = 1; r <= runs; r++)); do ours_args+=("run-$r/ref.json"); done
    ours_args+=(--vs)
    for ((r = 1; r <= runs; r++)); do ours_args+=("run-$r/cmp.json"); done
    one_args=(run-1/ref.json run-1/cmp.json)
  fi
  ref_args=("${ours_args[@]}")
  ((runs > 1)) && ref_args=("${one_args[@]}")
  ours_first=$DATA/out/$name.ours.txt
  one_first=$DATA/out/$name.ours1.txt
  ref_first=$DATA/out/$name.ref.txt
  for ((i = 1; i <= maxr; i++)); do
    if ((i <= rounds_ours)); then
      out=$DATA/out/$name.ours.run.txt
      ((i == 1)) && out=$ours_first
      run_one "$name" "$states" "$samples" ours "$i" "$dir" "$out" -- \
        "$BIN" ${TOOL_ARGS[@]+"${TOOL_ARGS[@]}"} "${ours_args[@]}"
      if ((i > 1)) && ! cmp -s "$out" "$ours_first"; then
        log "  !! ours: output of run $i differs from run 1 (non-deterministic)"
        printf '%s\tours\tNONDETERMINISTIC\n' "$name" >>"$STATUS"
      fi
      if ((runs > 1)); then
        out=$DATA/out/$name.ours1.run.txt
        ((i == 1)) && out=$one_first
        run_one "$name" "$states" "$samples" ours1 "$i" "$dir" "$out" -- \
          "$BIN" ${TOOL_ARGS[@]+"${TOOL_ARGS[@]}"} "${one_args[@]}"
      fi
    fi
    if ((HAVE_REF && i <= ROUNDS_REF)); then
      out=$DATA/out/$name.ref.run.txt
      ((i == 1)) && out=$ref_first
      run_one "$name" "$states" "$samples" ref "$i" "$dir" "$out" -- \
        "$PY" "$REF" ${TOOL_ARGS[@]+"${TOOL_ARGS[@]}"} "${ref_args[@]}"
    fi
  done
  rm -f "$DATA/out/$name".*.run.txt "$DATA/out/$name".*.run.txt.stderr
  checked=$ours_first
  ((runs > 1)) && checked=$one_first
  if ((HAVE_REF)); then
    if cmp -s "$checked" "$ref_first"; then
      log "  output: identical to the reference ($(wc -l <"$checked") lines, $(wc -c <"$checked") bytes)"
      printf '%s\tdiff\tidentical\n' "$name" >>"$STATUS"
    else
      log "  !!!!!!!! OUTPUT DIFFERENT from the reference: $ref_first vs $checked"
      diff "$ref_first" "$checked" | head -n 20 | tee -a "$LOG" || true
      printf '%s\tdiff\tDIFFERENT\n' "$name" >>"$STATUS"
    fi
  fi
  log ""
done
log "load at end: $(uptime 2>/dev/null || cat /proc/loadavg)"
log ""

# ---------------------------------------------------------------- table
"$PY" - "$RESULTS" "$STATUS" "$DATA" "${PAIRS[@]}" <<'PYEOF' | tee -a "$LOG"
import csv, os, statistics, sys

results, status_file, data = sys.argv[1:4]
pairs = [(s.split(":") + ["1"])[:4] for s in sys.argv[4:]]
runs = {}
with open(results, newline="") as f:
    for r in csv.DictReader(f, delimiter="\t"):
        if r["exit"] == "0":
            runs.setdefault((r["pair"], r["tool"]), []).append(r)
status = {}
with open(status_file) as f:
    for line in f:
        pair, what, value = line.rstrip("\n").split("\t")
        status.setdefault(pair, []).append(value)


def summary(pair, tool):
    rs = runs.get((pair, tool))
    if not rs:
        return None
    walls = sorted(float(r["wall_s"]) for r in rs)
    cpu = statistics.median(float(r["user_s"]) + float(r["sys_s"]) for r in rs)
    rss = max(int(r["maxrss_kb"]) for r in rs) / 1024.0
    return statistics.median(walls), walls[0], walls[-1], rss, len(walls), cpu


def mb(n):
    return n / 1e6


rows, info, reps = [], {}, []
for name, states, samples, n_runs in pairs:
    n_runs = int(n_runs)
    d = os.path.join(data, name) if n_runs == 1 else os.path.join(data, name, "run-1")
    if not os.path.exists(os.path.join(d, "ref.json")):
        rows.append([name, states, "-", "skipped"] + ["-"] * 8 + [",".join(status.get(name, []))])
        continue
    json_bytes = max(os.path.getsize(os.path.join(d, f"{s}.json")) for s in ("ref", "cmp"))
    side_bytes = 0
    for sub in ("ref.json-bin", "ref.json-freqs-bin", "cmp.json-bin", "cmp.json-freqs-bin"):
        p = os.path.join(d, sub)
        if os.path.isdir(p):
            side_bytes += sum(e.stat().st_size for e in os.scandir(p))
    o, r = summary(name, "ours"), summary(name, "ref")
    # The reference cannot pool runs: it is timed on one run pair, and k runs cost it k times that.
    ref_scale = n_runs
    info[name] = (int(states), o, r, json_bytes)
    if n_runs > 1:
        reps.append((name, n_runs, o, summary(name, "ours1"), r))
    size = f"{mb(json_bytes):.1f}" + (f" (+{mb(side_bytes):.0f} bin)" if side_bytes else "")
    size += f" x{n_runs} runs" if n_runs > 1 else ""
    rows.append([
        name, states, size,
        f"{o[0]:.3f} [{o[1]:.3f}-{o[2]:.3f}] n={o[4]}" if o else "n/a",
        f"{o[5]:.2f}" if o else "n/a",
        f"{o[3]:.0f}" if o else "n/a",
        f"{r[0]:.2f} [{r[1]:.2f}-{r[2]:.2f}] n={r[4]}" if r else "-",
        f"{r[5]:.2f}" if r else "-",
        f"{r[3]:.0f}" if r else "-",
        f"{ref_scale * r[0] / o[0]:.1f}x" if (o and r) else "-",
        f"{ref_scale * r[5] / o[5]:.1f}x" if (o and r and o[5] > 0) else "-",
        f"{o[3] * 1024 * 1024 / json_bytes:.2f}" if o else "n/a",
        ",".join(status.get(name, [])) or ("-" if not r else "?"),
    ])

head = ["pair", "states", "JSON MB", "ours wall s: median [min-max]", "ours CPU s", "ours RSS MB",
        "ref wall s: median [min-max]", "ref CPU s", "ref RSS MB", "speedup", "CPU speedup",
        "RSS/JSON", "output vs ref"]
w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
print("| " + " | ".join(h.ljust(n) for h, n in zip(head, w)) + " |")
print("|" + "|".join("-" * (n + 2) for n in w) + "|")
for row in rows:
    print("| " + " | ".join(str(c).ljust(n) for c, n in zip(row, w)) + " |")
print()
print("JSON MB = larger of ref.json/cmp.json (+ total sidecar MB).  wall = elapsed time;")
print("CPU = median user+sys time; RSS = max peak RSS over runs; speedup = reference median /")
print("ours median (wall, CPU); RSS/JSON = ours peak RSS / larger input JSON.  On a loaded")
print("machine CPU time is the steadier number; wall time is what users see.  For a pair of")
print("k runs a side (xk), the reference is timed on the first run pair and counted k times.")
print()
if reps:
    print("Repetition mode (ours pooled over k runs a side vs ours on one run pair):")
    for name, k, pooled, one, r in reps:
        if pooled and one:
            ratio = pooled[5] / (k * one[5]) if one[5] > 0 else float("nan")
            print(f"  {name}: pooled {pooled[0]:.3f} s wall, {pooled[5]:.2f} s CPU; one run pair "
                  f"{one[0]:.3f} s wall, {one[5]:.2f} s CPU; pooled CPU / (k x one) = {ratio:.2f} "
                  f"(target about 1, at most 1.1): " + ("met" if ratio <= 1.1 else "NOT met"))
    print()
lin = []
for small, large in (("summary-10k", "summary-20k"), ("bulk-1k", "bulk-2k")):
    if small not in info or large not in info:
        continue
    for tool, idx in (("ours", 1), ("ref", 2)):
        a, b = info[small][idx], info[large][idx]
        if not a or not b:
            continue
        na, nb = info[small][0], info[large][0]
        for label, k in (("wall", 0), ("CPU ", 5)):
            pa, pb = a[k] / na * 1e6, b[k] / nb * 1e6
            lin.append(f"  {tool:4} {label} {small:>11} {pa:9.1f} us/state  {large:>11} "
                       f"{pb:9.1f} us/state  ratio {pb / pa:.2f}")
if lin:
    print("Linearity (median time per state at two sizes; ratio 1.00 = linear):")
    print("\n".join(lin))
    print()
targets = []
if "summary-20k" in info and info["summary-20k"][1]:
    _, o, r, jb = info["summary-20k"]
    if r:
        targets.append(f"summary-20k speedup {r[0] / o[0]:.1f}x wall, {r[5] / o[5]:.1f}x CPU "
                       "(target >= 100x): " + ("met" if r[0] / o[0] >= 100 else "NOT met"))
    ratio = o[3] * 1024 * 1024 / jb
    targets.append(f"summary-20k peak RSS {ratio:.2f}x the larger input JSON (target <= 1.5x): "
                   + ("met" if ratio <= 1.5 else "NOT met"))
if "small-60" in info and info["small-60"][1]:
    o = info["small-60"][1]
    targets.append(f"small-60 whole process {o[0] * 1000:.2f} ms wall median, including the "
                   "timing wrapper's spawn floor (target < 3 ms): "
                   + ("met" if o[0] < 0.003 else "NOT met"))
if "bulk-2k" in info and info["bulk-2k"][1] and info["bulk-2k"][2]:
    _, o, r, _ = info["bulk-2k"]
    targets.append(f"bulk-2k speedup {r[0] / o[0]:.1f}x wall, {r[5] / o[5]:.1f}x CPU "
                   "(target >= 30x): " + ("met" if r[0] / o[0] >= 30 else "NOT met"))
if targets:
    print("Targets (from the issue):")
    for t in targets:
        print("  " + t)
    print()
bad = [f"{p}: {v}" for p, vs in status.items() for v in vs
       if v != "identical" and not v.startswith("skipped")]
if bad:
    print("PROBLEMS: " + "; ".join(bad))
PYEOF

log "raw results: $RESULTS"
log "outputs:     $DATA/out/<pair>.{ours,ref}.txt"
GBENCH_FAILED=0
if [[ -n "${GBENCH_COMPARE_PY:-}" ]]; then
  log ""
  log "Google Benchmark input (benches/gbench.sh):"
  BENCH_SKIP_BUILD=1 BENCH_DATA_DIR="${BENCH_DATA_DIR:-$ROOT/target/bench-data}" \
    "$HERE/gbench.sh" 2>&1 | tee -a "$LOG" || GBENCH_FAILED=1
fi
if grep -qE 'DIFFERENT|FAILED|NONDETERMINISTIC' "$STATUS" || ((GBENCH_FAILED)); then
  exit 1
fi
