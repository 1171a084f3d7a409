package shape

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/shape/shapetest"
)

// TestRun runs the benchmark on the fixtures, small generated arrays and
// two extra documents, without TOON, and checks the report.
func TestRun(t *testing.T) {
	extra := []shapetest.Doc{
		{Name: "search.json", Text: `{"total_count": 2, "items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]}`},
		{Name: "notes.txt", Text: "plain prose, not JSON"},
	}
	rep, err := Run(t.Context(), Options{Sizes: []int{3}, Seed: 1, Docs: extra})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Docs), 4+3+2; got != want {
		t.Fatalf("%d documents, want %d", got, want)
	}
	for _, d := range rep.Docs {
		switch d.Name {
		case "notes.txt":
			if d.Compact != 0 || d.RoundTrip != "kept (not JSON)" || d.Winnow != d.Pretty {
				t.Errorf("%s: %+v", d.Name, d)
			}
			continue
		case "devboy/gitlab/merge_requests.json":
			// One object: nothing to share, so compact JSON wins.
			if d.Encoder != "json_compact" {
				t.Errorf("%s: encoder %q, want json_compact", d.Name, d.Encoder)
			}
		case "search.json":
			if d.Shape != "json_wrapper_array" {
				t.Errorf("%s: shape %q", d.Name, d.Shape)
			}
		default:
			if d.Encoder != "table" || d.Winnow >= d.Compact || d.Compact >= d.Pretty {
				t.Errorf("%s: encoder %q, tokens pretty %d, compact %d, winnow %d", d.Name, d.Encoder, d.Pretty, d.Compact, d.Winnow)
			}
		}
		if d.RoundTrip != "exact" {
			t.Errorf("%s: round trip %q", d.Name, d.RoundTrip)
		}
		if d.Toon != nil || d.ToonRoundTrip != "" {
			t.Errorf("%s: TOON counts without TOON", d.Name)
		}
	}
	if a := rep.Arrays; a.Docs != 8 || a.Exact != 8 || a.Winnow >= a.Compact {
		t.Errorf("totals %+v", a)
	}

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"toon    not available: not requested", "devboy/github/issues.json", "issues×3", "round trips exact 8/8"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Docs) != len(rep.Docs) {
		t.Errorf("JSON report does not read back: %v", err)
	}
}

// TestToonUnavailable checks that a missing node or a missing package
// is reported as such, not as counts and not as a failed run.
func TestToonUnavailable(t *testing.T) {
	tests := []struct {
		name string
		toon Toon
		want string
	}{
		{"no node", Toon{Node: "winnow-no-such-node"}, "not available"},
		{"no package", Toon{Dirs: []string{t.TempDir()}}, "not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NODE_PATH", "")
			rep, err := Run(t.Context(), Options{Sizes: []int{}, Toon: &tt.toon})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(rep.Toon, tt.want) {
				t.Errorf("toon %q, want %q…", rep.Toon, tt.want)
			}
			for _, d := range rep.Docs {
				if d.Toon != nil {
					t.Errorf("%s: TOON count %d without TOON", d.Name, *d.Toon)
				}
			}
		})
	}
}

// TestToon runs the real @toon-format/toon package. .ci/run installs it
// and sets WINNOW_TOON_DIR to its node_modules directory; elsewhere the
// test is skipped, saying so.
func TestToon(t *testing.T) {
	dir := os.Getenv("WINNOW_TOON_DIR")
	if dir == "" {
		t.Skip("WINNOW_TOON_DIR is not set: install @toon-format/toon (see .ci/run) to run TOON")
	}
	rep, err := Run(t.Context(), Options{Sizes: []int{5}, Seed: 2, Toon: &Toon{Dirs: []string{dir}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Toon, "@toon-format/toon ") {
		t.Fatalf("toon %q: the package did not run", rep.Toon)
	}
	for _, d := range rep.Docs {
		if d.Toon == nil || *d.Toon <= 0 {
			t.Errorf("%s: no TOON count (%s)", d.Name, d.ToonRoundTrip)
			continue
		}
		// The fixtures hold nothing JavaScript changes; the generated
		// arrays may (1e400, 0.10), but TOON must give back what
		// JavaScript read.
		if d.ToonRoundTrip != "exact" && d.ToonRoundTrip != "js" {
			t.Errorf("%s: TOON round trip %q", d.Name, d.ToonRoundTrip)
		}
		if strings.HasPrefix(d.Name, "devboy/") && d.ToonRoundTrip != "exact" {
			t.Errorf("%s: TOON round trip %q, want exact", d.Name, d.ToonRoundTrip)
		}
	}
}
