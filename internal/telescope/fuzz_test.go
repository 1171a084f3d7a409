package telescope

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// FuzzStrategies feeds arbitrary text to every deterministic strategy as each kind of unit.
// Property: an abstract is always produced, and its parts are well-formed spans of the unit:
// inside its lines, start before end, in order.
func FuzzStrategies(f *testing.F) {
	for _, s := range []string{
		"# T\n\nLead. More.\n\n## S\ntext\n", "Title\n=====\n\nBody.\n\nSub\n---\n", "```\n# not a heading\n```\n",
		"a,b\n1,\"2\n3\"\n", "{\"runs\":[{\"results\":[{\"ruleId\":\"r\",\"level\":\"error\"}]}]}", "{\"a\":1}\n{\"b\":[1,2]}\n",
		"def f(x):\n    # TODO: x\n    return x\n\n\nclass C:\n    pass\n", "\"\"\"doc", "/* unterminated", "| Severity | Title |\n|---|---|\n| High | bad |\n",
	} {
		f.Add(s)
	}
	units := []struct{ path, kind, lang string }{
		{"a.md", string(UnitDoc), "markdown"}, {"a.rst", string(UnitDoc), "rst"}, {"a.txt", string(UnitDoc), "text"},
		{"a.csv", string(UnitData), "csv"}, {"a.json", string(UnitData), "json"}, {"a.jsonl", string(UnitData), "jsonl"},
		{"a.py", string(UnitCode), "python"}, {"a.go", string(UnitCode), "go"},
	}
	f.Fuzz(func(t *testing.T, text string) {
		sum := sha256.Sum256([]byte(text))
		for _, k := range units {
			for _, name := range deterministicNames {
				u := &Unit{Path: k.path, Kind: UnitKind(k.kind), Lang: k.lang, Content: []byte(text), Hash: hex.EncodeToString(sum[:]), symbols: ParseSymbols{}}
				a, err := deterministic(Spec{Name: name, Version: 1, Kind: name}).Abstract(t.Context(), u)
				if err != nil {
					t.Fatalf("%s on %s: %v", name, k.path, err)
				}
				if a.Text == "" {
					t.Fatalf("%s on %s: empty abstract", name, k.path)
				}
				n := len(u.Lines())
				prev := 0
				for _, p := range a.Parts {
					if p.StartLine < 1 || p.EndLine > n || p.StartLine > p.EndLine || p.StartLine < prev {
						t.Fatalf("%s on %s: part %+v outside 1..%d or out of order (prev %d)", name, k.path, p, n, prev)
					}
					prev = p.StartLine
				}
			}
		}
	})
}
