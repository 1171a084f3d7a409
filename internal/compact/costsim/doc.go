// Package costsim simulates provider prompt caches over the requests of
// one conversation and prices them, so that a compaction can be judged
// by what it costs and not only by the tokens it removes. It does not
// read request bodies (internal/compact/traj and internal/bench/compact
// turn those into token ids) and it does not call any API.
//
// # Why simulate
//
// Providers bill a cached input token at a fraction of an uncached one,
// and they serve from the cache only an exact prefix of an earlier
// request. A compaction that rewrites an old message every turn sends
// fewer tokens but makes every byte after the rewrite a cache miss, turn
// after turn; one that rewrites rarely, in large batches, and then keeps
// its rewrites byte-identical, pays one miss per batch. Counting tokens
// cannot tell the two apart; a cache simulation can.
//
// # Requests as token ids
//
// A Request is its segments (tool definitions, system prompt, one segment
// per message) as token ids. Chat templates frame each message with
// special tokens, so the token stream of a request is the concatenation of
// its segments' token ids and BPE never merges across a segment boundary:
// tokenising each segment on its own gives the provider's ids, and lets a
// segment shared by many requests (every message appears in every later
// request) be tokenised once. Two requests share a prefix as far as they
// share leading segments and then, inside the first segment that differs,
// leading token ids. The Cache keeps a trie of the segments of every
// request sent, keyed by a hash of each segment's ids (compared in full on
// a hash match), so pricing a request costs one hash per segment plus one
// token comparison at the first difference.
//
// # Anthropic (Breakpoints)
//
// Every request is assumed to carry one cache breakpoint, at the end of
// its last message: what Claude Code does and what automatic caching
// does. At a breakpoint the provider looks for the longest prefix that an
// earlier request wrote to the cache (an earlier request's whole prompt,
// up to its breakpoint) and that this request starts with, and reads it;
// the tokens from there to the breakpoint are written. So for a request
// of n tokens:
//
//   - n below MinPrefix (1024): nothing is read or written, all n cost 1;
//   - else read = the length of the longest live earlier entry that is a
//     prefix of the request (0 if none), write = n − read; cost =
//     0.1·read + 1.25·write.
//
// A read refreshes the entry's 5-minute TTL, as Anthropic's cache does.
// The real cache looks back at most about 20 content blocks from a
// breakpoint for an earlier entry; a turn appends an assistant message and
// a tool result, far fewer, so the simulation does not model the limit.
// Entries are per conversation: caches shared across conversations (the
// same tools and system prompt) are not modelled, which leaves every
// variant, the baseline included, the same first-request miss.
//
// # OpenAI (AutoPrefix)
//
// OpenAI caches every prompt of at least 1024 tokens automatically, with
// no write premium, and serves the longest prefix a request shares with a
// recent one, counted in 128-token increments past the first 1024: cached
// = 1024 + 128·⌊(lcp − 1024)/128⌋ when the common prefix lcp reaches 1024,
// else 0, where lcp is taken over every live earlier request (prefixes are
// matched partially, inside a segment, unlike Anthropic's whole entries).
// Cached tokens cost Read (0.5 for gpt-4o; a parameter), the others 1. The
// simulation assumes every request reaches the same cache machine, which
// OpenAI's routing by prompt prefix makes likely for one conversation.
//
// # Time
//
// Trajectories rarely record when each request was sent. A Request with
// a zero Time is taken to be sent within the TTL of the one before, which
// is what an agent loop does between tool calls; given Times, entries
// unused for longer than the TTL are gone. Costs are in units of one
// uncached input token, so a ratio of two costs is a ratio of dollars at
// any per-token price.
package costsim
