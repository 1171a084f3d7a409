// Package fakeapi is an in-process stand-in for the Anthropic and OpenAI HTTP APIs, for
// testing and benchmarking the proxy against a real HTTP server without paying for calls.
//
// It answers POST /v1/messages (Anthropic), POST /v1/chat/completions and POST /v1/responses
// (OpenAI) in the real wire formats, streamed as server-sent events when the body asks for
// "stream": true, and GET /v1/models in either dialect. Like the real APIs it rejects a
// request without credentials (401) and a body that is not JSON (400). It records what it
// received (method, path, headers, body) when asked, paces streams through a channel or a
// delay, and reports how each stream ended, so a test can see a client's cancellation
// arrive upstream.
//
// Two request headers steer it: X-Fake-Status: <code> answers with that status and an
// error body in the dialect's shape (with a request-id and, for 429 and 529, a retry-after
// header); X-Fake-Delay: <duration> waits that long before answering, or until the request
// is cancelled.
//
// It does not generate text, check models or parameters, or count tokens: every answer
// says "Hello, world".
package fakeapi
