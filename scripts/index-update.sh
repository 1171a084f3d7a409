#!/usr/bin/env bash
# One-file incremental updates through the `winnow index` command, as a user
# typing it waits for them: wall and CPU time of each run, p50 and p95.
#
#   scripts/index-update.sh [-n RUNS] [-r ROUNDS] [-f FILE] TREE BINARY [BINARY ...]
#
# TREE must already be indexed (winnow index TREE). Each run writes FILE
# (relative to TREE; default sympy/core/basic.py) in place, as it was plus one
# comment line of its own, and runs `BINARY index TREE`. The file keeps its
# size from run to run: appended to line after line, it grew, and so did its
# parse (tree-sitter's, of sympy's basic.py: 6 ms of CPU as it is, 24 ms with
# some 800 comment lines more), to the disadvantage of the binary that ran
# later. With several binaries they take turns in ROUNDS rounds (default 2) of
# RUNS runs each (default 10), so that a change of load hits them alike; runs
# are not interleaved one by one, because what one binary leaves in the index
# directory (the check record, the corpus file) is part of what the next run
# of the same binary finds. Each round starts with one uncounted warm-up run.
# FILE gets its bytes back at the end, and the index is brought up to date
# with it. Profile one run with `winnow index --cpuprofile`.
set -euo pipefail

runs=10 rounds=2 file=sympy/core/basic.py
while getopts n:r:f: o; do
  case $o in
  n) runs=$OPTARG ;;
  r) rounds=$OPTARG ;;
  f) file=$OPTARG ;;
  *) echo "usage: $0 [-n RUNS] [-r ROUNDS] [-f FILE] TREE BINARY [BINARY ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n RUNS] [-r ROUNDS] [-f FILE] TREE BINARY [BINARY ...]" >&2
  exit 2
fi
tree=$1; shift
bins=("$@")
target=$tree/$file
[ -f "$target" ] || { echo "$0: no file $target: name one with -f" >&2; exit 2; }
[ -f "$tree/.winnow/index.db" ] || { echo "$0: $tree is not indexed: run winnow index $tree first" >&2; exit 2; }

saved=$(mktemp) log=$(mktemp)
cp -p "$target" "$saved"
restore() { cp -p "$saved" "$target"; "${bins[0]}" index "$tree" >/dev/null 2>&1 || true; rm -f "$saved" "$log"; }
trap restore EXIT

# timed BINARY ARGS...: runs it and writes "wall user sys" in seconds to $log.
# /usr/bin/time counts CPU in hundredths of a second, too coarse for runs of
# a few tens of milliseconds: with python3 at hand, the rusage of the child
# is read in microseconds instead (python's own start is not timed).
if command -v python3 >/dev/null; then
  timed() {
    python3 -c '
import resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t0
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.6f %.6f %.6f\n" % (wall, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime))
' "$log" "$@"
  }
else
  timed() { /usr/bin/time -f "%e %U %S" -o "$log" "$@" >/dev/null 2>&1; }
fi

# one run: edit, then time the update; prints "binary wall cpu" in seconds
run() {
  { cat "$saved"; echo "# winnow index-update edit $RANDOM$RANDOM"; } >"$target"
  timed "$1" index "$tree"
  awk -v b="$1" '{printf "%s %.4f %.4f\n", b, $1, $2 + $3}' "$log"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
times=$(for r in $(seq "$rounds"); do for b in "${bins[@]}"; do
  run "$b" >/dev/null
  for i in $(seq "$runs"); do run "$b"; done
done; done)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# pct COLUMN P BINARY: the P-th percentile (nearest rank) of a column, in ms
pct() {
  awk -v b="$3" '$1 == b { print $'"$1"' }' <<<"$times" | sort -n |
    awk -v p="$2" '{ v[NR] = $1 } END { r = int(p * NR + 0.999999); if (r < 1) r = 1; printf "%.1f", 1000 * v[r] }'
}
for b in "${bins[@]}"; do
  printf '%s: %d runs, wall p50 %s ms p95 %s ms, CPU p50 %s ms p95 %s ms\n' "$b" "$((runs * rounds))" \
    "$(pct 2 .5 "$b")" "$(pct 2 .95 "$b")" "$(pct 3 .5 "$b")" "$(pct 3 .95 "$b")"
done
