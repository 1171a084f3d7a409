package mcpserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/store"
	"github.com/winnowhq/winnow/internal/telescope"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestHTTPRefusesForeignOrigins(t *testing.T) {
	s := newServer(t, fixture(t), &Options{AllowedOrigins: []string{"https://inspector.example"}})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"http://evil.example", http.StatusForbidden},
		{"http://localhost.evil.example:8765", http.StatusForbidden},
		{"http://localhost:6274", http.StatusOK},
		{"http://127.0.0.1:8765", http.StatusOK},
		{"http://[::1]:8765", http.StatusOK},
		{"https://inspector.example", http.StatusOK},
		{"", http.StatusOK},
	} {
		resp, body := post(t, ts.URL, initializeBody, map[string]string{"Origin": tc.origin})
		if resp.StatusCode != tc.want {
			t.Errorf("Origin %q: status %d, want %d: %s", tc.origin, resp.StatusCode, tc.want, body)
		}
	}
}

func TestHTTPRequestWithoutSessionGetsAJSONRPCError(t *testing.T) {
	s := newServer(t, fixture(t), nil)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, body := post(t, ts.URL, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, nil)
	var got struct {
		ID    int `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("status %d, body %q is not a JSON-RPC response: %v", resp.StatusCode, body, err)
	}
	if resp.StatusCode != http.StatusBadRequest || got.ID != 7 || got.Error.Code != -32600 || !strings.Contains(got.Error.Message, "initialize") {
		t.Errorf("status %d, response %+v; want 400 and error -32600 for id 7 saying to initialize", resp.StatusCode, got)
	}
}

func TestStdioMalformedLineIsAnsweredAndServingGoesOn(t *testing.T) {
	s := newServer(t, fixture(t), nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Run(t.Context(), StdioTransport(inR, outW)) }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s: %v", line, lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %s: %v", lines.Bytes(), err)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	if m := send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"`); code(m) != -32700 {
		t.Errorf("truncated JSON: %v, want error -32700", m)
	}
	if m := send(`{"hello":"world"}`); code(m) != -32600 {
		t.Errorf("JSON that is no JSON-RPC: %v, want error -32600", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code(m) != -32600 {
		t.Errorf("a request before initialize: %v, want error -32600 (not 0)", m)
	}
	if m := send(initializeBody); m["result"] == nil {
		t.Errorf("initialize after malformed lines: %v", m)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestToolErrorsDoNotEchoHugeArguments(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	huge := strings.Repeat("x", 5<<20)
	for _, tc := range []struct{ tool, arg string }{
		{toolFindSymbol, "name"}, {toolReferences, "name"}, {toolOutline, "path"},
	} {
		text, isErr := call(t, cs, tc.tool, map[string]any{tc.arg: huge})
		if !isErr || len(text) > 1000 || !strings.Contains(text, "more bytes]") {
			t.Errorf("%s with a 5 MB %s: error %v, %d bytes back: %.300s", tc.tool, tc.arg, isErr, len(text), text)
		}
	}
}

func TestNullArgumentIsAClearError(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), nil))
	text, isErr := call(t, cs, toolFindSymbol, `{"name": null}`)
	if !isErr || strings.Contains(text, "invalid reflect.Value") || !strings.Contains(text, `"name" is null`) {
		t.Errorf("find_symbol with a null name: error %v: %s", isErr, text)
	}
}

func TestDrilldownListsGoMethodsAsParts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "store", "store.go"), `package store

// Store keeps items.
type Store struct{ items map[string]int }

// Get returns an item.
func (s *Store) Get(k string) int { return s.items[k] }

// Put stores an item.
func (s *Store) Put(k string, v int) { s.items[k] = v }

// New returns an empty Store.
func New() *Store { return &Store{items: map[string]int{}} }
`)
	ix := openIndex(t, dir)
	st, err := store.Open(t.Context(), "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "s.db")), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := telescope.New(&telescope.Options{Root: ix.Root(), Store: st, Symbols: telescope.IndexSymbols{Index: ix}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ix, &Options{Telescope: e})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	text, _ := call(t, cs, toolTelescope, map[string]any{"path": "store/store.go"})
	group := idOf.FindStringSubmatch(text)
	if group == nil {
		t.Fatalf("no id in the telescope of store.go:\n%s", text)
	}
	text, _ = call(t, cs, toolDrilldown, map[string]any{"id": group[1]})
	m := regexp.MustCompile(`([0-9a-f]{12}) store/store\.go \(L1\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no id in the telescope of store.go:\n%s", text)
	}
	text, isErr := call(t, cs, toolDrilldown, map[string]any{"id": m[1]})
	if isErr {
		t.Fatal(text)
	}
	parts, _, _ := strings.Cut(text, "\n\n")
	mustContain(t, "the parts of store.go", parts, "parts:", "L7-7 func (s *Store) Get(k string) int", "L10-10 func (s *Store) Put(k string, v int)", "L13-13 func New() *Store")
}
