package trimtree

import (
	"reflect"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/shape"
)

// FuzzTrimItems holds TrimItems, given the element ranges that
// shape.EncodeBelowSpans records, to Trim: when shape parses a text as a
// JSON array, the ranges are the items Trim finds and the results are the
// same.
func FuzzTrimItems(f *testing.F) {
	count := o200k(f)
	f.Add(`[{"id":1,"title":"cache miss"},{"id":2,"title":"login"},{"id":3,"title":"cache warm"}]`, uint16(60), "cache")
	f.Add(" [ {\"a\": [1, 2]} ,\n  {\"b\": \"y\"}\t, 3, \"s\\u00e9\", [], {} ]\n", uint16(50), "y")
	f.Add(`["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p"]`, uint16(52), "c")
	f.Add(`[]`, uint16(1), "")
	f.Add(`{"items":[{"a":1},{"a":2}]}`, uint16(50), "")
	f.Add(`[{"a":1},{"b":`, uint16(50), "")
	f.Fuzz(func(t *testing.T, text string, budget uint16, args string) {
		_, ints := shape.EncodeBelowSpans(text, nil, nil, nil)
		if len(ints)%2 != 0 {
			t.Fatalf("odd number of offsets: %v", ints)
		}
		if len(ints) == 0 {
			return
		}
		items := make([]Span, len(ints)/2)
		for i := range items {
			items[i] = Span{ints[2*i], ints[2*i+1]}
		}
		sig := Signals{Args: strings.Fields(args)}
		want, werr := Trim(text, int(budget), sig, count)
		got, gerr := TrimItems(text, items, int(budget), sig, count)
		if (werr != nil) != (gerr != nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("TrimItems = %+v, %v\nTrim = %+v, %v", got, gerr, want, werr)
		}
		if l, ok := findList(text); !ok || !reflect.DeepEqual(knownList(text, items), l) {
			t.Fatalf("ranges %v, Trim's list %+v", items, l)
		}
	})
}
