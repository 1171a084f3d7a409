package shapetest

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed fixtures
var fixtureFS embed.FS

// A Doc is one named JSON document.
type Doc struct {
	// Name says where the document comes from: "devboy/github/issues.json"
	// for a fixture, "issues×100" for a generated array.
	Name string
	// Text is the document as a server sent it (pretty-printed JSON).
	Text string
}

// Fixtures returns the embedded fixtures in path order: responses of the
// devboy MCP server's GitHub and GitLab tools (issues, pull requests,
// merge requests), pretty-printed as the server sent them.
func Fixtures() ([]Doc, error) {
	var docs []Doc
	err := fs.WalkDir(fixtureFS, "fixtures", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fixtureFS.ReadFile(path)
		if err != nil {
			return err
		}
		docs = append(docs, Doc{Name: path[len("fixtures/"):], Text: string(b)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read fixtures: %w", err)
	}
	return docs, nil
}
