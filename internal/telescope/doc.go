// Package telescope builds hierarchical, content-addressed digests of a corpus, which an
// expensive model reads top-down, fetching the next level down by id only where it needs to.
//
// # Levels
//
//   - L0, raw: the source itself. Each unit's parts (its top-level definitions, document
//     sections or runs of data rows) have ids of the form <unit id>.<n>; drilldown returns
//     their lines.
//   - L1, units: one abstract per file, written by a strategy.
//   - L2, groups: one per directory, listing its files with their headlines and sizes.
//     With Request.Levels = 3, L3 groups the directories by their first path element.
//   - the root index: the top-level groups (or, with one level, the files), with the size of
//     the raw source under each and of its abstracts, so the reader can budget its descent.
//
// Drilldown of a group or the root returns its members' abstracts; of a unit, its source with
// line numbers (after checking that the file still hashes to what was abstracted); of a part,
// just those lines. Every node has a span: its path and, below groups, its line range.
//
// # Ids, keys, incrementality
//
// A node's id is 12 hex digits of a SHA-256 over its inputs: for a unit, the strategy's
// name, version and settings (its prompt, model and target included, so an edited prompt
// never serves stale abstracts), the node format, the path and the SHA-256 of the bytes; for
// a group, the same strategy fingerprint, the level, the directory and its members' ids; for
// the root, those and the purpose. The node is stored under store.Key("telescope", format,
// "node", 0, id), so drilldown finds it from the id alone, in any process sharing the store.
//
// All ids are computed before the store is read, from content hashes alone. The store is then
// read top-down: a root that is found ends the build (its statistics are stored with it); a
// group that is missing has its members looked up; only units missing from the store are
// abstracted. After one file changes, a rebuild computes exactly that file's unit, the groups
// above it and the root. A stored entry that does not decode, or holds another id (a key
// collision), is a miss; a store that fails is a miss with a warning. A unit whose abstract
// came from a fallback (the model failed) is not stored, nor is anything above it, so the
// model gets another chance on the next build.
//
// # Strategies
//
// Deterministic strategies need no model: code_signature (every definition's signature and
// the first paragraph of its doc, key comments of non-trivial bodies, no bodies),
// code_security (lines matching auth, crypto, input validation, file/network/process IO, SQL
// and deserialisation patterns, with two lines around each), narrative_summary (headings and
// lead sentences), audit_findings (finding-shaped records of reports in prose, tables,
// SARIF-like JSON, and the marker comments of code). Each reads every kind of unit: a code
// strategy summarises a document by its headings, so one build covers a whole tree. LLM
// strategies send each unit, in their prompt template, to a cheap model through package llm;
// a failed call or an answer under a dozen tokens falls back to a deterministic strategy and
// the node records why. Groups are written without a model whatever the strategy.
//
// # Purpose
//
// Request.Purpose ranks units by BM25 over the terms of their path (weighted three times)
// and text, using package terms as retrieval does, and keeps those scoring at least a fifth
// of the best; when nothing matches, everything is kept. The root lists the most relevant
// first.
//
// The package reads files only under its root: paths with "..", absolute paths elsewhere and
// symbolic links leading out are refused by Build and by Drilldown (whose nodes may come from
// a shared store). Binary, non-UTF-8 and over-large files are skipped and counted by reason.
// It does not watch files, and it does not decide which model to call.
package telescope
