/*
Package retrieve turns a task description into the smallest
token-budgeted context that holds the code the task needs, from the
symbol index alone: no model, no network.

It ranks (Engine.Rank) and then packs (Engine.Pack); Engine.Context does
both. It does not build or update the index (package index) and does
not classify intents or parse stack traces (package intent); it uses
both.

# Signals

A task is taken apart once (query.go): its words become terms (split
identifiers, light stemming, stopwords out; words of the title count
twice and words in code half again); identifiers it names (inside
backticks and code blocks every identifier, in prose only words that
look like code: snake_case, camelCase, dotted, called) become mentions;
file paths and dotted module paths become path mentions; stack frames
come from package intent.

Every definition of the index then gets eight features, each scaled to
[0, 1] (rank.go):

  - lexical: BM25F of the task's terms over the definition's document
    (fields name, path and parent, signature, doc, own body; see
    fieldWeights), divided by the best score of the query;
  - mention: the task names it. A name shared by n definitions scores
    1/(1+ln n) for each of them; a qualified name or a module path that
    pins it down scores in full;
  - path: the task names its file (a path, a suffix, a basename, or the
    module of a dotted name);
  - trace: a stack frame of the task lies in it, innermost frame 1, each
    frame further out 0.8 of the last;
  - file: its file as a whole matches the task's terms (BM25 over whole
    files, the path weighted up), so that a definition in the right file
    rises with it;
  - graph: a personalised PageRank over the references around the
    strongest candidates and the definitions the task names or traces
    (graph.go): what they call and what calls them, resolved by name
    (same file first; a name defined in many places resolves to nothing
    in particular; names used everywhere are not followed);
  - phrase: a run of two or three words of the prose, joined ("is
    subset" → issubset, "load the config" → loadconfig, configload), is
    a definition's name in normalised form (no case, no underscores), or
    nearly: a similarity ratio (2·LCS over the lengths, rapidfuzz's
    ratio, bit-parallel) of at least ratioThreshold (fuzzy.go);
  - history: its file was changed by past commits whose messages read
    like the task (history.go, package history). BM25 of the task's
    terms over the messages of HEAD's newest commits picks the best
    historyHits; each gives the files it changed its score relative to
    the best commit's, over the square root of how many files it
    changed, and files changed together by several of them add up. The
    file's sum, scaled to [0, 1], lifts its definitions as file does.
    Bugs cluster where past fixes went, and commit messages name them in
    the words issues use, words the code itself may lack. Only history
    HEAD can reach is read; a tree without git has no such feature.

The score is the weighted sum (DefaultWeights: a named identifier and a
stack frame outweigh any amount of word overlap), times priors for
where the definition lives: tests, documentation and examples are where
a fix rarely goes, unless the task is to write tests and says so clearly
enough (TestWriteConfidence: a bug report of a test runner reads weakly
as one); fields and variables are context more than answer. Files are
ranked natively: the best definition, the runner-up at 0.3, the file's
own text and what the task says of the file.

A link of the task to lines of a file in the project's web view
(github.com/o/r/blob/<ref>/xarray/core/nanops.py#L35; links.go) pins
a definition as a stack frame does: link scores the innermost callable
around the linked lines 1 and the callables around it linkOuter. The
path in the link already names the file. On the dev set 13 of the 20
links to lines of a Python file fall in a function the fix edited;
weight 0.25 (chosen by 2-fold cross-validation by repository, see
DefaultParams) took file Acc@1 63.9 → 64.5 and function Acc@10 54.2 →
54.8.

Structural signals (structural.go, structure.go) read where a
definition sits, beyond the words it shares with the task:

  - dispatch: printers, visitors and converters dispatch on a class
    name inside a method's name (_print_Sum, visit_Tuple, convert_Mod),
    an edge no reference records. A word of the task that may name a
    class (capitalised in code most, a lower-case word of prose least)
    scores the methods named for it: the name's specificity, times how
    well the method's file matches the task (floor dispatchMinShare), so
    that "Sum" reaches the _print_Sum of the printer the task is about;
  - testvote: tests that match the task vote for the code they use. The
    best-scoring test definitions' references (by name, outside tests,
    split among the definitions a name may mean) give them the tests'
    relative scores; the tests themselves stay held down by PriorTest.
    Weight 0.25, not 0.5: on the 2-fold split by repository A +2.7,
    B 0, by instance +0.7, +1.8 (dev set file Acc@1 67.7 → 69.0,
    function Acc@10 58.7 → 59.4); on the e2e eval recall@10 31 → 33 of
    38, recall@1 20 → 19, MRR 0.657 → 0.646;
  - priors: a vendored copy (requests/packages/urllib3, _vendor,
    externals, third_party) is held down by PriorVendor, since the fix
    is usually in its caller; HubPenalty (off by default: at 0.2 it cost
    3 points of file Acc@1 on the dev set, since broad files are often
    gold) would hold down files whose vocabulary is much broader than
    the median file's. Stack frames decay by TraceDecay from the
    innermost out, so the frame nearest the raise leads.

Code in the task (issuecode.go, codeuse.go) is read as a reader of
the reproducer would: fenced and inline code and the prompt lines of
interactive sessions (of a session, only the prompt lines: the rest is
output), and calls written in prose, unquoted ("Rational('0.5', '100')
gives 1/100100": on the dev set one instance gained function Acc@10,
none lost, of the 25 with such calls). Import lines bind modules, aliases (import xarray as xr) and
names (from sympy import Poly); "p = Poly(x)" binds p to Poly; every
call and attribute chain is a use. A use resolves through the index:

  - code: Poly(x).degree() or p.degree() reaches the method degree of
    Poly or, failing that, of its bases (read from the class header's
    type references, nearest first); a module-level alias (Eq =
    Equality) stands for its class. xr.where reaches the module-level
    where under the package xarray, not Dataset.where; a called class
    reaches its constructor (codeCtorShare) more than itself
    (codeTypeShare), since reproducers build many objects and a class
    is rarely the fix. A bare call f(…) reaches functions and classes,
    a method of an untyped receiver (expr.as_set()) all methods of
    that name, weakly. Each use scores its weight (weightUse*, up by
    weightTitleMention when the title names it) times the specificity
    of its n definitions; then the best codeHopFrom definitions
    reached pass codeHop of their score to what they call, a
    self-call resolved in the receiver's class first (Eq(…).as_set()
    reaches Boolean.as_set, whose self._eval_as_set is Relational's);
    a self-call of a hook, the caller's compound name with words added
    (as_set → _eval_as_set), passes all of it, and such a hook is a
    variant (see below) wherever it lies (hook.go: sympy-18211's
    relational.py 34th → 5th). Environment dumps the templates ask for (show_versions) are not
    uses. On the dev set, ranking only, weight 1.0: file Acc@1/@5
    61.9/76.1 → 62.6/77.4, function Acc@5 40.0 → 41.9.

A second stage (rerank.go) reads the ties the first stage cannot see,
from the anchors, the leading file's best definitions, since a fix that
spans files most often spans the leading file and the files it leads
to:

  - delegate: what the anchors call or use in other files, resolved by
    name (at most maxTargets definitions), split among the definitions
    a name may mean; the anchor's own name on another receiver
    (Dataset.quantile calling var.quantile, a make_xref calling its
    base's) counts delegateSameName times more. A Python builtin
    (id(e), set(), str) names no definition of the project, though the
    references, which record f() and obj.f() alike, would resolve it to
    one (builtinuse.go: CallSpec2.id, Cache.set).

  - variant: a callable of the ten leading files whose name is a
    compound name the task names (two words or more, itself the name
    of a callable or type of the project) with whole words added: the
    private half of a public name (sum_of_weights → _sum_of_weights), a
    hook for an operation (expand_func → _eval_expand_func), the case
    of a general function (tensor_product_simp →
    tensor_product_simp_Mul, world_to_pixel → world_to_pixel_values).
    It scores the mention's weight times 1/(1+ln n) over the n variants
    of the name in those files, capped at 1 (variant.go). A parameter
    the task sets (keep_attrs=True) names no callable and has no
    variants. On the dev set weight 1.5 took function Acc@5/@10
    50.3/59.4 → 51.6/61.3 (file Acc unchanged).

  - member: the methods of a class the task names surely (a mention
    score of at least 0.6: in code or the title, a name few
    definitions share) that read most like it, its best three by their
    lexical score, share the class's mention score in proportion to
    the square of their lexical scores (member.go). A task names the
    class a user sees (`CDS`, `Sphinx`) more often than the method at
    fault, and matching the class says nothing of which method. On the
    dev set weight 2.5 took function Acc@10 61.3 → 63.9 (Acc@5 51.6
    both) and file Acc@5 81.3 → 81.9.

What it lifts stays below the leading file and the leading definition:
a tie read from the leader is worth less than the leader. On the dev
set with git history, ranking only, weight 1.0 took file Acc@5 78.7 →
80.0 and function Acc@10 52.9 → 54.2 (Acc@1 unchanged by
construction; 0.5, 0.75, 1.5, 2 scored lower). Co-change from the
history (the share of the leading file's commits that also changed a
candidate) was tried as a second feature and lost at every weight
(file Acc@5 −0.6 to −1.9): it lifts the files that change with
everything.

The second stage also lifts, as enclose, the callables around the
best encloseFrom callables, by their score relative to the best
definition's: a closure that matches the task is part of the function
it is defined in, which a fix inside it edits. On the dev set (weight
1.0, see DefaultParams) it took function Acc@5/@10 47.1/55.5 →
49.7/57.4.

Tried for issue 13 on the 2-fold split by repository (see
DefaultParams) and not kept, since neither fold gained or one lost:
the definitions of the best ten files sharing their file's score
(cohesion: fold B function Acc@10 −2.5 at every weight); methods of a
leading method's name in other classes of its file (siblings, −1.2 to
−2.5 on B); what the anchors call in their own file (callee: no
change); the special method of an operation the task performs (==,
*, [...], "iterating": __eq__, __mul__, __getitem__, __iter__; +0.7 on
A, 0 on B at its best, −1.3 on A at B's); a prior for classes (0.4 to
0.8: both folds lost); a third definition in a file's score, and other
splits of it between best, second and text (file Acc@1 up on fold B,
file Acc@5 down on A); a session's output read as prose rather than
code (one instance won, one lost); the uses on a reproducer's setup
lines (bindings before its last line) weighed less (one instance); a
code use the title names weighed 2.5 or 4 rather than 1.5 (A +1.3, B
−1.2); a file-ranking prior for tests and docs below their
definitions' (no change); setup.py and noxfile.py as auxiliary files
(no change); holding down a definition by how many of its file rank
above it (past the second or fourth of a file, 0.85-0.97 of its score
for each one more: fold B +1.3 at best, fold A −1.4 to −10.7, since a
fix's functions are mostly in one file); callees of the best ten
definitions outside the leading file, gated by their own words (with
the title feature in, fold A's best weight lost fold B an instance).
Graph weight 0.6 lost neither fold (A +2.0, B 0; by
instance +1.4, +0.6) but took the e2e eval's recall@1 20 → 19 of 38
and MRR 0.657 → 0.645, and is not in either.

What the task says of files and names it does not define (issue 13,
file ranking; each set by the 2-fold split by repository, see
DefaultParams):

  - module lists and imports (modlist.go): a dotted module written only
    in a list of n modules (a conf.py's extensions, the "Sphinx
    extensions" line of an issue template) keeps 1/(1+PathListDecay·ln n)
    of its path score, one written only in an import line of the
    reproducer PathImportShare; named anywhere else, it keeps all of it.
    On the dev set 14 issues write such a list, 7 of them of three or
    more sphinx.ext modules, whose files took top places on the
    strength of the list alone;
  - names read, never defined (usednames.go): an identifier of the task
    no definition has but code outside tests reads as an attribute
    (app.config.autodoc_typehints) scores the definitions reading it as
    a mention, times UsedShare and 1/(1+ln n) over the n readers;
  - directory (dirlift.go): once the leader is set, a file gains DirShare
    of the best score of another file in its directory, since a fix
    that spans files most often spans neighbours (autodoc/__init__.py
    and autodoc/importer.py; core/add.py beside core/mul.py). It fills
    the places below the leader and never takes the lead.

Together, on the dev set (155 instances): file Acc@1/@3/@5/@10 69.0 /
74.2 / 81.9 / 84.5 → 70.3 / 76.1 / 83.2 / 84.5, function Acc@5/@10
51.6 / 63.9 → 52.3 / 63.9, context recall at 8K 74.1 → 75.4. Tried
and not kept: derived forms of the query's words (serialization
scoring serializ and serializabl, which the stemmer keeps apart; at a
share of 0.2 to 0.5, for definitions and files or files alone: fold A
lost a function Acc@10 instance, B gained a file Acc@5 one, recall
−0.7); dropping the members of the reproducer's own classes (class
Square: width, height) from its mentions (two ranks moved, no
metric); lifting files whose names start with the same word
(toctree.py in two directories, cds.py and cds_parsetab.py: Acc@5 +1
−1, Acc@3 −4).

The title (title.go): when the task has fenced code and none of its
uses reaches a definition of the project, the code is the user's own
(a conf.py, the classes of their app, a shell session), and its words,
many and weighed as code, lead to whatever shares them (the LaTeX
writer's TableCell.width for a class Square with a width). Every
definition then also scores BM25F over the title's words alone, scaled
to [0, 1], as the feature title: the line the author chose to sum the
issue up, at a weight the body's length does not dilute. Where the code
calls the project (sessions, reproducers) or there is no code, the
title is already heard, and the feature everywhere cost sympy's
function Acc@10 seven points. At weight 1.5 (see DefaultParams) file
Acc@5 84.5 → 86.5 on the dev set, function Acc@5 52.3 → 50.3.

--explain prints each feature's share of a definition's score, and
each term's share of a file's (best definition, runner-up, own text,
path, trace, directory).

# Packing

The budget (default 8000 o200k tokens) is split across sections by the
profile of the task's intent (package intent): definitions, snippets
around stack frames, the imports of the files in play, tests and
callers of the best definitions. A section with nothing to show gives
its share to the others, and definitions take whatever the other
sections leave. Every card is sized as it will be rendered, and the
frame of the pack (header, section tags) first. Cards are sized with
the token estimator (package tokens: within a few percent on code, at
20-100 times the speed), since a pack weighs several times its own text
in candidates; the rendered pack alone is counted with the exact o200k
tokenizer, and cards are dropped from the least central sections, as
many as the excess calls for, until that count fits. So a pack never
exceeds its budget by the exact count, which is its Tokens; a card's
Tokens is its estimate.

Definitions come as cards of three sizes: compact (signature, kind,
location, first doc line), standard (+ parent, the whole doc, a type's
members) and full (the source). The leading candidates get compact
cards; then every candidate's full body competes for the rest of the
budget, the best value per token first: 1/rank² over the tokens it adds
(a full card absorbs the cards of the definitions inside it), and a
leader whose body does not fit gets a standard card if that does; what
is left goes to compact cards further down the ranking. So a short
method ranked fifth comes in full before a 2,000-token body ranked
second, which would crowd out everything after it; the definition a
task is about is about as often long as short, hence rank squared
against tokens. On the dev set of the localization benchmark
(budgeted-context recall at 8K, the other sections at a quarter of the
first profiles' shares; see package intent), packing in ranking order
lost 3.3 points to this, 1/(rank·tokens) 1.4, 1/(rank^1.5·tokens) 0.6,
1/(rank³·tokens) nothing.

# Corpus

An Engine keeps an in-memory view of the index (corpus.go): every
definition in brief, every file, and the inverted indexes BM25 needs,
built from the documents the index stores per file. Building it from
SQLite is most of what a query would cost (about 450 ms of CPU on
sympy, against 10-20 ms of ranking), so it is built once per index
state and persisted in the corpus file, .winnow/corpus.bin
(corpusfile.go; the container is index's, see its doc): flat
little-endian arrays and string tables, keyed to the index stamp and
corpusLayout and independent of Params (weights apply on opening), that
decode in place. What is cheap to derive from them (maps by id, path,
module and name, test and aux marks, structure) is derived on opening
(finish).

Who pays for building it: winnow index brings the files up to date
after every run that changed the index (Engine.SaveCorpus; a run that
changed nothing reads their headers only), and so does a watcher,
winnow index --watch or winnow mcp's, after every batch; a query that
finds no current file (an index updated by something else, a damaged
file) builds the corpus, patching the one it has when it can
(corpuspatch.go), and saves it for the next process. A few changed
files are not worth rewriting the corpus file (23 MB on sympy): they
go to a delta file beside it (corpusdelta.go), what patchCorpus would
read from the index for them, and a reader patches the corpus file
with it as it opens it, the definitions' text index where it is read
(lazyText); deltas accumulate until one would pass 100 files or an
eighth of the corpus file, and the corpus file is then written whole.
A stale, truncated, corrupt or older file is rebuilt, never misread:
the stamp and layout are compared first, from the header alone, then
the CRC-32C of the whole file, then every index and offset as the
sections are decoded; a delta names the corpus file it applies to by
stamp and checksum.

A one-shot winnow context maps the file instead of reading it
(Options.MapCorpus; the mapping lives as long as the process, which is
why a long-running server reads it), opens it while the index is being
brought up to date (Preload: used if the update changed nothing) and
turns the garbage collector off up to a soft limit. A long-running
server (package mcpserver) keeps the corpus in memory, loads the next
one as soon as its watcher has indexed a change, and answers from it.
Packing sizes cards with the token estimator and counts only the
rendered pack exactly (see Packing).

Where a one-shot process spends its time: winnow bench context times it
against winnow version, and winnow context --cpuprofile FILE profiles
one run (a run is ~100 ms: merge several, go tool pprof -top BINARY
FILE.*). On sympy, 30 runs merged: decoding the mapped corpus file ~15%
of the CPU, its CRC ~4%; the exact counter's o200k vocabulary, ~20%
while tiktoken-go built it as a map, is now read-only data that costs
nothing to open (package tokens).
*/
package retrieve
