package agentcalls

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShell(t *testing.T) {
	tests := []struct {
		name    string
		command string
		cwd     string
		tool    string
		args    map[string]any
	}{
		{"cat", "cat -n src/a.py", "/r", Read, map[string]any{"file_path": "/r/src/a.py"}},
		{"sed window", "sed -n '10,40p' /r/a.py", "", Read, map[string]any{"file_path": "/r/a.py", "offset": 10, "limit": 31}},
		{"head", "head -n 50 a.py", "/r", Read, map[string]any{"file_path": "/r/a.py", "limit": 50}},
		{"head default", "head a.py", "/r", Read, map[string]any{"file_path": "/r/a.py", "limit": 10}},
		{"cd then grep", "cd /testbed && grep -rn \"list_named_queries\" --include=\"*.py\" .", "", Grep,
			map[string]any{"pattern": "list_named_queries", "path": "/testbed", "glob": "*.py"}},
		{"grep in cwd", "grep -n slots", "/r", Grep, map[string]any{"pattern": "slots", "path": "/r"}},
		{"grep -e, stderr dropped", "grep -rn -e 'a b' src 2>/dev/null | head -20", "/r", Grep, map[string]any{"pattern": "a b", "path": "/r/src"}},
		{"find", `find /testbed -type f -name "*.py" | grep -v "__pycache__" | sort`, "", Glob, map[string]any{"pattern": "*.py", "path": "/testbed"}},
		{"find everything", "find .", "/r", Glob, map[string]any{"pattern": "**", "path": "/r"}},
		{"find | xargs grep", `find /testbed -type f -name "*.py" | xargs grep -l "IntermediateFileSlice" | sort`, "", Grep,
			map[string]any{"pattern": "IntermediateFileSlice", "path": "/testbed", "glob": "*.py"}},
		{"ls", "ls -la", "/r", LS, map[string]any{"path": "/r"}},
		{"ls -R dir", "ls -R /workspace/x", "", LS, map[string]any{"path": "/workspace/x"}},

		{"grep counting is not a listing", "grep -c x a.py", "", Bash, nil},
		{"grep of two files", "grep x a.py b.py", "", Bash, nil},
		{"pipe into a program", "cat a.py | python", "", Bash, nil},
		{"find -exec", "find . -name '*.pyc' -delete", "", Bash, nil},
		{"two commands", "ls && pytest -q", "", Bash, nil},
		{"redirect", "cat a.py > b.py", "", Bash, nil},
		{"substitution", "cat $(which python)", "", Bash, nil},
		{"unbalanced quote", "grep 'x a.py", "", Bash, nil},
		{"a test run", "cd /r && python -m pytest tests/test_a.py -v", "", Bash, nil},
		{"cat of two files", "cat a.py b.py", "", Bash, nil},
		{"sed that edits", "sed -i 's/a/b/' a.py", "", Bash, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, args := shell(tt.command, tt.cwd)
			want := tt.args
			if tt.tool == Bash {
				want = map[string]any{"command": tt.command}
			}
			if tool != tt.tool {
				t.Errorf("tool %s, want %s (args %v)", tool, tt.tool, args)
			}
			if diff := cmp.Diff(want, args); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSWECommand(t *testing.T) {
	tests := []struct {
		cmd  string
		name string
		args map[string]any
	}{
		{`open "src/a.py" 120`, "open", map[string]any{"path": "src/a.py", "line_number": 120}},
		{"goto 5", "goto", map[string]any{"line_number": 5}},
		{"scroll_down", "scroll_down", map[string]any{}},
		{`find_file "image.py" plumbum`, "find_file", map[string]any{"file_name": "image.py", "dir": "plumbum"}},
		{`search_dir "def x"`, "search_dir", map[string]any{"search_term": "def x"}},
		{`search_file "docopt" a.py`, "search_file", map[string]any{"search_term": "docopt", "file": "a.py"}},
		{"edit 5:6\n    x = 1\nend_of_edit", "edit", map[string]any{"range": "5:6", "replacement": "    x = 1\n"}},
		{"python reproduce.py", "bash", map[string]any{"command": "python reproduce.py"}},
	}
	for _, tt := range tests {
		name, args := sweCommand(tt.cmd)
		if name != tt.name {
			t.Errorf("%q: name %q, want %q", tt.cmd, name, tt.name)
		}
		if diff := cmp.Diff(tt.args, args); diff != "" {
			t.Errorf("%q: args (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

// TestSWEWindows maps SWE-agent's window commands through the state its status lines
// keep: the open file and the directory.
func TestSWEWindows(t *testing.T) {
	status := "\n(Open file: /r/a.py)\n(Current directory: /r)\nbash-$"
	window := func(first, last, total int) string {
		s := "[File: /r/a.py (" + itoa(total) + " lines total)]\n"
		for i := first; i <= last; i++ {
			s += itoa(i) + ":x\n"
		}
		return s + status
	}
	m := mapper{}
	calls := []agentCall{
		{name: "open", args: map[string]any{"path": "a.py"}, result: window(1, 100, 300)},
		{name: "scroll_down", args: map[string]any{}, result: window(101, 200, 300)},
		{name: "goto", args: map[string]any{"line_number": 290}, result: window(201, 300, 300)},
		{name: "open", args: map[string]any{"path": "a.py", "line_number": 150}, result: window(100, 199, 300)},
		{name: "edit", args: map[string]any{"range": "5:6"}, result: window(1, 100, 300)},
		{name: "search_file", args: map[string]any{"search_term": "x"}, result: "Found 3 matches" + status},
		{name: "open", args: map[string]any{"path": "b.py"}, result: "File b.py not found" + status},
	}
	want := []struct {
		tool string
		args map[string]any
	}{
		{Read, map[string]any{"file_path": "/r/a.py"}},
		{Read, map[string]any{"file_path": "/r/a.py", "offset": 101, "limit": 100}},
		{Read, map[string]any{"file_path": "/r/a.py", "offset": 201, "limit": 100}},
		{Read, map[string]any{"file_path": "/r/a.py", "offset": 100, "limit": 100}},
		{Edit, map[string]any{"file_path": "/r/a.py"}},
		{Grep, map[string]any{"pattern": "x", "path": "/r/a.py"}},
		{Read, map[string]any{"file_path": "/r/b.py"}},
	}
	m.cwd = "/r"
	for i, c := range calls {
		got := m.canonical(c)
		if got.Tool != want[i].tool {
			t.Errorf("%d %s: tool %s, want %s", i, c.name, got.Tool, want[i].tool)
		}
		if diff := cmp.Diff(want[i].args, got.Args); diff != "" {
			t.Errorf("%d %s: args (-want +got):\n%s", i, c.name, diff)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// FuzzShell checks that any command maps to a canonical tool, that a command the shell
// reader does not take as a read, search or listing is Bash with the command as written,
// and that the others carry string paths and patterns.
func FuzzShell(f *testing.F) {
	for _, s := range []string{
		"cat a.py", "sed -n '1,2p' a", "grep -rn 'x' . | head", "find . -name '*.go'", "ls -la /r",
		"cd /r && cat a", "echo 'unterminated", "a | b | c", "x 2>&1", "\\\n", "head -n -3 a",
	} {
		f.Add(s, "/r")
	}
	f.Fuzz(func(t *testing.T, command, cwd string) {
		tool, args := shell(command, cwd)
		again, args2 := shell(command, cwd)
		if tool != again || !cmp.Equal(args, args2) {
			t.Fatalf("%q: two mappings differ", command)
		}
		switch tool {
		case Bash:
			if args["command"] != command || len(args) != 1 {
				t.Fatalf("%q: Bash args %v", command, args)
			}
		case Read, Grep, Glob, LS:
			for k, v := range args {
				switch v.(type) {
				case string:
				case int:
					if k != "offset" && k != "limit" || v.(int) < 1 {
						t.Fatalf("%q: %s = %v", command, k, v)
					}
				default:
					t.Fatalf("%q: %s = %v (%T)", command, k, v, v)
				}
			}
		default:
			t.Fatalf("%q: tool %q", command, tool)
		}
	})
}
