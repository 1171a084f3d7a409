package fakeapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	anthropic = "anthropic"
	openai    = "openai"
)

// serve answers one request.
func (a *API) serve(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		return // the client went away while sending
	}
	a.record(r, body)
	dialect := openai
	if r.URL.Path == "/v1/messages" || r.Header.Get("Anthropic-Version") != "" {
		dialect = anthropic
	}
	w.Header().Set("Request-Id", "req_fake_"+strconv.Itoa(len(body)))
	if d, err := time.ParseDuration(r.Header.Get("X-Fake-Delay")); err == nil && !wait(r.Context(), d) {
		return
	}
	if s := r.Header.Get("X-Fake-Status"); s != "" {
		code, err := strconv.Atoi(s)
		if err != nil || code < 200 || code > 599 {
			code = http.StatusBadRequest
		}
		if code == http.StatusTooManyRequests || code == 529 {
			w.Header().Set("Retry-After", "7")
		}
		writeError(w, dialect, code, "fake_error", "fake status "+s)
		return
	}
	if r.Header.Get("X-Api-Key") == "" && r.Header.Get("Authorization") == "" {
		writeError(w, dialect, http.StatusUnauthorized, "authentication_error", "no API key in x-api-key or authorization")
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, http.StatusOK, models(dialect))
	case r.Method == http.MethodPost && (r.URL.Path == "/v1/messages" || r.URL.Path == "/v1/chat/completions" || r.URL.Path == "/v1/responses"):
		a.answer(w, r, body)
	default:
		writeError(w, dialect, http.StatusNotFound, "not_found_error", fmt.Sprintf("no route %s %s", r.Method, r.URL.Path))
	}
}

// answer replies to a message, chat completion or response request.
func (a *API) answer(w http.ResponseWriter, r *http.Request, body []byte) {
	var req request
	dialect := openai
	if r.URL.Path == "/v1/messages" {
		dialect = anthropic
	}
	if strings.EqualFold(r.Header.Get("Content-Encoding"), "gzip") {
		var err error
		if body, err = gunzip(body); err != nil {
			writeError(w, dialect, http.StatusBadRequest, "invalid_request_error", "the body is not gzip: "+err.Error())
			return
		}
	}
	if a.opts.Skim {
		req.Stream = bytes.Contains(body, []byte(`"stream":true`))
	} else if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, dialect, http.StatusBadRequest, "invalid_request_error", "the body is not JSON: "+err.Error())
		return
	}
	if req.Model == "" {
		req.Model = "fake-model"
	}
	u := usageOf(r, body, &req)
	switch {
	case req.Stream && r.URL.Path == "/v1/messages":
		a.stream(w, r, anthropicEvents(req.Model, u))
	case req.Stream && r.URL.Path == "/v1/chat/completions":
		a.stream(w, r, openaiChunks(req.Model, u, req.StreamOptions.IncludeUsage))
	case req.Stream:
		a.stream(w, r, responseEvents(req.Model, u))
	case r.URL.Path == "/v1/messages":
		writeJSON(w, http.StatusOK, anthropicMessage(req.Model, u))
	case r.URL.Path == "/v1/chat/completions":
		writeJSON(w, http.StatusOK, openaiCompletion(req.Model, u))
	default:
		writeJSON(w, http.StatusOK, openaiResponse(req.Model, u))
	}
}

// A request is what the API reads of a request body.
type request struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ContextManagement *struct {
		Edits []struct {
			Type string `json:"type"`
		} `json:"edits"`
	} `json:"context_management"`
}

// usage is what the API bills for a request: input tokens, a fourth of the body's bytes,
// of which the X-Fake-Cache-Read and X-Fake-Cache-Write headers say how many were read
// from and written to the prompt cache; 5 output tokens; and one applied edit, clearing
// one tool use of 50 input tokens, for each clear_tool_uses edit the request asks for.
type usage struct {
	input, cacheRead, cacheWrite, output int
	edits                                []string
}

func usageOf(r *http.Request, body []byte, req *request) usage {
	u := usage{input: max(len(body)/4, 1), output: 5}
	u.cacheRead = min(headerInt(r, "X-Fake-Cache-Read"), u.input)
	u.cacheWrite = min(headerInt(r, "X-Fake-Cache-Write"), u.input-u.cacheRead)
	if req.ContextManagement != nil {
		for _, e := range req.ContextManagement.Edits {
			if strings.HasPrefix(e.Type, "clear_tool_uses") {
				u.edits = append(u.edits, e.Type)
			}
		}
	}
	return u
}

func headerInt(r *http.Request, name string) int {
	n, err := strconv.Atoi(r.Header.Get(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// readBody reads the request body into a buffer sized by Content-Length.
func readBody(r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(r.Body)
	return buf.Bytes(), err
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// writeError answers with an error body in the dialect's shape.
func writeError(w http.ResponseWriter, dialect string, status int, kind, msg string) {
	if dialect == anthropic {
		writeJSON(w, status, obj{"type": "error", "error": obj{"type": kind, "message": msg}})
		return
	}
	writeJSON(w, status, obj{"error": obj{"message": msg, "type": kind, "param": nil, "code": nil}})
}
