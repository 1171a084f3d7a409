/*
Package intent decides what kind of task a text asks for, and pulls out the
stack frames it contains, so that retrieval can split a token budget among
the sections of a context pack.

Detect takes the text an agent sends (a GitHub issue, a chat request such
as "add a test for parse_header", a pasted traceback) and returns a Result:
the Kind of task with a Confidence, the score of every kind, the budget
Profile to pack by, the stack Frames, and Signals that say why. It is a
transparent scorer of weighted cue phrases, not a trained model: every
point of a score traces back to a phrase in a table (cues.go) and a weight
named in the code, and the Signals print them.

It does not resolve frames or names to the files and symbols of a
repository (retrieval does; PathSuffixes and Frame.Symbol prepare for it),
does not extract identifiers from prose, and does no I/O. It imports only the standard
library, and Detect is safe for concurrent use.

# Kinds

  - Definition: where is X defined, what does X do, show me X.
  - Usage: who calls X, where is X used, find all usages.
  - Implement: add support for…, implement…, feature requests.
  - BugFix: failures, errors, crashes, wrong results, regressions, traces.
  - Refactor: rename, extract, move, clean up, deprecate, simplify, split.
  - TestWriting: write tests for, add a test, test coverage.

A text with no cue at all (an empty text, a bare identifier such as
"tokens.Meter.TakeN") is a Definition with confidence 0. Looking the name up
is what an agent most often wants from a text that says nothing else, and
the Definition profile spends most of the budget on definitions, which are
useful whatever the task turns out to be. BugFix would spend a fifth on
tests and a quarter on snippets around frames that do not exist.

# Reading the prose

Cues are matched in the prose of the first 16 KB of the text (cueScanBytes),
cut at a line break. Not prose, and skipped: fenced code blocks (``` and
~~~), indented code blocks (four spaces or a tab after a blank line), inline
code spans, HTML comments (the instructions of issue templates), and the
lines the frame parser took as part of a stack trace. Prose is cut into
words: ASCII letters, digits, underscores and non-ASCII letters, lower-cased,
with typographic apostrophes made plain ("doesn’t" is "doesn't"). Hyphens
split words, so "clean-up" matches "clean up". A word that looks like code
is never a cue word: snake_case, camelCase, part of a path, URL or dotted
name ("tests/test_cart.py", "errors.Join"), a call ("add()"), a flag
("--test"), a mention or issue number. A sentence break (",", ";", "!", "?",
brackets, and "." or ":" before a space or the end of a line) separates the
words of a phrase.

The title is the first line of prose: in an issue, the issue's title; in a
one-line chat request, all of it.

# Cues and weights

A cue is a phrase of lower-case words (cueGroups). A word ending in "*"
matches any word it begins ("fail*": fails, failed, failing, failure), and
"..." stands for up to five words (maxGap): "where is ... defined". Cues are
matched leftmost-longest without overlap: at each word the cue with the most
literal words wins, and the words it covers are not matched again. So "add a
test" is TestWriting, not the Implement cue "add"; "regression test" is
TestWriting, not the BugFix cue "regression"; "how is ... used" is Usage,
not the Definition cue "how". Neutral cues, of weight zero, exist only to
cover words that would mislead: "memory usage" (not Usage), "error message"
and "error handling" (not BugFix), "implementation of".

Each cue has one of three weights:

	cueStrong = 4   names the task: "who calls", "write tests for", "stack trace", "rename"
	cueMedium = 2   typical of the kind but said in other tasks too: "error", "fix", "explain", "move"
	cueWeak   = 1   leans one way: "add", "new", "test", "why"

and counts times the weight of its place: titleBoost = 3 in the title, and
1/(1 + d/4096) at d bytes into the body (bodyDecayBytes: a half at 4 KB, a
fifth at 16 KB), because the task is stated at the top and the rest of an
issue is context, logs and asides. A cue counts once per text, at its
best-placed occurrence: a report that says "fails" ten times is not ten
times more a bug. A kind's score is the sum of its cues:

	score(k) = Σ over cues c of kind k found in the text:  weight(c) · max over occurrences o of c: place(o)

Three more signals add to scores:

  - an exception type in prose ("raises KeyError", "a NullPointerException"):
    BugFix, errorTypeWeight = cueMedium, times its place;
  - a title ending in "?": questionLean = cueWeak to Definition and half of
    it to Usage, since questions are mostly lookups;
  - a stack trace (a frame, or a header such as "Traceback (most recent call
    last):", "goroutine 1 [running]:", "--- FAIL:"): scoreTrace = 48 to
    BugFix, the weight of four strong cues in a title, more than real text
    gives another kind. A text with a trace is always a BugFix, with
    confidence at least traceConfidence = 0.9, whatever its prose asks.

Ties go to the kind declared first (Definition, Usage, Implement, BugFix,
Refactor, TestWriting), and scores are summed in a fixed order, so equal
texts give equal results.

# Confidence

With s1 the best score and s2 the second best,

	Confidence = (s1 − s2) / (s1 + confidencePrior),   confidencePrior = cueStrong = 4

and 0 when nothing scored. The margin makes a close call uncertain (a tie
is 0); the prior makes thin evidence uncertain even without a rival: one
weak cue in a body alone gives 1/5 = 0.2, one strong cue in a body 4/8 =
0.5, the same cue in a title 12/16 = 0.75, and it approaches 1 as evidence
for one kind piles up. A stack trace raises it to at least 0.9.

# Budget profiles

A Profile is the share of the budget each Section gets (Definitions,
Snippets, Imports, Tests, Callers), summing to 1; ProfileFor gives each
kind's (profile.go explains the numbers). Result.Profile is the best kind's
profile mixed with the runner-up's in proportion to their scores, so "fix
the failing test TestMeter" (BugFix 18, TestWriting 3) gets 6/7 of BugFix's
and 1/7 of TestWriting's shares.

Profile.Split turns shares into tokens. Sections with nothing to show get
nothing, and their shares go to the others in proportion to their own
shares. Rounding is by largest remainder, so the tokens given out sum to
exactly the total (never more), and a section never gets a token its share
does not earn, except when every section with something to show has a
share of zero: then they split the total equally.

# Stack frames

Frames are searched for in the first 256 KB of the text (frameScanBytes),
cut at a line break, line by line; each line goes to the parsers of the
formats it could belong to:

	Python      File "/srv/app/shop/cart.py", line 88, in total           ("in <module>": Function "")
	pytest      shop/cart.py:61: in total   and   shop/cart.py:71: AttributeError   at column 0
	            FAILED tests/test_cart.py::TestRefund::test_partial[eur] - …   (no line)
	JavaScript  at getUser (/app/src/routes/users.js:27:31)   at /app/src/auth.js:14:5
	            at async loadProfile (…)   at Object.<anonymous> (…)   renderList@http://host/main.js:112:23
	JVM         at com.acme.billing.ConfigLoader.load(ConfigLoader.java:57)   Kotlin, Scala alike
	.NET        at Acme.Orders.OrderService.GetLatest(Int32 id) in /src/OrderService.cs:line 42
	Go          main.(*T).Method(0xc000010000, …)  then  <tab>/home/u/proj/t.go:42 +0x1d
	            created by main.main in goroutine 1;   go test's  <indent>parse_test.go:42: message
	Rust        thread 'main' panicked at src/parser.rs:88:14:   (and the older 'msg', path form)
	            backtraces:  2: tomlish::parser::Parser::parse_table  then  at ./src/parser.rs:88:14

A Frame keeps File as written, Line (1-based, 0 when unknown) and Column
where the trace gives one, Function as written without arguments, Lang by
extension (as package lang names languages), and Symbol: Function as the
index spells qualified names, for symbol lookup. Go keeps the package name
("github.com/x/queue.(*Worker).Run.func1" → "queue.Worker.Run"); Java,
Kotlin, Scala and C# keep the class ("com.acme.Foo$Inner.lambda$run$0" →
"Foo.Inner.run", "<init>" → "Foo.Foo"); JavaScript drops modifiers and
receivers that name no class ("async loadProfile" → "loadProfile",
"Object.<anonymous>" → ""); Rust keeps a method's type ("<app::Doc as
FromStr>::from_str" → "Doc.from_str"); Python keeps the name. Anonymous
functions, lambdas and module-level code have no Symbol.

Library reports code the project does not own: site-packages,
dist-packages, the Python standard library and pseudo-files ("<string>");
node_modules and Node internals; the JDK, the Kotlin and Scala standard
libraries, JUnit and Gradle; the Go root, the module cache and vendor/; the
Rust standard library and cargo's registry; System.* and Microsoft.* in
.NET. Library frames are kept, after the project frames, for the caller to
drop or not.

Order is relevance, the frame to look at first coming first:

 1. Within one trace, innermost frame first: Python and pytest print it last,
    so their traces are reversed; the others print it first.
 2. Across a chain of exceptions, the root cause first: a chained Python
    traceback prints it first ("During handling of the above exception…"),
    a JVM trace last (the deepest "Caused by:"). Other traces keep their
    order in the text (the panicking goroutine comes first).
 3. Duplicates go: two frames with the same cleaned path and line (recursion;
    a Rust panic line and the backtrace frame at the same place), or without
    a line the same path and function. The first stays and takes the
    function of a later one if it had none.
 4. Project frames before library frames, each in the order above.
 5. At most 50 (maxFrames).

PathSuffixes turns File into the repository-relative paths it could be,
longest first ("/home/u/proj/sympy/core/basic.py" → …,
"sympy/core/basic.py", "core/basic.py", "basic.py"), after dropping URL
schemes and hosts, drive letters, and everything up to a site-packages/,
node_modules/ or Go module version directory.

# Cost

Detect reads each byte of the first 256 KB a bounded number of times (lines
longer than 4 KB are not searched for frames, and the search stops once it
has collected 1000 frames past the prose) and does a bounded amount of work
per word of the first 16 KB (a cue has at most two gaps of at most five
words), so its time is linear in what it reads and independent of the rest
of a longer text. BenchmarkDetect, on a shared 2-core machine busy with
other jobs: a 3.6 KB issue with a traceback in 75–150 µs, a 1 MB CI log
ending in an issue in 0.5–1.2 ms, most of it the frame scan of the first
256 KB; about 7 and 11 times one strings.ToLower over the 16 KB Detect
scores, measured in the same runs. BenchmarkDetectPathological holds inputs
built to defeat the shortcuts (a 1 MB line, backtick runs, near-miss gaps,
thousands of "Caused by:"); each costs at most a few times the 1 MB log
(the worst, 16 KB of "where is where is …", about 3 ms).
*/
package intent
