package shapetest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			a, err := Generate(kind, 100, 9)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Generate(kind, 100, 9)
			c, _ := Generate(kind, 100, 10)
			if a.Text != b.Text {
				t.Error("the same seed gave different documents")
			}
			if a.Text == c.Text {
				t.Error("different seeds gave the same document")
			}
			var items []map[string]json.RawMessage // RawMessage: 1e400 is no float64
			if err := json.Unmarshal([]byte(a.Text), &items); err != nil {
				t.Fatalf("not a JSON array of objects: %v", err)
			}
			if len(items) != 100 {
				t.Errorf("%d items, want 100", len(items))
			}
			if a.Name != string(kind)+"×100" {
				t.Errorf("name %q", a.Name)
			}
		})
	}
}

// TestGenerateIsHard checks that the generated arrays hold what makes
// re-encoding hard, so that round-trip tests over them mean something.
func TestGenerateIsHard(t *testing.T) {
	var all strings.Builder
	for _, kind := range Kinds() {
		d, err := Generate(kind, 200, 1)
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(d.Text)
	}
	text := all.String()
	for _, want := range []string{
		": 1e400", ": 0.10", ": -0.0", // numbers whose text matters
		`Docs: typo, page 2`, `\"this\"`, "a | b | c", `line one\nline two`, // commas, quotes, pipes, newlines
		"日本語", "🚀", "zoë", // non-ASCII
		`"007"`, `"null"`, `"1e3"`, `""`, `" leading space"`, // strings that look like something else
		`"closed_by"`, `"pull_request"`, `"coverage"`, // keys only some objects have
		`"assignee": null`, `"assignee": {`, // nullable nested objects
		`"labels": [`, `"requested_reviewers": [`, // arrays of objects
	} {
		if !strings.Contains(text, want) {
			t.Errorf("generated arrays lack %s", want)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate("wikis", 1, 1); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := Generate(Issues, -1, 1); err == nil {
		t.Error("negative count: no error")
	}
	d, err := Generate(Pipelines, 0, 1)
	if err != nil || d.Text != "[]\n" {
		t.Errorf("empty: %q, %v", d.Text, err)
	}
}

func TestFixtures(t *testing.T) {
	docs, err := Fixtures()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
		if !json.Valid([]byte(d.Text)) {
			t.Errorf("%s is not JSON", d.Name)
		}
	}
	want := "devboy/github/issues.json devboy/github/pull_requests.json devboy/gitlab/issues.json devboy/gitlab/merge_requests.json"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("fixtures %s, want %s", got, want)
	}
}
