package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultModel is the model a Session asks for: what Claude Code 2.1.328 uses by default.
const DefaultModel = "claude-opus-5-5"

// DefaultPrompt is the task a Session gives Claude Code; the script, not the prompt,
// decides what happens.
const DefaultPrompt = "Read the modules under src/ one by one and tell me how their handlers report errors."

// A Session is one headless run of the real Claude Code CLI (claude -p) against a base URL:
// a scripted API, or a proxy in front of one.
type Session struct {
	Bin       string // the claude executable (node_modules/.bin/claude)
	BaseURL   string // ANTHROPIC_BASE_URL
	Workspace string // the working directory (see WriteWorkspace)
	// Home is HOME for the run: an empty directory, so that no user configuration,
	// credentials or session history leak in. Claude Code writes its session files there.
	Home   string
	Prompt string // DefaultPrompt when empty
	Model  string // DefaultModel when empty
	// MCPConfig, when set, is given to --mcp-config (a JSON file or string of
	// mcpServers), with --strict-mcp-config so that no other MCP server is loaded.
	MCPConfig string
	// AllowedTools are allowed without asking besides Read and Bash (MCP tools by their
	// mcp__<server>__<tool> names).
	AllowedTools []string
	// Env adds KEY=VALUE entries to the CLI's environment (ENABLE_TOOL_SEARCH=false, for
	// one, lists MCP tools directly instead of behind ToolSearch).
	Env []string
}

// A Result is what claude -p --output-format json printed.
type Result struct {
	Type      string  `json:"type"`    // "result"
	Subtype   string  `json:"subtype"` // "success" when the session completed
	IsError   bool    `json:"is_error"`
	Result    string  `json:"result"` // the final answer's text
	NumTurns  int     `json:"num_turns"`
	CostUSD   float64 `json:"total_cost_usd"` // Claude Code's own estimate from the usage the API reported
	SessionID string  `json:"session_id"`

	Duration time.Duration `json:"-"`
	Stdout   []byte        `json:"-"`
	Stderr   []byte        `json:"-"`
}

// Success reports whether the session completed without error.
func (r *Result) Success() bool { return r.Subtype == "success" && !r.IsError }

// Run runs s to its end and returns what Claude Code reported. It gives Claude Code the
// Read and Bash tools without asking (--allowedTools; --dangerously-skip-permissions is
// refused to root) and turns off its nonessential traffic and auto-updater. An error is
// returned when the CLI cannot be started or prints no JSON result; a session that ran but
// failed comes back as a Result whose Success is false.
func Run(ctx context.Context, s Session) (*Result, error) {
	if s.Prompt == "" {
		s.Prompt = DefaultPrompt
	}
	if s.Model == "" {
		s.Model = DefaultModel
	}
	args := []string{"-p", s.Prompt, "--output-format", "json", "--model", s.Model,
		"--allowedTools", strings.Join(append([]string{"Read", "Bash"}, s.AllowedTools...), ",")}
	if s.MCPConfig != "" {
		args = append(args, "--mcp-config", s.MCPConfig, "--strict-mcp-config")
	}
	cmd := exec.CommandContext(ctx, s.Bin, args...)
	cmd.Dir = s.Workspace
	cmd.Env = sessionEnv(s)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &Result{Duration: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	if jerr := json.Unmarshal(lastJSONLine(stdout.Bytes()), res); jerr != nil {
		return res, fmt.Errorf("claude -p: no JSON result (%w): %w; stderr: %s", jerr, errors.Join(err, ctx.Err()), tail(stderr.Bytes()))
	}
	return res, nil
}

// sessionEnv is the CLI's environment: PATH (node), a fresh HOME, the API's address and a
// placeholder key, nothing else of this process's.
func sessionEnv(s Session) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.Home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"ANTHROPIC_BASE_URL=" + s.BaseURL,
		"ANTHROPIC_API_KEY=test-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"TERM=dumb",
	}
	for _, k := range []string{"TMPDIR", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, s.Env...)
}

func lastJSONLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); len(l) > 0 && l[0] == '{' {
			return l
		}
	}
	return nil
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
