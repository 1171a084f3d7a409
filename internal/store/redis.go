package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"
)

// redisNamespace prefixes every Redis key of the store, so that it can share a database with
// other data; the number is the version of the layout described in redis_scripts.go.
const redisNamespace = "winnow:store:1:"

// redisScanCount is the COUNT hint of each SCAN: keys examined per round trip.
const redisScanCount = 1000

// quietRedis silences go-redis's own logger once, when the first Redis store opens. That
// logger writes to stderr, in its own format, every dial that failed (one line per attempt
// of a command: four for a lookup while Redis is down); the store returns those failures
// as errors, and [Degrade] reports an outage once, in winnow's words. go-redis keeps one
// logger for the whole process, so there is no per-client setting to use instead.
var quietRedis sync.Once

// redisStore is the shared backend: any number of processes, on any number of machines, use
// one Redis database. It needs a standalone Redis (or a primary), not Redis Cluster: the
// scripts touch keys in different hash slots.
type redisStore struct {
	c       *redis.Client
	name    string // the URL, credentials redacted, for errors
	addr    string // host:port, for messages
	ttl     time.Duration
	lookups *lookups

	valuePrefix, index, sizes, totals string
}

// openRedis returns a store on the Redis database of rawURL. It does not connect: the first
// command does, so a Redis that is down at start is a failed command, which [Degrade] turns
// into a miss, rather than a failed Open.
func openRedis(rawURL string, o Options) (*redisStore, error) {
	name := Redact(rawURL)
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redis store %s: %w", name, err)
	}
	if opt.ClientName == "" {
		opt.ClientName = "winnow"
	}
	if opt.DialerRetries == 0 {
		// go-redis dials five times, 100 ms apart, for each of a command's four tries: 1.7 s
		// before a store that is down says so. A cache must not cost more than it saves;
		// Degrade already retries a store that went away, every degradedRetry.
		opt.DialerRetries = 1
	}
	quietRedis.Do(func() { redis.SetLogger(&logging.VoidLogger{}) })
	s := &redisStore{
		c:           redis.NewClient(opt),
		name:        name,
		addr:        opt.Addr,
		ttl:         o.DefaultTTL,
		valuePrefix: redisNamespace + "k:",
		index:       redisNamespace + "expiry",
		sizes:       redisNamespace + "size",
		totals:      redisNamespace + "totals",
	}
	s.lookups = newLookups(s.addLookups, o.Logger)
	return s, nil
}

// describe names the store for a person: "redis at 127.0.0.1:6379".
func (s *redisStore) describe() (name string, shared bool) {
	return "redis at " + s.addr, true
}

func (s *redisStore) wrap(op string, err error) error {
	return fmt.Errorf("redis store %s: %s: %w", s.name, op, err)
}

func (s *redisStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := checkKey(key); err != nil {
		return nil, false, err
	}
	v, err := s.c.Get(ctx, s.valuePrefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		s.lookups.record(false)
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.wrap("get "+quoteKey(key), err)
	}
	s.lookups.record(true)
	if v == nil {
		v = []byte{}
	}
	return v, true, nil
}

func (s *redisStore) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	ttl, err := checkPut(key, value, ttl, s.ttl)
	if err != nil {
		return err
	}
	keys := []string{s.valuePrefix + key, s.index, s.sizes, s.totals}
	if err := putScript.Run(ctx, s.c, keys, key, value, ttl.Milliseconds()).Err(); err != nil {
		return s.wrap("put "+quoteKey(key), err)
	}
	return nil
}

func (s *redisStore) Exists(ctx context.Context, key string) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	n, err := s.c.Exists(ctx, s.valuePrefix+key).Result()
	if err != nil {
		return false, s.wrap("exists "+quoteKey(key), err)
	}
	return n == 1, nil
}

func (s *redisStore) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	keys := []string{s.valuePrefix + key, s.index, s.sizes, s.totals}
	if err := deleteScript.Run(ctx, s.c, keys, key).Err(); err != nil {
		return s.wrap("delete "+quoteKey(key), err)
	}
	return nil
}

// Scan walks the keyspace with SCAN MATCH, the prefix's glob characters escaped. SCAN may
// return a key more than once; Scan passes each to fn once.
func (s *redisStore) Scan(ctx context.Context, prefix string, fn func(key string) error) error {
	pattern := globEscape(s.valuePrefix+prefix) + "*"
	seen := make(map[string]struct{})
	var cursor uint64
	for {
		keys, next, err := s.c.Scan(ctx, cursor, pattern, redisScanCount).Result()
		if err != nil {
			return s.wrap(fmt.Sprintf("scan %q", prefix), err)
		}
		for _, k := range keys {
			key := strings.TrimPrefix(k, s.valuePrefix)
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = struct{}{}
			if err := fn(key); err != nil {
				return err
			}
		}
		if next == 0 {
			return nil
		}
		cursor = next
	}
}

// globEscape escapes the characters Redis glob patterns give a meaning: * ? [ ] \.
func globEscape(s string) string {
	if !strings.ContainsAny(s, `*?[]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Expire removes the entries the index says have expired. Redis has already dropped their
// values (PX); what goes is their place in the index and their bytes in the totals.
func (s *redisStore) Expire(ctx context.Context) (int, error) {
	removed := 0
	keys := []string{s.index, s.sizes, s.totals}
	for {
		n, err := expireScript.Run(ctx, s.c, keys, s.valuePrefix, expireBatch).Int()
		if err != nil {
			return removed, s.wrap("expire", err)
		}
		removed += n
		if n < expireBatch {
			return removed, nil
		}
	}
}

func (s *redisStore) Stats(ctx context.Context) (Stats, error) {
	if err := s.lookups.flush(ctx); err != nil {
		return Stats{}, s.wrap("stats: record hits and misses", err)
	}
	v, err := statsScript.Run(ctx, s.c, []string{s.index, s.sizes, s.totals}).Int64Slice()
	if err != nil {
		return Stats{}, s.wrap("stats", err)
	}
	if len(v) != 5 {
		return Stats{}, s.wrap("stats", fmt.Errorf("script returned %d numbers, want 5", len(v)))
	}
	return Stats{Entries: v[0], Expired: v[1], Bytes: v[2], Hits: v[3], Misses: v[4]}, nil
}

// addLookups adds a batch of hits and misses to the totals.
func (s *redisStore) addLookups(ctx context.Context, hits, misses int64) error {
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.HIncrBy(ctx, s.totals, "hits", hits)
		p.HIncrBy(ctx, s.totals, "misses", misses)
		return nil
	})
	return err
}

func (s *redisStore) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	errFlush := s.lookups.close(ctx)
	if errFlush != nil {
		errFlush = s.wrap("close: record hits and misses", errFlush)
	}
	if err := s.c.Close(); err != nil {
		return errors.Join(errFlush, s.wrap("close", err))
	}
	return errFlush
}
