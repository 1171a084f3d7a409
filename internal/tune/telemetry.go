package tune

import (
	"maps"
	"slices"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// Telemetry is what the gateway's telemetry file says: its summary (with how the
// planner did per tool) and the observations of its sessions.
type Telemetry struct {
	Summary *telemetry.Summary
	Obs     *Observations
}

// ReadTelemetry reads the telemetry file at path (and its rotated predecessor), the
// events at or after since (zero: all).
func ReadTelemetry(path string, since time.Time) (*Telemetry, error) {
	s := telemetry.NewSummary(since)
	sessions := map[string][]telemetry.Event{}
	add := func(ev telemetry.Event) {
		s.Add(ev)
		if !ev.Time.Before(since) {
			sessions[ev.Session] = append(sessions[ev.Session], ev)
		}
	}
	files, skipped, err := telemetry.ScanFile(path, add, s.AddProxy)
	if err != nil {
		return nil, err
	}
	s.Files, s.Skipped = files, skipped
	s.Finish()
	obs := NewObservations()
	for _, id := range slices.Sorted(maps.Keys(sessions)) {
		evs := sessions[id]
		slices.SortStableFunc(evs, func(a, b telemetry.Event) int { return a.Time.Compare(b.Time) })
		steps := make([]Step, len(evs))
		for i, ev := range evs {
			steps[i] = eventStep(ev)
		}
		obs.Add(steps)
	}
	return &Telemetry{Summary: s, Obs: obs}, nil
}

// eventStep is the step an event stands for. Its size counts only when the upstream
// answered in full: a duplicate, an error, or an answer from a prefetch, an inline or
// fail-fast says nothing about what a fresh call returns.
func eventStep(ev telemetry.Event) Step {
	st := Step{Tool: ev.Tool, Tokens: -1, Latency: time.Duration(ev.UpstreamUS) * time.Microsecond}
	if !ev.Error && !ev.Dedup && ev.Served == "" {
		st.Tokens = ev.After
	}
	return st
}

// Effect returns how the planner did with tool, nil when it did nothing with it.
func (t *Telemetry) Effect(tool string) *telemetry.Effect {
	for _, ts := range t.Summary.Tools {
		if ts.Tool == tool {
			return ts.Planner
		}
	}
	return nil
}
