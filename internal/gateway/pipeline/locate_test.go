package pipeline

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walkItems finds the elements of the arrays at path with the validating
// jsonWalk, the way listOf did before the locator: the reference the
// locator is held to.
func walkItems(text, path string) ([]span, error) {
	var want []pathPart
	if path != "" {
		var n int
		var ok bool
		want, n, ok = parsePath(path)
		if !ok || n != len(path) {
			return nil, errors.New("unreadable array path")
		}
	}
	var items []span
	var w *jsonWalk
	w = &jsonWalk{s: text, element: func(start, end int) {
		if matches(w.path[:len(w.path)-1], want) {
			items = append(items, span{start, end})
		}
	}}
	if err := w.run(); err != nil {
		return nil, err
	}
	return items, nil
}

var locatePaths = []string{"", "items", "data.search.nodes", `["a b"]`, `["a b"].x`, "a[1]", "items[0]"}

func TestArrayItems(t *testing.T) {
	docs := []string{
		`[1, "two", {"a": [3]}, [4, 5], null]`,
		" \n[ ]\n",
		`{"total": 2, "items": [{"id": 1, "s": "a]\"}"}, {"id": 2}], "next": null}`,
		`{"data": {"search": {"nodes": [[1], {"x": "y"}], "count": 2}}}`,
		`{"items": [1], "items": [2, 3]}`,
		`{"a b": [true, false], "a\u0020b": [0]}`,
		`{"a b": {"x": ["p", "q"]}}`,
		`{"a": [[9], [8, 7]]}`,
		`{"items": {"nested": [1]}, "other": [[["items"]]]}`,
		`{"items": "not an array"}`,
		`"just a string"`,
		`-12.5e3`,
	}
	for _, doc := range docs {
		for _, path := range locatePaths {
			want, wantErr := walkItems(doc, path)
			got, err := arrayItems(doc, path)
			if (err != nil) != (wantErr != nil) || !cmp.Equal(want, got, cmp.AllowUnexported(span{})) {
				t.Errorf("arrayItems(%s, %q) = %v, %v; want %v, %v", doc, path, got, err, want, wantErr)
			}
		}
	}
}

// FuzzArrayItems holds the locator to the validating walk on every valid
// JSON document, and checks that it does not panic on any other text.
func FuzzArrayItems(f *testing.F) {
	for _, s := range []string{`[1,[2],{"a":"]"}]`, `{"items":[{"x":1},{"y":"\"}"}]}`, `{"data":{"search":{"nodes":[1,2]}}}`, `{"a b":[1]}`, `{"a":[[1],[2,3]]}`, `[`, `{"items":[1,`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		valid := json.Valid([]byte(doc))
		for _, path := range locatePaths {
			got, err := arrayItems(doc, path)
			if !valid {
				continue
			}
			want, wantErr := walkItems(doc, path)
			if (err != nil) != (wantErr != nil) || !cmp.Equal(want, got, cmp.AllowUnexported(span{})) {
				t.Fatalf("arrayItems(%q, %q) = %v, %v; want %v, %v", doc, path, got, err, want, wantErr)
			}
		}
	})
}
