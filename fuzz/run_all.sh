#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS seconds each (default 600) and
# keeps each run's log in fuzz/logs/. Extra arguments go to cargo fuzz
# (for example --target-dir DIR). Crashes land in fuzz/artifacts/<target>/.
set -u
cd "$(dirname "$0")"
seconds=${SECONDS_PER_TARGET:-600}
mkdir -p logs
rm -rf /dev/shm/nvbc-fuzz-* 2>/dev/null
[ -d corpus ] || python3 make_seeds.py
for target in ${TARGETS:-json_loader config sidecar pipeline}; do
  echo "=== $target: $seconds s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a "$@" "$target" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=2 -print_final_stats=1 >"logs/$target.log" 2>&1
  echo "exit $?"
  grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|SUMMARY|panicked|Test unit written' "logs/$target.log"
done
