package setup

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestJSONSet(t *testing.T) {
	server := jsonOrdered{{"command", "winnow"}, {"args", []string{"mcp"}}}
	tests := []struct {
		name  string
		doc   string
		path  []string
		value any
		want  string // "" when unchanged
	}{{
		name: "new member, two-space indent",
		doc:  "{\n  \"theme\": \"dark\",\n  \"n\": 3\n}\n",
		path: []string{"mcpServers", "winnow"}, value: server,
		want: "{\n  \"theme\": \"dark\",\n  \"n\": 3,\n  \"mcpServers\": {\n    \"winnow\": {\n      \"command\": \"winnow\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n",
	}, {
		name: "new member, tab indent",
		doc:  "{\n\t\"env\": {\n\t\t\"A\": \"1\"\n\t}\n}",
		path: []string{"env", "ANTHROPIC_BASE_URL"}, value: "http://127.0.0.1:8787",
		want: "{\n\t\"env\": {\n\t\t\"A\": \"1\",\n\t\t\"ANTHROPIC_BASE_URL\": \"http://127.0.0.1:8787\"\n\t}\n}",
	}, {
		name: "new member, four-space indent, nested empty object",
		doc:  "{\n    \"env\": {}\n}\n",
		path: []string{"env", "ANTHROPIC_BASE_URL"}, value: "u",
		want: "{\n    \"env\": {\n        \"ANTHROPIC_BASE_URL\": \"u\"\n    }\n}\n",
	}, {
		name: "one-line document",
		doc:  `{"model":"opus"}`,
		path: []string{"env", "ANTHROPIC_BASE_URL"}, value: "u",
		want: `{"model":"opus","env":{"ANTHROPIC_BASE_URL":"u"}}`,
	}, {
		name: "one-line document with spaces",
		doc:  `{"model": "opus"}`,
		path: []string{"env", "X"}, value: "u",
		want: `{"model": "opus", "env": {"X":"u"}}`,
	}, {
		name: "empty one-line object",
		doc:  `{}`,
		path: []string{"env", "X"}, value: "u",
		want: `{"env": {"X":"u"}}`,
	}, {
		name: "empty file",
		doc:  "",
		path: []string{"env", "X"}, value: "u",
		want: "{\n  \"env\": {\n    \"X\": \"u\"\n  }\n}\n",
	}, {
		name: "value replaced in place",
		doc:  "{\n  \"a\": 1,\n  \"env\": {\n    \"X\": \"old\", \"Y\": 2\n  },\n  \"z\": [1, 2]\n}\n",
		path: []string{"env", "X"}, value: "new",
		want: "{\n  \"a\": 1,\n  \"env\": {\n    \"X\": \"new\", \"Y\": 2\n  },\n  \"z\": [1, 2]\n}\n",
	}, {
		name: "equal value left alone",
		doc:  "{\"mcpServers\": {\"winnow\": {\"args\": [ \"mcp\" ], \"command\":\"winnow\"}}}",
		path: []string{"mcpServers", "winnow"}, value: server,
	}, {
		name: "duplicate key: the last one is the one read",
		doc:  `{"k": 1, "k": 2}`,
		path: []string{"k"}, value: 3,
		want: `{"k": 1, "k": 3}`,
	}, {
		name: "strings holding braces and escapes",
		doc:  `{"a}": "{\"[", "b": {"c\\": "]}"}}`,
		path: []string{"b", "d"}, value: true,
		want: `{"a}": "{\"[", "b": {"c\\": "]}", "d": true}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseJSON([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			before := string(d.text)
			changed, err := d.set(tt.path, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = before
			}
			if diff := cmp.Diff(want, string(d.text)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if changed != (tt.want != "") {
				t.Errorf("changed = %v, want %v", changed, tt.want != "")
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		path      []string
		want      string
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}\n", nil, "not valid JSON: line 3, column 2: invalid character '}' looking for beginning of object key string"},
		{"two values", `{} {}`, nil, "not valid JSON"},
		{"array at the top", `[1]`, nil, "not a JSON object at the top level"},
		{"not an object on the way", `{"env": ["A=1"]}`, []string{"env", "X"}, "env is an array, not an object"},
		{"a string on the way", `{"mcpServers": "none"}`, []string{"mcpServers", "winnow"}, "mcpServers is a string, not an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseJSON([]byte(tt.doc))
			if err == nil {
				_, err = d.set(tt.path, "v")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// FuzzJSONSet holds that setting a member of any JSON object leaves valid JSON that
// decodes to the original with that member set, its top-level keys in their order.
func FuzzJSONSet(f *testing.F) {
	for _, s := range []string{
		"{}", "{\n  \"a\": 1\n}\n", `{"mcpServers": {"other": {"command": "x"}}}`, `{"mcpServers": {"winnow": 1}}`,
		"{\n\t\"x\": [1, {\"y\": \"}\"}],\n\t\"mcpServers\": {}\n}", `{"a":"\u00e9\"","b":null}`, " \n", `{"k": 1, "k": 2}`,
	} {
		f.Add(s, "winnow")
	}
	f.Fuzz(func(t *testing.T, doc, key string) {
		if !utf8.ValidString(key) {
			return // encoding/json spells it differently on the way back; winnow's keys are ASCII
		}
		d, err := parseJSON([]byte(doc))
		if err != nil {
			return
		}
		var before map[string]any
		if err := json.Unmarshal(d.text, &before); err != nil {
			t.Fatalf("parseJSON took %q, which does not decode: %v", d.text, err)
		}
		keys := topKeys(t, d.text)
		_, err = d.set([]string{"mcpServers", key}, jsonOrdered{{"command", "winnow"}})
		if m, ok := before["mcpServers"]; ok {
			if _, isObject := m.(map[string]any); !isObject {
				if err == nil {
					t.Fatalf("set through mcpServers = %v: no error", m)
				}
				return
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		var after map[string]any
		if err := json.Unmarshal(d.text, &after); err != nil {
			t.Fatalf("after set: %v\n%s", err, d.text)
		}
		servers, _ := before["mcpServers"].(map[string]any)
		if servers == nil {
			servers = map[string]any{}
		}
		servers[key] = map[string]any{"command": "winnow"}
		before["mcpServers"] = servers
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("after set:\n%s\ndecodes to %v, want %v", d.text, after, before)
		}
		got := topKeys(t, d.text)
		if !slices.Contains(keys, "mcpServers") {
			keys = append(keys, "mcpServers")
		}
		if !reflect.DeepEqual(keys, got) {
			t.Fatalf("top-level keys %q became %q", keys, got)
		}
	})
}

// topKeys lists the top-level keys of a JSON object in order.
func topKeys(t *testing.T, doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	keys := []string{}
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
