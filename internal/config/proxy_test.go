package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestProxyValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(p *Proxy)
		want   string // "" means valid
	}{
		{"defaults", func(p *Proxy) {}, ""},
		{"any port", func(p *Proxy) { p.Listen = "localhost:0" }, ""},
		{"all interfaces is valid syntax", func(p *Proxy) { p.Listen = ":8787" }, ""},
		{"ipv6 loopback", func(p *Proxy) { p.Listen = "[::1]:8787" }, ""},
		{"compatible upstream with a base path", func(p *Proxy) { p.OpenAIUpstream = "http://127.0.0.1:11434/openai" }, ""},
		{"trailing slash", func(p *Proxy) { p.AnthropicUpstream = "https://api.anthropic.com/" }, ""},
		{"body cap at bounds", func(p *Proxy) { p.MaxBodyBytes = 1 << 30 }, ""},
		{"listen without port", func(p *Proxy) { p.Listen = "127.0.0.1" },
			`proxy.listen = "127.0.0.1": must be host:port, such as "127.0.0.1:8787"`},
		{"listen port out of range", func(p *Proxy) { p.Listen = "127.0.0.1:70000" },
			`proxy.listen = "127.0.0.1:70000": must be host:port, such as "127.0.0.1:8787" with a port between 0 and 65535`},
		{"listen named port", func(p *Proxy) { p.Listen = "127.0.0.1:http" },
			`proxy.listen = "127.0.0.1:http": must be host:port, such as "127.0.0.1:8787" with a port between 0 and 65535`},
		{"listen URL", func(p *Proxy) { p.Listen = "http://127.0.0.1:8787" },
			`proxy.listen = "http://127.0.0.1:8787": must be host:port, such as "127.0.0.1:8787"`},
		{"upstream without scheme", func(p *Proxy) { p.AnthropicUpstream = "api.anthropic.com" },
			`proxy.anthropic_upstream = "api.anthropic.com": must be an http or https URL, such as "https://api.anthropic.com"`},
		{"upstream ftp", func(p *Proxy) { p.OpenAIUpstream = "ftp://example.com" },
			`proxy.openai_upstream = "ftp://example.com": must use http or https`},
		{"upstream with /v1", func(p *Proxy) { p.OpenAIUpstream = "https://api.openai.com/v1/" },
			`proxy.openai_upstream = "https://api.openai.com/v1/": must not end in /v1: requests keep their own /v1/… path, which is appended to this URL`},
		{"upstream with query", func(p *Proxy) { p.OpenAIUpstream = "https://example.com/?key=1" },
			`proxy.openai_upstream = "https://example.com/?key=1": must not have a query or a fragment`},
		{"upstream empty", func(p *Proxy) { p.AnthropicUpstream = "" },
			`proxy.anthropic_upstream = "": must be an http or https URL, such as "https://api.anthropic.com"`},
		{"body cap zero", func(p *Proxy) { p.MaxBodyBytes = 0 },
			`proxy.max_body_bytes = 0: must be between 1 and 1073741824`},
		{"short body timeouts", func(p *Proxy) { p.BodyIdleTimeout, p.BodyTimeout = 100*time.Millisecond, time.Second }, ""},
		{"body idle timeout zero", func(p *Proxy) { p.BodyIdleTimeout = 0 },
			`proxy.body_idle_timeout = "0s": must be a positive duration up to 1h0m0s, such as "30s"`},
		{"body idle timeout too long", func(p *Proxy) { p.BodyIdleTimeout = 2 * time.Hour },
			`proxy.body_idle_timeout = "2h0m0s": must be a positive duration up to 1h0m0s, such as "30s"`},
		{"body timeout negative", func(p *Proxy) { p.BodyTimeout = -time.Minute },
			`proxy.body_timeout = "-1m0s": must be a positive duration up to 24h0m0s, such as "2m0s"`},
		{"server edits", func(p *Proxy) { p.ServerEdits = "yes" },
			`proxy.server_edits = "yes": must be "auto", "on" or "off"`},
		{"every problem", func(p *Proxy) { p.Listen, p.MaxBodyBytes = "", -1 },
			`proxy.listen = "": must be host:port, such as "127.0.0.1:8787"` + "\n" +
				`proxy.max_body_bytes = -1: must be between 1 and 1073741824`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.modify(&c.Proxy)
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

func TestProxyParse(t *testing.T) {
	doc := `[proxy]
listen = "127.0.0.1:9999"
openai_upstream = "http://127.0.0.1:11434"
max_body_bytes = 1024
body_idle_timeout = "5s"
body_timeout = "10m"
`
	c := Default()
	warns, err := Parse(strings.NewReader(doc), "config.toml", c)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Parse: %v, warnings %v", err, warns)
	}
	want := Proxy{
		Listen:            "127.0.0.1:9999",
		AnthropicUpstream: DefaultAnthropicUpstream,
		OpenAIUpstream:    "http://127.0.0.1:11434",
		MaxBodyBytes:      1024,
		BodyIdleTimeout:   5 * time.Second,
		BodyTimeout:       10 * time.Minute,
		ServerEdits:       "auto",
	}
	if diff := cmp.Diff(want, c.Proxy); diff != "" {
		t.Errorf("proxy table mismatch (-want +got):\n%s", diff)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	warns, err = Parse(strings.NewReader("[proxy]\nlisen = \"x\"\n"), "config.toml", Default())
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Msg, "did you mean proxy.listen?") {
		t.Errorf("misspelled key: warnings %v, want one suggesting proxy.listen", warns)
	}
	_, err = Parse(strings.NewReader("[proxy]\nbody_timeout = \"two minutes\"\n"), "config.toml", Default())
	if err == nil || !strings.Contains(err.Error(), "body_timeout") {
		t.Errorf("a body_timeout that is not a duration: %v, want an error naming the key", err)
	}
}
