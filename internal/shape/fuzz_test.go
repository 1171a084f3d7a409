package shape

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/shape/shapetest"
	"github.com/winnowhq/winnow/internal/tokens"
)

// fuzzSeeds are inputs the fuzzers start from: the fixtures, small
// generated arrays, and texts aimed at the formats' corners.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		`[{"a":"1","b":1,"c":null,"d":""},{"a":"x|y","c":{"k":[1]}},{}]`,
		`[{"u":{"l":"a","i":1}},{"u":null},{"u":{"l":"b","i":2}},{}]`,
		`{"total":1,"items":[{"id":1,"t":"a"},{"id":2,"t":"b"}],"next":null}`,
		`{"a":"line\nbreak","b":" x","c":"007","d":1e400,"e":0.10}`,
		`[{"k.e=y|":1},{"k.e=y|":2}]`,
		"| a | b |\n|---|---|\n| 1 | x, \"y\" |\n| \\| | |\n",
		"[[1],[2]]", `"\ud800"`, "", "2025-01-01 INFO x\n2025-01-01 WARN y\n",
	}
	docs, err := shapetest.Fixtures()
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range docs {
		seeds = append(seeds, d.Text)
	}
	for _, kind := range shapetest.Kinds() {
		d, err := shapetest.Generate(kind, 3, 7)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, d.Text)
	}
	return seeds
}

// FuzzRoundTrip checks, for any text, that Encode does not panic, that
// the gate never has to reject anything (a rejection is an encoder bug),
// that a kept text is returned unchanged, and that the chosen encoding and
// every other encoder that applies decode back to the same JSON (compared
// by encoding/json's token stream) or the same table cells.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	est := tokens.NewEstimator(tokens.O200k)
	f.Fuzz(func(t *testing.T, text string) {
		for _, count := range []func(string) int{nil, est.Count} {
			res := Encode(text, count)
			if res.Rejected != "" {
				t.Fatalf("the gate rejected %s for %q", res.Rejected, text)
			}
			if res.Encoder == "" {
				if res.Text != text {
					t.Fatalf("kept, but the text changed: %q → %q", text, res.Text)
				}
				continue
			}
			if res.After >= res.Before {
				t.Fatalf("%s chosen with %d tokens for %d", res.Encoder, res.After, res.Before)
			}
			checkDecodes(t, text, res.Encoder, res.Text)
		}
		d := inspect(text)
		if d.inexact {
			return
		}
		for _, name := range encodersFor(d.shape) {
			if out, ok := encodeWith(name, &d); ok {
				checkDecodes(t, text, name, out)
			}
		}
	})
}

// checkDecodes fails t unless decoding out with encoder gives back text.
func checkDecodes(t *testing.T, text, encoder, out string) {
	t.Helper()
	got, err := Decode(encoder, out)
	if err != nil {
		t.Fatalf("Decode(%s): %v\ninput: %q\nencoded: %q", encoder, err, text, out)
	}
	if encoder == EncoderMarkdownCSV {
		want, _ := parseMarkdownTable(text)
		back, ok := parseMarkdownTable(got)
		if !ok {
			t.Fatalf("decoded markdown is not a table: %q", got)
		}
		if diff := cmp.Diff(want, back); diff != "" {
			t.Fatalf("cells differ (-want +got):\n%s\ninput: %q", diff, text)
		}
		return
	}
	sameJSON(t, text, got)
}

// FuzzParse checks the JSON parser against encoding/json: it accepts
// exactly what json.Valid accepts (for UTF-8 text), and what it parses
// writes back as the same token stream.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{"01", "-", "1.", ".5", "1e", "[1,]", `{"a" 1}`, `"\u12"`, "\"\t\"", "[] []", "nul", `"\ud83d\ude80"`, "1E+09"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // encoding/json accepts invalid UTF-8 in strings; Classify calls it binary first
		}
		v, inexact, err := parseJSON(s)
		if valid := json.Valid([]byte(s)); (err == nil) != valid {
			t.Fatalf("parseJSON(%q) error %v, json.Valid %v", s, err, valid)
		}
		if err != nil || inexact {
			return
		}
		sameJSON(t, s, string(appendCompact(nil, &v)))
	})
}

// FuzzEncodeBelow holds EncodeBelow, which counts candidates shortest
// first and only as far as they could win, to Encode, with the estimator
// and with a counter of bytes that stops at the limit.
func FuzzEncodeBelow(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	est := tokens.NewEstimator(tokens.O200k)
	bytes := func(s string) int { return len(s) / 3 } // ties are common
	bytesBelow := func(s string, limit int) (int, bool) {
		if n := len(s) / 3; n < limit {
			return n, true
		}
		return limit, false
	}
	f.Fuzz(func(t *testing.T, text string) {
		if want, got := Encode(text, est.Count), EncodeBelow(text, est.Count, est.CountBelow); got != want {
			t.Fatalf("EncodeBelow(%q) with the estimator (-want +got):\n%s", text, cmp.Diff(want, got))
		}
		if want, got := Encode(text, bytes), EncodeBelow(text, bytes, bytesBelow); got != want {
			t.Fatalf("EncodeBelow(%q) by bytes (-want +got):\n%s", text, cmp.Diff(want, got))
		}
	})
}
