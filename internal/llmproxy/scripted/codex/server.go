package codex

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/llmproxy/loopback"
)

// Defaults of the ServerOptions fields left zero.
const (
	DefaultSteps      = 20
	DefaultPatchEvery = 5
)

// ServerOptions configure a Server; nil means the defaults.
type ServerOptions struct {
	// Steps is the number of tool calls before the final answer (DefaultSteps).
	Steps int
	// Files are the files reading steps print, in turn (paths as the command gets them;
	// the fake reads each one's first line to check tool outputs). nil means a generated
	// file per step, FilePath(step), which WriteWorkspace writes.
	Files []string
	// PatchEvery makes every PatchEvery-th step add a note with apply_patch instead of
	// reading a file (DefaultPatchEvery); negative never patches.
	PatchEvery int
	// CacheRead is the price of a cached input token, relative to an uncached one
	// (DefaultCacheRead).
	CacheRead float64
	// Record keeps every request received, for Requests.
	Record bool
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
	// Calls, when set, replace the reading and patching steps: step i calls Calls[i-1]
	// as a function call, and Steps is len(Calls). The outputs Codex sends back are kept
	// for ToolResults.
	Calls []ToolCall
}

// A Received is one request as the fake received it.
type Received struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// A Report is what a Server saw and billed.
type Report struct {
	Requests    int             `json:"requests"`     // POST /v1/responses received
	Steps       int             `json:"steps"`        // the highest script step issued
	Finished    bool            `json:"finished"`     // the final answer was issued
	ToolOutputs int             `json:"tool_outputs"` // outputs sent back with what their command prints
	Invalid     []Violation     `json:"invalid,omitempty"`
	Billed      costsim.Usage   `json:"billed"` // input tokens, cached tokens and cost of the answered requests
	Output      int             `json:"output_tokens"`
	PerRequest  []costsim.Usage `json:"per_request"`
	Errors      []string        `json:"errors,omitempty"` // requests the fake could not serve
}

// A Server is the scripted Responses API on a loopback port.
type Server struct {
	// URL is the base URL, such as http://127.0.0.1:41234; clients append /v1/responses.
	URL string

	opts    ServerOptions
	pricing costsim.Pricing
	log     *slog.Logger
	srv     *loopback.Server
	nonce   [8]byte
	key     [32]byte

	firstLine map[string]string // file → its first line, which its tool output must show

	mu       sync.Mutex
	ledger   *ledger
	bill     *biller
	convs    map[string]*conversation
	ids      int // id counter
	rep      Report
	received []Received
	results  []ToolResult // outputs for Calls, by first arrival
}

// A conversation is the state of one client session, keyed by prompt_cache_key.
type conversation struct {
	cache *costsim.Cache
	seen  map[int]bool // steps whose output came back
}

// StartServer starts a Server on 127.0.0.1 on a free port.
func StartServer(opts *ServerOptions) (*Server, error) {
	s := &Server{ledger: newLedger(), convs: map[string]*conversation{}}
	if opts != nil {
		s.opts = *opts
	}
	if len(s.opts.Calls) > 0 {
		s.opts.Steps = len(s.opts.Calls)
	}
	if s.opts.Steps <= 0 {
		s.opts.Steps = DefaultSteps
	}
	if s.opts.PatchEvery == 0 {
		s.opts.PatchEvery = DefaultPatchEvery
	}
	if s.opts.CacheRead == 0 {
		s.opts.CacheRead = DefaultCacheRead
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if err := s.readFirstLines(); err != nil {
		return nil, err
	}
	s.pricing = costsim.OpenAIPricing(s.opts.CacheRead)
	if err := s.pricing.Validate(); err != nil {
		return nil, err
	}
	var err error
	if s.bill, err = newBiller(); err != nil {
		return nil, err
	}
	rand.Read(s.nonce[:])
	rand.Read(s.key[:])
	if s.srv, err = loopback.Start(http.HandlerFunc(s.serve)); err != nil {
		return nil, fmt.Errorf("scripted API: %w", err)
	}
	s.URL = s.srv.URL
	return s, nil
}

// readFirstLines notes the first line of every file a step reads.
func (s *Server) readFirstLines() error {
	s.firstLine = map[string]string{}
	if len(s.opts.Files) == 0 {
		for step := 1; step <= s.opts.Steps; step++ {
			s.firstLine[FilePath(step)] = Marker(step)
		}
		return nil
	}
	for _, f := range s.opts.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("scripted API: %w", err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		if strings.TrimSpace(line) == "" {
			return fmt.Errorf("scripted API: %s: the first line is empty; tool outputs could not be told apart", f)
		}
		s.firstLine[f] = line
	}
	return nil
}

// Close stops the server, cutting off requests in flight.
func (s *Server) Close() error {
	return s.srv.Close()
}

// Report returns what the server saw and billed so far.
func (s *Server) Report() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rep
	r.Invalid = slices.Clone(r.Invalid)
	r.PerRequest = slices.Clone(r.PerRequest)
	r.Errors = slices.Clone(r.Errors)
	return r
}

// Requests returns the requests received so far, when recording.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.received)
}

// serve answers one request.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client went away while sending
	}
	s.mu.Lock()
	if s.opts.Record {
		s.received = append(s.received, Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	}
	s.mu.Unlock()
	switch {
	case r.Header.Get("Authorization") == "":
		writeError(w, Violation{Status: http.StatusUnauthorized, Message: "You didn't provide an API key.", Code: "invalid_api_key"}, "invalid_request_error")
	case r.Method == http.MethodPost && r.URL.Path == "/v1/responses":
		s.respond(w, r, body)
	default:
		s.fail(fmt.Sprintf("%s %s: not served", r.Method, r.URL.Path))
		writeError(w, Violation{Status: http.StatusNotFound, Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path)}, "invalid_request_error")
	}
}

func (s *Server) fail(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rep.Errors = append(s.rep.Errors, msg)
}

// respond checks a request against the API's rules, then streams the next step of the
// script, billed.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, body []byte) {
	req, err := decodeRequest(body)
	s.mu.Lock()
	s.rep.Requests++
	n := s.rep.Requests
	var vs []Violation
	if err != nil {
		vs = []Violation{{Status: http.StatusBadRequest, Message: "We could not parse the JSON body of your request: " + err.Error()}}
	} else {
		vs = s.ledger.check(req)
	}
	if len(vs) > 0 {
		for i := range vs {
			vs[i].Request = n
		}
		s.rep.Invalid = append(s.rep.Invalid, vs...)
		s.mu.Unlock()
		s.log.Warn("invalid request", "request", n, "violations", len(vs), "first", vs[0].Message)
		writeError(w, vs[0], "invalid_request_error")
		return
	}
	stream, err := s.next(req, n, len(body))
	s.mu.Unlock()
	if err != nil {
		s.fail(fmt.Sprintf("request %d: %v", n, err))
		writeError(w, Violation{Status: http.StatusInternalServerError, Message: err.Error()}, "server_error")
		return
	}
	if !req.Stream {
		s.fail(fmt.Sprintf("request %d: not streamed; the fake only streams", n))
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Request-Id", "req_scripted_"+strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	w.Write(stream)
}

// next decides the step of a valid request, issues its items, bills it and returns its
// event stream. s.mu is held.
func (s *Server) next(req *request, n, size int) ([]byte, error) {
	c := s.convs[req.PromptCacheKey]
	if c == nil {
		cache, err := costsim.NewCache(s.pricing)
		if err != nil {
			return nil, err
		}
		c = &conversation{cache: cache, seen: map[int]bool{}}
		s.convs[req.PromptCacheKey] = c
	}
	step := 1
	for i := range req.items {
		it := &req.items[i]
		if _, ok := callType[it.Type]; !ok {
			continue
		}
		is := s.ledger.byCallID[it.CallID]
		if is == nil || is.step == 0 {
			continue
		}
		step = max(step, is.step+1)
		if !c.seen[is.step] {
			c.seen[is.step] = true
			s.noteOutput(is.step, it)
			if s.verify(is.step, text(it.Output)) {
				s.rep.ToolOutputs++
			}
		}
	}
	segs, err := s.bill.segments(req, s.ledger)
	if err != nil {
		return nil, err
	}
	items, err := s.plan(req, step)
	if err != nil {
		return nil, err
	}
	u := c.cache.Send(costsim.Request{Segments: segs})
	s.rep.Billed.Add(u)
	s.rep.PerRequest = append(s.rep.PerRequest, u)
	b := billed{input: u.Input, cached: u.CacheRead}
	for _, o := range items {
		switch o.is.typ {
		case typeReasoning:
			b.reasoning += s.bill.count(o.is.hidden)
			b.output += s.bill.count(o.summary)
		case typeMessage:
			b.output += s.bill.count(o.text)
		default:
			b.output += s.bill.count(o.name + "\n" + o.args)
		}
	}
	b.output += b.reasoning
	s.rep.Output += b.output
	if step > s.opts.Steps {
		s.rep.Finished = true
	} else {
		s.rep.Steps = max(s.rep.Steps, step)
	}
	s.log.Info("response", "request", n, "step", step, "items", len(req.items), "bytes", size,
		"input_tokens", u.Input, "cached_tokens", u.CacheRead)
	model := req.Model
	if model == "" {
		model = "gpt-5.5-codex"
	}
	return response(s.newID("resp"), model, time.Now().Unix(), items, b), nil
}

// issue returns a new item of type typ at step, with a fresh id (and call id for a tool
// call). The caller adds it to the ledger once complete.
func (s *Server) issue(typ string, step int) *issued {
	is := &issued{typ: typ, step: step}
	switch typ {
	case typeReasoning, typeFunctionCall, typeCustomCall, typeMessage:
		is.id = s.newID(idPrefix[typ])
	default:
		is.id = s.newID("lsh")
	}
	if _, ok := outputType[typ]; ok {
		s.ids++
		is.callID = fmt.Sprintf("call_%s%08x", hex.EncodeToString(s.nonce[:]), s.ids)
	}
	return is
}

// newID returns prefix_ and 50 hex digits, unique to this server, like the API's ids.
func (s *Server) newID(prefix string) string {
	s.ids++
	return fmt.Sprintf("%s_%s%034x", prefix, hex.EncodeToString(s.nonce[:]), s.ids)
}

// seal returns the encrypted_content of a reasoning item: opaque, Fernet-looking, and
// carrying the reasoning text so it is as long as the real thing.
func (s *Server) seal(id, hidden string) string {
	plain := []byte(id + "\x00" + hidden)
	pad := sha256.Sum256(append(s.key[:], id...))
	for i := range plain {
		plain[i] ^= pad[i%len(pad)]
	}
	return "gAAAAAB" + base64.URLEncoding.EncodeToString(plain)
}

// writeError answers with an error in OpenAI's shape.
func writeError(w http.ResponseWriter, v Violation, kind string) {
	e := map[string]any{"message": v.Message, "type": kind, "param": nil, "code": nil}
	if v.Param != "" {
		e["param"] = v.Param
	}
	if v.Code != "" {
		e["code"] = v.Code
	}
	data, _ := json.Marshal(map[string]any{"error": e})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(v.Status)
	w.Write(bytes.TrimSpace(data))
}
