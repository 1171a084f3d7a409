package config

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults of the [proxy] table.
const (
	DefaultProxyListen       = "127.0.0.1:8787"
	DefaultAnthropicUpstream = "https://api.anthropic.com"
	DefaultOpenAIUpstream    = "https://api.openai.com"
	DefaultProxyMaxBodyBytes = 32 << 20
	DefaultBodyIdleTimeout   = 30 * time.Second
	DefaultBodyTimeout       = 2 * time.Minute
)

const (
	maxProxyBodyBytes  = 1 << 30
	maxBodyIdleTimeout = time.Hour
	maxBodyTimeout     = 24 * time.Hour
)

// Proxy configures `winnow proxy`, the HTTP proxy in front of the Anthropic and OpenAI APIs.
//
// Only the user file should set the upstreams: the CLI does not read this table from a
// repository's .winnow.toml, since a cloned repository must not be able to send the user's
// API keys to a server of its choosing.
type Proxy struct {
	// Listen is the host:port the proxy listens on. The CLI refuses an address that is not
	// loopback unless told --allow-remote.
	Listen string `toml:"listen" json:"listen"`
	// AnthropicUpstream is the base URL /v1/messages and the other Anthropic paths go to.
	AnthropicUpstream string `toml:"anthropic_upstream" json:"anthropic_upstream"`
	// OpenAIUpstream is the base URL /v1/chat/completions, /v1/responses and every other
	// path go to: api.openai.com or any OpenAI-compatible server. Like AnthropicUpstream it
	// is joined with the client's path, which already starts with /v1.
	OpenAIUpstream string `toml:"openai_upstream" json:"openai_upstream"`
	// MaxBodyBytes is the largest request body the proxy reads into memory to rewrite; a
	// larger one is forwarded as it streams in, untouched.
	MaxBodyBytes int64 `toml:"max_body_bytes" json:"max_body_bytes"`
	// BodyIdleTimeout is how long the proxy waits for the next byte of a request body
	// before it answers 408 and forwards nothing. Written as "30s", "1m".
	BodyIdleTimeout time.Duration `toml:"body_idle_timeout" json:"body_idle_timeout"`
	// BodyTimeout is how long a whole request body may take to arrive, from the end of its
	// headers, however steadily it trickles; a body still incomplete then is answered 408.
	// It covers bodies streamed upstream as they arrive (above MaxBodyBytes) too: raise it
	// for large uploads over a slow link. Neither timeout bounds the response.
	BodyTimeout time.Duration `toml:"body_timeout" json:"body_timeout"`
	// ServerEdits says when requests to a model that binds thinking to its prefix may ask
	// the Anthropic upstream to clear old tool results itself (the context-management
	// beta), the only way to compact inside such a model's tool loop: "auto" (the
	// default) for api.anthropic.com only, "on" for any upstream (Bedrock and Vertex
	// accept it; a gateway may not, and the proxy stops asking one that refuses), "off"
	// never.
	ServerEdits string `toml:"server_edits" json:"server_edits"`
}

func defaultProxy() Proxy {
	return Proxy{
		Listen:            DefaultProxyListen,
		AnthropicUpstream: DefaultAnthropicUpstream,
		OpenAIUpstream:    DefaultOpenAIUpstream,
		MaxBodyBytes:      DefaultProxyMaxBodyBytes,
		BodyIdleTimeout:   DefaultBodyIdleTimeout,
		BodyTimeout:       DefaultBodyTimeout,
		ServerEdits:       "auto",
	}
}

// validate reports every invalid value of the [proxy] table, in the format of [Config.Validate].
func (p Proxy) validate() []error {
	var errs []error
	bad := func(key string, val any, msg string) {
		errs = append(errs, fmt.Errorf("proxy.%s = %s: %s", key, tomlValue(val), msg))
	}
	if msg := CheckListen(p.Listen); msg != "" {
		bad("listen", p.Listen, msg)
	}
	if msg := CheckUpstream(p.AnthropicUpstream); msg != "" {
		bad("anthropic_upstream", p.AnthropicUpstream, msg)
	}
	if msg := CheckUpstream(p.OpenAIUpstream); msg != "" {
		bad("openai_upstream", p.OpenAIUpstream, msg)
	}
	if p.MaxBodyBytes < 1 || p.MaxBodyBytes > maxProxyBodyBytes {
		bad("max_body_bytes", p.MaxBodyBytes, fmt.Sprintf("must be between 1 and %d", maxProxyBodyBytes))
	}
	if p.BodyIdleTimeout <= 0 || p.BodyIdleTimeout > maxBodyIdleTimeout {
		bad("body_idle_timeout", p.BodyIdleTimeout.String(), fmt.Sprintf("must be a positive duration up to %s, such as %q", maxBodyIdleTimeout, DefaultBodyIdleTimeout.String()))
	}
	if p.BodyTimeout <= 0 || p.BodyTimeout > maxBodyTimeout {
		bad("body_timeout", p.BodyTimeout.String(), fmt.Sprintf("must be a positive duration up to %s, such as %q", maxBodyTimeout, DefaultBodyTimeout.String()))
	}
	switch p.ServerEdits {
	case "auto", "on", "off":
	default:
		bad("server_edits", p.ServerEdits, `must be "auto", "on" or "off"`)
	}
	return errs
}

// CheckListen returns "" if addr is a host:port to listen on, else what is allowed. The host
// may be empty (all interfaces); whether that is acceptable is the caller's policy.
func CheckListen(addr string) string {
	const want = `must be host:port, such as "127.0.0.1:8787"`
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return want
	}
	if strings.ContainsAny(host, " /") {
		return want
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return want + " with a port between 0 and 65535"
	}
	return ""
}

// CheckUpstream returns "" if raw is a usable upstream base URL, else what is allowed: an
// absolute http or https URL with a host, no query or fragment, and no trailing /v1 (the
// client's path, /v1/…, is appended to it).
func CheckUpstream(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return `must be an http or https URL, such as "https://api.anthropic.com"`
	case u.Scheme != "http" && u.Scheme != "https":
		return "must use http or https"
	case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(raw, "?") || strings.HasSuffix(raw, "#"):
		return "must not have a query or a fragment"
	case strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1"):
		return "must not end in /v1: requests keep their own /v1/… path, which is appended to this URL"
	}
	return ""
}
