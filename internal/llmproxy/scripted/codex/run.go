package codex

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultModel is the model Codex is configured with. The fake does not care; Codex
// sends it as it is.
const DefaultModel = "gpt-5.5-codex"

// Prompt is the task Codex is given. The script, not the prompt, decides what happens.
const Prompt = "Read the source files of this workspace one at a time with cat, and keep notes under notes/ as you go. Then say you are done."

// Options configure Run.
type Options struct {
	// Codex is the codex executable (node_modules/.bin/codex of @openai/codex).
	Codex string
	// Dir is a scratch directory: Run makes home/ (HOME, with CODEX_HOME at home/.codex)
	// and work/ (the workspace) in it.
	Dir string
	// Steps, PatchEvery and CacheRead configure the scripted API (see ServerOptions).
	Steps      int
	PatchEvery int
	CacheRead  float64
	// Route, when set, returns the base URL Codex is pointed at given the scripted API's
	// base URL: a proxy in front of it. nil points Codex at the API itself.
	Route func(ctx context.Context, apiURL string) (string, error)
	// Record keeps every request the API received, for Result.Requests.
	Record bool
	// Logger receives the API's lines; nil discards.
	Logger *slog.Logger
}

// A Result is one Codex session against the scripted API.
type Result struct {
	Report   Report     // what the API saw and billed
	Codex    Session    // what Codex printed
	Requests []Received // when recording
}

// Completed reports whether the session ran to its end: every step and the final answer
// issued, no request refused, and Codex done with the final answer.
func (r Result) Completed() bool {
	return r.Report.Finished && len(r.Report.Invalid) == 0 && r.Codex.Completed()
}

// A Session is what `codex exec --json` reported.
type Session struct {
	ExitCode      int
	TurnCompleted bool
	Final         string // the last agent message
	Errors        []string
	Usage         struct {
		Input  int `json:"input_tokens"`
		Cached int `json:"cached_input_tokens"`
		Output int `json:"output_tokens"`
	}
	Stderr   string // its last 4 KB
	Duration time.Duration
}

// Completed reports whether Codex exited 0 after its turn, with the script's final
// answer as its last message.
func (s Session) Completed() bool {
	return s.ExitCode == 0 && s.TurnCompleted && s.Final == FinalText
}

// Run writes a workspace, starts the scripted API (behind Route, if set), runs
// `codex exec` against it to the end of the script, and returns what both saw.
func Run(ctx context.Context, opts Options) (Result, error) {
	if opts.Codex == "" || opts.Dir == "" {
		return Result{}, errors.New("codex run: Codex and Dir are required")
	}
	home, work := filepath.Join(opts.Dir, "home"), filepath.Join(opts.Dir, "work")
	api, err := StartServer(&ServerOptions{Steps: opts.Steps, PatchEvery: opts.PatchEvery, CacheRead: opts.CacheRead, Record: opts.Record, Logger: opts.Logger})
	if err != nil {
		return Result{}, err
	}
	defer api.Close()
	if err := WriteWorkspace(work, api.opts.Steps); err != nil {
		return Result{}, err
	}
	base := api.URL
	if opts.Route != nil {
		if base, err = opts.Route(ctx, api.URL); err != nil {
			return Result{}, fmt.Errorf("codex run: route: %w", err)
		}
	}
	sess, err := Exec(ctx, opts.Codex, base, work, home)
	res := Result{Report: api.Report(), Codex: sess}
	if opts.Record {
		res.Requests = api.Requests()
	}
	return res, err
}

// Config returns a config.toml that aims Codex at baseURL (ending in /v1) through a
// provider of its own: OPENAI_BASE_URL alone is ignored, and only the responses wire
// API is accepted. Compaction by Codex itself is pushed out of reach so the session is
// one growing conversation.
func Config(model, baseURL string) string {
	return fmt.Sprintf(`model = %q
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
model_context_window = 1000000
model_auto_compact_token_limit = 900000

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`, model, baseURL)
}

// Exec runs one `codex exec --json` session of the script's prompt in workspace, with
// HOME at home and CODEX_HOME at home/.codex, where it writes Config for baseURL (the
// scripted API's base URL, or a proxy's in front of it; without /v1).
func Exec(ctx context.Context, codex, baseURL, workspace, home string) (Session, error) {
	return ExecConfig(ctx, codex, workspace, home, Config(DefaultModel, baseURL+"/v1"), Prompt)
}

// ExecConfig is Exec with the config.toml and the prompt given: Config's, plus an
// [mcp_servers.<name>] table for one.
func ExecConfig(ctx context.Context, codex, workspace, home, config, prompt string) (Session, error) {
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		return Session{}, fmt.Errorf("codex exec: %w", err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		return Session{}, fmt.Errorf("codex exec: %w", err)
	}
	cmd := exec.CommandContext(ctx, codex, "exec", "--skip-git-repo-check", "--json",
		"--dangerously-bypass-approvals-and-sandbox", "-C", workspace, prompt)
	cmd.Dir = workspace
	cmd.Env = []string{"HOME=" + home, "CODEX_HOME=" + codexHome, "FAKE_API_KEY=test-key",
		"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TMPDIR=" + os.TempDir()}
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	s := Session{Duration: time.Since(start), Stderr: tail(stderr.String(), 4<<10)}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		s.ExitCode = exit.ExitCode()
	case err != nil:
		return s, fmt.Errorf("codex exec: %w", err)
	}
	readEvents(&s, stdout.Bytes())
	return s, nil
}

// readEvents reads the JSONL events of `codex exec --json`.
func readEvents(s *Session, out []byte) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
			Usage   json.RawMessage `json:"usage"`
			Message string          `json:"message"`
			Error   struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "item.completed":
			if ev.Item.Type == "agent_message" {
				s.Final = ev.Item.Text
			}
		case "turn.completed":
			s.TurnCompleted = true
			json.Unmarshal(ev.Usage, &s.Usage)
		case "turn.failed":
			s.Errors = append(s.Errors, "turn failed: "+ev.Error.Message)
		case "error":
			s.Errors = append(s.Errors, ev.Message)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// Summary is one line about a result: the API's bill and how the session ended.
func (r Result) Summary() string {
	b := r.Report.Billed
	return fmt.Sprintf("requests %d, steps %d, input %d tokens (%d cached, %.1f%%), cost %.0f, invalid %d, codex exit %d, final %q",
		r.Report.Requests, r.Report.Steps, b.Input, b.CacheRead, 100*b.HitRatio(), b.Cost, len(r.Report.Invalid),
		r.Codex.ExitCode, strings.TrimSpace(r.Codex.Final))
}
