package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxStdioLine bounds one message read on stdio.
const maxStdioLine = 256 << 20

// StdioTransport is MCP over newline-delimited JSON on r and w, like
// mcp.IOTransport, except that a line that is not JSON-RPC does not end
// the session: it is answered with a JSON-RPC error (-32700 for text
// that is not JSON, -32600 for JSON that is not a JSON-RPC message) and
// the server goes on reading. An error the SDK sends without a JSON-RPC
// code (code 0: a request before initialize) gets -32600. Closing the
// connection leaves w open.
func StdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	return &stdioTransport{r: r, w: w}
}

type stdioTransport struct {
	r io.Reader
	w io.Writer
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	out := &lineWriter{w: t.w}
	pr, pw := io.Pipe()
	go filterLines(t.r, pw, out)
	return (&mcp.IOTransport{Reader: pr, Writer: out, MaxLineLength: -1}).Connect(ctx)
}

// filterLines copies the lines of r that are JSON-RPC messages (or batches) to pw, and
// answers the others on out, until r ends.
func filterLines(r io.Reader, pw *io.PipeWriter, out *lineWriter) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxStdioLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if code, msg := checkLine(line); code != 0 {
			out.reply(code, msg)
			continue
		}
		if _, err := pw.Write(append(line, '\n')); err != nil {
			return
		}
	}
	err := sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		out.reply(jsonrpc.CodeParseError, "message longer than the 256 MiB limit; the session ends")
	}
	pw.CloseWithError(err)
}

// checkLine returns the JSON-RPC error code and message for a line that is not a message,
// or 0.
func checkLine(line []byte) (int64, string) {
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, "parse error: the line is not JSON"
	}
	if line[0] == '[' {
		return 0, "" // a batch: the SDK checks its messages
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return 0, ""
}

// A lineWriter writes whole lines to w, one at a time, so that the SDK's messages and the
// filter's error replies never interleave.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := fixCode(l.buf[:i+1])
		if _, err := l.w.Write(line); err != nil {
			return 0, err
		}
		l.buf = l.buf[i+1:]
	}
}

func (l *lineWriter) Close() error { return nil }

// reply writes an error response with a null id.
func (l *lineWriter) reply(code int64, msg string) {
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg},
	})
	if err != nil {
		return
	}
	l.Write(append(data, '\n'))
}

// fixCode gives an error response without a JSON-RPC code (the SDK's for a request before
// initialize) the code -32600; other lines are returned as they are.
func fixCode(line []byte) []byte {
	if !bytes.Contains(line, []byte(`"code":0`)) {
		return line
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok {
		return line
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(resp.Error, &rpcErr) || rpcErr.Code != 0 {
		return line
	}
	rpcErr.Code = jsonrpc.CodeInvalidRequest
	if !strings.Contains(rpcErr.Message, "initializ") {
		rpcErr.Code = jsonrpc.CodeInternalError
	}
	data, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		return line
	}
	return append(data, '\n')
}
