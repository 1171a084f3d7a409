package telemetry

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWriterPlans checks that the planner's part of a call is stored as
// hashes: a candidate's key hashes like the agent's later call with the same
// key, and neither the arguments nor the key reach the file.
func TestWriterPlans(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	search := sampleCall()
	search.Tool, search.Key = "fs__search_files", `fs__search_files {"pattern":"argSECRET"}`
	search.Plans = []Candidate{
		{Tool: "fs__read_file", Args: []byte(`{"path":"/pathSECRET/a.go"}`), Key: `fs__read_file {"path":"/pathSECRET/a.go"}`,
			Decision: DecisionPrefetch, Reason: "probability 0.35", PredictedTokens: 900},
		{Tool: "fs__read_file", Args: []byte(`{"path":"/pathSECRET/b.go"}`), Key: `fs__read_file {"path":"/pathSECRET/b.go"}`,
			Decision: DecisionDeclined, Reason: "over the turn budget", PredictedTokens: 900},
	}
	read := sampleCall()
	read.Tool, read.Key, read.Served, read.PredictedTokens = "fs__read_file", search.Plans[0].Key, ServedPrefetch, 900
	read.Args = []byte(`{ "path": "/pathSECRET/a.go" }`) // spelled differently: the key, not the args, matches
	read.UpstreamLatency = 42 * time.Millisecond

	evSearch, evRead := w.Event(search), w.Event(read)
	got := evSearch.Plans
	want := []Plan{
		{Tool: "fs__read_file", Args: got[0].Args, Key: got[0].Key, Decision: DecisionPrefetch, Reason: "probability 0.35", PredictedTokens: 900},
		{Tool: "fs__read_file", Args: got[1].Args, Key: got[1].Key, Decision: DecisionDeclined, Reason: "over the turn budget", PredictedTokens: 900},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plans mismatch (-want +got):\n%s", diff)
	}
	for _, h := range []string{got[0].Args, got[0].Key, got[1].Key, evSearch.Key, evRead.Key} {
		if len(h) != 16 {
			t.Errorf("hash %q: want 16 hex digits", h)
		}
	}
	if evRead.Key != got[0].Key || evRead.Key == got[1].Key || evSearch.Key == evRead.Key {
		t.Errorf("keys %q (read) %q %q (plans) %q (search): the read must match the first plan only", evRead.Key, got[0].Key, got[1].Key, evSearch.Key)
	}
	if evRead.Args == got[0].Args {
		t.Error("arguments spelled differently hashed alike")
	}
	if evRead.Served != ServedPrefetch || evRead.PredictedTokens != 900 || evRead.UpstreamUS != 42000 {
		t.Errorf("served %q predicted %d upstream %dµs, want prefetch, 900 and 42000µs", evRead.Served, evRead.PredictedTokens, evRead.UpstreamUS)
	}

	w.Record(search)
	w.Record(read)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("SECRET")) || bytes.Contains(data, []byte("path")) {
		t.Errorf("telemetry holds argument values or keys:\n%s", data)
	}
	var back []Event
	if _, err := Scan(bytes.NewReader(data), func(ev Event) { back = append(back, ev) }); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || len(back[0].Plans) != 2 || back[1].Key != evRead.Key {
		t.Errorf("read back %+v", back)
	}
}

// TestWriterNoPlanner checks that a call the planner took no part in
// stores none of its fields, so that files look as they did before it.
func TestWriterNoPlanner(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "t.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ev := w.Event(sampleCall())
	if ev.Key != "" || ev.Plans != nil || ev.Served != "" || ev.PredictedTokens != 0 || ev.UpstreamUS != 0 {
		t.Errorf("planner fields set without a planner: %+v", ev)
	}
}

// TestScanOldEvents reads a line written before the planner's fields
// existed.
func TestScanOldEvents(t *testing.T) {
	in := `{"time":"2026-03-02T10:00:00Z","tool":"gh__get","session":"0123456789abcdef","args":"fedcba9876543210","layer":"none","before":10,"after":10,"dedup":false,"latency_us":5,"counter":"o200k"}` + "\n"
	var got []Event
	skipped, err := Scan(strings.NewReader(in), func(ev Event) { got = append(got, ev) })
	if err != nil || skipped != 0 || len(got) != 1 {
		t.Fatalf("read %d events, skipped %d, err %v", len(got), skipped, err)
	}
	if got[0].Key != "" || got[0].Plans != nil || got[0].Served != "" {
		t.Errorf("old event gained planner fields: %+v", got[0])
	}
}
