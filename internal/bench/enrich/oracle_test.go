package enrich

import (
	"testing"

	"github.com/winnowhq/winnow/internal/agentcalls"
)

// TestCeiling: a turn counts toward the ceiling when every call of it is a Read whose
// file, and window if it asks for one, a result of an earlier turn names.
func TestCeiling(t *testing.T) {
	call := func(turn int, tool string, args map[string]any, result string) agentcalls.Call {
		return agentcalls.Call{Turn: turn, Tool: tool, Args: args, Result: result}
	}
	read := func(turn int, file string, window ...int) agentcalls.Call {
		args := map[string]any{"file_path": file}
		if len(window) == 2 {
			args["offset"], args["limit"] = window[0], window[1]
		}
		return call(turn, agentcalls.Read, args, "1:x\n")
	}
	grepFile := call(1, agentcalls.Grep, map[string]any{"pattern": "f", "path": "/r/a.py"}, "791:    def f(self):\n")
	grepDir := call(1, agentcalls.Grep, map[string]any{"pattern": "f", "path": "/testbed"}, "./tests/test_a.py:12:def test_f():\n")
	glob := call(1, agentcalls.Glob, map[string]any{"pattern": "*.py"}, "/r/a.py\n/r/sub/b.py\n")
	trace := call(1, agentcalls.Bash, map[string]any{"command": "python t.py"},
		"Traceback (most recent call last):\n  File \"/r/oqupy/process_tensor.py\", line 536, in _read_file\nValueError: x\n")
	tests := []struct {
		name         string
		calls        []agentcalls.Call
		turns, reads int
	}{
		{"a window holding a hit of a search of its file", []agentcalls.Call{grepFile, read(2, "/r/a.py", 791, 18)}, 1, 1},
		{"a window holding no hit", []agentcalls.Call{grepFile, read(2, "/r/a.py", 1, 100)}, 0, 0},
		{"a hit under the directory searched", []agentcalls.Call{grepDir, read(2, "/testbed/tests/test_a.py", 1, 40)}, 1, 1},
		{"a whole file a listing names", []agentcalls.Call{glob, read(2, "/r/sub/b.py")}, 1, 1},
		{"a window of a file a listing names without a line", []agentcalls.Call{glob, read(2, "/r/sub/b.py", 10, 20)}, 0, 0},
		{"a traceback's frame", []agentcalls.Call{trace, read(2, "/r/oqupy/process_tensor.py", 521, 100)}, 1, 1},
		{"a file named in the same turn", []agentcalls.Call{glob, read(1, "/r/a.py")}, 0, 0},
		{"a turn that also edits", []agentcalls.Call{glob, read(2, "/r/a.py"), call(2, agentcalls.Edit, map[string]any{"file_path": "/r/a.py"}, "ok")}, 0, 1},
		{"two reads of one turn, both named", []agentcalls.Call{glob, read(2, "/r/a.py"), read(2, "/r/sub/b.py")}, 1, 2},
		{"a read's lines name nothing", []agentcalls.Call{read(1, "/r/a.py"), call(1, agentcalls.Read, map[string]any{"file_path": "/r/c.py"}, "/r/a.py:3:x\n"), read(2, "/r/a.py", 3, 5)}, 0, 0},
		{"b.py does not name ab.py", []agentcalls.Call{call(1, agentcalls.Bash, map[string]any{"command": "ls"}, "sub/b.py\n"), read(2, "/r/sub/ab.py")}, 0, 0},
		{"nor one element a file elsewhere", []agentcalls.Call{call(1, agentcalls.Bash, map[string]any{"command": "ls"}, "b.py\n"), read(2, "/r/sub/b.py")}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turns, reads := ceiling(agentcalls.Session{Calls: tt.calls})
			if turns != tt.turns || reads != tt.reads {
				t.Errorf("ceiling %d turns, %d reads; want %d, %d", turns, reads, tt.turns, tt.reads)
			}
		})
	}
}
