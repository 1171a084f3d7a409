package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/probe"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// Cache-read prices of the representative models, relative to an
// uncached input token: 0.1× for the Claude 4.5 models, 0.05× for Opus
// 5.5 (Fable 5.1 reads at 0.025×).
const (
	ReadClaude45 = 0.1
	ReadOpus55   = 0.05
)

// A ThinkingCase is one model family in the thinking benchmark: the
// model every request names, its cache-read price, and the variant its
// requests go through.
type ThinkingCase struct {
	Name    string
	Model   string
	Read    float64 // cache-read price relative to an uncached input token; 0 means 0.1
	Variant Variant
}

// ThinkingCases are the cases `winnow bench compact --thinking` measures:
// one representative model per thinking family, compacted with opts, and
// the Preserved family twice, with server edits (the horizon realised by
// the API's clear_tool_uses edit) and without (client-side batches only,
// which wait for a tool loop to end).
func ThinkingCases(opts compact.Options) []ThinkingCase {
	server := opts
	server.ServerEdits = true
	client := opts
	client.ServerEdits = false
	return []ThinkingCase{
		{Name: "last-turn", Model: "claude-sonnet-4-5", Read: ReadClaude45, Variant: Compaction("combined", compact.New(client))},
		{Name: "keep-all", Model: "claude-opus-4-5", Read: ReadClaude45, Variant: Compaction("combined", compact.New(client))},
		{Name: "preserved", Model: "claude-opus-5-5", Read: ReadOpus55, Variant: Compaction("server-edits", compact.New(server))},
		{Name: "preserved-client", Model: "claude-opus-5-5", Read: ReadOpus55, Variant: Compaction("client-side", compact.New(client))},
	}
}

// ThinkingOptions configure RunThinking.
type ThinkingOptions struct {
	Cases    []ThinkingCase // nil means ThinkingCases(compact.Options{})
	Probe    *probe.Options // the API's ClearedPlaceholder is added to its Handle
	Progress io.Writer      // a line per trajectory; nil for none
}

// RunThinking replays every trajectory, converted to Anthropic messages
// with a signed thinking block in every assistant message, once per case:
// raw and through the case's variant, each request priced as the API
// model reads it for the case's model family (see the package
// documentation, "Thinking").
func RunThinking(ctx context.Context, ts []traj.Trajectory, opts ThinkingOptions) (*ThinkingReport, error) {
	if len(ts) == 0 {
		return nil, errors.New("bench compact --thinking: no trajectories")
	}
	cases := opts.Cases
	if cases == nil {
		cases = ThinkingCases(compact.Options{})
	}
	if err := checkCases(cases); err != nil {
		return nil, err
	}
	enc, err := costsim.NewEncoder()
	if err != nil {
		return nil, err
	}
	handle, err := apiHandle(opts.Probe)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep := newThinkingReport(cases)
	for i, t := range ts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		runs, err := replayThinking(t, cases, enc, handle)
		if err != nil {
			return nil, err
		}
		rep.add(runs)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "[%d/%d] %s\n", i+1, len(ts), thinkingProgress(t.Name, runs))
		}
	}
	rep.finish()
	rep.ElapsedMS = ms(time.Since(start))
	return rep, nil
}

func checkCases(cs []ThinkingCase) error {
	if len(cs) == 0 {
		return errors.New("bench compact --thinking: no cases")
	}
	seen := make(map[string]bool)
	for i, c := range cs {
		switch {
		case c.Name == "":
			return fmt.Errorf("bench compact --thinking: case %d has no name", i)
		case c.Model == "":
			return fmt.Errorf("bench compact --thinking: case %s has no model", c.Name)
		case c.Variant.Rewrite == nil:
			return fmt.Errorf("bench compact --thinking: case %s has no Rewrite", c.Name)
		case c.Read < 0 || c.Read > 1:
			return fmt.Errorf("bench compact --thinking: case %s: cache-read price %g is not in [0, 1]", c.Name, c.Read)
		case seen[c.Name]:
			return fmt.Errorf("bench compact --thinking: two cases named %s", c.Name)
		}
		seen[c.Name] = true
	}
	return nil
}

// apiHandle is the probe's handle pattern with the API model's
// placeholder added: a result the API cleared still stands next to its
// tool_use, input and all, just as a compaction placeholder names its
// call, so a fact behind either counts as recoverable.
func apiHandle(opts *probe.Options) (*probe.Options, error) {
	pattern := probe.DefaultHandle
	if opts != nil && opts.Handle != nil {
		pattern = opts.Handle.String()
	}
	re, err := regexp.Compile("(?:" + pattern + ")|" + regexp.QuoteMeta(ClearedPlaceholder))
	if err != nil {
		return nil, fmt.Errorf("bench compact --thinking: probe handle: %w", err)
	}
	return &probe.Options{Handle: re}, nil
}

// A caseRun is one case on one trajectory.
type caseRun struct {
	name          string
	trajectory    string
	requests      int
	baseline      [2]costsim.Usage // at the model's read price, at 0.1×
	usage         [2]costsim.Usage
	violations    int
	examples      []string
	rewriteErrors int
	changed       int // requests the variant changed
	edits         int // requests whose body asked for a clear_tool_uses edit
	applied       int // of them, past the trigger
	cleared       int // tool results the API cleared, summed over requests
	stripped      int // thinking blocks the API stripped (LastTurn), summed over requests
	probe         probe.Result
	rewrite       time.Duration
}

// replayThinking runs one trajectory through every case.
func replayThinking(t traj.Trajectory, cases []ThinkingCase, enc *costsim.Encoder, handle *probe.Options) ([]caseRun, error) {
	at, err := ToAnthropic(t)
	if err != nil {
		return nil, err
	}
	if at, err = WithThinking(at); err != nil {
		return nil, err
	}
	facts, err := probe.Extract(at)
	if err != nil {
		return nil, err
	}
	r := &thinkingReplay{t: at, facts: facts, seg: newSegmenter(enc), api: newAPIModel(), handle: handle}
	runs := make([]caseRun, len(cases))
	for i, c := range cases {
		if runs[i], err = r.run(c); err != nil {
			return nil, fmt.Errorf("%s: case %s: %w", t.Name, c.Name, err)
		}
	}
	return runs, nil
}

// thinkingReplay is what the cases of one trajectory share: its converted
// messages, its facts, and the memos of rendering and of the API model.
type thinkingReplay struct {
	t      traj.Trajectory
	facts  []probe.Fact
	seg    *segmenter
	api    *apiModel
	handle *probe.Options
}

func (r *thinkingReplay) count(p traj.Parts) (int, error) {
	req, err := r.seg.request(p)
	return req.Tokens(), err
}

// priced returns the simulator's request for body as the API reads it
// for family f.
func (r *thinkingReplay) priced(f compact.Family, body []byte) (costsim.Request, traj.Parts, APIEdit, error) {
	p, e, err := r.api.prompt(f, body, r.count)
	if err != nil {
		return costsim.Request{}, p, e, err
	}
	req, err := r.seg.request(p)
	return req, p, e, err
}

func (r *thinkingReplay) run(c ThinkingCase) (caseRun, error) {
	run := caseRun{name: c.Name, trajectory: r.t.Name}
	reqs, err := thinkingRequests(r.t, c.Model)
	if err != nil {
		return run, err
	}
	run.requests = len(reqs)
	f := compact.ModelFamily(c.Model)
	chk, err := probe.NewChecker(traj.Anthropic, r.facts, r.handle)
	if err != nil {
		return run, err
	}
	raw := make([]costsim.Request, len(reqs))
	sim := make([]costsim.Request, len(reqs))
	sent := make(map[int][]byte, len(reqs)) // by turn: the body sent for it
	for i, q := range reqs {
		if raw[i], _, _, err = r.priced(f, q.Body); err != nil {
			return run, fmt.Errorf("request %d: %w", i, err)
		}
		start := time.Now()
		out, err := c.Variant.Rewrite(traj.Anthropic, q.Body)
		run.rewrite += time.Since(start)
		if err != nil {
			run.rewriteErrors++
			out = q.Body
		}
		if !bytes.Equal(out, q.Body) {
			run.changed++
		}
		vs, err := validateThinking(q.Body, out, sent)
		if err != nil {
			vs = append(vs, err.Error())
		}
		run.violations += len(vs)
		for _, v := range vs {
			if len(run.examples) < maxViolationExamples {
				run.examples = append(run.examples, fmt.Sprintf("%s request %d: %s", r.t.Name, i, v))
			}
		}
		sent[q.Turn] = out
		var parts traj.Parts
		var e APIEdit
		if sim[i], parts, e, err = r.priced(f, out); err != nil {
			return run, fmt.Errorf("request %d: %w", i, err)
		}
		run.count(e)
		if err := chk.Check(q.Turn, parts, r.seg.text); err != nil {
			return run, err
		}
	}
	run.probe = chk.Result()
	read := c.Read
	if read == 0 {
		read = ReadClaude45
	}
	for k, rd := range []float64{read, ReadClaude45} {
		p := costsim.AnthropicPricing()
		p.Read = rd
		if run.baseline[k], _, err = costsim.Simulate(p, raw); err != nil {
			return run, err
		}
		if run.usage[k], _, err = costsim.Simulate(p, sim); err != nil {
			return run, err
		}
	}
	return run, nil
}

func (run *caseRun) count(e APIEdit) {
	if e.Requested {
		run.edits++
	}
	if e.Applied {
		run.applied++
	}
	run.cleared += e.Cleared
	run.stripped += e.Stripped
}

// maxViolationExamples bounds the violations a case reports verbatim.
const maxViolationExamples = 8

// validateThinking checks a compacted body against the original with
// compact.ValidateBound: a thinking block that out keeps after a
// rewritten message was produced against the request sent for its
// message, which is in sent (by turn, the bodies sent so far), so the
// prefix rule of Preserved models is checked against that request. A
// block whose message has no request sent (none in this replay) is
// checked against the original, as compact.Validate does.
func validateThinking(orig, out []byte, sent map[int][]byte) ([]string, error) {
	o, err := anthropic.Decode(orig)
	if err != nil {
		return nil, fmt.Errorf("validate: decode the original: %w", err)
	}
	c, err := anthropic.Decode(out)
	if err != nil {
		return nil, fmt.Errorf("validate: decode the compacted body: %w", err)
	}
	var bound *chat.Conversation
	if body, ok := sent[thinkingOrigin(orig, out)]; ok {
		if bound, err = anthropic.Decode(body); err != nil {
			return nil, fmt.Errorf("validate: decode the request sent before the last kept thinking block: %w", err)
		}
	}
	var vs []string
	for _, v := range compact.ValidateBound(chat.Anthropic, o, c, bound) {
		vs = append(vs, v.String())
	}
	return vs, nil
}

// thinkingOrigin returns the index of the message of orig that holds the
// last thinking block out keeps, or -1 when out keeps none or it is not
// in orig. Blocks are signed, so their bytes identify them.
func thinkingOrigin(orig, out []byte) int {
	op, err := traj.ParseRequest(orig)
	if err != nil {
		return -1
	}
	np, err := traj.ParseRequest(out)
	if err != nil {
		return -1
	}
	for i := len(np.Messages) - 1; i >= 0; i-- {
		_, blocks, err := apiMessage(np.Messages[i])
		if err != nil {
			continue
		}
		for k := len(blocks) - 1; k >= 0; k-- {
			if !isThinkingBlock(blocks[k]) {
				continue
			}
			for oi, m := range op.Messages {
				if bytes.Contains(m, blocks[k]) {
					return oi
				}
			}
			return -1
		}
	}
	return -1
}

// thinkingProgress is the one-line summary of a trajectory's cases.
func thinkingProgress(name string, runs []caseRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d requests", name, runs[0].requests)
	for _, r := range runs {
		fmt.Fprintf(&b, "; %s %.2f sent %.2f cost", r.name, ratio(r.usage[0].Input, r.baseline[0].Input), ratioF(r.usage[0].Cost, r.baseline[0].Cost))
	}
	return b.String()
}
