package toolvalue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProjectionForms(t *testing.T) {
	// list_directory and list_directory_with_sizes of server-filesystem, as its
	// dist/index.js formats them (names padded to 30, sizes by formatSize).
	listing := "[DIR] internal\n[FILE] go.mod\n[FILE] main.go\n[FILE] with space.txt\n"
	withSizes := "[DIR] internal                      \n" +
		"[FILE] go.mod                             97 B\n" +
		"[FILE] a_rather_long_file_name_for_padding.go    1.20 KB\n" +
		"\nTotal: 2 files, 1 directories\nCombined size: 1.30 KB"
	webSearch := `Web search results for query: "go 1.26 release"` + "\n\n" +
		`Links: [{"title":"Go 1.26 Release Notes","url":"https://go.dev/doc/go1.26"},{"title":"x","url":"https://go.dev/blog/go1.26."}]` +
		"\n\nSee https://go.dev/doc/go1.26, and (http://example.com/a?b=c)."
	tests := []struct {
		name string
		expr string
		src  Source
		want []any
	}{
		{"a listing under its directory", "arg.path/result.paths",
			Source{Args: map[string]any{"path": "/srv/app"}, Text: listing},
			[]any{"/srv/app/go.mod", "/srv/app/main.go"}},
		{"sizes are not part of the name", "arg.path/result.paths",
			Source{Args: map[string]any{"path": "src"}, Text: withSizes},
			[]any{"src/go.mod", "src/a_rather_long_file_name_for_padding.go"}},
		{"absolute paths stay as they are", "arg.path/result.paths",
			Source{Args: map[string]any{"path": "/srv"}, Text: "/srv/a/x.go\nb/y.go\n"},
			[]any{"/srv/a/x.go", "/srv/b/y.go"}},
		{"no directory argument, no paths", "arg.path/result.paths",
			Source{Args: map[string]any{"dir": "/srv"}, Text: listing}, nil},
		{"a directory that is not a string", "arg.path/result.paths",
			Source{Args: map[string]any{"path": 3.0}, Text: listing}, nil},
		{"urls in order, once, without trailing punctuation", "result.urls",
			Source{Text: webSearch},
			[]any{"https://go.dev/doc/go1.26", "https://go.dev/blog/go1.26", "http://example.com/a?b=c"}},
		{"a top-level array", "result[].number",
			Source{Text: `[{"number": 7, "title": "a"}, {"number": 9}, {"title": "no number"}]`},
			[]any{7.0, 9.0}},
		{"a top-level array of scalars", "result[]", Source{Text: `["a", "b"]`}, []any{"a", "b"}},
		{"result[] on an object", "result[].number", Source{Text: `{"items": [{"number": 1}]}`}, nil},
		{"zipped members of one element", "result[].project_id",
			Source{Structured: []any{map[string]any{"project_id": 4.0, "iid": 12.0}}}, []any{4.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProjection(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, p.Values(&tt.src, 0)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []string{"arg./result.paths", "result[].", "result[]x", "args.path/result.paths"} {
		if _, err := ParseProjection(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestFollowUpOfSameUpstream: a "*__" follow-up of an upstream's tool is a call of the
// same upstream, however it is prefixed.
func TestFollowUpOfSameUpstream(t *testing.T) {
	l := Layer{{Pattern: "*__search_files", Origin: "builtin", Spec: Spec{FollowUps: []FollowUp{
		{Tool: "*__read_text_file", Probability: 0.3, Args: map[string]string{"path": "result.paths"}},
		{Tool: "Read", Probability: 0.1},
	}}}}
	for tool, want := range map[string]string{
		"fs__search_files":       "fs__read_text_file",
		"mcp__fs__search_files":  "mcp__fs__read_text_file",
		"*__search_files":        "*__read_text_file",
		"a__b__c__search_files":  "a__b__c__read_text_file",
		"other__read_text_files": "",
	} {
		m, _ := Resolve(tool, l)
		if want == "" {
			if len(m.FollowUps) != 0 {
				t.Errorf("%s: %+v", tool, m.FollowUps)
			}
			continue
		}
		if len(m.FollowUps) != 2 || m.FollowUps[0].Tool != want || m.FollowUps[1].Tool != "Read" {
			t.Errorf("%s: follow-ups %+v, want %s then Read", tool, m.FollowUps, want)
		}
	}
	if l[0].Spec.FollowUps[0].Tool != "*__read_text_file" {
		t.Error("Resolve changed the rule")
	}
	if got := followUpTool("search_files", "*__read_text_file"); got != "read_text_file" {
		t.Errorf("after a tool without a prefix: %s, want read_text_file", got)
	}
}

func TestFollowUpApplyListing(t *testing.T) {
	f := FollowUp{Tool: "fs__read_text_file", Probability: 0.32, Args: map[string]string{"path": "arg.path/result.paths"}}
	src := &Source{Args: map[string]any{"path": "/r"}, Text: "[FILE] a.go\n[DIR] d\n[FILE] b.go\n[FILE] c.go\n[FILE] d.go\n"}
	got, err := f.Apply(src, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"path": "/r/a.go"}, {"path": "/r/b.go"}, {"path": "/r/c.go"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHitProjections: a grep with line numbers makes a Read of a window centred on each
// hit, hits within a window given once; one without makes a Read of each file; a search
// of one file reads that file.
func TestHitProjections(t *testing.T) {
	read := FollowUp{Tool: "Read", Probability: 0.35, Args: map[string]string{
		"file_path": "arg.path/result.hits.path", "offset": "result.hits.offset", "limit": "result.hits.limit"}}
	w := hitLinesBefore + 1 + hitLinesAfter
	tests := []struct {
		name string
		src  Source
		want []map[string]any
	}{
		{"grep -n on one file: windows, nearby hits once",
			Source{Args: map[string]any{"pattern": "slots", "path": "/r/attrs.py"},
				Text: "297:    slots_default: bool = False,\n318:    slots = x\n341:    if slots:\n895:def _add_slots(\n896:    # here\n"},
			[]map[string]any{
				{"file_path": "/r/attrs.py", "offset": 297 - hitLinesBefore, "limit": w},
				{"file_path": "/r/attrs.py", "offset": 895 - hitLinesBefore, "limit": w},
			}},
		{"a window near the top starts at line 1",
			Source{Args: map[string]any{"path": "/r/a.py"}, Text: "Line 12:def f():\n"},
			[]map[string]any{{"file_path": "/r/a.py", "offset": 1, "limit": 12 + hitLinesAfter}}},
		{"hits of several files under the directory searched",
			Source{Args: map[string]any{"path": "/r/src"}, Text: "src/a.py:80:x\n./b.py:100:y\n/abs/c.py:200:z\n"},
			[]map[string]any{
				{"file_path": "/r/src/a.py", "offset": 80 - hitLinesBefore, "limit": w},
				{"file_path": "/r/src/b.py", "offset": 100 - hitLinesBefore, "limit": w},
				{"file_path": "/abs/c.py", "offset": 200 - hitLinesBefore, "limit": w},
			}},
		{"no line numbers: whole files",
			Source{Args: map[string]any{"path": "/testbed"}, Text: "./tests/test_a.py:def test_list():\n./tests/test_a.py:    x()\n./reproduce.py:    y()\n"},
			[]map[string]any{{"file_path": "/testbed/tests/test_a.py"}, {"file_path": "/testbed/reproduce.py"}}},
		{"lines of a search of a directory name no file",
			Source{Args: map[string]any{"path": "/r/src"}, Text: "12:x\n"}, nil},
		{"nothing found", Source{Args: map[string]any{"path": "/r/a.py"}, Text: "OBSERVATION:\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := read.Apply(&tt.src, 3)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if !read.Approximate(map[string]any{"file_path": "/r/a.py", "offset": 1, "limit": 72}) {
		t.Error("a window around a hit is not approximate")
	}
	if read.Approximate(map[string]any{"file_path": "/r/a.py"}) {
		t.Error("a file a hit named is approximate")
	}
	p, err := ParseProjection("result.hits.line")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{12, 40}, p.Values(&Source{Text: "a.py:12:x\nb.py:40:y\nc.py\n"}, 0)); diff != "" {
		t.Errorf("result.hits.line (-want +got):\n%s", diff)
	}
	if _, err := ParseProjection("arg./result.hits.path"); err == nil {
		t.Error("arg./result.hits.path accepted")
	}
}
