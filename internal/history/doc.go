/*
Package history reads a repository's git history into a compact file
that retrieval searches at query time: which commits said something
like the task, and which files they changed. It is a model-free signal
for where a fix goes, since a project's bugs cluster in the files its
past fixes touched, and commit messages name those bugs in the words
issues use.

It does not rank code (package retrieve combines this signal with the
others) and does not find files to index (package index does).

# What is read

Update runs the git binary in the indexed tree: only HEAD's ancestry,
newest first (never other refs: history HEAD cannot reach is not the
tree's past, and for a benchmark it would hold the fix), up to
Options.MaxCommits commits, with the paths each commit changed
(git log -z --name-status -M100% --diff-merges=first-parent).
A merge lists what it changed against its first parent, so a pull
request's merge carries the whole change under the title of the pull
request, and its branch's commits are read too. Renames are followed:
a path a newer commit renamed is recorded under its newest name
(exact renames only, a file moved unchanged: finding the moved and
edited ones too would read every added and deleted blob, about two
thirds of the history's cost, for little). A
commit that changes more than Options.MaxFiles files (a reformatting,
a vendored update, a merge of the main branch into a feature branch)
keeps its message but not its files. Messages lose their trailers
(Signed-off-by: and the like) and invalid UTF-8, and are cut to
8 KiB; their words become terms with package terms, exactly as code
and queries do.

Only a tree that is the top level of its work tree has history: a
tree inside another repository (a test fixture, a vendored copy, one
package of a monorepo) would otherwise get history that is not its
own. Such a tree, a tree outside any repository, a repository without
commits, or a machine without git has no history: Update removes the file and says why, without an error.
A shallow clone has the history it has. A repository git cannot read
is an error that leaves the file as it was.

# Incremental

The file records the HEAD it describes. When HEAD has moved forward
(its old value is an ancestor), Update reads only the new commits,
renames the older records' paths as the new commits did, and keeps the
newest MaxCommits; when HEAD moved anywhere else, or the file is
damaged, it reads everything again. An unchanged HEAD costs two
rev-parse calls.

# On disk

One file, <index dir>/history, written to a temporary file and renamed
over the old one, so a reader sees one or the other:

	"winnow-history\0", format version (1 byte)
	HEAD (uvarint length + hex)
	commits, newest first: hash, time, message length in terms,
	    changed files (ids into the path table)
	paths
	terms: a table of uint32 offsets, sorted by term, into the postings:
	    term, then (commit delta, count in the message) per commit
	CRC-32 of everything before it

Open decodes the commits and paths (a few milliseconds for 20,000
commits) and leaves the postings where they are: Search finds each
query term by binary search over the offsets and decodes only its
list. A file that is truncated, damaged or of another version fails
Open with ErrFormat and is rewritten by the next Update.

# Search

Search scores commit messages by BM25 of the query's weighted terms
(k1 1.2, b 0.5: messages are short) and returns the best few; package
retrieve spreads each hit's score over the files it changed.
*/
package history
