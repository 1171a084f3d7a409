package mcpserver

import (
	"context"
	_ "embed"
)

const toolDrilldown = "drilldown"

//go:embed tools/drilldown.md
var drilldownDoc string

// drilldownArgs are the arguments of the drilldown tool.
type drilldownArgs struct {
	ID string `json:"id" jsonschema:"a node id from the telescope tool or an earlier drilldown, e.g. 3fa9c2b71d04, or a part id such as 3fa9c2b71d04.2"`
}

func (s *Server) addDrilldown() {
	add(s, tool[drilldownArgs]{
		name:    toolDrilldown,
		title:   "Open a telescope entry",
		doc:     drilldownDoc,
		example: `{"id": "3fa9c2b71d04"}`,
		more:    "Drill into one member, or into a part (id.N, listed at the top of a file), to see the rest.",
		run:     s.drilldown,
	})
}

func (s *Server) drilldown(ctx context.Context, in drilldownArgs) (string, error) {
	d, err := s.tel.Drilldown(ctx, in.ID)
	if err != nil {
		return "", telescopeError(err)
	}
	return d.Render(), nil
}
