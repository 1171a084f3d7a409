package config

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

var keyLineTests = []struct {
	name string
	doc  string
	want []keyLine
}{
	{"empty", "", nil},
	{"comments and blank lines", "# a = 1\n\n  # [t]\n", nil},
	{"top-level keys", "a = 1\nb = \"x\" # c = 2\n", []keyLine{{"a", 1}, {"b", 2}}},
	{"tables", "[t]\nx = 1\n\n[t.u]\ny = 2\n", []keyLine{{"t", 1}, {"t.x", 2}, {"t.u", 4}, {"t.u.y", 5}}},
	{"spaced and quoted header", "[ t . \"a.b\" . 'c d' ]\nx = 1\n",
		[]keyLine{{`t."a.b"."c d"`, 1}, {`t."a.b"."c d".x`, 2}}},
	{"dotted keys list only the full key", "a.b.c = 1\n[t]\nd . e = 2\n",
		[]keyLine{{"a.b.c", 1}, {"t", 2}, {"t.d.e", 3}}},
	{"array of tables repeats its key", "[[a]]\nx = 1\n[[a]]\nx = 2\n[a.sub]\ny = 3\n",
		[]keyLine{{"a", 1}, {"a.x", 2}, {"a", 3}, {"a.x", 4}, {"a.sub", 5}, {"a.sub.y", 6}}},
	{"inline tables", "t = { a = 1, b = { c = 2 } }\n",
		[]keyLine{{"t", 1}, {"t.a", 1}, {"t.b", 1}, {"t.b.c", 1}}},
	{"multi-line inline table (TOML 1.1)", "t = {\n  a = 1, # one\n  b.c = 2,\n}\nz = 3\n",
		[]keyLine{{"t", 1}, {"t.a", 2}, {"t.b.c", 3}, {"z", 5}}},
	{"inline tables in an array sit under the array", "arr = [\n  { a = 1 },\n  [ { b = 2 } ],\n]\n",
		[]keyLine{{"arr", 1}, {"arr.a", 2}, {"arr.b", 3}}},
	{"multi-line strings hide headers and keys",
		"s = \"\"\"\n[t]\nx = 1 \\\"\"\"\"\"\nl = '''\n[[u]]\n'''''\n[real]\n",
		[]keyLine{{"s", 1}, {"l", 4}, {"real", 7}}},
	{"strings with brackets, hashes and escapes", "a = \"]#\\\"[\"\nb = 'x#]'\nc = [\"}\", ']']\nd = 1\n",
		[]keyLine{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}},
	{"escapes in quoted keys", "\"\\u0061\\tb\" = 1\n\"q\\\"\" = 2\n",
		[]keyLine{{`"a\tb"`, 1}, {`"q\""`, 2}}},
	{"dates, numbers and booleans", "d = 1979-05-27 07:32:00Z\nn = [ -1.5e3, inf, 0x1F ]\nb = true\n",
		[]keyLine{{"d", 1}, {"n", 2}, {"b", 3}}},
	{"UTF-8 byte order mark", "\xef\xbb\xbfa = 1\n", []keyLine{{"a", 1}}},
	{"UTF-16 byte order mark", "\xfe\xff", nil},
	{"CRLF line endings", "[t]\r\nx = 1\r\n\r\ny = 2\r\n", []keyLine{{"t", 1}, {"t.x", 2}, {"t.y", 4}}},
}

func TestKeyLines(t *testing.T) {
	for _, tt := range keyLineTests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, keyLines(tt.doc), cmp.AllowUnexported(keyLine{})); diff != "" {
				t.Errorf("keyLines mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKeyLinesMatchDecoder checks the property the warnings rely on: keyLines lists the same
// keys, in the same order, as the decoder's MetaData.Keys.
func TestKeyLinesMatchDecoder(t *testing.T) {
	for _, tt := range keyLineTests {
		t.Run(tt.name, func(t *testing.T) {
			checkKeyLines(t, tt.doc)
		})
	}
}

// FuzzKeyLines checks, for every document the decoder accepts, that keyLines lists the
// decoder's keys in its order, on lines that exist and never go backwards.
func FuzzKeyLines(f *testing.F) {
	for _, tt := range keyLineTests {
		f.Add(tt.doc)
	}
	f.Add(userTOML)
	f.Add(repoTOML)
	f.Fuzz(checkKeyLines)
}

func checkKeyLines(t *testing.T, doc string) {
	md, err := toml.Decode(doc, &map[string]any{})
	if err != nil {
		if strings.Contains(t.Name(), "Fuzz") {
			t.Skip("not TOML")
		}
		t.Fatalf("toml.Decode: %v", err)
	}
	var want []string
	for _, k := range md.Keys() {
		want = append(want, k.String())
	}
	var got []string
	lastLine, lines := 1, strings.Count(doc, "\n")+1
	for _, kl := range keyLines(doc) {
		got = append(got, kl.key)
		if kl.line < lastLine || kl.line > lines {
			t.Errorf("key %s on line %d, want a line in %d..%d", kl.key, kl.line, lastLine, lines)
		}
		lastLine = kl.line
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keyLines keys differ from MetaData.Keys (-want +got):\n%s\ndocument:\n%s", diff, doc)
	}
}
