package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
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
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	dialect := openai
	if r.URL.Path == "/v1/messages" {
		dialect = anthropic
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
	switch {
	case req.Stream && r.URL.Path == "/v1/messages":
		a.stream(w, r, anthropicEvents(req.Model))
	case req.Stream && r.URL.Path == "/v1/chat/completions":
		a.stream(w, r, openaiChunks(req.Model))
	case req.Stream:
		a.stream(w, r, responseEvents(req.Model))
	case r.URL.Path == "/v1/messages":
		writeJSON(w, http.StatusOK, anthropicMessage(req.Model))
	case r.URL.Path == "/v1/chat/completions":
		writeJSON(w, http.StatusOK, openaiCompletion(req.Model))
	default:
		writeJSON(w, http.StatusOK, openaiResponse(req.Model))
	}
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
