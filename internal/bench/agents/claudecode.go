package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
)

// claudeCode is Claude Code (claude -p) against the scripted Messages API.
type claudeCode struct{ bin string }

func newClaudeCode(agents string) (*claudeCode, error) {
	if agents == "" {
		return nil, fmt.Errorf("no agents directory: install Claude Code with npm install --prefix DIR --no-save @anthropic-ai/claude-code@2.1.328 and pass DIR/node_modules (see .ci/run)")
	}
	bin := filepath.Join(agents, ".bin", "claude")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("claude-code: %w (install it with npm install --prefix, see .ci/run)", err)
	}
	return &claudeCode{bin: bin}, nil
}

func (c *claudeCode) Name() string { return ClaudeCode }

func (c *claudeCode) StartAPI(steps int, files []string) (API, error) {
	api, err := claude.Start(&claude.Options{Script: claude.Script{Steps: steps, Files: files}})
	if err != nil {
		return nil, err
	}
	return scriptedClaude{api}, nil
}

func (c *claudeCode) Run(ctx context.Context, baseURL, workspace, home string) (Outcome, error) {
	res, err := claude.Run(ctx, claude.Session{Bin: c.bin, BaseURL: baseURL, Workspace: workspace, Home: home})
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Success: res.Success(), Detail: res.Result}
	if !out.Success {
		out.Detail = fmt.Sprintf("%s (subtype %s)", res.Result, res.Subtype)
	}
	return out, nil
}

// scriptedClaude adapts claude.API to API.
type scriptedClaude struct{ *claude.API }

func (s scriptedClaude) URL() string { return s.API.URL }

func (s scriptedClaude) Tally() Tally {
	r := s.Report()
	t := Tally{
		Requests:            r.Main.Requests,
		SideRequests:        r.Side.Requests,
		InputTokens:         r.Main.Billed.Input,
		OriginalInputTokens: r.Main.OriginalInputTokens,
		CacheRead:           r.Main.Billed.CacheRead,
		CacheWrite:          r.Main.Billed.CacheWrite,
		Cost:                r.Main.Billed.Cost,
		OutputTokens:        r.Main.OutputTokens,
		Invalid:             r.Main.Invalid + r.Side.Invalid,
		EditsApplied:        r.Main.EditsApplied,
		ClearedInputTokens:  r.Main.ClearedInputTokens,
		Steps:               r.Steps,
		Finished:            r.Finished,
	}
	for _, v := range r.Violations {
		t.Violations = append(t.Violations, v.String())
	}
	for _, x := range s.Exchanges() {
		if x.Kind != claude.KindMain || x.Step < 0 || len(x.Violations) > 0 {
			continue
		}
		for len(t.StepInput) <= x.Step {
			t.StepInput, t.StepCost = append(t.StepInput, 0), append(t.StepCost, 0)
		}
		t.StepInput[x.Step] += x.Billed.Input
		t.StepCost[x.Step] += x.Billed.Cost
	}
	return t
}
