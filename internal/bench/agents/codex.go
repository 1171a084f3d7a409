package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
)

// codexCLI is the Codex CLI (codex exec) against the scripted Responses API.
type codexCLI struct{ bin string }

func newCodex(agents string) (*codexCLI, error) {
	if agents == "" {
		return nil, fmt.Errorf("no agents directory: install Codex with npm install --prefix DIR --no-save @openai/codex@0.169.0 and pass DIR/node_modules (see .ci/run)")
	}
	bin := filepath.Join(agents, ".bin", "codex")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("codex: %w (install it with npm install --prefix, see .ci/run)", err)
	}
	return &codexCLI{bin: bin}, nil
}

func (c *codexCLI) Name() string { return Codex }

func (c *codexCLI) StartAPI(steps int, files []string) (API, error) {
	api, err := codex.StartServer(&codex.ServerOptions{Steps: steps, Files: files})
	if err != nil {
		return nil, err
	}
	return scriptedCodex{api}, nil
}

func (c *codexCLI) Run(ctx context.Context, baseURL, workspace, home string) (Outcome, error) {
	// The script adds notes with apply_patch; both sessions start without them.
	if err := os.RemoveAll(filepath.Join(workspace, "notes")); err != nil {
		return Outcome{}, err
	}
	s, err := codex.Exec(ctx, c.bin, baseURL, workspace, home)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Success: s.Completed(), Detail: s.Final}
	if !out.Success {
		out.Detail = fmt.Sprintf("exit %d, last message %q, errors %s; stderr: %s",
			s.ExitCode, s.Final, strings.Join(s.Errors, "; "), strings.TrimSpace(s.Stderr))
	}
	return out, nil
}

// scriptedCodex adapts codex.Server to API.
type scriptedCodex struct{ *codex.Server }

func (s scriptedCodex) URL() string { return s.Server.URL }

func (s scriptedCodex) Tally() Tally {
	r := s.Report()
	t := Tally{
		Requests:            r.Requests,
		SideRequests:        len(r.Errors), // Codex sends nothing but /v1/responses; anything else is here
		InputTokens:         r.Billed.Input,
		OriginalInputTokens: r.Billed.Input, // the Responses API has no server-side edits
		CacheRead:           r.Billed.CacheRead,
		Cost:                r.Billed.Cost,
		OutputTokens:        r.Output,
		Invalid:             len(r.Invalid),
		Steps:               r.Steps,
		Finished:            r.Finished,
	}
	for _, v := range r.Invalid {
		t.Violations = append(t.Violations, v.String())
	}
	return t
}
