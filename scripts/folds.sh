#!/usr/bin/env bash
# folds.sh prints the 2-fold objective by repository (see DefaultParams in
# internal/retrieve/params.go) from the report of `winnow bench localize`:
# for each fold, file Acc@5 + function Acc@10 + ½·file Acc@1, in points
# (fold A: sympy, xarray, pylint, flask, seaborn; fold B: the rest).
#
#   winnow bench localize --data dev.jsonl --repos TREES --out r.jsonl > r.txt
#   scripts/folds.sh r.txt [more reports...]
set -euo pipefail
if [ $# -eq 0 ]; then
	echo "usage: scripts/folds.sh REPORT..." >&2
	exit 2
fi
for f in "$@"; do
	awk -v name="$f" '
	$1 == "repo" {
		r = $2; n = $4; f1 = $5; f5 = $6; fn = $7; g10 = $8
		gsub("%", "", f1); gsub("%", "", f5); gsub("%", "", g10)
		v = (f5 + g10 + f1 / 2) / 100 * n
		if (r ~ /sympy|xarray|pylint|flask|seaborn/) { a += v; na += n } else { b += v; nb += n }
		seen = 1
	}
	END {
		if (!seen) { print name ": no per-repository rows" > "/dev/stderr"; exit 1 }
		printf "%s\tfold A %.1f (n=%d)\tfold B %.1f (n=%d)\n", name, 100 * a / na, na, 100 * b / nb, nb
	}' "$f"
done
