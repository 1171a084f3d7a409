package compact

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

func TestDescribeCall(t *testing.T) {
	for _, tc := range []struct {
		name, tool, input, want string
	}{
		{"arguments", "read_file", `{ "path": "a.py" }`, `read_file {"path":"a.py"}`},
		{"no arguments", "ls", `{}`, `ls`},
		{"absent", "ls", ``, `ls`},
		{"not JSON", "ls", `{oops`, `ls`},
		{"not an object", "echo", `"hi"`, `echo "hi"`},
		{"long value cut", "write", `{"path":"a","content":"` + strings.Repeat("x", 100) + `"}`,
			`write {"path":"a","content":"` + strings.Repeat("x", 24) + `…` + strings.Repeat("x", 24) + `"}`},
		{"long path keeps its file name", "Read", `{"file_path":"/work/main/internal/tokens/testdata/corpus/go/json_encode.go"}`,
			`Read {"file_path":"/work/main/internal/toke…corpus/go/json_encode.go"}`},
		{"command keeps its end", "Bash", `{"command":"cd /work/main && go test ./internal/compact/ -run TestDescribeCall -count=1"}`,
			`Bash {"command":"cd /work/main &&…/ -run TestDescribeCall -count=1"}`},
		{"whole call shortened from the middle", "many", `{"a":"` + strings.Repeat("y", 40) + `","b":"` + strings.Repeat("y", 40) + `","c":"` + strings.Repeat("y", 40) + `","d":"` + strings.Repeat("z", 40) + `"}`,
			"many " + `{"a":"` + strings.Repeat("y", 40) + `","b":"` + strings.Repeat("y", 27) + "…" + strings.Repeat("y", 31) + `","d":"` + strings.Repeat("z", 40) + `"}`},
		{"html kept", "grep", `{"pattern":"a<b"}`, `grep {"pattern":"a<b"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describeCall(tc.tool, json.RawMessage(tc.input)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTextCommand(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       command
		ok         bool
	}{
		{"function block", "Let me look.\n\n<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/testbed/a.py</parameter>\n</function>\n",
			command{tool: "str_replace_editor", call: "str_replace_editor command=view path=/testbed/a.py"}, true},
		{"function block, multi-line value", "<function=bash>\n<parameter=command>cd /x &&\n  make</parameter>\n</function>",
			command{tool: "bash", call: "bash command=cd /x && make"}, true},
		{"bare fence", "Now run it.\n\n```\npython reproduce.py\n```",
			command{tool: "python", call: "python reproduce.py"}, true},
		{"multi-line command", "```\nedit 1:1\nimport os\nend_of_edit\n```\n",
			command{tool: "edit", call: "edit 1:1 …"}, true},
		{"fence with a language is code, not a command", "Here is the fix:\n```python\nx = 1\n```", command{}, false},
		{"prose", "I am done. The bug was in a.py.", command{}, false},
		{"fence not at the end", "```\nls\n```\nThen we will see.", command{}, false},
		{"empty fence", "```\n```", command{}, false},
		{"unclosed function", "<function=bash>\n<parameter=command>ls", command{}, false},
		{"function without name", "<function=>\n</function>", command{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{chat.NewText(tc.text)}}
			got, ok := textCommand(&m)
			if ok != tc.ok || got != tc.want {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestTidy(t *testing.T) {
	in := strings.Join([]string{
		"Plan:",
		"",
		"---",
		"1. read",
		"   ",
		"| a | b |",
		"|---|---|",
		"```go",
		"",
		"x := 1 // ---",
		"***",
		"```",
		"...",
		"<function=bash>",
		"<parameter=command>",
		"",
		"</parameter>",
		"</function>",
		"**",
		"Done!",
	}, "\n")
	want := strings.Join([]string{
		"Plan:",
		"1. read",
		"| a | b |",
		"|---|---|",
		"```go",
		"",
		"x := 1 // ---",
		"***",
		"```",
		"<function=bash>",
		"<parameter=command>",
		"",
		"</parameter>",
		"</function>",
		"Done!",
	}, "\n")
	got, n := tidy(in)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n != 5 {
		t.Errorf("%d lines removed, want 5", n)
	}
}

func TestHeadTail(t *testing.T) {
	long := strings.Repeat("z", 500)
	for _, tc := range []struct {
		name, text string
		want       string
		ok         bool
	}{
		{"short", "a\nb\nc", "", false},
		{"middle elided", lines("l", 10), "l 1\nl 2\n[winnow: 5 lines (20 bytes) of the output of ls elided here; call it again to see them]\nl 8\nl 9\nl 10", true},
		{"long line cut", "x\n" + long, "x\n" + strings.Repeat("z", 20) + "…\n[winnow: 480 bytes of long lines of the output of ls elided here; call it again to see them]", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := headTail(&output{text: tc.text, call: "ls"}, 2, 3, 20)
			if ok != tc.ok || got != tc.want {
				t.Errorf("got %q, %v\nwant %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestHandlePattern(t *testing.T) {
	o := output{call: `bash {"command":"ls"}`, text: "a\nb"}
	f := output{call: `bash {"command":"ls"}`, id: "c1"}
	for _, s := range []string{clearedText(&o), dedupText(&o, &f), snipText(&o, 3, 40), snipText(&o, 0, 40)} {
		if !handle.MatchString(s) {
			t.Errorf("HandlePattern does not match %q", s)
		}
	}
	for _, s := range []string{"[old tool output removed: 12 bytes]", "[winnow: reasoning omitted]", noResult} {
		if handle.MatchString(s) {
			t.Errorf("HandlePattern matches %q, which gives nothing back", s)
		}
	}
}

var handle = regexp.MustCompile(HandlePattern)
