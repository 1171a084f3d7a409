package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// isolate points every environment variable config reads at empty temporary directories, so
// a test never sees the developer's own configuration. It returns the home directory.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv(EnvConfig, "")
	return home
}

func TestDefault(t *testing.T) {
	want := &Config{
		Version: 1,
		Index: Index{
			Location:     "repo",
			MaxFileBytes: 1048576,
			Exclude:      []string{},
			Languages:    []string{},
		},
		Tokens: Tokens{Encoding: "o200k_base"},
		Proxy: Proxy{
			Listen:            "127.0.0.1:8787",
			AnthropicUpstream: "https://api.anthropic.com",
			OpenAIUpstream:    "https://api.openai.com",
			MaxBodyBytes:      33554432,
			BodyIdleTimeout:   30 * time.Second,
			BodyTimeout:       2 * time.Minute,
			ServerEdits:       "auto",
		},
		Gateway: Gateway{DedupWindow: 5, MinDedupChars: 200, CallBudget: 4000, Enrich: "prefetch", TurnBudget: 2000},
		Store:   Store{TTL: TTL(DefaultStoreTTL)},
	}
	got := Default()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Default() mismatch (-want +got):\n%s", diff)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("Default().Validate() = %v, want nil", err)
	}
	got.Index.Exclude = append(got.Index.Exclude, "x")
	if n := len(Default().Index.Exclude); n != 0 {
		t.Errorf("Default() shares its slices: a later call has %d excludes", n)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(c *Config)
		want   string // "" means valid
	}{
		{"defaults", func(c *Config) {}, ""},
		{"cache location", func(c *Config) { c.Index.Location = "cache" }, ""},
		{"limits at their bounds", func(c *Config) {
			c.Index.MaxFileBytes, c.Index.Workers = 1<<30, 1024
		}, ""},
		{"cache_dir absolute", func(c *Config) { c.Index.CacheDir = "/var/cache/winnow" }, ""},
		{"cache_dir under home", func(c *Config) { c.Index.CacheDir = "~/cache" }, ""},
		{"cl100k", func(c *Config) { c.Tokens.Encoding = "cl100k_base" }, ""},
		{"version zero", func(c *Config) { c.Version = 0 },
			`version = 0: must be 1`},
		{"location", func(c *Config) { c.Index.Location = "disk" },
			`index.location = "disk": must be "repo" or "cache"`},
		{"cache_dir relative", func(c *Config) { c.Index.CacheDir = "cache" },
			`index.cache_dir = "cache": must be an absolute path, start with "~/", or be "" for the default`},
		{"max_file_bytes zero", func(c *Config) { c.Index.MaxFileBytes = 0 },
			`index.max_file_bytes = 0: must be between 1 and 1073741824`},
		{"max_file_bytes too large", func(c *Config) { c.Index.MaxFileBytes = 1<<30 + 1 },
			`index.max_file_bytes = 1073741825: must be between 1 and 1073741824`},
		{"empty exclude pattern", func(c *Config) { c.Index.Exclude = []string{"*.js", " "} },
			`index.exclude[1] = " ": a pattern must not be empty`},
		{"workers negative", func(c *Config) { c.Index.Workers = -1 },
			`index.workers = -1: must be between 0 (all cores) and 1024`},
		{"workers too many", func(c *Config) { c.Index.Workers = 1025 },
			`index.workers = 1025: must be between 0 (all cores) and 1024`},
		{"encoding", func(c *Config) { c.Tokens.Encoding = "p50k" },
			`tokens.encoding = "p50k": must be "o200k_base" or "cl100k_base"`},
		{"every problem reported", func(c *Config) {
			c.Index.Location, c.Index.Workers, c.Tokens.Encoding = "disk", 2000, ""
		}, `index.location = "disk": must be "repo" or "cache"` + "\n" +
			`index.workers = 2000: must be between 0 (all cores) and 1024` + "\n" +
			`tokens.encoding = "": must be "o200k_base" or "cl100k_base"`},
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

func TestWriteTOMLRoundTrip(t *testing.T) {
	custom := Default()
	custom.Index = Index{
		Location:         "cache",
		CacheDir:         "~/.cache/w",
		MaxFileBytes:     4096,
		Exclude:          []string{"*.min.js", "docs/**"},
		Languages:        []string{"go", "python"},
		Workers:          3,
		IncludeVendored:  true,
		IncludeGenerated: true,
	}
	custom.Tokens.Encoding = "cl100k_base"
	tests := []struct {
		name string
		cfg  *Config
	}{
		{"defaults", Default()},
		{"every field set", custom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.cfg.WriteTOML(&buf); err != nil {
				t.Fatalf("WriteTOML: %v", err)
			}
			got := &Config{}
			warns, err := Parse(&buf, "written.toml", got)
			if err != nil {
				t.Fatalf("Parse(WriteTOML output): %v\n%s", err, buf.String())
			}
			if len(warns) != 0 {
				t.Errorf("Parse(WriteTOML output) warned: %v", warns)
			}
			if diff := cmp.Diff(tt.cfg, got); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONKeysMatchTOML(t *testing.T) {
	var buf bytes.Buffer
	if err := Default().WriteTOML(&buf); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	var asJSON map[string]any
	if err := json.Unmarshal(data, &asJSON); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range knownKeys() {
		want = append(want, k.String())
	}
	var got []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			got = append(got, prefix+k)
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
			}
		}
	}
	walk("", asJSON)
	got = slices.DeleteFunc(got, func(k string) bool { return k == "sources" })
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(strings.Compare)); diff != "" {
		t.Errorf("JSON keys differ from TOML keys (-toml +json):\n%s", diff)
	}
}

func TestIndexDir(t *testing.T) {
	home := isolate(t)
	root := filepath.Join(t.TempDir(), "myrepo")
	hash := rootHash(root)
	tests := []struct {
		name     string
		location string
		cacheDir string
		root     string
		want     string
	}{
		{"repo", "repo", "", root, filepath.Join(root, ".winnow")},
		{"repo ignores cache_dir", "repo", "/elsewhere", root, filepath.Join(root, ".winnow")},
		{"repo cleans root", "repo", "", root + "/sub/..", filepath.Join(root, ".winnow")},
		{"cache default dir", "cache", "", root,
			filepath.Join(home, ".cache", "winnow", "myrepo-"+hash)},
		{"cache absolute cache_dir", "cache", "/var/cache/w", root,
			filepath.Join("/var/cache/w", "myrepo-"+hash)},
		{"cache cache_dir under home", "cache", "~/idx", root,
			filepath.Join(home, "idx", "myrepo-"+hash)},
		{"cache filesystem root", "cache", "/c", "/", filepath.Join("/c", "root-"+rootHash("/"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Index.Location, c.Index.CacheDir = tt.location, tt.cacheDir
			got, err := c.IndexDir(tt.root)
			if err != nil {
				t.Fatalf("IndexDir(%q): %v", tt.root, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("IndexDir(%q) mismatch (-want +got):\n%s", tt.root, diff)
			}
		})
	}
}

// rootHash is the first 12 hex digits of the SHA-256 of abs, computed here independently of IndexDir.
func rootHash(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:])[:12]
}

func TestIndexDirDistinguishesCheckouts(t *testing.T) {
	isolate(t)
	c := Default()
	c.Index.Location = "cache"
	a, errA := c.IndexDir("/src/a/winnow")
	b, errB := c.IndexDir("/src/b/winnow")
	if errA != nil || errB != nil {
		t.Fatalf("IndexDir: %v, %v", errA, errB)
	}
	if a == b {
		t.Errorf("two checkouts named winnow share the index directory %s", a)
	}
	if !strings.HasPrefix(filepath.Base(a), "winnow-") {
		t.Errorf("IndexDir = %s, want a directory named winnow-<hash>", a)
	}
}

func TestIndexDirRelativeRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	got, err := Default().IndexDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".winnow"); got != want {
		t.Errorf("IndexDir(\".\") = %s, want %s", got, want)
	}
}
