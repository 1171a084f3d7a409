package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// degradedRetry is how long a degraded store answers as an empty cache without trying the
// backend again: a Redis that is down costs one failed command per interval, not one (with
// go-redis's dial retries, a second or more) per lookup.
const degradedRetry = 5 * time.Second

// Degrade returns s wrapped so that a failing backend never fails the caller: on the first
// error it logs one warning (for a backend that cannot be reached at all, such as a Redis
// nothing listens for, one that names it, the cause, and what running without it costs)
// and behaves as an empty cache (Get and Exists miss, Put and
// Delete do nothing, Scan finds nothing, Expire removes nothing, Stats are zero), and tries
// the backend again every few seconds; when the backend answers again it logs that once.
// A cache that cannot answer costs work, never a wrong answer: a value is only ever one the
// backend returned for that key.
//
// Errors in the caller's input (wrapping [ErrInvalid]) and the caller's own context ending
// are still returned: they are not the backend's failures. Close returns nil; its errors are
// logged.
func Degrade(s Store, logger *slog.Logger) Store {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &degraded{s: s, logger: logger, now: time.Now}
}

type degraded struct {
	s      Store
	logger *slog.Logger
	now    func() time.Time

	mu      sync.Mutex
	down    bool      // the last call to the backend failed
	retryAt time.Time // while down, when to try the backend again
}

// skip reports whether the backend is down and not yet due for another try.
func (d *degraded) skip() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.down && d.now().Before(d.retryAt)
}

// failed reports whether err is a backend failure to hide, and records it: the first of an
// outage is logged.
func (d *degraded) failed(ctx context.Context, op string, err error) bool {
	if err == nil {
		d.mu.Lock()
		wasDown := d.down
		d.down = false
		d.mu.Unlock()
		if wasDown {
			d.logger.Info(fmt.Sprintf("store: %s reachable again; caching resumes", d.name()))
		}
		return false
	}
	if errors.Is(err, ErrInvalid) || ctx.Err() != nil {
		return false
	}
	d.mu.Lock()
	wasDown := d.down
	d.down, d.retryAt = true, d.now().Add(degradedRetry)
	d.mu.Unlock()
	if !wasDown {
		d.warnDown(op, err)
	}
	return true
}

// A describer is a Store that can name its backend for a person ("redis at host:port") and
// say whether other processes share it.
type describer interface {
	describe() (name string, shared bool)
}

// name is how messages name the backend.
func (d *degraded) name() string {
	if ds, ok := d.s.(describer); ok {
		name, _ := ds.describe()
		return name
	}
	return "backend"
}

// warnDown logs the one warning of an outage that op's error err began. A backend that
// could not be dialled is unreachable, and the warning says so in a sentence: where, why,
// and what it costs. Anything else is reported with the operation and the error.
func (d *degraded) warnDown(op string, err error) {
	var dial *net.OpError
	if !errors.As(err, &dial) || dial.Op != "dial" {
		d.logger.Warn("store: unavailable; continuing without a cache", "op", op, "err", err)
		return
	}
	name, shared := d.name(), false
	if ds, ok := d.s.(describer); ok {
		name, shared = ds.describe()
	}
	cost := "the cache: cached results are computed again instead of read from it"
	if shared {
		cost = "the shared cache: telescope nodes and compaction results are computed again " +
			"instead of read from it, and not shared with other processes"
	}
	d.logger.Warn(fmt.Sprintf("store: %s unreachable (%v); continuing without %s; trying again every %s",
		name, dial, cost, degradedRetry))
}

func (d *degraded) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if d.skip() {
		return nil, false, checkKey(key)
	}
	v, ok, err := d.s.Get(ctx, key)
	if d.failed(ctx, "get", err) {
		return nil, false, nil
	}
	return v, ok, err
}

func (d *degraded) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if d.skip() {
		_, err := checkPut(key, value, ttl, DefaultTTL)
		return err
	}
	err := d.s.Put(ctx, key, value, ttl)
	if d.failed(ctx, "put", err) {
		return nil
	}
	return err
}

func (d *degraded) Exists(ctx context.Context, key string) (bool, error) {
	if d.skip() {
		return false, checkKey(key)
	}
	ok, err := d.s.Exists(ctx, key)
	if d.failed(ctx, "exists", err) {
		return false, nil
	}
	return ok, err
}

func (d *degraded) Delete(ctx context.Context, key string) error {
	if d.skip() {
		return checkKey(key)
	}
	err := d.s.Delete(ctx, key)
	if d.failed(ctx, "delete", err) {
		return nil
	}
	return err
}

// Scan passes fn's own errors through; a backend failure ends the scan quietly, after the
// keys already passed to fn.
func (d *degraded) Scan(ctx context.Context, prefix string, fn func(key string) error) error {
	if d.skip() {
		return nil
	}
	var fnErr error
	err := d.s.Scan(ctx, prefix, func(key string) error {
		fnErr = fn(key)
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	if d.failed(ctx, "scan", err) {
		return nil
	}
	return err
}

func (d *degraded) Expire(ctx context.Context) (int, error) {
	if d.skip() {
		return 0, nil
	}
	n, err := d.s.Expire(ctx)
	if d.failed(ctx, "expire", err) {
		return n, nil
	}
	return n, err
}

func (d *degraded) Stats(ctx context.Context) (Stats, error) {
	if d.skip() {
		return Stats{}, nil
	}
	st, err := d.s.Stats(ctx)
	if d.failed(ctx, "stats", err) {
		return Stats{}, nil
	}
	return st, err
}

func (d *degraded) Close() error {
	if err := d.s.Close(); err != nil {
		d.logger.Warn("store: close", "err", err)
	}
	return nil
}
