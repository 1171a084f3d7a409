package pipeline

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// A Pipeline passes tool calls through its stages: Before ahead of the
// dispatch, After on the result. It keeps per-session state, bounded, and
// is safe for concurrent calls.
type Pipeline struct {
	opts     Options
	stages   []Stage
	sessions *sessions
	store    *store
	refs     atomic.Uint64
	modes    outputModes
}

// New returns a pipeline of stages, applied in the order given.
func New(opts Options, stages ...Stage) *Pipeline {
	opts = opts.withDefaults()
	return &Pipeline{
		opts:     opts,
		stages:   stages,
		sessions: newSessions(opts.MaxSessions),
		store:    newStore(opts.MaxStoreBytes, opts.MaxRefs),
	}
}

// newRef returns a short id, unique in the pipeline: r1, r2, ...
func (p *Pipeline) newRef() string {
	return "r" + strconv.FormatUint(p.refs.Add(1), 10)
}

// Before runs the stages' Before on a call about to be dispatched: today,
// the invalidation of cached results the call makes stale.
func (p *Pipeline) Before(ctx context.Context, c *Call) {
	if c == nil {
		return
	}
	t := &Turn{Call: c, p: p, sess: p.sessions.get(c.Session)}
	for _, s := range p.stages {
		p.run(ctx, s, t, s.Before)
	}
}

// After runs the stages' After on the result of c and returns what the
// agent should receive. res itself is not modified; the returned result
// shares its non-text content. Tool errors, results of winnow__more and
// results without text pass unchanged (and are still recorded).
func (p *Pipeline) After(ctx context.Context, c *Call, res *mcp.CallToolResult) *mcp.CallToolResult {
	if c == nil || res == nil {
		return res
	}
	start := time.Now()
	t := p.turn(c, res)
	if !res.IsError && c.Tool != MoreToolName {
		for _, s := range p.stages {
			p.run(ctx, s, t, s.After)
		}
	}
	out := t.result()
	p.commit(t)
	p.record(t, out, time.Since(start))
	return out
}

// turn starts the Turn of a result: numbers the call in its session and
// lists the result's text contents.
func (p *Pipeline) turn(c *Call, res *mcp.CallToolResult) *Turn {
	t := &Turn{Call: c, Result: res, p: p, sess: p.sessions.get(c.Session)}
	if c.Tool != MoreToolName {
		t.words = argWords(c.Args)
	}
	t.seq, t.recent = t.sess.begin(t.words)
	for i, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok && tc != nil {
			t.Texts = append(t.Texts, &Text{Upstream: tc.Text, Text: tc.Text, index: i})
		}
	}
	if !res.IsError && c.Tool != MoreToolName {
		t.structuredTexts()
	}
	return t
}

// run applies one stage's method to t. If it fails or panics, the texts
// are restored to what they were before it and the failure is logged.
func (p *Pipeline) run(ctx context.Context, s Stage, t *Turn, f func(context.Context, *Turn) error) {
	saved := make([]Text, len(t.Texts))
	for i, tx := range t.Texts {
		saved[i] = *tx
	}
	err := safely(func() error { return f(ctx, t) })
	if err == nil {
		return
	}
	for i := range saved {
		*t.Texts[i] = saved[i]
	}
	p.opts.Logger.Warn("gateway pipeline: stage failed; result passed on unchanged by it",
		"stage", s.Name(), "tool", t.Call.Tool, "err", err)
}

// safely calls f, turning a panic into an error.
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

// result assembles what the agent receives: a copy of the upstream result
// whose changed text contents are new TextContents, and whose structured
// content, if shaped, is a new value (structured.go).
func (t *Turn) result() *mcp.CallToolResult {
	var content []mcp.Content
	set := func(i int, text string) {
		if content == nil {
			content = append([]mcp.Content(nil), t.Result.Content...)
		}
		orig := t.Result.Content[i].(*mcp.TextContent)
		content[i] = &mcp.TextContent{Text: text, Meta: orig.Meta, Annotations: orig.Annotations}
	}
	for _, tx := range t.Texts {
		if out := tx.rendered(); out != tx.Upstream && tx.index >= 0 {
			set(tx.index, out)
		}
	}
	sc, scChanged := t.structuredResult()
	if scChanged {
		for _, tx := range t.Texts {
			if !tx.whole {
				continue
			}
			js, err := marshalJSON(sc)
			if err != nil {
				return t.Result
			}
			for _, i := range tx.serial {
				set(i, js)
			}
		}
	}
	if content == nil && !scChanged {
		return t.Result
	}
	res := *t.Result
	if content != nil {
		res.Content = content
	}
	if scChanged {
		res.StructuredContent = sc
	}
	return &res
}

// commit tells the dedup cache whether the agent saw the texts it
// remembered trimmed.
func (p *Pipeline) commit(t *Turn) {
	t.sess.mu.Lock()
	defer t.sess.mu.Unlock()
	for _, tx := range t.Texts {
		if tx.entry != nil {
			tx.entry.trimmed = tx.Hint != ""
		}
	}
}

// record hands the turn to telemetry.
func (p *Pipeline) record(t *Turn, out *mcp.CallToolResult, latency time.Duration) {
	if p.opts.Telemetry == nil {
		return
	}
	c := telemetry.Call{
		Time:    time.Now(),
		Session: t.Call.Session,
		Tool:    t.Call.Tool,
		Args:    t.Call.Args,
		Error:   t.Result.IsError,
		Latency: latency,
	}
	// What the model reads: the structured content when there is some
	// (Claude Code and Codex forward it, not the text), else the texts.
	c.Upstream, c.Delivered = modelView(t.Result), modelView(out)
	for _, tx := range t.Texts {
		c.Steps = append(c.Steps, tx.steps...)
		if tx.Stamp && tx.Ref != "" {
			c.Steps = append(c.Steps, telemetry.Step{Layer: telemetry.LayerDedup, After: "#" + tx.Ref + "\n"})
		}
		c.Dedup = c.Dedup || tx.Dedup
		if c.Shape == "" {
			c.Shape = tx.Shape
		}
	}
	if t.Call.Annotate != nil {
		t.Call.Annotate(&c)
	}
	p.opts.Telemetry.Record(c)
}
