package agentcalls

import (
	"regexp"
	"strings"
)

// mapper maps an agent's calls to canonical ones, in order, keeping the state its tools
// keep: the shell's directory and SWE-agent's open file, both read from the status lines
// SWE-agent appends to every observation.
type mapper struct {
	cwd  string
	open string
}

func (m *mapper) canonical(c agentCall) Call {
	out := Call{Raw: c.raw, Result: c.result, Error: c.isError || errorResult(c.result), Agent: c.name, Turn: c.turn}
	switch c.name {
	case "str_replace_editor":
		out.Agent += " " + str(c.args, "command")
		out.Tool, out.Args = m.editor(c)
	case "execute_bash", "bash":
		out.Tool, out.Args = shell(str(c.args, "command"), m.cwd)
	case "open", "goto", "scroll_up", "scroll_down":
		out.Tool, out.Args = m.window(c)
	case "create":
		out.Tool, out.Args = Write, map[string]any{"file_path": absPath(str(c.args, "filename"), m.cwd)}
	case "edit", "insert":
		out.Tool, out.Args = Edit, pathArgs("file_path", m.open)
	case "find_file":
		out.Tool, out.Args = Glob, map[string]any{"pattern": str(c.args, "file_name")}
		if d := absPath(str(c.args, "dir"), m.cwd); d != "" {
			out.Args["path"] = d
		}
	case "search_dir":
		out.Tool, out.Args = Grep, map[string]any{"pattern": str(c.args, "search_term")}
		if d := absPath(str(c.args, "dir"), m.cwd); d != "" {
			out.Args["path"] = d
		}
	case "search_file":
		f := m.open
		if s := str(c.args, "file"); s != "" {
			f = absPath(s, m.cwd)
		}
		out.Tool, out.Args = Grep, map[string]any{"pattern": str(c.args, "search_term")}
		if f != "" {
			out.Args["path"] = f
		}
	default:
		out.Tool, out.Args = c.name, cloneArgs(c.args)
	}
	m.observe(c.result)
	return out
}

// editor maps a call of the str_replace_editor tool (OpenHands, SWE-smith).
func (m *mapper) editor(c agentCall) (string, map[string]any) {
	p := absPath(str(c.args, "path"), m.cwd)
	switch str(c.args, "command") {
	case "view":
		if isDirectoryView(c.result) {
			return LS, pathArgs("path", p)
		}
		from, to := viewRange(c.args["view_range"])
		n := 0
		if to >= from {
			n = to - from + 1
		}
		return Read, window(p, from, n)
	case "create":
		return Write, map[string]any{"file_path": p}
	case "str_replace", "insert", "undo_edit":
		return Edit, map[string]any{"file_path": p}
	}
	return c.name, cloneArgs(c.args)
}

// isDirectoryView reports whether a view's result is a directory listing, or the error a
// view of a directory with a line range gets.
func isDirectoryView(result string) bool {
	return strings.Contains(result, "files and directories up to 2 levels deep") ||
		strings.Contains(result, "parameter is not allowed when `path` points to a directory")
}

// viewRange reads a view_range [from, to]; to is -1 for "to the end" and returned as 0.
func viewRange(v any) (from, to int) {
	r, ok := v.([]any)
	if !ok || len(r) != 2 {
		return 1, 0
	}
	a, ok1 := num(map[string]any{"v": r[0]}, "v")
	b, ok2 := num(map[string]any{"v": r[1]}, "v")
	if !ok1 || !ok2 {
		return 1, 0
	}
	if b < 0 {
		b = 0
	}
	return max(a, 1), b
}

// window maps SWE-agent's window commands (open, goto, scroll_up, scroll_down) to a Read
// of the lines the window showed, read from the result. An open without a line asks for
// the file from its top, and a window showing the whole file is the whole file: both are a
// Read of the file, without a window, whatever the length SWE-agent shows.
func (m *mapper) window(c agentCall) (string, map[string]any) {
	file := m.open
	if c.name == "open" {
		file = absPath(str(c.args, "path"), m.cwd)
	}
	w, ok := parseWindow(c.result)
	if ok && w.file != "" {
		file = absPath(w.file, m.cwd)
	}
	if !ok {
		// No window shown (the file does not exist, no file open): the call as asked.
		args := pathArgs("file_path", file)
		if n, ok := num(c.args, "line_number"); ok && n > 1 {
			args["offset"] = n
		}
		return Read, args
	}
	if c.name == "open" && c.args["line_number"] == nil || w.first <= 1 && w.last >= w.total {
		// The file from its top, as asked: SWE-agent shows its first 100 lines, the
		// whole of a short file.
		return Read, pathArgs("file_path", file)
	}
	return Read, window(file, w.first, w.last-w.first+1)
}

// A shownWindow is what a SWE-agent window observation shows.
type shownWindow struct {
	file        string
	total       int
	first, last int
}

var (
	fileHeaderRE = regexp.MustCompile(`(?m)^\[File: (.+) \((\d+) lines total\)\]`)
	numberedRE   = regexp.MustCompile(`(?m)^(\d+):`)
	openFileRE   = regexp.MustCompile(`(?m)^\(Open file: (.+)\)\s*$`)
	cwdRE        = regexp.MustCompile(`(?m)^\(Current directory: (.+)\)\s*$`)
)

// parseWindow reads the "[File: PATH (N lines total)]" header and the numbered lines of a
// SWE-agent window.
func parseWindow(result string) (shownWindow, bool) {
	h := fileHeaderRE.FindStringSubmatch(result)
	if h == nil {
		return shownWindow{}, false
	}
	w := shownWindow{file: strings.TrimSpace(h[1])}
	w.total, _ = atoi(h[2])
	nums := numberedRE.FindAllStringSubmatch(result, -1)
	if len(nums) == 0 {
		return w, w.total <= 1 // an empty file shows no lines
	}
	w.first, _ = atoi(nums[0][1])
	w.last, _ = atoi(nums[len(nums)-1][1])
	return w, w.last >= w.first
}

// observe updates the state from SWE-agent's status lines.
func (m *mapper) observe(result string) {
	if s := cwdRE.FindStringSubmatch(result); s != nil {
		m.cwd = strings.TrimSpace(s[1])
	}
	if s := openFileRE.FindStringSubmatch(result); s != nil {
		if f := strings.TrimSpace(s[1]); f != "n/a" {
			m.open = absPath(f, m.cwd)
		}
	}
}

// errorResult reports whether a result is an error a tool wrote in place of its output.
func errorResult(result string) bool {
	r := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(result), "OBSERVATION:"))
	for _, p := range []string{"ERROR:", "Error:", "Usage:"} {
		if strings.HasPrefix(r, p) {
			return true
		}
	}
	return strings.Contains(r, "Your proposed edit has introduced new syntax error")
}

// sweCommand reads a SWE-agent command line (its first line; an edit's replacement text
// follows on the next lines). Lines that are not SWE-agent commands are shell commands.
func sweCommand(cmd string) (string, map[string]any) {
	first, rest, _ := strings.Cut(cmd, "\n")
	w := fields(first)
	if len(w) == 0 {
		return "bash", map[string]any{"command": cmd}
	}
	arg := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	set := func(args map[string]any, key string, i int) map[string]any {
		if v := arg(i); v != "" {
			args[key] = v
		}
		return args
	}
	switch name := w[0]; name {
	case "open":
		a := set(map[string]any{}, "path", 1)
		if n, ok := atoi(arg(2)); ok {
			a["line_number"] = n
		}
		return name, a
	case "goto":
		a := map[string]any{}
		if n, ok := atoi(arg(1)); ok {
			a["line_number"] = n
		}
		return name, a
	case "scroll_up", "scroll_down", "submit":
		return name, map[string]any{}
	case "create":
		return name, set(map[string]any{}, "filename", 1)
	case "find_file":
		return name, set(set(map[string]any{}, "file_name", 1), "dir", 2)
	case "search_dir":
		return name, set(set(map[string]any{}, "search_term", 1), "dir", 2)
	case "search_file":
		return name, set(set(map[string]any{}, "search_term", 1), "file", 2)
	case "edit":
		return name, map[string]any{"range": arg(1), "replacement": strings.TrimSuffix(rest, "end_of_edit")}
	}
	return "bash", map[string]any{"command": cmd}
}

// fields splits a line into words, with quotes removed, as a shell would; a line the
// shell reader does not take is split at spaces.
func fields(line string) []string {
	if cmds, ok := splitCommands(line); ok && len(cmds) == 1 && len(cmds[0]) == 1 {
		return cmds[0][0]
	}
	return strings.Fields(line)
}
