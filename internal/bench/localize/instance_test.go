package localize

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goodLine = `{"instance_id": "psf__requests-1142", "repo": "psf/requests", "base_commit": "22623bd8", ` +
	`"problem_statement": "requests.get is ALWAYS sending content length", "gold_files": ["requests/models.py"], ` +
	`"edit_functions": ["requests/models.py:PreparedRequest.prepare_content_length"], "added_functions": []}`

func TestLoadInstances(t *testing.T) {
	path := writeFile(t, "dev.jsonl", "\n"+goodLine+"\n\n")
	got, err := LoadInstances(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Instance{{
		ID:               "psf__requests-1142",
		Repo:             "psf/requests",
		BaseCommit:       "22623bd8",
		ProblemStatement: "requests.get is ALWAYS sending content length",
		GoldFiles:        []string{"requests/models.py"},
		EditFunctions:    []string{"requests/models.py:PreparedRequest.prepare_content_length"},
		AddedFunctions:   []string{},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LoadInstances (-want +got):\n%s", diff)
	}
}

func TestLoadInstancesErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", goodLine + "\n{\"instance_id\": \n", "dev.jsonl:2: unexpected end of JSON input"},
		{"wrong type", `{"instance_id": 7}`, "dev.jsonl:1: json: cannot unmarshal number"},
		{"no id", `{"repo": "a/b", "base_commit": "c"}`, "dev.jsonl:1: no instance_id"},
		{"no commit", `{"instance_id": "x", "repo": "a/b"}`, "dev.jsonl:1: instance x: no base_commit"},
		{"bad repo", `{"instance_id": "x", "repo": "ab", "base_commit": "c"}`, `dev.jsonl:1: instance x: repo "ab" is not owner/name`},
		{"bad function", `{"instance_id": "x", "repo": "a/b", "base_commit": "c", "edit_functions": ["a.py"]}`,
			`dev.jsonl:1: instance x: edit function "a.py" is not path:name`},
		{"duplicate", goodLine + "\n\n" + goodLine, "dev.jsonl:3: instance psf__requests-1142 already on line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "dev.jsonl", tt.data)
			_, err := LoadInstances(path)
			if err == nil {
				t.Fatal("LoadInstances succeeded, want an error")
			}
			if got := strings.TrimPrefix(err.Error(), filepath.Dir(path)+string(filepath.Separator)); !strings.HasPrefix(got, tt.want) {
				t.Errorf("error %q, want it to start with %q", got, tt.want)
			}
		})
	}
	if _, err := LoadInstances(filepath.Join(t.TempDir(), "none.jsonl")); err == nil {
		t.Error("LoadInstances of a missing file succeeded")
	}
}

func TestResultsRoundTrip(t *testing.T) {
	want := clone(handResults)
	var buf bytes.Buffer
	if err := WriteResults(&buf, want[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := WriteResults(&buf, want[2:]...); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != len(want) {
		t.Errorf("%d lines for %d results", n, len(want))
	}
	got, err := ReadResults(writeFile(t, "results.jsonl", buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}

	_, err = ReadResults(writeFile(t, "bad.jsonl", `{"found_entities": []}`))
	if err == nil || !strings.HasSuffix(err.Error(), "bad.jsonl:1: no instance_id") {
		t.Errorf("ReadResults without an id: error %v", err)
	}
}

func TestTreeExists(t *testing.T) {
	repos := t.TempDir()
	in := Instance{ID: "o__p-1", Repo: "o/p", BaseCommit: "abc"}
	dir := TreeDir(repos, in)
	if want := filepath.Join(repos, "o__p@abc"); dir != want {
		t.Errorf("TreeDir = %s, want %s", dir, want)
	}
	exists := TreeExists(repos)
	if _, err := exists(in, "a.py"); err == nil {
		t.Error("TreeExists without a prepared tree: no error")
	}
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"pkg/a.py", preparedMarker} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]bool{"pkg/a.py": true, "pkg/b.py": false, "b/c.py": false} {
		got, err := exists(in, path)
		if err != nil || got != want {
			t.Errorf("exists(%s) = %v, %v; want %v", path, got, err, want)
		}
	}
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
