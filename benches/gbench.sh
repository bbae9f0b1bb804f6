#!/usr/bin/env bash
# Google Benchmark input: nvbench-compare --display gbench against google/benchmark's
# tools/compare.py on a generated 1,000-benchmark, 10-repetition pair (14,000 entries,
# about 6 MB a file, benches/gen_gbench.py). Checks that both print the same bytes and
# reports the medians and the speed ratio (the target: >= 50x in one run).
#
#   benches/gbench.sh
#   GBENCH_COMPARE_PY=/path/to/benchmark/tools/compare.py benches/gbench.sh
#
# Environment:
#   GBENCH_COMPARE_PY    compare.py; timed only if set and python3 imports numpy and scipy
#   BENCH_ROUNDS_OURS    timed runs of our binary (default 10)
#   BENCH_ROUNDS_REF     timed runs of compare.py (default 1)
#   BENCH_DATA_DIR       where the pair goes (default target/bench-data)
#   NVBENCH_COMPARE_BIN  binary to time (default target/release/nvbench-compare, built unless
#                        BENCH_SKIP_BUILD=1)
#   PYTHON               python interpreter (default python3)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PY=${PYTHON:-python3}
DATA=${BENCH_DATA_DIR:-$ROOT/target/bench-data}/gbench-1000x10
ROUNDS_OURS=${BENCH_ROUNDS_OURS:-10}
ROUNDS_REF=${BENCH_ROUNDS_REF:-1}
REF=${GBENCH_COMPARE_PY:-}
BIN=${NVBENCH_COMPARE_BIN:-$ROOT/target/release/nvbench-compare}

if [[ -z "${BENCH_SKIP_BUILD:-}" && -z "${NVBENCH_COMPARE_BIN:-}" ]]; then
  (cd "$ROOT" && cargo build --release --quiet)
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
if [[ ! -f "$DATA/ref.json" || "$HERE/gen_gbench.py" -nt "$DATA/ref.json" ]]; then
  "$PY" "$HERE/gen_gbench.py" pair --benchmarks 1000 --reps 10 --seed 1 "$DATA"
fi
cd "$DATA"
export LC_ALL=C.UTF-8 COLUMNS=80

# Median wall time of N runs of a command (stdout to a file).
median_wall() {
  local rounds=$1 out=$2
  shift 2
  "$PY" - "$rounds" "$out" "$@" <<'PYEOF'
import statistics, subprocess, sys, time
rounds, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
walls = []
for _ in range(rounds):
    with open(out, "wb") as so:
        start = time.perf_counter()
        subprocess.run(cmd, stdout=so, stderr=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
print("%.4f" % statistics.median(walls))
PYEOF
}

ours=$(median_wall "$ROUNDS_OURS" ours.txt "$BIN" --display gbench --no-color ref.json cmp.json)
echo "nvbench-compare --display gbench: ${ours} s (median of $ROUNDS_OURS), $(wc -l <ours.txt) lines"
if [[ -z "$REF" ]]; then
  echo "compare.py not timed: set GBENCH_COMPARE_PY to google/benchmark's tools/compare.py"
  exit 0
fi
if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
  echo "compare.py not timed: $PY cannot import numpy and scipy (pip install numpy scipy)"
  exit 0
fi
ref=$(median_wall "$ROUNDS_REF" ref.txt "$PY" "$REF" --no-color benchmarks ref.json cmp.json)
echo "compare.py: ${ref} s (median of $ROUNDS_REF)"
if cmp -s ours.txt ref.txt; then
  echo "outputs: identical"
else
  echo "outputs: DIFFERENT (see $DATA/ours.txt and $DATA/ref.txt)"
  exit 1
fi
"$PY" -c "import sys; print('speed ratio: %.0fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$ref" "$ours"
