package trimtree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/tokens"
)

// o200k returns the exact o200k counter, the one the gateway uses.
func o200k(t testing.TB) func(string) int {
	t.Helper()
	c, err := tokens.Exact(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

// issue is the shape of an item of a GitHub-like list_issues response.
type issue struct {
	ID        int      `json:"id"`
	Number    int      `json:"number"`
	Title     string   `json:"title"`
	State     string   `json:"state"`
	Labels    []string `json:"labels"`
	User      user     `json:"user"`
	Comments  int      `json:"comments"`
	CreatedAt string   `json:"created_at"`
	URL       string   `json:"html_url"`
	Body      string   `json:"body"`
}

type user struct {
	Login string `json:"login"`
	ID    int    `json:"id"`
}

var (
	subjects = []string{"login page", "cache layer", "CLI parser", "billing export", "search index",
		"config loader", "rate limiter", "audit log", "image resizer", "webhook sender", "session store",
		"metrics endpoint", "docs site", "release script", "test runner"}
	problems = []string{"crashes on empty input", "is slow with large files", "leaks goroutines",
		"returns stale data", "ignores the timeout flag", "fails on Windows paths", "double-counts retries",
		"drops the last record", "panics when the context is cancelled", "logs secrets at debug level"}
	prose = strings.Fields(`steps to reproduce run the command with the default configuration and
		watch the output expected behaviour the request completes actual behaviour it hangs until
		the deadline and then reports an unrelated error see the attached trace for details this
		started after the upgrade and only happens on the second attempt we tried disabling the
		feature flag without success`)
	logins = []string{"octocat", "mona", "hubot", "defunkt", "mojombo", "pjhyett", "wycats"}
)

// issues returns n deterministic issues of about 340 bytes each in compact JSON.
func issues(r *rand.Rand, n int) []issue {
	out := make([]issue, n)
	for i := range out {
		words := make([]string, 8+r.IntN(12))
		for j := range words {
			words[j] = prose[r.IntN(len(prose))]
		}
		out[i] = issue{
			ID:        1_000_000 + r.IntN(9_000_000),
			Number:    n - i,
			Title:     subjects[r.IntN(len(subjects))] + " " + problems[r.IntN(len(problems))],
			State:     "open",
			Labels:    []string{[]string{"bug", "enhancement", "question"}[r.IntN(3)]},
			User:      user{Login: logins[r.IntN(len(logins))], ID: 1000 + r.IntN(90_000)},
			Comments:  r.IntN(30),
			CreatedAt: fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00Z", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60)),
			URL:       fmt.Sprintf("https://github.com/acme/widget/issues/%d", n-i),
			Body:      strings.Join(words, " "),
		}
	}
	return out
}

// marshal encodes v, indented when indent is set.
func marshal(t testing.TB, v any, indent bool) string {
	t.Helper()
	var (
		b   []byte
		err error
	)
	if indent {
		b, err = json.MarshalIndent(v, "", "  ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// elements decodes the array at path (dotted, simple keys) of a JSON text
// into its raw elements, compacted.
func elements(t testing.TB, text, path string) []string {
	t.Helper()
	var v any = json.RawMessage(text)
	for _, key := range strings.Split(path, ".") {
		if key == "" {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(v.(json.RawMessage), &obj); err != nil {
			t.Fatalf("decode %q: %v", path, err)
		}
		v = obj[key]
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(v.(json.RawMessage), &raw); err != nil {
		t.Fatalf("decode array at %q: %v\n%s", path, err, text)
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		out[i] = compact(t, string(r))
	}
	return out
}

func compact(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("compact: %v", err)
	}
	return b.String()
}

// checkKept checks the invariants of a trimmed Result (checkTrimmed) and,
// for JSON, that the array at res.Path holds exactly the input's elements
// at res.Kept (checkElements).
func checkKept(t *testing.T, in string, budget int, res Result, count func(string) int) {
	t.Helper()
	checkTrimmed(t, in, budget, res, count)
	if res.Format == FormatJSON {
		checkElements(t, in, res)
	}
}

// checkTrimmed checks a trimmed Result: Kept is non-empty, increasing and
// below Total; Text counts at most budget-HintReserve tokens and After is
// its count; Text is valid JSON for FormatJSON and the kept lines for
// FormatLines.
func checkTrimmed(t *testing.T, in string, budget int, res Result, count func(string) int) {
	t.Helper()
	if len(res.Kept) == 0 {
		t.Fatalf("trimmed (%s) but kept nothing", res.Strategy)
	}
	for j := 1; j < len(res.Kept); j++ {
		if res.Kept[j] <= res.Kept[j-1] {
			t.Fatalf("Kept not increasing: %v", res.Kept)
		}
	}
	if res.Kept[len(res.Kept)-1] >= res.Total {
		t.Fatalf("Kept %v, Total %d", res.Kept, res.Total)
	}
	if n := count(res.Text); n > budget-HintReserve || n != res.After {
		t.Fatalf("Text counts %d tokens (After %d), budget %d - reserve %d", n, res.After, budget, HintReserve)
	}
	if res.Format == FormatLines {
		lines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		var kept []string
		for _, k := range res.Kept {
			kept = append(kept, lines[k])
		}
		want := strings.Join(kept, "\n")
		if strings.HasSuffix(in, "\n") {
			want += "\n"
		}
		if len(lines) != res.Total || want != res.Text {
			t.Fatalf("Text is not the kept lines %v of %d", res.Kept, len(lines))
		}
		return
	}
	if !json.Valid([]byte(res.Text)) {
		t.Fatalf("trimmed text is not valid JSON:\n%s", res.Text)
	}
}

// checkElements checks that the array at res.Path of the trimmed JSON
// holds exactly the input's elements at res.Kept, in order. Paths are
// dotted simple keys.
func checkElements(t testing.TB, in string, res Result) {
	t.Helper()
	all := elements(t, in, res.Path)
	var want []string
	for _, k := range res.Kept {
		want = append(want, all[k])
	}
	got := elements(t, res.Text, res.Path)
	if len(all) != res.Total {
		t.Fatalf("Total %d, the input has %d elements", res.Total, len(all))
	}
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Fatalf("trimmed array is not the kept elements %v", res.Kept)
	}
}
