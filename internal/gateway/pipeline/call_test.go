package pipeline

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArgWords(t *testing.T) {
	many := make([]string, 70)
	for i := range many {
		many[i] = fmt.Sprintf("w%d", i)
	}
	tests := []struct {
		name, args string
		want       []string
	}{
		{"strings and numbers, not keys", `{"owner":"acme","repo":"widget","number":12,"draft":true,"x":null}`, []string{"acme", "widget", "12"}},
		{"split on punctuation", `{"labels":"bug,upload","path":"internal/cli/cli.go"}`, []string{"bug", "upload", "internal", "cli", "go"}},
		{"escapes decoded", `{"q":"line\nnext \u00e9t\u00e9 tab\there"}`, []string{"line", "next", "été", "tab", "here"}},
		{"repeats once", `{"a":"x y x","b":["y","z"]}`, []string{"x", "y", "z"}},
		{"underscores and digits", `{"q":"parse_header v2.1"}`, []string{"parse_header", "v2", "1"}},
		{"invalid UTF-8 separates", "{\"q\":\"ab\xffcd\"}", []string{"ab", "cd"}},
		{"long words left out", `{"q":"` + strings.Repeat("a", 65) + ` ok"}`, []string{"ok"}},
		{"at most maxArgWords", `{"q":"` + strings.Join(many, " ") + `"}`, many[:maxArgWords]},
		{"not JSON", `{"q":`, nil},
		{"none", ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := argWords(json.RawMessage(tt.args))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("argWords(%s) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}
