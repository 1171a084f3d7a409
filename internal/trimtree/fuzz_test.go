package trimtree

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzTrim trims arbitrary text to arbitrary budgets with the real o200k
// counter: Trim never panics, fails only on a budget below 1, returns the
// input untouched when it does not trim, and when it trims stays within
// budget-HintReserve with a well-formed, non-empty Kept, valid JSON from
// valid JSON, and the kept elements of a top-level array.
func FuzzTrim(f *testing.F) {
	count := o200k(f)
	f.Add(`[{"id":1,"title":"cache miss"},{"id":2,"title":"login"},{"id":3,"title":"cache warm"}]`, uint16(60), "cache")
	f.Add("{\n  \"total\": 2,\n  \"items\": [\n    {\"a\": \"x\"},\n    {\"b\": \"y\"}\n  ]\n}\n", uint16(55), "y")
	f.Add("INFO ok\nERROR timeout in payment\nINFO ok\nWARN slow\n", uint16(52), "timeout")
	f.Add(`[{"a":1},{"b":`, uint16(50), "")
	f.Add(`{"data":{"nodes":["a","b","c","d"]},"x":1}`, uint16(55), "c")
	f.Add("", uint16(1), "x")
	f.Add("[\"\\u00e9\\n\",\"\xff\"]", uint16(49), "é")
	f.Fuzz(func(t *testing.T, text string, budget uint16, args string) {
		sig := Signals{Args: strings.Fields(args), Recent: strings.Fields(text)[:min(3, len(strings.Fields(text)))]}
		res, err := Trim(text, int(budget), sig, count)
		if (err != nil) != (budget < 1) {
			t.Fatalf("budget %d: error %v", budget, err)
		}
		if err != nil {
			return
		}
		if res.Strategy == StrategyNone {
			if res.Text != text || len(res.Kept) != 0 || res.Before != res.After {
				t.Fatalf("Strategy none but Text changed or Kept %v", res.Kept)
			}
			return
		}
		checkTrimmed(t, text, int(budget), res, count)
		if json.Valid([]byte(text)) {
			if res.Format != FormatJSON || !json.Valid([]byte(res.Text)) {
				t.Fatalf("JSON in, Format %q, valid out %v:\n%s", res.Format, json.Valid([]byte(res.Text)), res.Text)
			}
			if res.Path == "" {
				checkElements(t, text, res)
			}
		}
	})
}
