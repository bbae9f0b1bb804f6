#!/usr/bin/env bash
# Checks an installation of the three commands: DIR is the directory that
# holds them (a virtual environment's bin, an unpacked release archive).
# Each runs on testdata/examples as the command it is named after, and the
# three take under 30 MB (or under MAX_BYTES: the tests run it on debug
# builds).
#
#   bash .github/release/check-install.sh DIR [MAX_BYTES]
set -euo pipefail

fail() {
    echo "check-install: $*" >&2
    exit 1
}

[[ $# == 1 || $# == 2 ]] || fail "usage: check-install.sh DIR [MAX_BYTES]"
dir=$(cd "$1" && pwd) || fail "no directory $1"
max_bytes=${2:-30000000}
cd "$(dirname "${BASH_SOURCE[0]}")/../../testdata/examples"

total=0
for command in nvbench-compare nvbench-compare-robust nvbench-compare-legacy; do
    [[ -x "$dir/$command" ]] || fail "$dir/$command is not installed"
    size=$(wc -c <"$dir/$command")
    total=$((total + size))
    echo "$command: $size bytes"
done
echo "the three commands: $total bytes"
((total < max_bytes)) || fail "the three commands take $total bytes, not under $max_bytes"

# nvbench-compare: NVBench 4fabe3f's script (its summary's SAME line), exit 0.
status=0
compare=$("$dir/nvbench-compare" --no-color reference.json compare.json) || status=$?
[[ $status == 0 ]] || fail "nvbench-compare exited with $status"
grep -qF 'Pass        (centers close and intervals overlap): 31' <<<"$compare" \
    || fail "nvbench-compare did not print 4fabe3f's summary"

# nvbench-compare-robust: NVBench's robust script (its SAME line), the same
# bytes as the robust personality chosen by option.
status=0
robust=$("$dir/nvbench-compare-robust" --no-color reference.json compare.json) || status=$?
[[ $status == 0 ]] || fail "nvbench-compare-robust exited with $status"
grep -qF 'Unchanged   (classified as SAME): 31' <<<"$robust" \
    || fail "nvbench-compare-robust did not print the robust script's summary"
by_option=$("$dir/nvbench-compare" --personality=robust --no-color reference.json compare.json)
[[ "$robust" == "$by_option" ]] \
    || fail "nvbench-compare-robust and nvbench-compare --personality=robust differ"

# nvbench-compare-legacy: the classic script, which prints the arguments it
# did not parse first and exits with the number of FAST and SLOW states.
status=0
legacy=$("$dir/nvbench-compare-legacy" --no-color reference.json compare.json) || status=$?
[[ $status == 32 ]] || fail "nvbench-compare-legacy exited with $status, not 32"
[[ "${legacy%%$'\n'*}" == "['reference.json', 'compare.json']" ]] \
    || fail "nvbench-compare-legacy did not print the classic script's first line"

echo "check-install: the three commands in $dir work"
