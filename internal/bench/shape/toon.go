package shape

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

//go:embed toon.mjs
var toonScript string

// A Toon runs the @toon-format/toon package with node.
type Toon struct {
	// Node is the node program; empty means "node" on PATH.
	Node string
	// Dirs are node_modules directories to find the package in, before
	// those in NODE_PATH.
	Dirs []string
}

// toonRun is what the script reports for one run.
type toonRun struct {
	Error   string       `json:"error"`
	Version string       `json:"version"`
	Module  string       `json:"module"`
	Node    string       `json:"node"`
	Results []toonResult `json:"results"`
}

// toonResult is TOON's output for one document.
type toonResult struct {
	Toon    string `json:"toon"`
	Decoded string `json:"decoded"` // JSON.stringify(decode(toon))
	JSEqual bool   `json:"jsEqual"`
	Error   string `json:"error"`
}

// errToonUnavailable marks the errors that mean TOON cannot run here at
// all, as opposed to failing on one document.
var errToonUnavailable = errors.New("toon: not available")

// encode runs TOON over docs in one node process.
func (t *Toon) encode(ctx context.Context, docs []string) (*toonRun, error) {
	node := t.Node
	if node == "" {
		node = "node"
	}
	path, err := exec.LookPath(node)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errToonUnavailable, err)
	}
	dirs := t.Dirs
	if dirs == nil {
		dirs = []string{}
	}
	in, err := json.Marshal(map[string]any{"dirs": dirs, "docs": docs})
	if err != nil {
		return nil, fmt.Errorf("toon input: %w", err)
	}
	cmd := exec.CommandContext(ctx, path, "--input-type=module", "-e", toonScript)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("run toon with %s: %w: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	var run toonRun
	if err := json.Unmarshal(stdout.Bytes(), &run); err != nil {
		return nil, fmt.Errorf("read toon output: %w", err)
	}
	if run.Error != "" {
		return nil, fmt.Errorf("%w: %s", errToonUnavailable, run.Error)
	}
	if len(run.Results) != len(docs) {
		return nil, fmt.Errorf("toon returned %d results for %d documents", len(run.Results), len(docs))
	}
	return &run, nil
}
