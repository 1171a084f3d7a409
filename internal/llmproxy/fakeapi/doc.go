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
// Request headers steer it: X-Fake-Status: <code> answers with that status and an error
// body in the dialect's shape (with a request-id and, for 429 and 529, a retry-after
// header); X-Fake-Delay: <duration> waits that long before answering, or until the request
// is cancelled; X-Fake-Cache-Read and X-Fake-Cache-Write: <n> bill n of the input tokens
// as read from or written to the prompt cache.
//
// It bills usage in each dialect's shape, where the real API reports it (the message and
// its message_start and message_delta events; a chat completion, and the last chunk of a
// stream asking for stream_options.include_usage; a response and its response.completed
// event): a fourth of the body's bytes as input tokens, 5 output tokens. For each
// clear_tool_uses edit in a request's context_management it reports one applied edit
// (one tool use, 50 input tokens cleared). A gzip-encoded request body is decompressed.
//
// It does not generate text, check models or parameters, or really count tokens: every
// answer says "Hello, world".
package fakeapi
