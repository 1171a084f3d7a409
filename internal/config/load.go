package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

const (
	// EnvConfig names the environment variable that points at the user configuration file,
	// replacing the default location.
	EnvConfig = "WINNOW_CONFIG"

	// RepoFile is the name of the repository configuration file, at the repository root.
	RepoFile = ".winnow.toml"
)

// LoadOptions says which files [Load] layers over the defaults.
type LoadOptions struct {
	// RepoRoot is the repository root whose RepoFile is the last layer, without the
	// user-only settings ([UserOnly]); "" skips it.
	RepoRoot string
	// UserFile replaces the user file given by [UserFile], typically from a --config flag.
	UserFile string
	// NoUser skips the user file altogether, for reproducible runs and tests.
	NoUser bool
}

// UserFile returns the path of the user configuration file: $WINNOW_CONFIG if it is set,
// else os.UserConfigDir()/winnow/config.toml. explicit reports whether the path came from
// the environment, in which case a missing file is an error rather than an empty layer.
func UserFile() (path string, explicit bool, err error) {
	if p := os.Getenv(EnvConfig); p != "" {
		return p, true, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", false, fmt.Errorf("user config directory: %w", err)
	}
	return filepath.Join(dir, "winnow", "config.toml"), false, nil
}

// Load returns the defaults with the user file and then the repository file applied, and
// validated. A file at a default location that does not exist is skipped; a file named
// explicitly (LoadOptions.UserFile or $WINNOW_CONFIG) that does not exist is an error, as is
// any file that exists but cannot be read or parsed. Unknown keys are warnings, not errors;
// they are returned with a validation error too, since a misspelled key may explain it.
//
// The repository file cannot make the settings only the user may make ([UserOnly]): Load
// leaves them out of it before anything is decoded, so they are neither validated nor part
// of the result, and returns a warning for each, naming the file, the line and the key.
func Load(opts LoadOptions) (*Config, []Warning, error) {
	c := Default()
	c.Sources = []string{}
	var warns []Warning
	for _, l := range opts.layers() {
		w, err := l.apply(c)
		if err != nil {
			return nil, nil, err
		}
		warns = append(warns, w...)
	}
	if err := c.Validate(); err != nil {
		if len(c.Sources) == 0 {
			return nil, warns, fmt.Errorf("default config: %w", err)
		}
		return nil, warns, fmt.Errorf("config from %s: %w", strings.Join(c.Sources, ", "), err)
	}
	return c, warns, nil
}

// A layer is one configuration file to apply.
type layer struct {
	path     string
	required bool   // a missing file is an error
	namedBy  string // where the path came from, for the error when it is missing
	// userFile is set for the repository file: the user file, where the user-only
	// settings it cannot make belong.
	userFile string
}

func (o LoadOptions) layers() []layer {
	var ls []layer
	switch {
	case o.NoUser:
	case o.UserFile != "":
		ls = append(ls, layer{path: o.UserFile, required: true})
	default:
		path, explicit, err := UserFile()
		if err != nil {
			break // no home or config directory, so no user file to read
		}
		ls = append(ls, layer{path: path, required: explicit, namedBy: "$" + EnvConfig})
	}
	if o.RepoRoot != "" {
		ls = append(ls, layer{path: filepath.Join(o.RepoRoot, RepoFile), userFile: o.userFileName()})
	}
	return ls
}

// userFileName names the user file for messages: the one Load reads, or would read.
func (o LoadOptions) userFileName() string {
	if o.UserFile != "" {
		return o.UserFile
	}
	path, _, err := UserFile()
	if err != nil {
		return "~/.config/winnow/config.toml"
	}
	return displayPath(path)
}

// apply parses the layer's file over c and records it in c.Sources.
func (l layer) apply(c *Config) ([]Warning, error) {
	f, err := os.Open(l.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !l.required:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist) && l.namedBy != "":
		return nil, fmt.Errorf("read config named by %s: %w", l.namedBy, err)
	case err != nil:
		return nil, fmt.Errorf("read config: %w", err)
	}
	defer f.Close()
	var warns []Warning
	if l.userFile != "" {
		warns, err = parseRepo(f, l.path, l.userFile, c)
	} else {
		warns, err = Parse(f, l.path, c)
	}
	if err != nil {
		return nil, err
	}
	c.Sources = append(c.Sources, l.path)
	return warns, nil
}

// Parse decodes the TOML document r over c: keys present in the document replace the values
// in c, absent keys keep them. name (usually the file path) prefixes errors and warnings.
// A syntax error or a value of the wrong type is an error naming the line, and leaves c
// unchanged; a key the schema does not have is a [Warning]. Parse does not validate values.
//
// Parse reads every key, as for the user file; [Load] reads the repository file without the
// settings only the user may make.
func Parse(r io.Reader, name string, c *Config) ([]Warning, error) {
	doc, err := readDoc(r, name)
	if err != nil {
		return nil, err
	}
	next := c.clone() // the decoder writes into existing slices; keep c intact on error
	below := next.Tools
	next.Tools = nil // this file's tables, then layered over below's key by key
	md, err := toml.Decode(doc, next)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	next.Tools = layerTools(below, next.Tools, doc, name, md)
	*c = *next
	return unknownKeys(doc, name, md.Undecoded()), nil
}

// parseRepo is Parse for a repository file: the user-only settings in it are not decoded,
// and each is a [Warning] saying to set it in userFile instead. The warnings are in line
// order.
func parseRepo(r io.Reader, name, userFile string, c *Config) ([]Warning, error) {
	doc, err := readDoc(r, name)
	if err != nil {
		return nil, err
	}
	next := c.clone()
	below := next.Tools
	next.Tools = nil
	md, undecoded, dropped, err := decodeRepo(doc, next)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	next.Tools = layerTools(below, next.Tools, doc, name, md)
	*c = *next
	warns := append(unknownKeys(doc, name, undecoded), userOnlyWarnings(doc, name, userFile, md, dropped)...)
	slices.SortStableFunc(warns, func(a, b Warning) int { return a.Line - b.Line })
	return warns, nil
}

// readDoc reads a whole TOML document and checks its schema version.
func readDoc(r io.Reader, name string) (string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	doc := string(data)
	if err := checkVersion(doc, name); err != nil {
		return "", err
	}
	return doc, nil
}

// checkVersion rejects a document written for a schema this winnow does not know, before its
// keys are decoded with possibly different meanings.
func checkVersion(doc, name string) error {
	var head struct {
		Version *int64 `toml:"version"`
	}
	if _, err := toml.Decode(doc, &head); err != nil {
		return fmt.Errorf("parse %s: %w", name, err)
	}
	switch v := head.Version; {
	case v == nil:
		return nil
	case *v > SchemaVersion:
		return fmt.Errorf("%s: version = %d: this winnow reads configuration schema version %d at most; upgrade winnow",
			name, *v, SchemaVersion)
	case *v < 1:
		return fmt.Errorf("%s: version = %d: must be between 1 and %d", name, *v, SchemaVersion)
	}
	return nil
}
