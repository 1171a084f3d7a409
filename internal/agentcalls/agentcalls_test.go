package agentcalls

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

var update = flag.Bool("update", false, "rewrite golden files")

// dataDir holds the shared trajectories (MIT; see its README), checked in once for
// every package that replays them.
const dataDir = "../compact/traj/testdata/trajectories"

// rawCallCounts are the calls in each file of dataDir, counted from the raw data by
// hand-written means independent of this package (jq over tool_calls; grep for
// "<function=" and for fenced blocks in the assistant messages).
var rawCallCounts = map[string]int{
	"adp_nebius_swe-agent_sample_raw.json":                                          49,
	"adp_swe-gym_openhands_gpt4o_sample_raw.json":                                   87,
	"adp_swe-smith_claude_sample_raw.json":                                          116,
	"sweagent_demo_function_calling_replace_from_source_marshmallow-1867.traj.json": 13,
	"sweagent_demo_function_calling_replace_marshmallow-1867.traj.json":             11,
	"sweagent_gpt4_pydicom__pydicom-1458.traj.json":                                 12,
}

// TestTrajectoryCounts maps every call of the shared trajectories and checks the counts
// per canonical tool of each run against a golden file, and that every call is
// accounted for: mapped or kept under the agent's own name.
func TestTrajectoryCounts(t *testing.T) {
	ts, err := traj.Load(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	perFile := map[string]int{}
	for _, tr := range ts {
		s, err := FromTrajectory(tr)
		if err != nil {
			t.Fatalf("%s: %v", tr.Name, err)
		}
		counts := s.Counts()
		tools := make([]string, 0, len(counts))
		for tool := range counts {
			tools = append(tools, tool)
		}
		slices.Sort(tools)
		fmt.Fprintf(&b, "%s:", s.Source)
		for _, tool := range tools {
			fmt.Fprintf(&b, " %s=%d", tool, counts[tool])
		}
		b.WriteByte('\n')
		perFile[fileOf(tr.Source)] += len(s.Calls)
		for i, c := range s.Calls {
			if c.Tool == "" || c.Args == nil || c.Raw == "" {
				t.Errorf("%s: call %d (%s) lacks a tool, arguments or its raw text: %+v", s.Source, i, c.Agent, c)
			}
			if !c.Mapped() && slices.Contains([]string{"str_replace_editor", "execute_bash", "bash", "open", "goto", "find_file", "search_dir", "search_file", "create", "edit"}, c.Tool) {
				t.Errorf("%s: call %d of a mapped tool is unmapped: %s", s.Source, i, c.Raw)
			}
		}
	}
	if diff := cmp.Diff(rawCallCounts, perFile); diff != "" {
		t.Errorf("calls per file (-raw data +mapped):\n%s", diff)
	}
	golden(t, "testdata/counts.golden", b.String())
}

func fileOf(source string) string {
	i := strings.LastIndexByte(source, '/')
	return source[i+1:]
}

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", file, diff)
	}
}
