package shape

import (
	"strings"
	"testing"
)

// TestDecodeErrors feeds each decoder text it cannot have written: every
// case must fail with an error, never a panic or a wrong value.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, encoder, text, wantErr string
	}{
		{"unknown encoder", "yaml", "a: 1", "unknown encoder"},
		{"invalid UTF-8", EncoderKV, "a: \xff", "not valid UTF-8"},
		{"compact: not JSON", EncoderCompact, `{"a":}`, "want a value"},
		{"compact: lone surrogate", EncoderCompact, `"\ud800"`, "surrogate"},
		{"kv: no separator", EncoderKV, "a 1", "not a key: value line"},
		{"kv: empty value", EncoderKV, "a: ", "missing value"},
		{"kv: empty", EncoderKV, "", "empty key"},
		{"kv: bad quoted value", EncoderKV, `a: "x`, "unterminated"},
		{"kv: junk after JSON", EncoderKV, `a: [1] x`, "after the value"},
		{"kv: table not allowed", EncoderKV, "a[1]:\nx\n1", "not a key: value line"},
		{"table: no count", EncoderTable, "a|b\n1|2", "is not [rows]:"},
		{"table: zero rows", EncoderTable, "[0]:\na", "is not [rows]:"},
		{"table: too few rows", EncoderTable, "[3]:\na\n1", "3 rows announced"},
		{"table: too many cells", EncoderTable, "[1]:\na\n1|2", "after the last cell"},
		{"table: too few cells", EncoderTable, "[1]:\na|b\n1", "1 cells, want 2"},
		{"table: empty header name", EncoderTable, "[1]:\na||b\n1|2|3", "empty key"},
		{"table: bad header quote", EncoderTable, "[1]:\n\"a\n1", "unterminated"},
		{"table: value under a constant", EncoderTable, "[1]:\na=1\n2", "name=value column"},
		{"table: empty constant", EncoderTable, "[1]:\na=|b\n|2", "empty value after '='"},
		{"table: bad cell JSON", EncoderTable, "[1]:\na\n{\"x\":", "want"},
		{"table: junk after a quoted cell", EncoderTable, "[1]:\na|b\n\"x\"y|1", "unexpected \"y|1\" after cell 1"},
		{"wrapper: short table", EncoderWrapper, "n: 1\nitems[2]:\na\n1", "announces 2 rows"},
		{"wrapper: bad row", EncoderWrapper, "items[1]:\na|b\n1|2|3", "table row 1"},
		{"md_csv: bare quote", EncoderMarkdownCSV, "a,b\nx\"y,1", "csv"},
		{"md_csv: ragged rows", EncoderMarkdownCSV, "a,b\n1", "csv"},
		{"md_csv: nothing", EncoderMarkdownCSV, "", "no header row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.encoder, tt.text)
			if err == nil {
				t.Fatalf("Decode(%s, %q) = %q, want an error", tt.encoder, tt.text, got)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}

// TestDecodeOriginal checks that the empty encoder returns the text.
func TestDecodeOriginal(t *testing.T) {
	got, err := Decode("", "anything \xff")
	if err != nil || got != "anything \xff" {
		t.Errorf(`Decode("", …) = %q, %v`, got, err)
	}
}

// TestGate checks the round-trip gate itself: a corrupted encoding, or
// one of another document, does not pass.
func TestGate(t *testing.T) {
	d := inspect(`[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":3}]`)
	good, ok := encodeWith(EncoderTable, &d)
	if !ok || !roundTrips(EncoderTable, good, &d) {
		t.Fatalf("the gate rejects a correct table:\n%s", good)
	}
	for _, bad := range []string{
		strings.Replace(good, "x", "z", 1),            // a changed value
		strings.Replace(good, "|y", "|", 1),           // a value made absent
		strings.Replace(good, "a|b", "b|a", 1),        // key order
		strings.Replace(good, "1|x", `"1"|x`, 1),      // a number made a string
		strings.Replace(good, "[3]:", "[2]:", 1)[:14], // a row dropped
		"not a table",
	} {
		if roundTrips(EncoderTable, bad, &d) {
			t.Errorf("the gate accepts a wrong table:\n%s", bad)
		}
	}
	if roundTrips(EncoderKV, good, &d) {
		t.Error("the gate accepts a table decoded as kv")
	}
}

// TestInexactKept checks that a document with an unpaired surrogate
// escape is kept as it is: no encoding could reproduce it.
func TestInexactKept(t *testing.T) {
	text := "[\n  {\"a\": \"\\ud800\"},\n  {\"a\": \"b\"}\n]"
	res := Encode(text, nil)
	if res.Encoder != "" || res.Text != text || res.Shape != JSONArrayObjects {
		t.Errorf("Encode = %+v, want the input kept as %s", res, JSONArrayObjects)
	}
}
