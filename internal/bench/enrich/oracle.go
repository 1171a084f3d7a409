package enrich

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/winnowhq/winnow/internal/agentcalls"
)

// lineRefRE matches the line numbers a line of output gives: at its start ("12:" or
// "Line 12:"), after a colon (":12:", ":12" at the end or before a space), after
// ", line ".
var lineRefRE = regexp.MustCompile(`(?:^\s*(?:Line )?|:|, line )(\d{1,7})(?::|,|\s|$)`)

// ceiling returns the turns of s that an inline could save at most, whatever the
// planner, and the Reads it counts in them: the turns whose every call is a Read that a
// result of an earlier turn names. An inline answers a Read only if something before it
// predicted the file and the lines it shows; what can predict them is a search, a
// listing or a shell's output (not a read or an edit, which show lines rather than name
// them) that mentions the file and, when the Read asks for a window, one of its lines.
//
// A result mentions a file when a line of it holds the file's path, its path relative
// to the directory the call searched, or its last two or more elements
// ("athena/models.py"); a search of the file itself mentions it on every line. A line
// names line N in the forms searches and tracebacks print (lineRefRE). The task's text
// is no result: a line an issue names (marshmallow's "fields.py#L1474") does not count.
//
// It bounds what predictions from named places can save, not every inline: a whole
// file that a listing names, inlined, would hold a window of it that no result names, and
// only that way can the turns saved exceed it.
func ceiling(s agentcalls.Session) (turns, reads int) {
	for i := 0; i < len(s.Calls); {
		j, all := i, true
		for ; j < len(s.Calls) && s.Calls[j].Turn == s.Calls[i].Turn; j++ {
			ok := s.Calls[j].Tool == agentcalls.Read && named(s.Calls[:i], &s.Calls[j])
			if ok {
				reads++
			}
			all = all && ok
		}
		if all {
			turns++
		}
		i = j
	}
	return turns, reads
}

// named reports whether one of the earlier calls' results names the file and window of
// the Read c.
func named(earlier []agentcalls.Call, c *agentcalls.Call) bool {
	file, _ := c.Args["file_path"].(string)
	if file == "" || !path.IsAbs(file) {
		return false
	}
	file = path.Clean(file)
	from, to := readLines(c.Args)
	for k := len(earlier) - 1; k >= 0; k-- {
		e := &earlier[k]
		switch e.Tool {
		case agentcalls.Read, agentcalls.Edit, agentcalls.Write:
			continue
		}
		if e.Error || e.Result == "" {
			continue
		}
		if names(e, file, from, to) {
			return true
		}
	}
	return false
}

// names reports whether the result of call e names file and, for a window (from > 1 or
// to > 0; to 0 is the file's end), a line of it.
func names(e *agentcalls.Call, file string, from, to int) bool {
	dir, _ := e.Args["path"].(string)
	onFile := dir != "" && path.Clean(dir) == file
	forms := mentions(file, dir)
	for line := range strings.Lines(e.Result) {
		if !onFile && !mentionsAny(line, forms) {
			continue
		}
		if from <= 1 && to == 0 {
			return true
		}
		for _, m := range lineRefRE.FindAllStringSubmatch(line, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n >= from && (to == 0 || n <= to) {
				return true
			}
		}
	}
	return false
}

// mentions returns the strings whose presence in a line mentions file: the path, the
// path relative to dir when dir holds it, and its suffixes of two or more elements.
func mentions(file, dir string) []string {
	forms := []string{file}
	if dir != "" {
		if rel, ok := strings.CutPrefix(file, path.Clean(dir)+"/"); ok {
			forms = append(forms, rel)
		}
	}
	parts := strings.Split(strings.TrimPrefix(file, "/"), "/")
	for k := 1; k+2 <= len(parts); k++ {
		forms = append(forms, strings.Join(parts[k:], "/"))
	}
	return forms
}

// mentionsAny reports whether line holds one of forms as a whole path: not preceded by
// a character of a name (so that "b.py" does not mention "ab.py").
func mentionsAny(line string, forms []string) bool {
	for _, f := range forms {
		for rest, off := line, 0; ; {
			i := strings.Index(rest, f)
			if i < 0 {
				break
			}
			at := off + i
			if at == 0 || !nameByte(line[at-1]) {
				end := at + len(f)
				if end == len(line) || !nameByte(line[end]) || line[end] == '.' && (end+1 == len(line) || !nameByte(line[end+1])) {
					return true
				}
			}
			rest, off = rest[i+1:], at+1
		}
	}
	return false
}

func nameByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// readLines returns the window a Read asks for: from..to, to 0 for the whole file.
func readLines(args map[string]any) (from, to int) {
	from = 1
	if n, ok := intOf(args["offset"]); ok && n > 1 {
		from = n
	}
	if n, ok := intOf(args["limit"]); ok && n > 0 {
		to = from + n - 1
	}
	return from, to
}

func intOf(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}
