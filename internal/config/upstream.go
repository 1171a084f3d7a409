package config

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// DefaultUpstreamTimeout is the time an upstream gets to answer one tools/call when its
// timeout is not set.
const DefaultUpstreamTimeout = 60 * time.Second

const (
	maxUpstreamTimeout   = time.Hour
	maxUpstreamPrefixLen = 64 // leaves room for the tool's own name within MCP's 128 characters
	upstreamToolSep      = "__"
	// upstreamReservedPrefix prefixes tools the gateway itself adds.
	upstreamReservedPrefix = "winnow"
)

var (
	upstreamPrefixRE = regexp.MustCompile(`^[a-z0-9_-]+$`)
	upstreamEnvRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	upstreamHeaderRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$") // RFC 9110 token
)

// upstreamInheritedEnv lists the variables of winnow's own environment an upstream command
// inherits; everything else it gets must be named in its env table. The list follows the
// default environment of the MCP reference SDK's stdio client, plus locale, time zone,
// temporary directory, proxy and CA settings, which tools need to run and reach the network.
var upstreamInheritedEnv = []string{
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
	"LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
}

// upstreamInheritedEnvWindows is the Windows counterpart of upstreamInheritedEnv.
var upstreamInheritedEnvWindows = []string{
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
	"PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
}

// Upstream is one [[upstream]] entry: an MCP server whose tools the `winnow mcp` gateway
// re-exports as <prefix>__<tool>. Exactly one of Command (a child process spoken to over
// stdio) and URL (a streamable HTTP endpoint) is set.
//
// Values in Env and Headers may reference environment variables as ${VAR}; they are
// expanded by [Upstream.Resolve] when the gateway connects, never stored expanded in the
// Config, so `winnow config show` does not print secrets.
//
// An upstream runs a program or sends credentials of the user's choosing: [[upstream]] is a
// user-only setting ([UserOnly]), never read from a repository's .winnow.toml.
type Upstream struct {
	// Name identifies the upstream in logs, status and errors.
	Name string `toml:"name" json:"name"`
	// Prefix is put before each of the upstream's tool names, with "__" between them; ""
	// means Name. It matches [a-z0-9_-]+ and contains no "__".
	Prefix string `toml:"prefix,omitempty" json:"prefix,omitempty"`

	// Command is the program to run; it is looked up in PATH unless it contains a slash.
	Command string `toml:"command,omitempty" json:"command,omitempty"`
	// Args are the program's arguments.
	Args []string `toml:"args,omitempty" json:"args,omitempty"`
	// Env holds variables set for the program on top of the few it inherits (see
	// [Upstream.Resolve]); values may reference ${VAR}.
	Env map[string]string `toml:"env,omitempty" json:"env,omitempty"`

	// URL is the streamable HTTP endpoint of the upstream.
	URL string `toml:"url,omitempty" json:"url,omitempty"`
	// Headers are sent with every HTTP request; values may reference ${VAR}.
	Headers map[string]string `toml:"headers,omitempty" json:"headers,omitempty"`
	// BearerTokenEnv names the environment variable holding a token sent as
	// "Authorization: Bearer <token>". The name is configuration; the value is a secret and
	// never appears in logs, errors or telemetry.
	BearerTokenEnv string `toml:"bearer_token_env,omitempty" json:"bearer_token_env,omitempty"`

	// Timeout bounds each tools/call; 0 means DefaultUpstreamTimeout. Written as a duration
	// string: "30s", "2m". (Starting the upstream has its own, longer limit, set by the
	// gateway: servers run through npx may download themselves first.)
	Timeout time.Duration `toml:"timeout,omitempty" json:"timeout,omitempty"`
	// Invalidates maps one of the upstream's tools (its own name, without the prefix) to the
	// tools of the same upstream whose cached results a call to it makes stale, for the
	// gateway's response cache; names may be path.Match patterns:
	// invalidates = { create_issue = ["list_issues", "search_*"] }.
	Invalidates map[string][]string `toml:"invalidates,omitempty" json:"invalidates,omitempty"`
	// Disabled keeps the entry in the file without starting it.
	Disabled bool `toml:"disabled,omitempty" json:"disabled,omitempty"`
}

// ToolPrefix returns the prefix of the upstream's re-exported tools: Prefix, or Name when
// Prefix is empty.
func (u *Upstream) ToolPrefix() string {
	if u.Prefix != "" {
		return u.Prefix
	}
	return u.Name
}

// ToolName returns the name the agent sees for the upstream's tool named tool.
func (u *Upstream) ToolName(tool string) string {
	return u.ToolPrefix() + upstreamToolSep + tool
}

// CallTimeout returns Timeout, or DefaultUpstreamTimeout when it is not set.
func (u *Upstream) CallTimeout() time.Duration {
	if u.Timeout > 0 {
		return u.Timeout
	}
	return DefaultUpstreamTimeout
}

// ResolvedUpstream is what connecting to an upstream needs from the environment.
type ResolvedUpstream struct {
	// Env is the complete environment of the command, as KEY=value pairs: the inherited
	// variables, then Env with references expanded (nil for a URL upstream).
	Env []string
	// Headers are the HTTP headers to send, Authorization included when BearerTokenEnv is
	// set (nil for a command upstream).
	Headers http.Header
	// Secrets are the values that came from environment variables (expanded references and
	// the bearer token), for the caller to redact from anything it logs or reports.
	Secrets []string
}

// Resolve reads the environment the upstream needs. A command inherits only PATH, HOME, the
// locale, proxy and CA settings and a few more (see upstreamInheritedEnv), not every
// variable of winnow's environment: API keys and tokens meant for other programs do not
// leak to third-party servers, and a server that needs one names it in env:
// env = { GITHUB_TOKEN = "${GITHUB_TOKEN}" }. A reference to an unset variable, or a
// bearer_token_env naming an unset or empty one, is an error naming the variable; errors
// never contain values.
func (u *Upstream) Resolve() (*ResolvedUpstream, error) {
	r := &ResolvedUpstream{}
	if u.Command != "" {
		r.Env = upstreamEnviron()
		for _, k := range upstreamKeys(u.Env) {
			v, secrets, err := upstreamExpand(u.Env[k])
			if err != nil {
				return nil, fmt.Errorf("upstream %s: env.%s: %w", u.Name, k, err)
			}
			r.Env = append(r.Env, k+"="+v)
			r.Secrets = append(r.Secrets, secrets...)
		}
		return r, nil
	}
	r.Headers = make(http.Header)
	for _, k := range upstreamKeys(u.Headers) {
		v, secrets, err := upstreamExpand(u.Headers[k])
		if err != nil {
			return nil, fmt.Errorf("upstream %s: headers.%s: %w", u.Name, k, err)
		}
		r.Headers.Set(k, v)
		r.Secrets = append(r.Secrets, secrets...)
	}
	if u.BearerTokenEnv != "" {
		tok := os.Getenv(u.BearerTokenEnv)
		if tok == "" {
			return nil, fmt.Errorf("upstream %s: bearer_token_env: environment variable %s is not set or empty",
				u.Name, u.BearerTokenEnv)
		}
		r.Headers.Set("Authorization", "Bearer "+tok)
		r.Secrets = append(r.Secrets, tok)
	}
	return r, nil
}

// upstreamEnviron returns the variables of upstreamInheritedEnv that are set, as KEY=value.
func upstreamEnviron() []string {
	names := upstreamInheritedEnv
	if runtime.GOOS == "windows" {
		names = upstreamInheritedEnvWindows
	}
	var env []string
	for _, k := range names {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// upstreamExpand replaces every ${VAR} in s with the value of the environment variable VAR
// and returns the non-empty values it inserted.
func upstreamExpand(s string) (string, []string, error) {
	var b strings.Builder
	var secrets []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), secrets, nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", nil, errors.New(`"${" without a closing "}"`)
		}
		name := s[i+2 : i+j]
		if !upstreamEnvRE.MatchString(name) {
			return "", nil, fmt.Errorf("${%s}: not a valid environment variable name", name)
		}
		v, ok := os.LookupEnv(name)
		if !ok {
			return "", nil, fmt.Errorf("${%s}: environment variable %s is not set", name, name)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		if v != "" {
			secrets = append(secrets, v)
		}
		s = s[i+j+1:]
	}
}

// upstreamCheckRefs reports a malformed ${VAR} reference in s without reading the environment.
func upstreamCheckRefs(s string) string {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return ""
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return `has "${" without a closing "}"`
		}
		if name := s[i+2 : i+j]; !upstreamEnvRE.MatchString(name) {
			return fmt.Sprintf("references ${%s}, which is not a valid environment variable name", name)
		}
		s = s[i+j+1:]
	}
}

// validateUpstreams reports every invalid [[upstream]] entry, in the format of
// [Config.Validate]; keys are written upstream[i].key.
func validateUpstreams(ups []Upstream) []error {
	var errs []error
	names := make(map[string]int)
	prefixes := make(map[string]int)
	for i := range ups {
		u := &ups[i]
		errs = append(errs, u.validate(i)...)
		if u.Name != "" {
			if j, dup := names[u.Name]; dup {
				errs = append(errs, fmt.Errorf("upstream[%d].name = %q: upstream[%d] has the same name", i, u.Name, j))
			} else {
				names[u.Name] = i
			}
		}
		if p := u.ToolPrefix(); p != "" {
			if j, dup := prefixes[p]; dup {
				errs = append(errs, fmt.Errorf("upstream[%d] tool prefix %q: upstream[%d] has the same prefix, so their tool names would collide", i, p, j))
			} else {
				prefixes[p] = i
			}
		}
	}
	return errs
}

// validate reports the problems of one entry, the index-th.
func (u *Upstream) validate(index int) []error {
	var errs []error
	key := func(k string) string { return fmt.Sprintf("upstream[%d].%s", index, k) }
	bad := func(k string, val any, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s = %s: %s", key(k), tomlValue(val), fmt.Sprintf(format, args...)))
	}
	if strings.TrimSpace(u.Name) == "" {
		bad("name", u.Name, "every upstream needs a name")
	}
	switch {
	case u.Prefix != "":
		if msg := upstreamCheckPrefix(u.Prefix); msg != "" {
			bad("prefix", u.Prefix, "%s", msg)
		}
	case u.Name != "":
		if msg := upstreamCheckPrefix(u.Name); msg != "" {
			bad("name", u.Name, "%s; it is the tool prefix when prefix is not set, so set prefix or rename", msg)
		}
	}
	switch {
	case u.Command == "" && u.URL == "":
		errs = append(errs, fmt.Errorf("upstream[%d]: set command (a program spoken to over stdio) or url (a streamable HTTP endpoint)", index))
	case u.Command != "" && u.URL != "":
		errs = append(errs, fmt.Errorf("upstream[%d]: command and url are both set; set exactly one", index))
	case u.Command != "":
		errs = append(errs, u.validateCommand(key, bad)...)
	default:
		errs = append(errs, u.validateURL(key, bad)...)
	}
	if u.Timeout < 0 || u.Timeout > maxUpstreamTimeout {
		bad("timeout", u.Timeout.String(), "must be between 0 (the default, %s) and %s", DefaultUpstreamTimeout, maxUpstreamTimeout)
	}
	for _, tool := range upstreamKeys(u.Invalidates) {
		if strings.TrimSpace(tool) == "" {
			bad("invalidates", tool, "a tool name must not be empty")
		}
		if slices.Contains(u.Invalidates[tool], "") {
			bad("invalidates."+tool, u.Invalidates[tool], "a tool name must not be empty")
		}
	}
	return errs
}

func (u *Upstream) validateCommand(key func(string) string, bad func(string, any, string, ...any)) []error {
	var errs []error
	if strings.TrimSpace(u.Command) != u.Command {
		bad("command", u.Command, "must not start or end with spaces; put arguments in args")
	}
	for _, k := range upstreamKeys(u.Env) {
		if !upstreamEnvRE.MatchString(k) {
			bad("env", k, "not a valid environment variable name")
		}
		if msg := upstreamCheckRefs(u.Env[k]); msg != "" {
			bad("env."+k, u.Env[k], "%s", msg)
		}
	}
	if len(u.Headers) > 0 || u.BearerTokenEnv != "" {
		errs = append(errs, fmt.Errorf("%s: headers and bearer_token_env apply to url upstreams, not to command", key("headers")))
	}
	return errs
}

func (u *Upstream) validateURL(key func(string) string, bad func(string, any, string, ...any)) []error {
	var errs []error
	p, err := url.Parse(u.URL)
	switch {
	case err != nil || p.Host == "":
		bad("url", u.URL, `must be an http or https URL, such as "https://example.com/mcp"`)
	case p.Scheme != "http" && p.Scheme != "https":
		bad("url", u.URL, "must use http or https")
	case p.User != nil:
		bad("url", p.Redacted(), "must not contain credentials; use bearer_token_env or headers")
	}
	for _, k := range upstreamKeys(u.Headers) {
		if !upstreamHeaderRE.MatchString(k) {
			bad("headers", k, "not a valid HTTP header name")
		}
		if msg := upstreamCheckRefs(u.Headers[k]); msg != "" {
			bad("headers."+k, u.Headers[k], "%s", msg)
		}
		if strings.EqualFold(k, "Authorization") && u.BearerTokenEnv != "" {
			bad("headers", k, "conflicts with bearer_token_env, which sets Authorization; keep one")
		}
	}
	if u.BearerTokenEnv != "" && !upstreamEnvRE.MatchString(u.BearerTokenEnv) {
		bad("bearer_token_env", u.BearerTokenEnv, "must be the name of an environment variable, such as GITHUB_TOKEN (not its value)")
	}
	if len(u.Args) > 0 || len(u.Env) > 0 {
		errs = append(errs, fmt.Errorf("%s: args and env apply to command upstreams, not to url", key("args")))
	}
	return errs
}

// upstreamCheckPrefix returns "" if p can prefix tool names, else what is allowed.
func upstreamCheckPrefix(p string) string {
	switch {
	case !upstreamPrefixRE.MatchString(p):
		return "must match [a-z0-9_-]+"
	case strings.Contains(p, upstreamToolSep):
		return `must not contain "__", which separates the prefix from the tool name`
	case len(p) > maxUpstreamPrefixLen:
		return fmt.Sprintf("must be at most %d characters", maxUpstreamPrefixLen)
	case p == upstreamReservedPrefix:
		return fmt.Sprintf("%q is reserved for winnow's own tools (%s__more)", p, p)
	}
	return ""
}

// cloneUpstreams returns a deep copy of ups.
func cloneUpstreams(ups []Upstream) []Upstream {
	if ups == nil {
		return nil
	}
	out := make([]Upstream, len(ups))
	for i, u := range ups {
		u.Args = cloneStrings(u.Args)
		u.Env = maps.Clone(u.Env)
		u.Headers = maps.Clone(u.Headers)
		if u.Invalidates != nil {
			inv := make(map[string][]string, len(u.Invalidates))
			for k, v := range u.Invalidates {
				inv[k] = cloneStrings(v)
			}
			u.Invalidates = inv
		}
		out[i] = u
	}
	return out
}

// upstreamKeys returns the keys of m in sorted order, so errors and environments are stable.
func upstreamKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
