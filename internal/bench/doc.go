// Package bench measures winnow's index against its peer, Universal
// Ctags, on real source trees, and reports the numbers side by side with
// the targets they are held to. It does not assert anything about speed:
// a benchmark run prints measurements and ratios, and a person reads them.
//
// # What is measured
//
// For each tree, in one run:
//
//   - Cold index: the winnow binary as a subprocess (`winnow index
//     --rebuild --index-dir <temp> --json <tree>`) against `ctags -L
//     <list>` over exactly the files winnow indexed, so that the two do
//     the same work by file count and bytes. Wall time and CPU time
//     (user+sys) come from the kernel's accounting of each child process;
//     peak RSS from the child's own high-water mark (see rssWatch: on
//     Linux, ru_maxrss of a child started by Go includes the parent's
//     peak), and apart from it the peak of the processes the child ran
//     (winnow's git log for the history), when higher. `ctags -R` over the whole tree runs once as well, for
//     reference: it is what a user would type, on files ctags chose.
//   - Reopen: index.Open of the built index plus one cheap query, in
//     process, as a command or a server does on start.
//   - Incremental update after touching one file, three ways: UpdatePaths
//     (what `winnow index --watch` calls), Update (a full stat scan that
//     finds the one change) and the `winnow index` command a user types.
//   - Lookup latency: exact lookups and default lookups (with the prefix
//     and fuzzy fallback) of symbol names sampled from the index.
//
// # Method
//
// The machines this runs on are shared and noisy, so the design aims at
// ratios that noise cannot fake:
//
//   - Cold runs interleave, winnow then ctags then winnow, so that a
//     burst of load from a neighbour lands on both tools alike. Each
//     reports its median and its minimum: the minimum is the best the
//     machine allowed, the median the typical run.
//   - The `ctags -R` reference run goes first and reads every file of the
//     tree, so the page cache is warm for every timed run of both tools.
//   - Every cold winnow run builds into an empty index directory outside
//     the tree; nothing is written into the tree except the one touched
//     file, which is restored.
//   - Percentiles are nearest-rank over the repetitions: p50 of 10 is the
//     5th fastest, p95 of 10 the slowest.
//
// # The touched file
//
// The incremental update appends one newline to a mid-sized indexed
// file (the median by size): the content and its hash change, the source
// stays valid in every language. After each measurement the file gets
// its original bytes and modification time back, and the index is
// brought back in step, so every repetition starts from the same state.
// The restore also runs when the benchmark fails or is interrupted: the
// tree belongs to the user. Each measured update must have parsed
// exactly one file, or the run stops with an error, since then it
// measured something else (usually: the tree changed under it).
package bench
