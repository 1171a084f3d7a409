package cli

import (
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/telemetry"
)

func (a *app) proxyCommand() *cobra.Command {
	var listen, anthropicUp, openaiUp, logFormat, serverEdits string
	var maxBody int64
	var allowRemote, noCompact bool
	var shutdownTimeout, bodyIdle, bodyTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "proxy",
		Short: "Run an HTTP proxy in front of the Anthropic and OpenAI APIs",
		Long: `Proxy listens on --listen (default 127.0.0.1:8787) and forwards requests to
the Anthropic API (/v1/messages and the rest of Anthropic's paths, Claude
Code's /api/ calls, any request with an anthropic-version header or from a
client whose User-Agent is Claude Code's or an Anthropic SDK's) or to the
OpenAI API or any
OpenAI-compatible server (/v1/chat/completions, /v1/responses and everything
else). Point an agent at it with ANTHROPIC_BASE_URL or OPENAI_BASE_URL.

Responses, server-sent event streams included, come back unbuffered, and the
upstream's errors come back as the upstream sent them. API keys in the
requests are forwarded as they are and never logged. Request bodies of
/v1/messages and /v1/chat/completions are compacted: stale tool results are
cleared in rare, large, sticky batches (every later request carries the same
bytes for them, so the provider's prompt cache keeps hitting), repeated results
become references, and thinking blocks and tool pairing stay as the API
requires. For a model that binds each thinking block to everything before it
(Claude Opus 5.5, Fable 5.1 and later), no old result can change inside a
tool loop without invalidating the loop's thinking, so the proxy asks the API
to clear the same results itself (a clear_tool_uses edit, with the
context-management beta; --server-edits). A body that cannot be decoded, an unknown API version, or a
compaction that would break one of the API's rules is forwarded exactly as
the client sent it (--no-compact forwards every body as sent).
Responses carry x-winnow-* headers saying what happened.

Upstreams and limits come from the [proxy] table of the user configuration
file (never from a repository's .winnow.toml), overridden by the flags. With
[telemetry] enabled = true in that file, each request it could rewrite is
recorded (model, client, token counts, what the upstream billed; no text) for
'winnow stats'. One log line per request goes to stderr; --verbose adds
the headers, values shown only for a known set of protocol headers
(content-type, user-agent, anthropic-version …) and every other value as
[REDACTED]. A request body that sends nothing for --body-idle-timeout
(default 30s), or is not whole --body-timeout (default 2m) after its headers,
is answered 408, and one the client cuts short 400; nothing of it is
forwarded whole, and responses are never timed. GET /healthz answers without
calling an upstream. On Ctrl-C the proxy stops accepting connections and lets
requests in flight finish, for up to --shutdown-timeout.`,
		Example: `  winnow proxy
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude
  OPENAI_BASE_URL=http://127.0.0.1:8787/v1 codex
  winnow proxy --listen 127.0.0.1:9000 --openai-upstream http://127.0.0.1:11434
  curl -s http://127.0.0.1:8787/healthz`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loadConfig("") // user file only: a repository must not pick where API keys go
			if err != nil {
				return err
			}
			fs := cmd.Flags()
			if fs.Changed("listen") {
				cfg.Proxy.Listen = listen
			}
			if fs.Changed("anthropic-upstream") {
				cfg.Proxy.AnthropicUpstream = anthropicUp
			}
			if fs.Changed("openai-upstream") {
				cfg.Proxy.OpenAIUpstream = openaiUp
			}
			if fs.Changed("max-body-bytes") {
				cfg.Proxy.MaxBodyBytes = maxBody
			}
			if fs.Changed("server-edits") {
				cfg.Proxy.ServerEdits = serverEdits
			}
			if fs.Changed("body-idle-timeout") {
				cfg.Proxy.BodyIdleTimeout = bodyIdle
			}
			if fs.Changed("body-timeout") {
				cfg.Proxy.BodyTimeout = bodyTimeout
			}
			if err := cfg.Validate(); err != nil {
				return usageError{err}
			}
			if shutdownTimeout <= 0 {
				return usageError{fmt.Errorf("--shutdown-timeout %s: must be positive", shutdownTimeout)}
			}
			if !allowRemote {
				if err := llmproxy.CheckLoopback(cfg.Proxy.Listen); err != nil {
					return usageError{fmt.Errorf("%w: other machines could send requests through it; listen on 127.0.0.1, or pass --allow-remote", err)}
				}
			}
			logger, err := a.proxyLogger(logFormat)
			if err != nil {
				return usageError{err}
			}
			rec, err := a.proxyTelemetry(cfg, logger)
			if err != nil {
				return err
			}
			var rw llmproxy.Rewriter = llmproxy.Passthrough{}
			if !noCompact {
				rw = llmproxy.Compaction(compact.New(compact.Options{}))
			}
			opts := &llmproxy.Options{
				Rewriter:          rw,
				AnthropicUpstream: cfg.Proxy.AnthropicUpstream,
				OpenAIUpstream:    cfg.Proxy.OpenAIUpstream,
				MaxBodyBytes:      cfg.Proxy.MaxBodyBytes,
				BodyIdleTimeout:   cfg.Proxy.BodyIdleTimeout,
				BodyTimeout:       cfg.Proxy.BodyTimeout,
				ShutdownTimeout:   shutdownTimeout,
				Logger:            logger,
				Version:           version(),
				ServerEdits:       cfg.Proxy.ServerEdits,
			}
			if rec != nil {
				opts.Telemetry = rec
				defer a.closeTelemetry(rec, logger)
			}
			p, err := llmproxy.New(opts)
			if err != nil {
				return err
			}
			ln, err := new(net.ListenConfig).Listen(cmd.Context(), "tcp", cfg.Proxy.Listen)
			if err != nil {
				return fmt.Errorf("proxy: %w", err)
			}
			base := llmproxy.ClientURL(ln.Addr())
			up := p.Upstreams()
			fmt.Fprintf(a.stderr, "winnow proxy: listening on %s (anthropic → %s, openai → %s)\n", base, up[llmproxy.DialectAnthropic], up[llmproxy.DialectOpenAI])
			fmt.Fprintf(a.stderr, "  export ANTHROPIC_BASE_URL=%s\n  export OPENAI_BASE_URL=%s/v1\n", base, base)
			if rec != nil {
				fmt.Fprintf(a.stderr, "  telemetry: %s ('winnow stats' reports it)\n", rec.Path())
			}
			return p.Serve(cmd.Context(), ln)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&listen, "listen", "", "host:port to listen on (default [proxy] listen, 127.0.0.1:8787)")
	fs.StringVar(&anthropicUp, "anthropic-upstream", "", "Anthropic API base URL (default [proxy] anthropic_upstream, https://api.anthropic.com)")
	fs.StringVar(&openaiUp, "openai-upstream", "", "OpenAI or OpenAI-compatible base URL, without /v1 (default [proxy] openai_upstream, https://api.openai.com)")
	fs.Int64Var(&maxBody, "max-body-bytes", 0, "largest request body to rewrite; larger ones stream through untouched (default [proxy] max_body_bytes, 32 MiB)")
	fs.DurationVar(&bodyIdle, "body-idle-timeout", 0, "answer 408 to a client whose request body sends nothing for this long (default [proxy] body_idle_timeout, 30s)")
	fs.DurationVar(&bodyTimeout, "body-timeout", 0, "answer 408 to a client whose whole request body has not arrived this long after its headers (default [proxy] body_timeout, 2m)")
	fs.BoolVar(&allowRemote, "allow-remote", false, "allow a listen address other machines can reach (all interfaces, a LAN address)")
	fs.DurationVar(&shutdownTimeout, "shutdown-timeout", llmproxy.DefaultShutdownTimeout, "how long requests in flight may run on after Ctrl-C")
	fs.StringVar(&logFormat, "log-format", "text", "request log format on stderr: text or json")
	fs.BoolVar(&noCompact, "no-compact", false, "forward every request as the client sent it (no history compaction)")
	fs.StringVar(&serverEdits, "server-edits", "", `when a request to a model that binds thinking to its prefix (Claude Opus 5.5, Fable 5.1 and later) may ask the Anthropic upstream to clear old tool results itself: auto (api.anthropic.com only), on, off (default [proxy] server_edits, auto)`)
	return cmd
}

// proxyTelemetry opens the telemetry file when the user configuration enables telemetry
// ([telemetry] enabled, the switch the gateway uses), and returns nil when it does not.
func (a *app) proxyTelemetry(cfg *config.Config, logger *slog.Logger) (*telemetry.Writer, error) {
	if !cfg.Telemetry.Enabled {
		return nil, nil
	}
	path, err := cfg.TelemetryPath()
	if err != nil {
		return nil, err
	}
	w, err := telemetry.Open(path, &telemetry.Options{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	return w, nil
}

// closeTelemetry writes the events still queued and closes the file.
func (a *app) closeTelemetry(w *telemetry.Writer, logger *slog.Logger) {
	if err := w.Close(); err != nil {
		logger.Warn("telemetry", "err", err)
	}
	if n := w.Dropped(); n > 0 {
		logger.Warn("telemetry: events dropped because the writer fell behind", "dropped", n)
	}
}

// proxyLogger logs to stderr: Info (one line per request), or Debug with --verbose.
func (a *app) proxyLogger(format string) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	if a.verbose {
		opts.Level = slog.LevelDebug
	}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(a.stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(a.stderr, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: must be text or json", format)
}
