package retrieve

import (
	"slices"
	"testing"
)

// dirRepo has a package whose module matches the task best and whose
// other module matches it as little as a module elsewhere does.
var dirRepo = map[string]string{
	"pkg/render/table.py": "def render_table(rows, widths):\n    \"\"\"Render the table rows at their column widths.\"\"\"\n    return rows\n",
	"pkg/render/cells.py": "def pad_cell(cell, width):\n    \"\"\"Pad one cell of a column.\"\"\"\n    return cell\n",
	"pkg/other/cells.py":  "def pad_cell(cell, width):\n    \"\"\"Pad one cell of a column.\"\"\"\n    return cell\n",
}

// TestSiblingLift: of two files that match the task alike, the one
// beside the leading file ranks first with DirShare, and the leader
// stays first.
func TestSiblingLift(t *testing.T) {
	const task = "render_table pads a cell of a column to the wrong width"
	ix := indexed(t, writeTree(t, dirRepo))
	files := func(share float64) []string {
		var out []string
		for _, f := range rankWith(t, ix, task, func(p *Params) { p.DirShare = share }).Files {
			out = append(out, f.Path)
		}
		return out
	}
	before := files(0)
	if before[0] != "pkg/render/table.py" {
		t.Fatalf("without the lift the files rank %v; the test needs pkg/render/table.py first", before)
	}
	after := files(DefaultParams.DirShare)
	if after[0] != "pkg/render/table.py" {
		t.Errorf("with DirShare %g the files rank %v: the leader changed", DefaultParams.DirShare, after)
	}
	if slices.Index(after, "pkg/render/cells.py") > slices.Index(after, "pkg/other/cells.py") {
		t.Errorf("with DirShare %g the files rank %v; want pkg/render/cells.py above pkg/other/cells.py", DefaultParams.DirShare, after)
	}
}
