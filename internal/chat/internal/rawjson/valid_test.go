package rawjson

import (
	"encoding/json"
	"strings"
	"testing"
)

// validCases are documents on each side of every rule of the grammar;
// TestValid checks Valid against encoding/json on them and FuzzValid
// starts from them.
var validCases = []string{
	``, ` `, `{}`, `[]`, ` {"a" : [1, -2.5e+3, true, false, null, "x"] } `, `{"a":{}}`, `[[],{}]`,
	`"\"\\\/\b\f\n\r\t\u00e9\uD83D\ude00"`, "\"\xff\xfe invalid UTF-8 is valid JSON\"", `"\ud800"`,
	`0`, `-0`, `0.5`, `1E9`, `1e-9`, `10`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x1`, `1.5.5`, `-a`,
	`true`, `tru`, `truex`, `nul`, `[1 2]`, `[1,]`, `[,1]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `{1:2}`,
	`{"a" 1}`, `{"a":1 "b":2}`, `[}`, `{]`, `[1}`, `{"a":1]`, `"abc`, `"a\"`, `"\x"`, `"\u12"`, `"\u12g4"`,
	"\"tab\tinside\"", "\"nl\ninside\"", "\"\x00\"", "\"\x1f\"", "\"\x7f\"", `"a" "b"`, `{} {}`, "\v{}",
	"{}\u00a0", `[1,{"a":[2,{"b":[3]}]}]`, `[1,{"a":[2,{"b":[3]}]}`, `"0123456789abcdef\"0123456789"`,
	`"0123456789abcdef\\"`, `"0123456789abcdef\\\"0123456789abcdef"`,
}

func TestValid(t *testing.T) {
	cases := append([]string(nil), validCases...)
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		cases = append(cases,
			strings.Repeat("[", depth)+strings.Repeat("]", depth),
			strings.Repeat(`{"a":`, depth-1)+"[]"+strings.Repeat("}", depth-1),
			strings.Repeat("[", depth)+strings.Repeat("]", depth-1))
	}
	// Every way to cut a valid document short is invalid.
	doc := `{"a":[1,-2.5e+3,true,false,null,"x\n\u00e9"],"b":{}}`
	for n := range len(doc) {
		cases = append(cases, doc[:n])
	}
	for _, s := range cases {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.80q) = %v, json.Valid says %v", s, got, want)
		}
	}
}

// FuzzValid checks Valid against encoding/json.Valid on any input, and on
// the input inside a string and an array, so that every byte is also
// tried as part of a string and after a value.
func FuzzValid(f *testing.F) {
	for _, s := range validCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, doc := range [][]byte{b, append(append([]byte(`"`), b...), '"'), append(append([]byte(`[`), b...), ']')} {
			if got, want := Valid(doc), json.Valid(doc); got != want {
				t.Fatalf("Valid(%q) = %v, json.Valid says %v", doc, got, want)
			}
		}
	})
}

func BenchmarkValid(b *testing.B) {
	body := benchBody()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !Valid(body) {
			b.Fatal("invalid")
		}
	}
}

// BenchmarkValidPeer is BenchmarkValid's peer: encoding/json.Valid on the
// same body.
func BenchmarkValidPeer(b *testing.B) {
	body := benchBody()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !json.Valid(body) {
			b.Fatal("invalid")
		}
	}
}

// benchBody is a request like a coding agent's: messages whose tool
// results are long strings of source, JSON and logs, full of escapes.
func benchBody() []byte {
	var msgs []any
	for i := range 200 {
		var out strings.Builder
		for k := range 60 {
			out.WriteString(strings.Repeat("\tif err := f(\"x\"); err != nil { return err } ", 1+k%3))
			out.WriteString("\n")
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": []any{map[string]any{
			"type": "tool_result", "tool_use_id": i, "content": out.String() + "é ✓"}}})
	}
	b, err := json.Marshal(map[string]any{"model": "m", "messages": msgs})
	if err != nil {
		panic(err)
	}
	return b
}
