package llmproxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Values of Options.ServerEdits.
const (
	// ServerEditsAuto asks for server-side edits only from the first-party Anthropic API
	// (api.anthropic.com), the one upstream known to accept the context-management beta.
	ServerEditsAuto = "auto"
	ServerEditsOn   = "on"  // ask every Anthropic upstream
	ServerEditsOff  = "off" // never ask
)

// serverEditsAllowed reports whether the Anthropic upstream u may be asked for server-side
// edits under mode.
func serverEditsAllowed(mode string, u *url.URL) bool {
	switch mode {
	case ServerEditsOn:
		return true
	case ServerEditsOff:
		return false
	}
	return u.Hostname() == "api.anthropic.com"
}

// addBeta returns the anthropic-beta header value have with the values add appended,
// leaving out those already there.
func addBeta(have string, add []string) string {
	present := map[string]bool{}
	for _, v := range strings.Split(have, ",") {
		present[strings.TrimSpace(v)] = true
	}
	out := have
	for _, v := range add {
		if present[v] {
			continue
		}
		present[v] = true
		if out != "" {
			out += ","
		}
		out += v
	}
	return out
}

// maxRefusalBytes bounds how much of a 400 answer is read to tell whether the upstream
// refused a server-side edit; an error body is a few hundred bytes.
const maxRefusalBytes = 64 << 10

// refusesEdits reports whether a 400 body says the upstream does not accept what a
// server-side edit added: the context_management field or the beta that enables it
// (Bedrock: "extraneous key [context_management] is not permitted"; a gateway: "Unknown
// parameter: context_management"; the API without the beta: "context_management: Extra
// inputs are not permitted").
func refusesEdits(body []byte) bool {
	b := bytes.ToLower(body)
	for _, s := range []string{"context_management", "context-management", "clear_tool_uses", "anthropic-beta"} {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// An editFallback sends a request that carries a server-side edit, and when the upstream
// refuses it (a 400 that names the edit), sends the client's request as it came instead,
// once, and remembers that this upstream refuses them. The refusal never reaches the
// client.
type editFallback struct {
	next     http.RoundTripper
	up       *upstream
	original []byte // the client's body
	beta     string // the client's anthropic-beta header, "" when it sent none
	ex       *exchange
}

func (f *editFallback) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := f.next.RoundTrip(r)
	if err != nil || res.StatusCode != http.StatusBadRequest {
		return res, err
	}
	head, err := io.ReadAll(io.LimitReader(res.Body, maxRefusalBytes))
	if err != nil || !refusesEdits(head) {
		res.Body = readCloser{io.MultiReader(bytes.NewReader(head), res.Body), res.Body}
		return res, nil
	}
	res.Body.Close()
	f.up.refusesEdits.Store(true)
	f.ex.note(fmt.Sprintf("the upstream refused the server-side edit (%s); sent the client's request as it came, and will not ask this upstream again", firstLine(head, 200)))
	f.ex.fwdBytes, f.ex.editsRefused = int64(len(f.original)), true
	retry := r.Clone(r.Context())
	if f.beta == "" {
		retry.Header.Del("Anthropic-Beta")
	} else {
		retry.Header.Set("Anthropic-Beta", f.beta)
	}
	(&outBody{data: f.original, length: int64(len(f.original))}).install(retry)
	return f.next.RoundTrip(retry)
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// firstLine returns the first line of b, cut to n bytes.
func firstLine(b []byte, n int) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}
