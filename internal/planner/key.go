package planner

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
)

// Key returns the canonical identity of a call: its tool and its arguments with keys
// sorted, integral numbers written as integers, empty values (nil, "", empty lists and
// objects) dropped, absolute paths cleaned ("/a/./b/" is "/a/b") and a Read's offset of
// 1 or less dropped (Read starts at line 1 by default). Two calls with one key return the
// same result while nothing invalidates it, so caches and the replay match calls by it.
func Key(tool string, args map[string]any) string {
	norm := normalize(tool, args)
	if len(norm) == 0 {
		return tool
	}
	enc, err := json.Marshal(norm)
	if err != nil {
		// Values JSON cannot hold (a channel, a function) still tell calls apart.
		return tool + " " + fmt.Sprint(norm)
	}
	return tool + " " + string(enc)
}

func normalize(tool string, args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if v = normValue(v); v != nil {
			out[k] = v
		}
	}
	if tool == readTool {
		if n, ok := intArg(out, "offset"); ok && n <= 1 {
			delete(out, "offset")
		}
	}
	return out
}

func normValue(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if x == "" {
			return nil
		}
		if strings.HasPrefix(x, "/") && !strings.ContainsAny(x, " \n") {
			return path.Clean(x)
		}
		return x
	case float64:
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			return strconv.FormatFloat(x, 'g', -1, 64)
		case x == math.Trunc(x) && math.Abs(x) < 1<<53:
			return int64(x)
		}
		return x
	case float32:
		return normValue(float64(x))
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		if f, err := x.Float64(); err == nil {
			return normValue(f)
		}
		return x.String()
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normValue(e)
		}
		return out
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e = normValue(e); e != nil {
				out[k] = e
			}
		}
		return out
	}
	return v
}

// intArg returns args[key] as an integer, if it is an integral number.
func intArg(args map[string]any, key string) (int, bool) {
	switch x := args[key].(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		return int(x), x == math.Trunc(x)
	case json.Number:
		n, err := x.Int64()
		return int(n), err == nil
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}

func strArg(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// The canonical tools the planner knows the arguments of (see package agentcalls): a
// Read's window and file, for coverage and size.
const (
	readTool = "Read"
)

// window is the lines a Read covers: [from, to], to 0 for "to the end".
type window struct {
	file     string
	from, to int
}

func readWindow(args map[string]any) (window, bool) {
	f := strArg(args, "file_path")
	if f == "" {
		return window{}, false
	}
	if strings.HasPrefix(f, "/") {
		f = path.Clean(f)
	}
	w := window{file: f, from: 1}
	if n, ok := intArg(args, "offset"); ok && n > 1 {
		w.from = n
	}
	if n, ok := intArg(args, "limit"); ok && n > 0 {
		w.to = w.from + n - 1
	}
	return w, true
}

// readMaxLines is how many lines a Read without a limit shows: Claude Code's Read stops
// at 2,000.
const readMaxLines = 2000

// Covers reports whether the result of the call (tool, args) holds the result of the call
// (tool2, args2), so that an agent that has the first in its context need not make the
// second: they have one Key, or both are Reads of one file and the first's window holds
// the second's. A Read without a limit shows readMaxLines lines from its offset; one
// with a limit never holds a Read without one, whose length it does not know.
func Covers(tool string, args map[string]any, tool2 string, args2 map[string]any) bool {
	if tool == readTool && tool2 == readTool {
		a, ok1 := readWindow(args)
		b, ok2 := readWindow(args2)
		if ok1 && ok2 && a.file == b.file && onlyWindow(args) && onlyWindow(args2) {
			aTo := a.to
			if aTo == 0 {
				aTo = a.from + readMaxLines - 1
			}
			switch {
			case a.from > b.from:
				return false
			case b.to == 0:
				return a.to == 0 && a.from == b.from
			}
			return b.to <= aTo
		}
	}
	return Key(tool, args) == Key(tool2, args2)
}

// onlyWindow reports whether a Read's arguments are its file and window alone.
func onlyWindow(args map[string]any) bool {
	for k := range args {
		if k != "file_path" && k != "offset" && k != "limit" {
			return false
		}
	}
	return true
}
