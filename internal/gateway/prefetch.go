package gateway

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
)

// A fetch is one follow-up call run ahead of the agent, from its start until the agent's
// own call takes its result, something makes it stale, or it ages out or is evicted.
type fetch struct {
	key       string // planner.Key of the call
	tool      string // agent-visible name
	args      json.RawMessage
	paths     []string // path arguments, for invalidation
	predicted int      // tokens the planner predicted
	done      chan struct{}
	cancel    context.CancelFunc

	// Guarded by the session's lock.
	source  string // telemetry.ServedPrefetch, or ServedInline once appended to a result
	started bool   // it holds a host slot and went to the upstream
	stale   bool   // never to be served: invalidated, or taken over by the agent's call
	res     *mcp.CallToolResult
	latency time.Duration
	size    int
	expires time.Time
	elem    *list.Element // in the session's landed list
}

// errStale ends a follow-up that something made stale before it was sent.
var errStale = errors.New("made stale before it was sent")

// An enrichSession is what the planner keeps of one agent session.
type enrichSession struct {
	ctx    context.Context // ends with the session or the gateway
	cancel context.CancelFunc

	mu      sync.Mutex
	ended   bool
	history []planner.Call
	words   [][]string        // the words of each history call's arguments
	fetches map[string]*fetch // by key, in flight and landed
	landed  *list.List        // landed fetches, most recent first
	bytes   int               // text held by landed fetches
	running int
	streaks map[string]*streak
	order   []string // keys of streaks, oldest first
}

func newEnrichSession(parent context.Context) *enrichSession {
	ctx, cancel := context.WithCancel(parent)
	return &enrichSession{
		ctx: ctx, cancel: cancel,
		fetches: make(map[string]*fetch), landed: list.New(), streaks: make(map[string]*streak),
	}
}

// end cancels everything the session has in flight and forgets what it holds.
func (s *enrichSession) end() {
	s.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	for _, f := range s.fetches {
		f.stale = true
		s.drop(f)
	}
	s.history, s.words = nil, nil
}

// remember adds a call to the session's history, keeping the last max.
func (s *enrichSession) remember(c planner.Call, max int) {
	words := argWords(nil, c.Args)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.history) - max + 1; n > 0 {
		s.history = slices.Delete(s.history, 0, n)
		s.words = slices.Delete(s.words, 0, n)
	}
	s.history = append(s.history, c)
	s.words = append(s.words, words)
}

// recent returns the session's history and the intent keywords of its calls: the words
// of their arguments, the most recent call's first, without repeats.
func (s *enrichSession) recent() ([]planner.Call, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var words []string
	for i := len(s.words) - 1; i >= 0 && len(words) < maxIntentWords; i-- {
		for _, w := range s.words[i] {
			if len(words) < maxIntentWords && !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return slices.Clone(s.history), words
}

// drop forgets f: it is no longer served, and its text no longer counts.
func (s *enrichSession) drop(f *fetch) {
	if s.fetches[f.key] == f {
		delete(s.fetches, f.key)
	}
	if f.elem != nil {
		s.landed.Remove(f.elem)
		f.elem = nil
		s.bytes -= f.size
	}
}

// discard stops f if it is still in flight and forgets it: what it returns is not kept.
func (s *enrichSession) discard(f *fetch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.stale = true
	if f.res == nil {
		f.cancel()
	}
	s.drop(f)
}

// invalidate drops the results that stale makes stale, and stops the follow-ups in
// flight that it makes stale: what they return is discarded.
func (s *enrichSession) invalidate(stale staleRule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.fetches {
		if stale(f.tool, f.paths) {
			f.stale = true
			if f.res == nil {
				f.cancel()
			}
			s.drop(f)
		}
	}
	for key, st := range s.streaks {
		if stale(st.tool, st.paths) {
			delete(s.streaks, key)
		}
	}
}

// take returns the landed follow-up whose key is key, removing it from the session: a
// result run ahead answers one call. A follow-up still in flight is waited for, at most
// for wait; one still waiting for a host slot is abandoned, so that the agent's own call
// goes at once. It returns nil when there is nothing to serve.
func (s *enrichSession) take(ctx context.Context, key string, wait time.Duration) *fetch {
	s.mu.Lock()
	f := s.fetches[key]
	switch {
	case f == nil:
		s.mu.Unlock()
		return nil
	case f.res == nil && !f.started:
		f.stale = true
		f.cancel()
		s.drop(f)
		s.mu.Unlock()
		return nil
	case f.res == nil:
		s.mu.Unlock()
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-f.done:
		case <-t.C:
			return nil
		case <-ctx.Done():
			return nil
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	if f.res == nil || s.fetches[key] != f {
		return nil // it failed, went stale, or another call took it
	}
	s.drop(f)
	if time.Now().After(f.expires) {
		return nil
	}
	return f
}

// start runs f, a follow-up call of tool name on u, in the background, unless the session
// has ended or has too many in flight; a follow-up with the same key already in flight or
// landed is returned instead. It returns the follow-up, or why it did not run.
func (e *enricher) start(s *enrichSession, f *fetch, u *upstream, name, host string, ttl time.Duration) (*fetch, string) {
	s.mu.Lock()
	switch {
	case s.ended:
		s.mu.Unlock()
		return nil, "the session ended"
	case s.fetches[f.key] != nil:
		old := s.fetches[f.key]
		s.mu.Unlock()
		return old, ""
	case s.running >= e.o.MaxPrefetch:
		s.mu.Unlock()
		return nil, fmt.Sprintf("the session has %d follow-ups in flight already", e.o.MaxPrefetch)
	}
	ctx, cancel := context.WithCancel(s.ctx)
	f.cancel = cancel
	s.fetches[f.key] = f
	s.running++
	s.mu.Unlock()
	if !e.g.spawn(func() { e.run(ctx, s, f, u, name, host, ttl) }) {
		e.land(s, f, u, nil, 0, context.Canceled, ttl)
		return nil, "the gateway is closing"
	}
	e.stats.started.Add(1)
	return f, ""
}

// run makes the follow-up call and lands its result in the session.
func (e *enricher) run(ctx context.Context, s *enrichSession, f *fetch, u *upstream, name, host string, ttl time.Duration) {
	defer f.cancel()
	res, latency, err := e.send(ctx, s, f, u, name, host)
	e.land(s, f, u, res, latency, err, ttl)
}

// send sends the follow-up to the upstream once the host has a free slot.
func (e *enricher) send(ctx context.Context, s *enrichSession, f *fetch, u *upstream, name, host string) (*mcp.CallToolResult, time.Duration, error) {
	slot := e.slot(host)
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
	defer func() { <-slot }()
	s.mu.Lock()
	stale := f.stale
	f.started = !stale
	s.mu.Unlock()
	if stale {
		return nil, 0, errStale
	}
	e.notify()
	c, st := u.current()
	if c == nil {
		return nil, 0, errors.New(st.unavailable(time.Now()))
	}
	cctx, cancel := context.WithTimeout(ctx, u.cfg.CallTimeout())
	defer cancel()
	start := time.Now()
	res, err := c.sess.CallTool(cctx, &mcp.CallToolParams{Name: name, Arguments: f.args})
	return res, time.Since(start), err
}

// slot returns the semaphore of host.
func (e *enricher) slot(host string) chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	sem := e.hosts[host]
	if sem == nil {
		sem = make(chan struct{}, e.o.HostConcurrency)
		e.hosts[host] = sem
	}
	return sem
}

// land keeps the result of a follow-up in the session cache, unless the call failed, its
// result is an error, it went stale or the session ended meanwhile; those are dropped, the
// agent never sees them, and they are counted and logged (at debug level, without
// argument values).
func (e *enricher) land(s *enrichSession, f *fetch, u *upstream, res *mcp.CallToolResult, latency time.Duration, err error, ttl time.Duration) {
	if err == nil {
		switch {
		case res == nil:
			err = errors.New("no result")
		case res.IsError:
			err = fmt.Errorf("the tool returned an error: %.200s", resultText(res))
		case res.NeedsInput():
			err = errors.New("the tool asked for input")
		}
	}
	s.mu.Lock()
	s.running--
	f.latency = latency
	stale := f.stale || s.ended
	size := resultBytes(res)
	if err == nil && !stale && size > e.o.CacheBytes {
		err = fmt.Errorf("its result of %d bytes is larger than the session cache (%d bytes)", size, e.o.CacheBytes)
	}
	if err == nil && !stale && s.fetches[f.key] == f {
		f.res, f.size, f.expires = res, size, time.Now().Add(ttl)
		f.elem = s.landed.PushFront(f)
		s.bytes += size
		s.evict(e.o.CacheBytes, e.o.CacheEntries)
	} else {
		s.drop(f)
	}
	close(f.done)
	s.mu.Unlock()
	e.notify()
	switch {
	case stale:
		e.stats.discarded.Add(1)
		u.log.Debug("follow-up discarded: made stale or cancelled while in flight", "tool", f.tool)
	case err != nil:
		e.stats.failed.Add(1)
		u.log.Debug("follow-up failed; dropped", "tool", f.tool, "error", err)
	}
}

// evict drops the oldest landed follow-ups until the session holds at most maxBytes of
// text in at most maxEntries results, and those past their time.
func (s *enrichSession) evict(maxBytes, maxEntries int) {
	now := time.Now()
	for el := s.landed.Back(); el != nil; {
		prev := el.Prev()
		f := el.Value.(*fetch)
		if s.bytes > maxBytes || s.landed.Len() > maxEntries || now.After(f.expires) {
			s.drop(f)
		}
		el = prev
	}
}

// resultBytes is the size of what a result holds, roughly: its text, binary data and
// structured content.
func resultBytes(res *mcp.CallToolResult) int {
	if res == nil {
		return 0
	}
	n := 0
	for _, c := range res.Content {
		switch x := c.(type) {
		case *mcp.TextContent:
			n += len(x.Text)
		case *mcp.ImageContent:
			n += len(x.Data)
		case *mcp.AudioContent:
			n += len(x.Data)
		case *mcp.EmbeddedResource:
			if x.Resource != nil {
				n += len(x.Resource.Text) + len(x.Resource.Blob)
			}
		}
	}
	if res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			n += len(data)
		}
	}
	return n
}

// awaitInline waits for the inline follow-ups fs, in order, until wait has passed, and
// returns the delimited blocks of those that landed, within budget tokens, and for each of
// fs why it was not inlined ("" if it was). Inlined results stay in the cache, marked as
// such, so that the agent's identical call is answered from it; the others stay
// prefetches: those not landed in time land there later.
func (s *enrichSession) awaitInline(ctx context.Context, fs []*fetch, wait time.Duration, budget int, count tokens.Counter) (blocks, why []string) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	expired := false
	why = make([]string, len(fs))
	used := 0
	for i, f := range fs {
		if !expired {
			select {
			case <-f.done:
			case <-timer.C:
				expired = true
			case <-ctx.Done():
				expired = true // the agent gave up on the call: nothing more to append
			}
		}
		s.mu.Lock()
		var text string
		switch {
		case f.res == nil && !isDone(f):
			why[i] = fmt.Sprintf("not back within the inline wait (%s): left to land in the session cache", wait)
		case f.res == nil || s.fetches[f.key] != f:
			why[i] = "failed, or made stale, before it could be inlined"
		default:
			text = resultText(f.res)
			n := count.Count(text)
			switch {
			case strings.TrimSpace(text) == "":
				why[i] = "no text to inline: kept in the session cache"
			case used+n > budget:
				why[i] = fmt.Sprintf("its %d tokens are over the turn budget left (%d): kept in the session cache", n, budget-used)
			default:
				used += n
				f.source = telemetry.ServedInline
			}
		}
		s.mu.Unlock()
		if why[i] == "" {
			blocks = append(blocks, inlineBlock(f.tool, f.args, text))
		}
	}
	return blocks, why
}

// isDone reports whether f's call has ended.
func isDone(f *fetch) bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// inlineBlock delimits the result text of a follow-up appended to another result, naming
// the call that produced it.
func inlineBlock(tool string, args json.RawMessage, text string) string {
	call := tool + " " + string(args)
	return "[winnow: read ahead — " + call + "]\n" + strings.TrimSuffix(text, "\n") + "\n[winnow: end of " + call + "]"
}

// inlinable reports whether blocks appended to res reach the model: Claude Code and Codex
// give it the structured content when there is some, so it must hold the text (a
// text-carrier object, such as server-filesystem's {"content": ...}) for the blocks to be
// appended there too.
func inlinable(res *mcp.CallToolResult) bool {
	if res.StructuredContent == nil {
		return true
	}
	_, ok := textMember(res)
	return ok
}

// textMember returns the member of res's structured content that repeats its first text
// content.
func textMember(res *mcp.CallToolResult) (string, bool) {
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		return "", false
	}
	var first *mcp.TextContent
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			first = t
			break
		}
	}
	if first == nil {
		return "", false
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if s, ok := m[k].(string); ok && s == first.Text {
			return k, true
		}
	}
	return "", false
}

// appendInline returns out with the inline blocks appended: as text contents, and to the
// structured content's text member when it has one. out is not modified.
func appendInline(out *mcp.CallToolResult, blocks []string) *mcp.CallToolResult {
	if len(blocks) == 0 {
		return out
	}
	r := *out
	r.Content = slices.Clone(out.Content)
	for _, b := range blocks {
		r.Content = append(r.Content, &mcp.TextContent{Text: b})
	}
	if k, ok := textMember(out); ok {
		m := maps.Clone(out.StructuredContent.(map[string]any))
		m[k] = m[k].(string) + "\n\n" + strings.Join(blocks, "\n\n")
		r.StructuredContent = m
	}
	return &r
}

// spawn runs f in a goroutine that Close waits for, unless the gateway is closing.
func (g *Gateway) spawn(f func()) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
	return true
}
