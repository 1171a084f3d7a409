#!/usr/bin/env bash
# prepare.sh writes the source tree of every instance of a localization
# dataset, exactly as it was at the instance's base commit, for
# `winnow bench localize` to index.
#
#   bench/localize/prepare.sh <data.jsonl> <clones-dir> <out-dir>
#
# <data.jsonl>  one instance per line, with at least "repo" ("owner/name")
#               and "base_commit" (40 hex digits); read with jq, or with
#               python3 when jq is missing.
# <clones-dir>  one git clone per repo, with the history that holds the base
#               commits, in either layout (the first that exists wins):
#                 <clones-dir>/<owner>+<name>/repo   as written by winnow's
#                                                    `fetch` mirrors (a bare
#                                                    git dir, or a clone)
#                 <clones-dir>/<owner>__<name>       a plain `git clone`
#                                                    (or `git clone --bare`)
# <out-dir>     receives one directory per (repo, base commit):
#                 <out-dir>/<owner>__<name>@<base_commit>/
#               holding the commit's tree, its git history and nothing else
#               but a marker file, .prepared, written last. A directory
#               without the marker is an interrupted run's and is written
#               again; one with it is skipped. Instances that share a
#               (repo, commit) share a tree.
#
# Each tree is a git work tree at its base commit: .git borrows the
# clone's objects (alternates: nothing is copied) and has a detached HEAD
# at the commit and no ref, so `git log` walks the commit's ancestry and
# nothing else. No later commit, the fix least of all, is reachable.
# Its git index lists the commit's files; the files themselves are
# written from the blobs, so `git status` may call some modified.
#
# A clone may lack blobs (fetch-style mirrors leave out their largest
# files): a missing non-Python file is left out of the tree with a warning
# and listed in .prepared as "missing <path>"; a missing .py file stops the
# run, since the benchmark would then measure a different tree.
#
# The blobs are written as stored: the trees' own .gitattributes do not
# apply (no export-ignore, no export-subst, no eol conversion), so a file
# reads as `git show <commit>:<path>` does. Clones are only read.
#
# Every clone and commit is checked before anything is written; a missing
# one stops the run with a message naming it. Trees are written two at a
# time (PREPARE_JOBS overrides), with one progress line each on stderr.
set -euo pipefail

usage() {
	echo "usage: $0 <data.jsonl> <clones-dir> <out-dir>" >&2
	exit 2
}

# pairs prints "owner/name commit" for each instance, one per line.
pairs() {
	if command -v jq >/dev/null; then
		jq -r 'if (.repo|type) == "string" and (.base_commit|type) == "string"
			then "\(.repo) \(.base_commit)"
			else error("no repo or base_commit string") end' "$1"
	else
		python3 - "$1" <<-'EOF'
			import json, sys
			for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
			    if not line.strip():
			        continue
			    try:
			        r = json.loads(line)
			        print(r["repo"], r["base_commit"])
			    except (ValueError, KeyError, TypeError) as e:
			        sys.exit(f"{sys.argv[1]}:{n}: {e!r}")
		EOF
	fi
}

# gitdir prints the git directory of the clone of repo in clones, or
# fails with the paths it looked at.
gitdir() {
	local clones=$1 repo=$2 owner name d
	owner=${repo%%/*} name=${repo#*/}
	for d in "$clones/$owner+$name/repo" "$clones/${owner}__$name"; do
		if [[ -d $d/.git || -f $d/.git || (-f $d/HEAD && -d $d/objects) ]]; then
			git -C "$d" rev-parse --absolute-git-dir
			return
		fi
	done
	echo "prepare: no clone of $repo: looked for $clones/$owner+$name/repo and $clones/${owner}__$name" >&2
	return 1
}

# missing_blobs prints, one per line, the paths in commit whose blobs the
# clone lacks: mirrors may leave out their largest files.
missing_blobs() {
	local git=$1 commit=$2 entry meta i
	local paths=() shas=() found
	while IFS= read -r -d '' entry; do
		meta=${entry%%$'\t'*}
		[[ $meta == *" blob "* ]] || continue
		paths+=("${entry#*$'\t'}")
		shas+=("${meta##* }")
	done < <(git --git-dir="$git" ls-tree -r -z "$commit")
	[[ ${#shas[@]} -gt 0 ]] || return 0
	mapfile -t found < <(printf '%s\n' "${shas[@]}" | git --git-dir="$git" cat-file --batch-check)
	for i in "${!shas[@]}"; do
		[[ ${found[i]-} != *" missing" ]] || printf '%s\n' "${paths[i]}"
	done
}
export -f missing_blobs

# git_history makes target a git work tree whose HEAD is commit,
# detached, with the clone's objects borrowed through alternates (nothing
# is copied, the clone is not written) and no ref at all: git log sees
# commit's ancestry and nothing after it, so the history cannot hold the
# fix. The git index lists commit's files, as a checkout's would.
git_history() {
	local git=$1 commit=$2 target=$3
	git init -q --template= "$target" &&
		mkdir -p "$target/.git/objects/info" &&
		printf '%s\n' "$git/objects" >"$target/.git/objects/info/alternates" &&
		git -C "$target" update-ref --no-deref HEAD "$commit" &&
		git -C "$target" read-tree "$commit"
}
export -f git_history

# prepare_one writes the tree of one (repo, commit) into out.
prepare_one() {
	local i=$1 total=$2 git=$3 repo=$4 commit=$5 out=$6
	local target=$out/${repo/\//__}@$commit start=$SECONDS
	if [[ -f $target/.prepared ]]; then
		echo "prepare: [$i/$total] $target: already prepared" >&2
		return
	fi
	local missing=() exclude=() p note=""
	mapfile -t missing < <(missing_blobs "$git" "$commit")
	for p in "${missing[@]}"; do
		if [[ $p == *.py ]]; then
			echo "prepare: [$i/$total] $target: the clone lacks $p at $commit: clone $repo in full" >&2
			return 255 # stops xargs
		fi
		exclude+=(":(exclude,literal)$p")
	done
	rm -rf "$target"
	mkdir -p "$target"
	empty=$(mktemp -d)
	trap 'rm -rf "$empty"' EXIT # empty is global: the trap runs after the function returns
	# An empty work tree and a missing index leave no .gitattributes for
	# --worktree-attributes to read: the archive holds the blobs as stored.
	if ! GIT_INDEX_FILE=$empty/index git --git-dir="$git" --work-tree="$empty" \
		archive --worktree-attributes --format=tar "$commit" -- . "${exclude[@]}" | tar -x -C "$target"; then
		echo "prepare: [$i/$total] $target: git archive of $repo $commit failed" >&2
		return 255 # stops xargs
	fi
	if ! git_history "$git" "$commit" "$target"; then
		echo "prepare: [$i/$total] $target: cannot give it the history of $repo before $commit" >&2
		return 255 # stops xargs
	fi
	{
		printf '%s %s\n' "$repo" "$commit"
		[[ ${#missing[@]} -eq 0 ]] || printf 'missing %s\n' "${missing[@]}"
	} >"$target/.prepared"
	[[ ${#missing[@]} -eq 0 ]] || note=", without ${#missing[@]} file(s) the clone lacks: ${missing[*]}"
	echo "prepare: [$i/$total] $target: $(du -sh "$target" | cut -f1) in $((SECONDS - start))s$note" >&2
}
export -f prepare_one

main() {
	[[ $# -eq 3 ]] || usage
	local data=$1 clones=$2 out=$3
	[[ -f $data ]] || { echo "prepare: no dataset $data" >&2; exit 1; }
	[[ -d $clones ]] || { echo "prepare: no clones directory $clones" >&2; exit 1; }
	clones=$(cd "$clones" && pwd)
	mkdir -p "$out"
	out=$(cd "$out" && pwd)

	local list
	list=$(pairs "$data" | sort -u) || { echo "prepare: cannot read $data" >&2; exit 1; }
	[[ -n $list ]] || { echo "prepare: $data holds no instances" >&2; exit 1; }

	# Check everything first: a missing clone or commit should not show
	# up after an hour of writing trees.
	declare -A dirs=()
	local repo commit bad=0 jobs=() total
	while read -r repo commit; do
		if [[ ! $repo =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ || ! $commit =~ ^[0-9a-f]{40}$ ]]; then
			echo "prepare: bad instance: repo \"$repo\", base_commit \"$commit\"" >&2
			bad=1
			continue
		fi
		if [[ ! -v dirs[$repo] ]]; then
			dirs[$repo]=$(gitdir "$clones" "$repo") || { dirs[$repo]=""; bad=1; }
		fi
		[[ -n ${dirs[$repo]} ]] || continue
		if ! git --git-dir="${dirs[$repo]}" cat-file -e "$commit^{commit}" 2>/dev/null; then
			echo "prepare: $repo: no commit $commit in ${dirs[$repo]}" >&2
			bad=1
			continue
		fi
		jobs+=("$repo $commit")
	done <<<"$list"
	[[ $bad -eq 0 ]] || exit 1

	total=${#jobs[@]}
	echo "prepare: $total trees from $data into $out" >&2
	local i=0 start=$SECONDS
	for job in "${jobs[@]}"; do
		i=$((i + 1))
		read -r repo commit <<<"$job"
		printf '%s\0' "$i" "$total" "${dirs[$repo]}" "$repo" "$commit" "$out"
	done | xargs -0 -n 6 -P "${PREPARE_JOBS:-2}" bash -c 'set -euo pipefail; prepare_one "$@"' prepare_one
	echo "prepare: $total trees ready in $out ($((SECONDS - start))s)" >&2
}

main "$@"
