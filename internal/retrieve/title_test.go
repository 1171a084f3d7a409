package retrieve

import (
	"strings"
	"testing"
)

// titleRepo has the code an issue's title is about, and code that shares
// the words of the user's own program the issue shows.
var titleRepo = map[string]string{
	"docs/domains/python.py": `class PyProperty:
    """The property directive."""

    def handle_signature(self, sig, signode):
        """Parse the property's type annotation into a cross-reference."""
        return sig
`,
	"docs/writers/table.py": `class TableCell:
    """A cell of a table, with its width and height."""

    def cell_width(self):
        """The width of the cell: its start and end position, corner to corner."""
        return self.end - self.start

    def cell_height(self):
        """The height of the cell, from its start position to its end position."""
        return self.bottom - self.top


def render_figure(width, height, position):
    """Render a figure at a position, its width and height in points."""
    return (width, height, position)
`,
}

// titleTask's code is the user's own: it calls nothing the project
// defines, and its words (width, height, position, start, end) are what
// the table writer shares.
const titleTask = "Cross-references don't work in property's type annotations\n\n" +
	"A documented type does not get linked:\n\n```py\n" +
	"class Square:\n" +
	"    #: Square's start position (top-left corner).\n" +
	"    start: Point\n" +
	"    #: Square width.\n" +
	"    width: int\n" +
	"    #: Square height.\n" +
	"    height: int\n\n" +
	"    @property\n" +
	"    def end(self) -> Point:\n" +
	"        \"\"\"Square's end position (bottom-right corner), its width and height from the start.\"\"\"\n" +
	"        return Point(self.start.x + self.width, self.start.y + self.height)\n" +
	"```\n"

// TestTitleLiftsWhenCodeIsTheUsers: the user's code outweighs the title
// and leads to the table writer; with the title feature the method the
// title is about leads.
func TestTitleLiftsWhenCodeIsTheUsers(t *testing.T) {
	ix := indexed(t, writeTree(t, titleRepo))
	lead := func(w float64) string {
		return rankWith(t, ix, titleTask, func(p *Params) { p.Weights[FeatTitle] = w }).Defs[0].Qual
	}
	const want = "PyProperty.handle_signature"
	if got := lead(0); got == want {
		t.Fatalf("without the title feature %s leads already; the test needs it not to", got)
	}
	if got := lead(DefaultParams.Weights[FeatTitle]); got != want {
		t.Errorf("with the title feature %s leads; want %s", got, want)
	}
}

// TestTitleNotWhenCodeReachesTheProject: code that calls the project is
// the project's, and a task without code blocks has its title as a
// large share of its words: neither gets the title feature.
func TestTitleNotWhenCodeReachesTheProject(t *testing.T) {
	ix := indexed(t, writeTree(t, titleRepo))
	for name, task := range map[string]string{
		"code calls the project": strings.Replace(titleTask, "return Point(", "return render_figure(", 1),
		"no code block":          "Cross-references don't work in property's type annotations\n\nThe width and height of a figure are not linked either.",
		"title only":             "Cross-references don't work in property's type annotations",
	} {
		r := rankWith(t, ix, task, func(*Params) {})
		for _, d := range r.Defs {
			if d.Features[FeatTitle] != 0 {
				t.Errorf("%s: %s scores the title feature (%g)", name, d.Qual, d.Features[FeatTitle])
			}
		}
	}
	r := rankWith(t, ix, titleTask, func(*Params) {})
	scored := false
	for _, d := range r.Defs {
		scored = scored || d.Features[FeatTitle] > 0
	}
	if !scored {
		t.Error("the user's code reaches nothing, yet no definition scores the title feature")
	}
}
