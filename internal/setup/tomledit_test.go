package setup

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func TestScanTOML(t *testing.T) {
	text := `# a comment
a = 1 # trailing [x]
"quoted.key" . b = "s"
ml = """
[not.a.table]
x = 1
"""
lit = '''
[neither]'''
arr = [
  "x", # a comment with ] and [
  ['[', "]"],
]
inline = { k = "v", l = [1] }

[t."dotted.name" . u]
k = 'v'
[[arr.of]]
n = 1
  [ spaced . "key]" ]
z = 2
`
	type stmt struct {
		Header bool
		Key    string
		Value  string
	}
	var got []stmt
	for _, s := range scanTOML([]byte(text)) {
		st := stmt{Header: s.header, Key: strings.Join(s.key, "|")}
		if !s.header {
			st.Value = text[s.value:s.valueEnd]
		}
		got = append(got, st)
	}
	want := []stmt{
		{Key: "a", Value: "1"},
		{Key: "quoted.key|b", Value: `"s"`},
		{Key: "ml", Value: "\"\"\"\n[not.a.table]\nx = 1\n\"\"\""},
		{Key: "lit", Value: "'''\n[neither]'''"},
		{Key: "arr", Value: "[\n  \"x\", # a comment with ] and [\n  ['[', \"]\"],\n]"},
		{Key: "inline", Value: `{ k = "v", l = [1] }`},
		{Header: true, Key: "t|dotted.name|u"},
		{Key: "k", Value: "'v'"},
		{Header: true, Key: "arr|of"},
		{Key: "n", Value: "1"},
		{Header: true, Key: "spaced|key]"},
		{Key: "z", Value: "2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
}

func TestTOMLSetKey(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		table []string
		key   string
		value any
		want  string
	}{
		{"replace keeps the comment", "[t]\nk = \"old\" # note\nx = 1\n", []string{"t"}, "k", "new", "[t]\nk = \"new\" # note\nx = 1\n"},
		{"add after the table's last key", "[t]\nx = 1\n\n[u]\ny = 2\n", []string{"t"}, "k", []string{"a", "b"}, "[t]\nx = 1\nk = [\"a\", \"b\"]\n\n[u]\ny = 2\n"},
		{"add to an empty table", "[t]\n[u]\n", []string{"t"}, "k", "v", "[t]\nk = \"v\"\n[u]\n"},
		{"top level after the last top-level key", "a = 1\n\n[t]\nx = 1\n", nil, "k", "v", "a = 1\nk = \"v\"\n\n[t]\nx = 1\n"},
		{"top level in a file of tables", "[t]\nx = 1\n", nil, "k", "v", "k = \"v\"\n\n[t]\nx = 1\n"},
		{"a key that needs quotes", "", nil, "a b", "v", "\"a b\" = \"v\"\n"},
		{"a last line without newline", "a = 1", nil, "k", "v", "a = 1\nk = \"v\"\n"},
		{"equal value untouched", "k = 'v' # literal\n", nil, "k", "v", "k = 'v' # literal\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseTOML([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.setKey(tt.table, tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(d.text)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzTOMLEnsure holds that making [mcp_servers.winnow] start winnow, and choosing the
// winnow provider, leaves TOML that decodes to the original with exactly those changes,
// or refuses a file whose winnow entry is not a table of its own.
func FuzzTOMLEnsure(f *testing.F) {
	for _, s := range []string{
		"", "model = \"o5\"\n", "[mcp_servers.winnow]\nurl = \"http://x\"\n", "a = [\n 1, # ]\n]\n[t]\nb = '''\n[x]\n'''\n",
		"mcp_servers.winnow.command = \"x\"\n", "[mcp_servers]\nwinnow = { command = \"x\" }\n", "[[mcp_servers.winnow]]\n",
		"[mcp_servers.\"winnow\"]\ncommand = 'x' # c\nargs = [\"mcp\", \"--http\"]\n[mcp_servers.winnow.env]\nA = \"1\"\n",
		"model_provider = \"winnow\"\n\n[model_providers.winnow]\nbase_url = \"http://old\"\n", "x = 1979-05-27 07:32:00Z\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := parseTOML([]byte(doc))
		if err != nil {
			return
		}
		var want map[string]any
		toml.Decode(doc, &want)
		err = ensureTable(d, []string{"mcp_servers", "winnow"}, []tomlPair{{"command", "winnow"}, {"args", []string{"mcp"}}}, codexHTTPKeys)
		if err == nil {
			_, err = d.setKey(nil, "model_provider", "winnow")
		}
		if err != nil {
			if !strings.Contains(err.Error(), "not a table") && !strings.Contains(err.Error(), "inline or by dotted keys") &&
				!strings.Contains(err.Error(), "would not parse") {
				t.Fatalf("%v\n%s", err, doc)
			}
			return
		}
		var got map[string]any
		if _, err := toml.Decode(string(d.text), &got); err != nil {
			t.Fatalf("the edited text does not decode: %v\n%s", err, d.text)
		}
		servers, ok := want["mcp_servers"].(map[string]any)
		if !ok {
			servers = map[string]any{}
			want["mcp_servers"] = servers
		}
		w, ok := servers["winnow"].(map[string]any)
		if !ok {
			w = map[string]any{}
			servers["winnow"] = w
		}
		for _, k := range codexHTTPKeys {
			delete(w, k)
		}
		w["command"], w["args"] = "winnow", []any{"mcp"}
		want["model_provider"] = "winnow"
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("edited:\n%s\ndecodes to\n%s\nwant\n%s", d.text, dump(got), dump(want))
		}
	})
}

func dump(v any) string { return fmt.Sprintf("%#v", v) }
