// Package proxy is the benchmark of the LLM API proxy behind `winnow bench proxy`: it runs
// an in-process fake Anthropic API (internal/llmproxy/fakeapi) and a proxy in front of it,
// both on loopback ports, and measures what the proxy adds to a request against calling the
// API directly, side by side, with the targets:
//
//   - request overhead: POST /v1/messages with a 1 MiB body shaped like a coding agent's
//     (a system prompt, tools, and turns of tool calls whose results are source files, JSON
//     and test logs), the whole exchange; target p50 overhead <= 2 ms;
//   - time to first byte of a streaming response (a ~10 KB body, "stream": true): target p50
//     overhead <= 1 ms;
//   - 200 concurrent streams through the proxy, all held open at once (the fake API holds
//     every stream after its first event until all have one), then run to message_stop:
//     target every one complete without error.
//
// Without a Rewriter the proxy passes bodies through, and the request overhead is measured
// on one 1 MiB body sent again and again: the proxy's own cost (reading the body, one more
// loopback hop, the copy back). With one (`winnow bench proxy --compact`), sending the same
// body again would only measure a cache hit, so the overhead is measured the way an agent
// loads the proxy: growing conversations of 20 requests of about 1 MiB, each request the
// previous one plus one turn (Conversation); the first request of each conversation, which
// the proxy has not seen, is reported apart as the cold overhead.
//
// # Method
//
// Direct and proxied requests interleave, alternating which goes first, so that load from
// a neighbour lands on both alike; untimed warm-up requests come first on both paths, so
// connections are open and pooled. One HTTP client with keep-alive makes every request.
// Percentiles are nearest-rank. The overhead is the difference of the percentiles, the
// ratio that of the p50s. The fake API answers at once, so the direct numbers are the cost
// of loopback HTTP itself, and any overhead shows in full. Nothing is asserted: the report
// prints measurements, targets and whether they were met, and a person reads them; the
// machine's load average at the start and end says how far to trust them.
//
// The same measurements exist as Go benchmarks (go test -bench . ./internal/bench/proxy):
// BenchmarkDirect and BenchmarkViaProxy, BenchmarkTTFBDirect and BenchmarkTTFBViaProxy.
package proxy
