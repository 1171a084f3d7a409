package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// referenceCounts are token counts from OpenAI's tiktoken (npm package
// tiktoken@1.0.22, encode_ordinary), produced by a node script of the form
//
//	const { get_encoding } = require("tiktoken");
//	for (const name of ["o200k_base", "cl100k_base"]) {
//		const enc = get_encoding(name);
//		console.log(enc.encode_ordinary(text).length);
//	}
var referenceCounts = []struct {
	name          string
	text          string
	o200k, cl100k int
}{
	{"empty", "", 0, 0},
	{"single space", " ", 1, 1},
	{"english", "hello world", 2, 2},
	{"contractions", "I'm sure they'll say it's fine, don't you think?", 11, 15},
	{"numbers", "1234567890 3.14159 -42 1e10", 15, 15},
	{"long word", "supercalifragilisticexpialidocious", 10, 11},
	{"identifiers", "XMLHttpRequest getHTTPResponseCode snake_case_name", 10, 9},
	{"non-ascii latin", "Größe, café, señor, naïve", 9, 10},
	{"cjk", "Hello, 世界. こんにちは、世界！ 안녕하세요", 11, 18},
	{"cyrillic", "Привет, мир! Тест падает только на Windows.", 13, 16},
	{"emoji", "👋🌍 ship it 🚀🔥👍 family: 👨‍👩‍👧‍👦 ⚠️", 26, 40},
	{"go code", "func main() {\n\tif err := run(); err != nil {\n\t\tfmt.Fprintln(os.Stderr, err)\n\t\tos.Exit(1)\n\t}\n}\n", 32, 31},
	{"python code", "def square(x: int) -> int:\n    \"\"\"Return x squared.\"\"\"\n    return x ** 2  # fast\n", 25, 25},
	{"json", "{\"id\": 42, \"name\": \"winnow\", \"tags\": [\"a\", \"b\"], \"ok\": true, \"ratio\": 0.75}", 36, 35},
	{"whitespace runs", "a    b\t\t\tc\n\n\n   \n d        ", 9, 9},
	{"only newlines", "\n\n\n\n", 1, 1},
	{"crlf", "line one\r\nline two\r\n", 6, 6},
	{"special token text", "before <|endoftext|> after", 9, 8},
	{"punctuation runs", "=== RUN   TestX\n--- FAIL: TestX (0.00s)\n// ------------------------------------------------\n", 19, 20},
	{"repeated", strings.Repeat("ab ", 500), 501, 501},
}

func TestExactMatchesTiktoken(t *testing.T) {
	for _, enc := range []Encoding{O200k, CL100k} {
		c, err := Exact(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range referenceCounts {
			t.Run(string(enc)+"/"+tt.name, func(t *testing.T) {
				want := tt.o200k
				if enc == CL100k {
					want = tt.cl100k
				}
				if got := c.Count(tt.text); got != want {
					t.Errorf("Count(%q) = %d, want %d", tt.text, got, want)
				}
				if got := Count(enc, tt.text); got != want {
					t.Errorf("tokens.Count(%s, %q) = %d, want %d", enc, tt.text, got, want)
				}
			})
		}
	}
}

func TestExactUnknownEncoding(t *testing.T) {
	for _, enc := range []Encoding{"", "p50k_base", "o200k"} {
		if _, err := Exact(enc); err == nil {
			t.Errorf("Exact(%q): no error", enc)
		}
	}
}

func TestExactSharesEncoder(t *testing.T) {
	a, err := Exact(O200k)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Exact(O200k)
	if err != nil {
		t.Fatal(err)
	}
	if a.(exact).enc != b.(exact).enc {
		t.Error("two Exact(O200k) counters have separate encoders")
	}
}

// TestExactConcurrent counts the corpus from many goroutines with one
// counter; run under -race it checks the counter is safe to share, and the
// counts must equal the sequential ones.
func TestExactConcurrent(t *testing.T) {
	c, err := Exact(O200k)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tt := range referenceCounts {
		texts = append(texts, tt.text)
	}
	for _, cf := range loadCorpus(t) {
		texts = append(texts, chunk(cf.text, 512)[0]) // a little of every file
	}
	want := make([]int, len(texts))
	for i, text := range texts {
		want[i] = c.Count(text)
	}
	const workers = 8
	got := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]int, len(texts))
		wg.Go(func() {
			for k := range texts {
				i := (k + w*7) % len(texts) // each worker starts elsewhere
				got[w][i] = c.Count(texts[i])
			}
		})
	}
	wg.Wait()
	for w := range workers {
		if diff := cmp.Diff(want, got[w]); diff != "" {
			t.Errorf("worker %d counts differ from sequential (-want +got):\n%s", w, diff)
		}
	}
}

// benchInput is the Go class of the calibration corpus, concatenated:
// about 100 KB of real Go source.
func benchInput(b *testing.B) string {
	b.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "corpus", "go", "*.go"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("glob Go corpus: %v (%d files)", err, len(paths))
	}
	var sb strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
	}
	return sb.String()
}

func benchmarkCounter(b *testing.B, c Counter) {
	text := benchInput(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = c.Count(text)
	}
	b.ReportMetric(float64(n), "tokens")
}

func BenchmarkExactO200k(b *testing.B) {
	c, err := Exact(O200k)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkCounter(b, c)
}

func BenchmarkExactCL100k(b *testing.B) {
	c, err := Exact(CL100k)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkCounter(b, c)
}

func BenchmarkEstimate(b *testing.B) {
	benchmarkCounter(b, NewEstimator(O200k))
}

// TestEncode checks Encode against tiktoken's counts and that its ids decode
// back to the text.
func TestEncode(t *testing.T) {
	for _, enc := range []Encoding{O200k, CL100k} {
		c, err := codec(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range referenceCounts {
			t.Run(string(enc)+"/"+tt.name, func(t *testing.T) {
				want := tt.o200k
				if enc == CL100k {
					want = tt.cl100k
				}
				ids, err := Encode(enc, tt.text)
				if err != nil {
					t.Fatal(err)
				}
				if len(ids) != want {
					t.Errorf("len(Encode(%q)) = %d, want %d", tt.text, len(ids), want)
				}
				got, err := c.Decode(ids)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.text, got); diff != "" {
					t.Errorf("Decode(Encode(%q)) (-want +got):\n%s", tt.text, diff)
				}
			})
		}
	}
	if _, err := Encode("p50k_base", "x"); err == nil {
		t.Error(`Encode("p50k_base"): no error`)
	}
}
