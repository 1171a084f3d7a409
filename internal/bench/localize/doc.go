// Package localize holds the localization benchmark's data and its scorer:
// the dataset's instances (an issue text, the commit it was filed against,
// and the files and functions its fix edited), the per-instance results a
// retrieval run writes, and the metrics computed from the two. It does not
// index trees or run queries: the runner does that with the retrieval
// engine and hands its rankings here.
//
// # Layout
//
// Each instance's tree is <repos>/<owner>__<name>@<base_commit>, as
// written by bench/localize/prepare.sh; TreeDir names it. Instances that
// share a repository and commit share a tree.
//
// # Identifiers
//
// A function is named "path.py:Qual.name": the repository-relative, slash
// separated path, a colon, and the dotted qualified name (Class.method,
// func, Outer.Inner.method). Before any comparison both sides are
// normalised: a trailing ".__init__" names its class ("a.py:Foo.__init__"
// is "a.py:Foo"), since a fix to a constructor and a retrieval of the
// class are the same answer. A module is "path.py:TopLevelName", the
// function id cut after its first name; a file is the path.
//
// # Rankings
//
// A result carries a ranked function list (found_entities), and may carry
// ranked files and modules of its own. Rankings are deduplicated after
// normalisation, keeping each item's first appearance. When a result has
// no found_files, its file ranking is the first-appearance dedup of the
// files of its functions; likewise modules. The report counts how many
// results ranked files and modules natively and how many were derived,
// because the two are not the same measurement.
//
// # Gold
//
//   - Functions: edit_functions, normalised and deduplicated.
//     added_functions are not gold: they do not exist at base_commit.
//   - Modules: the modules of the gold functions.
//   - Files: the gold_files that exist at base_commit (a fix may add a
//     file). Whether a file exists is asked of an Exists function,
//     usually TreeExists over the prepared trees.
//
// An instance without gold at a level (no existing gold file; no gold
// function) is left out of that level's metrics and counted as excluded.
// An instance without a result, or whose result has an error, stays in
// and counts as a miss everywhere: a crash must not raise a score.
//
// # Metrics
//
//   - Acc@k: an instance counts at k iff its top k holds min(|gold|, k)
//     gold items. With more gold than k the top k must be all gold; with
//     fewer, all gold must be in the top k. File @1/3/5/10, module @5/10,
//     function @5/10: the numbers published for SWE-bench Lite
//     localization (LocAgent, SweRank) use the same rule.
//   - Function Recall@k (k = 1, 5, 10, 50): the mean share of gold
//     functions in the top k. MRR: the mean of 1/rank of the first gold
//     function, 0 when none is ranked.
//   - Budgeted-context recall at each token budget the results report:
//     the mean share of gold function bodies that are whole inside the
//     context packed at that budget (see GoldInContext), over the
//     instances with gold functions; a result without the budget counts 0.
//   - Context tokens, warm query latency (p50, p95, max over results
//     without error) and cold index time (sum, p50, max over the trees
//     built during the run, IndexMS > 0). Percentiles are nearest-rank.
//
// # Strata
//
// The same instances are split by repository and by three cues in the
// issue text, each stratum reporting its size, file Acc@1/@5 and function
// Acc@10:
//
//   - names a gold file: the text holds the basename of an existing gold
//     file ("models.py"), or its dotted module path ("requests.models",
//     "_pytest.python" for src/_pytest/python.py; a package's __init__.py
//     gives the package path) when that path has at least two parts, as a
//     word not glued to identifier characters;
//   - names a gold function: the last part of a normalised gold function
//     id ("prepare_url"; "Foo" for Foo.__init__) as a whole identifier;
//   - has a traceback: a CPython "Traceback (most recent call last)" or
//     frame line (File "x.py", line 3), or a pytest frame line
//     (x.py:12: in name, or x.py:12: SomeError).
package localize
