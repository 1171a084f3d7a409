package retrieve

import "testing"

// usedRepo reads a configuration value nothing defines in one function
// and not in another whose words match the task better.
var usedRepo = map[string]string{
	"app/build.py": `def write_pages(app, pages):
    """Finish a build."""
    if app.config.html_minify_output:
        pages = [p.strip() for p in pages]
    return pages
`,
	"app/output.py": `def render_output(pages, directory):
    """Render the pages of the output and write them to the directory."""
    return [directory + p for p in pages]
`,
}

// TestUsedNameLifts: the task names a setting nothing defines; the
// function that reads it outranks one that shares more of the task's
// words only with UsedShare.
func TestUsedNameLifts(t *testing.T) {
	const task = "`html_minify_output` has no effect\n\nSetting html_minify_output = True still renders the output pages to the output directory unchanged."
	ix := indexed(t, writeTree(t, usedRepo))
	lead := func(share float64) string {
		return rankWith(t, ix, task, func(p *Params) { p.UsedShare = share }).Defs[0].Qual
	}
	if got := lead(0); got == "write_pages" {
		t.Fatalf("without UsedShare %s leads already; the test needs it not to", got)
	}
	if got := lead(DefaultParams.UsedShare); got != "write_pages" {
		t.Errorf("with UsedShare %g %s leads; want write_pages", DefaultParams.UsedShare, got)
	}
}
