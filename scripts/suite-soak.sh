#!/usr/bin/env bash
# Runs the whole test suite again and again, with busy loops beside every
# other run, to bring out tests that fail only now and then (a race, a
# timeout too tight for a loaded machine). One line per run goes to
# DIR/summary.txt, each run's whole output to DIR/runN.log; the exit status
# is 0 only if every run passed.
#
# Set ARENA_REQUIRE_BROWSER/SLURM/NGINX=1 as .ci/run does, so the tests that
# need Chromium, Slurm or nginx fail instead of being skipped.
set -uo pipefail

usage() {
    cat <<'EOF'
usage: scripts/suite-soak.sh [--runs N] [--busy-every K] [--busy-loops L] [--out DIR] [-- COMMAND...]

Runs COMMAND (default: scripts/test, the suite as CI runs it) N times
(default 20) from the repository's root. Every K-th run (default 2: half
the runs) has L busy loops beside it (default: one per core). A run fails
when COMMAND exits non-zero or a test says FAILED; the failing tests are
named in DIR/summary.txt (default DIR: target/soak). Exits 0 only if no
run failed. Touch DIR/STOP to stop after the current run.
EOF
}

fail() { echo "suite-soak: $1" >&2; exit 2; }

root="$(cd "$(dirname "$0")/.." && pwd)"
runs=20
busy_every=2
busy_loops="$(nproc 2>/dev/null || echo 2)"
out="$root/target/soak"
while [ $# -gt 0 ]; do
    case "$1" in
        --runs|--busy-every|--busy-loops)
            [ $# -ge 2 ] || fail "$1 needs a number"
            [[ "$2" =~ ^[0-9]+$ ]] || fail "$1 takes a whole number, not '$2' (see --help)"
            case "$1" in
                --runs) runs="$2" ;;
                --busy-every) busy_every="$2" ;;
                --busy-loops) busy_loops="$2" ;;
            esac
            shift 2 ;;
        --out) [ $# -ge 2 ] || fail "--out needs a folder"; out="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) fail "unknown argument '$1' (see --help)" ;;
    esac
done
[ "$runs" -ge 1 ] || fail "--runs must be at least 1"
if [ $# -gt 0 ]; then command=("$@"); else command=(scripts/test); fi

mkdir -p "$out" 2>/dev/null || fail "cannot create the folder '$out': pass --out with a folder you can write"
out="$(cd "$out" && pwd)"
rm -f "$out/STOP" "$out"/run*.log
: > "$out/summary.txt"
cd "$root" || exit 2
# Runs count towards a record only on the same code: say when it is not a commit's.
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD -- 2>/dev/null || commit="$commit+changes"

busy_pids=()
stop_busy() {
    [ ${#busy_pids[@]} -gt 0 ] && kill "${busy_pids[@]}" 2>/dev/null && wait "${busy_pids[@]}" 2>/dev/null
    busy_pids=()
}
trap 'stop_busy' EXIT
trap 'stop_busy; exit 130' INT TERM

# The sum of one count over the "test result:" lines of a run's log
# (cargo test's), and its nextest "Summary" line (scripts/test's; a
# skipped test counts as ignored).
sum() {
    local nextest="$2"
    [ "$2" = ignored ] && nextest=skipped
    {
        grep -E '^test result:' "$1" | grep -oE "[0-9]+ $2"
        grep -E '^ *Summary \[' "$1" | grep -oE "[0-9]+ $nextest"
    } | awk '{ s += $1 } END { print s + 0 }'
}

failed_runs=0
busy_runs=0
done_runs=0
for ((n = 1; n <= runs; n++)); do
    if [ -e "$out/STOP" ]; then
        echo "stopped: $out/STOP exists" | tee -a "$out/summary.txt"
        break
    fi
    log="$out/run$n.log"
    busy=no
    if [ "$busy_every" -gt 0 ] && [ $((n % busy_every)) -eq 0 ] && [ "$busy_loops" -gt 0 ]; then
        busy=yes
        busy_runs=$((busy_runs + 1))
        for ((i = 0; i < busy_loops; i++)); do
            # Spins until this script is gone, even if it is killed outright.
            sh -c 'while kill -0 "$1" 2>/dev/null; do :; done' busy-loop "$$" &
            busy_pids+=("$!")
        done
        echo "# run $n of $runs, beside $busy_loops busy loops (pids ${busy_pids[*]}): ${command[*]}" > "$log"
    else
        echo "# run $n of $runs, beside no busy loop: ${command[*]}" > "$log"
    fi
    start=$(date +%s)
    "${command[@]}" >> "$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    stop_busy

    passed=$(sum "$log" passed); failed=$(sum "$log" failed); ignored=$(sum "$log" ignored)
    failing=$( {
        sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log"
        # nextest's: "FAIL [ 1.234s] (7/953) BINARY TEST"
        sed -n 's/^ *\(FAIL\|TIMEOUT\|SIGSEGV\|SIGABRT\) \[[^]]*\] \(([^)]*) \)\?[^ ]* \(.*\)$/\3/p' "$log"
    } | sort -u | paste -sd ' ' -)
    line="run $n commit $commit busy=$busy secs=$secs rc=$rc passed=$passed failed=$failed ignored=$ignored"
    if [ "$rc" -ne 0 ] || [ "$failed" -gt 0 ] || [ -n "$failing" ]; then
        failed_runs=$((failed_runs + 1))
        line="$line FAILED${failing:+: $failing}"
    fi
    echo "$line" | tee -a "$out/summary.txt"
    done_runs=$n
done

echo "$done_runs runs ($busy_runs beside busy loops) on $commit: $failed_runs failed; logs in $out" | tee -a "$out/summary.txt"
[ "$failed_runs" -eq 0 ] && [ "$done_runs" -ge 1 ]
