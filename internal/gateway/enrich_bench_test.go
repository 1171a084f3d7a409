package gateway

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// BenchmarkEnrich is what the planner adds to a whole gateway call when it runs ahead
// nothing: a client calls the test upstream's echo (a stdio child) through a gateway with
// the planner on, and through one with it off, alternately (each first every other
// time), so that both see the same machine. echo's model has a follow-up the planner declines (below its probability
// floor), so the planner does its work: the session's history, the key, the projection,
// the decision and the telemetry annotation. It reports each side's median and the ratio;
// issue 12's target is at most 0.2 ms added at the median.
//
//	nice go test ./internal/gateway -run '^$' -bench Enrich
func BenchmarkEnrich(b *testing.B) {
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	unlikely := readOnly(toolvalue.FollowUp{Tool: "up__big", Probability: 0.1, Args: map[string]string{"bytes": "arg.alpha"}})
	reg.SetUser(rules{"up__echo": unlikely, "up__big": readOnly()}.layer())
	ups := []config.Upstream{stdioUpstream(b, "up", nil)}
	off := startGateway(b, ups, &Options{Shaper: pipeline.Default(pipeline.Options{})})
	on := startGateway(b, ups, &Options{Shaper: pipeline.Default(pipeline.Options{}),
		Enrich: &Enrich{Mode: config.EnrichPrefetch, Tools: reg}})
	clients := []*mcp.ClientSession{off.connect(b, clientOptions{}).cs, on.connect(b, clientOptions{}).cs}
	args := map[string]any{"zeta": "benchmark the planner", "alpha": 64}
	ctx := context.Background()
	var took [2][]time.Duration
	for n := 0; b.Loop(); n++ {
		for j := range clients {
			i := (j + n) % 2 // each goes first every other time
			cs := clients[i]
			start := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "up__echo", Arguments: args})
			took[i] = append(took[i], time.Since(start))
			if err != nil || res.IsError {
				b.Fatalf("call: %v %v", err, res)
			}
		}
	}
	b.StopTimer()
	if n := on.gw.enrich.stats.started.Load(); n != 0 {
		b.Fatalf("the planner ran %d follow-ups ahead; the benchmark wants none", n)
	}
	p50off, p50on := median(took[0]), median(took[1])
	b.ReportMetric(float64(p50off.Nanoseconds())/1e3, "off-p50-µs")
	b.ReportMetric(float64(p50on.Nanoseconds())/1e3, "on-p50-µs")
	b.ReportMetric(float64(p50on-p50off)/1e3, "added-p50-µs")
	b.ReportMetric(float64(p50on)/float64(p50off), "on/off")
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkEnrichCPU is the planner's own work on one call that runs nothing ahead, the
// same call as BenchmarkEnrich's without the round trips: begin, answer, deliver (with a
// shaper that changes nothing) and end.
func BenchmarkEnrichCPU(b *testing.B) {
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	unlikely := readOnly(toolvalue.FollowUp{Tool: "up__big", Probability: 0.1, Args: map[string]string{"bytes": "arg.alpha"}})
	reg.SetUser(rules{"up__echo": unlikely, "up__big": readOnly()}.layer())
	h := startGateway(b, nil, &Options{Enrich: &Enrich{Mode: config.EnrichPrefetch, Tools: reg}})
	u := newUpstream(h.gw, stdioUpstream(b, "up", nil))
	args := []byte(`{"zeta":"benchmark the planner","alpha":64}`)
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(args)}},
		StructuredContent: map[string]any{"echoed": string(args)}}
	ctx := context.Background()
	for b.Loop() {
		ec := h.gw.enrich.begin(u, nil, &Call{Tool: "up__echo", Args: args})
		if ec.answer(ctx) != nil {
			b.Fatal("answered without the upstream")
		}
		ec.deliver(ctx, Passthrough{}, res)
		ec.end()
	}
}
