package trimtree

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/terms"
)

// partsOf returns the signal terms the scorer finds in text.
func partsOf(text string, isJSON bool, signals string) []string {
	s := newScorer(Signals{Args: []string{signals}})
	s.seen = make([]int, len(s.weight))
	s.item = 1
	s.scan(text, isJSON)
	names := make([]string, len(s.weight))
	for t, k := range s.slot {
		names[k] = t
	}
	var out []string
	for _, k := range s.hits {
		out = append(out, names[k])
	}
	return out
}

// TestSplitASCIIAgreesWithTerms holds the scorer's allocation-free split
// to terms.SplitIdentifier on random ASCII identifiers.
func TestSplitASCIIAgreesWithTerms(t *testing.T) {
	const alphabet = "aAbBzZ09_xYHTTPid"
	r := rand.New(rand.NewPCG(31, 32))
	for range 20000 {
		b := make([]byte, 1+r.IntN(14))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		word := string(b)
		var got []string
		splitASCII(word, func(p string) { got = append(got, p) })
		if diff := cmp.Diff(terms.SplitIdentifier(word), got); diff != "" {
			t.Fatalf("split %q (-terms +scorer):\n%s", word, diff)
		}
	}
}

func TestScanTerms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		isJSON     bool
		signals    string
		want       []string
	}{
		{"identifiers", "parseHTTPHeader load_cache_entries", false, "parse http headers load caching cache entry", []string{"pars", "http", "header", "load", "cach", "entry"}},
		{"json escapes end words", `"line\nnext\tword\u00e9x"`, true, "line next word nnext tword", []string{"line", "next", "word"}},
		{"backslash in text", `C:\names\tab`, false, "names tab", []string{"name", "tab"}},
		{"unicode", "ÉtatCivil naïve", false, "état civil naïve", []string{"état", "civil", "naïv"}},
		{"stopwords and numbers", "the 42 of it", false, "the 42 of it", nil},
		{"repeats count once", "cache Cache CACHE", false, "cache", []string{"cach"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := partsOf(tc.text, tc.isJSON, tc.signals)
			if diff := cmp.Diff(tc.want, got, cmpopts.SortSlices(strings.Compare)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValues(t *testing.T) {
	l, _ := findList(strings.Join([]string{
		"cache miss on login", // cache (3 of 5), login (2 of 5)
		"cache warm",          // cache
		"login failed",        // login
		"cache cold",          // cache
		"nothing to see here", // none
	}, "\n"))
	sig := Signals{Args: []string{"cache"}, Recent: []string{"login", "absent"}}
	got := newScorer(sig).values(l)
	cache := weightArg * math.Log(5.0/3)
	login := weightRecent * math.Log(5.0/2)
	total := cache + login
	want := []float64{(cache + login) / total, cache / total, login / total, cache / total, 0}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

func TestValuesFlat(t *testing.T) {
	l, _ := findList("open bug one\nopen bug two\nopen bug three\n")
	for _, sig := range []Signals{{}, {Args: []string{"open", "bug"}}, {Args: []string{"absent"}}} {
		if v := newScorer(sig).values(l); !flat(v) {
			t.Errorf("signals %v: values %v, want flat", sig, v)
		}
	}
	if v := newScorer(Signals{Args: []string{"two"}}).values(l); flat(v) {
		t.Errorf("values %v flat, want item 1 above the others", v)
	}
}

// TestScanAgreesWithTerms holds the scorer's scan, with its shortcuts, to
// package terms on random text that is not JSON: the signal terms it finds
// in a text are the text's terms that are signal terms.
func TestScanAgreesWithTerms(t *testing.T) {
	pieces := []string{"parseHTTPHeader", "load_cache", "Cache", "CACHES", "caching", "dependencies",
		"ÉtatCivil", "naïve", "日本語", "\u212Aelvin", "kelvins", "x2y", "v1.2", "__init__", "the", "42", "-", " ", "\n",
		"\\n", "\"", "\xff", "reconnects", "RECONNECT", "webSocket", "WebSockets", "ab", "Ab", "aB"}
	r := rand.New(rand.NewPCG(33, 34))
	for trial := range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		var signals []string
		for range 1 + r.IntN(4) {
			signals = append(signals, pieces[r.IntN(len(pieces))])
		}
		want := map[string]bool{}
		sigTerms := map[string]bool{}
		for _, w := range signals {
			for _, term := range terms.Terms(w) {
				sigTerms[term] = true
			}
		}
		for _, term := range terms.Terms(text) {
			if sigTerms[term] {
				want[term] = true
			}
		}
		got := map[string]bool{}
		for _, term := range partsOf(text, false, strings.Join(signals, " ")) {
			got[term] = true
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("trial %d: text %q, signals %q (-terms +scorer):\n%s", trial, text, signals, diff)
		}
	}
}
