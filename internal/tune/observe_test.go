package tune

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func grep(pattern, path, result string) Step {
	return Step{Tool: "Grep", Args: map[string]any{"pattern": pattern, "path": path}, Result: result, Tokens: len(result)}
}

func read(file string) Step {
	return Step{Tool: "Read", Args: map[string]any{"file_path": file}, Result: "package x", Tokens: 3}
}

func edit(file string) Step {
	return Step{Tool: "Edit", Args: map[string]any{"file_path": file}, Result: "ok", Tokens: 1}
}

// TestObservationsLags checks the lag counts: up to 3 calls after, not 4, and not
// across sessions.
func TestObservationsLags(t *testing.T) {
	o := NewObservations()
	o.Add([]Step{{Tool: "A", Tokens: -1}, {Tool: "B", Tokens: 5}, {Tool: "C", Tokens: 7, Latency: time.Second}, {Tool: "D"}, {Tool: "E"}})
	o.Add([]Step{{Tool: "E"}, {Tool: "A", Tokens: -1}})
	a := o.Tools["A"]
	got := map[string][Window]int{}
	for next, e := range a.Next {
		got[next] = e.Lag
	}
	want := map[string][Window]int{"B": {1, 0, 0}, "C": {0, 1, 0}, "D": {0, 0, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("A's edges (-want +got):\n%s", diff)
	}
	if o.Tools["E"].Next["A"].Lag != [Window]int{1, 0, 0} {
		t.Errorf("E→A: %v", o.Tools["E"].Next["A"].Lag)
	}
	rows := o.Edges()
	if len(rows) != 10 || rows[0].Lags[0] != 1 || rows[len(rows)-1].Lags[0] != 0 {
		t.Errorf("edges: %+v", rows)
	}
	for _, r := range rows {
		if r.Prev == "A" && r.Next == "D" && (r.Lags != [Window]int{0, 0, 1} || r.PrevCalls != 2 || r.Probability != 0) {
			t.Errorf("A→D row: %+v", r)
		}
	}
	if o.Sessions != 2 || o.Calls != 7 || a.Calls != 2 {
		t.Errorf("sessions %d calls %d, A %d calls", o.Sessions, o.Calls, a.Calls)
	}
	if p := o.Probability("A", "B"); p != 0.5 {
		t.Errorf("P(B after A) = %v, want 1 of A's 2 calls", p)
	}
	if got := o.Tools["A"].Tokens; len(got) != 0 {
		t.Errorf("a negative size was kept: %v", got)
	}
	if c := o.Tools["C"]; len(c.Tokens) != 1 || c.Tokens[0] != 7 || len(c.Latencies) != 1 {
		t.Errorf("C: %+v", c)
	}
}

// TestProjections checks which edges get arguments: a read of a file the search
// listed, a read of the file just edited; not a search after a search (its pattern
// comes from nowhere), not an edge seen in fewer than minPairs pairs.
func TestProjections(t *testing.T) {
	o := NewObservations()
	hits := "src/a.go:3:func A\nsrc/b.go:9:func B\n"
	for range 3 {
		o.Add([]Step{grep("func", "/r", hits), read("/r/src/b.go"), edit("/r/src/b.go"), read("/r/src/b.go"), grep("other", "/r", "")})
	}
	o.Add([]Step{grep("x", "/r", hits), grep("y", "/r", "")})
	for _, tc := range []struct {
		prev, next string
		want       map[string]string
	}{
		{"Grep", "Read", map[string]string{"file_path": "result.paths"}},
		{"Edit", "Read", map[string]string{"file_path": "arg.file_path"}},
		{"Read", "Edit", map[string]string{"file_path": "arg.file_path"}},
		{"Read", "Grep", nil}, // pattern: no projection
		{"Grep", "Grep", nil}, // one pair only, and no pattern
	} {
		got := o.Tools[tc.prev].Next[tc.next].Projections(minPairs)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s→%s projections (-want +got):\n%s", tc.prev, tc.next, diff)
		}
	}
}
