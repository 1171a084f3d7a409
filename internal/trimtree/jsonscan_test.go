package trimtree

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var jsonCases = []string{
	``, ` `, `1`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e`, `1e+`, `-1.5e-3`, `2.`, `+1`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `NaN`,
	`""`, `"a`, `"\"`, `"\\"`, `"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"\/"`, "\"a\tb\"", "\"a\x01b\"",
	"\"\xff\xfe\"", `"é"`,
	`[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `[1,2]`, `[[[]]]`, `[`, `]`, `[1]]`,
	`{}`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`, `{"a":[1,{"b":null}]}`,
	`{"a":1}}`, `{"a":1}{"b":2}`, `[1] [2]`, " \t\r\n[1]\n", "\v[1]", "[1]\x00",
	`{"items":[{"a":1},{"b":2}],"n":2}`, `{"x":{"y":{"z":[1,2,3]}}}`,
}

func TestScanJSONAgreesWithValid(t *testing.T) {
	cases := append(jsonCases,
		strings.Repeat("[", maxNesting)+strings.Repeat("]", maxNesting),
		strings.Repeat("[", maxNesting+1)+strings.Repeat("]", maxNesting+1),
		strings.Repeat(`{"a":`, maxNesting)+"1"+strings.Repeat("}", maxNesting),
		strings.Repeat(`{"a":`, maxNesting+1)+"1"+strings.Repeat("}", maxNesting+1),
		`{"a":`+strings.Repeat("[", maxNesting-1)+strings.Repeat("]", maxNesting-1)+`}`,
		`{"a":`+strings.Repeat("[", maxNesting)+strings.Repeat("]", maxNesting)+`}`,
	)
	for _, s := range cases {
		_, got := scanJSON(s)
		if want := json.Valid([]byte(s)); got != want {
			t.Errorf("scanJSON(%.40q) valid = %v, json.Valid = %v", s, got, want)
		}
	}
}

func TestScanJSONArrays(t *testing.T) {
	type found struct {
		Path      string
		Items     []string
		Composite bool
	}
	for _, tc := range []struct {
		name, in string
		want     []found
	}{
		{"root array", ` [ {"a":1} , [2],3 ] `, []found{{"", []string{`{"a":1}`, `[2]`, `3`}, false}}},
		{"root array of objects", `[{"a":[1,2]},{}]`, []found{{"", []string{`{"a":[1,2]}`, `{}`}, true}}},
		{"wrapper", `{"n":2,"items":[{"a":1},{"b":2}],"empty":[]}`, []found{{"items", []string{`{"a":1}`, `{"b":2}`}, true}}},
		{"nested", `{"data":{"search":{"nodes":["x","y"]}},"errors":[{"m":1}]}`, []found{
			{"data.search.nodes", []string{`"x"`, `"y"`}, false},
			{"errors", []string{`{"m":1}`}, true},
		}},
		{"not inside arrays", `{"a":[{"b":[1,2,3]}]}`, []found{{"a", []string{`{"b":[1,2,3]}`}, true}}},
		{"scalar root", `"text"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrays, ok := scanJSON(tc.in)
			if !ok {
				t.Fatal("not valid")
			}
			var got []found
			for _, a := range arrays {
				f := found{Path: a.path, Composite: a.composite}
				for _, it := range a.items {
					f.Items = append(f.Items, tc.in[it.start:it.end])
				}
				got = append(got, f)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanJSONWrapperDepth(t *testing.T) {
	deep := func(n int) string {
		return strings.Repeat(`{"k":`, n) + `[{"a":1}]` + strings.Repeat("}", n)
	}
	if arrays, _ := scanJSON(deep(maxWrapperDepth)); len(arrays) != 1 {
		t.Errorf("array at wrapper depth %d not found", maxWrapperDepth)
	}
	if arrays, ok := scanJSON(deep(maxWrapperDepth + 1)); !ok || len(arrays) != 0 {
		t.Errorf("array below wrapper depth %d: valid %v, found %d", maxWrapperDepth, ok, len(arrays))
	}
}

// FuzzScanJSON holds the scanner to encoding/json: it accepts exactly what
// json.Valid accepts, and the element ranges it records for a root array
// are the array's elements.
func FuzzScanJSON(f *testing.F) {
	for _, s := range jsonCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		arrays, ok := scanJSON(s)
		if want := json.Valid([]byte(s)); ok != want {
			t.Fatalf("scanJSON valid = %v, json.Valid = %v", ok, want)
		}
		if !ok || len(arrays) == 0 || arrays[0].path != "" || strings.TrimSpace(s)[0] != '[' {
			return
		}
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatal(err)
		}
		if len(raw) != len(arrays[0].items) {
			t.Fatalf("%d items recorded, %d elements", len(arrays[0].items), len(raw))
		}
		for i, it := range arrays[0].items {
			if s[it.start:it.end] != string(raw[i]) {
				t.Fatalf("item %d = %q, element %q", i, s[it.start:it.end], raw[i])
			}
		}
	})
}
