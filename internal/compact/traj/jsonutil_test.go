package traj

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPythonToJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[]`, `[]`},
		{`{'a': 1, "b": -2.5, 'c': None, 'd': True, 'e': False}`, `{"a":1,"b":-2.5,"c":null,"d":true,"e":false}`},
		{`[{'id': 'call_1', 'function': {'name': 'ls', 'arguments': '{"x": 1}'}},]`, `[{"id":"call_1","function":{"name":"ls","arguments":"{\"x\": 1}"}}]`},
		{`('a', ('b',))`, `["a",["b"]]`},
		{`'it\'s \\ \n \t \x41 \u00e9 \U0001F600 \q'`, `"it's \\ \n \t A é 😀 \\q"`},
		{`"say \"hi\""`, `"say \"hi\""`},
		{`1_000`, `1000`},
		{` { } `, `{}`},
	}
	for _, tt := range tests {
		got, err := pythonToJSON(tt.in)
		if err != nil {
			t.Errorf("pythonToJSON(%s): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("pythonToJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{``, `[`, `{'a' 1}`, `{1: 2}`, `'open`, `[1 2]`, `Nope`, `'\x4'`, `'\ud800'`, `[1] 2`, "'a\nb'"} {
		if got, err := pythonToJSON(bad); err == nil {
			t.Errorf("pythonToJSON(%q) = %s, want an error", bad, got)
		}
	}
}

// FuzzPythonToJSON: whatever converts is valid JSON, and writing that
// value back as a Python literal converts to the same value again.
func FuzzPythonToJSON(f *testing.F) {
	for _, s := range []string{`[{'id': 'c', 'function': {'name': 'n', 'arguments': '{}'}}]`, `{"a": [1, 2.5, None]}`, `'\x41\n'`, `(1,)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := pythonToJSON(s)
		if err != nil {
			return
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("pythonToJSON(%q) = %q: invalid JSON: %v", s, out, err)
		}
		lit := pyRepr(v)
		again, err := pythonToJSON(lit)
		if err != nil {
			t.Fatalf("the repr %s of its value does not convert: %v", lit, err)
		}
		var w any
		json.Unmarshal(again, &w)
		if !reflect.DeepEqual(v, w) { // not cmp.Diff alone: exponential in the nesting depth
			t.Fatalf("%q → %s → %s (-first +second):\n%s", s, lit, again, cmp.Diff(v, w))
		}
	})
}

// pyRepr writes a decoded JSON value as Python's repr would.
func pyRepr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		var b strings.Builder
		b.WriteByte('\'')
		for _, r := range v {
			switch {
			case r == '\\' || r == '\'':
				b.WriteString(`\` + string(r))
			case r == '\n':
				b.WriteString(`\n`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r > 0xffff:
				fmt.Fprintf(&b, `\U%08x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('\'')
		return b.String()
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = pyRepr(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyRepr(k) + ": " + pyRepr(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	panic(fmt.Sprintf("pyRepr: %T", v))
}

func TestDropNulls(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": null, "b": 1}`, `{"b":1}`},
		{`{"z": {"y": null}, "x": [null, {"w": null}], "v": "<&>"}`, `{"z":{},"x":[null,{}],"v":"<&>"}`},
		{`null`, `null`},
		{`"\u2028\u0001 \ud83d\ude00"`, `"\u2028\u0001 😀"`},
		{`1e400`, `1e400`}, // numbers are kept as written
	}
	for _, tt := range tests {
		got, err := dropNulls([]byte(tt.in))
		if err != nil {
			t.Errorf("dropNulls(%s): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("dropNulls(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a" 1}`, `[1,]`, `1 2`, `{"a":1}}`} {
		if got, err := dropNulls([]byte(bad)); err == nil {
			t.Errorf("dropNulls(%q) = %s, want an error", bad, got)
		}
	}
}

// FuzzDropNulls: the output is valid JSON and holds the same value as the
// input with null members removed.
func FuzzDropNulls(f *testing.F) {
	for _, s := range []string{`{"a":null,"b":[1,null,{"c":null}]}`, `"x\u0000<>"`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var in any
		if json.Unmarshal([]byte(s), &in) != nil {
			return
		}
		out, err := dropNulls([]byte(s))
		if err != nil {
			t.Fatalf("dropNulls(%q) failed on valid JSON: %v", s, err)
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("dropNulls(%q) = %q: %v", s, out, err)
		}
		// reflect.DeepEqual first: cmp.Diff takes time exponential in the nesting depth.
		if want := withoutNulls(in); !reflect.DeepEqual(want, got) {
			t.Fatalf("dropNulls(%q) (-want +got):\n%s", s, cmp.Diff(want, got))
		}
	})
}

func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any)
		for k, x := range v {
			if x != nil {
				out[k] = withoutNulls(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutNulls(x)
		}
		return out
	}
	return v
}
