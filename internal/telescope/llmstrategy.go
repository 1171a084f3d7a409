package telescope

import (
	"context"
	"fmt"
	"strings"
	"text/template"

	"github.com/winnowhq/winnow/internal/llm"
)

// A Completer answers one prompt; *llm.Client is one.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// defaultTargetTokens is the abstract length an llm strategy asks for when its spec names none.
const defaultTargetTokens = 300

// minAnswerTokens is the shortest answer (in output tokens, as the server counts them, or
// else estimated) accepted from a model for a unit longer than that: anything shorter is a
// refusal, an error message or a truncated answer, not an abstract.
const minAnswerTokens = 12

// maxPromptBytes bounds the unit text sent in one prompt; longer units are cut, and the
// prompt says so.
const maxPromptBytes = 400 << 10

// defaultPrompt is the prompt of the built-in llm_summary strategy.
const defaultPrompt = `You are writing one entry of a hierarchical digest of a corpus, which a more expensive model will read to decide what to open.
Summarise the {{.Kind}} file {{.Path}} ({{.Lang}}) in at most {{.TargetTokens}} tokens: what it is for, its main parts (name the functions, types, sections or fields that matter) and anything surprising or risky.{{if .Purpose}} The reader's purpose: {{.Purpose}}. Put what matters for it first.{{end}}
Write plain text, no preamble.

<file path="{{.Path}}">
{{.Content}}
</file>`

// promptData is what a prompt template sees.
type promptData struct {
	Path, Lang, Kind, Content, Purpose string
	TargetTokens                       int
}

// llmStrategy sends each unit, in its prompt, to a model; a failed call or an implausibly
// short answer falls back to a deterministic strategy, and the node records why.
type llmStrategy struct {
	spec     Spec
	tmpl     *template.Template
	client   Completer
	fallback Strategy
}

func newLLMStrategy(sp Spec, tmpl *template.Template, client Completer, fallback Strategy) *llmStrategy {
	return &llmStrategy{spec: sp, tmpl: tmpl, client: client, fallback: fallback}
}

// Spec returns the strategy's spec.
func (s *llmStrategy) Spec() Spec { return s.spec }

// usesPurpose reports whether the prompt reads .Purpose, so that the purpose is part of the
// unit's id.
func (s *llmStrategy) usesPurpose() bool { return strings.Contains(s.spec.Prompt, ".Purpose") }

// Abstract asks the model for u's abstract, falling back when the call fails or the answer
// is implausibly short.
func (s *llmStrategy) Abstract(ctx context.Context, u *Unit) (Abstract, error) {
	target := s.spec.TargetTokens
	if target == 0 {
		target = defaultTargetTokens
	}
	content := string(u.Content)
	if len(content) > maxPromptBytes {
		content = clip(content, maxPromptBytes) + "\n[the rest of the file is cut]"
	}
	var prompt strings.Builder
	data := promptData{Path: u.Path, Lang: u.Lang, Kind: string(u.Kind), Content: content, Purpose: u.Purpose, TargetTokens: target}
	if err := s.tmpl.Execute(&prompt, data); err != nil {
		return Abstract{}, fmt.Errorf("strategy %s: prompt for %s: %w", s.spec.Name, u.Path, err)
	}
	res, err := s.client.Complete(ctx, llm.Request{Prompt: prompt.String(), Model: s.spec.Model, MaxTokens: 2 * target})
	if err != nil {
		if ctx.Err() != nil {
			return Abstract{}, ctx.Err()
		}
		return s.fall(ctx, u, fmt.Sprintf("model call failed: %v", err), nil)
	}
	text := strings.TrimSpace(res.Text)
	n := res.OutputTokens
	if n == 0 {
		n = len(text) / 4
	}
	if text == "" || (n < minAnswerTokens && len(u.Content) > 4*minAnswerTokens) {
		return s.fall(ctx, u, fmt.Sprintf("implausibly short answer (%d tokens)", n), res)
	}
	head := fmt.Sprintf("%s (%s)\n", u.Path, u.Lang)
	return Abstract{
		Text: head + text + "\n", Headline: clip(firstLine(text), 140),
		LLMInputTokens: res.InputTokens, LLMOutputTokens: res.OutputTokens, LLMCalls: res.Attempts,
	}, nil
}

// fall returns the fallback strategy's abstract, marked with why it stood in.
func (s *llmStrategy) fall(ctx context.Context, u *Unit, why string, res *llm.Response) (Abstract, error) {
	a, err := s.fallback.Abstract(ctx, u)
	if err != nil {
		return Abstract{}, fmt.Errorf("strategy %s: %s, and the fallback failed: %w", s.spec.Name, why, err)
	}
	a.Strategy = s.fallback.Spec().Name
	if a.Strategy == "" {
		a.Strategy = kindStrategy(u.Kind)
	}
	a.Fallback = why
	a.LLMCalls = 1
	if res != nil {
		a.LLMInputTokens, a.LLMOutputTokens, a.LLMCalls = res.InputTokens, res.OutputTokens, res.Attempts
	}
	return a, nil
}
