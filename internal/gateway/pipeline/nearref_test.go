package pipeline

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNearRefRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string // the changes as written; "" means the pair must be rejected
	}{
		{"string", `{"state":"open","n":1}`, `{"state":"closed","n":1}`, `state: "open" → "closed"`},
		{"number and null", `{"a":1,"b":null}`, `{"a":2.5e3,"b":"x"}`, `a: 1 → 2.5e3, b: null → "x"`},
		{"nested with indexes", `{"items":[{"s":"a"},{"s":"b"}]}`, `{"items":[{"s":"a"},{"s":"c"}]}`, `items[1].s: "b" → "c"`},
		{"top-level array", `[{"id":1,"ok":true},{"id":2,"ok":true}]`, `[{"id":1,"ok":true},{"id":2,"ok":false}]`, `[1].ok: true → false`},
		{"pretty", "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}", "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    3\n  ]\n}", `b[1]: 2 → 3`},
		{"key with a space", `{"a b":{"c":1}}`, `{"a b":{"c":2}}`, `["a b"].c: 1 → 2`},
		{"key with a dot and a quote", `{"x.y":1,"q\"k":2}`, `{"x.y":3,"q\"k":4}`, `["x.y"]: 1 → 3, ["q\"k"]: 2 → 4`},
		{"escaped key", `{"k\u0065y":"v1"}`, `{"k\u0065y":"v2"}`, `key: "v1" → "v2"`},
		{"unicode key", `{"ключ":"a"}`, `{"ключ":"b"}`, `["ключ"]: "a" → "b"`},
		{"values that look like the syntax", `{"s":"x, y → z]"}`, `{"s":"a: b, c → d"}`, `s: "x, y → z]" → "a: b, c → d"`},
		{"long old value elided", `{"t":"2025-03-02T10:00:00Z"}`, `{"t":"2025-03-04T16:20:00Z"}`, `t: … → "2025-03-04T16:20:00Z"`},
		{"identical", `{"a":1}`, `{"a":1}`, ""},
		{"key changed", `{"a":1}`, `{"b":1}`, ""},
		{"structure changed", `{"a":[1]}`, `{"a":[1,2]}`, ""},
		{"scalar became an object", `{"a":1}`, `{"a":{}}`, ""},
		{"whitespace changed", `{"a":1}`, `{"a": 2}`, ""},
		{"not JSON", `{"a":1`, `{"a":2`, ""},
		{"root scalar", `"a"`, `"b"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, ok := diffScalars(tt.a, tt.b)
			if !ok {
				if tt.want != "" {
					t.Fatalf("diffScalars rejected the pair, want %s", tt.want)
				}
				return
			}
			written := formatChanges(cs)
			if tt.want == "" {
				got, err := roundTrip(tt.a, written)
				if err == nil && got == tt.b {
					t.Fatalf("pair accepted as %s, want it rejected", written)
				}
				return
			}
			if written != tt.want {
				t.Errorf("changes = %s, want %s", written, tt.want)
			}
			got, err := roundTrip(tt.a, written)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.b {
				t.Errorf("reconstructed %s, want %s", got, tt.b)
			}
		})
	}
}

func roundTrip(base, written string) (string, error) {
	parsed, err := parseChanges(written)
	if err != nil {
		return "", err
	}
	return applyChanges(base, parsed)
}

func TestNearRefDuplicateKeysRejected(t *testing.T) {
	a, b := `{"a":1,"a":2}`, `{"a":1,"a":3}`
	cs, ok := diffScalars(a, b)
	if !ok {
		t.Fatal("diffScalars rejected the pair")
	}
	if _, err := roundTrip(a, formatChanges(cs)); err == nil {
		t.Error("a path naming two scalars was applied")
	}
}

// FuzzNearRef checks the property the dedup stage relies on: when two
// documents differ only in scalar values and no path names two scalars,
// the written changes parse back and rebuild the second document exactly.
func FuzzNearRef(f *testing.F) {
	f.Add(`{"state":"open","n":1,"tags":["a","b"]}`, `{"state":"closed","n":2,"tags":["a","c"]}`)
	f.Add(`[{"a b":"x, y"},{"ключ":null}]`, `[{"a b":"→ ]"},{"ключ":true}]`)
	f.Add(`{"k\u0065y":{"x.y":[1,2,3]}}`, `{"k\u0065y":{"x.y":[1,-2e5,3]}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		cs, ok := diffScalars(a, b)
		if !ok || hasDuplicatePaths(a) {
			return
		}
		got, err := roundTrip(a, formatChanges(cs))
		if err != nil {
			t.Fatalf("changes %s do not apply: %v", formatChanges(cs), err)
		}
		if got != b {
			t.Fatalf("rebuilt %q, want %q", got, b)
		}
	})
}

func hasDuplicatePaths(s string) bool {
	seen := map[string]bool{}
	dup := false
	var w *jsonWalk
	w = &jsonWalk{s: s, scalar: func(int, int) {
		p := formatPath(w.path)
		dup = dup || seen[p]
		seen[p] = true
	}}
	w.run()
	return dup
}

// FuzzJSONWalk holds the walker to encoding/json's idea of a valid
// document.
func FuzzJSONWalk(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2,{"b":null}]}`, ` "x" `, `01`, `[1,]`, `{"a":1,}`, "\"\x01\"", `-0.5e+10`, `"\ud800"`, `[` + strings.Repeat("[", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := jsonWalk{s: s}
		if got, want := w.run() == nil, json.Valid([]byte(s)); got != want {
			t.Fatalf("walk accepts %q: %v, json.Valid: %v", s, got, want)
		}
	})
}
