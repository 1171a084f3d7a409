package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Checks of HTTP requests made before the SDK sees them.

// newProtocol is the first MCP protocol version whose requests need no session: each
// carries its version in the MCP-Protocol-Version header and in its _meta.
const newProtocol = "2026-07-28"

// maxPeek bounds the body guardHTTP reads to tell whether a sessionless request is an
// initialize; larger bodies are left to the SDK.
const maxPeek = 1 << 20

// guardHTTP refuses, before the SDK sees them:
//   - a request whose Origin is neither a loopback origin nor one of allowed ("*" allows
//     any), with 403: a web page the user visits must not reach a server on localhost
//     through DNS rebinding (the MCP transport spec requires servers to check Origin);
//   - a POST without a session that is not an initialize (nor a ping, nor a request of the
//     sessionless protocol), with 400 and a JSON-RPC error -32600 saying to initialize
//     first: the SDK would answer it with an error whose code is 0, which is no JSON-RPC
//     code.
func guardHTTP(h http.Handler, allowed []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, allowed) {
			http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed (winnow mcp --allow-origin adds one)", o), http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") < newProtocol {
			if id, ok := needsSession(r); ok {
				writeRPCError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
					"no session: send initialize first, then the Mcp-Session-Id header it returned with every request")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a request from origin may be served.
func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, "*") || slices.ContainsFunc(allowed, func(a string) bool { return strings.EqualFold(strings.TrimSuffix(a, "/"), origin) }) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// needsSession reports whether the body of r is a request of the session protocol other
// than initialize and ping, and its id; r's body stays readable from the start.
func needsSession(r *http.Request) (jsonrpc.ID, bool) {
	if r.Body == nil {
		return jsonrpc.ID{}, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	if err != nil || len(body) > maxPeek {
		return jsonrpc.ID{}, false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return jsonrpc.ID{}, false // a batch or not JSON-RPC: the SDK answers it
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() || req.Method == "initialize" || req.Method == "ping" {
		return jsonrpc.ID{}, false
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(req.Params, &p)
	if _, sessionless := p.Meta["io.modelcontextprotocol/protocolVersion"]; sessionless {
		return jsonrpc.ID{}, false
	}
	return req.ID, true
}

// writeRPCError answers with a JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}
