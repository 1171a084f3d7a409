package pipeline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var partLine = regexp.MustCompile(`^\[part (\d+) of (\d+) of one item too large for a page; the parts, joined with nothing between them, are the item\]\n`)

// TestPagesObeyBudget: no page of winnow__more counts more than the call
// budget, whatever the items; an item larger than the budget comes in
// parts that say so and, joined, are the item; every item arrives once.
func TestPagesObeyBudget(t *testing.T) {
	const budget = 400
	small := func(i int) map[string]any {
		return map[string]any{"name": fmt.Sprintf("entry-m%04d", i), "type": "file"}
	}
	var giantChildren []map[string]any
	for i := range 400 {
		giantChildren = append(giantChildren, small(1000+i))
	}
	tests := []struct {
		name string
		list []any
	}{
		{"one giant item among small ones", []any{small(0), small(1), map[string]any{"name": "big", "type": "directory", "children": giantChildren}, small(2)}},
		{"a giant single-line string", []any{small(0), map[string]any{"name": strings.Repeat("averyveryverylongname", 600)}, small(1)}},
		{"many small items", func() []any {
			var l []any
			for i := range 300 {
				l = append(l, small(i))
			}
			return l
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{CallBudget: budget}, Dedup{}, Trim{})
			text := mustJSON(t, tt.list, true)
			c := &Call{Session: "s", Tool: "fs__directory_tree", Args: json.RawMessage(`{}`)}
			view := onlyText(t, p.After(t.Context(), c, textResult(text)))
			body, hint := splitHint(view)
			m := nextCall.FindStringSubmatch(hint)
			if m == nil {
				t.Fatalf("not trimmed: %.200q", hint)
			}
			_, got := splitArray(t, body)
			args := json.RawMessage(m[1])
			var parts []string
			pages := 0
			for {
				pages++
				res := p.More("s", args)
				if res.IsError {
					t.Fatalf("page %d: %s", pages, onlyText(t, res))
				}
				page := onlyText(t, res)
				if n := p.opts.Counter.Count(page); n > budget {
					t.Errorf("page %d counts %d tokens, over the budget of %d (%d bytes)", pages, n, budget, len(page))
				}
				body, hint := splitHint(page)
				if pm := partLine.FindStringSubmatch(body); pm != nil {
					parts = append(parts, strings.TrimSuffix(body[len(pm[0]):], "\n"))
					if pm[1] == pm[2] {
						got = append(got, strings.Join(parts, ""))
						parts = nil
					}
				} else {
					_, its := splitArray(t, body)
					got = append(got, its...)
				}
				m := nextCall.FindStringSubmatch(hint)
				if m == nil {
					break
				}
				args = json.RawMessage(m[1])
			}
			_, want := splitArray(t, text)
			slices.Sort(got)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("items recovered (-want +got):\n%s", diff)
			}
			t.Logf("%d pages", pages)
		})
	}
}
