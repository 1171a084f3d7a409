package retrieve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/tokens"
)

// Options configure an Engine; nil or zero fields mean defaults.
type Options struct {
	// Params of ranking; nil means DefaultParams.
	Params *Params
	// Counter counts tokens for budgets; nil means exact o200k.
	Counter tokens.Counter
	// Logger receives debug events; nil discards them.
	Logger *slog.Logger
}

// An Engine answers tasks from one index. It keeps an in-memory view of
// the index, rebuilt when the index changes, so the first query after a
// change pays for loading and later ones do not. It is safe for
// concurrent use.
type Engine struct {
	ix      *index.Index
	par     Params
	counter tokens.Counter
	log     *slog.Logger

	mu     sync.Mutex
	loaded *corpus
	hist   historyCache
}

// New returns an Engine over ix.
func New(ix *index.Index, opts *Options) *Engine {
	e := &Engine{ix: ix, par: DefaultParams, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if opts != nil {
		if opts.Params != nil {
			e.par = *opts.Params
		}
		e.counter = opts.Counter
		if opts.Logger != nil {
			e.log = opts.Logger
		}
	}
	return e
}

// corpus returns the in-memory view of the index at its current
// generation, loading it if needed.
func (e *Engine) corpus(ctx context.Context) (*corpus, error) {
	gen, err := e.ix.Generation(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded != nil && e.loaded.gen == gen {
		return e.loaded, nil
	}
	c, err := loadCorpus(ctx, e.ix, e.par)
	if err != nil {
		return nil, fmt.Errorf("load index for retrieval: %w", err)
	}
	e.loaded = c
	return c, nil
}
