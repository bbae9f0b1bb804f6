#!/usr/bin/env bash
# The logic of the composite GitHub Action (action.yml at the repository's
# root): get nvbench-compare, compare, report, and exit with the gate's code.
#
# Every input comes in an environment variable (action.yml maps each input
# to `INPUT_` and its name in capitals, dashes as underscores); none is
# ever pasted into code. Lists are one item a line, so a path may hold
# spaces.
#
#   INPUT_BASELINE     the baseline: a file or directory, or several runs
#                      (repetitions), one path a line
#   INPUT_CANDIDATE    the candidate, the same way; a line `--vs` starts
#                      another candidate group (N-way)
#   INPUT_FAIL_ON      --fail-on categories (`slow,missing`); `none` or
#                      empty: report without gating
#   INPUT_PERSONALITY  compare (default) or robust
#   INPUT_VERSION      the release to install (`0.1.0` or `v0.1.0`); empty:
#                      the version of this checkout's Cargo.toml; `source`:
#                      build this checkout with cargo
#   INPUT_SHA256       optional: the SHA-256 the release archive must have
#                      (on top of the release's SHA256SUMS)
#   INPUT_BINARY       optional: an nvbench-compare binary to run as it is
#                      (nothing is installed)
#   INPUT_ARGS         optional: more options, one a line (`--preset strict`
#                      is two lines: `--preset`, `strict`)
#   INPUT_OUTPUT_DIR   optional: where the reports go (default: a new
#                      directory under $RUNNER_TEMP)
#   INPUT_REPOSITORY   optional: OWNER/NAME of the releases (default: the
#                      action's own repository)
#
# Also read: GITHUB_STEP_SUMMARY (the markdown summary is appended),
# GITHUB_OUTPUT (outputs `report`, `markdown`, `verdict`, `exit-code`),
# GITHUB_PATH (the installed commands' directory is added), RUNNER_TEMP,
# RUNNER_TOOL_CACHE, GITHUB_SERVER_URL, GITHUB_ACTION_PATH and
# NVBC_ACTION_REPOSITORY (github.action_repository, often empty in a
# composite action).
#
# Exit status: the comparison's (0 passed or not gated, 3 the gate failed,
# 1 or 2 an error of the tool, see the README); 2 for an invalid input, 1
# when nothing could be installed.
#
# Written for bash 3.2 as well (macOS's /bin/bash): no namerefs, and an
# array that may be empty is expanded as ${a[@]+"${a[@]}"} under `set -u`.
set -euo pipefail

# The log's stdout, for annotations written from inside $(...).
exec 3>&1

action_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# A workflow command's data with the characters the runner decodes escaped.
escape_data() {
    local s=$1
    s=${s//'%'/'%25'}
    s=${s//$'\r'/'%0D'}
    s=${s//$'\n'/'%0A'}
    printf '%s' "$s"
}

# An error annotation and its line in the log, then the exit status $1.
die() {
    local status=$1
    shift
    echo "::error title=nvbench-compare::$(escape_data "$*")" >&3
    echo "nvbench-compare action: error: $*" >&2
    exit "$status"
}

note() {
    echo "nvbench-compare action: $*" >&2
}

# A fresh random word (for delimiters and stop-commands tokens).
random_word() {
    od -An -N16 -tx1 /dev/urandom | tr -d ' \n'
}

# Writes NAME=VALUE to $GITHUB_OUTPUT in the delimiter form, which holds any
# value, newlines included.
set_output() {
    local name=$1 value=$2 delimiter
    [[ -n "${GITHUB_OUTPUT:-}" ]] || return 0
    delimiter="ghadelimiter_$(random_word)"
    while [[ "$value" == *"$delimiter"* ]]; do
        delimiter="ghadelimiter_$(random_word)"
    done
    printf '%s<<%s\n%s\n%s\n' "$name" "$delimiter" "$value" "$delimiter" >>"$GITHUB_OUTPUT"
}

# The non-empty lines of $1, without blanks (a carriage return included)
# around them, into the array LINES.
read_lines() {
    local text=$1 line
    LINES=()
    while IFS= read -r line || [[ -n "$line" ]]; do
        line=${line#"${line%%[![:space:]]*}"}
        line=${line%"${line##*[![:space:]]}"}
        if [[ -n "$line" ]]; then LINES+=("$line"); fi
    done <<<"$text"
}

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum -- "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 -- "$1" | cut -d' ' -f1
    else
        die 1 "neither sha256sum nor shasum is installed: cannot verify the download"
    fi
}

# The Rust target of the release archive for this machine.
release_target() {
    local os arch
    os=$(uname -s)
    arch=$(uname -m)
    case "$arch" in
        x86_64 | amd64) arch=x86_64 ;;
        aarch64 | arm64) arch=aarch64 ;;
        *) die 1 "no release is built for the $arch processor; use version: source" ;;
    esac
    case "$os" in
        Linux) echo "$arch-unknown-linux-musl" ;;
        Darwin) echo "$arch-apple-darwin" ;;
        *) die 1 "no release is built for $os (nvbench-compare runs on Linux and macOS); run this step on a Linux or macOS runner" ;;
    esac
}

# OWNER/NAME of the repository whose releases are installed.
release_repository() {
    if [[ -n "${INPUT_REPOSITORY:-}" ]]; then
        echo "$INPUT_REPOSITORY"
    elif [[ -n "${NVBC_ACTION_REPOSITORY:-}" ]]; then
        echo "$NVBC_ACTION_REPOSITORY"
    elif [[ "${GITHUB_ACTION_PATH:-}" =~ /_actions/([^/]+)/([^/]+)/[^/]+$ ]]; then
        # The runner checks an action out at _actions/OWNER/NAME/REF.
        echo "${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
    else
        die 2 "cannot tell which repository's releases to install: set the repository input (OWNER/NAME), or version: source"
    fi
}

# The version of this checkout's Cargo.toml (the [package] one).
own_version() {
    local line
    while IFS= read -r line; do
        if [[ "$line" =~ ^version[[:space:]]*=[[:space:]]*\"([^\"]+)\" ]]; then
            echo "${BASH_REMATCH[1]}"
            return
        fi
    done <"$action_root/Cargo.toml"
    die 1 "no version in $action_root/Cargo.toml"
}

# Downloads URL $1 to FILE $2; $3, if any, is added to the error.
download() {
    command -v curl >/dev/null 2>&1 || die 1 "curl is not installed: cannot download $1"
    curl --fail --silent --show-error --location --retry 3 --output "$2" -- "$1" \
        || die 1 "cannot download $1${3:+ $3}"
}

# Installs release $1 (without a `v`) and prints the nvbench-compare binary.
install_release() {
    local version=$1 repository target asset base work expected actual dir
    repository=$(release_repository)
    [[ "$repository" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] \
        || die 2 "the repository input is not OWNER/NAME: $repository"
    target=$(release_target)
    asset="nvbench-compare-v$version-$target"
    dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}/nvbench-compare/$version/$target"
    if [[ -x "$dir/$asset/nvbench-compare" && -z "${INPUT_SHA256:-}" ]]; then
        note "nvbench-compare $version is already installed in $dir"
        echo "$dir/$asset/nvbench-compare"
        return
    fi
    base="${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download/v$version"
    work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/nvbench-compare-download.XXXXXX")
    note "downloading $base/$asset.tar.gz"
    download "$base/SHA256SUMS" "$work/SHA256SUMS" \
        "(is there a release v$version of $repository? version: source builds the action's checkout)"
    download "$base/$asset.tar.gz" "$work/$asset.tar.gz"
    expected=$(awk -v name="$asset.tar.gz" '$2 == name || $2 == "*" name { print $1; exit }' "$work/SHA256SUMS")
    [[ -n "$expected" ]] || die 1 "SHA256SUMS of release v$version lists no $asset.tar.gz"
    actual=$(sha256_of "$work/$asset.tar.gz")
    [[ "$actual" == "$expected" ]] \
        || die 1 "checksum mismatch for $asset.tar.gz: SHA-256 $actual, SHA256SUMS says $expected"
    if [[ -n "${INPUT_SHA256:-}" && "$actual" != "$INPUT_SHA256" ]]; then
        die 1 "checksum mismatch for $asset.tar.gz: SHA-256 $actual, the sha256 input says $INPUT_SHA256"
    fi
    note "SHA-256 verified: $actual"
    mkdir -p "$dir"
    tar -xzf "$work/$asset.tar.gz" -C "$dir" || die 1 "cannot unpack $asset.tar.gz"
    rm -rf "$work"
    [[ -x "$dir/$asset/nvbench-compare" ]] || die 1 "$asset.tar.gz holds no $asset/nvbench-compare"
    echo "$dir/$asset/nvbench-compare"
}

# Builds this checkout with cargo and prints the nvbench-compare binary.
install_source() {
    local root
    command -v cargo >/dev/null 2>&1 \
        || die 1 "version: source needs cargo (a Rust toolchain, 1.89 or newer)"
    root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/nvbench-compare-source"
    note "building $action_root with cargo install"
    cargo install --locked --path "$action_root" --root "$root" >&2 \
        || die 1 "cargo install failed"
    echo "$root/bin/nvbench-compare"
}

# --- inputs ----------------------------------------------------------------

read_lines "${INPUT_BASELINE:-}"
baseline=(${LINES[@]+"${LINES[@]}"})
read_lines "${INPUT_CANDIDATE:-}"
candidate_lines=(${LINES[@]+"${LINES[@]}"})
read_lines "${INPUT_ARGS:-}"
extra_args=(${LINES[@]+"${LINES[@]}"})
((${#baseline[@]} > 0)) || die 2 "the baseline input is empty: give a file, a directory or several runs, one a line"

# Candidate groups: the lines between `--vs` lines.
groups=0
group_size=0
paths_after_vs=()
single_candidate=
for line in ${candidate_lines[@]+"${candidate_lines[@]}"}; do
    if [[ "$line" == "--vs" ]]; then
        ((group_size > 0)) || die 2 "the candidate input has an empty group (a --vs line with no path before it)"
        group_size=0
        continue
    fi
    if ((group_size == 0)); then
        groups=$((groups + 1))
        paths_after_vs+=(--vs)
    fi
    group_size=$((group_size + 1))
    paths_after_vs+=("$line")
    single_candidate=$line
done
((groups > 0)) || die 2 "the candidate input is empty: give a file, a directory or several runs, one a line"
((group_size > 0)) || die 2 "the candidate input ends with a --vs line"
for path in "${baseline[@]}"; do
    [[ "$path" != -* ]] || die 2 "the baseline input has an option, not a path: $path"
done
for path in "${paths_after_vs[@]}"; do
    [[ "$path" == --vs || "$path" != -* ]] || die 2 "the candidate input has an option, not a path: $path"
done

fail_on=${INPUT_FAIL_ON-slow}
fail_on=${fail_on//[[:space:]]/}
[[ "$fail_on" == none ]] && fail_on=
[[ "$fail_on" =~ ^[a-z,]*$ ]] \
    || die 2 "fail-on is a comma-separated list of slow, ambg, unknown, missing (or none): ${INPUT_FAIL_ON-}"

personality=${INPUT_PERSONALITY:-compare}
case "$personality" in
    compare | robust) ;;
    legacy) die 2 "personality: legacy is NVBench's classic script, which has no gate, JSON report or markdown summary; use compare or robust" ;;
    *) die 2 "personality is compare or robust, not $personality" ;;
esac

out_dir=${INPUT_OUTPUT_DIR:-}
if [[ -z "$out_dir" ]]; then
    out_dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/nvbench-compare.XXXXXX")
else
    mkdir -p -- "$out_dir" || die 2 "cannot create the output directory $out_dir"
    out_dir=$(cd -- "$out_dir" && pwd)
fi
report="$out_dir/nvbench-compare.json"
markdown="$out_dir/nvbench-compare.md"

# --- the binary --------------------------------------------------------------

version=${INPUT_VERSION:-}
if [[ -n "${INPUT_BINARY:-}" ]]; then
    bin=$INPUT_BINARY
    [[ -x "$bin" && ! -d "$bin" ]] || die 2 "the binary input is not an executable file: $bin"
else
    if [[ "$version" == source ]]; then
        bin=$(install_source)
    else
        version=${version#v}
        [[ -n "$version" ]] || version=$(own_version)
        [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] \
            || die 2 "version is a release (0.1.0 or v0.1.0), source, or empty; not $version"
        bin=$(install_release "$version")
    fi
    if [[ -n "${GITHUB_PATH:-}" ]]; then
        # The later steps of the job get the three commands.
        dirname -- "$bin" >>"$GITHUB_PATH"
    fi
fi
note "running $("$bin" --version 2>/dev/null || echo "$bin")"

# --- the comparison ----------------------------------------------------------

# The personality is chosen by the first argument, whatever the binary's name.
args=("--personality=$personality" ${extra_args[@]+"${extra_args[@]}"})
if [[ -n "$fail_on" ]]; then
    args+=(--fail-on "$fail_on")
else
    args+=(--report-missing)
fi
args+=(--json "$report" --markdown-summary "$markdown")
if ((${#baseline[@]} == 1 && groups == 1 && ${#paths_after_vs[@]} == 2)); then
    # One path a side: the reference's pair (two files or two directories).
    args+=("${baseline[0]}" "$single_candidate")
else
    args+=("${baseline[@]}" "${paths_after_vs[@]}")
fi

# The input files come from the builds being compared: nothing in their
# names may act as a workflow command while the tables are printed.
token=$(random_word)
echo "::stop-commands::$token"
status=0
"$bin" "${args[@]}" || status=$?
echo "::$token::"

verdict=error
case "$status" in
    0) if [[ -n "$fail_on" ]]; then verdict=passed; else verdict="not gated"; fi ;;
    3) verdict=failed ;;
esac

if [[ -s "$markdown" && -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    cat -- "$markdown" >>"$GITHUB_STEP_SUMMARY"
fi
if [[ -f "$report" ]]; then set_output report "$report"; else set_output report ""; fi
if [[ -f "$markdown" ]]; then set_output markdown "$markdown"; else set_output markdown ""; fi
set_output verdict "$verdict"
set_output exit-code "$status"

case "$verdict" in
    failed) echo "::error title=nvbench-compare::$(escape_data "gate failed (--fail-on $fail_on); the step summary has the details")" ;;
    error) echo "::error title=nvbench-compare::$(escape_data "nvbench-compare exited with $status; its error is in the log above")" ;;
esac
exit "$status"
