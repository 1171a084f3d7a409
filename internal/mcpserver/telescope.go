package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/telescope"
)

const toolTelescope = "telescope"

//go:embed tools/telescope.md
var telescopeDoc string

// telescopeArgs are the arguments of the telescope tool.
type telescopeArgs struct {
	Path     string `json:"path,omitempty" jsonschema:"a file or directory relative to the repository root; default \".\", the whole repository"`
	Strategy string `json:"strategy,omitempty" jsonschema:"code_signature (default), code_security, narrative_summary, audit_findings, llm_summary, or a configured strategy"`
	Purpose  string `json:"purpose,omitempty" jsonschema:"what you are trying to find out; ranks the files by relevance and leaves out the rest"`
	Levels   int    `json:"levels,omitempty" jsonschema:"1 lists files, 2 (default) groups them by directory, 3 also by top-level directory"`
}

func (s *Server) addTelescope() {
	add(s, tool[telescopeArgs]{
		name:    toolTelescope,
		title:   "Digest a corpus into a telescope",
		doc:     telescopeDoc,
		example: `{"path": "src", "strategy": "code_security", "purpose": "where user input reaches SQL"}`,
		more:    "Build the telescope of a subdirectory, or pass a purpose, to see fewer entries.",
		run:     s.telescope,
	})
}

func (s *Server) telescope(ctx context.Context, in telescopeArgs) (string, error) {
	if in.Levels < 0 || in.Levels > telescope.MaxLevels {
		return "", fixable("levels %d: give 1 (files), 2 (directories, the default) or 3 (top-level directories)", in.Levels)
	}
	p := in.Path
	if strings.TrimSpace(p) == "" {
		p = "."
	}
	if _, err := resolvePath(s.ix.Root(), p); err != nil {
		return "", err
	}
	res, err := s.tel.Build(ctx, telescope.Request{Path: p, Strategy: in.Strategy, Purpose: in.Purpose, Levels: in.Levels})
	if err != nil {
		return "", telescopeError(err)
	}
	st := res.Stats
	var b strings.Builder
	b.WriteString(res.Index)
	fmt.Fprintf(&b, "\n(%d %s; %d → %d tokens in file abstracts, %.0f%% saved; %d of %d entries were already built)\n",
		st.Units, plural(st.Units, "file", "files"), st.InputTokens, st.OutputTokens, st.SavedPct,
		st.Reused.Units+st.Reused.Groups+st.Reused.Root,
		st.Reused.Units+st.Reused.Groups+st.Reused.Root+st.Computed.Units+st.Computed.Groups+st.Computed.Root)
	return b.String(), nil
}

// telescopeError makes the failures an agent can fix into messages saying how.
func telescopeError(err error) error {
	switch {
	case errors.Is(err, telescope.ErrOutsideRoot):
		return fixable("%v; winnow only reads files inside the repository: give a path relative to its root", err)
	case errors.Is(err, telescope.ErrUnknownStrategy), errors.Is(err, telescope.ErrNoModel):
		return fixable("%v", err)
	case errors.Is(err, telescope.ErrBadID), errors.Is(err, telescope.ErrNotFound):
		return fixable("%v", err)
	case errors.Is(err, telescope.ErrStale):
		return fixable("%v: call telescope again for the same path and strategy, then drill down from the new ids", err)
	}
	return err
}
