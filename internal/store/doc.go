// Package store provides winnow's content-addressed cache: values (compaction results,
// telescope nodes, prefetched tool results) under keys derived from everything that produced
// them, each with a time to live, and hit, miss, entry and byte totals that every process
// using the cache shares.
//
// # Keys
//
// [Key] derives a key from the source, the strategy's version and name, the level and the
// content: compact:{source}:{strategy_version}:{strategy}:{hash}. Any change to any input
// gives a new key, so a cached value is never stale and never needs invalidating: a new
// strategy version simply stops asking for the old keys, which expire. Siblings keep their
// keys, so changing one file of a corpus recomputes only what depends on it. [KeyPrefix]
// selects one source's keys for [Store].Scan.
//
// # Backends
//
// [Open] chooses by URL:
//
//   - SQLite, the embedded default ("" or sqlite:///path.db): one file in WAL mode with a busy
//     timeout, so a server and the CLI (any number of processes) use it at once; values in an
//     ordinary rowid table; expiry by the clock of the process ([Options].Now).
//   - Redis (redis:// or rediss://), shared by a team or a fleet: one string per value with a
//     PX expiry, plus an expiry index and totals that Lua scripts update atomically with the
//     value; expiry by the server's clock. See redis_scripts.go for the layout.
//
// Both behave alike, down to the millisecond: an entry is live while now <= put time + TTL.
// An expired entry is invisible at once (Get misses, Exists is false, Scan skips it) and
// is removed, with its bytes, by [Store].Expire, which `winnow store gc` runs.
//
// # Totals
//
// Entries, bytes and expired entries are read from the backend when asked. Hits and misses
// are counted in memory by each Store and added to the backend's totals at least once a second
// while lookups happen, and on Stats and Close, so that a Get costs no write.
//
// # Failure
//
// A cache that cannot answer must cost work, never correctness. [Degrade] wraps a Store so
// that backend errors become misses and no-ops, with one warning per outage; for a Redis
// that cannot be reached it is one sentence naming the address, the cause and the cost.
// Open does not connect to Redis, so a Redis that is down at start degrades the same way.
// go-redis's own logger, which would print every failed dial to stderr, is silenced when
// the first Redis store opens: its failures reach the caller as errors instead. A damaged SQLite
// file is an error at Open ([ErrCorrupt]) naming the file and saying what to do.
//
// The package does not read configuration or environment variables (except
// os.UserCacheDir for the default location), does not decide what to cache, and does not
// evict by size: entries leave when their TTL passes or when deleted.
package store
