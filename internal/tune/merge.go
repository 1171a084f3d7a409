package tune

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/winnowhq/winnow/internal/setup"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// A Merge is what adding proposals to a configuration file would change. Only what the
// user has not written is added: a key set for the tool by any of the user's tables
// (its own, or a pattern such as "*" that matches it) is kept as it is, and nothing
// is ever replaced or removed. The file is edited as text (a new [tools."<name>"]
// table at the end, or new keys right under the tool's table header, each after a
// comment giving its reason), so comments and layout stay; every addition is checked
// by decoding the result, which must hold exactly the old values plus the new keys.
type Merge struct {
	Path     string
	Exists   bool
	Old, New []byte
	// Added lists the keys added ("tools.\"Read\".follow_up"), Kept those the user
	// sets already, Skipped those that could not be added safely, with why.
	Added   []string
	Kept    []string
	Skipped []string
	Mode    fs.FileMode
}

// mergeComment starts the comment above each added key.
const mergeComment = "winnow tune: "

// PlanMerge reads the configuration file at path (a missing file is empty) and plans
// adding ps to it. It writes nothing.
func PlanMerge(path string, ps []Proposal) (*Merge, error) {
	m := &Merge{Path: path, Mode: 0o600}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		m.Exists, m.Old = true, data
		if fi, err := os.Stat(path); err == nil {
			m.Mode = fi.Mode().Perm()
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	old, err := decodeTOML(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: fix it before winnow tune writes to it", path, err)
	}
	tools, ok := old["tools"].(map[string]any)
	if _, there := old["tools"]; there && !ok {
		return nil, fmt.Errorf("%s: tools is not a table: fix it before winnow tune writes to it", path)
	}
	m.New = data
	for _, p := range ps {
		var add []Change
		for _, c := range p.Changes {
			name := keyName(p.Tool, c.Key)
			switch {
			case userSets(tools, p.Tool, c.Key):
				m.Kept = append(m.Kept, name)
			case sizeConflict(tools, p.Tool, c) != "":
				m.Skipped = append(m.Skipped, name+": "+sizeConflict(tools, p.Tool, c))
			default:
				add = append(add, c)
			}
		}
		if len(add) > 0 {
			m.addTool(p.Tool, add, tools[p.Tool] != nil)
		}
	}
	return m, nil
}

func keyName(tool, key string) string { return "tools." + tomlString(tool) + "." + key }

// userSets reports whether any of the user's [tools] tables that applies to tool sets
// key (dotted: "cost_model.max_tokens").
func userSets(tools map[string]any, tool, key string) bool {
	for pattern, v := range tools {
		r := toolvalue.Rule{Pattern: pattern}
		if r.Matches(tool) && hasPath(v, strings.Split(key, ".")) {
			return true
		}
	}
	return false
}

// sizeConflict says why a size the user has not set cannot be added beside the one
// they have: max_tokens may not be below typical_tokens.
func sizeConflict(tools map[string]any, tool string, c Change) string {
	v, ok := c.Value.(int)
	if !ok {
		return ""
	}
	switch c.Key {
	case "cost_model.max_tokens":
		if t, ok := userInt(tools, tool, "cost_model.typical_tokens"); ok && v < t {
			return fmt.Sprintf("%d would be below the typical_tokens = %d you set; left out", v, t)
		}
	case "cost_model.typical_tokens":
		if mx, ok := userInt(tools, tool, "cost_model.max_tokens"); ok && v > mx {
			return fmt.Sprintf("%d would be above the max_tokens = %d you set; left out", v, mx)
		}
	}
	return ""
}

// userInt returns the integer the user's tables set for tool at key: the tool's own
// table's, else a pattern's.
func userInt(tools map[string]any, tool, key string) (int, bool) {
	path := strings.Split(key, ".")
	get := func(v any) (int, bool) {
		for _, k := range path {
			m, ok := v.(map[string]any)
			if !ok {
				return 0, false
			}
			v = m[k]
		}
		n, ok := v.(int64)
		return int(n), ok
	}
	if n, ok := get(tools[tool]); ok {
		return n, true
	}
	for pattern, v := range tools {
		if r := (toolvalue.Rule{Pattern: pattern}); r.Matches(tool) {
			if n, ok := get(v); ok {
				return n, true
			}
		}
	}
	return 0, false
}

func hasPath(v any, path []string) bool {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[k]; !ok {
			return false
		}
	}
	return true
}

// addTool adds the changes for one tool: a new table at the end when the user has none
// for it, else each key under the table's header. A key whose addition does not decode
// to exactly the old values plus itself is skipped.
func (m *Merge) addTool(tool string, add []Change, exists bool) {
	header := "[tools." + tomlString(tool) + "]\n"
	if !exists {
		var b strings.Builder
		if len(m.New) > 0 {
			if !bytes.HasSuffix(m.New, []byte("\n")) {
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
		b.WriteString(header)
		for _, c := range add {
			writeChange(&b, c, mergeComment)
		}
		next := append(bytes.Clone(m.New), b.String()...)
		if err := checkAdded(m.New, next, header, add); err != nil {
			for _, c := range add {
				m.Skipped = append(m.Skipped, fmt.Sprintf("%s: a new table at the end would not decode as intended (%v); add it by hand", keyName(tool, c.Key), err))
			}
			return
		}
		m.New = next
		for _, c := range add {
			m.Added = append(m.Added, keyName(tool, c.Key))
		}
		return
	}
	at := headerEnd(m.New, tool)
	for _, c := range add {
		if at < 0 {
			m.Skipped = append(m.Skipped, fmt.Sprintf("%s: the tool's table is written inline or with dotted keys, not as [tools.%s]; add it by hand", keyName(tool, c.Key), tomlString(tool)))
			continue
		}
		var b strings.Builder
		writeChange(&b, c, mergeComment)
		next := slices.Concat(m.New[:at], []byte(b.String()), m.New[at:])
		if err := checkAdded(m.New, next, header, []Change{c}); err != nil {
			m.Skipped = append(m.Skipped, fmt.Sprintf("%s: adding it under the tool's table would not decode as intended (%v); add it by hand", keyName(tool, c.Key), err))
			continue
		}
		m.New = next
		at += b.Len() // the next key goes after this one
		m.Added = append(m.Added, keyName(tool, c.Key))
	}
}

// headerEnd returns the offset just past the line that is the header [tools."<tool>"],
// however it is spelled, or -1.
func headerEnd(text []byte, tool string) int {
	off := 0
	for line := range strings.Lines(string(text)) {
		off += len(line)
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[[") {
			continue
		}
		v, err := decodeTOML([]byte(t + "\n"))
		if err != nil {
			continue
		}
		tools, _ := v["tools"].(map[string]any)
		if len(v) == 1 && len(tools) == 1 && tools[tool] != nil {
			if inner, ok := tools[tool].(map[string]any); ok && len(inner) == 0 {
				if !strings.HasSuffix(line, "\n") {
					return -1 // the header is the last line, without a newline: append instead
				}
				return off
			}
		}
	}
	return -1
}

// checkAdded reports whether next decodes to exactly what old decodes to plus the
// keys of add under header.
func checkAdded(old, next []byte, header string, add []Change) error {
	want, err := decodeTOML(old)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(header)
	for _, c := range add {
		writeChange(&b, c, "")
	}
	extra, err := decodeTOML([]byte(b.String()))
	if err != nil {
		return err
	}
	if err := mergeNew(want, extra); err != nil {
		return err
	}
	got, err := decodeTOML(next)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(want, got) {
		return errors.New("other values would change")
	}
	return nil
}

// mergeNew adds the keys of extra to dst, refusing to replace a value.
func mergeNew(dst, extra map[string]any) error {
	for k, v := range extra {
		cur, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		cm, ok1 := cur.(map[string]any)
		vm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s is set already", k)
		}
		if err := mergeNew(cm, vm); err != nil {
			return fmt.Errorf("%s.%w", k, err)
		}
	}
	return nil
}

// decodeTOML decodes a document into plain maps (an empty one for no text).
func decodeTOML(data []byte) (map[string]any, error) {
	v := map[string]any{}
	if _, err := toml.Decode(string(data), &v); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return v, nil
}

// Changed reports whether writing would alter the file.
func (m *Merge) Changed() bool { return !bytes.Equal(m.Old, m.New) }

// Diff is the unified diff from the file now to the file after, with name standing for
// its path in the headers; "" when nothing changes.
func (m *Merge) Diff(name string) string {
	if !m.Changed() {
		return ""
	}
	c := &setup.Change{Path: m.Path, Exists: m.Exists, Old: m.Old, New: m.New}
	return c.Diff(name)
}

// Write writes the new text, after a backup of the old file (path.bak-YYYYMMDD-HHMMSS,
// when there was one), and returns the backup's name. A file that changed since
// PlanMerge read it is left alone and is an error. now names the backup.
func (m *Merge) Write(now time.Time) (backup string, err error) {
	if !m.Changed() {
		return "", nil
	}
	cur, err := os.ReadFile(m.Path)
	if exists := err == nil; exists != m.Exists || !bytes.Equal(cur, m.Old) {
		return "", fmt.Errorf("%s changed while winnow tune ran; nothing written to it: run winnow tune again", m.Path)
	}
	c := &setup.Change{Path: m.Path, Exists: m.Exists, Old: m.Old, New: m.New, Mode: m.Mode}
	if err := (&setup.Plan{Changes: []*setup.Change{c}}).Write(now); err != nil {
		return "", err
	}
	return c.Backup, nil
}
