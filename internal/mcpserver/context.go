package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/retrieve"
)

const toolContext = "context"

//go:embed tools/context.md
var contextDoc string

// contextArgs are the arguments of the context tool.
type contextArgs struct {
	Task   string `json:"task" jsonschema:"what you need to do, in plain words: an issue, a request, a question about the code, or a pasted stack trace"`
	Budget int    `json:"budget,omitempty" jsonschema:"the most tokens the context may take; default 8000 or the server's output cap, whichever is smaller"`
	Format string `json:"format,omitempty" jsonschema:"xml (the default), md or json"`
}

const (
	// maxTaskBytes bounds a task; longer ones are refused.
	maxTaskBytes = 256 << 10
	// noteReserve is the room left beside a pack for a note about its budget.
	noteReserve = 64
)

func (s *Server) addContext() {
	add(s, tool[contextArgs]{
		name:       toolContext,
		title:      "Context for a task",
		doc:        contextDoc,
		example:    `{"task": "parse_retry_after ignores fractional seconds", "budget": 4000}`,
		more:       "Ask again with a smaller budget.",
		runCounted: s.contextPack,
	})
}

// contextPack ranks the repository's definitions for a task and returns the
// budgeted pack, rendered, and its exact token count (0 when a note on the
// budget precedes it: the cap counts that).
func (s *Server) contextPack(ctx context.Context, in contextArgs) (string, int, error) {
	task := strings.TrimSpace(in.Task)
	if task == "" {
		return "", 0, fixable(`the task is empty: say what you need to do, e.g. {"task": "fix the crash in parse_header when the value is empty"}`)
	}
	if len(task) > maxTaskBytes {
		return "", 0, fixable("the task is %d bytes; the limit is %d. Keep the issue text or the stack trace and leave out logs and attachments", len(task), maxTaskBytes)
	}
	form, err := retrieve.ParseFormat(strings.TrimSpace(in.Format))
	if err != nil {
		return "", 0, fixable("%v", err)
	}
	if in.Budget < 0 {
		return "", 0, fixable("budget %d: give a positive number of tokens, e.g. 4000, or leave it out for the default", in.Budget)
	}
	budget, note := s.contextBudget(in.Budget)
	s.fresh.awaitKeep(ctx)
	pack, text, err := s.engine.ContextText(ctx, retrieve.Request{Task: task, Budget: budget, Format: form})
	if errors.Is(err, retrieve.ErrBudgetTooSmall) {
		return "", 0, fixable("%v", err)
	}
	if err != nil {
		return "", 0, err
	}
	if cards, _ := pack.Cards(); cards == 0 {
		return "", 0, fixable("nothing in the repository matched the task. Name a function, class, file or error message from the code, or paste the stack trace; find_symbol finds definitions from part of a name")
	}
	if note != "" {
		return note + "\n" + text, 0, nil
	}
	if form == retrieve.JSON {
		return text, 0, nil // its "tokens" member was not yet filled in when it was counted
	}
	return text, pack.Tokens, nil
}

// contextBudget is the budget a pack is made for: the one asked, or the
// default, within the output cap; and a note when the cap lowered it.
func (s *Server) contextBudget(asked int) (int, string) {
	limit := s.limit.max - noteReserve
	switch {
	case asked == 0:
		return min(retrieve.DefaultBudget, s.limit.max), ""
	case asked > s.limit.max:
		return limit, fmt.Sprintf("Note: budget %d is above this server's output cap; the context was packed for %d tokens.", asked, limit)
	}
	return asked, ""
}
