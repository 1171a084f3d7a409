package retrieve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	// MapCorpus maps the corpus file into memory instead of reading it
	// (index.MapCorpus): quicker to open, but every mapping lasts as
	// long as the process. For processes that answer and exit.
	MapCorpus bool
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
	mapped  bool

	rankBufs rankBufs // the dense arrays of rankings, reused
	// afterRank, in tests, runs between Context's ranking and its pack, where an
	// index update may land.
	afterRank func()

	mu     sync.Mutex
	loaded *corpus
	hist   historyCache

	// exact counts packs when no Counter was given: exact o200k counts
	// that remember the chunks of packs already counted, which the next
	// pack of a long-lived engine mostly repeats (tokens.Cache).
	exact func() (tokens.Counter, error)
}

// exactCacheBytes bounds the chunks an engine's exact counter remembers.
const exactCacheBytes = 8 << 20

// New returns an Engine over ix.
func New(ix *index.Index, opts *Options) *Engine {
	e := &Engine{ix: ix, par: DefaultParams, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		exact: sync.OnceValues(func() (tokens.Counter, error) { return tokens.NewCache(tokens.O200k, exactCacheBytes) })}
	if opts != nil {
		if opts.Params != nil {
			e.par = *opts.Params
		}
		e.counter = opts.Counter
		e.mapped = opts.MapCorpus
		if opts.Logger != nil {
			e.log = opts.Logger
		}
	}
	return e
}

// corpus returns the in-memory view of the index at its current
// generation: the one in memory, else the corpus file's, else one built
// from the index, which is then saved to the corpus file for the next
// process. A corpus file that is stale or damaged is ignored (and
// replaced), never misread.
func (e *Engine) corpus(ctx context.Context) (*corpus, error) {
	gen, tier, err := e.ix.StampTier(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded != nil && e.loaded.gen == gen {
		return e.loaded, nil
	}
	c, err := openCorpus(e.ix, gen, e.par, e.mapped)
	if err == nil {
		c.tier = tier
		e.loaded = c
		return c, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		e.log.DebugContext(ctx, "corpus file ignored; rebuilding it", "file", e.ix.CorpusPath(), "err", err)
	}
	c, err = e.update(ctx, e.loaded, true)
	if err != nil {
		return nil, fmt.Errorf("load index for retrieval: %w", err)
	}
	if err := saveCorpus(e.ix, c); err != nil {
		e.log.WarnContext(ctx, "could not save the corpus file; the next process rebuilds it", "err", err)
	}
	e.loaded = c
	return c, nil
}

// SaveCorpus brings the index's corpus file up to date: unless its
// header already names the index as it is now, the corpus is built from
// the index (or taken from memory) and written, so that the next query,
// in any process, opens it instead of building it. It reports whether it
// wrote the file. winnow index and the watchers call it after updating.
func (e *Engine) SaveCorpus(ctx context.Context) (bool, error) {
	gen, err := e.ix.Stamp(ctx)
	if err != nil {
		return false, err
	}
	if e.ix.CorpusCurrent(index.CorpusKey{Layout: corpusLayout, Generation: gen}) {
		return false, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.loaded
	if c == nil || c.gen != gen {
		// Nothing queries this corpus unless one was in memory: a
		// process that only saves it need not finish it.
		use := e.loaded != nil
		if c, err = e.update(ctx, e.loaded, use); err != nil {
			return false, fmt.Errorf("load index for retrieval: %w", err)
		}
		if use {
			e.loaded = c
		}
	}
	if err := saveCorpus(e.ix, c); err != nil {
		return false, fmt.Errorf("save the corpus file: %w", err)
	}
	return true, nil
}

// update makes the corpus of the index as it is now: base (the corpus
// in memory) or the corpus file, of an earlier generation, patched with
// the files that changed since (patchCorpus), else one built from the
// index. With finish the corpus is ready to query; without, it is fit
// to save only.
func (e *Engine) update(ctx context.Context, base *corpus, finish bool) (*corpus, error) {
	snap, err := e.ix.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	if base == nil {
		if key, sections, err := e.ix.ReadCorpusLayout(corpusLayout, e.mapped); err == nil {
			base, _ = decodeSections(sections, key.Generation)
		}
	}
	if base != nil {
		c, ok, err := patchCorpus(ctx, snap, base)
		if err != nil {
			return nil, err
		}
		if ok {
			if finish {
				c.finish(e.par)
			}
			return c, nil
		}
		e.log.DebugContext(ctx, "corpus rebuilt: the previous one cannot be patched", "from", base.gen)
	}
	return buildCorpus(ctx, snap, e.par)
}

// Preload opens the corpus file of the index as it is now, if it is
// current, and builds nothing. A one-shot process calls it while it
// brings the index up to date: if the update changed nothing, the query
// finds the corpus open; if it did, the stamp differs and the query
// builds the corpus as it would have.
func (e *Engine) Preload(ctx context.Context) {
	gen, tier, err := e.ix.StampTier(ctx)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded != nil && e.loaded.gen == gen {
		return
	}
	if c, err := openCorpus(e.ix, gen, e.par, e.mapped); err == nil {
		c.tier = tier
		e.loaded = c
	}
}

// Warm loads the corpus of the index as it is now, and saves the corpus
// file if it was stale, so that the next query (in this process or
// another) does not pay for it.
func (e *Engine) Warm(ctx context.Context) error {
	_, err := e.corpus(ctx)
	return err
}
