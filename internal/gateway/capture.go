package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const methodListTools = "tools/list"

// The SDK decodes a tool's input and output schemas into map[string]any, which sorts their
// keys and rounds their numbers when they are encoded again. To re-export schemas exactly as
// the upstream wrote them, the gateway keeps the raw result of every tools/list response it
// receives, by watching the connection (stdio) or the HTTP bodies (streamable HTTP), and
// takes the schemas from there.

// A listCapture collects the raw results of tools/list responses, in the order received.
type listCapture struct {
	mu      sync.Mutex
	results []json.RawMessage
}

func (c *listCapture) add(raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.results = append(c.results, bytes.Clone(raw))
}

// take returns the results collected since the last take.
func (c *listCapture) take() []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.results
	c.results = nil
	return r
}

// rawSchemas are a tool's schemas as the upstream wrote them.
type rawSchemas struct {
	in, out json.RawMessage
}

// parseSchemas adds the schemas of the tools in a raw tools/list result to into.
func parseSchemas(raw json.RawMessage, into map[string]rawSchemas) {
	var res struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return // the SDK reports the malformed result itself
	}
	for _, t := range res.Tools {
		into[t.Name] = rawSchemas{in: t.InputSchema, out: t.OutputSchema}
	}
}

// captureTransport wraps a transport whose connection is a plain JSON-RPC stream (stdio);
// it must not wrap the streamable HTTP transport, whose connection the SDK type-asserts.
type captureTransport struct {
	mcp.Transport
	capture *listCapture
}

func (t *captureTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &captureConn{Connection: conn, capture: t.capture, pending: make(map[jsonrpc.ID]bool)}, nil
}

type captureConn struct {
	mcp.Connection
	capture *listCapture

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // ids of tools/list requests awaiting their response
}

func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == methodListTools && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = true // before writing: the response may come back first
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		wanted := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if wanted && resp.Error == nil && len(resp.Result) > 0 {
			c.capture.add(resp.Result)
		}
	}
	return msg, err
}

// teeListResponse wraps the body of the HTTP response to a tools/list request so that the
// result is captured as the SDK reads it, before the SDK hands it to the caller.
func teeListResponse(resp *http.Response, id jsonrpc.ID, capture *listCapture) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &listTee{ReadCloser: resp.Body, sse: ct == "text/event-stream", id: id, capture: capture}
}

// maxTee bounds the bytes a listTee buffers: a tools/list result larger than this keeps the
// SDK's decoding of its schemas.
const maxTee = 64 << 20

// A listTee passes a response body through while looking for the tools/list result in it:
// the whole body when it is JSON, each event's data when it is a server-sent event stream.
type listTee struct {
	io.ReadCloser
	sse     bool
	id      jsonrpc.ID
	capture *listCapture
	buf     []byte
	done    bool
}

func (t *listTee) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if t.done {
		return n, err
	}
	t.buf = append(t.buf, p[:n]...)
	switch {
	case len(t.buf) > maxTee:
		t.done, t.buf = true, nil
	case t.sse:
		t.scanEvents()
	case err == io.EOF:
		t.found(t.buf)
		t.done, t.buf = true, nil
	}
	return n, err
}

// scanEvents consumes the complete events at the start of buf.
func (t *listTee) scanEvents() {
	for !t.done {
		end, next := eventEnd(t.buf)
		if end < 0 {
			return
		}
		event := t.buf[:end]
		t.buf = t.buf[next:]
		var data []byte
		for _, line := range bytes.Split(event, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				if len(data) > 0 {
					data = append(data, '\n')
				}
				data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
			}
		}
		t.found(data)
	}
}

// eventEnd returns where the first event in b ends and where the next one starts, or -1.
func eventEnd(b []byte) (end, next int) {
	lf := bytes.Index(b, []byte("\n\n"))
	crlf := bytes.Index(b, []byte("\r\n\r\n"))
	switch {
	case lf < 0 && crlf < 0:
		return -1, -1
	case crlf >= 0 && (lf < 0 || crlf < lf):
		return crlf, crlf + 4
	default:
		return lf, lf + 2
	}
}

// found checks whether data is the awaited response and captures its result.
func (t *listTee) found(data []byte) {
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID == t.id {
		if resp.Error == nil && len(resp.Result) > 0 {
			t.capture.add(resp.Result)
		}
		t.done, t.buf = true, nil
	}
}
