package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"
)

// Store is a content-addressed cache with a time to live per entry. Every method is safe for
// concurrent use, and any number of Stores, in any number of processes, may share one backend.
type Store interface {
	// Get returns the value stored under key and whether it was found. An expired entry is
	// not found. Every Get counts as a hit or a miss in [Stats].
	Get(ctx context.Context, key string) ([]byte, bool, error)
	// Put stores value under key for ttl, replacing any entry there; ttl 0 means the store's
	// default TTL ([Options].DefaultTTL).
	Put(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Exists reports whether an unexpired entry is stored under key. It counts as neither a
	// hit nor a miss.
	Exists(ctx context.Context, key string) (bool, error)
	// Delete removes the entry under key; deleting a key that is not there is not an error.
	Delete(ctx context.Context, key string) error
	// Scan calls fn with the key of every unexpired entry that starts with prefix, in no
	// particular order, each key once. An error from fn stops the scan and is returned.
	// fn may call the Store, Delete included.
	Scan(ctx context.Context, prefix string, fn func(key string) error) error
	// Expire removes the entries whose TTL has passed and returns how many it removed.
	Expire(ctx context.Context) (removed int, err error)
	// Stats returns the totals of the backend: the hits and misses of every Store that used
	// it, and the entries and bytes it holds.
	Stats(ctx context.Context) (Stats, error)
	// Close records this Store's pending hits and misses and releases its resources.
	Close() error
}

// Stats are the totals of one backend, shared by every Store that uses it.
//
// Hits and misses are counted by each Store and added to the backend's totals in batches: at
// least once a second while lookups happen, and on Stats and Close. Another Store's lookups
// therefore show up to a second late.
type Stats struct {
	// Hits and Misses count the Gets that found, or did not find, an entry.
	Hits   int64 `json:"hits"`
	Misses int64 `json:"misses"`
	// Entries and Bytes count the unexpired entries and the bytes of their values.
	Entries int64 `json:"entries"`
	Bytes   int64 `json:"bytes"`
	// Expired counts the entries whose TTL has passed and that Expire has not yet removed.
	Expired int64 `json:"expired"`
}

// HitRate returns Hits/(Hits+Misses), or 0 before the first Get.
func (s Stats) HitRate() float64 {
	if n := s.Hits + s.Misses; n > 0 {
		return float64(s.Hits) / float64(n)
	}
	return 0
}

// Limits and defaults.
const (
	// DefaultTTL is the TTL of an entry put with ttl 0 when [Options].DefaultTTL is 0.
	DefaultTTL = 30 * 24 * time.Hour
	// MaxTTL is the longest TTL Put accepts.
	MaxTTL = 100 * 365 * 24 * time.Hour
	// MaxKeyBytes is the length of the longest key.
	MaxKeyBytes = 4096
	// MaxValueBytes is the size of the largest value.
	MaxValueBytes = 256 << 20
)

// ErrInvalid is wrapped by the errors about the caller's input: an empty or overlong key, a
// value over [MaxValueBytes], a negative or overlong TTL. They are never backend failures.
var ErrInvalid = errors.New("invalid store request")

// ErrCorrupt is wrapped by the error of [Open] when the SQLite file is damaged or is not a
// SQLite database.
var ErrCorrupt = errors.New("store file is damaged or not a SQLite database")

// Options configures [Open]. A nil *Options means the defaults.
type Options struct {
	// DefaultTTL is the TTL of entries put with ttl 0; 0 means [DefaultTTL].
	DefaultTTL time.Duration
	// CacheDir is the directory of the SQLite file when the URL is ""; "" means
	// os.UserCacheDir()/winnow. The file in it is [DefaultFile].
	CacheDir string
	// Logger receives warnings, such as hit counts that could not be recorded; nil discards.
	Logger *slog.Logger
	// Now is the SQLite backend's clock, for expiry; nil means time.Now. Redis expires entries
	// by its own clock.
	Now func() time.Time
}

// DefaultFile is the name of the SQLite file in the cache directory.
const DefaultFile = "store.db"

// resolved returns o with every default filled in.
func (o *Options) resolved() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.DefaultTTL == 0 {
		r.DefaultTTL = DefaultTTL
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}
