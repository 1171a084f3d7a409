package trimtree

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// budgetFor returns a budget that leaves exactly room for items tokens of
// items in l's output, besides its wrapper and HintReserve.
func budgetFor(l *list, items int, count func(string) int) int {
	return HintReserve + count(l.prefix()) + count(l.suffix()) + items
}

func mustList(t *testing.T, text string) *list {
	t.Helper()
	l, ok := findList(text)
	if !ok {
		t.Fatalf("no list in %.80q", text)
	}
	return l
}

func TestTrimKeepsItemsMatchingArgs(t *testing.T) {
	count := o200k(t)
	iss := issues(rand.New(rand.NewPCG(1, 2)), 40)
	match := []int{7, 23, 31}
	for _, i := range match {
		iss[i].Title = "websocket reconnect loops forever"
	}
	in := marshal(t, iss, true)
	l := mustList(t, in)
	costs := l.costs(count)
	room := costs[7] + costs[23] + costs[31] + costs[0] // the matches and about one more
	budget := budgetFor(l, room, count)

	res, err := Trim(in, budget, Signals{Args: []string{"websocket", "reconnect"}}, count)
	if err != nil {
		t.Fatal(err)
	}
	checkKept(t, in, budget, res, count)
	if res.Strategy != StrategyDP {
		t.Errorf("Strategy = %q, want %q", res.Strategy, StrategyDP)
	}
	for _, i := range match {
		if !slices.Contains(res.Kept, i) {
			t.Errorf("item %d matches the arguments but was left out; kept %v", i, res.Kept)
		}
	}
	if len(res.Kept) > len(match)+1 {
		t.Errorf("kept %v: more items than the room for about %d", res.Kept, len(match)+1)
	}
}

func TestTrimArgsOutweighRecent(t *testing.T) {
	count := o200k(t)
	iss := issues(rand.New(rand.NewPCG(3, 4)), 30)
	iss[5].Title = "flaky certificate rotation"
	iss[20].Title = "flaky keystore migration"
	in := marshal(t, iss, false)
	l := mustList(t, in)
	costs := l.costs(count)
	budget := budgetFor(l, max(costs[5], costs[20])+1, count)

	for _, tc := range []struct {
		name string
		sig  Signals
		want int
	}{
		{"args certificate", Signals{Args: []string{"certificate"}, Recent: []string{"keystore"}}, 5},
		{"args keystore", Signals{Args: []string{"keystore"}, Recent: []string{"certificate"}}, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Trim(in, budget, tc.sig, count)
			if err != nil {
				t.Fatal(err)
			}
			checkKept(t, in, budget, res, count)
			if !slices.Contains(res.Kept, tc.want) {
				t.Errorf("kept %v, want item %d (it matches the arguments)", res.Kept, tc.want)
			}
		})
	}
}

func TestTrimRareTermsWeighMore(t *testing.T) {
	count := o200k(t)
	iss := issues(rand.New(rand.NewPCG(5, 6)), 30)
	for i := range iss {
		iss[i].Title = "docs site has a typo"
		if i%3 == 0 {
			iss[i].Title = "cache layer is slow" // 10 of 30
		}
	}
	iss[13].Title = "security advisory for the docs site" // 1 of 30
	in := marshal(t, iss, false)
	l := mustList(t, in)
	costs := l.costs(count)
	budget := budgetFor(l, slices.Max(costs)+1, count) // room for any one item, not two
	res, err := Trim(in, budget, Signals{Args: []string{"cache", "security"}}, count)
	if err != nil {
		t.Fatal(err)
	}
	checkKept(t, in, budget, res, count)
	if diff := cmp.Diff([]int{13}, res.Kept); diff != "" {
		t.Errorf("want only item 13, the one with the rarer term (-want +got):\n%s", diff)
	}
}

func TestTrimFlatSignalKeepsPrefix(t *testing.T) {
	count := o200k(t)
	iss := issues(rand.New(rand.NewPCG(7, 8)), 50)
	in := marshal(t, iss, true)
	l := mustList(t, in)
	costs := l.costs(count)
	budget := budgetFor(l, costs[0]+costs[1]+costs[2]+costs[3]+costs[4]+2, count)
	for _, tc := range []struct {
		name string
		sig  Signals
	}{
		{"no signals", Signals{}},
		{"no item matches", Signals{Args: []string{"kubernetes"}, Recent: []string{"helm"}}},
		{"every item matches", Signals{Args: []string{"open", "widget"}}}, // state and URL of every issue
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Trim(in, budget, tc.sig, count)
			if err != nil {
				t.Fatal(err)
			}
			checkKept(t, in, budget, res, count)
			if res.Strategy != StrategyOrder {
				t.Errorf("Strategy = %q, want %q", res.Strategy, StrategyOrder)
			}
			if diff := cmp.Diff([]int{0, 1, 2, 3, 4}, res.Kept); diff != "" {
				t.Errorf("Kept (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTrimWrapperKeepsOtherFields(t *testing.T) {
	count := o200k(t)
	iss := issues(rand.New(rand.NewPCG(9, 10)), 60)
	iss[44].Title = "deadlock in scheduler"
	type page struct {
		TotalCount int     `json:"total_count"`
		Incomplete bool    `json:"incomplete_results"`
		Items      []issue `json:"items"`
		Next       string  `json:"next_cursor"`
	}
	in := marshal(t, page{TotalCount: 60, Items: iss, Next: "Y3Vyc29yOjYw"}, true)
	l := mustList(t, in)
	budget := budgetFor(l, 600, count)
	res, err := Trim(in, budget, Signals{Args: []string{"deadlock"}}, count)
	if err != nil {
		t.Fatal(err)
	}
	checkKept(t, in, budget, res, count)
	if res.Path != "items" || res.Total != 60 {
		t.Errorf("Path %q, Total %d; want items, 60", res.Path, res.Total)
	}
	if !slices.Contains(res.Kept, 44) {
		t.Errorf("kept %v, want 44", res.Kept)
	}
	var got page
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatal(err)
	}
	if got.TotalCount != 60 || got.Incomplete || got.Next != "Y3Vyc29yOjYw" {
		t.Errorf("wrapper fields changed: total_count %d, incomplete_results %v, next_cursor %q",
			got.TotalCount, got.Incomplete, got.Next)
	}
}

func TestTrimFindsTheMainList(t *testing.T) {
	count := func(s string) int { return len(s) } // a byte is a token: easy budgets
	items := func(n int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`{"n":%d,"text":"%s"}`, i, strings.Repeat("x", 40)))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	for _, tc := range []struct {
		name, in, path string
	}{
		{"top-level array", items(20), ""},
		{"wrapper", `{"count":20,"items":` + items(20) + `}`, "items"},
		{"nested", `{"data":{"repository":{"issues":{"totalCount":20,"nodes":` + items(20) + `}}}}`, "data.repository.issues.nodes"},
		{"odd key", `{"the items":` + items(20) + `}`, `["the items"]`},
		{"escaped key", `{"it\u0065ms":` + items(20) + `}`, `items`},
		{"largest array", `{"a":` + items(3) + `,"b":` + items(20) + `,"c":` + items(5) + `}`, "b"},
		{"objects over a larger array of strings", `{"tags":["` + strings.Repeat("t", 2000) + `"],"items":` + items(20) + `}`, "items"},
		{"array of strings", `{"files":["` + strings.Repeat(`a.go","`, 300) + `z.go"]}`, "files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := mustList(t, tc.in)
			budget := HintReserve + len(l.prefix()) + len(l.suffix()) + 200
			res, err := Trim(tc.in, budget, Signals{}, count)
			if err != nil {
				t.Fatal(err)
			}
			if res.Strategy == StrategyNone || res.Path != tc.path {
				t.Fatalf("Strategy %q, Path %q (%s); want a trimmed list at %q", res.Strategy, res.Path, res.Reason, tc.path)
			}
			if !json.Valid([]byte(res.Text)) || len(res.Text) > budget-HintReserve {
				t.Errorf("result: valid %v, %d bytes:\n%s", json.Valid([]byte(res.Text)), len(res.Text), res.Text)
			}
		})
	}
}

func TestTrimLines(t *testing.T) {
	count := o200k(t)
	var b strings.Builder
	r := rand.New(rand.NewPCG(11, 12))
	want := []int{}
	for i := range 200 {
		switch {
		case i%37 == 5:
			fmt.Fprintf(&b, "2026-03-01T10:%02d:%02dZ ERROR payment gateway timeout after 30s (order %d)\n", i/60, i%60, r.IntN(1e6))
			want = append(want, i)
		default:
			fmt.Fprintf(&b, "2026-03-01T10:%02d:%02dZ INFO request served path=/api/v1/items/%d status=200\n", i/60, i%60, r.IntN(1e6))
		}
	}
	in := b.String()
	l := mustList(t, in)
	costs := l.costs(count)
	room := 0
	for _, i := range want {
		room += costs[i]
	}
	budget := budgetFor(l, room+costs[0]*3, count)
	res, err := Trim(in, budget, Signals{Args: []string{"payment timeout"}}, count)
	if err != nil {
		t.Fatal(err)
	}
	checkKept(t, in, budget, res, count)
	if res.Format != FormatLines || res.Total != 200 {
		t.Errorf("Format %q, Total %d; want lines, 200", res.Format, res.Total)
	}
	for _, i := range want {
		if !slices.Contains(res.Kept, i) {
			t.Errorf("line %d matches the arguments but was left out", i)
		}
	}
	lines := strings.Split(in, "\n")
	var kept []string
	for _, k := range res.Kept {
		kept = append(kept, lines[k])
	}
	if diff := cmp.Diff(strings.Join(kept, "\n")+"\n", res.Text); diff != "" {
		t.Errorf("Text is not the kept lines (-want +got):\n%s", diff)
	}
}

func TestTrimLinesTrailingNewline(t *testing.T) {
	count := func(s string) int { return len(s) }
	for _, tc := range []struct{ name, in, want string }{
		{"with", strings.Repeat("aaaaaaaaa\n", 20), strings.Repeat("aaaaaaaaa\n", 4)},
		{"without", strings.TrimSuffix(strings.Repeat("aaaaaaaaa\n", 20), "\n"), strings.Repeat("aaaaaaaaa\n", 3) + "aaaaaaaaa"},
		{"crlf", strings.Repeat("aaaaaaaa\r\n", 20), strings.Repeat("aaaaaaaa\r\n", 4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Trim(tc.in, HintReserve+40, Signals{}, count)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Text); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTrimMalformedJSONIsLines(t *testing.T) {
	count := o200k(t)
	full := marshal(t, issues(rand.New(rand.NewPCG(13, 14)), 30), true)
	for _, in := range []string{
		full[:len(full)/2],                         // truncated
		strings.Replace(full, `"id":`, `id:`, 1),   // unquoted key
		strings.Replace(full, "},", "}", 1),        // missing comma
		"[" + strings.Repeat(`{"a": 1}`+"\n", 300), // no commas, no end
	} {
		res, err := Trim(in, 500, Signals{Args: []string{"cache"}}, count)
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != FormatLines || res.Strategy == StrategyNone {
			t.Fatalf("Format %q, Strategy %q (%s); want trimmed lines", res.Format, res.Strategy, res.Reason)
		}
		checkKept(t, in, 500, res, count)
	}
}

func TestTrimHugeItems(t *testing.T) {
	count := o200k(t)
	huge := strings.Repeat("timeout storm ", 2000) // ~4000 tokens
	small := make([]map[string]string, 12)
	for i := range small {
		small[i] = map[string]string{"name": fmt.Sprintf("job-%d", i), "status": "ok"}
	}
	t.Run("skipped", func(t *testing.T) {
		list := []any{small[0], map[string]string{"name": "storm", "log": huge}}
		for _, s := range small[1:] {
			list = append(list, s)
		}
		in := marshal(t, list, false)
		res, err := Trim(in, 1000, Signals{Args: []string{"timeout", "storm"}}, count)
		if err != nil {
			t.Fatal(err)
		}
		checkKept(t, in, 1000, res, count)
		if slices.Contains(res.Kept, 1) || len(res.Kept) != 12 {
			t.Errorf("kept %v; want the 12 small items and not the huge one", res.Kept)
		}
	})
	t.Run("none fits", func(t *testing.T) {
		in := marshal(t, []string{huge, huge + "x", huge + "y"}, false)
		res, err := Trim(in, 1000, Signals{Args: []string{"timeout"}}, count)
		if err != nil {
			t.Fatal(err)
		}
		want := Result{Text: in, Total: 3, Before: res.Before, After: res.Before, Strategy: StrategyNone, Format: FormatJSON, Reason: reasonNoneFit}
		if diff := cmp.Diff(want, res); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestTrimUnchanged(t *testing.T) {
	count := o200k(t)
	big := strings.Repeat("word ", 400)
	for _, tc := range []struct {
		name, in string
		budget   int
		reason   string
	}{
		{"empty", "", 1, reasonFits},
		{"fits", `[{"a":1},{"a":2}]`, 100, reasonFits},
		{"one long line", big, 100, reasonNoList},
		{"json object without array", `{"text":"` + big + `"}`, 100, reasonNoList},
		{"json string", `"` + big + `"`, 100, reasonNoList},
		{"empty array in a large object", `{"items":[],"text":"` + big + `"}`, 100, reasonNoList},
		{"wrapper larger than the budget", `{"items":[1,2,3],"text":"` + big + `"}`, 100, reasonOverheads},
		{"budget below the reserve", "a\nb\nc\n" + big, HintReserve, reasonOverheads},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Trim(tc.in, tc.budget, Signals{Args: []string{"word"}}, count)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tc.in || res.Strategy != StrategyNone || len(res.Kept) != 0 || res.Reason != tc.reason {
				t.Errorf("got Strategy %q, Reason %q, Kept %v, Text changed %v; want none, %q",
					res.Strategy, res.Reason, res.Kept, res.Text != tc.in, tc.reason)
			}
			if n := count(tc.in); res.Before != n || res.After != n {
				t.Errorf("Before %d, After %d; want %d", res.Before, res.After, n)
			}
		})
	}
}

func TestTrimErrors(t *testing.T) {
	count := func(s string) int { return len(s) }
	for _, tc := range []struct {
		name   string
		budget int
		count  func(string) int
		want   string
	}{
		{"zero budget", 0, count, "trimtree: budget of 0 tokens: want at least 1"},
		{"negative budget", -3, count, "trimtree: budget of -3 tokens: want at least 1"},
		{"nil counter", 100, nil, "trimtree: nil token counter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Trim("[1,2,3]", tc.budget, Signals{}, tc.count)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTrimNeverOverBudget trims random JSON arrays, wrappers and line lists
// to random budgets with the real o200k counter and checks every result:
// within budget-HintReserve, the kept elements exactly, valid JSON, and
// "nothing fits" only when not one item fits on its own.
func TestTrimNeverOverBudget(t *testing.T) {
	count := o200k(t)
	r := rand.New(rand.NewPCG(15, 16))
	trimmed := 0
	for trial := range 300 {
		in := randomDoc(r)
		sig := Signals{Args: randomWords(r, in, 3), Recent: randomWords(r, in, 2)}
		budget := 1 + r.IntN(count(in)+50)
		res, err := Trim(in, budget, sig, count)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		switch {
		case res.Strategy != StrategyNone:
			trimmed++
			checkKept(t, in, budget, res, count)
		case res.Text != in:
			t.Fatalf("trial %d: Strategy none but Text changed", trial)
		case res.Total > 0 && res.Reason == reasonNoneFit:
			l := mustList(t, in)
			for i := range l.items {
				if count(l.render([]int{i})) <= budget-HintReserve {
					t.Fatalf("trial %d: nothing kept, but item %d fits alone", trial, i)
				}
			}
		}
	}
	if trimmed < 150 {
		t.Errorf("only %d of 300 trials trimmed: the generator is too easy", trimmed)
	}
}

// randomDoc returns a random list: an array of random objects, compact or
// indented, maybe in a wrapper, or lines.
func randomDoc(r *rand.Rand) string {
	n := 1 + r.IntN(60)
	var elems []any
	for range n {
		elems = append(elems, randomObject(r))
	}
	var v any = elems
	if r.IntN(3) == 0 {
		v = map[string]any{"total": n, "items": elems, "note": randomText(r, 20)}
	}
	if r.IntN(4) == 0 {
		var b strings.Builder
		for range n {
			b.WriteString(randomText(r, 120))
			b.WriteByte('\n')
		}
		return b.String()
	}
	var b []byte
	if r.IntN(2) == 0 {
		b, _ = json.MarshalIndent(v, "", strings.Repeat(" ", r.IntN(5)))
	} else {
		b, _ = json.Marshal(v)
	}
	return string(b)
}

func randomObject(r *rand.Rand) map[string]any {
	o := map[string]any{"id": r.IntN(1e6), "title": randomText(r, 60)}
	if r.IntN(2) == 0 {
		o["body"] = randomText(r, r.IntN(2000))
	}
	if r.IntN(3) == 0 {
		o["tags"] = []string{randomText(r, 8), randomText(r, 8)}
	}
	return o
}

var alphabet = []string{"alpha", "beta", "gamma", "delta", "parseConfig", "load_cache", "HTTPServer",
	"timeout", "retry", "é", "日本語", "🙂", "\n", "\t", "\"", "\\", " ", " ", " ", "{", "}", ",", "42", "3.14"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func randomWords(r *rand.Rand, text string, n int) []string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	return out
}

// TestTrimOddCounters runs Trim with counters that break the usual rules
// (negative, constant, wildly non-additive): it must not panic, and what it
// returns when it trims must still count within the budget by that counter.
func TestTrimOddCounters(t *testing.T) {
	in := marshal(t, issues(rand.New(rand.NewPCG(17, 18)), 40), false)
	for _, tc := range []struct {
		name  string
		count func(string) int
	}{
		{"negative for odd lengths", func(s string) int {
			if len(s)%2 == 1 {
				return -5
			}
			return len(s) / 4
		}},
		{"constant", func(string) int { return 700 }},
		{"quadratic", func(s string) int { return len(s) * len(s) / 50000 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Trim(in, 400, Signals{Args: []string{"bug", "question"}}, tc.count)
			if err != nil {
				t.Fatal(err)
			}
			if res.Strategy != StrategyNone && tc.count(res.Text) > 400-HintReserve {
				t.Errorf("%s: Text counts %d", res.Strategy, tc.count(res.Text))
			}
			if res.Strategy == StrategyNone && res.Text != in {
				t.Error("Strategy none but Text changed")
			}
		})
	}
}

// TestTrimItems checks that Result.Items are the ranges Kept indexes: the
// kept items with the separators before them, between the text before the
// first item and after the last, give Text back.
func TestTrimItems(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"total": 40, "items": [`)
	for i := range 40 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": %d, "title": "issue number %d"}`, i, i)
	}
	b.WriteString("]}\n")
	text := b.String()
	count := func(s string) int { return (len(s) + 3) / 4 }
	for _, in := range []string{text, strings.Repeat("a log line of some length\n", 60)} {
		res, err := Trim(in, count(in)/2, Signals{}, count)
		if err != nil || res.Strategy == StrategyNone {
			t.Fatalf("Trim = %+v, %v; want a trim", res, err)
		}
		if len(res.Items) != res.Total {
			t.Fatalf("%d Items, Total %d", len(res.Items), res.Total)
		}
		for i, it := range res.Items {
			item := in[it.Start:it.End]
			want := fmt.Sprintf(`{"id": %d, "title": "issue number %d"}`, i, i)
			if res.Format == FormatLines {
				want = "a log line of some length"
			}
			if item != want {
				t.Fatalf("item %d is %q, want %q", i, item, want)
			}
		}
		var got strings.Builder
		got.WriteString(in[:res.Items[0].Start])
		for j, k := range res.Kept {
			if j > 0 {
				got.WriteString(in[res.Items[k-1].End:res.Items[k].Start])
			}
			got.WriteString(in[res.Items[k].Start:res.Items[k].End])
		}
		got.WriteString(in[res.Items[len(res.Items)-1].End:])
		if got.String() != res.Text {
			t.Errorf("Items and Kept render\n%s\nwant Text\n%s", got.String(), res.Text)
		}
	}
}
