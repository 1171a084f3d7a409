package rawjson

import (
	"testing"
)

// TestSpliceBody checks SpliceBody against what it stands for: Splice
// with the messages array spliced by SpliceArray among the edits.
func TestSpliceBody(t *testing.T) {
	bodies := []string{
		`{"model":"m","messages":[{"a":1},{"b":2}],"stream":true}`,
		"{\n  \"messages\": [\n    {\"a\": 1},\n    {\"b\": 2}\n  ],\n  \"x\": [1, 2]\n}\n",
		`{"messages":[1],"model":"m","messages":[{"a":1},{"b":2},{"c":3}]}`,
		` {"messages" : [ ] } `,
		`{"messages":[{"a":1}]}`,
	}
	elemSets := [][]string{nil, {`{"a":1}`}, {`{"a":1}`, `{"z":26}`}, {`1`, `2`, `3`, `4`}}
	editSets := [][]Edit{
		nil,
		{{Key: "model", Value: []byte(`"n"`)}},
		{{Key: "stream", Delete: true}, {Key: "new", Value: []byte(`{}`)}},
		{{Key: "x", Delete: true}},
	}
	for _, body := range bodies {
		r, err := parseRequest([]byte(body), "messages")
		if err != nil {
			t.Fatalf("parseRequest(%q): %v", body, err)
		}
		for _, es := range elemSets {
			var elems [][]byte
			for _, e := range es {
				elems = append(elems, []byte(e))
			}
			for _, edits := range editSets {
				msgs := SpliceArray(r.Obj.Value(r.Obj.Members[r.Messages]), elems)
				want := string(r.Obj.Splice(append([]Edit{{Key: "messages", Value: msgs}}, edits...)))
				if got := string(r.SpliceBody(elems, edits)); got != want {
					t.Errorf("SpliceBody of %q with %q and %d edits:\n got %q\nwant %q", body, es, len(edits), got, want)
				}
			}
		}
	}
}

// parseRequest, the reference RequestOf is held to, splits src, a JSON
// object whose messages are the array member key, into a Request by
// scanning it. It fails with ErrNotObject or ErrSyntax when src is not an
// object, and with ErrNotArray when its member key is not an array; a
// missing member is no error (Messages is -1).
func parseRequest(src []byte, key string) (*Request, error) {
	obj, err := ParseObject(src)
	if err != nil {
		return nil, err
	}
	r := &Request{Obj: obj, Key: key, Messages: obj.Last(key)}
	if r.Messages >= 0 {
		if r.Elems, err = elementSpans(obj.Value(obj.Members[r.Messages])); err != nil {
			return nil, ErrNotArray
		}
		shift(r.Elems, obj.Members[r.Messages].ValueStart)
	}
	return r, nil
}
