package rawjson

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// documentCases are documents for TestParseDocument and seeds for
// FuzzParseDocument: nested objects and arrays, arrays mixing objects and
// other values, duplicate keys, spacing, and invalid ones.
var documentCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"messages":[{"role":"user","content":[{"type":"text","text":"a\nb"},{"type":"tool_result","content":[{"type":"text","text":"x"}]}]}],"system":"s"}`,
	"{\n  \"a\" : [ 1 , {\"b\" : [ ] } , [ {\"c\":null} ] , \"d\" ] ,\n  \"a\" : { }\n}\n",
	`{"a":[1,2,{"x":{"y":{"z":[true,false]}}}],"b":"\u00e9"}`, `{"a":[{}],"b":[[]],"c":[{},1,{}]}`,
	`[]`, `"x"`, `1`, ``, `{`, `{"a":[1,}`, `{"a":1}x`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a" 1}`, `{1:2}`,
	`{"a":[1 2]}`, `{"a":01}`, `{"a":tru}`, `{"a":{"b":1]}`, `{"a":[{"b":1}}`,
}

func TestParseDocument(t *testing.T) {
	cases := append([]string(nil), documentCases...)
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		cases = append(cases, strings.Repeat(`{"a":`, depth-1)+"[]"+strings.Repeat("}", depth-1))
	}
	for _, src := range cases {
		checkDocument(t, []byte(src))
	}
}

// FuzzParseDocument holds ParseDocument to Valid, ParseObject and
// ParseArray on any input: it accepts exactly the valid objects, and every
// object and array it splits is split as ParseObject and ParseArray split
// that value's bytes.
func FuzzParseDocument(f *testing.F) {
	for _, s := range documentCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkDocument(t, src)
	})
}

func checkDocument(t *testing.T, src []byte) {
	t.Helper()
	doc, err := ParseDocument(src)
	_, objErr := ParseObject(src)
	switch valid := Valid(src); {
	case !valid:
		if !errors.Is(err, ErrSyntax) {
			t.Fatalf("ParseDocument(%.80q) = %v on invalid JSON, want ErrSyntax", src, err)
		}
		return
	case objErr != nil:
		if !errors.Is(err, ErrNotObject) {
			t.Fatalf("ParseDocument(%.80q) = %v on valid JSON that is not an object, want ErrNotObject", src, err)
		}
		return
	case err != nil:
		t.Fatalf("ParseDocument(%.80q) = %v on a valid object", src, err)
	}
	if !Same(doc.Src, src) {
		t.Fatalf("ParseDocument(%.80q): Src is not src", src)
	}
	checkObject(t, doc)
	for _, key := range []string{"messages", "a"} {
		got, err := RequestOf(doc, key)
		want, wantErr := parseRequest(src, key)
		if !errors.Is(err, wantErr) || err == nil && (got.Messages != want.Messages || !slices.Equal(got.Elems, want.Elems)) {
			t.Fatalf("RequestOf(%.80q, %q) = %+v, %v; parseRequest: %+v, %v", src, key, got, err, want, wantErr)
		}
	}
}

// checkObject checks o, and every object and array split inside it,
// against ParseObject and ParseArray of the same bytes.
func checkObject(t *testing.T, o *Object) {
	t.Helper()
	want, err := ParseObject(o.Src)
	if err != nil {
		t.Fatalf("ParseObject(%.80q) = %v", o.Src, err)
	}
	if o.Open != want.Open || o.Close != want.Close || len(o.Members) != len(want.Members) {
		t.Fatalf("split of %.80q: open %d close %d, %d members; ParseObject: %d %d %d",
			o.Src, o.Open, o.Close, len(o.Members), want.Open, want.Close, len(want.Members))
	}
	for i, m := range o.Members {
		w := want.Members[i]
		if m.Key != w.Key || m.KeyStart != w.KeyStart || m.ValueStart != w.ValueStart || m.ValueEnd != w.ValueEnd {
			t.Fatalf("member %d of %.80q: %+v; ParseObject: %+v", i, o.Src, m, w)
		}
		v := o.Value(m)
		if (m.Object != nil) != (v[0] == '{') || (m.Array != nil) != (v[0] == '[') {
			t.Fatalf("member %q of %.80q: object %v, array %v", m.Key, o.Src, m.Object != nil, m.Array != nil)
		}
		if m.Object != nil {
			if !Same(m.Object.Src, v) {
				t.Fatalf("member %q of %.80q: its object is not its value's bytes", m.Key, o.Src)
			}
			checkObject(t, m.Object)
		}
		if m.Array != nil {
			if !Same(m.Array.Src, v) {
				t.Fatalf("member %q of %.80q: its array is not its value's bytes", m.Key, o.Src)
			}
			checkArray(t, m.Array)
		}
	}
}

func checkArray(t *testing.T, a *ArraySpans) {
	t.Helper()
	want, err := ParseArray(a.Src)
	if err != nil {
		t.Fatalf("ParseArray(%.80q) = %v", a.Src, err)
	}
	if len(a.Spans) != len(want.Spans) || a.Objects != nil && len(a.Objects) != len(a.Spans) {
		t.Fatalf("split of %.80q: %d spans, %d objects; ParseArray: %d spans", a.Src, len(a.Spans), len(a.Objects), len(want.Spans))
	}
	hasObject := false
	for k, s := range a.Spans {
		if s != want.Spans[k] {
			t.Fatalf("element %d of %.80q: span %v; ParseArray: %v", k, a.Src, s, want.Spans[k])
		}
		e := a.Src[s[0]:s[1]]
		o := a.Object(k)
		hasObject = hasObject || e[0] == '{'
		if (o != nil) != (e[0] == '{') {
			t.Fatalf("element %d of %.80q: object %v", k, a.Src, o != nil)
		}
		if o != nil {
			if !Same(o.Src, e) {
				t.Fatalf("element %d of %.80q: its object is not its bytes", k, a.Src)
			}
			checkObject(t, o)
		}
	}
	if !hasObject && a.Objects != nil {
		t.Fatalf("%.80q: Objects without objects", a.Src)
	}
}
