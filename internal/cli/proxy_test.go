package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// A runningProxy is `winnow proxy` running in process.
type runningProxy struct {
	base   string      // the URL it printed on start
	lines  chan string // its stderr, line by line
	exit   chan int
	cancel context.CancelFunc
}

// startProxy runs `winnow proxy args…` and waits for the line saying where it listens.
func startProxy(t *testing.T, args ...string) *runningProxy {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	p := &runningProxy{lines: make(chan string, 100), exit: make(chan int, 1), cancel: cancel}
	go func() {
		p.exit <- Main(ctx, append([]string{"proxy"}, args...), strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		for range p.lines { // drain, so the proxy never blocks writing its log
		}
	})
	select {
	case line := <-p.lines:
		_, rest, ok := strings.Cut(line, "listening on ")
		if !ok {
			t.Fatalf("first line %q, want the listen URL", line)
		}
		p.base, _, _ = strings.Cut(rest, " ")
	case c := <-p.exit:
		t.Fatalf("winnow proxy exited with %d before listening", c)
	case <-time.After(10 * time.Second):
		t.Fatal("winnow proxy did not start")
	}
	return p
}

// stop interrupts the proxy and returns its exit code and the rest of its stderr.
func (p *runningProxy) stop(t *testing.T) (int, string) {
	t.Helper()
	p.cancel()
	var rest strings.Builder
	for line := range p.lines {
		rest.WriteString(line + "\n")
	}
	select {
	case c := <-p.exit:
		return c, rest.String()
	case <-time.After(10 * time.Second):
		t.Fatal("winnow proxy did not stop")
		return 0, ""
	}
}

func TestProxyCommand(t *testing.T) {
	api, err := fakeapi.Start(&fakeapi.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	evil, err := fakeapi.Start(&fakeapi.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer evil.Close()
	// The user file names the upstream and a listen address the flag overrides; a
	// repository file in the working directory must not redirect the upstream.
	userConfig := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(userConfig, []byte("[proxy]\nanthropic_upstream = \""+api.URL+"\"\nlisten = \"127.0.0.1:1\"\n"), 0o644)
	t.Setenv("WINNOW_CONFIG", userConfig)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".winnow.toml"), []byte("[proxy]\nanthropic_upstream = \""+evil.URL+"\"\n"), 0o644)
	t.Chdir(dir)

	p := startProxy(t, "--listen", "127.0.0.1:0", "--log-format", "json")
	for _, want := range []string{"export ANTHROPIC_BASE_URL=" + p.base, "export OPENAI_BASE_URL=" + p.base + "/v1"} {
		if got := <-p.lines; strings.TrimSpace(got) != want {
			t.Errorf("start line %q, want %q", got, want)
		}
	}
	client := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}

	res, err := client.Get(p.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health struct {
		OK        bool
		Upstreams map[string]string
	}
	json.NewDecoder(res.Body).Decode(&health)
	res.Body.Close()
	if !health.OK || health.Upstreams["anthropic"] != api.URL || health.Upstreams["openai"] != "https://api.openai.com" {
		t.Errorf("healthz %+v", health)
	}

	req, _ := http.NewRequest(http.MethodPost, p.base+"/v1/messages", strings.NewReader(`{"model":"m","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", "sk-ant-cli-SECRET")
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || len(api.Requests()) != 1 || len(evil.Requests()) != 0 {
		t.Errorf("status %d; the configured upstream got %d requests, the repository's %d", res.StatusCode, len(api.Requests()), len(evil.Requests()))
	}
	var logLine map[string]any
	if err := json.Unmarshal([]byte(<-p.lines), &logLine); err != nil || logLine["msg"] != "proxy" || logLine["status"] != 200.0 {
		t.Errorf("request log line %v, %v", logLine, err)
	}

	client.CloseIdleConnections()
	code, rest := p.stop(t)
	if code != 0 {
		t.Errorf("exit %d after interrupt; stderr:\n%s", code, rest)
	}
	if !strings.Contains(rest, "shutting down") || strings.Contains(rest, "SECRET") {
		t.Errorf("stderr after the start lines:\n%s", rest)
	}
}

func TestProxyCommandUsageErrors(t *testing.T) {
	userConfig := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(userConfig, nil, 0o644)
	t.Setenv("WINNOW_CONFIG", userConfig)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--listen", ":8787"}, "accepts connections on every network interface"},
		{[]string{"--listen", "0.0.0.0:8787"}, "pass --allow-remote"},
		{[]string{"--listen", "192.0.2.1:8787"}, "is not a loopback address"},
		{[]string{"--listen", "8787"}, `proxy.listen = "8787": must be host:port`},
		{[]string{"--openai-upstream", "ftp://example.com"}, `proxy.openai_upstream = "ftp://example.com": must use http or https`},
		{[]string{"--anthropic-upstream", "https://api.anthropic.com/v1"}, "must not end in /v1"},
		{[]string{"--max-body-bytes", "0"}, "proxy.max_body_bytes = 0"},
		{[]string{"--log-format", "xml"}, `--log-format "xml": must be text or json`},
		{[]string{"--shutdown-timeout", "0s"}, "--shutdown-timeout 0s: must be positive"},
		{[]string{"--body-idle-timeout", "0s"}, `proxy.body_idle_timeout = "0s": must be a positive duration up to 1h0m0s`},
		{[]string{"--body-timeout", "25h"}, `proxy.body_timeout = "25h0m0s": must be a positive duration up to 24h0m0s`},
		{[]string{"extra"}, "accepts 0 arg(s)"},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, append([]string{"proxy"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("winnow proxy %v: exit %d, stderr %q; want %d and %q", tt.args, code, errOut, exitUsage, tt.want)
		}
	}
}

// TestProxyCommandSlowBodyAndVerbose: the body timeouts come from the [proxy] table and
// the flags, and a client that stalls mid-body is answered 408 after the idle timeout;
// with -v, headers are logged, a credential in a header of any name as [REDACTED].
func TestProxyCommandSlowBodyAndVerbose(t *testing.T) {
	api, err := fakeapi.Start(&fakeapi.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	userConfig := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(userConfig, []byte("[proxy]\nanthropic_upstream = \""+api.URL+"\"\nbody_timeout = \"1m\"\nbody_idle_timeout = \"1m\"\n"), 0o644)
	t.Setenv("WINNOW_CONFIG", userConfig)
	p := startProxy(t, "-v", "--listen", "127.0.0.1:0", "--log-format", "json", "--body-idle-timeout", "200ms")

	c, err := net.Dial("tcp", strings.TrimPrefix(p.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"X-Api-Key: sk-ant-cli-SECRET\r\nX-Custom-Credential: sk-custom-SECRET\r\nAnthropic-Version: 2023-06-01\r\n"+
		"Content-Length: 100\r\n\r\n{\"model\":")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "no byte for 200ms") {
		t.Errorf("a stalled body: %d %s; want a 408 after the flag's 200ms", res.StatusCode, body)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("the upstream received %d requests", n)
	}
	code, rest := p.stop(t)
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{`"X-Custom-Credential":"[REDACTED]"`, `"X-Api-Key":"[REDACTED]"`, `"Anthropic-Version":"2023-06-01"`, `"status":408`} {
		if !strings.Contains(rest, want) {
			t.Errorf("stderr has no %s:\n%s", want, rest)
		}
	}
	if strings.Contains(rest, "SECRET") {
		t.Errorf("a credential reached stderr:\n%s", rest)
	}
}
