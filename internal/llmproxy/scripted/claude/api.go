package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/llmproxy/loopback"
)

// sideAnswer is the text of every answer outside the main loop (titles, summaries, probes).
const sideAnswer = "OK."

// Options configure an API.
type Options struct {
	// Script is what the model does in the main loop.
	Script Script
	// Record keeps every request's headers (credentials removed) and body in Exchanges.
	Record bool
}

// An API is a running scripted Messages API on a loopback port. One API serves one
// session of one client: its prompt-cache simulation and its tallies are per API.
type API struct {
	// URL is the base URL, such as http://127.0.0.1:41234: the client's ANTHROPIC_BASE_URL.
	URL string

	opts   Options
	srv    *loopback.Server
	ledger *ledger
	meter  *meter

	mu        sync.Mutex
	seq       int
	caches    map[string]*costsim.Cache // by model: one conversation each
	exchanges []Exchange
	report    Report
	results   []ToolResult // answers to Script.Calls, by first arrival
}

// Start starts an API on 127.0.0.1 on a free port; opts may be nil.
func Start(opts *Options) (*API, error) {
	mt, err := newMeter()
	if err != nil {
		return nil, fmt.Errorf("scripted claude: %w", err)
	}
	a := &API{ledger: newLedger(), meter: mt, caches: make(map[string]*costsim.Cache)}
	if opts != nil {
		a.opts = *opts
	}
	srv, err := loopback.Start(http.HandlerFunc(a.serve))
	if err != nil {
		return nil, fmt.Errorf("scripted claude: %w", err)
	}
	a.URL, a.srv = srv.URL, srv
	return a, nil
}

// Close stops the API, cutting off requests in flight.
func (a *API) Close() error {
	return a.srv.Close()
}

// Report returns what the API saw and billed so far.
func (a *API) Report() Report {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.report
	r.Violations = slices.Clone(r.Violations)
	return r
}

// Exchanges returns every request so far with what the API made of it.
func (a *API) Exchanges() []Exchange {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.exchanges)
}

// serve answers one request.
func (a *API) serve(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	if _, err := body.ReadFrom(r.Body); err != nil {
		return // the client went away while sending
	}
	x := a.begin(r, body.Bytes())
	w.Header().Set("Request-Id", fmt.Sprintf("req_scripted_%d", x.Seq))
	defer func() { a.finish(x) }()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		a.messages(w, r, body.Bytes(), x)
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		a.countTokens(w, r, body.Bytes(), x)
		return
	}
	x.Kind = KindOther
	switch {
	case r.Method == http.MethodHead || r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/api/"):
		x.Status = http.StatusOK
		writeJSON(w, x.Status, obj{})
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		x.Status = http.StatusOK
		writeJSON(w, x.Status, obj{"data": []obj{{"type": "model", "id": "claude-opus-5-5", "display_name": "Claude Opus 5.5 (scripted)", "created_at": "2026-01-01T00:00:00Z"}},
			"has_more": false, "first_id": "claude-opus-5-5", "last_id": "claude-opus-5-5"})
	default:
		x.Status = http.StatusNotFound
		writeError(w, x.Status, "not_found_error", fmt.Sprintf("no route %s %s", r.Method, r.URL.Path))
	}
}

// begin numbers a request and, when recording, keeps its headers and body.
func (a *API) begin(r *http.Request, body []byte) *Exchange {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	x := &Exchange{Seq: a.seq, Method: r.Method, Path: r.URL.Path, Step: -1}
	if a.opts.Record {
		x.Header = r.Header.Clone()
		for _, k := range []string{"X-Api-Key", "Authorization", "Cookie"} {
			x.Header.Del(k)
		}
		x.Body = slices.Clone(body)
	}
	return x
}

// finish adds x to the exchanges and the report's tallies.
func (a *API) finish(x *Exchange) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.exchanges = append(a.exchanges, *x)
	t := &a.report.Side
	if x.Kind == KindMain {
		t = &a.report.Main
	}
	t.add(x)
	for _, v := range x.Violations {
		a.report.Violations = append(a.report.Violations, v)
	}
}

// messages answers POST /v1/messages.
func (a *API) messages(w http.ResponseWriter, r *http.Request, body []byte, x *Exchange) {
	x.Kind = KindSide
	req := a.decode(w, r, body, x)
	if req == nil {
		return
	}
	tools := toolsByName(req.Tools)
	if _, ok := tools["Read"]; ok || tools["Bash"] != nil || a.opts.Script.offersCall(tools) {
		x.Kind = KindMain
	}
	fam := familyOf(req.Model)
	ph := newPrefixHasher(req)
	edits, ok := a.admit(w, r, req, fam, ph, x)
	if !ok {
		return
	}
	v := a.bill(req, fam, edits, x)
	if x.Kind == KindMain && len(a.opts.Script.Calls) > 0 {
		a.noteToolResults(req)
	}

	resp := &response{id: fmt.Sprintf("msg_scripted_%04d", x.Seq), model: req.Model, usage: v, applied: x.AppliedEdits, cm: req.ContextManagement != nil}
	if x.Kind == KindMain {
		a.scripted(req, ph, resp, x)
	} else {
		resp.blocks, resp.stopReason = []obj{{"type": "text", "text": sideAnswer}}, "end_turn"
		resp.usage.output = len(a.meter.ids(sideAnswer))
	}
	x.OutputTokens = resp.usage.output
	x.Status = http.StatusOK
	if req.Stream {
		writeStream(w, resp.events())
		return
	}
	writeJSON(w, http.StatusOK, resp.message())
}

func authorized(r *http.Request) bool {
	return r.Header.Get("X-Api-Key") != "" || r.Header.Get("Authorization") != ""
}

// decode reads the request body; it answers a request without credentials or whose body
// is not a Messages request and returns nil.
func (a *API) decode(w http.ResponseWriter, r *http.Request, body []byte, x *Exchange) *request {
	if !authorized(r) {
		x.Status = http.StatusUnauthorized
		writeError(w, x.Status, "authentication_error", "x-api-key header is required")
		return nil
	}
	req, err := decodeRequest(body)
	if err != nil {
		a.reject(w, x, []Violation{{Rule: ruleShape, Path: "body", Message: err.Error()}})
		return nil
	}
	x.Model = req.Model
	return req
}

// admit checks req against the API's rules and parses its context-management edits; it
// answers a request that breaks a rule and reports false.
func (a *API) admit(w http.ResponseWriter, r *http.Request, req *request, fam family, ph *prefixHasher, x *Exchange) ([]edit, bool) {
	vs := check(req, r.Header, fam, a.ledger, ph)
	edits, err := parseEdits(req.ContextManagement, fam)
	if err != nil {
		vs = append(vs, Violation{Rule: ruleEdits, Path: "context_management", Message: err.Error()})
	}
	if len(vs) > 0 {
		a.reject(w, x, vs)
		return nil, false
	}
	return edits, true
}

// reject answers a request that breaks the API's rules with a 400 naming the first.
func (a *API) reject(w http.ResponseWriter, x *Exchange, vs []Violation) {
	for i := range vs {
		vs[i].Request = x.Seq
	}
	x.Violations = vs
	x.Status = http.StatusBadRequest
	writeError(w, x.Status, "invalid_request_error", vs[0].Path+": "+vs[0].Message)
}

// bill renders req as the model reads it, applies the family's thinking rule and the
// edits, and prices the result against the model's prompt cache; it returns the response's
// input usage.
func (a *API) bill(req *request, fam family, edits []edit, x *Exchange) usage {
	v := a.edited(req, fam, edits, x)
	segs := v.segments(a.meter)
	a.mu.Lock()
	c := a.caches[req.Model]
	if c == nil {
		c, _ = costsim.NewCache(fam.pricing()) // the family table's pricings are valid
		a.caches[req.Model] = c
	}
	x.Billed = c.Send(costsim.Request{Segments: segs})
	a.mu.Unlock()
	return usage{input: x.Billed.Input - x.Billed.CacheRead - x.Billed.CacheWrite, cacheRead: x.Billed.CacheRead, cacheWrite: x.Billed.CacheWrite}
}

// edited is req as the model reads it after the edits, which x records with the input
// tokens before them.
func (a *API) edited(req *request, fam family, edits []edit, x *Exchange) *view {
	v := a.view(req, fam)
	x.OriginalInputTokens = v.tokens(a.meter)
	for _, e := range edits {
		if applied := e.apply(v, a.meter); applied != nil {
			x.AppliedEdits = append(x.AppliedEdits, applied)
		}
	}
	return v
}

// view is req as the model reads it before context-management edits: a last-turn-only
// model does not see the thinking of earlier turns.
func (a *API) view(req *request, fam family) *view {
	v := buildView(req, a.ledger)
	if fam.rule == lastTurnOnly {
		v.stripThinking(currentTurnStart(req))
	}
	return v
}

// scripted fills resp with the script's next step: a thinking block when thinking is on,
// then the step's tool call or the final text.
func (a *API) scripted(req *request, ph *prefixHasher, resp *response, x *Exchange) {
	step := nextStep(req, a.ledger)
	x.Step = step
	t := a.opts.Script.turn(step, toolsByName(req.Tools))
	var sigs []string
	if req.Thinking.enabled() {
		sent := t.thinking
		if req.Thinking.omitted() {
			sent = ""
		}
		sig := a.ledger.sign(issuedThinking{full: t.thinking, sent: sent, prefix: ph.next(), pred: lastThinking(req)})
		sigs = append(sigs, sig)
		resp.blocks = append(resp.blocks, obj{"type": "thinking", "thinking": sent, "signature": sig})
		resp.usage.output += len(a.meter.ids(t.thinking))
	}
	if t.tool == "" {
		resp.blocks = append(resp.blocks, obj{"type": "text", "text": t.text})
		resp.usage.output += len(a.meter.ids(t.text))
		resp.stopReason = "end_turn"
		a.mu.Lock()
		a.report.Finished = true
		a.mu.Unlock()
		return
	}
	id := fmt.Sprintf("toolu_01Scripted%04d", step)
	a.ledger.addToolUse(id, issuedToolUse{step: step, signatures: sigs})
	resp.blocks = append(resp.blocks, obj{"type": "tool_use", "id": id, "name": t.tool, "input": t.input})
	input, _ := json.Marshal(t.input)
	resp.usage.output += len(a.meter.ids(t.tool + " " + string(input)))
	resp.stopReason = "tool_use"
	a.mu.Lock()
	a.report.Steps = max(a.report.Steps, step+1)
	a.mu.Unlock()
}

// nextStep returns the step after the latest one the request's tool results answer (0
// when there are none): the fake names the calls it makes. Every result counts, not only
// the last message's, since a client may append a message of its own after them (Claude
// Code adds a role "system" nudge).
func nextStep(req *request, l *ledger) int {
	step := -1
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			if u, ok := l.lookupToolUse(b.ToolUseID); b.Type == "tool_result" && ok {
				step = max(step, u.step)
			}
		}
	}
	return step + 1
}

// lastThinking returns the signature of the request's last thinking block, or "".
func lastThinking(req *request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		bs := req.Messages[i].Blocks
		for j := len(bs) - 1; j >= 0; j-- {
			switch bs[j].Type {
			case "thinking":
				return bs[j].Signature
			case "redacted_thinking":
				return bs[j].Data
			}
		}
	}
	return ""
}

// countTokens answers POST /v1/messages/count_tokens with the input tokens after the
// request's edits.
func (a *API) countTokens(w http.ResponseWriter, r *http.Request, body []byte, x *Exchange) {
	x.Kind = KindCountTokens
	req := a.decode(w, r, body, x)
	if req == nil {
		return
	}
	fam := familyOf(req.Model)
	edits, ok := a.admit(w, r, req, fam, newPrefixHasher(req), x)
	if !ok {
		return
	}
	n := a.edited(req, fam, edits, x).tokens(a.meter)
	out := obj{"input_tokens": n}
	if req.ContextManagement != nil {
		out["context_management"] = obj{"original_input_tokens": x.OriginalInputTokens}
	}
	x.Status = http.StatusOK
	writeJSON(w, x.Status, out)
}
