package retrieve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestModuleUses(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]modUse
	}{
		{"prose only", "The bug is in sphinx.ext.napoleon when parsing.", nil},
		{"conf.py list", "```python\nextensions = [\"sphinx.ext.autodoc\", \"sphinx.ext.todo\",\n    \"sphinx.ext.napoleon\"]\n```",
			map[string]modUse{"sphinx.ext.autodoc": {list: 3}, "sphinx.ext.todo": {list: 3}, "sphinx.ext.napoleon": {list: 3}}},
		{"template line", "- Sphinx extensions: sphinx.ext.autodoc, sphinx.ext.intersphinx\n",
			map[string]modUse{"sphinx.ext.autodoc": {list: 2}, "sphinx.ext.intersphinx": {list: 2}}},
		{"listed and named", "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.napoleon']\n\nsphinx.ext.napoleon drops the section.",
			map[string]modUse{"sphinx.ext.autodoc": {list: 2}, "sphinx.ext.napoleon": {list: 2, free: true}}},
		{"import lines", ">>> from sphinx.application import Sphinx\nimport xarray.core.dataset\n",
			map[string]modUse{"sphinx.application": {imported: true}, "xarray.core.dataset": {imported: true}}},
		{"imported and named", "from astropy.io import fits\n\nastropy.io fails to read it",
			map[string]modUse{"astropy.io": {imported: true, free: true}}},
		{"one dotted name is no list", "a call to xr.where(cond, x, y) and np.nan", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, moduleUses(tt.text), cmp.AllowUnexported(modUse{})); diff != "" {
				t.Errorf("moduleUses (-want +got):\n%s", diff)
			}
		})
	}
}

// listRepo has three extensions and the module the task is about,
// which shares fewer of its words than the extensions do.
var listRepo = map[string]string{
	"ext/autodoc.py":   "def document_members(obj):\n    \"\"\"Document the members of obj.\"\"\"\n    return obj\n",
	"ext/todo.py":      "def process_todo(doc):\n    \"\"\"Collect the todo entries.\"\"\"\n    return doc\n",
	"ext/napoleon.py":  "def parse_section(doc):\n    \"\"\"Parse a docstring section.\"\"\"\n    return doc\n",
	"ext/viewcode.py":  "def collect_pages(app):\n    \"\"\"Collect the highlighted source pages.\"\"\"\n    return app\n",
	"domains/bases.py": "def format_bases(cls):\n    \"\"\"Bases of a class, as the documentation shows them.\"\"\"\n    return cls\n",
}

// TestModuleListNamesLittle ranks a task whose conf.py lists four
// extensions: listed, each names its file as much as a prose mention
// would and outranks the file the task is about; at its share of a
// list of four (PathListDecay), it does not.
func TestModuleListNamesLittle(t *testing.T) {
	const task = "Bases of a class are shown wrong\n\nconf.py:\n" +
		"```python\nextensions = ['ext.autodoc', 'ext.todo', 'ext.napoleon', 'ext.viewcode']\n```\nThe bases of the class are shown wrong.\n"
	ix := indexed(t, writeTree(t, listRepo))
	lead := func(decay float64) string {
		// The conf.py block reaches no definition, so the title
		// feature (title.go) would lift bases.py with or without the
		// discount: held off, the test sees the discount alone.
		return rankWith(t, ix, task, func(p *Params) { p.PathListDecay, p.Weights[FeatTitle] = decay, 0 }).Files[0].Path
	}
	if got := lead(0); got == "domains/bases.py" {
		t.Fatalf("without the list's discount %s leads already; the test needs a listed file to", got)
	}
	if got := lead(DefaultParams.PathListDecay); got != "domains/bases.py" {
		t.Errorf("with PathListDecay %g, %s leads; want domains/bases.py", DefaultParams.PathListDecay, got)
	}
}
