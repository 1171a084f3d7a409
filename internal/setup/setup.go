// Package setup wires winnow into the configuration files of the agent clients it
// knows (Claude Code, Codex): winnow's MCP server (`winnow mcp`) and its LLM proxy
// (`winnow proxy`).
//
// A Plan is computed first, from what the files hold now: for each file, its new text
// and the unified diff to it. Nothing is written until Plan.Write, which backs each
// changed file up (name.bak-YYYYMMDD-HHMMSS beside it) and replaces it atomically. The
// files are edited as text, never decoded and re-encoded: in JSON only the members
// winnow owns are set (every other member keeps its bytes and order), in TOML only
// winnow's tables and the one top-level key the proxy needs (comments stay). A plan of
// files that already say what winnow would write changes nothing, so setting up twice
// is harmless. A file that does not parse is an error, and nothing is written.
//
// What each client reads, and where, is what the real clients were seen to honour
// (Claude Code 2.1.328, Codex 0.169): see claude.go and codex.go. The package does not
// start or check the proxy, install winnow, or remove what it wrote.
package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The clients setup knows.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
)

// Clients lists the clients setup knows, in the order help lists them.
var Clients = []string{ClaudeCode, Codex}

// A Scope says where the MCP server is registered.
type Scope string

const (
	// ScopeUser registers it for every project of the user.
	ScopeUser Scope = "user"
	// ScopeProject registers it in the project's shared file (.mcp.json,
	// .codex/config.toml), for everyone who works on it.
	ScopeProject Scope = "project"
)

// Options say what to wire into which files.
type Options struct {
	Home            string // the user's home directory (required)
	ClaudeConfigDir string // $CLAUDE_CONFIG_DIR: Claude Code's files are there instead of ~/.claude.json and ~/.claude/
	CodexHome       string // $CODEX_HOME: Codex's directory instead of ~/.codex
	Project         string // the project's root directory (required with ScopeProject)
	Scope           Scope  // ScopeUser when empty
	MCP             bool   // register `winnow mcp` as the MCP server "winnow"
	Proxy           bool   // send the client's API requests through `winnow proxy`
	Command         string // the winnow executable the client starts: "winnow", or an absolute path
	ProxyURL        string // winnow proxy's base URL, such as http://127.0.0.1:8787 (with Proxy)
}

// A Plan is what setting a client up changes, file by file.
type Plan struct {
	Client  string
	Scope   Scope
	Changes []*Change
	// Notes say what the user still has to know or do (keep the proxy running, approve
	// a project's server).
	Notes []string
}

// A Change is one configuration file before and after.
type Change struct {
	Path    string // absolute
	Exists  bool   // whether the file exists now
	Old     []byte // its text now
	New     []byte // its text after (Old until edited)
	Mode    fs.FileMode
	Sets    []string // winnow's parts of the file: "mcpServers.winnow", "[mcp_servers.winnow]", …
	Snippet string   // those parts as they read in the file, to copy by hand
	// Set by Plan.Write:
	Written bool
	Backup  string // the copy of the old file, when there was one
}

// Changed reports whether writing the change would alter the file.
func (c *Change) Changed() bool { return !c.Exists || !bytes.Equal(c.Old, c.New) }

// Diff is the unified diff from the file now to the file after, with name standing
// for the path in its headers ("" when nothing changes).
func (c *Change) Diff(name string) string {
	from := name
	if !c.Exists {
		from = "/dev/null"
	}
	if c.Exists && bytes.Equal(c.Old, c.New) {
		return ""
	}
	return unifiedDiff(from, name, c.Old, c.New)
}

// New plans setting up client ("claude-code" or "codex") with opts. It reads the
// client's files and fails, naming the file and what to do, when one cannot be edited
// safely; it writes nothing.
func New(client string, opts Options) (*Plan, error) {
	if opts.Scope == "" {
		opts.Scope = ScopeUser
	}
	switch {
	case opts.Home == "":
		return nil, errors.New("setup: no home directory")
	case opts.Scope != ScopeUser && opts.Scope != ScopeProject:
		return nil, fmt.Errorf("setup: scope %q: must be %s or %s", opts.Scope, ScopeUser, ScopeProject)
	case opts.Scope == ScopeProject && opts.Project == "":
		return nil, errors.New("setup: project scope needs the project's directory")
	case !opts.MCP && !opts.Proxy:
		return nil, errors.New("setup: neither the MCP server nor the proxy to set up")
	case opts.MCP && opts.Command == "":
		return nil, errors.New("setup: no winnow command for the MCP server")
	case opts.Proxy && opts.ProxyURL == "":
		return nil, errors.New("setup: no proxy URL")
	}
	p := &Plan{Client: client, Scope: opts.Scope}
	var err error
	switch client {
	case ClaudeCode:
		err = planClaude(p, opts)
	case Codex:
		err = planCodex(p, opts)
	default:
		return nil, fmt.Errorf("setup: unknown client %q: winnow sets up %s and %s", client, ClaudeCode, Codex)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Changed reports whether writing the plan would alter any file.
func (p *Plan) Changed() bool {
	for _, c := range p.Changes {
		if c.Changed() {
			return true
		}
	}
	return false
}

// A textDoc is the text of a configuration file being edited in place.
type textDoc interface{ bytes() []byte }

// editFile applies edit to the text path will have in the plan, as parse reads it. A file
// that does not parse, or that edit refuses, is not changed.
func editFile[D textDoc](p *Plan, path string, parse func([]byte) (D, error), edit func(D) error) error {
	c, err := p.change(path)
	if err != nil {
		return err
	}
	d, err := parse(c.New)
	if err == nil {
		err = edit(d)
	}
	if err != nil {
		return cannotEdit(path, err)
	}
	c.New = d.bytes()
	return nil
}

// change returns the plan's change of path, reading the file the first time.
func (p *Plan) change(path string) (*Change, error) {
	for _, c := range p.Changes {
		if c.Path == path {
			return c, nil
		}
	}
	c := &Change{Path: path, Mode: 0o644}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		c.Exists, c.Old, c.New = true, data, data
		if fi, err := os.Stat(path); err == nil {
			c.Mode = fi.Mode().Perm()
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	p.Changes = append(p.Changes, c)
	return c, nil
}

// Write writes every changed file of the plan: a backup of the file as it was first
// (when it existed), then the new text to a temporary file in the same directory,
// renamed over the old one. A file that changed since the plan read it is left alone
// and is an error: plan again. now names the backups.
func (p *Plan) Write(now time.Time) error {
	for _, c := range p.Changes {
		if !c.Changed() {
			continue
		}
		if err := c.write(now); err != nil {
			return err
		}
	}
	return nil
}

func (c *Change) write(now time.Time) error {
	cur, err := os.ReadFile(c.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", c.Path, err)
	}
	if exists != c.Exists || !bytes.Equal(cur, c.Old) {
		return fmt.Errorf("%s changed while winnow setup ran; nothing written to it: run winnow setup again", c.Path)
	}
	target := c.Path
	if exists {
		// A symbolic link (dotfiles kept in a repository) stays one: write its target.
		if target, err = filepath.EvalSymlinks(c.Path); err != nil {
			return fmt.Errorf("resolve %s: %w", c.Path, err)
		}
		if c.Backup, err = backup(c.Path, cur, c.Mode, now); err != nil {
			return err
		}
	} else if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(target), err)
	}
	if err := writeAtomic(target, c.New, c.Mode); err != nil {
		return err
	}
	c.Written = true
	return nil
}

// backup writes data to path.bak-YYYYMMDD-HHMMSS (-2, -3… if taken) and returns its name.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + ".bak-" + now.UTC().Format("20060102-150405")
	for n := 1; ; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		_, werr := f.Write(data)
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(name)
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		return name, nil
	}
}

// writeAtomic replaces path with data: readers see the old file or the new one, never
// a part.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".winnow-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Chmod(mode), f.Sync(), f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
