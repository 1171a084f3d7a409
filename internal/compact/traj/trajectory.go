package traj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Dialects: the wire format a Trajectory's messages are written in.
const (
	OpenAI    = "openai"    // Chat Completions messages
	Anthropic = "anthropic" // Messages API messages
)

// Formats: the shape of the file a Trajectory was read from.
const (
	// FormatOpenAIMessages is a list of Chat Completions messages: a plain
	// JSON array, or the "messages" of a record (ADP OpenHands records, a
	// request body).
	FormatOpenAIMessages = "openai-messages"
	// FormatAnthropicMessages is a list of Messages API messages: a plain
	// JSON array, or the "messages" of a record whose messages have
	// Anthropic block shapes or are text written by a Claude model (ADP
	// SWE-smith records).
	FormatAnthropicMessages = "anthropic-messages"
	// FormatNebius is an ADP record of nebius/SWE-agent-trajectories:
	// trajectory[] of {role: system|user|ai, text, system_prompt}.
	FormatNebius = "adp-nebius"
	// FormatSWEAgent is a SWE-agent .traj file: history[] in text form or
	// in function-calling form.
	FormatSWEAgent = "swe-agent"
)

// A Trajectory is one agent run as the list of messages its last request
// would have carried, in the wire format of Dialect. Messages are compact
// JSON; object members whose value is null are dropped when loading.
type Trajectory struct {
	Name    string // the file's base name, plus "#" and the record's id (or index) when the file holds several; unique within one file
	Source  string // the file it was read from
	Format  string // one of the Format constants
	Dialect string // OpenAI or Anthropic
	Model   string // the model that produced the run, when the data says; else empty
	// System is the system prompt of an Anthropic trajectory, which the
	// Messages API takes outside the messages. Always empty for OpenAI,
	// whose system prompt is a message.
	System   string
	Tools    []json.RawMessage // tool definitions in the dialect's format; often none
	Messages []json.RawMessage
}

// Load reads the trajectories in path: a file, or every *.json, *.jsonl
// and *.traj file under a directory (recursively, in lexical order,
// skipping names that start with "." or "_"). Other files, such as a
// README, are skipped. Every error names the file it comes from.
func Load(path string) ([]Trajectory, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load trajectories: %w", err)
	}
	if !info.IsDir() {
		return LoadFile(path)
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != path && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && isTrajectoryFile(name) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load trajectories from %s: %w", path, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("load trajectories from %s: no *.json, *.jsonl or *.traj files", path)
	}
	slices.Sort(files)
	var all []Trajectory
	for _, f := range files {
		ts, err := LoadFile(f)
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	return all, nil
}

func isTrajectoryFile(name string) bool {
	switch filepath.Ext(name) {
	case ".json", ".jsonl", ".traj":
		return true
	}
	return false
}

// LoadFile reads the trajectories of one file, whatever its format (see
// the package documentation). Errors name the file, and the record and
// message where the data went wrong.
func LoadFile(path string) ([]Trajectory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	ts, err := Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return ts, nil
}

// Parse reads the trajectories in data, which came from the file named
// source (used for names and nothing else). It recognises the format by
// its shape: see the package documentation.
func Parse(source string, data []byte) ([]Trajectory, error) {
	data = trimBOM(data)
	var ts []Trajectory
	var err error
	switch firstByte(data) {
	case '[':
		ts, err = parseArray(data)
	case '{':
		if filepath.Ext(source) == ".jsonl" {
			ts, err = parseLines(data)
		} else {
			ts, err = parseObject(data)
		}
	case 0:
		return nil, errors.New("empty file")
	default:
		return nil, errors.New("not JSON: want an array of records or messages, or an object")
	}
	if err != nil {
		return nil, err
	}
	base := filepath.Base(source)
	seen := make(map[string]int)
	for i := range ts {
		ts[i].Source = source
		name := base
		if ts[i].Name != "" {
			name += "#" + ts[i].Name
		} else if len(ts) > 1 {
			name += fmt.Sprintf("#%d", i)
		}
		if n := seen[name]; n > 0 {
			name += fmt.Sprintf("~%d", n)
		}
		seen[name]++
		ts[i].Name = name
	}
	return ts, nil
}

func trimBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte("\ufeff"))
}

// firstByte returns the first byte of data that is not JSON whitespace,
// or 0 if there is none.
func firstByte(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
