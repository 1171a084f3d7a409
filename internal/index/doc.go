/*
Package index builds, stores and queries the symbol index of a source
tree: every definition with its kind, qualified name, signature, doc
and span, and every file's imports and references, in a SQLite file
that several processes can read while one updates it.

It finds files (git-aware), decides which to skip, parses the rest in
parallel with package lang and keeps the database in step with the
tree, re-parsing only files whose content changed. It does not rank
or pack context; package retrieve does that on top of it.

# On disk

An index is one SQLite database, index.db, in the index directory
(<root>/.winnow by default, which also gets a .gitignore of its own),
next to a lock file. SQLite runs in WAL mode, so any number of
processes read while one writes, and readers never see a half-written
update. Every update also refreshes the git history file, history, of
package history (HistoryFile; history.go), which is a ranking signal
and not part of the index: failing to read git costs a warning only.

	meta(key, value)          symbols, refs: running totals;
	                          generation: bumped by every update;
	                          updated: time of the last update;
	                          tier: the index's tier (Tiers, below)
	files(id, path, lang, hash, size, mtime, skip, has_error, package,
	      first_symbol, nsymbols, terms, tier)
	symbols(id, file_id, name, qual, kind, parent, start_line, end_line,
	        start_byte, end_byte, signature, doc, visibility)
	refs(file_id, scope, name, kind, line, count)
	imports(file_id, module, name, alias, line)

Paths are slash-separated and relative to the root. hash is the first 16
bytes of the SHA-256 of the content. A file skipped for its content
(binary, not UTF-8, generated, minified, too large, unparseable) keeps a
row with its reason in skip and nothing else, so that it is not read
again until it changes; files skipped for their path are never stored.
A file skipped as unreadable is the exception: chmod and chown do not
change the size or modification time, so every update tries to open it
again, and indexes it once it opens.
kind and visibility hold the codes of symbol.Kind and
symbol.Visibility, which only ever grow. refs.scope is the id of the
innermost definition holding the uses, or 0 for the top level; a row
aggregates all uses of one name of one kind in one scope.

Symbol ids are assigned by the writer, not by SQLite, so that a file's
references can point at its definitions without reading them back; a
file's symbols get consecutive ids from first_symbol.

terms holds the file's lexical documents for retrieval (docs.go): a
dictionary of the file's distinct terms, then one document for the code
outside every definition and one per definition, each a list of (term,
field, count) in uvarints. Every body term is counted once, in the
innermost definition around it. Fields are the name, the path and
parent, the signature, the doc and the body.

# Tiers

A file is read at one of two tiers, recorded in files.tier: the quick
tier (1), by the fast scanner of package lang, which needs no parse (a
lexer-level pass: definitions by keywords, references by identifiers;
about a fifteenth of a parse's CPU), and the full tier (2), by
tree-sitter. Both fill the same rows, so every reader works on either.
A language without a scanner gets, at the quick tier, the lexical
document of its whole text and no definitions; so does a file the
scanner refuses (brackets that do not balance, in the middle of an
edit), counted in Stats.ScanFailed. meta 'tier' is the index's tier as
a whole: the lowest of its files', written by every update's
transaction, so an index with one file still at the quick tier is never
taken for a complete one; none before the first update.

Update parses (full tier). With Options.QuickFirst, an index that is not
yet at the full tier reads new and changed files with the scanner
instead, which answers a first query on a large tree in seconds, and
Upgrade brings it to the full tier: files at a lower tier are parsed
again even when their content is unchanged. An upgrade runs in chunks
of upgradeChunk files (fewer when they hold more than
upgradeChunkBytes of source), each its own transaction under the
writers' lock, released in between and taken in turn (writers.go), so
that a watcher's update waits at most a chunk; killed at any point, it leaves an index whose files are each at
one tier or the other, which answers, and which the next Upgrade
completes. Changes to the tree since the last update land, whole, in the
first transaction. An update at the quick tier does not read the git
history when there is none yet (seconds of git log on a large
repository); the full tier does. UpgradeWhole, for a process that waits
for the full tier anyway (winnow index in the foreground), builds an
index with no file at the full tier yet whole beside it and replaces it
at once, as a rebuild does: a bulk load, while readers answer from the
quick tier.

On sympy (1,531 files; winnow bench index, 2 runs, twice, load 0.2-2),
the quick tier alone (winnow index --quick) costs 4.7-4.8 s CPU, 0.3 of
the full tier's 15.0-15.4 s and 7.1-7.6 times Universal Ctags' 0.62-0.69
s, for 48,216 definitions and 498,092 references (the full tier: 48,224
and 498,135, 23-24 times ctags, 0.7 s of it the git log of the
history). The first winnow context in a fresh copy (sympy-23413;
scripts/first-answer.sh, 5 runs at load 0.9) answers in 2.8 s wall at
the median, 3.4 s at most, for 4.6 s of CPU; a winnow mcp started there
answers its first context call as soon as the quick tier is ready, 2.9
s at the median (scripts/mcp-first-answer.py). On bench localize's dev
set the quick tier scores file Acc@5 83.2, the full index 86.5
(bench/localize/README.md).

# Updating

An update lists the tree (git ls-files, or a walk honouring .gitignore),
compares each file's size and modification time with its row, and reads
only the files that differ. git's answer is remembered in the file
listing, with a stamp of everything it depends on (the git index, the
tree's directories, ignore and configuration files; listing.go), and
taken again, without starting git, while every stamp is as it was. A
file whose content hash is unchanged gets its new stat recorded; one
whose hash matches a vanished file is that file renamed, and its row
simply moves; the rest are parsed on Options.Workers goroutines while a
single writer stores the results.
Rows of files that vanished are deleted last. A file parsed again has
its rows patched, not replaced (patch.go): rows still there are updated
in place, their indexed columns untouched, and it keeps its symbol ids
while its definitions are the same ones (an id names one definition for
good), so that a one-file update writes the pages of the rows that
changed, not an entry on its own page of every index for each of the
file's rows.

Everything happens in one transaction, so an update that fails, is
cancelled or is killed leaves the previous index intact. Updates take an
exclusive lock on the lock file (flock, released by the kernel if the
process dies), so concurrent updates from several processes run one
after the other. The first build of an empty index drops the secondary
indexes and recreates them at commit, which is much faster than
maintaining them row by row; a first build at the quick tier leaves out
refs_file, which only writes need, and the next write transaction
creates it (secondaryIndexes in db.go).

# Rebuilding

A rebuild (Options.Rebuild, `winnow index --rebuild`) builds the whole
index from scratch in a new database beside it, index.db.new, under the
writers' lock, and then copies it over index.db with SQLite's online
backup: one write transaction of index.db, so every reader, in any
process, answers from the previous index until it commits and from the
new one after, as after any update. The new database's generation
continues from the old one's, so caches keyed by it are dropped. A
rebuild that fails or is killed leaves index.db as it was and
index.db.new behind; the next update, which holds the lock, deletes it.
The new file is not renamed over index.db: in WAL mode index.db-wal and
index.db-shm belong to the file they were made for, and a reader of the
renamed file would take pages of the old one from them. Only an index
that cannot be opened at all (not a database, a foreign or older one, an
empty directory) is deleted first and rebuilt in place, since no one can
read it meanwhile.

# Damage

A damaged file (SQLITE_CORRUPT or SQLITE_NOTADB from any query, or a
directory where index.db should be) is reported as a *CorruptError,
which matches ErrCorrupt, names the file and says to run
`winnow index --rebuild`. Every exported method that touches the
database wraps its errors so. Check runs PRAGMA quick_check within a
time budget, for `winnow index` to find damage that no query has met
yet and rebuild. It runs only when the index is not Checked: the file
"checked" records the database's and WAL's size and modification time
as the last process that trusted the index (it built it, checked it, or
opened it as recorded) left it, after each of its updates and when it
closed it (times set a second back, so no later write can match), and a
file that no longer matches was changed by something other than winnow
(checked.go).

# Corpus file

corpus.bin, beside index.db, persists what retrieval derives from the
index (package retrieve's corpus), so that a process opens it instead of
rebuilding it from SQLite (about 25 ms against 480 ms on sympy).
corpusfile.go is its container: magic, container version, the reader's
layout name and the index stamp (Stamp: the database's instance id,
made at creation, and its generation), a table of 8-byte-aligned
sections, and a CRC-32C of all of it. It is written to a temporary file
and renamed into place, never rewritten in place, so a reader that maps
it (MapCorpus, for one-shot processes) never sees it change. A file of
another stamp or layout is ErrCorpusStale, told from the header before
the checksum is computed (CorpusCurrent reads the header alone, for a
writer deciding whether to write); one truncated or corrupt is
ErrCorpusDamaged: either way the reader rebuilds it, never misreads it.
A reader brings a corpus of an earlier generation up to date rather
than rebuilding it (ReadCorpusLayout reads the file of any generation):
Snapshot.FileKeys lists every file with what identifies its content (id,
path, language, content hash, first symbol id, symbol count), and
ForEachBriefOf and ForEachFileDocsOf read the changed files only.

An update of a few files does not rewrite the corpus file: corpus.delta
beside it (corpusdelta.go) holds what the reader would read from the
index to bring it up to date, the key of every file and the changed
files' definitions and documents, in a container of the same format
whose layout is the reader's plus "+delta/1", keyed to the index stamp,
checksummed, and naming the corpus file it applies to by key and
checksum. Deltas accumulate against the corpus file (each one replaces
the last and holds every change since the corpus file), until the
writer finds one too large and writes the corpus file whole. A process
whose own updates are all there was since the last delta makes the next
one from it (Snapshot.ChangedSince, FileKeysSince: its keys, those of
the files the updates wrote, moved or deleted read again), without
reading every file's key or the corpus file's files. OpenCorpus
returns the corpus file's sections and, when it is of an earlier
generation, the delta's: only a delta of the index's stamp, for the
corpus file as it is (both checked whole), is returned; any other is
stale, and a writer that peeks at the corpus file to write a delta
(PeekCorpus: the header, the section table and a few sections, not the
checksum) leaves the checking to its reader. A one-file winnow index on
sympy writes some 190 KB instead of 23 MB.

# Profiling

The one-file update through the command, on an indexed copy of a tree:

	scripts/index-update.sh -n 10 TREE ./winnow-old ./winnow-new
	echo '# edit' >> TREE/sympy/core/basic.py && winnow index --cpuprofile u.prof TREE
	go tool pprof -top -cum winnow u.prof

The cold build, side by side with Universal Ctags, the quick tier too:

	winnow bench index --runs 3 --cpuprofile cold.prof TREE
	go tool pprof -top -cum winnow cold.prof

pprof shows the C side (tree-sitter) as runtime.cgocall, and nothing of
the git log the full tier runs for the history; perf splits both:

	perf record -F 999 -g -o cold.data winnow index --rebuild COPY
	perf report -i cold.data --no-children --sort comm,dso
	perf report -i cold.data --no-children --comm winnow --sort symbol

On sympy the full tier's CPU goes, in round numbers (perf, by symbol),
to tree-sitter's parse (33%, some 5 s, itself about 8 times ctags;
files under 128 KB are parsed in arenas, package lang, arena.go), the
walk of each tree that collects references and definitions (9%; package
lang, walk.go: the query itself, imports only for Python, is now about
1%), the Go runtime (18%: allocation, maps, the collector), the kernel
(14%: page faults, reads, writes), SQLite (10%: the rows, then CREATE
INDEX at commit, refs_name the largest), and git log of 20,000 commits
for the history (7%, 0.7 s with exact renames only, in a process of its
own); term documents (docs.go) and the rest of extraction are within
the Go shares. Its peak resident
memory is the larger of the parse of the largest file (a syntax tree
takes about 100 bytes of C memory per source byte: rules/sine.py, 733
KB, some 70 MB; files of 128 KB and up are parsed alone in the process,
glibc's arenas are capped at two and trimmed around such a parse, and
the Go heap is held to what is live plus 16 MiB meanwhile: package
lang, alloc.go) and the corpus build at the end (package retrieve; its
Go heap, collected at GOGC 50), each on top of the binary's own pages
and SQLite's caches (dsn): about 140-146 MiB in all (winnow bench
index; at the parse of sine.py: binary 25, Go 30, glibc 75-85, SQLite
and stacks 19). The binary's share depends on how its file came into
the page cache: some 25 MB resident for a binary copied into place with
cp, 34-41 MB for the same binary run as go build wrote it (Linux 6.18,
ext4), so compare builds copied alike.

The first answer on a tree never indexed, and its CPU in process:

	scripts/first-answer.sh -n 5 TREE task.txt ./winnow-old ./winnow-new
	winnow index --quick --cpuprofile quick.prof COPY

and through MCP, as an agent starts winnow mcp in a tree never indexed
and calls context at once (then again during the upgrade):

	scripts/mcp-first-answer.py -n 5 TREE task.txt ./winnow-old ./winnow-new

# Versions

PRAGMA application_id marks the file as a winnow index and PRAGMA
user_version holds the schema version (schemaVersion). Open refuses a
database of another application (ErrForeign), a file that is not a
database (ErrCorrupt) and an index from a newer winnow (ErrNewer), each
with an error that names `winnow index --rebuild`. An index with an older
schema is deleted and rebuilt: it is never read with the wrong layout;
unless a migration brings it up to date in place, in one transaction
under the writers' lock (migrations in db.go): schema 2, which had no
tiers, gets files.tier at the full tier, every file in it having been
parsed.
So is an index whose meta 'extractor' differs from lang.Version: the
same tables filled by an extractor that read files differently.
Any change to the tables, or to what a column means, bumps schemaVersion.
*/
package index
