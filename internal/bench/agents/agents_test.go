package agents

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
)

// stubClient speaks to the scripted Messages API without a CLI: one request, which a
// script without files answers with its final text.
type stubClient struct{}

func (stubClient) Name() string { return "stub" }

func (stubClient) StartAPI(steps int, files []string) (API, error) {
	api, err := claude.Start(&claude.Options{Script: claude.Script{Steps: steps}})
	if err != nil {
		return nil, err
	}
	return scriptedClaude{api}, nil
}

func (stubClient) Run(ctx context.Context, baseURL, workspace, home string) (Outcome, error) {
	body := `{"model":"claude-opus-5-5","max_tokens":100,"messages":[{"role":"user","content":"hello"}],` +
		`"tools":[{"name":"Read","description":"Reads a file.","input_schema":{"type":"object"}}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/messages", strings.NewReader(body))
	if err != nil {
		return Outcome{}, err
	}
	req.Header.Set("x-api-key", "test-key")
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Outcome{}, err
	}
	defer resp.Body.Close()
	return Outcome{Success: resp.StatusCode == http.StatusOK, Detail: resp.Status}, nil
}

// TestRunWiring: both sessions reach the scripted API, the second through the proxy, and
// the report compares them.
func TestRunWiring(t *testing.T) {
	rep, err := run(t.Context(), stubClient{}, Options{Steps: 1, Files: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Session{rep.Passthrough, rep.Winnow} {
		if !s.Success || s.Requests != 1 || s.InputTokens == 0 || s.Invalid != 0 {
			t.Errorf("%s: %+v; want one valid, billed request", s.Path, s)
		}
	}
	if n := rep.Winnow.Rewrites["unchanged"] + rep.Winnow.Rewrites["changed"]; n != 1 {
		t.Errorf("proxy rewrites %v, want the one request offered to the Rewriter", rep.Winnow.Rewrites)
	}
	if rep.Ratios.InputTokens != 1 || rep.Ratios.Partial {
		t.Errorf("ratios %+v; want 1 for a request the proxy leaves alone", rep.Ratios)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "winnow/passthrough: input tokens billed 1.000") {
		t.Errorf("text report:\n%s", text.String())
	}
}

// TestPartialRatios: when a session breaks off, the ratios cover the steps both answered.
func TestPartialRatios(t *testing.T) {
	rep := &Report{
		Passthrough: Session{Path: "passthrough", Success: true, Tally: Tally{Finished: true, StepInput: []int{100, 200, 300}, StepCost: []float64{125, 30, 40}}},
		Winnow:      Session{Path: "winnow", Tally: Tally{Invalid: 1, StepInput: []int{100, 100}, StepCost: []float64{125, 15}}},
	}
	rep.ratios()
	if got, want := fmt.Sprintf("%.3f %.3f %d %v", rep.Ratios.InputTokens, rep.Ratios.Cost, rep.Ratios.Steps, rep.Ratios.Partial), "0.667 0.903 2 true"; got != want {
		t.Errorf("ratios %s, want %s", got, want)
	}
}
