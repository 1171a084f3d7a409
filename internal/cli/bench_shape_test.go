package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchShapeCommand(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "search.json")
	if err := os.WriteFile(doc, []byte(`{"total_count":2,"items":[{"id":1,"t":"a"},{"id":2,"t":"b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "bench", "shape", "--sizes", "2", "--no-toon", "--json", doc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Toon string `json:"toon"`
		Docs []struct {
			Name      string `json:"name"`
			RoundTrip string `json:"round_trip"`
		} `json:"docs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rep.Docs) != 4+3+1 || rep.Docs[len(rep.Docs)-1].Name != "search.json" || !strings.HasPrefix(rep.Toon, "not available") {
		t.Errorf("report %+v", rep)
	}
	for _, d := range rep.Docs {
		if d.RoundTrip != "exact" {
			t.Errorf("%s: round trip %q", d.Name, d.RoundTrip)
		}
	}

	code, out, _ = run(t, "bench", "shape", "--sizes", "2", "--toon-dir", t.TempDir(), "--encoding", "cl100k")
	if code != 0 || !strings.Contains(out, "toon    not available") || !strings.Contains(out, "cl100k_base (exact)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestBenchShapeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "shape", "--sizes", "0"},
		{"bench", "shape", "--encoding", "p50k"},
		{"bench", "shape", "--sizes", "x"},
	} {
		if code, _, errOut := run(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, exitUsage)
		}
	}
	code, _, errOut := run(t, "bench", "shape", "--no-toon", filepath.Join(t.TempDir(), "missing.json"))
	if code != exitError || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing document: exit %d: %s", code, errOut)
	}
}
