#!/usr/bin/env bash
# Time to first answer: `winnow context TASK` on a copy of a tree that has
# never been indexed, as a new user runs it, with each binary given: wall
# and CPU time of every run, then p50 and max, and the load average around.
#
#   scripts/first-answer.sh [-n RUNS] TREE TASKFILE BINARY [BINARY ...]
#
# TREE is copied once, without its index directory (.winnow), into a
# temporary directory; before each run the copy's .winnow is deleted, so
# every run builds its index from nothing (the quick tier, since winnow
# context answers from it). The binaries take turns run by run. TASKFILE
# holds the task (a dev-set problem statement, say), given on stdin.
set -euo pipefail

runs=5
while getopts n: o; do
  case $o in
  n) runs=$OPTARG ;;
  *) echo "usage: $0 [-n RUNS] TREE TASKFILE BINARY [BINARY ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
  echo "usage: $0 [-n RUNS] TREE TASKFILE BINARY [BINARY ...]" >&2
  exit 2
fi
tree=$1 task=$2; shift 2
bins=("$@")
[ -d "$tree" ] || { echo "$0: no tree $tree" >&2; exit 2; }
[ -f "$task" ] || { echo "$0: no task file $task" >&2; exit 2; }

copy=$(mktemp -d) log=$(mktemp)
trap 'rm -rf "$copy" "$log"' EXIT
tar -C "$tree" --exclude=./.winnow -cf - . | tar -C "$copy" -xf -

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
times=$(for i in $(seq "$runs"); do for b in "${bins[@]}"; do
  rm -rf "$copy/.winnow"
  /usr/bin/time -f "%e %U %S %M" -o "$log" "$b" context --repo "$copy" - <"$task" >/dev/null 2>&1
  awk -v b="$b" '{printf "%s %.2f %.2f %d\n", b, $1, $2 + $3, $4 / 1024}' "$log"
done; done)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$times" | awk '{printf "  %s: wall %.2f s, CPU %.2f s, peak RSS %d MiB\n", $1, $2, $3, $4}'

# stat COLUMN P BINARY: the P-th percentile (nearest rank) of a column
stat() {
  awk -v b="$3" '$1 == b { print $'"$1"' }' <<<"$times" | sort -n |
    awk -v p="$2" '{ v[NR] = $1 } END { r = int(p * NR + 0.999999); if (r < 1) r = 1; printf "%.2f", v[r] }'
}
for b in "${bins[@]}"; do
  printf '%s: %d runs, wall p50 %s s max %s s, CPU p50 %s s max %s s\n' "$b" "$runs" \
    "$(stat 2 .5 "$b")" "$(stat 2 1 "$b")" "$(stat 3 .5 "$b")" "$(stat 3 1 "$b")"
done
