package pipeline

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineDiffApplies: for every pair, the written hunks, parsed back and
// applied to the old text, give the new text byte for byte.
func TestLineDiffApplies(t *testing.T) {
	file := sourceFile(3 << 10)
	lines := cutLines(file)
	tests := []struct{ name, old, new string }{
		{"one line changed", file, strings.Replace(file, "serve(w, r, 7)", "serve(w, r, 70)", 1)},
		{"line added at the end", file, file + "// trailer\n"},
		{"last line without newline", file, file + "tail"},
		{"newline dropped at the end", file, strings.TrimSuffix(file, "\n")},
		{"line removed", file, strings.Join(append(append([]string{}, lines[:5]...), lines[6:]...), "")},
		{"inserted first", file, "package x\n" + file},
		{"crlf", strings.ReplaceAll(file, "\n", "\r\n"), strings.Replace(strings.ReplaceAll(file, "\n", "\r\n"), "handler010", "handlerTen", 1)},
		{"lines looking like hunks", "@@ -1 +1 @@\n-a\n+b\n]\n", "@@ -1 +1 @@\n-a\n+c\n]\n"},
		{"empty old", "", "a\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, ok := diffLines(cutLines(tt.old), cutLines(tt.new))
			if !ok {
				t.Fatal("no diff")
			}
			body := formatHunks(hunks) + diffEnd
			got, err := applyHunks(tt.old, body)
			if err != nil {
				t.Fatalf("apply: %v\n%s", err, body)
			}
			if got != tt.new {
				t.Errorf("applied diff gives\n%q\nwant\n%q\ndiff:\n%s", got, tt.new, body)
			}
		})
	}
}

// TestLineDiffRandom: random edits of a text, diffed and applied back.
func TestLineDiffRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	base := cutLines(sourceFile(2 << 10))
	for i := range 300 {
		lines := append([]string(nil), base...)
		for range 1 + r.IntN(8) {
			j := r.IntN(len(lines))
			switch r.IntN(3) {
			case 0:
				lines = append(lines[:j], lines[j+1:]...)
			case 1:
				lines = append(lines[:j], append([]string{"new line\n"}, lines[j:]...)...)
			default:
				lines[j] = "changed\n"
			}
		}
		old, new := strings.Join(base, ""), strings.Join(lines, "")
		hunks, ok := diffLines(base, lines)
		if !ok {
			t.Fatalf("case %d: no diff", i)
		}
		if got, err := applyHunks(old, formatHunks(hunks)+diffEnd); err != nil || got != new {
			t.Fatalf("case %d: apply gives a different text (%v)", i, err)
		}
	}
}

// TestNearRepeatText: a file read again after a one-line edit comes back
// as a diff naming the earlier call; a text that differs too much, or a
// call with other arguments, comes back whole.
func TestNearRepeatText(t *testing.T) {
	file := sourceFile(7 << 10)
	edited := strings.Replace(file, "serve(w, r, 42)", "serveTraced(w, r, 42)", 1)
	tests := []struct {
		name     string
		args     string
		second   string
		wantDiff bool
	}{
		{"one line edited", `{"path":"/repo/a.go"}`, edited, true},
		{"other arguments", `{"path":"/repo/b.go"}`, edited, false},
		{"rewritten", `{"path":"/repo/a.go"}`, strings.ReplaceAll(file, "serve", "handle"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default(Options{})
			p.OutputSchema("fs__read_text_file", json.RawMessage(carrierSchema))
			first := &Call{Session: "s", Tool: "fs__read_text_file", Args: json.RawMessage(`{"path":"/repo/a.go"}`)}
			p.After(t.Context(), first, fsResult(file))
			second := &Call{Session: "s", Tool: "fs__read_text_file", Args: json.RawMessage(tt.args)}
			res := p.After(t.Context(), second, fsResult(tt.second))
			got := onlyText(t, res)
			if sc := res.StructuredContent.(map[string]any)["content"]; sc != got {
				t.Errorf("structuredContent %q differs from content %q", sc, got)
			}
			if !tt.wantDiff {
				if got != tt.second {
					t.Errorf("want the text whole, got %.300q", got)
				}
				return
			}
			t.Logf("%d-byte read after a one-line edit: %d bytes:\n%s", len(tt.second), len(got), got)
			head := `[winnow: same as the result of fs__read_text_file {"path":"/repo/a.go"} (call 1) except:` + "\n"
			if !strings.HasPrefix(got, head) {
				t.Fatalf("want a diff against call 1, got %.300q", got)
			}
			if applied, err := applyHunks(file, strings.TrimPrefix(got, head)); err != nil || applied != tt.second {
				t.Errorf("the diff does not give the new text: %v", err)
			}
			if n := len(got); n > 300 {
				t.Errorf("the diff takes %d bytes; want at most 300", n)
			}
			again := onlyText(t, p.After(t.Context(), second, fsResult(tt.second)))
			if !strings.HasPrefix(again, "[same result as fs__read_text_file") {
				t.Errorf("the same text a third time: %.200q, want a reference", again)
			}
		})
	}
}
