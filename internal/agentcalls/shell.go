package agentcalls

import (
	"path"
	"strings"
)

// shell maps a shell command line to a canonical call: the reads, searches and listings
// agents run through their shell become Read, Grep, Glob and LS; anything else is Bash.
// cwd is the shell's directory, when known, to make relative paths absolute.
func shell(command, cwd string) (tool string, args map[string]any) {
	bash := map[string]any{"command": command}
	cmds, ok := splitCommands(command)
	if !ok {
		return Bash, bash
	}
	// Leading "cd DIR" commands only move the shell.
	for len(cmds) > 1 {
		w := cmds[0]
		if len(w) != 1 || len(w[0]) != 2 || w[0][0] != "cd" {
			break
		}
		cwd = absPath(w[0][1], cwd)
		cmds = cmds[1:]
	}
	if len(cmds) != 1 {
		return Bash, bash
	}
	stages := cmds[0]
	for _, s := range stages[1:] {
		if !isFilter(s) {
			if t, a, ok := findXargsGrep(stages, cwd); ok {
				return t, a
			}
			return Bash, bash
		}
	}
	if t, a, ok := readSearchList(stages[0], cwd); ok {
		return t, a
	}
	return Bash, bash
}

// isFilter reports whether a pipeline stage only narrows or orders the lines before it,
// so that the pipeline still lists what its first command does.
func isFilter(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "sort", "uniq", "head", "tail":
		return true
	case "grep", "egrep":
		for _, w := range words[1:] {
			if w == "-c" || w == "--count" {
				return false
			}
		}
		return true
	}
	return false
}

// readSearchList maps one command that reads, searches or lists files.
func readSearchList(w []string, cwd string) (string, map[string]any, bool) {
	if len(w) == 0 {
		return "", nil, false
	}
	switch w[0] {
	case "cat":
		files := operands(w[1:], nil)
		if len(files) == 1 && allFlagsIn(w[1:], "-n") {
			return Read, map[string]any{"file_path": absPath(files[0], cwd)}, true
		}
	case "sed":
		return sedRead(w[1:], cwd)
	case "head":
		return headRead(w[1:], cwd)
	case "grep", "egrep", "rg":
		return grepCall(w, cwd)
	case "find":
		return findCall(w[1:], cwd)
	case "ls", "tree":
		dirs := operands(w[1:], map[string]bool{"-I": true, "-L": true})
		switch len(dirs) {
		case 0:
			return LS, pathArgs("path", cwd), true
		case 1:
			return LS, pathArgs("path", absPath(dirs[0], cwd)), true
		}
	}
	return "", nil, false
}

// sedRead maps `sed -n 'A,Bp' FILE`.
func sedRead(w []string, cwd string) (string, map[string]any, bool) {
	if len(w) != 3 || w[0] != "-n" {
		return "", nil, false
	}
	a, b, ok := strings.Cut(strings.TrimSuffix(w[1], "p"), ",")
	if !ok || !strings.HasSuffix(w[1], "p") {
		return "", nil, false
	}
	from, ok1 := atoi(a)
	to, ok2 := atoi(b)
	if !ok1 || !ok2 || from < 1 || to < from {
		return "", nil, false
	}
	return Read, window(absPath(w[2], cwd), from, to-from+1), true
}

// headRead maps `head [-n N | -N] FILE`.
func headRead(w []string, cwd string) (string, map[string]any, bool) {
	n := 10
	var files []string
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] == "-n" && i+1 < len(w):
			v, ok := atoi(w[i+1])
			if !ok {
				return "", nil, false
			}
			n = v
			i++
		case strings.HasPrefix(w[i], "-"):
			v, ok := atoi(strings.TrimPrefix(strings.TrimPrefix(w[i], "-n"), "-"))
			if !ok {
				return "", nil, false
			}
			n = v
		default:
			files = append(files, w[i])
		}
	}
	if len(files) != 1 || n < 1 {
		return "", nil, false
	}
	return Read, window(absPath(files[0], cwd), 1, n), true
}

// grepValueFlags are grep's and ripgrep's short options that take a value.
var grepValueFlags = map[string]bool{
	"-e": true, "-f": true, "-A": true, "-B": true, "-C": true, "-m": true,
	"-g": true, "-t": true, "-T": true, "--include": true, "--exclude": true, "--glob": true,
}

// grepCall maps `grep [options] PATTERN [PATH...]` (and egrep, rg). Several paths make
// it Bash, since a canonical Grep searches one, and so do -c and -q, which print a count
// or nothing instead of the hits.
func grepCall(w []string, cwd string) (string, map[string]any, bool) {
	var pattern, glob string
	var ops []string
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "--":
			ops = append(ops, w[i+1:]...)
			i = len(w)
		case (a == "-e" || a == "--regexp") && i+1 < len(w):
			pattern = w[i+1]
			i++
		case strings.HasPrefix(a, "--include="), strings.HasPrefix(a, "--glob="):
			_, glob, _ = strings.Cut(a, "=")
		case (a == "--include" || a == "-g" || a == "--glob") && i+1 < len(w):
			glob = w[i+1]
			i++
		case a == "-c" || a == "--count" || a == "-q" || a == "--quiet":
			return "", nil, false // a count or a status, not the hits
		case grepValueFlags[a] && i+1 < len(w):
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			ops = append(ops, a)
		}
	}
	if pattern == "" {
		if len(ops) == 0 {
			return "", nil, false
		}
		pattern, ops = ops[0], ops[1:]
	}
	args := map[string]any{"pattern": pattern}
	switch len(ops) {
	case 0:
		if cwd != "" {
			args["path"] = cwd
		}
	case 1:
		args["path"] = absPath(ops[0], cwd)
	default:
		return "", nil, false
	}
	if glob != "" {
		args["glob"] = glob
	}
	return Grep, args, true
}

// findCall maps `find [DIR] [-type T] [-name|-iname|-path PATTERN]`: a Glob. Actions
// (-exec, -delete) make it Bash.
func findCall(w []string, cwd string) (string, map[string]any, bool) {
	dir := cwd
	if len(w) > 0 && !strings.HasPrefix(w[0], "-") {
		dir = absPath(w[0], cwd)
		w = w[1:]
	}
	pattern := "**"
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case "-name", "-iname", "-path", "-wholename":
			if i+1 >= len(w) {
				return "", nil, false
			}
			pattern = w[i+1]
			i++
		case "-type", "-maxdepth", "-mindepth", "-size", "-mtime", "-newer":
			i++
		case "-not", "!", "-o", "-or", "-a", "-and", "(", ")", "-print":
		default:
			return "", nil, false
		}
	}
	args := map[string]any{"pattern": pattern}
	if dir != "" {
		args["path"] = dir
	}
	return Glob, args, true
}

// findXargsGrep maps `find DIR -name G | xargs grep [options] PATTERN [| filters]`: a
// Grep of DIR's files matching G.
func findXargsGrep(stages [][]string, cwd string) (string, map[string]any, bool) {
	if len(stages) < 2 || len(stages[0]) == 0 || stages[0][0] != "find" {
		return "", nil, false
	}
	g := -1
	for i, s := range stages[1:] {
		switch {
		case len(s) > 1 && s[0] == "xargs" && (s[1] == "grep" || s[1] == "egrep"):
			if g >= 0 {
				return "", nil, false
			}
			g = i + 1
		case !isFilter(s):
			return "", nil, false
		}
	}
	if g < 0 {
		return "", nil, false
	}
	_, found, ok := findCall(stages[0][1:], cwd)
	if !ok {
		return "", nil, false
	}
	_, grep, ok := grepCall(stages[g][1:], "")
	if !ok || grep["path"] != nil {
		return "", nil, false
	}
	args := map[string]any{"pattern": grep["pattern"]}
	if p, ok := found["path"]; ok {
		args["path"] = p
	}
	if p := found["pattern"]; p != "**" {
		args["glob"] = p
	}
	return Grep, args, true
}

// operands returns the words that are not options; valued names the options that take
// the next word as their value.
func operands(w []string, valued map[string]bool) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		switch {
		case valued[w[i]]:
			i++
		case strings.HasPrefix(w[i], "-") && len(w[i]) > 1:
		default:
			out = append(out, w[i])
		}
	}
	return out
}

// allFlagsIn reports whether every option among w is one of allowed.
func allFlagsIn(w []string, allowed ...string) bool {
	for _, a := range w {
		if strings.HasPrefix(a, "-") && len(a) > 1 && !contains(allowed, a) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// window returns the arguments of a Read of lines [from, from+n).
func window(file string, from, n int) map[string]any {
	args := map[string]any{"file_path": file}
	if from > 1 {
		args["offset"] = from
	}
	if n > 0 {
		args["limit"] = n
	}
	return args
}

func pathArgs(key, p string) map[string]any {
	if p == "" {
		return map[string]any{}
	}
	return map[string]any{key: p}
}

// absPath resolves p against cwd when p is relative and cwd known, and cleans it.
func absPath(p, cwd string) string {
	if p == "" {
		return cwd
	}
	if !path.IsAbs(p) && cwd != "" && !strings.HasPrefix(p, "~") {
		p = path.Join(cwd, p)
	}
	return path.Clean(p)
}

// splitCommands splits a command line into commands (separated by ";", "&&", "||" or
// newlines), each a pipeline of stages, each stage its words with quotes removed. It
// reports false for what it does not read: subshells, substitutions, redirections, here
// documents, unbalanced quotes.
func splitCommands(line string) ([][][]string, bool) {
	var cmds [][][]string
	var stages [][]string
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endStage := func() bool {
		endWord()
		if len(words) == 0 {
			return false
		}
		stages = append(stages, words)
		words = nil
		return true
	}
	endCmd := func() bool {
		if len(words) == 0 && !inWord && len(stages) == 0 {
			return true // an empty command: "a;;b" or a trailing newline
		}
		if !endStage() {
			return false
		}
		cmds = append(cmds, stages)
		stages = nil
		return true
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				} else if line[j] == '$' || line[j] == '`' {
					return nil, false
				}
			}
			if j >= len(line) {
				return nil, false
			}
			word.WriteString(strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(line[i+1 : j]))
			inWord = true
			i = j
		case '\\':
			if i+1 < len(line) {
				if line[i+1] != '\n' {
					word.WriteByte(line[i+1])
					inWord = true
				}
				i++
			}
		case ' ', '\t':
			endWord()
		case '\n', ';':
			if !endCmd() {
				return nil, false
			}
		case '&':
			if i+1 < len(line) && line[i+1] == '&' {
				if !endCmd() {
					return nil, false
				}
				i++
				continue
			}
			return nil, false
		case '|':
			if i+1 < len(line) && line[i+1] == '|' {
				if !endCmd() {
					return nil, false
				}
				i++
				continue
			}
			if !endStage() {
				return nil, false
			}
		case '>':
			// Only stderr thrown away or merged keeps the output what the command lists.
			rest, ok := strings.CutPrefix(line[i+1:], "/dev/null")
			if !ok {
				rest, ok = strings.CutPrefix(line[i+1:], "&1")
			}
			if !ok || !inWord || word.String() != "2" {
				return nil, false
			}
			word.Reset()
			inWord = false
			i = len(line) - len(rest) - 1
		case '<', '(', ')', '`', '$':
			return nil, false
		case '#':
			if !inWord {
				i = len(line)
				continue
			}
			word.WriteByte(c)
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if !endCmd() {
		return nil, false
	}
	return cmds, len(cmds) > 0
}
