package gateway

import (
	"bytes"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxSniffBody bounds the request bodies upstreamRoundTripper reads to find tools/list
// requests; a larger body is a tools/call with large arguments, never a tools/list.
const maxSniffBody = 64 << 10

// upstreamRoundTripper sends an upstream's configured headers (its bearer token among them)
// with every request, and captures the raw results of tools/list responses.
type upstreamRoundTripper struct {
	base    http.RoundTripper
	headers http.Header
	capture *listCapture
}

func (t *upstreamRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	for k, vs := range t.headers {
		out.Header[k] = append([]string(nil), vs...)
	}
	id, isList := t.listRequest(out)
	resp, err := t.base.RoundTrip(out)
	if err != nil || !isList || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	teeListResponse(resp, id, t.capture)
	return resp, nil
}

// listRequest reports whether req is a POST of a tools/list request, and its id; it leaves
// req's body readable from the start.
func (t *upstreamRoundTripper) listRequest(req *http.Request) (jsonrpc.ID, bool) {
	if req.Method != http.MethodPost || req.Body == nil || req.ContentLength > maxSniffBody {
		return jsonrpc.ID{}, false
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxSniffBody+1))
	rest := req.Body
	req.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	if err != nil || len(body) > maxSniffBody {
		return jsonrpc.ID{}, false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return jsonrpc.ID{}, false
	}
	r, ok := msg.(*jsonrpc.Request)
	if !ok || r.Method != methodListTools || !r.IsCall() {
		return jsonrpc.ID{}, false
	}
	return r.ID, true
}
