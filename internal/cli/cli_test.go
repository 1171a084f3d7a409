package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes winnow in process and returns its exit code and output.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(t.Context(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// repo creates a small repository to run commands against.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"shapes.py": `"""Shapes."""


class Shape:
    """A closed figure."""

    def area(self):
        return 0


def make_square(side):
    """Build a square."""
    return Shape()
`,
		"store/store.go": "package store\n\n// Store holds items.\ntype Store struct{}\n\n// Get returns an item.\nfunc (s *Store) Get() int { return 42 }\n",
		"notes.md":       "# notes\n",
	}
	for name, content := range files {
		full := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Never read the user's own configuration.
	userConfig := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(userConfig, nil, 0o644)
	t.Setenv("WINNOW_CONFIG", userConfig)
	return dir
}

func TestIndexCommand(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "index", dir)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	// A first run scans (the quick tier), then parses (the full tier): a line each.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "indexed 2 files, quick tier (2 scanned") ||
		!strings.HasPrefix(lines[1], "indexed 2 files (2 parsed, 0 unchanged)") || !strings.Contains(lines[1], "skipped 1 (no_grammar 1)") {
		t.Errorf("summary: %q", out)
	}
	code, out, _ = run(t, "index", "--json", dir)
	var st struct {
		Root      string         `json:"root"`
		Files     int            `json:"files"`
		Parsed    int            `json:"parsed"`
		Unchanged int            `json:"unchanged"`
		Symbols   int            `json:"symbols"`
		Skipped   map[string]int `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("index --json: exit %d, %v: %q", code, err, out)
	}
	if st.Files != 2 || st.Parsed != 0 || st.Unchanged != 2 || st.Symbols < 5 || st.Skipped["no_grammar"] != 1 {
		t.Errorf("second run: %+v", st)
	}
}

func TestSymbolsCommand(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "symbols", "--repo", dir, "Shape")
	if code != 0 {
		t.Fatalf("symbols: exit %d: %s", code, errOut)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	for _, want := range []string{"class", "Shape", "shapes.py:4", "class Shape"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
	if !strings.Contains(errOut, "indexed 2 files") {
		t.Errorf("the first use builds the index and says so on stderr: %q", errOut)
	}

	code, out, _ = run(t, "symbols", "--repo", dir, "--json", "Store.Get")
	var ms []struct {
		Qual  string `json:"qualified_name"`
		Kind  string `json:"kind"`
		Path  string `json:"path"`
		Match string `json:"match"`
	}
	if err := json.Unmarshal([]byte(out), &ms); err != nil || code != 0 || len(ms) == 0 {
		t.Fatalf("symbols --json: exit %d, %v: %q", code, err, out)
	}
	if ms[0].Qual != "store.Store.Get" || ms[0].Kind != "method" || ms[0].Match != "exact" || ms[0].Path != "store/store.go" {
		t.Errorf("symbols --json Store.Get: %+v", ms[0])
	}

	code, _, errOut = run(t, "symbols", "--repo", dir, "--exact", "NoSuchThing")
	if code != 1 || !strings.Contains(errOut, `no symbol matches "NoSuchThing"`) {
		t.Errorf("missing symbol: exit %d, %q", code, errOut)
	}
	code, _, errOut = run(t, "symbols", "--repo", dir, "--kind", "gizmo", "Shape")
	if code != 2 || !strings.Contains(errOut, "unknown kind") || !strings.Contains(errOut, "function") {
		t.Errorf("bad kind: exit %d, %q", code, errOut)
	}
}

func TestOutlineCommand(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "outline", filepath.Join(dir, "shapes.py"))
	if code != 0 {
		t.Fatalf("outline: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"shapes.py\n", "class Shape", "A closed figure.", "def area(self)", "def make_square(side)", "Build a square."} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "return") {
		t.Errorf("outline shows bodies:\n%s", out)
	}
	code, out, _ = run(t, "outline", "--json", "--doc", "none", dir)
	var files []struct {
		Path    string `json:"path"`
		Symbols []struct {
			Qual string `json:"qualified_name"`
		} `json:"symbols"`
	}
	if err := json.Unmarshal([]byte(out), &files); err != nil || code != 0 {
		t.Fatalf("outline --json: exit %d, %v", code, err)
	}
	if len(files) != 2 || files[0].Path != "shapes.py" || files[1].Path != "store/store.go" || len(files[0].Symbols) != 3 {
		t.Errorf("outline --json of the repo: %+v", files)
	}
	code, _, errOut = run(t, "outline", filepath.Join(dir, "notes.md"))
	if code != 1 || !strings.Contains(errOut, "not indexed") {
		t.Errorf("outline of a file without grammar: exit %d, %q", code, errOut)
	}
	code, _, errOut = run(t, "outline", filepath.Join(dir, "missing.py"))
	if code != 1 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("outline of a missing file: exit %d, %q", code, errOut)
	}
}

func TestRefsCommand(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "refs", "--repo", dir, "Shape")
	if code != 0 || !strings.Contains(out, "shapes.py:13") || !strings.Contains(out, "make_square") || !strings.Contains(out, "call") {
		t.Errorf("refs: exit %d, %q %q", code, out, errOut)
	}
}

func TestConfigShow(t *testing.T) {
	dir := repo(t)
	os.WriteFile(filepath.Join(dir, ".winnow.toml"), []byte("[index]\nworkers = 2\nwrokers = 3\n"), 0o644)
	code, out, errOut := run(t, "config", "show", "--repo", dir)
	if code != 0 {
		t.Fatalf("config show: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "workers = 2") || !strings.Contains(out, ".winnow.toml") {
		t.Errorf("config show:\n%s", out)
	}
	if !strings.Contains(errOut, "index.wrokers") || !strings.Contains(errOut, ":3:") {
		t.Errorf("unknown key warning must name the key and line: %q", errOut)
	}
	os.WriteFile(filepath.Join(dir, ".winnow.toml"), []byte("[index]\nworkers = -1\n"), 0o644)
	code, _, errOut = run(t, "config", "show", "--repo", dir)
	if code == 0 || !strings.Contains(errOut, "index.workers = -1: must be between 0 (all cores) and 1024") {
		t.Errorf("invalid value: exit %d, %q", code, errOut)
	}
}

func TestCorruptIndexNamesRebuild(t *testing.T) {
	dir := repo(t)
	if code, _, errOut := run(t, "index", dir); code != 0 {
		t.Fatal(errOut)
	}
	db := filepath.Join(dir, ".winnow", "index.db")
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	if err := os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "symbols", "--repo", dir, "Shape")
	if code != 1 || !strings.Contains(errOut, "winnow index --rebuild") {
		t.Errorf("corrupt index: exit %d, %q", code, errOut)
	}
	if code, out, errOut := run(t, "index", "--rebuild", dir); code != 0 || !strings.Contains(out, "indexed 2 files") {
		t.Errorf("index --rebuild: exit %d, %q %q", code, out, errOut)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"symbols"}, {"index", "a", "b"}, {"symbols", "--no-such-flag", "x"}, {"frobnicate"}} {
		code, _, errOut := run(t, args...)
		if code != 2 || !strings.Contains(errOut, "winnow help") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, out, _ := run(t, "version"); code != 0 || !strings.HasPrefix(out, "winnow ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestContextCommand(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "context", "--repo", dir, "--budget", "600", "make_square builds the wrong Shape")
	if code != 0 {
		t.Fatalf("context: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"<context ", "<definitions>", `name="make_square"`, "shapes.py:11-13", "</context>"} {
		if !strings.Contains(out, want) {
			t.Errorf("context lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "context: intent") || !strings.Contains(errOut, "/600 tokens") {
		t.Errorf("summary line: %q", errOut)
	}

	code, out, _ = run(t, "context", "--repo", dir, "--format", "json", "--explain", "Store.Get returns the wrong item")
	var pack struct {
		Intent   string `json:"intent"`
		Tokens   int    `json:"tokens"`
		Budget   int    `json:"budget"`
		Sections []struct {
			Name  string `json:"name"`
			Cards []struct {
				Name string `json:"name"`
				Path string `json:"path"`
			} `json:"cards"`
		} `json:"sections"`
		Explain []struct {
			Name   string             `json:"qualified_name"`
			Shares map[string]float64 `json:"shares"`
		} `json:"explain"`
	}
	if err := json.Unmarshal([]byte(out), &pack); err != nil || code != 0 {
		t.Fatalf("context --format json: exit %d, %v: %q", code, err, out)
	}
	if pack.Tokens > pack.Budget || len(pack.Sections) == 0 || pack.Sections[0].Cards[0].Name != "store.Store.Get" {
		t.Errorf("json pack: %+v", pack)
	}
	if len(pack.Explain) == 0 || pack.Explain[0].Shares["mention"] == 0 {
		t.Errorf("explain: %+v", pack.Explain)
	}

	code, out, _ = run(t, "context", "--repo", dir, "--format", "md", "-")
	if code != 2 {
		t.Errorf("an empty task from stdin: exit %d %q", code, out)
	}
	for _, args := range [][]string{
		{"context", "--repo", dir, "--format", "yaml", "x"},
		{"context", "--repo", dir, "--budget", "-5", "x"},
		{"context", "--repo", dir, ""},
	} {
		if code, _, errOut := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, _, errOut := run(t, "context", "--repo", dir, "--budget", "3", "x"); code != 1 || !strings.Contains(errOut, "budget too small") {
		t.Errorf("tiny budget: exit %d, %q", code, errOut)
	}
}
