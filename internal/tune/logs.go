package tune

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/agentcalls"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/tokens"
)

// Format names of the sources Mine reads, as LogReport counts them.
const (
	FormatClaudeCode = agentcalls.FormatClaudeCode
	FormatCodex      = agentcalls.FormatCodex
	FormatTrajectory = "trajectory" // what package traj reads: OpenHands, SWE-agent, SWE-smith, nebius
)

// maxExactBytes is the size above which a result's tokens are estimated rather than
// counted exactly (as telemetry does; exact counting runs at a few MB/s).
const maxExactBytes = 64 << 10

// sniffBytes is how much of a file tells whether it is a transcript.
const sniffBytes = 64 << 10

// A LogReport says what Mine read.
type LogReport struct {
	Files    int            `json:"files"`
	Sessions int            `json:"sessions"`
	Calls    int            `json:"calls"`
	ByFormat map[string]int `json:"sessions_by_format"`
	// SkippedLines counts transcript lines that were not JSON.
	SkippedLines int `json:"skipped_lines,omitempty"`
	// Failed lists the files that could not be read, with why.
	Failed []string `json:"failed,omitempty"`
}

// DefaultLogs returns the transcripts the agents keep under home: Claude Code's
// (claudeDir/projects/*/*.jsonl, claudeDir defaulting to home/.claude) and Codex's
// (codexHome/sessions/**/rollout-*.jsonl, codexHome defaulting to home/.codex).
func DefaultLogs(home, claudeDir, codexHome string) ([]string, error) {
	if claudeDir == "" {
		claudeDir = filepath.Join(home, ".claude")
	}
	if codexHome == "" {
		codexHome = filepath.Join(home, ".codex")
	}
	files, err := filepath.Glob(filepath.Join(claudeDir, "projects", "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	err = filepath.WalkDir(filepath.Join(codexHome, "sessions"), func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return filepath.SkipAll
		case err != nil:
			return err
		case d.Type().IsRegular() && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(d.Name(), ".jsonl"):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list Codex rollouts: %w", err)
	}
	slices.Sort(files)
	return files, nil
}

// A Miner turns agent sessions into Observations.
type Miner struct {
	Obs    *Observations
	Report LogReport
	count  tokens.Counter
	est    tokens.Estimator
}

// NewMiner returns a Miner with empty observations, counting tokens with o200k.
func NewMiner() (*Miner, error) {
	c, err := tokens.Exact(tokens.O200k)
	if err != nil {
		return nil, err
	}
	return &Miner{Obs: NewObservations(), Report: LogReport{ByFormat: map[string]int{}}, count: c, est: tokens.NewEstimator(tokens.O200k)}, nil
}

// ReadPaths reads every path: a file, or every file under a directory. Claude Code
// transcripts and Codex rollouts are told by their first lines; other .json, .jsonl and
// .traj files are read as trajectories (package traj), and a file that is none of them
// is counted as failed, with why, without stopping the rest.
func (m *Miner) ReadPaths(paths []string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("read agent logs: %w", err)
		}
		if !fi.IsDir() {
			m.readFile(p)
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && slices.Contains([]string{".json", ".jsonl", ".traj"}, filepath.Ext(f)) {
				files = append(files, f)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read agent logs under %s: %w", p, err)
		}
		slices.Sort(files)
		for _, f := range files {
			m.readFile(f)
		}
	}
	return nil
}

func (m *Miner) readFile(path string) {
	m.Report.Files++
	if err := m.readOne(path); err != nil {
		m.Report.Failed = append(m.Report.Failed, err.Error())
	}
}

func (m *Miner) readOne(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	head = head[:n]
	r := io.MultiReader(bytes.NewReader(head), f)
	var s agentcalls.Session
	var skipped int
	format := agentcalls.Sniff(head)
	switch format {
	case FormatClaudeCode:
		s, skipped, err = agentcalls.ReadClaudeCode(r, path)
	case FormatCodex:
		s, skipped, err = agentcalls.ReadCodex(r, path)
	default:
		return m.readTrajectories(path)
	}
	if err != nil {
		return err
	}
	m.Report.SkippedLines += skipped
	m.Add(format, s)
	return nil
}

func (m *Miner) readTrajectories(path string) error {
	ts, err := traj.LoadFile(path)
	if err != nil {
		return fmt.Errorf("%w (not a Claude Code transcript or a Codex rollout either)", err)
	}
	for _, t := range ts {
		s, err := agentcalls.FromTrajectory(t)
		if err != nil {
			return err
		}
		m.Add(FormatTrajectory, s)
	}
	return nil
}

// Add counts one session of the given format.
func (m *Miner) Add(format string, s agentcalls.Session) {
	steps := make([]Step, len(s.Calls))
	for i, c := range s.Calls {
		steps[i] = Step{Tool: GatewayName(c.Tool), Args: c.Args, Result: c.Result, Tokens: -1}
		if !c.Error {
			steps[i].Tokens = m.tokens(c.Result)
		}
	}
	m.Obs.Add(steps)
	if len(steps) > 0 {
		m.Report.Sessions++
		m.Report.ByFormat[format]++
		m.Report.Calls += len(steps)
	}
}

func (m *Miner) tokens(s string) int {
	if len(s) > maxExactBytes {
		return m.est.Count(s)
	}
	return m.count.Count(s)
}

// GatewayName is the name winnow's gateway gives the tool an agent log names: a client
// calls an MCP tool mcp__<server>__<tool>; through winnow (the server "winnow") <tool>
// is the gateway's own name (context, github__get_issue), and called directly it is
// the tool an upstream named <server> would have in the gateway, <server>__<tool>.
// Other names are the tools' own.
func GatewayName(tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__winnow__"); ok && rest != "" {
		return rest
	}
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok && strings.Contains(rest, "__") {
		return rest
	}
	return tool
}
