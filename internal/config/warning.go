package config

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// A Warning is a problem in a configuration file that does not stop winnow: a key the schema
// does not have, or a user-only setting in a repository file ([UserOnly]); either is ignored.
type Warning struct {
	File string `json:"file"`
	Line int    `json:"line"` // 1-based; 0 if the line could not be found
	Key  string `json:"key"`  // dotted, as in index.max_file_bytes
	Msg  string `json:"msg"`
}

// String formats w as file:line: message.
func (w Warning) String() string {
	if w.Line == 0 {
		return fmt.Sprintf("%s: %s", w.File, w.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
}

// unknownKeys turns the keys the decoder did not use into warnings with their lines. A key
// under an unknown table is not reported again: [foo] with three keys is one warning.
func unknownKeys(doc, file string, undecoded []toml.Key) []Warning {
	if len(undecoded) == 0 {
		return nil
	}
	lines := make(map[string][]int) // key → line of each occurrence, in order
	for _, kl := range keyLines(doc) {
		lines[kl.key] = append(lines[kl.key], kl.line)
	}
	unknown := make(map[string]bool, len(undecoded))
	for _, k := range undecoded {
		unknown[k.String()] = true
	}
	known := append(knownKeys(), toolKnownKeys(undecoded)...)
	seen := make(map[string]int) // key → occurrences reported so far
	var warns []Warning
	for _, k := range undecoded {
		name := k.String()
		n := seen[name]
		seen[name]++
		if underUnknown(k, unknown) {
			continue
		}
		line := 0
		if n < len(lines[name]) {
			line = lines[name][n]
		}
		msg := fmt.Sprintf("unknown key %s (ignored)", name)
		if s := suggest(k, known); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
		warns = append(warns, Warning{File: file, Line: line, Key: name, Msg: msg})
	}
	return warns
}

// underUnknown reports whether a table enclosing k is itself unknown.
func underUnknown(k toml.Key, unknown map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if unknown[k[:i].String()] {
			return true
		}
	}
	return false
}

// knownKeys returns every key of the schema, tables included, read off the TOML form of the
// defaults so that it cannot drift from the struct tags.
func knownKeys() []toml.Key {
	var b strings.Builder
	if err := Default().WriteTOML(&b); err != nil {
		return nil
	}
	md, err := toml.Decode(b.String(), &map[string]any{})
	if err != nil {
		return nil
	}
	return md.Keys()
}

// suggest returns the known key the user probably meant by k, or "": the same name in
// another table (max_file_bytes at the top level → index.max_file_bytes), else a name in the
// same table at most two edits away (index.wokers → index.workers).
func suggest(k toml.Key, known []toml.Key) string {
	leaf, parent := k[len(k)-1], k[:len(k)-1].String()
	for _, c := range known {
		if c[len(c)-1] == leaf && c.String() != k.String() {
			return c.String()
		}
	}
	best, bestDist := "", 3
	for _, c := range known {
		if c[:len(c)-1].String() != parent {
			continue
		}
		if d := editDistance(leaf, c[len(c)-1]); d < bestDist && d < len(leaf) {
			best, bestDist = c.String(), d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counted in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
