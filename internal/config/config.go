// Package config provides winnow's one configuration: the schema as Go structs, its defaults,
// the layering of the user file and the repository file over those defaults, validation, and
// the derived locations (index directory, cache directory).
//
// The layers, each overriding only the keys it sets:
//
//  1. [Default];
//  2. the user file: $WINNOW_CONFIG if set, else os.UserConfigDir()/winnow/config.toml
//     (~/.config/winnow/config.toml on Linux);
//  3. the repository file <repo root>/.winnow.toml, without the settings only the user may
//     make (see below);
//  4. command-line flags, which the CLI assigns to the fields of the returned *Config before
//     calling [Config.Validate] again (see the example of [Parse]).
//
// A list (index.exclude, index.languages) set by a later layer replaces the earlier list; it
// is not appended to.
//
// A repository file comes with whatever was cloned, so some settings are the user's alone
// ([UserOnly]): [[upstream]], [proxy], [llm], [store], [gateway], [telemetry],
// index.location and index.cache_dir, which run programs, send keys or code somewhere, or
// make winnow read or write outside the repository, and in [tools."<name>"] tables
// follow_up, speculate = true and a safe side_effect, which make the gateway call tools.
// [Load] leaves them out of the repository file before decoding it, so they are neither
// validated nor part of the result, and warns once per key with its line; a repository may
// only set index.location = "repo", its own .winnow/ directory. [Parse] reads every key, as
// for the user file.
//
// config is the only package that reads environment variables, so every other package can be
// tested with a plain struct. It does not define command-line flags, does not watch files for
// changes, does not create or edit configuration files (WriteTOML only prints one), and does
// not check names that belong to other packages (language names, gitignore pattern syntax);
// the packages that use them do.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// SchemaVersion is the version of the configuration schema this winnow reads and writes.
// A file with a larger version is an error asking the user to upgrade winnow.
const SchemaVersion = 1

// Values of [Index.Location].
const (
	LocationRepo  = "repo"  // the index lives in <repo root>/.winnow/
	LocationCache = "cache" // the index lives in the cache directory, one subdirectory per repo
)

const (
	repoIndexDir    = ".winnow" // index directory under the repo root for LocationRepo
	maxMaxFileBytes = 1 << 30
	maxWorkers      = 1024
)

var encodings = []string{"o200k_base", "cl100k_base"} // the offline BPE encodings tokens provides

// Config is the whole configuration. Its zero value is not useful; start from [Default] or [Load].
type Config struct {
	// Version is the schema version the configuration was written for.
	Version int    `toml:"version" json:"version"`
	Index   Index  `toml:"index" json:"index"`
	Tokens  Tokens `toml:"tokens" json:"tokens"`
	Proxy   Proxy  `toml:"proxy" json:"proxy"`

	// Gateway and Telemetry configure the MCP gateway's response pipeline; see gateway.go.
	Gateway   Gateway   `toml:"gateway" json:"gateway"`
	Telemetry Telemetry `toml:"telemetry" json:"telemetry"`

	// Upstreams are the MCP servers the gateway re-exports; see upstream.go.
	Upstreams []Upstream `toml:"upstream" json:"upstream,omitempty"`

	// Strategies and LLM configure the telescope's strategies; see telescope.go.
	Strategies []Strategy `toml:"strategy" json:"strategy,omitempty"`
	LLM        LLM        `toml:"llm" json:"llm"`

	// Store configures the cache of compaction results and telescope nodes; see store.go.
	Store Store `toml:"store" json:"store"`

	// Tools are the [tools."<name>"] tables, the user's settings of the tools' value
	// models, by tool name or pattern; see tools.go and [Config.ToolRules].
	Tools map[string]ToolTable `toml:"tools,omitempty" json:"tools,omitempty"`

	// Sources lists the files Load read, in the order they were applied.
	Sources []string `toml:"-" json:"sources"`
}

// Index configures what `winnow index` reads and where it keeps the index.
type Index struct {
	// Location is LocationRepo or LocationCache; see [Config.IndexDir]. A user-only
	// setting ([UserOnly]), but a repository may set LocationRepo.
	Location string `toml:"location" json:"location"`
	// CacheDir overrides the cache directory; "" means os.UserCacheDir()/winnow.
	// A leading "~/" is the home directory. See [Config.CacheDir]. A user-only setting.
	CacheDir string `toml:"cache_dir" json:"cache_dir"`
	// MaxFileBytes is the size above which a file is skipped with reason "too_large".
	MaxFileBytes int64 `toml:"max_file_bytes" json:"max_file_bytes"`
	// Exclude holds gitignore-style patterns applied on top of .gitignore.
	Exclude []string `toml:"exclude" json:"exclude"`
	// Languages restricts indexing to these language names; empty means all.
	Languages []string `toml:"languages" json:"languages"`
	// Workers is the number of parse goroutines; 0 means GOMAXPROCS.
	Workers int `toml:"workers" json:"workers"`
	// IncludeVendored indexes vendor/, node_modules/, third_party/ and the like too.
	IncludeVendored bool `toml:"include_vendored" json:"include_vendored"`
	// IncludeGenerated indexes files marked as generated ("Code generated … DO NOT EDIT",
	// @generated) too.
	IncludeGenerated bool `toml:"include_generated" json:"include_generated"`
}

// Tokens configures token counting.
type Tokens struct {
	// Encoding is the BPE encoding used to count tokens: "o200k_base" or "cl100k_base".
	Encoding string `toml:"encoding" json:"encoding"`
}

// Default returns the built-in configuration, the bottom layer of every [Load].
func Default() *Config {
	return &Config{
		Version: SchemaVersion,
		Index: Index{
			Location:     LocationRepo,
			MaxFileBytes: 1 << 20,
			Exclude:      []string{},
			Languages:    []string{},
		},
		Tokens: Tokens{Encoding: "o200k_base"},
		Proxy:  defaultProxy(),

		Gateway: defaultGateway(),
		Store:   defaultStore(),
	}
}

// clone returns a copy of c that shares no slices with it.
func (c *Config) clone() *Config {
	d := *c
	d.Index.Exclude = cloneStrings(c.Index.Exclude)
	d.Index.Languages = cloneStrings(c.Index.Languages)
	d.Sources = cloneStrings(c.Sources)
	d.Upstreams = cloneUpstreams(c.Upstreams)
	d.Strategies = cloneStrategies(c.Strategies)
	d.Tools = maps.Clone(c.Tools) // tables are replaced, never changed in place
	return &d
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string{}, s...)
}

// Validate reports every invalid value in c, each as "key = value: what is allowed",
// joined with errors.Join.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key string, val any, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s = %s: %s", key, tomlValue(val), fmt.Sprintf(format, args...)))
	}
	if c.Version != SchemaVersion {
		bad("version", c.Version, "must be %d", SchemaVersion)
	}
	ix := c.Index
	if ix.Location != LocationRepo && ix.Location != LocationCache {
		bad("index.location", ix.Location, "must be %q or %q", LocationRepo, LocationCache)
	}
	if d := ix.CacheDir; d != "" && d != "~" && !strings.HasPrefix(d, "~/") && !filepath.IsAbs(d) {
		bad("index.cache_dir", d, `must be an absolute path, start with "~/", or be "" for the default`)
	}
	if ix.MaxFileBytes < 1 || ix.MaxFileBytes > maxMaxFileBytes {
		bad("index.max_file_bytes", ix.MaxFileBytes, "must be between 1 and %d", maxMaxFileBytes)
	}
	for i, p := range ix.Exclude {
		if strings.TrimSpace(p) == "" {
			bad(fmt.Sprintf("index.exclude[%d]", i), p, "a pattern must not be empty")
		}
	}
	if ix.Workers < 0 || ix.Workers > maxWorkers {
		bad("index.workers", ix.Workers, "must be between 0 (all cores) and %d", maxWorkers)
	}
	if !isOneOf(c.Tokens.Encoding, encodings) {
		bad("tokens.encoding", c.Tokens.Encoding, "must be %s", quotedList(encodings))
	}
	errs = append(errs, c.Proxy.validate()...)
	errs = append(errs, c.Gateway.validate()...)
	errs = append(errs, c.Telemetry.validate()...)
	errs = append(errs, validateUpstreams(c.Upstreams)...)
	errs = append(errs, validateStrategies(c.Strategies)...)
	errs = append(errs, c.LLM.validate()...)
	errs = append(errs, c.Store.validate()...)
	errs = append(errs, validateTools(c.Tools)...)
	return errors.Join(errs...)
}

// tomlValue formats v as it would be written in a TOML file.
func tomlValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func isOneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// quotedList renders ["a", "b", "c"] as `"a", "b" or "c"`.
func quotedList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// CacheDir returns the directory for winnow's caches: index.cache_dir with a leading "~/"
// expanded, or os.UserCacheDir()/winnow when it is empty.
func (c *Config) CacheDir() (string, error) {
	d := c.Index.CacheDir
	if d == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("cache directory: %w (set index.cache_dir)", err)
		}
		return filepath.Join(base, "winnow"), nil
	}
	if d != "~" && !strings.HasPrefix(d, "~/") {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expand index.cache_dir = %q: %w", d, err)
	}
	return filepath.Join(home, strings.TrimPrefix(d[1:], "/")), nil
}

// IndexDir returns the directory holding the index of the repository at root (made absolute
// if it is not): <root>/.winnow for LocationRepo, and for LocationCache
// <cache dir>/<base name of root>-<first 12 hex digits of sha256(root)>, so two checkouts with
// the same name do not share an index. Symbolic links in root are not resolved.
func (c *Config) IndexDir(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("index directory for %s: %w", root, err)
	}
	switch c.Index.Location {
	case LocationRepo:
		return filepath.Join(abs, repoIndexDir), nil
	case LocationCache:
		dir, err := c.CacheDir()
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256([]byte(abs))
		return filepath.Join(dir, repoName(abs)+"-"+hex.EncodeToString(sum[:6])), nil
	default:
		return "", fmt.Errorf("index.location = %q: must be %q or %q", c.Index.Location, LocationRepo, LocationCache)
	}
}

// repoName is the last element of the absolute path root, or "root" for a filesystem root.
func repoName(root string) string {
	name := filepath.Base(root)
	if name == "" || name == "." || strings.ContainsAny(name, `/\`) || strings.HasSuffix(name, ":") {
		return "root"
	}
	return name
}

// WriteTOML writes c as a TOML document that [Parse] reads back to the same Config
// (Sources excepted). `winnow config show` prints it; JSON comes from the json tags.
func (c *Config) WriteTOML(w io.Writer) error {
	enc := toml.NewEncoder(w)
	enc.Indent = ""
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("write config as TOML: %w", err)
	}
	return nil
}
