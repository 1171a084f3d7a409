package bench

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// ContextOptions configure ContextLatency.
type ContextOptions struct {
	// Winnow is the binary to measure.
	Winnow string
	// Repo is the tree to ask about; its index is built (or brought up to
	// date) by a first call that is not measured.
	Repo string
	// Tasks are the task texts, each asked Runs times.
	Tasks []string
	Runs  int
	// MCP also times the context tool over one long-lived `winnow mcp`.
	MCP bool
}

// ContextLatency is what a task costs: `winnow context` as one process
// per task (what an agent's hook or script runs), against the floor of
// any winnow process (`winnow version`) run the same way, interleaved;
// and, with MCP, the context tool of a long-lived server.
type ContextLatency struct {
	Machine Machine   `json:"machine"`
	Repo    string    `json:"repo"`
	Tasks   int       `json:"tasks"`
	Runs    int       `json:"runs"`
	Context ProcStats `json:"context"`
	Floor   ProcStats `json:"floor"`
	// WallRatio and CPURatio are context's p50 over the floor's.
	WallRatio float64 `json:"wall_ratio"`
	CPURatio  float64 `json:"cpu_ratio"`
	// MCP is the wall time of a context tool call, as its client sees it.
	MCP *Durations `json:"mcp,omitempty"`
}

// MeasureContext runs the benchmark.
func MeasureContext(ctx context.Context, opts ContextOptions) (*ContextLatency, error) {
	if len(opts.Tasks) == 0 {
		return nil, fmt.Errorf("no tasks: give --data a JSONL file with problem statements of this repository")
	}
	runs := max(opts.Runs, 1)
	res := &ContextLatency{Machine: thisMachine(), Repo: opts.Repo, Tasks: len(opts.Tasks), Runs: runs}
	// Warm-up: builds the index and the corpus file if needed.
	if _, err := runProc(ctx, opts.Repo, opts.Winnow, "context", "--format", "xml", opts.Tasks[0]); err != nil {
		return nil, err
	}
	var ctxRuns, floorRuns []procRun
	for range runs {
		for _, task := range opts.Tasks {
			r, err := runProc(ctx, opts.Repo, opts.Winnow, "context", task)
			if err != nil {
				return nil, err
			}
			ctxRuns = append(ctxRuns, r)
			f, err := runProc(ctx, opts.Repo, opts.Winnow, "version")
			if err != nil {
				return nil, err
			}
			floorRuns = append(floorRuns, f)
		}
	}
	res.Context, res.Floor = procStats(ctxRuns), procStats(floorRuns)
	res.WallRatio = ratio(float64(res.Context.Wall.P50), float64(res.Floor.Wall.P50))
	res.CPURatio = ratio(float64(res.Context.CPU.P50), float64(res.Floor.CPU.P50))
	if opts.MCP {
		d, err := mcpContext(ctx, opts, runs)
		if err != nil {
			return nil, err
		}
		res.MCP = &d
	}
	res.Machine.LoadAvgEnd = measure.LoadAvg()
	return res, nil
}

// mcpContext times the context tool over a real stdio session with a
// `winnow mcp` started in the tree; the first call, which loads the
// corpus, is not counted.
func mcpContext(ctx context.Context, opts ContextOptions, runs int) (Durations, error) {
	cmd := exec.CommandContext(ctx, opts.Winnow, "mcp")
	cmd.Dir = opts.Repo
	client := mcp.NewClient(&mcp.Implementation{Name: "winnow-bench", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return Durations{}, fmt.Errorf("start winnow mcp in %s: %w", opts.Repo, err)
	}
	defer sess.Close()
	call := func(task string) (time.Duration, error) {
		start := time.Now()
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "context", Arguments: map[string]any{"task": task}})
		d := time.Since(start)
		if err == nil && res.IsError {
			err = fmt.Errorf("context tool: %v", res.Content)
		}
		return d, err
	}
	if _, err := call(opts.Tasks[0]); err != nil {
		return Durations{}, err
	}
	var ds []time.Duration
	for range runs {
		for _, task := range opts.Tasks {
			d, err := call(task)
			if err != nil {
				return Durations{}, err
			}
			ds = append(ds, d)
		}
	}
	return measure.Summarize(ds), nil
}
