package config

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const upstreamsTOML = `
[[upstream]]
name = "github"
command = "github-mcp-server"
args = ["stdio", "--read-only"]
env = { GITHUB_PERSONAL_ACCESS_TOKEN = "${GITHUB_TOKEN}" }
timeout = "45s"
invalidates = { create_issue = ["list_issues", "search_issues"] }

[[upstream]]
name = "Jira Cloud"
prefix = "jira"
url = "https://mcp.example.com/jira"
headers = { X-Tenant = "acme" }
bearer_token_env = "JIRA_TOKEN"

[[upstream]]
name = "old"
command = "old-mcp"
disabled = true
`

func TestParseUpstreams(t *testing.T) {
	c := Default()
	warns, err := Parse(strings.NewReader(upstreamsTOML), "u.toml", c)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	want := []Upstream{
		{
			Name:        "github",
			Command:     "github-mcp-server",
			Args:        []string{"stdio", "--read-only"},
			Env:         map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"},
			Timeout:     45 * time.Second,
			Invalidates: map[string][]string{"create_issue": {"list_issues", "search_issues"}},
		},
		{
			Name:           "Jira Cloud",
			Prefix:         "jira",
			URL:            "https://mcp.example.com/jira",
			Headers:        map[string]string{"X-Tenant": "acme"},
			BearerTokenEnv: "JIRA_TOKEN",
		},
		{Name: "old", Command: "old-mcp", Disabled: true},
	}
	if diff := cmp.Diff(want, c.Upstreams); diff != "" {
		t.Errorf("upstreams mismatch (-want +got):\n%s", diff)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}

	var buf bytes.Buffer
	if err := c.WriteTOML(&buf); err != nil {
		t.Fatal(err)
	}
	back := Default()
	if _, err := Parse(&buf, "written.toml", back); err != nil {
		t.Fatalf("Parse(WriteTOML output): %v\n%s", err, buf.String())
	}
	if diff := cmp.Diff(c.Upstreams, back.Upstreams); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestUpstreamNames(t *testing.T) {
	u := Upstream{Name: "github", Command: "x"}
	if got := u.ToolName("list_issues"); got != "github__list_issues" {
		t.Errorf("ToolName = %q, want github__list_issues", got)
	}
	u.Prefix = "gh"
	if got := u.ToolName("list_issues"); got != "gh__list_issues" {
		t.Errorf("ToolName with prefix = %q, want gh__list_issues", got)
	}
	if got := u.CallTimeout(); got != DefaultUpstreamTimeout {
		t.Errorf("CallTimeout() = %v, want the default %v", got, DefaultUpstreamTimeout)
	}
	u.Timeout = 3 * time.Second
	if got := u.CallTimeout(); got != 3*time.Second {
		t.Errorf("CallTimeout() = %v, want 3s", got)
	}
}

func TestValidateUpstreams(t *testing.T) {
	cmd := func(name string) Upstream { return Upstream{Name: name, Command: "srv"} }
	web := func(name string) Upstream { return Upstream{Name: name, URL: "https://example.com/mcp"} }
	tests := []struct {
		name string
		ups  []Upstream
		want string // "" means valid
	}{
		{"command", []Upstream{cmd("fs")}, ""},
		{"url with headers and token", []Upstream{func() Upstream {
			u := web("gh")
			u.Headers, u.BearerTokenEnv = map[string]string{"X-Org": "${ORG}"}, "GH_TOKEN"
			return u
		}()}, ""},
		{"prefix overrides an unusable name", []Upstream{{Name: "Git Hub", Prefix: "gh", Command: "srv"}}, ""},
		{"no name", []Upstream{{Command: "srv"}},
			`upstream[0].name = "": every upstream needs a name`},
		{"name unusable as prefix", []Upstream{cmd("Git Hub")},
			`upstream[0].name = "Git Hub": must match [a-z0-9_-]+; it is the tool prefix when prefix is not set, so set prefix or rename`},
		{"bad prefix", []Upstream{{Name: "gh", Prefix: "g.h", Command: "srv"}},
			`upstream[0].prefix = "g.h": must match [a-z0-9_-]+`},
		{"prefix with the separator", []Upstream{{Name: "gh", Prefix: "git__hub", Command: "srv"}},
			`upstream[0].prefix = "git__hub": must not contain "__", which separates the prefix from the tool name`},
		{"reserved prefix", []Upstream{cmd("winnow")},
			`upstream[0].name = "winnow": "winnow" is reserved for winnow's own tools (winnow__more); it is the tool prefix when prefix is not set, so set prefix or rename`},
		{"neither command nor url", []Upstream{{Name: "gh"}},
			`upstream[0]: set command (a program spoken to over stdio) or url (a streamable HTTP endpoint)`},
		{"both command and url", []Upstream{{Name: "gh", Command: "srv", URL: "https://example.com"}},
			`upstream[0]: command and url are both set; set exactly one`},
		{"duplicate prefix", []Upstream{cmd("a"), {Name: "b", Prefix: "a", Command: "srv"}},
			`upstream[1] tool prefix "a": upstream[0] has the same prefix, so their tool names would collide`},
		{"duplicate name", []Upstream{cmd("a"), {Name: "a", Prefix: "b", Command: "srv"}},
			`upstream[1].name = "a": upstream[0] has the same name`},
		{"url scheme", []Upstream{{Name: "gh", URL: "ftp://example.com"}},
			`upstream[0].url = "ftp://example.com": must use http or https`},
		{"url not absolute", []Upstream{{Name: "gh", URL: "example.com/mcp"}},
			`upstream[0].url = "example.com/mcp": must be an http or https URL, such as "https://example.com/mcp"`},
		{"url with credentials", []Upstream{{Name: "gh", URL: "https://me:hunter2@example.com/mcp"}},
			`upstream[0].url = "https://me:xxxxx@example.com/mcp": must not contain credentials; use bearer_token_env or headers`},
		{"bearer token value instead of name", []Upstream{func() Upstream {
			u := web("gh")
			u.BearerTokenEnv = "ghp_abc-123"
			return u
		}()}, `upstream[0].bearer_token_env = "ghp_abc-123": must be the name of an environment variable, such as GITHUB_TOKEN (not its value)`},
		{"authorization twice", []Upstream{func() Upstream {
			u := web("gh")
			u.Headers, u.BearerTokenEnv = map[string]string{"authorization": "x"}, "GH_TOKEN"
			return u
		}()}, `upstream[0].headers = "authorization": conflicts with bearer_token_env, which sets Authorization; keep one`},
		{"bad header name", []Upstream{func() Upstream {
			u := web("gh")
			u.Headers = map[string]string{"X Org": "a"}
			return u
		}()}, `upstream[0].headers = "X Org": not a valid HTTP header name`},
		{"headers on a command", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Headers = map[string]string{"X-Org": "a"}
			return u
		}()}, `upstream[0].headers: headers and bearer_token_env apply to url upstreams, not to command`},
		{"args on a url", []Upstream{func() Upstream {
			u := web("gh")
			u.Args = []string{"-v"}
			return u
		}()}, `upstream[0].args: args and env apply to command upstreams, not to url`},
		{"env name", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Env = map[string]string{"1X": "a"}
			return u
		}()}, `upstream[0].env = "1X": not a valid environment variable name`},
		{"unterminated reference", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Env = map[string]string{"TOKEN": "${GH_TOKEN"}
			return u
		}()}, `upstream[0].env.TOKEN = "${GH_TOKEN": has "${" without a closing "}"`},
		{"reference to a bad name", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Env = map[string]string{"TOKEN": "x${GH-TOKEN}"}
			return u
		}()}, `upstream[0].env.TOKEN = "x${GH-TOKEN}": references ${GH-TOKEN}, which is not a valid environment variable name`},
		{"negative timeout", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Timeout = -time.Second
			return u
		}()}, `upstream[0].timeout = "-1s": must be between 0 (the default, 1m0s) and 1h0m0s`},
		{"empty invalidated tool", []Upstream{func() Upstream {
			u := cmd("gh")
			u.Invalidates = map[string][]string{"create": {"list", ""}}
			return u
		}()}, `upstream[0].invalidates.create = [list ]: a tool name must not be empty`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Upstreams = tt.ups
			got := ""
			if err := c.Validate(); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate() error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveCommandEnv(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("WINNOW_TEST_GH_TOKEN", "ghp_secret123")
	t.Setenv("WINNOW_TEST_UNRELATED_KEY", "sk-not-for-children")
	u := Upstream{Name: "gh", Command: "srv", Env: map[string]string{
		"GITHUB_TOKEN": "${WINNOW_TEST_GH_TOKEN}",
		"MODE":         "read-only",
		"URL":          "https://${WINNOW_TEST_GH_TOKEN}@example.com/x",
	}}
	r, err := u.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Env, "PATH=/usr/bin:/bin") {
		t.Errorf("Env lacks the inherited PATH: %q", r.Env)
	}
	for _, kv := range r.Env {
		if strings.HasPrefix(kv, "WINNOW_TEST_UNRELATED_KEY=") {
			t.Errorf("Env inherits a variable it was not given: %q", kv)
		}
	}
	n := len(r.Env)
	wantTail := []string{
		"GITHUB_TOKEN=ghp_secret123",
		"MODE=read-only",
		"URL=https://ghp_secret123@example.com/x",
	}
	if diff := cmp.Diff(wantTail, r.Env[n-3:]); diff != "" {
		t.Errorf("configured env mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ghp_secret123", "ghp_secret123"}, r.Secrets); diff != "" {
		t.Errorf("Secrets mismatch (-want +got):\n%s", diff)
	}
	if r.Headers != nil {
		t.Errorf("a command upstream has headers: %v", r.Headers)
	}
}

func TestResolveHeaders(t *testing.T) {
	t.Setenv("WINNOW_TEST_BEARER", "tok-9f8e7d")
	t.Setenv("WINNOW_TEST_ORG", "acme")
	u := Upstream{Name: "gh", URL: "https://example.com/mcp", BearerTokenEnv: "WINNOW_TEST_BEARER",
		Headers: map[string]string{"X-Org": "org-${WINNOW_TEST_ORG}", "X-Static": "v1"}}
	r, err := u.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := http.Header{
		"Authorization": {"Bearer tok-9f8e7d"},
		"X-Org":         {"org-acme"},
		"X-Static":      {"v1"},
	}
	if diff := cmp.Diff(want, r.Headers); diff != "" {
		t.Errorf("Headers mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"acme", "tok-9f8e7d"}, r.Secrets); diff != "" {
		t.Errorf("Secrets mismatch (-want +got):\n%s", diff)
	}
	if r.Env != nil {
		t.Errorf("a url upstream has an environment: %v", r.Env)
	}
}

func TestResolveErrorsNameVariablesNotValues(t *testing.T) {
	t.Setenv("WINNOW_TEST_EMPTY_TOKEN", "")
	t.Setenv("WINNOW_TEST_PRESENT", "v4lue-that-must-not-leak")
	tests := []struct {
		name string
		u    Upstream
		want string
	}{
		{"unset reference", Upstream{Name: "gh", Command: "srv", Env: map[string]string{
			"A": "${WINNOW_TEST_PRESENT}", "TOKEN": "${WINNOW_TEST_SURELY_UNSET}"}},
			"upstream gh: env.TOKEN: ${WINNOW_TEST_SURELY_UNSET}: environment variable WINNOW_TEST_SURELY_UNSET is not set"},
		{"unset header reference", Upstream{Name: "gh", URL: "https://example.com", Headers: map[string]string{
			"X-Key": "${WINNOW_TEST_SURELY_UNSET}"}},
			"upstream gh: headers.X-Key: ${WINNOW_TEST_SURELY_UNSET}: environment variable WINNOW_TEST_SURELY_UNSET is not set"},
		{"empty bearer token", Upstream{Name: "gh", URL: "https://example.com", BearerTokenEnv: "WINNOW_TEST_EMPTY_TOKEN"},
			"upstream gh: bearer_token_env: environment variable WINNOW_TEST_EMPTY_TOKEN is not set or empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.u.Resolve()
			if err == nil {
				t.Fatal("Resolve succeeded, want an error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), "v4lue-that-must-not-leak") {
				t.Errorf("error contains a variable's value: %v", err)
			}
		})
	}
}
