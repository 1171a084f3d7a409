// Package llm is a small client for calls to cheap models: one prompt in, one text out, with
// the accounting and the manners a batch job needs.
//
// It speaks two wire formats: Anthropic's Messages API, through the official SDK
// (github.com/anthropics/anthropic-sdk-go) pointed at any base URL, and the chat completions
// API of OpenAI and of the many servers that copy it (vLLM, llama.cpp, Ollama, LiteLLM …),
// through a client of its own of a hundred lines, since the official OpenAI module costs
// more to build than all of this package.
//
// Every call goes through the same loop:
//
//   - a concurrency cap (Options.Concurrency calls in flight at most);
//   - a rate limit (Options.RequestsPerMinute, spaced evenly, not in bursts);
//   - retries of failures that may pass (network errors, 408, 409, 429, 5xx, Anthropic's 529)
//     with exponential backoff and jitter, honouring Retry-After; other failures, such as
//     401 or 400, return at once;
//   - token accounting per call (the usage the server reports) and in total (Client.Usage).
//
// The API key is passed in by the caller (package config reads it from the environment) and
// sent only as the provider's auth header; it never appears in errors or logs. The package
// does not stream, does not hold conversations, and does not choose models.
package llm
