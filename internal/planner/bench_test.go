package planner_test

import (
	"slices"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/agentcalls"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// gatewayHistory is how many recent calls the gateway passes to Plan (gateway.DefaultHistory).
const gatewayHistory = 8

// A step is one point of a real run at which the gateway plans: the recent calls, and
// the task's keywords.
type step struct {
	history []planner.Call
	intent  []string
}

// realSteps returns every point of the shared trajectories at which the gateway plans.
func realSteps(tb testing.TB) []step {
	ts, err := traj.Load("../compact/traj/testdata/trajectories")
	if err != nil {
		tb.Fatal(err)
	}
	var steps []step
	for _, t := range ts {
		s, err := agentcalls.FromTrajectory(t)
		if err != nil {
			tb.Fatal(err)
		}
		intent := planner.Keywords(s.Task)
		var calls []planner.Call
		for _, c := range s.Calls {
			calls = append(calls, planner.Call{Tool: c.Tool, Args: c.Args, Text: c.Result, Error: c.Error})
			steps = append(steps, step{history: calls[max(0, len(calls)-gatewayHistory):], intent: intent})
		}
	}
	return steps
}

// BenchmarkPlan plans after every call of the shared trajectories (288 calls, the last
// 8 calls as history, the built-in models through a Registry, as the gateway does) and
// reports the time per call against a baseline that only resolves the call's model,
// which the gateway does anyway: x-resolve is the ratio of their means; p50-ns is the
// median time per call of Plan, p50-idle-ns the median over the calls after which
// nothing was run ahead (the gateway target: 0.2 ms added per call at p50).
//
//	nice go test ./internal/planner -run '^$' -bench Plan -count 3
func BenchmarkPlan(b *testing.B) {
	steps := realSteps(b)
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	p := &planner.Planner{Models: reg.Model}
	var sink int
	var resolve, plan time.Duration
	calls := 0
	perCall := make([]time.Duration, 0, len(steps))
	idle := make([]time.Duration, 0, len(steps))
	for b.Loop() {
		perCall, idle = perCall[:0], idle[:0]
		start := time.Now()
		for _, s := range steps {
			m := reg.Model(s.history[len(s.history)-1].Tool)
			sink += m.Cost.TypicalTokens
		}
		resolve += time.Since(start)
		for _, s := range steps {
			start := time.Now()
			m := reg.Model(s.history[len(s.history)-1].Tool)
			cands := p.Plan(s.history, s.intent, planner.DefaultBudget)
			d := time.Since(start)
			sink += m.Cost.TypicalTokens + len(cands)
			perCall = append(perCall, d)
			if !slices.ContainsFunc(cands, func(c planner.Candidate) bool { return c.Decision != planner.Declined }) {
				idle = append(idle, d)
			}
			plan += d
		}
		calls += len(steps)
	}
	_ = sink
	b.ReportMetric(float64(plan.Nanoseconds())/float64(calls), "ns/call")
	b.ReportMetric(float64(plan)/float64(resolve), "x-resolve")
	b.ReportMetric(float64(median(perCall).Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(median(idle).Nanoseconds()), "p50-idle-ns")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
