#!/usr/bin/env bash
# Fuzz campaigns longer than the seed replay of `go test ./...`: run every fuzz
# target of the module, or the ones named, one after another for a given time
# each, and report the crashers.
#
#   scripts/fuzz.sh [-t DURATION] [-p WORKERS] [-m DURATION] [-k N] [TARGET|PACKAGE ...]
#
# Each target runs as `go test -run='^$' -fuzz='^Target$' -fuzztime=DURATION`
# in its package. The inputs that reach new code are kept in Go's fuzz cache
# ($(go env GOCACHE)/fuzz), so the next campaign starts where this one ended; a
# failing input is written by `go test` to the package's
# testdata/fuzz/<Target>/, which `go test ./...` then replays: fix the bug and
# commit that file as its regression seed. The output of every run is kept in
# a log directory, named when the campaign starts. Exits 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/fuzz.sh [-t DURATION] [-p WORKERS] [-m DURATION] [-k N] [-l] [TARGET|PACKAGE ...]

Runs each fuzz target (all of them, or those named: FuzzParse, or a package
directory such as internal/shape for all of its targets) for DURATION, one
after another, and reports the failing inputs.

  -t DURATION  fuzzing time per target, as go test -fuzztime takes it (default 1m)
  -p WORKERS   fuzzing processes per target (default: one per CPU)
  -m DURATION  time to minimize each input that reaches new code or fails
               (go test -fuzzminimizetime, default 60s); a target with large
               seeds (the chat codecs) can spend a short run minimizing one
  -k N         start each target from its committed seeds alone (a fresh cache,
               not Go's) and copy up to N of the inputs it found reaching new
               code (spread over the run, none above 64 KiB) into the package's
               testdata/fuzz/<Target>/, to review and commit as seeds
  -l           list the fuzz targets and exit
EOF
}

fuzztime=1m workers="" minimize="" keep=0 list=false
while getopts 't:p:m:k:lh' opt; do
  case $opt in
    t) fuzztime=$OPTARG ;;
    p) workers=$OPTARG ;;
    m) minimize=$OPTARG ;;
    k) keep=$OPTARG ;;
    l) list=true ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if ! [[ $keep =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: -k takes a number of inputs, not \"$keep\"" >&2
  exit 2
fi
if [ -n "$workers" ] && ! [[ $workers =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: -p takes a number of processes, not \"$workers\"" >&2
  exit 2
fi

# Every target as "dir name", from the `func FuzzX(f *testing.F)` of the test files.
mapfile -t targets < <(
  grep -rE --include='*_test.go' --exclude-dir=testdata '^func Fuzz[A-Za-z0-9_]*\([A-Za-z_][A-Za-z0-9_]* \*testing\.F\)' cmd internal |
    sed -E 's|^(.*)/[^/]*:func (Fuzz[A-Za-z0-9_]*)\(.*|\1 \2|' | sort -u
)
if $list; then
  printf '%s\n' "${targets[@]}" | awk '{ printf "%-28s %s\n", $2, $1 }'
  exit 0
fi

# The targets named on the command line, in the order named.
selected=()
if [ $# -eq 0 ]; then
  selected=("${targets[@]}")
fi
for arg in "$@"; do
  dir=${arg#./}
  dir=${dir%/}
  found=false
  for t in "${targets[@]}"; do
    if [ "${t% *}" = "$dir" ] || [ "${t#* }" = "$arg" ]; then
      selected+=("$t")
      found=true
    fi
  done
  if ! $found; then
    echo "fuzz.sh: no fuzz target or package directory named \"$arg\"; scripts/fuzz.sh -l lists them" >&2
    exit 2
  fi
done

logs=$(mktemp -d "${TMPDIR:-/tmp}/winnow-fuzz.XXXXXX")
echo "fuzzing ${#selected[@]} targets for $fuzztime each${workers:+ with $workers workers}; logs in $logs"

# keepNew copies up to $keep of the inputs in the directory from into
# dir/testdata/fuzz/name/, spread evenly over the order in which the run found
# them.
keepNew() {
  local from=$1 dir=$2 name=$3
  local found=() f
  [ -d "$from" ] || return 0
  mapfile -t found < <(find "$from" -type f -size -65k -printf '%T@ %p\n' | sort -n | cut -d' ' -f2-)
  local n=${#found[@]} k=$keep i
  [ "$n" -gt 0 ] && [ "$k" -gt 0 ] || return 0
  [ "$k" -le "$n" ] || k=$n
  mkdir -p "$dir/testdata/fuzz/$name"
  for ((i = 0; i < k; i++)); do
    f=${found[$(((2 * i + 1) * n / (2 * k)))]}
    cp "$f" "$dir/testdata/fuzz/$name/"
  done
  echo "    kept $k of $n new inputs in $dir/testdata/fuzz/$name/"
}

failed=()
for t in "${selected[@]}"; do
  dir=${t% *} name=${t#* }
  log="$logs/$name.log"
  # With -k, a cache of the run's own (go test's flag is passed first, so this one wins).
  own=()
  [ "$keep" -eq 0 ] || own=(-args -test.fuzzcachedir="$logs/cache/$dir")
  start=$SECONDS
  status=ok
  go test -run='^$' -fuzz="^$name\$" -fuzztime="$fuzztime" ${minimize:+-fuzzminimizetime="$minimize"} ${workers:+-parallel="$workers"} "./$dir" "${own[@]}" >"$log" 2>&1 || status=FAIL
  # Go 1.26's fuzz coordinator can fail a run whose -fuzztime ends while a worker is
  # mid-call, with "context deadline exceeded" and no failing input (golang/go#75804,
  # fixed in Go 1.27): a flake, not a finding.
  if [ $status = FAIL ] && ! grep -q 'Failing input written' "$log" &&
     grep -q '^fuzz: elapsed' "$log" && grep -qx '    context deadline exceeded' "$log"; then
    status=flake
  fi
  # The last progress line: "fuzz: elapsed: 1m0s, execs: 123 (2/sec), new interesting: 4 (total: 56)".
  stats=$(grep -oE 'execs: [0-9]+ .*' "$log" | tail -n 1 || true)
  case $status in
    ok) printf '%-28s ok    %4ds  %s\n' "$name" $((SECONDS - start)) "${stats:-no progress reported}" ;;
    flake) printf '%-28s ok    %4ds  %s; ended by the Go fuzz deadline flake (golang/go#75804), no failing input\n' "$name" $((SECONDS - start)) "$stats" ;;
    FAIL)
      printf '%-28s FAIL  %4ds  %s\n' "$name" $((SECONDS - start)) "$dir"
      report=$(sed -n '/--- FAIL\|Failing input written\|To re-run/,$p' "$log" | head -n 40)
      [ -n "$report" ] || report=$(tail -n 20 "$log") # it did not get to fuzzing: a build error
      printf '%s\n' "$report" | sed 's/^/    /'
      failed+=("$name ($dir): $log")
      continue
      ;;
  esac
  if [ "$keep" -gt 0 ]; then
    keepNew "$logs/cache/$dir/$name" "$dir" "$name"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo
  echo "${#failed[@]} of ${#selected[@]} targets failed; the failing inputs are in each package's testdata/fuzz/<Target>/:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "all ${#selected[@]} targets ran ${fuzztime} without a failure"
