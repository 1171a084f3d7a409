package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGatewayValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(c *Config)
		want   string // "" means valid
	}{
		{"defaults", func(c *Config) {}, ""},
		{"bounds", func(c *Config) {
			c.Gateway = Gateway{DedupWindow: 64, MinDedupChars: 1, CallBudget: 256, Enrich: "inline", TurnBudget: 1_000_000}
		}, ""},
		{"enrich off, nothing inlined", func(c *Config) { c.Gateway.Enrich, c.Gateway.TurnBudget = "off", 0 }, ""},
		{"enrich unknown", func(c *Config) { c.Gateway.Enrich = "always" },
			`gateway.enrich = "always": must be "prefetch", "inline" or "off"`},
		{"enrich empty", func(c *Config) { c.Gateway.Enrich = "" },
			`gateway.enrich = "": must be "prefetch", "inline" or "off"`},
		{"turn budget negative", func(c *Config) { c.Gateway.TurnBudget = -1 },
			`gateway.turn_budget = -1: must be between 0 (inline nothing) and 1000000 tokens`},
		{"telemetry path absolute", func(c *Config) { c.Telemetry.Path = "/var/tmp/w.jsonl" }, ""},
		{"telemetry path in home", func(c *Config) { c.Telemetry.Path = "~/w.jsonl" }, ""},
		{"window zero", func(c *Config) { c.Gateway.DedupWindow = 0 },
			`gateway.dedup_window = 0: must be between 1 and 64`},
		{"window too large", func(c *Config) { c.Gateway.DedupWindow = 65 },
			`gateway.dedup_window = 65: must be between 1 and 64`},
		{"min chars negative", func(c *Config) { c.Gateway.MinDedupChars = -1 },
			`gateway.min_dedup_chars = -1: must be between 1 and 1048576`},
		{"client cap", func(c *Config) { c.Gateway.ClientCaps = map[string]int{"codex-mcp-client": 40000, "claude-code": 0} }, ""},
		{"client cap negative", func(c *Config) { c.Gateway.ClientCaps = map[string]int{"codex-mcp-client": -1} },
			`gateway.client_caps."codex-mcp-client" = -1: must be between 0 (no cap) and 1073741824 bytes`},
		{"budget too small", func(c *Config) { c.Gateway.CallBudget = 100 },
			`gateway.call_budget = 100: must be between 256 and 1000000 tokens`},
		{"telemetry path relative", func(c *Config) { c.Telemetry.Path = "t.jsonl" },
			`telemetry.path = "t.jsonl": must be an absolute path, start with "~/", or be "" for the cache directory`},
		{"telemetry path home itself", func(c *Config) { c.Telemetry.Path = "~" },
			`telemetry.path = "~": must name a file, not the home directory`},
		{"every problem", func(c *Config) {
			c.Gateway = Gateway{DedupWindow: -1, MinDedupChars: 0, CallBudget: 2_000_000, Enrich: "prefetch"}
			c.Telemetry.Path = "rel"
		}, `gateway.dedup_window = -1: must be between 1 and 64` + "\n" +
			`gateway.min_dedup_chars = 0: must be between 1 and 1048576` + "\n" +
			`gateway.call_budget = 2000000: must be between 256 and 1000000 tokens` + "\n" +
			`telemetry.path = "rel": must be an absolute path, start with "~/", or be "" for the cache directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.modify(c)
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

func TestGatewayParse(t *testing.T) {
	doc := "[gateway]\ndedup_window = 8\ncall_budget = 2000\nenrich = \"inline\"\nturn_budget = 3000\nclient_caps = { \"codex-mcp-client\" = 40000 }\n\n[telemetry]\nenabled = true\npath = \"/tmp/t.jsonl\"\n"
	c := Default()
	warns, err := Parse(strings.NewReader(doc), "config.toml", c)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Parse: %v, warnings %v", err, warns)
	}
	want := Gateway{DedupWindow: 8, MinDedupChars: DefaultMinDedupChars, CallBudget: 2000, ClientCaps: map[string]int{"codex-mcp-client": 40000},
		Enrich: EnrichInline, TurnBudget: 3000}
	if diff := cmp.Diff(want, c.Gateway); diff != "" {
		t.Errorf("gateway table mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Telemetry{Enabled: true, Path: "/tmp/t.jsonl"}, c.Telemetry); diff != "" {
		t.Errorf("telemetry table mismatch (-want +got):\n%s", diff)
	}
	warns, err = Parse(strings.NewReader("[gateway]\ndedup_windw = 3\n"), "config.toml", Default())
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Msg, "did you mean gateway.dedup_window?") {
		t.Errorf("misspelled key: warnings %v, want one suggesting gateway.dedup_window", warns)
	}
}

func TestTelemetryPath(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory:", err)
	}
	cache := t.TempDir()
	tests := []struct {
		name, path, want string
	}{
		{"default in the cache directory", "", filepath.Join(cache, "telemetry.jsonl")},
		{"absolute", "/var/tmp/w.jsonl", "/var/tmp/w.jsonl"},
		{"home", "~/w/t.jsonl", filepath.Join(home, "w", "t.jsonl")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Index.CacheDir = cache
			c.Telemetry.Path = tt.path
			got, err := c.TelemetryPath()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("TelemetryPath() = %q, want %q", got, tt.want)
			}
		})
	}
}
