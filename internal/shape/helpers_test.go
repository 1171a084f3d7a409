package shape

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/shape/shapetest"
	"github.com/winnowhq/winnow/internal/tokens"
)

// jsonTokens returns the token stream encoding/json reads from s, numbers
// as their literal text. Two documents with equal streams are the same
// JSON, key order and number text included. The round-trip tests compare
// streams from encoding/json rather than this package's parser, so a bug
// shared by the parser and an encoder cannot hide.
func jsonTokens(s string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var toks []any
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return toks, nil
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok {
			tok = string(d) + "delim" // keep delimiters apart from strings
		}
		toks = append(toks, tok)
	}
}

// sameJSON fails t unless got is the same JSON as want.
func sameJSON(t *testing.T, want, got string) {
	t.Helper()
	w, err := jsonTokens(want)
	if err != nil {
		t.Fatalf("original is not JSON: %v", err)
	}
	g, err := jsonTokens(got)
	if err != nil {
		t.Fatalf("decoded text is not JSON: %v\n%s", err, got)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("decoded JSON differs (-want +got):\n%s", diff)
	}
}

// o200k returns the exact o200k counter.
func o200k(t testing.TB) func(string) int {
	t.Helper()
	c, err := tokens.Exact(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

// corpus returns the fixtures and generated arrays of every kind, sized
// 1, 2, 10 and 100, from two seeds.
func corpus(t testing.TB) []shapetest.Doc {
	t.Helper()
	docs, err := shapetest.Fixtures()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range shapetest.Kinds() {
		for _, n := range []int{1, 2, 10, 100} {
			for _, seed := range []uint64{1, 2} {
				d, err := shapetest.Generate(kind, n, seed)
				if err != nil {
					t.Fatal(err)
				}
				d.Name += fmt.Sprintf("/seed%d", seed)
				docs = append(docs, d)
			}
		}
	}
	return docs
}

// largeDocs returns one generated array of n objects of each kind.
func largeDocs(t testing.TB, n int) []shapetest.Doc {
	t.Helper()
	var docs []shapetest.Doc
	for _, kind := range shapetest.Kinds() {
		d, err := shapetest.Generate(kind, n, 3)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// parseJSON parses s, which must be valid UTF-8, as one JSON value with
// optional surrounding whitespace.
func parseJSON(s string) (tape, bool, error) {
	var t tape
	inexact, err := t.parse(s)
	return t, inexact, err
}

// decodeTable reads a table written by encodeTable.
func decodeTable(text string) (tape, error) {
	var t tape
	err := t.decodeTable(text)
	return t, err
}
