package intent

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kindCases are realistic task texts: chat requests to an agent, and issue
// titles with bodies in the style of GitHub issues (written for this test).
var kindCases = []struct {
	name string
	text string
	want Kind
}{
	// Definition lookup.
	{"where defined", "where is parse_header defined?", Definition},
	{"what does it do", "What does `Engine.Context` do with the budget it gets?", Definition},
	{"show me", "show me RetryPolicy", Definition},
	{"explain", "Explain how the tokenizer splits camelCase identifiers", Definition},
	{"how does it work", "How does the index decide which files to re-parse after a git checkout?", Definition},
	{"signature", "what's the signature of NewEstimator", Definition},
	{"where can I find", "Where can I find the code that renders the XML context pack", Definition},
	{"question issue", `Question: what is the purpose of the "packageQualifies" rule?

I'm reading lang/extract.go and I don't understand why Go and C# prefix top-level
names with the package while Java doesn't. Could someone explain the reasoning?`, Definition},
	{"bare identifier", "tokens.Meter.TakeN", Definition},

	// Usage exploration.
	{"who calls", "who calls ProfileFor?", Usage},
	{"where used", "Where is `DEFAULT_TIMEOUT` used in the codebase", Usage},
	{"find all usages", "find all usages of the deprecated Span.Lines method", Usage},
	{"callers of", "list the callers of cleanPath", Usage},
	{"what would break", "If I change the signature of Budget.Count, what would break?", Usage},
	{"references to", "Find references to settings.CACHE_DIR across all packages", Usage},
	{"how is it used", "How is the `on_error` callback used by the scheduler and the worker pool?", Usage},
	{"show me how it is called", "Show me how ParseKind is called from the CLI", Usage},
	{"call sites issue", `Audit call sites of unsafe_eval before 2.0

Before we drop unsafe_eval we need to know every place it is invoked, including
the plugin loader and the template engine, and who depends on its return value.`, Usage},

	// Implementation.
	{"add support", "Add support for TOML config files", Implement},
	{"implement", "implement a --json flag for the outline command", Implement},
	{"feature request issue", `Feature request: allow excluding directories from the index

It would be nice to have a way to tell the indexer to skip generated directories
such as build/ and dist/. Something like an "exclude" list in winnow.toml.`, Implement},
	{"would be great", "It would be great if the CLI could print results as Markdown tables", Implement},
	{"create new", "Create a new MCP tool that returns the outline of a directory", Implement},
	{"not supported", `Kotlin script files are not supported

Files ending in .kts are skipped by the indexer. Please add support for them;
the grammar is the same as for .kt files.`, Implement},
	{"new endpoint", "add a new endpoint /v1/health that reports the index age", Implement},
	{"port", "Port the Python tokenizer to Go", Implement},
	{"enhancement issue", `[Enhancement] Stream search results instead of buffering them

For large repositories the server holds every match in memory before replying.
Introduce a streaming mode that sends results as they are found.`, Implement},

	// Bug fix.
	{"crash title", "Crash when indexing a repository with a symlink loop", BugFix},
	{"fails", "winnow index fails on files with CRLF line endings", BugFix},
	{"wrong result", "Budget.Split returns the wrong total when a section is empty", BugFix},
	{"regression issue", `Regression in 0.4.2: outline shows methods twice

After upgrading from 0.4.1, every method of a Rust impl block appears twice in
the outline output. Expected behavior: each method once.`, BugFix},
	{"doesn't work", "The --since flag doesn't work with relative dates", BugFix},
	{"exception in body", `Parsing a header with a trailing colon

Calling parse_header("Host:") raises IndexError instead of returning an empty
value. I think the split at the colon assumes there is something after it.`, BugFix},
	{"unexpected", "Unexpected empty result from find_symbol after renaming a file", BugFix},
	{"panic issue", `panic in watcher when a directory is deleted

Deleting a watched directory while the server runs makes it panic with a nil
pointer dereference. Steps to reproduce: start winnow mcp, then rm -rf a package.`, BugFix},
	{"bug template", `**Describe the bug**
Token counts reported by the proxy are off by one for messages that end in a newline.

**To Reproduce**
Send a message ending in "\n" through winnow proxy.

**Expected behavior**
The count matches tiktoken.`, BugFix},
	{"fix chat", "fix the off-by-one in the line index", BugFix},
	{"returns none", "parse_header returns None for headers with a trailing colon", BugFix},
	{"ignored flag", "The `--limit` flag is ignored by `winnow outline`", BugFix},
	{"fix failing test", "fix the failing test TestMeter", BugFix},

	// Refactoring.
	{"rename", "rename Budget.Limit to Budget.Max everywhere", Refactor},
	{"extract", "Extract the retry loop in client.go into its own function", Refactor},
	{"move", "move the path helpers from cli into a new package named paths", Refactor},
	{"clean up", "Clean up the error handling in the proxy's decode path", Refactor},
	{"deprecate", "Deprecate the old --format=plain output in favor of --format=text", Refactor},
	{"simplify", "Simplify the fence detection in scanProse, it has three nested ifs", Refactor},
	{"split", "split server.go into one file per handler", Refactor},
	{"use instead", "Use errors.Join instead of the custom multiError type", Refactor},
	{"replace with", "Replace the hand-written JSON encoder with encoding/json", Refactor},
	{"remove deprecated", "Remove the deprecated `--json` flag", Refactor},
	{"refactor issue", `Refactor: consolidate the three copies of the path-cleaning code

index, retrieve and cli each have their own cleanPath with slightly different
rules. Pull them into one function without changing behavior.`, Refactor},

	// Test writing.
	{"add a test", "add a test for parse_header", TestWriting},
	{"write unit tests", "Write unit tests for the Meter type, including the unlimited budget", TestWriting},
	{"coverage", "Increase test coverage of the gateway's dedup stage", TestWriting},
	{"table-driven", "add table-driven tests for splitLoc with Windows paths", TestWriting},
	{"regression test", "Add a regression test for issue #212 (CRLF line endings)", TestWriting},
	{"untested issue", `detect.go is untested

The intent package has no tests for the confidence formula. We need test cases
for ties, for an empty text and for a text with only a traceback.`, TestWriting},
	{"fuzz test", "write a fuzz test for the txtar parser", TestWriting},
	{"pytest", "Write pytest tests covering the CSV exporter's quoting rules", TestWriting},
}

func TestDetectKinds(t *testing.T) {
	for _, tt := range kindCases {
		t.Run(tt.name, func(t *testing.T) {
			r := Detect(tt.text)
			if r.Kind != tt.want {
				t.Errorf("Detect(%q).Kind = %v, want %v\nscores %v\nsignals %q", tt.text, r.Kind, tt.want, r.Scores, r.Signals)
			}
		})
	}
}

// TestDetectKindsPerKind keeps at least five cases of every kind in
// kindCases.
func TestDetectKindsPerKind(t *testing.T) {
	var n [NumKinds]int
	for _, tt := range kindCases {
		n[tt.want]++
	}
	for k, c := range n {
		if c < 5 {
			t.Errorf("%v has %d cases, want at least 5", Kind(k), c)
		}
	}
}

func TestDetectEmpty(t *testing.T) {
	for _, text := range []string{"", "   \n\t\r\n ", "```\nfoo()\n```"} {
		r := Detect(text)
		want := Result{Kind: Definition, Profile: ProfileFor(Definition)}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("Detect(%q) (-want +got):\n%s", text, diff)
		}
	}
}

// TestDetectOrderings checks how evidence moves scores and confidence,
// by comparing texts, never against float values.
func TestDetectOrderings(t *testing.T) {
	filler := strings.Repeat("The importer reads the statement and posts the entries to the ledger.\n", 150) // ~10 KB
	tests := []struct {
		name            string
		kind            Kind
		higher, lower   string
		compareConfOnly bool
	}{
		{"title outweighs body", BugFix, "Crash on import\n\nSee below.", "Import\n\nIt crashes, see below.", false},
		{"near the top outweighs deep in the body", BugFix, "Import\n\nIt crashes.\n" + filler, "Import\n\n" + filler + "It crashes.\n", false},
		{"strong outweighs weak", Implement, "add support for YAML", "add YAML", false},
		{"two cues outweigh one", BugFix, "Import fails with an error", "Import fails", false},
		{"a cue repeated counts once", BugFix, "Import fails\n\nIt fails, and fails again, and then fails.", "Import fails\n\nIt fails.", true},
		{"code blocks are not prose", BugFix, "Import\n\nthe import crashes", "Import\n\n```\nthe import crashes\n```", false},
		{"indented code is not prose", BugFix, "Import\n\nthe import crashes", "Import\n\n    the import crashes", false},
		{"inline code is not prose", BugFix, "Import\n\nthe import crashes", "Import\n\nthe import `crashes`", false},
		{"HTML comments are not prose", BugFix, "Import\n\nthe import crashes", "Import\n\n<!-- the import\ncrashes -->", false},
		{"identifiers are not cue words", TestWriting, "add a test for the parser", "fix test_parser and tests/fixtures/x.csv", false},
		{"cues past the scan limit do not count", BugFix, "Import\n\nIt crashes.\n" + strings.Repeat(filler, 2), "Import\n\n" + strings.Repeat(filler, 2) + "It crashes.\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hi, lo := Detect(tt.higher), Detect(tt.lower)
			if tt.compareConfOnly {
				if hi.Scores[tt.kind] != lo.Scores[tt.kind] {
					t.Errorf("%v scores %v and %v, want equal\nsignals %q\nand %q", tt.kind, hi.Scores[tt.kind], lo.Scores[tt.kind], hi.Signals, lo.Signals)
				}
				return
			}
			if hi.Scores[tt.kind] <= lo.Scores[tt.kind] {
				t.Errorf("%v score %v of %.40q is not above %v of %.40q\nsignals %q\nand %q",
					tt.kind, hi.Scores[tt.kind], tt.higher, lo.Scores[tt.kind], tt.lower, hi.Signals, lo.Signals)
			}
		})
	}
}

func TestDetectConfidence(t *testing.T) {
	strongTitle := Detect("who calls ParseKind")
	strongBody := Detect("ParseKind\n\nwho calls it")
	weak := Detect("add ParseKind")
	tie := Detect("callers of ParseKind, definition of ParseKind")
	none := Detect("ParseKind")
	trace := Detect(`  File "/p/a.py", line 3, in f`)
	if !(trace.Confidence > strongTitle.Confidence && strongTitle.Confidence > strongBody.Confidence &&
		strongBody.Confidence > weak.Confidence && weak.Confidence > 0) {
		t.Errorf("confidences: trace %.2f, strong title %.2f, strong body %.2f, weak %.2f; want decreasing and positive",
			trace.Confidence, strongTitle.Confidence, strongBody.Confidence, weak.Confidence)
	}
	if tie.Confidence != 0 || tie.Kind != Definition {
		t.Errorf("a tie: %v %.2f, want definition (declared first) with confidence 0; scores %v", tie.Kind, tie.Confidence, tie.Scores)
	}
	if none.Confidence != 0 || none.Kind != Definition {
		t.Errorf("no cue: %v %.2f, want definition 0", none.Kind, none.Confidence)
	}
}

// TestDetectTraceForcesBugFix: a stack trace makes a bug fix whatever the
// prose asks.
func TestDetectTraceForcesBugFix(t *testing.T) {
	text := "where is load_config defined?\n\n" + "```\nTraceback (most recent call last):\n" +
		"  File \"/srv/app/config.py\", line 12, in load_config\n    return toml.load(fh)\n" +
		"ValueError: bad\n```\n"
	r := Detect(text)
	if r.Kind != BugFix || r.Confidence < traceConfidence || len(r.Frames) != 1 {
		t.Errorf("Detect: %v %.2f with %d frames, want bug_fix, at least %.2f, 1 frame", r.Kind, r.Confidence, len(r.Frames), traceConfidence)
	}
	if r.Scores[Definition] == 0 {
		t.Error("the prose still scores: Definition should be above 0")
	}
	if want := "bug_fix +48.0: stack trace, 1 frame"; len(r.Signals) == 0 || r.Signals[0] != want {
		t.Errorf("Signals = %q, want %q first", r.Signals, want)
	}
}

func TestDetectProfileMix(t *testing.T) {
	r := Detect("fix the failing test TestMeter")
	bug, tw := ProfileFor(BugFix), ProfileFor(TestWriting)
	if r.Kind != BugFix {
		t.Fatalf("Kind = %v, want bug_fix", r.Kind)
	}
	if got := r.Profile[Tests]; !(got > bug[Tests] && got < tw[Tests]) {
		t.Errorf("Tests share %.3f, want between bug_fix's %.2f and test_writing's %.2f", got, bug[Tests], tw[Tests])
	}
	if r := Detect("who calls ParseKind"); r.Profile != ProfileFor(Usage) {
		t.Errorf("one kind alone: profile %v, want usage's %v", r.Profile, ProfileFor(Usage))
	}
}

// TestDetectScanLimits: frames are found up to frameScanBytes, cues up to
// cueScanBytes; a huge text is still read.
func TestDetectScanLimits(t *testing.T) {
	trace := "Traceback (most recent call last):\n  File \"/p/a.py\", line 3, in f\nValueError: x\n"
	pad := strings.Repeat("2024-05-01T10:00:00Z INFO worker: processed batch\n", 1<<20/50)
	if r := Detect("Import\n" + pad[:100<<10] + trace + pad); len(r.Frames) != 1 {
		t.Errorf("a trace at 100 KB: %d frames, want 1", len(r.Frames))
	}
	if r := Detect("Import\n" + pad + trace); r.Frames != nil {
		t.Errorf("a trace at 1 MB: %d frames, want none", len(r.Frames))
	}
	if r := Detect("Import\n" + pad[:cueScanBytes] + "It crashes.\n"); r.Scores[BugFix] != 0 {
		t.Errorf("a cue past cueScanBytes scored %v", r.Scores[BugFix])
	}
}

// FuzzDetect checks that Detect never panics and that its result keeps
// its promises on any input: a kind, a confidence in [0, 1], a profile
// summing to 1, at most maxFrames frames with lines and columns not
// negative, project frames before library frames, a bug fix whenever
// there are frames, and the same result every time.
func FuzzDetect(f *testing.F) {
	for _, tt := range kindCases {
		f.Add(tt.text)
	}
	data, err := os.ReadFile("testdata/issue_traceback.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("at a (b:1:2)\n\tat c.d(e.java:3)\ngoroutine 1 [running]:\nf()\n\t/g.go:4 +0x1\nthread 'h' panicked at i.rs:5:6:")
	f.Add("<!-- `x` ```\n~~~\n    \t’s … — “q” é 日本")
	f.Fuzz(func(t *testing.T, text string) {
		r := Detect(text)
		if r.Kind >= NumKinds {
			t.Fatalf("Kind %d", r.Kind)
		}
		if !(r.Confidence >= 0 && r.Confidence <= 1) {
			t.Fatalf("Confidence %v", r.Confidence)
		}
		sum := 0.0
		for _, share := range r.Profile {
			if !(share >= 0) {
				t.Fatalf("Profile %v", r.Profile)
			}
			sum += share
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("Profile %v sums to %v", r.Profile, sum)
		}
		for _, s := range r.Scores {
			if !(s >= 0) {
				t.Fatalf("Scores %v", r.Scores)
			}
		}
		if len(r.Frames) > maxFrames {
			t.Fatalf("%d frames", len(r.Frames))
		}
		lib := false
		for _, fr := range r.Frames {
			if fr.Line < 0 || fr.Column < 0 {
				t.Fatalf("frame %+v", fr)
			}
			if lib && !fr.Library {
				t.Fatalf("project frame %+v after a library frame", fr)
			}
			lib = fr.Library
		}
		if r.Frames != nil && r.Kind != BugFix {
			t.Fatalf("%d frames but Kind %v", len(r.Frames), r.Kind)
		}
		if again := Detect(text); !cmp.Equal(r, again) {
			t.Fatalf("two runs differ: %v", cmp.Diff(r, again))
		}
	})
}

// BenchmarkDetect runs Detect on a 3.6 KB issue with a traceback and on a
// 1 MB CI log ending in one, each beside a peer: one strings.ToLower over
// the bytes Detect reads at most for cues, the cheapest pass a scorer
// could make. Compare the two lines of each input.
func BenchmarkDetect(b *testing.B) {
	data, err := os.ReadFile("testdata/issue_traceback.md")
	if err != nil {
		b.Fatal(err)
	}
	issue := string(data)
	logLine := "2024-05-01T10:00:00.123Z INFO  runner: step 'integration' still running, 412 tests passed\n"
	var big strings.Builder
	big.WriteString("CI run 4412 fails on main\n\n")
	for big.Len() < 1<<20-len(issue) {
		big.WriteString(logLine)
	}
	big.WriteString(issue)
	for _, in := range []struct{ name, text string }{{"issue", issue}, {"1MB", big.String()}} {
		b.Run(in.name+"/detect", func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				Detect(in.text)
			}
		})
		b.Run(in.name+"/tolower-peer", func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				_ = strings.ToLower(head(in.text, cueScanBytes))
			}
		})
	}
}

// BenchmarkDetectPathological runs Detect on 1 MB inputs built to defeat
// its shortcuts (one huge line, backtick runs, deep parentheses, gaps that
// almost match, long exception chains). Each should cost about as much as
// BenchmarkDetect/1MB: a quadratic step shows as a jump here.
func BenchmarkDetectPathological(b *testing.B) {
	const mb = 1 << 20
	inputs := []struct{ name, text string }{
		{"one-line", strings.Repeat("where is the thing defined and who calls it ", mb/44)},
		{"colons", strings.Repeat(".py:", mb/4)},
		{"backticks", strings.Repeat("` ``", mb/4)},
		{"parens", strings.Repeat(strings.Repeat("(", 4000)+")\n\t/a.go:1 +0x1\n", mb/4016)},
		{"near-misses", strings.Repeat("where is where is where is ", mb/27)},
		{"caused-by", strings.Repeat("Caused by: x\n\tat a.b(C.java:1)\n", mb/31)},
		{"at-lines", strings.Repeat("at a (b:1:2)\n", mb/13)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				Detect(in.text)
			}
		})
	}
}
