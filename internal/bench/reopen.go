package bench

import (
	"context"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/index"
)

// reopen times opening the built index and answering one cheap query,
// as every command and server start does. Closing is not timed.
func (b *treeBench) reopen(ctx context.Context) (Durations, error) {
	b.logf("reopen ×%d", b.opts.ReopenRuns)
	var ds []time.Duration
	for range b.opts.ReopenRuns {
		start := time.Now()
		ix, err := index.Open(ctx, b.ix)
		if err != nil {
			return Durations{}, err
		}
		_, err = ix.Stats(ctx)
		ds = append(ds, time.Since(start))
		ix.Close()
		if err != nil {
			return Durations{}, err
		}
	}
	return measure.Summarize(ds), nil
}
