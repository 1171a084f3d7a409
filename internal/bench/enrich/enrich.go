package enrich

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/winnowhq/winnow/internal/agentcalls"
	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/planner"
)

// Defaults of Options.
const (
	// DefaultWindow is how many of the agent's next calls a candidate may answer to
	// count as used (devboy's definition).
	DefaultWindow = 3
	// DefaultHistory is how many recent calls the planner sees: the gateway's default.
	DefaultHistory = 8
	// Overrun is the ratio of actual to predicted size from which a prediction overran.
	Overrun = 1.3
)

// Options configure Run.
type Options struct {
	// Planner is the planner under test; its Models give the tools' value models (the
	// built-in ones, as the product ships them). Required.
	Planner *planner.Planner
	// Budget is each plan's budget; the zero value means planner.DefaultBudget.
	Budget planner.Budget
	// Window is how many next calls a candidate may answer; 0 means DefaultWindow.
	Window int
	// History is how many recent calls the planner sees; 0 means DefaultHistory.
	History int
	// PerTrajectory adds each trajectory's numbers to the report.
	PerTrajectory bool
	// Progress gets a line per trajectory; nil for none.
	Progress io.Writer
}

// Run replays every trajectory call by call through the planner (see the package
// documentation) and reports how well its plans matched what the agents did next and
// what enrichment would have cost.
func Run(ctx context.Context, ts []traj.Trajectory, opts Options) (*Report, error) {
	if len(ts) == 0 {
		return nil, errors.New("bench enrich: no trajectories")
	}
	if opts.Planner == nil || opts.Planner.Models == nil {
		return nil, errors.New("bench enrich: no planner, or a planner without models")
	}
	if opts.Budget == (planner.Budget{}) {
		opts.Budget = planner.DefaultBudget
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.History <= 0 {
		opts.History = DefaultHistory
	}
	enc, err := costsim.NewEncoder()
	if err != nil {
		return nil, err
	}
	counter := encoderCounter{enc}
	rep := &Report{Budget: opts.Budget, Window: opts.Window, LoadAvg: measure.LoadAvg()}
	start := time.Now()
	for i, t := range ts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := agentcalls.FromTrajectory(t)
		if err != nil {
			return nil, err
		}
		r := opts.replay(s, counter)
		tr, err := r.report(t, enc)
		if err != nil {
			return nil, err
		}
		rep.add(tr, opts.PerTrajectory)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "[%d/%d] %s\n", i+1, len(ts), tr.progress())
		}
	}
	rep.finish()
	rep.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	rep.LoadAvgEnd = measure.LoadAvg()
	return rep, nil
}

type encoderCounter struct{ enc *costsim.Encoder }

func (e encoderCounter) count(text string) int {
	ids, err := e.enc.Encode(text)
	if err != nil {
		return (len(text) + 3) / 4
	}
	return len(ids)
}
