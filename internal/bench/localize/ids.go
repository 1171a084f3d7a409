package localize

import "strings"

// splitID splits a function id "path.py:Qual.name" at its last colon:
// qualified names hold no colons, paths might.
func splitID(id string) (path, qual string, ok bool) {
	i := strings.LastIndexByte(id, ':')
	if i <= 0 || i == len(id)-1 {
		return "", "", false
	}
	return id[:i], id[i+1:], true
}

// normalize maps a function id to the form gold and results are compared
// in: a trailing ".__init__" names its class.
func normalize(id string) string {
	path, qual, ok := splitID(id)
	if !ok {
		return id
	}
	if cls, ok := strings.CutSuffix(qual, ".__init__"); ok && cls != "" {
		return path + ":" + cls
	}
	return id
}

// fileOf is the path of a function id; an id without a name is a path.
func fileOf(id string) string {
	if path, _, ok := splitID(id); ok {
		return path
	}
	return id
}

// moduleOf is the module of a function id, "path.py:TopLevelName".
func moduleOf(id string) string {
	path, qual, ok := splitID(id)
	if !ok {
		return id
	}
	top, _, _ := strings.Cut(qual, ".")
	return path + ":" + top
}

// bareName is the last part of a function id's qualified name.
func bareName(id string) string {
	_, qual, _ := splitID(id)
	return qual[strings.LastIndexByte(qual, '.')+1:]
}

// dedup maps each item with f and keeps the first appearance of each
// value, dropping empty ones.
func dedup(items []string, f func(string) string) []string {
	seen := make(map[string]bool, len(items))
	out := make([]string, 0, len(items))
	for _, it := range items {
		v := f(it)
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

func identity(s string) string { return s }
