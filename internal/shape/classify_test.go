package shape

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Shape
	}{
		{"array of objects", `[{"a":1},{"b":2}]`, JSONArrayObjects},
		{"array of one object", "[\n  {\"a\": 1}\n]\n", JSONArrayObjects},
		{"wrapper", `{"total_count":2,"items":[{"id":1},{"id":2}]}`, JSONWrapperArray},
		{"small array is not the biggest member", `{"items":[{"id":1}],"body":"a long description that outweighs the array"}`, JSONObjectNested},
		{"object with a nested object", `{"a":{"b":1}}`, JSONObjectNested},
		{"object with an array of scalars", `{"a":[1,2]}`, JSONObjectNested},
		{"array in the biggest member of scalars", `{"tags":["a","b","c","d"],"n":1}`, JSONObjectNested},
		{"flat object", `{"a":1,"b":"x","c":null,"d":true}`, JSONObjectFlat},
		{"empty object", `{}`, JSONObjectFlat},
		{"scalar array", `[1,"a",null]`, JSONScalarArray},
		{"empty array", `[]`, JSONScalarArray},
		{"mixed array", `[{"a":1},2]`, JSONArrayMixed},
		{"array of arrays", `[[1],[2]]`, JSONArrayMixed},
		{"string", `"hello"`, JSONScalar},
		{"number", ` 42 `, JSONScalar},
		{"null", `null`, JSONScalar},
		{"invalid JSON is text", `{"a":1,}`, Code},
		{"markdown table", "| a | b |\n|---|:-:|\n| 1 | 2 |\n", MarkdownTable},
		{"markdown table without borders", "a | b\n--- | ---\n1 | 2", MarkdownTable},
		{"pipes without a delimiter row", "a | b\nc | d", Prose},
		{"row with too many cells", "| a |\n|---|\n| 1 | 2 |", Prose},
		{"go code", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n", Code},
		{"python code", "def f(x):\n    if x:\n        return 1\n    return 2\n", Code},
		{"log lines", "2025-01-02T10:00:00Z INFO started\n2025-01-02T10:00:01Z WARN slow\n2025-01-02T10:00:02Z ERROR failed\n", Log},
		{"levelled log", "INFO starting server\nDEBUG config loaded\n[ERROR] bind failed\n", Log},
		{"syslog", "Jan  2 15:04:05 host sshd[1]: accepted\nJan  2 15:04:06 host sshd[1]: closed\n", Log},
		{"logfmt", "time=1 level=info msg=a\ntime=2 level=warn msg=b\n", Log},
		{"prose", "The index skips vendored directories.\nWhere is that decided? Look at the walker.\n", Prose},
		{"markdown prose", "# Title\n\nSome text with a list:\n\n- one\n- two\n", Prose},
		{"empty", "", Empty},
		{"whitespace", " \n\t\r\n", Empty},
		{"invalid UTF-8", "abc\xff\xfe", Binary},
		{"NUL byte", "abc\x00def", Binary},
		{"control characters", strings.Repeat("\x01\x02ab", 20), Binary},
		{"too large", "[" + strings.Repeat(" ", MaxBytes) + "]", Unknown},
		{"too deep", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), Code},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.text); got != tt.want {
				t.Errorf("Classify = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestPassThrough checks that shapes without encoders come back as they
// are, with the counts of the input.
func TestPassThrough(t *testing.T) {
	for _, text := range []string{
		"", "plain prose, nothing to do", "abc\xff", "func main() {}\n", `"a string"`, "[1, 2, 3]",
		"[" + strings.Repeat(" ", MaxBytes) + "]",
	} {
		res := Encode(text, nil)
		if res.Encoder != "" && res.Text == text {
			t.Errorf("%.20q: encoder %q with the text unchanged", text, res.Encoder)
		}
		if res.Encoder == "" && (res.Text != text || res.Before != len(text) || res.After != len(text)) {
			t.Errorf("%.20q: kept, but Text or counts changed: %+v", text, res)
		}
	}
	if res := Encode("[1, 2, 3]", nil); res.Encoder != EncoderCompact || res.Text != "[1,2,3]" {
		t.Errorf("scalar array: %+v, want compact [1,2,3]", res)
	}
}
