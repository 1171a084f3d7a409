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
	refCache refCache // the references in memory, once KeepReferences is called (refs.go)
	// afterRank, in tests, runs between Context's ranking and its pack, where an
	// index update may land.
	afterRank func()

	mu     sync.Mutex
	loaded *corpus
	hist   historyCache
	// damaged: this engine found the corpus file damaged, so what it saves
	// is the corpus file whole, not a delta against it.
	damaged bool

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
	c, err := openCorpus(ctx, e.ix, gen, e.par, e.mapped)
	if err == nil {
		c.tier = tier
		e.loaded = c
		return c, nil
	}
	e.noteDamage(err)
	if !errors.Is(err, fs.ErrNotExist) {
		e.log.DebugContext(ctx, "corpus file ignored; rebuilding it", "file", e.ix.CorpusPath(), "err", err)
	}
	c, err = e.update(ctx, e.loaded, true)
	if err != nil {
		return nil, fmt.Errorf("load index for retrieval: %w", err)
	}
	if err := e.save(ctx, c); err != nil {
		e.log.WarnContext(ctx, "could not save the corpus file; the next process rebuilds it", "err", err)
	}
	e.loaded = c
	return c, nil
}

// SaveCorpus brings the index's corpus files up to date: unless the
// corpus file's header, or the delta file's, already names the index as
// it is now, it writes a delta file against the corpus file for the
// files that changed since (saveDelta), or, when that would be large,
// the corpus file whole, built from the index (or taken from memory) —
// so that the next query, in any process, opens them instead of building
// the corpus. It reports whether it wrote a file. winnow index and the
// watchers call it after updating.
func (e *Engine) SaveCorpus(ctx context.Context) (bool, error) {
	gen, err := e.ix.Stamp(ctx)
	if err != nil {
		return false, err
	}
	key := index.CorpusKey{Layout: corpusLayout, Generation: gen}
	if e.ix.CorpusCurrent(key) || e.ix.DeltaCurrent(key) {
		return false, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded == nil && !e.damaged {
		// Nothing in memory to bring up: a delta needs the changed files only.
		if ok, err := e.saveDelta(ctx, ""); err != nil || ok {
			return ok, err
		}
	}
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
	if err := e.save(ctx, c); err != nil {
		return false, fmt.Errorf("save the corpus file: %w", err)
	}
	return true, nil
}

// save writes c for the next process: a delta against the corpus file
// when that is small, else the corpus file whole, which it also is when
// this engine found the corpus file damaged (a delta against it would
// be refused by every reader).
func (e *Engine) save(ctx context.Context, c *corpus) error {
	if !e.damaged {
		if ok, err := e.saveDelta(ctx, c.gen); err != nil || ok {
			return err
		}
	}
	if err := saveCorpus(e.ix, c); err != nil {
		return err
	}
	e.damaged = false
	return nil
}

// saveDelta writes the delta file of the index as it is now (saveDelta),
// if it is at gen (any, when gen is empty).
func (e *Engine) saveDelta(ctx context.Context, gen string) (bool, error) {
	snap, err := e.ix.Snapshot(ctx)
	if err != nil {
		return false, err
	}
	defer snap.Close()
	if gen != "" {
		if now, err := snap.Stamp(ctx); err != nil || now != gen {
			return false, err
		}
	}
	return saveDelta(ctx, e.ix, snap)
}

// noteDamage remembers a corpus file found damaged (see save).
func (e *Engine) noteDamage(err error) {
	if errors.Is(err, index.ErrCorpusDamaged) {
		e.damaged = true
	}
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
		key, sections, err := e.ix.ReadCorpusLayout(corpusLayout, e.mapped)
		if err == nil {
			base, err = decodeSections(sections, key.Generation)
		}
		e.noteDamage(err)
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
	c, err := openCorpus(ctx, e.ix, gen, e.par, e.mapped)
	if err != nil {
		e.noteDamage(err)
		return
	}
	c.tier = tier
	e.loaded = c
}

// Warm loads the corpus of the index as it is now, and saves the corpus
// file if it was stale, so that the next query (in this process or
// another) does not pay for it.
func (e *Engine) Warm(ctx context.Context) error {
	_, err := e.corpus(ctx)
	return err
}
