package store

import "github.com/redis/go-redis/v9"

// The Redis backend keeps, besides one string per entry (its value, with a PX expiry):
//
//   - an expiry index, a sorted set of the stored keys scored by the Unix millisecond at which
//     each expires, so that Stats counts the live entries in O(log n) and Expire finds the
//     expired ones without scanning the keyspace;
//   - a hash of the size of each indexed value, and a hash of totals (hits, misses, and the
//     bytes of the indexed values).
//
// Every change to an entry goes through one of these scripts, so that the value, the index
// and the totals change together, atomically, whatever other clients do. Times are the
// server's (TIME), the same clock PX expires by, never the client's: the clients of a fleet
// need not agree on the time. A Lua number holds a millisecond timestamp exactly.

// luaNow sets now to the server's time in Unix milliseconds.
const luaNow = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// putScript stores a value. KEYS: value, index, sizes, totals. ARGV: key, value, TTL in ms.
var putScript = redis.NewScript(luaNow + `
local size = string.len(ARGV[2])
local old = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or 0)
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], string.format('%d', now + tonumber(ARGV[3])), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], size)
redis.call('HINCRBY', KEYS[4], 'bytes', size - old)
return 1
`)

// deleteScript removes an entry. KEYS: value, index, sizes, totals. ARGV: key.
var deleteScript = redis.NewScript(`
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local size = redis.call('HGET', KEYS[3], ARGV[1])
if size then
	redis.call('HDEL', KEYS[3], ARGV[1])
	redis.call('HINCRBY', KEYS[4], 'bytes', -tonumber(size))
end
return 1
`)

// expireScript removes up to ARGV[2] expired entries and returns how many it removed.
// KEYS: index, sizes, totals. ARGV: the prefix of value keys, the batch size.
var expireScript = redis.NewScript(luaNow + `
local members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now), 'LIMIT', 0, tonumber(ARGV[2]))
local freed = 0
for _, m in ipairs(members) do
	local size = redis.call('HGET', KEYS[2], m)
	if size then
		freed = freed + tonumber(size)
		redis.call('HDEL', KEYS[2], m)
	end
	redis.call('ZREM', KEYS[1], m)
	redis.call('DEL', ARGV[1] .. m)
end
if freed > 0 then
	redis.call('HINCRBY', KEYS[3], 'bytes', -freed)
end
return #members
`)

// statsScript returns {live entries, expired entries, bytes of the live ones, hits, misses}.
// KEYS: index, sizes, totals. It reads the size of every expired entry not yet removed, so
// its cost grows with the entries Expire has left behind.
var statsScript = redis.NewScript(luaNow + `
local live = redis.call('ZCOUNT', KEYS[1], string.format('%d', now), '+inf')
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now))
local expiredBytes = 0
for _, m in ipairs(expired) do
	expiredBytes = expiredBytes + (tonumber(redis.call('HGET', KEYS[2], m)) or 0)
end
local h = redis.call('HMGET', KEYS[3], 'hits', 'misses', 'bytes')
return {live, #expired, (tonumber(h[3]) or 0) - expiredBytes, tonumber(h[1]) or 0, tonumber(h[2]) or 0}
`)
