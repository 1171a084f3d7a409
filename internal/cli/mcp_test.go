package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv marks a run of the test binary as winnow itself: TestMain
// then runs the command line in os.Args instead of the tests, so that
// the tests drive a real winnow process over real pipes and sockets.
const childEnv = "WINNOW_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// winnow returns a command running winnow with args in a child process.
func winnow(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	return cmd
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// stdioSession starts `winnow mcp` over stdio and connects a client.
func stdioSession(t *testing.T, args ...string) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	cmd := winnow(append([]string{"mcp"}, args...)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to winnow mcp: %v; stderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}

// callText calls a tool and returns its text and whether it is a tool
// error; a protocol error fails the test.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError
}

// toolChecks are calls of every tool against repo(t) and what each
// answer must hold.
var toolChecks = []struct {
	tool string
	args map[string]any
	want []string
}{
	{"context", map[string]any{"task": "make_square builds the wrong Shape", "budget": 600},
		[]string{`<context task="make_square builds the wrong Shape"`, `name="make_square" loc="shapes.py:11-13"`}},
	{"find_symbol", map[string]any{"name": "Store.Get", "body": true},
		[]string{"method store.Store.Get  store/store.go:7  (exact match)", "doc: Get returns an item.", "func (s *Store) Get() int { return 42 }"}},
	{"outline", map[string]any{"path": "shapes.py"},
		[]string{"Outline of shapes.py: 3 definitions", "    4  class Shape\n", "    7    def area(self)\n", "   11  def make_square(side)\n", "doc: Build a square."}},
	{"references", map[string]any{"name": "Shape"},
		[]string{`Uses of "Shape"`, "shapes.py\n   13  call   in make_square  ×1"}},
}

func TestMCPStdio(t *testing.T) {
	dir := repo(t)
	cs, stderr := stdioSession(t, "--repo", dir)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"context", "drilldown", "find_symbol", "outline", "references", "telescope"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	for _, c := range toolChecks {
		text, isErr := callText(t, cs, c.tool, c.args)
		if isErr {
			t.Errorf("%s: tool error: %s", c.tool, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v lacks %q:\n%s", c.tool, c.args, w, text)
			}
		}
	}
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"outline", map[string]any{"path": "../"}, "is outside the repository"},
		{"outline", map[string]any{"path": "/etc/passwd"}, "is outside the repository"},
		{"find_symbol", json.RawMessage(`{"name": ["Shape"]}`), "Invalid arguments for find_symbol"},
		{"references", json.RawMessage(`{"limit": 3}`), `missing properties: ["name"]`},
	} {
		text, isErr := callText(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %s: error %v, %q; want an error saying %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool is not an error")
	}
	// The first use built the index and said so on stderr, not on stdout,
	// which carries nothing but the protocol (or the client would have
	// failed to read it).
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if !strings.Contains(stderr.String(), "indexed 2 files") {
		t.Errorf("stderr: %q", stderr)
	}
}

// TestMCPStdioConcurrentClients runs several winnow mcp processes on one
// repository, each answering calls concurrently; the first use of the
// index is shared between them.
func TestMCPStdioConcurrentClients(t *testing.T) {
	dir := repo(t)
	const clients = 3
	var wg sync.WaitGroup
	errs := make(chan string, clients*len(toolChecks)*2)
	for range clients {
		cs, _ := stdioSession(t, "--repo", dir, "--refresh", "1ms")
		for round := range 2 {
			for _, c := range toolChecks {
				wg.Go(func() {
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
					if err != nil {
						errs <- fmt.Sprintf("round %d %s: %v", round, c.tool, err)
						return
					}
					text := res.Content[0].(*mcp.TextContent).Text
					for _, w := range c.want {
						if res.IsError || !strings.Contains(text, w) {
							errs <- fmt.Sprintf("round %d %s: error %v, lacks %q: %s", round, c.tool, res.IsError, w, text)
						}
					}
				})
			}
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestMCPHTTP serves streamable HTTP from a real winnow process, calls it
// from several clients at once, and stops it with an interrupt.
func TestMCPHTTP(t *testing.T) {
	dir := repo(t)
	cmd := winnow("mcp", "--repo", dir, "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url, rest := readURL(t, stderr)
	var wg sync.WaitGroup
	for i := range 3 {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprint("client", i), Version: "1"}, nil).
			Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("connect to %s: %v", url, err)
		}
		defer cs.Close()
		for _, c := range toolChecks {
			wg.Go(func() {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil {
					t.Errorf("client %d %s: %v", i, c.tool, err)
					return
				}
				if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, c.want[0]) {
					t.Errorf("client %d %s: error %v, lacks %q: %s", i, c.tool, res.IsError, c.want[0], text)
				}
			})
		}
	}
	wg.Wait()

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	tail, _ := io.ReadAll(rest)
	if err := cmd.Wait(); err != nil {
		t.Errorf("winnow mcp --http after an interrupt: %v; stderr: %s", err, tail)
	}
	if stdout.Len() > 0 {
		t.Errorf("winnow mcp --http wrote to stdout: %q", stdout.String())
	}
}

// readURL reads stderr until winnow says where it serves, and returns the
// URL and the reader for the rest.
func readURL(t *testing.T, stderr io.Reader) (string, io.Reader) {
	t.Helper()
	r := bufio.NewReader(stderr)
	lines := make(chan string)
	go func() {
		defer close(lines)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if _, url, ok := strings.Cut(line, " over streamable HTTP at "); ok {
				lines <- strings.TrimSpace(url)
				return
			}
		}
	}()
	select {
	case url, ok := <-lines:
		if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
			t.Fatalf("winnow mcp --http did not print its URL (got %q)", url)
		}
		return url, r
	case <-time.After(time.Minute):
		t.Fatal("winnow mcp --http printed no URL within a minute")
	}
	return "", nil
}

func TestMCPRefusesBadFlags(t *testing.T) {
	dir := repo(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", ":8080"}, "listens on every network interface"},
		{[]string{"--http", "0.0.0.0:8080"}, "listens on every network interface"},
		{[]string{"--http", "[::]:8080"}, "--allow-remote"},
		{[]string{"--http", "10.1.2.3:8080"}, `host "10.1.2.3" is not a loopback address`},
		{[]string{"--http", "8080"}, "want host:port"},
		{[]string{"--max-output-tokens", "10"}, "--max-output-tokens 10: must be at least 256"},
		{[]string{"--refresh", "0s"}, "--refresh 0s: must be positive"},
		{[]string{"extra"}, "accepts 0 arg(s), received 1"},
	} {
		code, out, errOut := run(t, append([]string{"mcp", "--repo", dir}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("mcp %v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".winnow")); err == nil {
		t.Error("a refused command built the index")
	}
}
