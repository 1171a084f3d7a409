package telescope

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/tokens"
)

// A Store is the content-addressed cache nodes live in; a store.Store is one. A
// store shared by several processes (or machines, with Redis) shares their nodes.
type Store interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// DefaultMaxFileBytes is the size above which a file is skipped as too large.
const DefaultMaxFileBytes = 1 << 20

// maxMemo bounds the nodes an Engine keeps in memory; past it the memory is cleared (the
// store still holds them).
const maxMemo = 200_000

// Options configure an Engine. Zero fields mean their defaults.
type Options struct {
	// Root is the directory every path is relative to, and that no path may leave. Required.
	Root string
	// Store keeps nodes across builds and processes; nil keeps them in this Engine only.
	Store Store
	// TTL is passed with every Put; 0 lets the store apply its default.
	TTL time.Duration
	// Symbols gives code units their definitions; nil parses each file with tree-sitter.
	Symbols SymbolSource
	// Strategies are the strategies builds may name; nil means the built-in ones.
	Strategies *Registry
	// Counter counts tokens; nil means exact o200k counts.
	Counter tokens.Counter
	// MaxFileBytes skips larger files; default DefaultMaxFileBytes.
	MaxFileBytes int64
	// Workers is how many units are abstracted at once; default max(GOMAXPROCS, 8), since
	// llm strategies wait on the network.
	Workers int
	// Logger receives store failures and debug events; nil discards.
	Logger *slog.Logger
}

// An Engine builds telescopes of the tree under its root and answers drilldowns. It is safe
// for concurrent use.
type Engine struct {
	root     string
	store    Store
	ttl      time.Duration
	symbols  SymbolSource
	reg      *Registry
	counter  tokens.Counter
	maxBytes int64
	workers  int
	log      *slog.Logger

	mu   sync.Mutex
	memo map[string]*Node
}

// New returns an Engine for opts.Root.
func New(opts *Options) (*Engine, error) {
	if opts == nil || opts.Root == "" {
		return nil, errors.New("new telescope: no root directory")
	}
	o := *opts
	abs, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, fmt.Errorf("new telescope: %w", err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("new telescope: %w", err)
	}
	if o.Symbols == nil {
		o.Symbols = ParseSymbols{}
	}
	if o.Strategies == nil {
		if o.Strategies, err = NewRegistry(nil, nil); err != nil {
			return nil, err
		}
	}
	if o.Counter == nil {
		if o.Counter, err = tokens.Exact(tokens.O200k); err != nil {
			return nil, fmt.Errorf("new telescope: %w", err)
		}
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.Workers <= 0 {
		o.Workers = max(runtime.GOMAXPROCS(0), 8)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Engine{
		root: root, store: o.Store, ttl: o.TTL, symbols: o.Symbols, reg: o.Strategies,
		counter: o.Counter, maxBytes: o.MaxFileBytes, workers: o.Workers, log: o.Logger,
		memo: make(map[string]*Node),
	}, nil
}

// Root returns the absolute root, symbolic links resolved.
func (e *Engine) Root() string { return e.root }

// Strategies returns the engine's registry.
func (e *Engine) Strategies() *Registry { return e.reg }
