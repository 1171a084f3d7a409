package planner

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKey(t *testing.T) {
	tests := []struct {
		name string
		tool string
		a, b map[string]any
		same bool
	}{
		{"keys in any order", "Grep", map[string]any{"pattern": "x", "path": "/r"}, map[string]any{"path": "/r", "pattern": "x"}, true},
		{"numbers of any type", "Read", map[string]any{"file_path": "/r/a", "limit": 40.0}, map[string]any{"file_path": "/r/a", "limit": json.Number("40")}, true},
		{"empty values dropped", "Grep", map[string]any{"pattern": "x", "glob": "", "path": nil}, map[string]any{"pattern": "x"}, true},
		{"absolute paths cleaned", "Read", map[string]any{"file_path": "/r/./b/../a.py"}, map[string]any{"file_path": "/r/a.py"}, true},
		{"a Read from line 1 is a Read", "Read", map[string]any{"file_path": "/r/a", "offset": 1}, map[string]any{"file_path": "/r/a"}, true},
		{"other tools keep offset 1", "Page", map[string]any{"offset": 1}, map[string]any{}, false},
		{"another window", "Read", map[string]any{"file_path": "/r/a", "offset": 2}, map[string]any{"file_path": "/r/a"}, false},
		{"relative paths kept", "Read", map[string]any{"file_path": "./a"}, map[string]any{"file_path": "a"}, false},
	}
	for _, tt := range tests {
		ka, kb := Key(tt.tool, tt.a), Key(tt.tool, tt.b)
		if (ka == kb) != tt.same {
			t.Errorf("%s: %q and %q, want same %v", tt.name, ka, kb, tt.same)
		}
	}
	if got, want := Key("Read", map[string]any{"limit": 3.0, "file_path": "/a"}), `Read {"file_path":"/a","limit":3}`; got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
}

func TestCovers(t *testing.T) {
	read := func(args ...any) map[string]any {
		m := map[string]any{"file_path": "/r/a.py"}
		for i := 0; i+1 < len(args); i += 2 {
			m[args[i].(string)] = args[i+1]
		}
		return m
	}
	tests := []struct {
		name string
		a, b map[string]any
		want bool
	}{
		{"whole file holds a window", read(), read("offset", 300, "limit", 100), true},
		{"whole file holds itself", read(), read(), true},
		{"a window holds a window inside it", read("offset", 10, "limit", 100), read("offset", 20, "limit", 50), true},
		{"lines 1-100 do not hold 300-400", read("limit", 100), read("offset", 300, "limit", 100), false},
		{"a window overlapping the end", read("offset", 10, "limit", 20), read("offset", 20, "limit", 20), false},
		{"a window never holds the whole file", read("limit", 5000), read(), false},
		{"a whole read stops at 2,000 lines", read(), read("offset", 1990, "limit", 20), false},
		{"another file", read(), map[string]any{"file_path": "/r/b.py"}, false},
		{"other arguments: by key only", read("pages", "1"), read("offset", 3, "limit", 1), false},
	}
	for _, tt := range tests {
		if got := Covers("Read", tt.a, "Read", tt.b); got != tt.want {
			t.Errorf("%s: Covers = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !Covers("Grep", map[string]any{"pattern": "x"}, "Grep", map[string]any{"pattern": "x"}) || Covers("Grep", map[string]any{"pattern": "x"}, "Read", read()) {
		t.Error("Covers of other tools is not key equality")
	}
}

func TestKeywords(t *testing.T) {
	got := Keywords("Arrow objects: f\"{arrow_obj}\" differs from str(arrow_obj) for Arrow. Steps to reproduce the TimeDelta issue")
	want := []string{"arrow", "arrow_obj", "objects", "differs", "timedelta", "time", "delta"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Keywords (-want +got):\n%s", diff)
	}
}

func TestResolvePaths(t *testing.T) {
	tests := []struct {
		base, rel, want string
	}{
		{"/testbed", "./tests/test_a.py", "/testbed/tests/test_a.py"},
		{"/apispec/src", "src/apispec/openapi.py", "/apispec/src/apispec/openapi.py"},
		{"/r", "/abs/a.py", "/abs/a.py"},
		{"", "a.py", "a.py"},
	}
	for _, tt := range tests {
		args := map[string]any{"file_path": tt.rel, "command": "./run"}
		resolvePaths(args, tt.base)
		if args["file_path"] != tt.want || args["command"] != "./run" {
			t.Errorf("%s under %q: %v, want file_path %s and command untouched", tt.rel, tt.base, args, tt.want)
		}
	}
}
