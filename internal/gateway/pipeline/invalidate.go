package pipeline

import (
	"context"
	"encoding/json"
	"path"
	"strings"
	"unicode"
)

// Invalidate is the stage that, before a mutating call is dispatched, drops
// the cached results it may make stale from its session's dedup cache, so
// that nothing the planner or a later stage takes from the cache predates
// the change.
//
// A call is mutating when its tool's own name (after the upstream prefix)
// holds a verb that changes things (edit, write, create, update, delete,
// move, rename, patch, set, ...: edit_file, issue_write,
// notion-update-page) and does not start with a verb that reads (get,
// list, search, ...: get_commit, list_merge_requests), each alternative
// of an "or" name judged on its own (get_or_create_label mutates), or
// when Options.Invalidates lists the tool. It drops the cached results
// of tools of the same upstream; if it names paths (path, file, source,
// destination, ... arguments), only those whose own paths are the same,
// inside them or around them, and those without paths (a search may cover
// anything). It also drops the results of the tools Options.Invalidates
// lists for it, from any upstream.
type Invalidate struct{}

// Name implements Stage.
func (Invalidate) Name() string { return "invalidate" }

// After implements Stage; invalidation happens before dispatch.
func (Invalidate) After(context.Context, *Turn) error { return nil }

// Before implements Stage.
func (Invalidate) Before(_ context.Context, t *Turn) error {
	rule, ok := Invalidation(t.Call, t.p.opts.Invalidates[t.Call.Tool])
	if !ok {
		return nil
	}
	s := t.sess
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.window[:0]
	for _, e := range s.window {
		if !rule.Stale(e.tool, e.paths) {
			kept = append(kept, e)
		}
	}
	clear(s.window[len(kept):])
	s.window = kept
	return nil
}

// A StaleRule says which cached results one call makes stale, by the rules
// of [Invalidate]; the gateway's prefetch cache follows the same rules.
type StaleRule struct {
	mutating bool     // the call's name says it changes its upstream's state
	prefix   string   // the call's upstream prefix
	paths    []string // the call's path arguments
	patterns []string // the tools the configuration says it makes stale
}

// Invalidation returns the rule of call c, given the patterns
// Options.Invalidates lists for its tool, and whether c makes anything
// stale at all.
func Invalidation(c *Call, patterns []string) (StaleRule, bool) {
	r := StaleRule{mutating: isMutating(localName(c.Tool)), patterns: patterns}
	if !r.mutating && len(patterns) == 0 {
		return StaleRule{}, false
	}
	r.prefix, r.paths = c.prefix(), pathArgs(c.Args)
	return r, true
}

// Stale reports whether the rule makes stale the cached result of a call of
// tool whose path arguments were paths (see [PathArgs]).
func (r StaleRule) Stale(tool string, paths []string) bool {
	if r.mutating && toolPrefix(tool) == r.prefix && (len(r.paths) == 0 || len(paths) == 0 || overlaps(r.paths, paths)) {
		return true
	}
	for _, p := range r.patterns {
		if ok, _ := path.Match(p, tool); ok {
			return true
		}
	}
	return false
}

// PathArgs returns the cleaned values of a call's top-level path-like
// arguments, as [StaleRule.Stale] takes them.
func PathArgs(args json.RawMessage) []string { return pathArgs(args) }

// mutatingVerbs are the words that mark a tool as changing what other
// tools read.
var mutatingVerbs = map[string]bool{
	"edit": true, "write": true, "create": true, "update": true, "delete": true, "remove": true,
	"move": true, "rename": true, "patch": true, "set": true, "put": true, "post": true,
	"add": true, "insert": true, "upsert": true, "replace": true, "merge": true, "close": true,
	"reopen": true, "append": true, "modify": true, "upload": true, "push": true, "commit": true,
	"assign": true, "unassign": true, "archive": true, "restore": true, "mkdir": true, "rm": true,
	"mv": true, "copy": true, "cp": true, "apply": true, "revert": true, "reset": true,
	"change": true, "save": true, "overwrite": true, "truncate": true, "drop": true, "fork": true,
	"mark": true, "dismiss": true, "lock": true, "unlock": true, "transfer": true, "publish": true,
	"checkout": true, "run": true, "execute": true, "exec": true,
}

// readVerbs are the words that, first in a tool's name, mark it as a read
// whatever nouns follow (get_commit, list_merge_requests).
var readVerbs = map[string]bool{
	"get": true, "list": true, "search": true, "read": true, "fetch": true, "find": true,
	"query": true, "show": true, "describe": true, "view": true, "download": true, "count": true,
	"check": true, "lookup": true, "browse": true, "inspect": true, "retrieve": true,
}

// isMutating reports whether a tool's own name, in any of snake_case,
// kebab-case, camelCase or dotted, names a change: some alternative of it
// (split at "or") does not start with a read verb and holds a mutating one.
func isMutating(name string) bool {
	alt := splitName(name)
	for len(alt) > 0 {
		end := len(alt)
		for i, w := range alt {
			if w == "or" {
				end = i
				break
			}
		}
		if !readVerbs[alt[0]] {
			for _, w := range alt[:end] {
				if mutatingVerbs[w] {
					return true
				}
			}
		}
		alt = alt[min(end+1, len(alt)):]
	}
	return false
}

// splitName splits a tool name into lower-case words at _, -, ., spaces
// and lower-to-upper case changes.
func splitName(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

// pathKeys are the argument names whose string values name files or
// directories.
var pathKeys = map[string]bool{
	"path": true, "paths": true, "file": true, "files": true, "file_path": true, "filepath": true,
	"filename": true, "file_name": true, "dir": true, "directory": true, "folder": true,
	"source": true, "destination": true, "src": true, "dst": true, "dest": true, "target": true,
	"old_path": true, "new_path": true, "uri": true,
}

// pathArgs returns the cleaned path values of the top-level path-like
// arguments (strings, or arrays of strings).
func pathArgs(args json.RawMessage) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return nil
	}
	var out []string
	add := func(raw json.RawMessage) {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			out = append(out, cleanPath(s))
		}
	}
	for k, v := range m {
		if !pathKeys[strings.ToLower(k)] {
			continue
		}
		var list []json.RawMessage
		if json.Unmarshal(v, &list) == nil {
			for _, item := range list {
				add(item)
			}
			continue
		}
		add(v)
	}
	return out
}

// cleanPath strips a file:// scheme and cleans the path.
func cleanPath(p string) string {
	p = strings.TrimPrefix(p, "file://")
	return path.Clean(strings.ReplaceAll(p, `\`, "/"))
}

// overlaps reports whether a path of a is the same as, inside or around a
// path of b. A relative path and an absolute one may be the same file, so
// they overlap.
func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if related(x, y) {
				return true
			}
		}
	}
	return false
}

func related(x, y string) bool {
	if path.IsAbs(x) != path.IsAbs(y) || x == y || x == "." || y == "." || x == "/" || y == "/" {
		return true
	}
	return strings.HasPrefix(y, x+"/") || strings.HasPrefix(x, y+"/")
}
