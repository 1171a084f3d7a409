package mcpserver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/store"
	"github.com/winnowhq/winnow/internal/telescope"
)

// telescopeServer serves the fixture with the telescope tools over a SQLite store.
func telescopeServer(t *testing.T) (dir string, s *Server) {
	t.Helper()
	dir = fixture(t)
	ix := openIndex(t, dir)
	st, err := store.Open(t.Context(), "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "s.db")), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := telescope.New(&telescope.Options{Root: ix.Root(), Store: st, Symbols: telescope.IndexSymbols{Index: ix}})
	if err != nil {
		t.Fatal(err)
	}
	s, err = New(ix, &Options{Telescope: e})
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

var idOf = regexp.MustCompile(`(?m)^([0-9a-f]{12}) (\S+)`)

func TestTelescopeTools(t *testing.T) {
	dir, s := telescopeServer(t)
	cs := connect(t, s)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{toolTelescope: telescopeDoc, toolDrilldown: drilldownDoc}
	found := 0
	for _, tl := range tools.Tools {
		if d, ok := docs[tl.Name]; ok {
			found++
			if tl.Description != strings.TrimSpace(d) || !tl.Annotations.ReadOnlyHint {
				t.Errorf("%s: description or annotations wrong", tl.Name)
			}
		}
	}
	if found != 2 {
		t.Fatalf("telescope tools listed: %d of 2", found)
	}

	text, isErr := call(t, cs, toolTelescope, map[string]any{"path": "pkg"})
	if isErr || !strings.HasPrefix(text, "Telescope of pkg · strategy code_signature v1") {
		t.Fatalf("telescope: %v\n%s", isErr, text)
	}
	ids := map[string]string{}
	for _, m := range idOf.FindAllStringSubmatch(text, -1) {
		ids[m[2]] = m[1]
	}
	group := ids["pkg/"]
	if group == "" {
		t.Fatalf("no pkg/ group in:\n%s", text)
	}
	text, isErr = call(t, cs, toolDrilldown, map[string]any{"id": group})
	if isErr || !strings.Contains(text, "class Headers") || !strings.Contains(text, "def parse_retry_after(value)") {
		t.Fatalf("drilldown of the group: %v\n%s", isErr, text)
	}
	unit := regexp.MustCompile(`── ([0-9a-f]{12}) pkg/headers.py`).FindStringSubmatch(text)
	if unit == nil {
		t.Fatalf("no headers.py in:\n%s", text)
	}
	text, isErr = call(t, cs, toolDrilldown, map[string]any{"id": unit[1]})
	if isErr || !strings.Contains(text, `1| """HTTP header helpers."""`) {
		t.Errorf("drilldown of a file: %v\n%s", isErr, text)
	}

	again, _ := call(t, cs, toolTelescope, map[string]any{"path": "pkg"})
	if !strings.Contains(again, "were already built") || !strings.Contains(again, "5 of 5 entries") {
		t.Errorf("second call did not reuse the telescope:\n%s", again)
	}

	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(dir, "out"))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{toolTelescope, map[string]any{"path": "../"}, "outside the repository"},
		{toolTelescope, map[string]any{"path": "out"}, "symbolic link"},
		{toolTelescope, map[string]any{"strategy": "nope"}, "known strategies are"},
		{toolTelescope, map[string]any{"levels": 7}, "levels 7"},
		{toolDrilldown, map[string]any{"id": "../../etc/passwd"}, "not a telescope node id"},
		{toolDrilldown, map[string]any{"id": "0123456789ab"}, "build the telescope first"},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) || strings.Contains(text, "winnow could not answer") {
			t.Errorf("%s %v: error %v, %q; want an agent-fixable error with %q", c.tool, c.args, isErr, text, c.want)
		}
	}
}
