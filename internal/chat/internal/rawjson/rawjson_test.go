package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseObject(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		keys    []string
		values  []string
		wantErr error
	}{
		{"empty", `{}`, nil, nil, nil},
		{"empty with space", " { \n} ", nil, nil, nil},
		{"members", `{"a":1,"b":"x","c":[1,{"d":null}],"e":{"f":true}}`,
			[]string{"a", "b", "c", "e"}, []string{`1`, `"x"`, `[1,{"d":null}]`, `{"f":true}`}, nil},
		{"spacing kept", "{ \"a\" :\t-1.5e3 , \"b\":false }",
			[]string{"a", "b"}, []string{`-1.5e3`, `false`}, nil},
		{"escaped key and braces in strings", `{"k\u0065y":"}]\"{","x":"\\"}`,
			[]string{"key", "x"}, []string{`"}]\"{"`, `"\\"`}, nil},
		{"duplicate keys", `{"a":1,"a":2}`, []string{"a", "a"}, []string{"1", "2"}, nil},
		{"array is not an object", `[1]`, nil, nil, ErrNotObject},
		{"string is not an object", `"x"`, nil, nil, ErrNotObject},
		{"empty input", ``, nil, nil, ErrNotObject},
		{"truncated", `{"a":`, nil, nil, ErrSyntax},
		{"unterminated string", `{"a":"x}`, nil, nil, ErrSyntax},
		{"missing colon", `{"a" 1}`, nil, nil, ErrSyntax},
		{"trailing garbage", `{"a":1} x`, nil, nil, ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ParseObject([]byte(tt.src))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ParseObject(%q) error = %v, want %v", tt.src, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			var keys, values []string
			for _, m := range o.Members {
				keys = append(keys, m.Key)
				values = append(values, string(o.Value(m)))
			}
			if diff := cmp.Diff(tt.keys, keys); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.values, values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetReturnsLastDuplicate(t *testing.T) {
	o, err := ParseObject([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := o.Get("a"); !ok || string(v) != "3" {
		t.Errorf(`Get("a") = %s, %v; want 3, true`, v, ok)
	}
	if _, ok := o.Get("z"); ok {
		t.Error(`Get("z") found a member that does not exist`)
	}
}

func TestElements(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string
		wantErr error
	}{
		{"empty", `[]`, nil, nil},
		{"mixed", ` [1, "a,]" ,{"b":[2]},null,[[]]] `, []string{`1`, `"a,]"`, `{"b":[2]}`, `null`, `[[]]`}, nil},
		{"object", `{}`, nil, ErrNotArray},
		{"truncated", `[1,`, nil, ErrSyntax},
		{"deep", strings.Repeat("[", 5000) + strings.Repeat("]", 5000), []string{strings.Repeat("[", 4999) + strings.Repeat("]", 4999)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			elems, err := Elements([]byte(tt.src))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Elements error = %v, want %v", err, tt.wantErr)
			}
			var got []string
			for _, e := range elems {
				got = append(got, string(e))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("elements (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplice(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"no edits copies", ` {"a": 1} `, nil, ` {"a": 1} `},
		{"replace keeps spacing", `{ "a" : 1 , "b":2 }`, []Edit{{Key: "a", Value: []byte(`"x"`)}}, `{ "a" : "x" , "b":2 }`},
		{"replace last duplicate", `{"a":1,"a":2}`, []Edit{{Key: "a", Value: []byte(`3`)}}, `{"a":1,"a":3}`},
		{"delete first", `{"a":1, "b":2, "c":3}`, []Edit{{Key: "a", Delete: true}}, `{"b":2, "c":3}`},
		{"delete middle", `{"a":1, "b":2, "c":3}`, []Edit{{Key: "b", Delete: true}}, `{"a":1, "c":3}`},
		{"delete last", `{"a":1, "b":2, "c":3}`, []Edit{{Key: "c", Delete: true}}, `{"a":1, "b":2}`},
		{"delete duplicates", `{"a":1,"b":2,"a":3}`, []Edit{{Key: "a", Delete: true}}, `{"b":2}`},
		{"delete all", "{\n \"a\":1\n}", []Edit{{Key: "a", Delete: true}}, "{\n}"},
		{"delete missing is a no-op", `{"a":1}`, []Edit{{Key: "z", Delete: true}}, `{"a":1}`},
		{"append", `{"a":1}`, []Edit{{Key: "b", Value: []byte(`true`)}, {Key: "c", Value: []byte(`[]`)}}, `{"a":1,"b":true,"c":[]}`},
		{"append to empty", `{ }`, []Edit{{Key: "b", Value: []byte(`1`)}}, `{"b":1 }`},
		{"delete and append", `{"a":1}`, []Edit{{Key: "a", Delete: true}, {Key: "b", Value: []byte(`2`)}}, `{"b":2}`},
		{"unknown members survive", `{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}`,
			[]Edit{{Key: "text", Value: []byte(`"y"`)}}, `{"type":"text","text":"y","cache_control":{"type":"ephemeral"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ParseObject([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := string(o.Splice(tt.edits))
			if got != tt.want {
				t.Errorf("Splice = %q, want %q", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("Splice produced invalid JSON %q", got)
			}
		})
	}
}

func TestQuoteDoesNotEscapeHTML(t *testing.T) {
	if got, want := string(Quote("a<b> & \"c\"\n")), `"a<b> & \"c\"\n"`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}

// FuzzParseObject checks the spans against encoding/json: every valid
// object splits into members whose keys and values decode to what
// json.Unmarshal sees, and splicing with no edits reproduces the input.
func FuzzParseObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` {"a" : [1,"]"], "b":{"c":"\u00e9"}} `, `{"a":1,"a":2}`, `[]`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		o, err := ParseObject(src)
		var want map[string]json.RawMessage
		jerr := json.Unmarshal(src, &want)
		if jerr != nil {
			if err == nil && json.Valid(src) {
				t.Fatalf("ParseObject accepted %q that json rejects as an object: %v", src, jerr)
			}
			return
		}
		if want == nil {
			return // null
		}
		if err != nil {
			t.Fatalf("ParseObject(%q) = %v; json accepts it", src, err)
		}
		for key, v := range want {
			got, ok := o.Get(key)
			if !ok {
				t.Fatalf("key %q missing", key)
			}
			var a, b any
			if json.Unmarshal(got, &a) != nil || json.Unmarshal(v, &b) != nil || !cmp.Equal(a, b) {
				t.Fatalf("key %q: value %s, json sees %s", key, got, v)
			}
		}
		if got := o.Splice(nil); string(got) != string(src) {
			t.Fatalf("Splice(nil) = %q, want %q", got, src)
		}
	})
}

func TestSpliceArray(t *testing.T) {
	tests := []struct {
		name  string
		orig  string
		elems []string
		want  string
	}{
		{"same count keeps layout", "[\n  1,\n  2\n]", []string{"1", "3"}, "[\n  1,\n  3\n]"},
		{"fewer", "[\n  1,\n  2,\n  3\n]", []string{"1", "3"}, "[\n  1,\n  3\n]"},
		{"more reuses last separator", "[1, 2]", []string{"1", "2", "3"}, "[1, 2, 3]"},
		{"more from one element", "[ 1 ]", []string{"1", "2"}, "[ 1,2 ]"},
		{"none", "[\n  1\n]", nil, "[]"},
		{"from empty", "[]", []string{"1"}, "[1]"},
		{"from non-array", `"x"`, []string{"1", "2"}, "[1,2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var elems [][]byte
			for _, e := range tt.elems {
				elems = append(elems, []byte(e))
			}
			if got := string(SpliceArray([]byte(tt.orig), elems)); got != tt.want {
				t.Errorf("SpliceArray = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzString checks String against encoding/json on every literal json
// accepts, escapes, surrogates and invalid UTF-8 included.
func FuzzString(f *testing.F) {
	for _, s := range []string{`""`, `"a\nb"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, "\"\xff\xc3(\"", `"\/\b\f\r\t\\\""`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		v = bytes.Trim(v, " \t\r\n") // String takes a value's exact span
		// The input in quotes too: most inputs are not literals.
		for _, lit := range [][]byte{v, append(append([]byte(`"`), v...), '"')} {
			var want string
			if json.Unmarshal(lit, &want) != nil || len(lit) == 0 || lit[0] != '"' {
				continue
			}
			got, ok := String(lit)
			if !ok || got != want {
				t.Fatalf("String(%q) = %q, %v; encoding/json gives %q", lit, got, ok, want)
			}
		}
	})
}
