package toolvalue

import (
	"path"
	"strconv"
	"strings"
)

// What the text of a result lists: paths, places in files, URLs. Projections read them
// (result.paths, result.hits.*, result.urls), and the planner reads the places recent
// results point at.

// ListedPaths returns the file paths text lists one per line, in order and without
// repeats: a line that is a path, or that starts with "path:<line>:" (grep -n) or
// "path:" (grep -l style with text after it), a file entry of server-filesystem's
// list_directory ("[FILE] name") or list_directory_with_sizes ("[FILE] name   1.20 KB"),
// or a file of SWE-agent's search_dir ("path (3 matches)"). Lines that are prose, "[DIR]"
// entries and ls -R's "dir:" headers are skipped. A path has no spaces, quotes,
// brackets, parentheses or "=", and has a slash or a file's extension (see
// looksLikePath): names a traceback or a log prints, such as
// json.decoder.JSONDecodeError, super().run() or query.id, are not paths.
func ListedPaths(text string) []string {
	var out []string
	seen := map[string]bool{}
	for line := range strings.Lines(text) {
		if p := listedPath(strings.TrimSpace(line)); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// listedPath returns the path a line of a listing or a search names, or "".
func listedPath(line string) string {
	if name, ok := strings.CutPrefix(line, "[FILE] "); ok {
		line = trimSize(name)
	}
	line = trimMatches(line)
	if strings.IndexByte(line, ':') == len(line)-1 {
		return "" // ls -R's directory header, or a label
	}
	cand := line
	if i := strings.IndexByte(line, ':'); i > 0 {
		rest := line[i+1:]
		if j := strings.IndexByte(rest, ':'); j > 0 {
			if _, err := strconv.Atoi(rest[:j]); err == nil {
				cand = line[:i]
			}
		}
		if cand == line && !looksLikePath(line) {
			cand = line[:i]
		}
	}
	if !looksLikePath(cand) {
		return ""
	}
	return cand
}

// looksLikePath reports whether s may be a file's path: no spaces, quotes, brackets,
// parentheses or punctuation of code ("=", ",", ";"), and either a slash (a directory
// of it) or an extension a file has (see fileExt).
func looksLikePath(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, " \t\"'<>|*?()[]{}=,;`") {
		return false
	}
	if strings.Contains(s, "/") {
		ext := path.Ext(s)
		return ext == "" || fileExt(ext[1:]) || plainExt(ext[1:])
	}
	ext := path.Ext(s)
	return ext != "" && fileExt(ext[1:])
}

// fileExts are the extensions that make a name without a slash a file's name. A name
// without a slash is taken for a file only with one of them: a dotted name in a
// traceback or a log is a module, an attribute or an exception far more often
// (json.decoder.JSONDecodeError, query.id, os.path).
var fileExts = wordSet(`
		go mod sum py pyi pyx pxd ipynb js mjs cjs jsx ts tsx vue svelte java kt kts scala groovy
		c h cc cpp cxx hh hpp hxx m mm cs fs vb swift rs rb php pl pm lua r jl dart ex exs erl hrl
		clj hs ml mli elm zig nim sh bash zsh fish ps1 bat cmd sql proto graphql gql
		json jsonl yaml yml toml ini cfg conf env properties xml html htm css scss sass less
		md rst txt adoc tex csv tsv log lock gradle cmake mk make dockerfile tf hcl nix
		patch diff svg png jpg jpeg gif pdf`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// fileExt reports whether ext, without its dot, is one of fileExts (in any case: .C, .H,
// .R).
func fileExt(ext string) bool { return fileExts[strings.ToLower(ext)] }

// plainExt reports whether ext, without its dot, may be the extension of a file not in
// fileExts: up to 10 letters and digits, all lower case or all upper case; an
// exception's or a class's name (".JSONDecodeError") is neither.
func plainExt(ext string) bool {
	if ext == "" || len(ext) > 10 {
		return false
	}
	lower, upper := true, true
	for _, r := range ext {
		switch {
		case r >= 'a' && r <= 'z':
			upper = false
		case r >= 'A' && r <= 'Z':
			lower = false
		case r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return lower || upper
}

// trimMatches removes the count SWE-agent's search_dir prints after a file ("a.py (3
// matches)").
func trimMatches(line string) string {
	if !strings.HasSuffix(line, " matches)") && !strings.HasSuffix(line, " match)") {
		return line
	}
	i := strings.LastIndex(line, " (")
	if i < 0 {
		return line
	}
	n, _, _ := strings.Cut(line[i+2:], " ")
	if _, err := strconv.Atoi(n); err != nil {
		return line
	}
	return line[:i]
}

// A Hit is a place that a search's, a shell's or a test run's output points at.
type Hit struct {
	// Path is the file as printed (relative paths stay relative), "" when the output
	// prints lines only (grep -n and SWE-agent's search_file on one file).
	Path string
	// Line is the 1-based line, 0 when the output names the file alone.
	Line int
}

// ListedHits returns the places text points at, one per line of it, in order and
// without repeats:
//
//	path:N:text                 grep -n, ripgrep, Claude Code's Grep in content mode, and
//	                            the locations compilers, linters and pytest print
//	N:text                      grep -n on one file (Path "")
//	Line N:text                 SWE-agent's search_file (Path "")
//	File "path", line N, in f   a Python traceback's frame
//	path                        any other line ListedPaths takes (Line 0)
func ListedHits(text string) []Hit {
	var out []Hit
	seen := map[Hit]bool{}
	for line := range strings.Lines(text) {
		h, ok := lineHit(strings.TrimSpace(line))
		if ok && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// lineHit reads the hit one trimmed line of output names.
func lineHit(line string) (Hit, bool) {
	if rest, ok := strings.CutPrefix(line, `File "`); ok {
		// File "path", line N, in f
		f, rest, ok := strings.Cut(rest, `", line `)
		if !ok || f == "" || strings.ContainsAny(f, `"<>`) {
			return Hit{}, false
		}
		return Hit{Path: f, Line: leadingInt(rest)}, leadingInt(rest) > 0
	}
	if rest, ok := strings.CutPrefix(line, "Line "); ok {
		n, _, ok := strings.Cut(rest, ":")
		if l, err := strconv.Atoi(n); ok && err == nil && l > 0 {
			return Hit{Line: l}, true
		}
		return Hit{}, false
	}
	if n, _, ok := strings.Cut(line, ":"); ok {
		if l, err := strconv.Atoi(n); err == nil && l > 0 {
			return Hit{Line: l}, true
		}
	}
	p := listedPath(line)
	if p == "" {
		return Hit{}, false
	}
	h := Hit{Path: p}
	if rest, ok := strings.CutPrefix(line, p+":"); ok {
		n, _, _ := strings.Cut(rest, ":")
		if l, err := strconv.Atoi(n); err == nil && l > 0 {
			h.Line = l
		}
	}
	return h, true
}

// leadingInt reads the decimal number s starts with, 0 if none.
func leadingInt(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// trimSize removes the size list_directory_with_sizes prints after a name ("a.go    1.20 KB",
// formatSize in server-filesystem's lib.js).
func trimSize(entry string) string {
	f := strings.Fields(entry)
	if len(f) < 3 {
		return strings.TrimSpace(entry)
	}
	switch f[len(f)-1] {
	case "B", "KB", "MB", "GB", "TB":
	default:
		return strings.TrimSpace(entry)
	}
	if _, err := strconv.ParseFloat(f[len(f)-2], 64); err != nil {
		return strings.TrimSpace(entry)
	}
	i := strings.LastIndex(entry, f[len(f)-2])
	return strings.TrimSpace(entry[:i])
}

// listedURLs returns the http and https URLs in text, in order and without repeats, with
// the punctuation that ends a sentence or closes a quote left off.
func listedURLs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for rest := text; ; {
		i := strings.Index(rest, "http")
		if i < 0 {
			return out
		}
		rest = rest[i:]
		if !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "https://") {
			rest = rest[len("http"):]
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool {
			return r <= ' ' || strings.ContainsRune(`"'<>()[]{}\`+"`", r)
		})
		if end < 0 {
			end = len(rest)
		}
		u := strings.TrimRight(rest[:end], ".,;:!?")
		rest = rest[end:]
		if len(u) > len("https://") && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
}
